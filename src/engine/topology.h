/* How the GPUs of this machine are linked (NVML, loaded at run time). */
#ifndef RS_TOPOLOGY_H
#define RS_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/multi.h"

#define RS_LINKS_MAX (RS_GPUS_MAX * (RS_GPUS_MAX - 1) / 2)

/* The GPUs a run over several can use: CUDA's device count (its error, if
 * any, returned, the count 0). Test-only, REDSCOPE_TEST_GPUS=K (2 to
 * RS_GPUS_MAX) where CUDA sees a device: K GPUs, every one CUDA device 0,
 * so the paths over several GPUs run on a machine with one
 * (tests/gpu/test_gpu_multi_virtual.py; NCCL refuses them). */
int rs_gpus_virtual(void); /* K, or 0 when not set */
int rs_gpu_count(int *count);
int rs_gpu_dev(int g); /* the CUDA device of a run's GPU g */

/* The pairs among GPUs 0..gpus-1 (at most max), each with its link: NVLink
 * where NVML says so, else the PCIe path; CUDA's peer access either way.
 * Without NVML: peer access alone, the path unknown. Returns the pairs. */
int rs_topology(int gpus, rs_link *pairs, int max);

/* The same in a line (rs_links_describe). */
void rs_topology_describe(int gpus, char *buf, size_t len);

/* NVLink's data counters from NVML: the payload a GPU's links have sent
 * and received since the driver loaded, all its links summed (NVML's
 * throughput fields, in KiB, or NVLink 5's byte counts). Device-wide:
 * other processes' traffic on that GPU counts too. */
typedef struct rs_nvlink rs_nvlink;
/* The counters of CUDA devices dev[0..gpus): NULL without NVML, or where
 * one of them has no active NVLink or no counters. */
rs_nvlink *rs_nvlink_open(const int *dev, int gpus);
/* Every GPU's bytes sent and received so far, in tx[0..gpus) and rx: 1, or
 * 0 where a counter could not be read. */
int rs_nvlink_read(const rs_nvlink *n, uint64_t *tx, uint64_t *rx);
void rs_nvlink_close(rs_nvlink *n);

#endif
