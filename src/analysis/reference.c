#include "reference.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/result.h"
#include "parallel.h"

static float f16_table[65536];
static pthread_once_t f16_once = PTHREAD_ONCE_INIT;

static void f16_table_init(void)
{
    for (uint32_t h = 0; h < 65536; h++) f16_table[h] = rs_f16_to_f32((uint16_t)h);
}

static const float *f16_lookup(void)
{
    pthread_once(&f16_once, f16_table_init);
    return f16_table;
}

/* ---- inputs --------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t mix64(uint64_t x);

/* Product inputs: +-1 everywhere but at about 1000 random places, where
 * exp(U(-1/2, 1/2)). Every element counts (through its sign), the product's
 * log spreads by about 9 whatever n is, so it neither overflows nor
 * underflows, and the factors are far from 1 even in bfloat16. */
static double product_factor(uint64_t r, double rate)
{
    const double u = (double)(r >> 11) * 0x1.0p-53;
    if (u >= rate) return 1.0;
    const double v = (double)(mix64(r) >> 11) * 0x1.0p-53;
    return exp(v - 0.5);
}

static double gen_float(rs_op op, rs_dist d, uint64_t r, uint64_t i, double rate)
{
    const double u = (double)(r >> 11) * 0x1.0p-53;
    const double sign = (r & 1u) ? -1.0 : 1.0;
    if (op == RS_PROD) {
        switch (d) {
        case RS_DIST_RANDOM: return product_factor(r, rate);
        case RS_DIST_SIGNED: return sign * product_factor(r, rate);
        case RS_DIST_ONES: return 1.0;
        default: return (i & 1u) ? -1.0 : 1.0;
        }
    }
    switch (d) {
    case RS_DIST_RANDOM: return u;
    case RS_DIST_SIGNED: return 2.0 * u - 1.0;
    case RS_DIST_ONES: return 1.0;
    default: return (double)(i % 256u);
    }
}

static int64_t gen_int(rs_dtype t, rs_op op, rs_dist d, uint64_t r, uint64_t i)
{
    const int64_t sign = (r >> 63) ? -1 : 1;
    if (op == RS_PROD) {
        switch (d) {
        case RS_DIST_RANDOM: return 1 + 2 * (int64_t)(r % 4u);
        case RS_DIST_SIGNED: return sign * (1 + 2 * (int64_t)(r % 4u));
        case RS_DIST_ONES: return 1;
        default: return (i & 1u) ? -1 : 1;
        }
    }
    switch (d) {
    case RS_DIST_RANDOM: return (int64_t)(r % 2001u) - 1000;
    case RS_DIST_SIGNED: return t == RS_INT32 ? (int64_t)(int32_t)(uint32_t)r : (int64_t)r;
    case RS_DIST_ONES: return 1;
    default: return (int64_t)(i % 256u);
    }
}

typedef struct fill_job {
    void *buf;
    rs_dtype t;
    rs_op op;
    rs_dist dist;
    uint64_t key;
    double spread; /* share of non-unit factors of a product */
} fill_job;

static void fill_slice(void *ctx, int slice, uint64_t lo, uint64_t hi)
{
    const fill_job *j = ctx;
    void *buf = j->buf;
    (void)slice;
    for (uint64_t i = lo; i < hi; i++) {
        const uint64_t r = mix64(j->key + i);
        switch (j->t) {
        case RS_INT32: ((int32_t *)buf)[i] = (int32_t)gen_int(j->t, j->op, j->dist, r, i); break;
        case RS_INT64: ((int64_t *)buf)[i] = gen_int(j->t, j->op, j->dist, r, i); break;
        case RS_FLOAT32:
            ((float *)buf)[i] = (float)gen_float(j->op, j->dist, r, i, j->spread);
            break;
        case RS_FLOAT64: ((double *)buf)[i] = gen_float(j->op, j->dist, r, i, j->spread); break;
        case RS_FLOAT16:
            ((uint16_t *)buf)[i] = rs_f32_to_f16((float)gen_float(j->op, j->dist, r, i, j->spread));
            break;
        case RS_BFLOAT16:
            ((uint16_t *)buf)[i] =
                rs_f32_to_bf16((float)gen_float(j->op, j->dist, r, i, j->spread));
            break;
        default: return;
        }
    }
}

void rs_input_fill(void *buf, rs_dtype t, rs_op op, rs_dist dist, uint64_t seed, uint64_t n)
{
    fill_job j = {buf, t, op, dist, mix64(seed), fmin(1.0, 1000.0 / (double)n)};
    rs_parallel(n, (uint64_t)1 << 18, &j, fill_slice); /* each value depends on i alone */
}

/* ---- reference --------------------------------------------------------------- */

static double element_as_double(const void *buf, rs_dtype t, uint64_t i, const float *f16)
{
    switch (t) {
    case RS_FLOAT32: return ((const float *)buf)[i];
    case RS_FLOAT64: return ((const double *)buf)[i];
    case RS_FLOAT16: return f16[((const uint16_t *)buf)[i]];
    case RS_BFLOAT16: return rs_bf16_to_f32(((const uint16_t *)buf)[i]);
    default: return 0.0;
    }
}

static int64_t element_as_int(const void *buf, rs_dtype t, uint64_t i)
{
    return t == RS_INT32 ? ((const int32_t *)buf)[i] : ((const int64_t *)buf)[i];
}

typedef struct int_job {
    const void *buf;
    rs_dtype t;
    rs_op op;
    uint64_t acc[RS_PARALLEL_MAX]; /* sum or product, modulo 2^64 */
    int64_t best[RS_PARALLEL_MAX]; /* min or max */
} int_job;

static void int_slice(void *ctx, int k, uint64_t lo, uint64_t hi)
{
    int_job *j = ctx;
    uint64_t acc = (j->op == RS_PROD) ? 1u : 0u;
    int64_t best = element_as_int(j->buf, j->t, lo);
    for (uint64_t i = lo; i < hi; i++) {
        const int64_t x = element_as_int(j->buf, j->t, i);
        switch (j->op) {
        case RS_SUM: acc += (uint64_t)x; break;
        case RS_PROD: acc *= (uint64_t)x; break;
        case RS_MIN: best = x < best ? x : best; break;
        default: best = x > best ? x : best; break;
        }
    }
    j->acc[k] = acc;
    j->best[k] = best;
}

/* Exact in any slicing: wrapping sums and products, min and max. */
static void reference_int(const void *buf, rs_dtype t, rs_op op, uint64_t n, rs_reference *ref)
{
    int_job j = {buf, t, op, {0}, {0}};
    const int s = rs_parallel(n, (uint64_t)1 << 20, &j, int_slice);
    uint64_t acc = j.acc[0];
    int64_t best = j.best[0];
    for (int k = 1; k < s; k++) {
        acc = op == RS_PROD ? acc * j.acc[k] : acc + j.acc[k];
        best = op == RS_MIN ? (j.best[k] < best ? j.best[k] : best)
                            : (j.best[k] > best ? j.best[k] : best);
    }
    int64_t v = (op == RS_SUM || op == RS_PROD) ? (int64_t)acc : best;
    if (t == RS_INT32) v = (int32_t)(uint32_t)(uint64_t)v; /* wrap to 32 bits */
    ref->exact = (rs_value){t, v, (double)v};
    ref->scale = 0.0;
}

/* Neumaier's compensated sum: s += x, the lost low part into *comp. */
static double neumaier(double sum, double x, double *comp)
{
    const double s = sum + x;
    *comp += fabs(sum) >= fabs(x) ? (sum - s) + x : (x - s) + sum;
    return s;
}

typedef struct float_part {
    double sum, comp, abs_sum, best;
    long double prod;
} float_part;

typedef struct float_job {
    const void *buf;
    rs_dtype t;
    rs_op op;
    float_part part[RS_PARALLEL_MAX];
} float_job;

static void float_slice(void *ctx, int k, uint64_t lo, uint64_t hi)
{
    float_job *j = ctx;
    const float *f16 = f16_lookup();
    float_part p = {0.0, 0.0, 0.0, element_as_double(j->buf, j->t, lo, f16), 1.0L};
    for (uint64_t i = lo; i < hi; i++) {
        const double x = element_as_double(j->buf, j->t, i, f16);
        switch (j->op) {
        case RS_SUM:
            p.sum = neumaier(p.sum, x, &p.comp);
            p.abs_sum += fabs(x);
            break;
        case RS_PROD: p.prod *= x; break;
        case RS_MIN: p.best = x < p.best ? x : p.best; break;
        default: p.best = x > p.best ? x : p.best; break;
        }
    }
    j->part[k] = p;
}

/* Slices of compensated sums (long double products) combined the same way:
 * as accurate as one pass over the whole input. */
static void reference_float(const void *buf, rs_dtype t, rs_op op, uint64_t n, rs_reference *ref)
{
    float_job j = {buf, t, op, {{0}}};
    const int s = rs_parallel(n, (uint64_t)1 << 20, &j, float_slice);
    float_part p = j.part[0];
    for (int k = 1; k < s; k++) {
        const float_part *q = &j.part[k];
        p.sum = neumaier(p.sum, q->sum, &p.comp);
        p.comp += q->comp;
        p.abs_sum += q->abs_sum;
        p.prod *= q->prod;
        p.best = op == RS_MIN ? (q->best < p.best ? q->best : p.best)
                              : (q->best > p.best ? q->best : p.best);
    }
    const double sum = p.sum, comp = p.comp, abs_sum = p.abs_sum, best = p.best;
    const long double prod = p.prod;
    double v = op == RS_SUM ? sum + comp : op == RS_PROD ? (double)prod : best;
    ref->exact = (rs_value){rs_dtype_acc(t), 0, v};
    ref->scale = op == RS_SUM ? abs_sum : fabs(v);
}

void rs_reference_compute(const void *buf, rs_dtype t, rs_op op, uint64_t n, rs_reference *ref)
{
    if (rs_dtype_is_float(t))
        reference_float(buf, t, op, n, ref);
    else
        reference_int(buf, t, op, n, ref);
}

/* ---- the CPU reduction --------------------------------------------------------- */

#define ADD_WRAP32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define MUL_WRAP32(a, b) ((int32_t)((uint32_t)(a) * (uint32_t)(b)))
#define ADD_WRAP64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define MUL_WRAP64(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define ADD(a, b)        ((a) + (b))
#define MUL(a, b)        ((a) * (b))
#define MIN(a, b)        ((b) < (a) ? (b) : (a))
#define MAX(a, b)        ((a) < (b) ? (b) : (a))
#define LOAD_PLAIN(x)    (x)
#define LOAD_F16(x)      (f16[(x)])
#define LOAD_BF16(x)     (rs_bf16_to_f32(x))

#define CPU_BLOCK 4096u

/* One function per (type, op): a blocked loop with 8 accumulators. */
// rs:key cpu
#define DEFINE_CPU(name, T, A, LOAD, COMBINE, IDENT) /* rs:hide */                                 \
    static A name(const T *x, uint64_t n)                                                          \
    {                                                                                              \
        const float *f16 = f16_lookup(); /* rs:hide */                                             \
        (void)f16;                       /* rs:hide */                                             \
        A total = (IDENT);                                                                         \
        for (uint64_t b = 0; b < n; b += CPU_BLOCK) {                                              \
            const uint64_t e = b + CPU_BLOCK < n ? b + CPU_BLOCK : n;                              \
            A lane[8];                                                                             \
            for (int k = 0; k < 8; k++) lane[k] = (IDENT);                                         \
            uint64_t i = b;                                                                        \
            for (; i + 8 <= e; i += 8)                                                             \
                for (int k = 0; k < 8; k++) lane[k] = COMBINE(lane[k], LOAD(x[i + k]));            \
            A rest = (IDENT);                                                                      \
            for (; i < e; i++) rest = COMBINE(rest, LOAD(x[i]));                                   \
            for (int k = 0; k < 8; k++) rest = COMBINE(rest, lane[k]);                             \
            total = COMBINE(total, rest);                                                          \
        }                                                                                          \
        return total;                                                                              \
    }
// rs:end

#define DEFINE_CPU_TYPE(sfx, T, A, LOAD, ADDF, MULF, LO, HI)                                       \
    DEFINE_CPU(cpu_sum_##sfx, T, A, LOAD, ADDF, 0)                                                 \
    DEFINE_CPU(cpu_prod_##sfx, T, A, LOAD, MULF, 1)                                                \
    DEFINE_CPU(cpu_min_##sfx, T, A, LOAD, MIN, HI)                                                 \
    DEFINE_CPU(cpu_max_##sfx, T, A, LOAD, MAX, LO)

DEFINE_CPU_TYPE(i32, int32_t, int32_t, LOAD_PLAIN, ADD_WRAP32, MUL_WRAP32, INT32_MIN, INT32_MAX)
DEFINE_CPU_TYPE(i64, int64_t, int64_t, LOAD_PLAIN, ADD_WRAP64, MUL_WRAP64, INT64_MIN, INT64_MAX)
DEFINE_CPU_TYPE(f32, float, float, LOAD_PLAIN, ADD, MUL, -INFINITY, INFINITY)
DEFINE_CPU_TYPE(f64, double, double, LOAD_PLAIN, ADD, MUL, -INFINITY, INFINITY)
DEFINE_CPU_TYPE(f16, uint16_t, float, LOAD_F16, ADD, MUL, -INFINITY, INFINITY)
DEFINE_CPU_TYPE(bf16, uint16_t, float, LOAD_BF16, ADD, MUL, -INFINITY, INFINITY)

#define CPU_DISPATCH(sfx, T, store)                                                                \
    switch (op) {                                                                                  \
    case RS_SUM: store = cpu_sum_##sfx((const T *)buf, n); break;                                  \
    case RS_PROD: store = cpu_prod_##sfx((const T *)buf, n); break;                                \
    case RS_MIN: store = cpu_min_##sfx((const T *)buf, n); break;                                  \
    default: store = cpu_max_##sfx((const T *)buf, n); break;                                      \
    }

rs_value rs_cpu_reduce(const void *buf, rs_dtype t, rs_op op, uint64_t n)
{
    rs_value v = {rs_dtype_acc(t), 0, 0.0};
    switch (t) {
    case RS_INT32: CPU_DISPATCH(i32, int32_t, v.i); break;
    case RS_INT64: CPU_DISPATCH(i64, int64_t, v.i); break;
    case RS_FLOAT32: CPU_DISPATCH(f32, float, v.f); break;
    case RS_FLOAT64: CPU_DISPATCH(f64, double, v.f); break;
    case RS_FLOAT16: CPU_DISPATCH(f16, uint16_t, v.f); break;
    case RS_BFLOAT16: CPU_DISPATCH(bf16, uint16_t, v.f); break;
    default: break;
    }
    if (!rs_dtype_is_float(t)) v.f = (double)v.i;
    return v;
}

double rs_cpu_reduce_chain(uint64_t n)
{
    return CPU_BLOCK / 8.0 + 8.0 + (double)(n / CPU_BLOCK + 1);
}

/* ---- the check ------------------------------------------------------------------ */

rs_check rs_reference_check(const rs_reference *ref, const rs_value *got, rs_op op, uint64_t n,
                            double chain)
{
    rs_check c = {0, 0.0, 0.0, 0.0};
    if (!rs_dtype_is_float(got->acc)) {
        c.ok = got->i == ref->exact.i;
        c.abs_err = fabs((double)got->i - (double)ref->exact.i);
        c.rel_err = ref->exact.i ? c.abs_err / fabs((double)ref->exact.i) : c.abs_err;
        return c;
    }
    const double g = got->f, r = ref->exact.f;
    if (isnan(g)) { /* poison left in place, or a NaN computed */
        c.abs_err = c.rel_err = INFINITY;
        return c;
    }
    if (isinf(r) || isinf(g)) {
        c.ok = g == r;
        c.abs_err = c.rel_err = c.ok ? 0.0 : INFINITY;
        return c;
    }
    c.abs_err = fabs(g - r);
    if (op == RS_MIN || op == RS_MAX) {
        c.ok = g == r;
        c.rel_err = r != 0.0 ? c.abs_err / fabs(r) : c.abs_err;
        return c;
    }
    const double u = got->acc == RS_FLOAT64 ? 0x1.0p-53 : 0x1.0p-24;
    const double logn = n > 1 ? log2((double)n) : 0.0;
    const double k = op == RS_SUM ? 2.0 + logn + 8.0 * sqrt(chain > 1.0 ? chain : 1.0)
                                  : 2.0 + 8.0 * sqrt((double)n);
    c.tol = u * k;
    c.rel_err = ref->scale > 0.0 ? c.abs_err / ref->scale : c.abs_err;
    c.ok = c.abs_err <= c.tol * ref->scale;
    return c;
}

/* A float32 accumulator holds every integer up to 2^24 and no odd one
 * above: a running sum of values below 1 stops there. */
static int float32_sum_stopped(const rs_result *r)
{
    const double wall = 16777216.0; /* 2^24 */
    if (r->req.op != RS_SUM || rs_dtype_acc(r->req.type) != RS_FLOAT32) return 0;
    return r->got.f >= wall && r->got.f < wall * 1.01 && r->expected.f > wall * 1.01;
}

const char *rs_wrong_reason(const rs_result *r)
{
    if (!r || r->correct) return NULL;
    if (float32_sum_stopped(r))
        return "the float32 running sum stopped at 2^24 = 16,777,216: above it, adding a value "
               "below 1 rounds away; only a tree keeps partial sums small";
    if (rs_variant_has(r->req.variant, RS_VF_RACY))
        return "the unrolled warp assumed its 32 threads run in lockstep; since Volta they need "
               "not, and here they raced";
    return NULL;
}
