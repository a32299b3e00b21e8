/* A reduction's value in its accumulator type, what the reference knows of
 * an input, and the half types (value.c). The CPU reference that computes
 * them is analysis/reference.c. */
#ifndef RS_VALUE_H
#define RS_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "rs_types.h"

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

/* Bytes of the accumulator value -> rs_value, and back. */
rs_value rs_value_from_bytes(rs_dtype acc, const void *bytes);
void rs_value_to_bytes(const rs_value *v, void *bytes);
void rs_value_format(const rs_value *v, char *buf, size_t len);

#endif
