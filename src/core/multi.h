/* Reductions over several GPUs (issue 14's groundwork): how n elements are
 * split over G GPUs, and the bandwidths nccl-tests reports. Pure C, no
 * CUDA or NCCL: tested in CI. */
#ifndef RS_MULTI_H
#define RS_MULTI_H

#include <stdint.h>

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

#endif
