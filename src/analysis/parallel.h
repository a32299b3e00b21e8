/* Work over [0, n) cut into slices, each on a host thread of its own where
 * n is large: the input fill and the reference of a big n would otherwise
 * keep a user waiting on one core. Results depend on the slicing only
 * through what `fn` makes of it (the callers combine slices exactly). */
#ifndef RS_PARALLEL_H
#define RS_PARALLEL_H

#include <stdint.h>

#define RS_PARALLEL_MAX 16

/* fn(ctx, slice, lo, hi) for every slice; returns the number of slices
 * (1..RS_PARALLEL_MAX), slice k covering [k*n/s, (k+1)*n/s). Below
 * `min_per_slice` elements a slice is not worth a thread. A thread that
 * cannot be started runs its slice on the caller's. */
int rs_parallel(uint64_t n, uint64_t min_per_slice, void *ctx,
                void (*fn)(void *ctx, int slice, uint64_t lo, uint64_t hi));

#endif
