/* Reductions over several GPUs (issue 14's groundwork): how n elements are
 * split over G GPUs, and the bandwidths nccl-tests reports. Pure C, no
 * CUDA or NCCL: tested in CI. */
#ifndef RS_MULTI_H
#define RS_MULTI_H

#include <stddef.h>
#include <stdint.h>

#include "core/request.h"

/* Shard i of n elements over g GPUs: an even split, the remainder one more
 * element each to the first n % g shards. 0 (and offset = count = 0) for
 * g < 1 or i outside 0..g-1. */
int rs_split(uint64_t n, int g, int i, uint64_t *offset, uint64_t *count);

/* nccl-tests' bandwidths of a collective over g ranks moving `bytes` per
 * rank in `seconds`: algorithm bandwidth bytes/seconds, and the bus
 * bandwidth it implies (all-reduce: algbw x 2(g-1)/g; reduce: algbw).
 * 0 for a time or size that is zero, negative, NaN or infinite, or g < 1. */
double rs_algbw(double bytes, double seconds);
double rs_busbw_allreduce(double bytes, double seconds, int g);
double rs_busbw_reduce(double bytes, double seconds, int g);

/* Where an all-reduce size sweep turns from latency- to bandwidth-bound.
 * Bandwidth-bound: from the smallest size whose busbw reaches half the
 * best (*bandwidth); latency-bound: the sizes below it whose time is
 * within 2x of the smallest size's (*latency, the largest). Sizes
 * ascending. Returns RS_AR_CROSSES (both found, *latency < *bandwidth),
 * RS_AR_ALL_BANDWIDTH (the smallest size already at half the best busbw:
 * *latency 0), RS_AR_ALL_LATENCY (no time past 2x the smallest's:
 * *bandwidth 0), or 0 (both 0) with fewer than 3 points, a largest size
 * under 4x the smallest (too narrow to tell), or a size, time or busbw
 * that is not a positive finite number. Both are relative to the range:
 * its smallest size's time and its best busbw. */
enum { RS_AR_CROSSES = 1, RS_AR_ALL_BANDWIDTH, RS_AR_ALL_LATENCY };
int rs_ar_crossover(const double *bytes, const double *us, const double *busbw, int n,
                    double *latency, double *bandwidth);

/* 8 B, 64 KiB, 4 GiB: powers of two as people write them (binary units). */
void rs_fmt_binary(double bytes, char *buf, size_t len);

/* How two GPUs are linked (engine/topology.c reads it from NVML). */
typedef struct rs_link {
    int a, b;
    int nvlinks;  /* NVLink between them: the links from a to b (switched: a's); 0: none */
    int switched; /* through an NVSwitch: the links end at the switch */
    int level;    /* otherwise the PCIe path, NVML's topology level (0..50); -1 unknown */
    int peer;     /* CUDA gives peer access between them */
} rs_link;

/* The links in a line: "NVLink through NVSwitch between every pair (18
 * links per GPU)", or pair by pair ("0-1 NVLink x4, 0-2 PCIe through the
 * host bridge"), cut to len. "" for no pairs. */
void rs_links_describe(const rs_link *pairs, int n, char *buf, size_t len);

/* The ladder over several GPUs (base->gpus != 1): for each variant of
 * base->variants (none given: vectorized and cub), a row on one GPU, then
 * one over base->gpus GPUs per cross-GPU finish (only base->cross when
 * cross_given); cpu and thrust (they end on the host) the one-GPU row
 * alone, user kernels none (the caller adds them, on one GPU). Returns the
 * rows written to out (at most max). */
int rs_multi_ladder(const rs_request *base, int cross_given, rs_request *out, int max);

#endif
