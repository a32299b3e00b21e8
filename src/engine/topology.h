/* How the GPUs of this machine are linked (NVML, loaded at run time). */
#ifndef RS_TOPOLOGY_H
#define RS_TOPOLOGY_H

#include <stddef.h>

#include "core/multi.h"

#define RS_LINKS_MAX (RS_GPUS_MAX * (RS_GPUS_MAX - 1) / 2)

/* The pairs among GPUs 0..gpus-1 (at most max), each with its link: NVLink
 * where NVML says so, else the PCIe path; CUDA's peer access either way.
 * Without NVML: peer access alone, the path unknown. Returns the pairs. */
int rs_topology(int gpus, rs_link *pairs, int max);

/* The same in a line (rs_links_describe). */
void rs_topology_describe(int gpus, char *buf, size_t len);

#endif
