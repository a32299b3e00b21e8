/* A reduction's value in its accumulator type, and the half types it
 * reads: the words results, files and screens share. */
#include "value.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- half types --------------------------------------------------------- */

uint16_t rs_f32_to_f16(float f)
{
    /* Round to nearest even, by letting the FPU do the rounding for small
     * values and adding a rounding bias for normal ones. */
    const uint32_t inf32 = 255u << 23;
    const uint32_t max16 = (127u + 16u) << 23; /* 65536: rounds to inf */
    const uint32_t magic_u = ((127u - 15u) + (23u - 10u) + 1u) << 23;
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint32_t sign = u & 0x80000000u;
    u ^= sign;
    uint16_t o;
    if (u >= max16) {
        o = (u > inf32) ? 0x7e00 : 0x7c00;
    } else if (u < (113u << 23)) { /* below 2^-14: subnormal half or zero */
        float fu, magic;
        memcpy(&fu, &u, 4);
        memcpy(&magic, &magic_u, 4);
        fu += magic;
        uint32_t r;
        memcpy(&r, &fu, 4);
        o = (uint16_t)(r - magic_u);
    } else {
        const uint32_t odd = (u >> 13) & 1u;
        u += ((uint32_t)(15 - 127) << 23) + 0xfffu + odd;
        o = (uint16_t)(u >> 13);
    }
    return (uint16_t)(o | (sign >> 16));
}

float rs_f16_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t u;
    if (exp == 0) {
        float v = ldexpf((float)mant, -24);
        return sign ? -v : v;
    }
    if (exp == 31)
        u = sign | 0x7f800000u | (mant << 13);
    else
        u = sign | ((exp + 112u) << 23) | (mant << 13);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t rs_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

float rs_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- values ---------------------------------------------------------------------- */

rs_value rs_value_from_bytes(rs_dtype acc, const void *bytes)
{
    rs_value v = {acc, 0, 0.0};
    switch (acc) {
    case RS_INT32: {
        int32_t x;
        memcpy(&x, bytes, 4);
        v.i = x;
        v.f = x;
        break;
    }
    case RS_INT64:
        memcpy(&v.i, bytes, 8);
        v.f = (double)v.i;
        break;
    case RS_FLOAT32: {
        float x;
        memcpy(&x, bytes, 4);
        v.f = x;
        break;
    }
    default: memcpy(&v.f, bytes, 8); break;
    }
    return v;
}

void rs_value_to_bytes(const rs_value *v, void *bytes)
{
    switch (v->acc) {
    case RS_INT32: {
        int32_t x = (int32_t)v->i;
        memcpy(bytes, &x, 4);
        break;
    }
    case RS_INT64: memcpy(bytes, &v->i, 8); break;
    case RS_FLOAT32: {
        float x = (float)v->f;
        memcpy(bytes, &x, 4);
        break;
    }
    default: memcpy(bytes, &v->f, 8); break;
    }
}

void rs_value_format(const rs_value *v, char *buf, size_t len)
{
    if (!rs_dtype_is_float(v->acc))
        snprintf(buf, len, "%lld", (long long)v->i);
    else
        snprintf(buf, len, v->acc == RS_FLOAT32 ? "%.9g" : "%.17g", v->f);
}
