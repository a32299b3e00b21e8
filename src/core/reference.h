/* Inputs, the CPU reduction and the reference every GPU result is checked
 * against. Pure host code: no CUDA. */
#ifndef RS_REFERENCE_H
#define RS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "core/rs_types.h"

/* A reduction result in its accumulator type: integers as int64 (int32
 * results sign-extended), floating point as double. */
typedef struct rs_value {
    rs_dtype acc;
    int64_t i;
    double f;
} rs_value;

/* What the reference knows about an input. */
typedef struct rs_reference {
    rs_value exact; /* integers: exact (wrapping); floats: correctly rounded double */
    double scale;   /* sum: sum of |x|; product: |product|; the error is measured against it */
} rs_reference;

/* IEEE binary16 and bfloat16 from float (round to nearest even) and back. */
uint16_t rs_f32_to_f16(float f);
float rs_f16_to_f32(uint16_t h);
uint16_t rs_f32_to_bf16(float f);
float rs_bf16_to_f32(uint16_t h);

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

/* Bytes of the accumulator value -> rs_value, and back. */
rs_value rs_value_from_bytes(rs_dtype acc, const void *bytes);
void rs_value_to_bytes(const rs_value *v, void *bytes);
void rs_value_format(const rs_value *v, char *buf, size_t len);

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

#endif
