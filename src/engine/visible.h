/* Which GPU a GPU process needs, named so that CUDA starts it alone.
 * CUDA starts every GPU it can see (a second on a node of four), so a
 * process that runs on one is started with CUDA_VISIBLE_DEVICES holding
 * that GPU's UUID. The GPUs are read without CUDA: the driver's
 * /proc/driver/nvidia/gpus/BUS/information (model, UUID), in PCI order;
 * CUDA_VISIBLE_DEVICES is then applied as CUDA applies it. No CUDA here. */
#ifndef RS_VISIBLE_H
#define RS_VISIBLE_H

#include <stddef.h>

#define RS_SEEN_MAX 64

/* One GPU as the driver lists it. */
typedef struct rs_gpu_seen {
    char bus[24];   /* PCI address, "0000:18:00.0" */
    char uuid[64];  /* "GPU-2f0b…" */
    char model[96]; /* "NVIDIA H100 80GB HBM3" */
} rs_gpu_seen;

/* The driver's GPUs in PCI order, at most max, from dir (NULL: the
 * driver's /proc folder): their count, or -1 where it cannot be read. */
int rs_gpus_seen(const char *dir, rs_gpu_seen *out, int max);

/* CUDA's device `device` among `all` (PCI order) as a process with
 * CUDA_VISIBLE_DEVICES `cvd` (NULL: unset) and CUDA_DEVICE_ORDER `order`
 * sees them: 1 and its UUID in uuid, or 0 where CUDA's numbering cannot be
 * known for sure (a MIG instance, an entry that is not a plain index or a
 * GPU UUID, models that differ under CUDA's fastest-first order) or the
 * device is not there; then the process must see what it would have seen.
 * *visible: how many GPUs CUDA sees (-1: unknown). */
int rs_visible_pick(const rs_gpu_seen *all, int n, const char *cvd, const char *order, int device,
                    char *uuid, size_t len, int *visible);

/* The same for this machine and environment; 0 as well where
 * REDSCOPE_EVERY_GPU is set (every GPU process sees every GPU) or where
 * CUDA would see one GPU anyway. why (may be NULL) says which, for the
 * trace. */
int rs_visible_one(int device, char *uuid, size_t len, int *visible, char *why, size_t wlen);

#endif
