/* On the GPU: every variant x type x op at the sizes that break reductions,
 * block sizes, finishes, grid-stride shapes, unaligned input and the error
 * paths. Skips (exit 77) where no CUDA device is usable. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "core/catalogue.h"
#include "engine/engine.h"
#include "analysis/reference.h"
#include "kernels/rs_kernels.h"

static rs_engine *eng;
static int runs, refused, racy_wrong, float_stalls;
/* RS_TEST_SAMPLE=K (the compute-sanitizer suite): every K-th configuration,
 * sizes up to 2^21, one repetition; every variant is still reached. */
static unsigned sample;

static rs_status run_one(const rs_request *r, rs_result *res, rs_error *err)
{
    runs++;
    return rs_engine_run(eng, r, NULL, res, err);
}

/* Run and check: correct, or refused exactly when expected. */
static void expect_run(const rs_request *r, int should_refuse, const char *what)
{
    static rs_result res;
    static unsigned calls;
    if (sample > 1 && (calls++ % sample != r->variant % sample || r->n > (1u << 21) + 64)) return;
    rs_error err;
    const rs_status st = run_one(r, &res, &err);
    char n[32];
    rs_format_size(r->n, n, sizeof n);
    if (should_refuse) {
        refused++;
        CHECK_MSG(st == RS_E_USAGE && strlen(err.msg) > 20, "%s %s %s %s n=%s: should be refused",
                  what, rs_variant_name(r->variant), rs_dtype_name(r->type), rs_op_name(r->op), n);
        return;
    }
    CHECK_MSG(st == RS_OK, "%s %s %s %s n=%s block=%u finish=%s: %s", what,
              rs_variant_name(r->variant), rs_dtype_name(r->type), rs_op_name(r->op), n, r->block,
              rs_finish_name(r->finish), err.msg);
    if (st != RS_OK) return;
    if (!res.correct && (rs_catalogue_get(r->variant)->flags & RS_VF_RACY)) {
        racy_wrong++; /* the lesson of that step: reported, not a test failure */
        return;
    }
    /* One float32 accumulator fed by every thread stops growing at 2^24: a
     * value below 1 added to 16,777,216 rounds away. The tool reports it as
     * wrong; the test checks that this, and nothing else, went wrong. */
    if (!res.correct && r->variant == RS_V_ATOMIC && r->op == RS_SUM &&
        rs_dtype_acc(r->type) == RS_FLOAT32 && res.expected.f > 16777216.0) {
        CHECK_MSG(fabs(res.got.f - 16777216.0) <= 16777216.0 * 0.01,
                  "atomic %s sum n=%llu: got %g, not the 2^24 stall", rs_dtype_name(r->type),
                  (unsigned long long)r->n, res.got.f);
        float_stalls++;
        return;
    }
    char got[64], exp[64];
    rs_value_format(&res.got, got, sizeof got);
    rs_value_format(&res.expected, exp, sizeof exp);
    CHECK_MSG(res.correct,
              "%s %s %s %s n=%s block=%u finish=%s: got %s expected %s (err %g tol %g)", what,
              rs_variant_name(r->variant), rs_dtype_name(r->type), rs_op_name(r->op), n, r->block,
              rs_finish_name(r->finish), got, exp, res.rel_err, res.tol);
    CHECK(res.t_median_ms > 0.0 && res.t_min_ms <= res.t_max_ms);
}

static rs_request base(rs_variant v, rs_dtype t, rs_op op, uint64_t n, unsigned block)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.type = t;
    r.op = op;
    r.n = n;
    r.block = block;
    r.warmup = sample > 1 ? 0 : 1;
    r.reps = sample > 1 ? 1 : 2;
    return r;
}

/* The built-in GPU kernels; user kernels: test_gpu_kernels.py. */
static int gpu_variant(int v)
{
    return v != RS_V_CPU && v != RS_V_KERNEL;
}

/* Every variant x type x op x n, with blockDims sampled across 32..1024.
 * Variants innermost: they share one generated input. */
static void matrix(void)
{
    const uint64_t sizes[] = {1, 31, 1000, (1u << 20) + 7, 1024u * 65535u};
    const unsigned pow2[] = {32, 64, 128, 256, 512, 1024};
    const unsigned warp[] = {32, 96, 224, 256, 992, 1024};
    int k = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int t = 0; t < RS_DTYPE_COUNT; t++)
            for (int op = 0; op < RS_OP_COUNT; op++)
                for (int v = 0; v < RS_VARIANT_COUNT; v++, k++) {
                    if (!gpu_variant(v)) continue;
                    const rs_variant_info *vi = rs_catalogue_get(v);
                    const unsigned b = (vi->flags & RS_VF_POW2_BLOCK) ? pow2[k % 6] : warp[k % 6];
                    rs_request r = base(v, t, op, sizes[s], b);
                    expect_run(&r, v == RS_V_ATOMIC && op == RS_PROD, "matrix");
                }
}

/* Every blockDim for every variant on two awkward sizes. */
static void blocks(void)
{
    const unsigned all[] = {32, 64, 96, 128, 256, 480, 512, 992, 1024};
    for (int pass = 0; pass < 2; pass++)
        for (int v = 0; v < RS_VARIANT_COUNT; v++) {
            if (!gpu_variant(v)) continue;
            const rs_variant_info *vi = rs_catalogue_get(v);
            for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
                const unsigned b = all[i];
                rs_request r = pass ? base(v, RS_FLOAT32, RS_MAX, 333333, b)
                                    : base(v, RS_INT32, RS_SUM, (1u << 20) + 7, b);
                expect_run(&r, (vi->flags & RS_VF_POW2_BLOCK) && (b & (b - 1)), "blocks");
            }
        }
}

/* Each finish for each variant that has one. */
static void finishes(void)
{
    const uint64_t sizes[] = {1000, (1u << 20) + 7, 1u << 24};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int op = 0; op < RS_OP_COUNT; op++)
            for (int v = 0; v < RS_VARIANT_COUNT; v++) {
                if (!gpu_variant(v) || !(rs_catalogue_get(v)->flags & RS_VF_FINISH)) continue;
                for (int f = RS_FINISH_RELAUNCH; f < RS_FINISH_COUNT; f++) {
                    rs_request r = base(v, op % 2 ? RS_FLOAT32 : RS_INT64, op, sizes[s], 128);
                    r.finish = f;
                    expect_run(&r, 0, "finish");
                }
            }
}

/* Grid-stride variants with explicit elements per thread and grids. */
static void shapes(void)
{
    const unsigned epts[] = {1, 3, 64, 4096};
    const unsigned grids[] = {1, 7, 1000};
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        if (!gpu_variant(v) || !(rs_catalogue_get(v)->flags & RS_VF_GRID_STRIDE)) continue;
        for (size_t i = 0; i < 4; i++) {
            rs_request r = base(v, RS_FLOAT16, RS_SUM, 1000003, 256);
            r.ept = epts[i];
            expect_run(&r, 0, "ept");
        }
        for (size_t i = 0; i < 3; i++) {
            rs_request r = base(v, RS_INT32, RS_MIN, 1000003, 64);
            r.grid = grids[i];
            expect_run(&r, 0, "grid");
        }
    }
}

/* The vectorized kernels on input that does not start on 16 bytes: a grid
 * of 50 (k_vectorized), and one block (k_vectorized_one up to 512 vectors at
 * 128 threads, k_vectorized beyond). */
static void unaligned(void)
{
    const unsigned n_all = 100003;
    int32_t *h = malloc(n_all * sizeof *h);
    rs_input_fill(h, RS_INT32, RS_SUM, RS_DIST_RANDOM, 11, n_all);
    int32_t *d_in = NULL, *d_out = NULL, *d_part = NULL;
    unsigned *d_cnt = NULL;
    CHECK(cudaMalloc((void **)&d_in, n_all * sizeof *h) == cudaSuccess);
    CHECK(cudaMalloc((void **)&d_out, 64) == cudaSuccess);
    CHECK(cudaMalloc((void **)&d_part, 4096 * sizeof(int32_t)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&d_cnt, 64) == cudaSuccess);
    CHECK(cudaMemcpy(d_in, h, n_all * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemset(d_cnt, 0, 64) == cudaSuccess);
    for (unsigned k = 0; k < 8; k++)
        for (unsigned len = 1, off = k % 4; len < 40000; len = len * 5 + off) {
            rs_launch l = {
                RS_V_VECTORIZED, RS_INT32,       RS_SUM, d_in + off,          len, d_out, d_part,
                d_cnt,           k < 4 ? 50 : 1, 128,    RS_KFIN_SINGLE_PASS, 0};
            CHECK(cudaMemset(d_out, 0xff, 64) == cudaSuccess);
            CHECK(rs_kernel_launch(&l) == cudaSuccess);
            int32_t got = 0;
            CHECK(cudaMemcpy(&got, d_out, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
            rs_reference ref;
            rs_reference_compute(h + off, RS_INT32, RS_SUM, len, &ref);
            CHECK_MSG(got == ref.exact.i, "vectorized at offset %u, n %u, grid %u: %d != %lld", off,
                      len, l.grid, got, (long long)ref.exact.i);
        }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_part);
    cudaFree(d_cnt);
    free(h);
}

static void errors(void)
{
    static rs_result res;
    rs_error err;
    /* More than any GPU holds: a clear refusal before anything is allocated. */
    rs_request r = base(RS_V_SEQUENTIAL, RS_INT64, RS_SUM, (uint64_t)1 << 40, 1024);
    CHECK(rs_engine_run(eng, &r, NULL, &res, &err) == RS_E_NOMEM);
    CHECK_STR_CONTAINS(err.msg, "out of device memory");
    /* The engine goes on afterwards. */
    r = base(RS_V_SEQUENTIAL, RS_INT32, RS_SUM, 1000, 256);
    expect_run(&r, 0, "after an error");
    /* A device that does not exist. */
    rs_engine *other = NULL;
    CHECK(rs_engine_open(&other, 99, &err) == RS_OK);
    CHECK(rs_engine_gpu(other, &err) == RS_E_NODEVICE);
    CHECK_STR_CONTAINS(err.msg, "device 99 does not exist");
    rs_engine_close(other);
    /* Cancellation between repetitions. */
    volatile int stop = 1;
    rs_hooks hooks = {NULL, NULL, &stop};
    r = base(RS_V_FIRST_ADD, RS_INT32, RS_SUM, 1u << 20, 256);
    CHECK(rs_engine_run(eng, &r, &hooks, &res, &err) == RS_E_CANCELLED);
}

int main(void)
{
    rs_error err;
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *k = getenv("RS_TEST_SAMPLE");
    sample = k ? (unsigned)strtoul(k, NULL, 10) : 0;
    if (rs_engine_open(&eng, 0, &err) != RS_OK || rs_engine_gpu(eng, &err) != RS_OK) {
        /* skipped only where there is no driver or no device */
        const int skip = err.code == RS_E_NODRIVER || err.code == RS_E_NODEVICE;
        printf("%s: %s\n", skip ? "skipped" : "FAIL: the GPU could not be opened", err.msg);
        rs_engine_close(eng);
        return skip ? 77 : 1;
    }
    const time_t t0 = time(NULL);
    printf("device: %s\n", rs_engine_device(eng)->name);
    unaligned();
    errors();
    shapes();
    finishes();
    blocks();
    matrix();
    printf("%d runs (%d refused as expected, %d wrong results of the racy volatile step, %d "
           "float32 atomic sums stalled at 2^24) in %lds\n",
           runs, refused, racy_wrong, float_stalls, (long)(time(NULL) - t0));
    rs_engine_close(eng);
    return check_report("test_gpu_variants");
}
