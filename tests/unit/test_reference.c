/* Inputs, the CPU reduction, the reference and its tolerance. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "analysis/reference.h"

static void half_types(void)
{
    CHECK(rs_f32_to_f16(1.0f) == 0x3c00);
    CHECK(rs_f32_to_f16(-2.0f) == 0xc000);
    CHECK(rs_f32_to_f16(65504.0f) == 0x7bff);
    CHECK(rs_f32_to_f16(65520.0f) == 0x7c00);          /* rounds to infinity */
    CHECK(rs_f32_to_f16(0x1.0p-24f) == 0x0001);        /* smallest subnormal */
    CHECK(rs_f32_to_f16(1.0f + 0x1.0p-11f) == 0x3c00); /* tie to even */
    CHECK(rs_f32_to_f16(1.0f + 0x1.8p-11f) == 0x3c01);
    CHECK(rs_f16_to_f32(0x3555) == 0x1.554p-2f);
    CHECK(rs_f16_to_f32(0x0001) == 0x1.0p-24f);
    CHECK(isinf(rs_f16_to_f32(0x7c00)));
    CHECK(rs_f32_to_bf16(1.0f) == 0x3f80);
    CHECK(rs_f32_to_bf16(1.0f + 0x1.0p-8f) == 0x3f80); /* tie to even */
    CHECK(rs_f32_to_bf16(1.0f + 0x1.8p-8f) == 0x3f81);
    CHECK(rs_bf16_to_f32(0xc040) == -3.0f);
    for (uint32_t h = 0; h < 0x7c00; h += 7) CHECK(rs_f32_to_f16(rs_f16_to_f32((uint16_t)h)) == h);
}

/* The CPU reduction agrees with the reference for every type, op and
 * distribution over sizes around the 8-lane and 4096-block edges. */
static void cpu_matches_reference(void)
{
    const uint64_t sizes[] = {1, 7, 8, 9, 1093, 4095, 4096, 4097, 65543, 1000003};
    int bad = 0;
    for (int t = 0; t < RS_DTYPE_COUNT; t++)
        for (int op = 0; op < RS_OP_COUNT; op++)
            for (int d = 0; d < RS_DIST_COUNT; d++)
                for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                    const uint64_t n = sizes[k];
                    void *buf = malloc(n * 8);
                    rs_input_fill(buf, t, op, d, 7, n);
                    rs_reference ref;
                    rs_reference_compute(buf, t, op, n, &ref);
                    const rs_value v = rs_cpu_reduce(buf, t, op, n);
                    const rs_check c = rs_reference_check(&ref, &v, op, n, rs_cpu_reduce_chain(n));
                    if (!c.ok) bad++;
                    CHECK_MSG(c.ok, "type %d op %d dist %d n %llu: err %g tol %g", t, op, d,
                              (unsigned long long)n, c.rel_err, c.tol);
                    free(buf);
                }
    CHECK(bad == 0);
}

static void inputs(void)
{
    /* Deterministic in the seed, different across seeds. */
    int32_t a[64], b[64], c[64];
    rs_input_fill(a, RS_INT32, RS_SUM, RS_DIST_RANDOM, 1, 64);
    rs_input_fill(b, RS_INT32, RS_SUM, RS_DIST_RANDOM, 1, 64);
    rs_input_fill(c, RS_INT32, RS_SUM, RS_DIST_RANDOM, 2, 64);
    CHECK(memcmp(a, b, sizeof a) == 0 && memcmp(a, c, sizeof a) != 0);
    for (int i = 0; i < 64; i++) CHECK(a[i] >= -1000 && a[i] <= 1000);
    /* Integer product inputs are odd: the product never collapses to 0. */
    rs_input_fill(a, RS_INT32, RS_PROD, RS_DIST_RANDOM, 1, 64);
    for (int i = 0; i < 64; i++) CHECK(a[i] & 1);
    /* Float product of a large input stays a normal number. */
    const uint64_t n = 1u << 22;
    float *f = malloc(n * sizeof *f);
    rs_input_fill(f, RS_FLOAT32, RS_PROD, RS_DIST_SIGNED, 3, n);
    rs_reference ref;
    rs_reference_compute(f, RS_FLOAT32, RS_PROD, n, &ref);
    CHECK(isnormal(ref.exact.f) && fabs(log(fabs(ref.exact.f))) < 60);
    free(f);
}

static void verdicts(void)
{
    /* Integers: exact, and one missing element is caught. */
    const uint64_t n = 100000;
    int32_t *x = malloc(n * sizeof *x);
    rs_input_fill(x, RS_INT32, RS_SUM, RS_DIST_RANDOM, 5, n);
    rs_reference ref;
    rs_reference_compute(x, RS_INT32, RS_SUM, n, &ref);
    rs_value v = rs_cpu_reduce(x, RS_INT32, RS_SUM, n - 1);
    rs_check c = rs_reference_check(&ref, &v, RS_SUM, n, 10);
    CHECK(!c.ok || x[n - 1] == 0);
    free(x);

    /* int32 sum wraps like the GPU's. */
    int32_t big[3] = {INT32_MAX, 1, 1};
    rs_reference_compute(big, RS_INT32, RS_SUM, 3, &ref);
    CHECK(ref.exact.i == (int64_t)INT32_MIN + 1);
    v = rs_cpu_reduce(big, RS_INT32, RS_SUM, 3);
    CHECK(v.i == ref.exact.i);

    /* Floats: within the tolerance passes, poison (NaN) never does. */
    float f[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    rs_reference_compute(f, RS_FLOAT32, RS_SUM, 4, &ref);
    CHECK(ref.exact.f == 10.0 && ref.scale == 10.0);
    rs_value got = {RS_FLOAT32, 0, 10.0};
    c = rs_reference_check(&ref, &got, RS_SUM, 4, 4);
    CHECK(c.ok && c.abs_err == 0.0 && c.tol > 0.0);
    got.f = 10.0 * (1.0 + 1e-3);
    CHECK(!rs_reference_check(&ref, &got, RS_SUM, 4, 4).ok);
    got.f = NAN;
    CHECK(!rs_reference_check(&ref, &got, RS_SUM, 4, 4).ok);
    got.f = INFINITY;
    CHECK(!rs_reference_check(&ref, &got, RS_SUM, 4, 4).ok);
    /* The tolerance grows with n and with the serial chain. */
    got.f = 10.0;
    const double t1 = rs_reference_check(&ref, &got, RS_SUM, 1000, 10).tol;
    const double t2 = rs_reference_check(&ref, &got, RS_SUM, 1000000, 10).tol;
    const double t3 = rs_reference_check(&ref, &got, RS_SUM, 1000000, 1000000).tol;
    CHECK(t1 < t2 && t2 < t3);
    /* min and max are exact. */
    rs_reference_compute(f, RS_FLOAT32, RS_MIN, 4, &ref);
    got.f = 1.0;
    CHECK(rs_reference_check(&ref, &got, RS_MIN, 4, 4).ok);
    got.f = nextafter(1.0, 2.0);
    CHECK(!rs_reference_check(&ref, &got, RS_MIN, 4, 4).ok);

    char buf[64];
    rs_value iv = {RS_INT64, -9007199254740993LL, 0};
    rs_value_format(&iv, buf, sizeof buf);
    CHECK(strcmp(buf, "-9007199254740993") == 0);
    unsigned char bytes[8];
    rs_value_to_bytes(&iv, bytes);
    CHECK(rs_value_from_bytes(RS_INT64, bytes).i == iv.i);
}

int main(void)
{
    half_types();
    inputs();
    verdicts();
    cpu_matches_reference();
    return check_report("test_reference");
}
