/* nccl-tests beside redscope: the JSON that all_reduce_perf writes with
 * -J FILE, read back into its out-of-place results, so an all-reduce run
 * can show, size by size, the bus bandwidth nccl-tests measures on the
 * same GPUs. Pure (cJSON): tested in CI on a real output. */
#ifndef RS_NCCL_TESTS_H
#define RS_NCCL_TESTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/rs_types.h"

typedef struct rs_nt_point {
    uint64_t bytes;      /* per GPU */
    double us;           /* its out-of-place time */
    double algbw, busbw; /* GB/s */
} rs_nt_point;

/* The out-of-place results of all_reduce_perf's JSON text: up to max
 * points with a positive size and finite, non-negative figures; their count,
 * or -1 with why (not JSON, no "results" list). */
int rs_nt_parse(const char *text, rs_nt_point *out, int max, char *why, size_t len);

/* all_reduce_perf's names of a type and an operation ("float", "prod"). */
const char *rs_nt_type(rs_dtype t);
const char *rs_nt_op(rs_op op);

#endif
