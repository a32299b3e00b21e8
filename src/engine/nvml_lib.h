/* NVML, the driver's management library (libnvidia-ml.so.1), loaded at
 * run time as CUPTI and NCCL are: how GPUs are linked (topology.c) and the
 * board's energy counter (energy.c). Without it both say so and every
 * other feature works. */
#ifndef RS_NVML_LIB_H
#define RS_NVML_LIB_H

#include <stddef.h>

typedef struct rs_nvml_dev_st *rs_nvml_dev; /* nvmlDevice_t */

typedef struct rs_nvml_lib {
    void *lib;
    int (*shutdown)(void);
    int (*by_bus)(const char *, rs_nvml_dev *);
    const char *(*error)(int); /* nvmlErrorString */
} rs_nvml_lib;

/* The library (REDSCOPE_NVML: another path), started: 1, or 0 with why. */
int rs_nvml_open(rs_nvml_lib *n, char *why, size_t len);
/* One of its functions (NULL: this driver's NVML has none). */
void *rs_nvml_sym(const rs_nvml_lib *n, const char *name);
/* NVML's handle of CUDA device d, matched by PCI bus id (which
 * CUDA_VISIBLE_DEVICES does not renumber): 1, or 0. */
int rs_nvml_device(const rs_nvml_lib *n, int d, rs_nvml_dev *out);
/* An NVML status in words. */
const char *rs_nvml_error(const rs_nvml_lib *n, int status);
void rs_nvml_close(rs_nvml_lib *n);

#endif
