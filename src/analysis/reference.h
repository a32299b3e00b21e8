/* Inputs, the CPU reduction and the reference every GPU result is checked
 * against, over host threads (parallel.c). Pure host code: no CUDA. */
#ifndef RS_REFERENCE_H
#define RS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "core/value.h"

/* Fill buf (n elements of type t) with the distribution's values. Values
 * depend only on (t, op, dist, seed, n, i), so any slice can be regenerated.
 * For product: floats are +-1 but for about 1000 factors exp(U(-1/2, 1/2)),
 * integers odd, so the result neither overflows nor collapses to zero. */
void rs_input_fill(void *buf, rs_dtype t, rs_op op, rs_dist dist, uint64_t seed, uint64_t n);

/* Reference result of op over the input, in the accumulator type. */
void rs_reference_compute(const void *buf, rs_dtype t, rs_op op, uint64_t n, rs_reference *ref);

/* One host thread, as a simple program would do it (blocks of 4096 summed
 * with 8 accumulators, then the block results), in the accumulator type. */
rs_value rs_cpu_reduce(const void *buf, rs_dtype t, rs_op op, uint64_t n);

/* Longest chain of dependent operations of the CPU reduction, for the
 * tolerance. */
double rs_cpu_reduce_chain(uint64_t n);

/* The check: is `got` the reference within the tolerance for a reduction
 * whose longest dependent chain is `chain` operations?
 *   integers, min, max: exact
 *   sum:     |got - ref| <= u * (2 + log2 n + 8 sqrt(chain)) * sum|x|
 *   product: |got - ref| <= u * (2 + 8 sqrt(n)) * |ref|
 * with u the unit roundoff of the accumulator type. err and tol are relative
 * to the scale; tol is 0 for exact checks. */
typedef struct rs_check {
    int ok;
    double abs_err;
    double rel_err;
    double tol;
} rs_check;

rs_check rs_reference_check(const rs_reference *ref, const rs_value *got, rs_op op, uint64_t n,
                            double chain);

/* Why a WRONG result is wrong, where the arithmetic or the variant says
 * (a float32 running sum that stopped at 2^24; a warp that raced): one
 * sentence, the same in the explorer, the CLI, the handout and the JSON
 * (wrong_reason); NULL for a right result or a wrong one with no known
 * cause (your kernel's). */
struct rs_result;
const char *rs_wrong_reason(const struct rs_result *r);

#endif
