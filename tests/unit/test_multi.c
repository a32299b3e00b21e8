/* The split of n over G GPUs (every remainder) and nccl-tests' bandwidth
 * formulas, with hostile input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/catalogue.h"
#include "formats/export.h"
#include "analysis/multi.h"
#include "nvtools/nccl_tests.h"
#include "engine/nccl_lib.h"

static void splits(void)
{
    const uint64_t ns[] = {0, 1, 7, 31, (1u << 20) + 7, (uint64_t)1 << 28, UINT64_MAX};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (int g = 1; g <= 9; g++) {
            uint64_t next = 0, total = 0, lo = UINT64_MAX, hi = 0;
            for (int i = 0; i < g; i++) {
                uint64_t off, cnt;
                CHECK(rs_split(ns[a], g, i, &off, &cnt) == 1);
                CHECK_MSG(off == next, "n %llu g %d shard %d starts at %llu, not %llu",
                          (unsigned long long)ns[a], g, i, (unsigned long long)off,
                          (unsigned long long)next);
                next = off + cnt;
                total += cnt;
                lo = cnt < lo ? cnt : lo;
                hi = cnt > hi ? cnt : hi;
            }
            CHECK_MSG(total == ns[a] && hi - lo <= 1, "n %llu over %d: %llu, sizes %llu..%llu",
                      (unsigned long long)ns[a], g, (unsigned long long)total,
                      (unsigned long long)lo, (unsigned long long)hi);
        }
    uint64_t off = 9, cnt = 9;
    CHECK(rs_split(10, 0, 0, &off, &cnt) == 0 && off == 0 && cnt == 0);
    CHECK(rs_split(10, 4, 4, &off, &cnt) == 0 && cnt == 0);
    CHECK(rs_split(10, 4, -1, &off, &cnt) == 0 && cnt == 0);
    CHECK(rs_split(10, 4, 1, &off, &cnt) == 1 && off == 3 && cnt == 3); /* 3 3 2 2 */
    CHECK(rs_split(10, 4, 3, &off, &cnt) == 1 && off == 8 && cnt == 2);
}

static void bandwidths(void)
{
    /* nccl-tests: 1 GB in 10 ms is 100 GB/s algbw; all-reduce over 8 ranks
     * moves 2 x 7/8 of it over the bus: 175 GB/s */
    CHECK(fabs(rs_algbw(1e9, 0.01) - 1e11) < 1.0);
    CHECK(fabs(rs_busbw_allreduce(1e9, 0.01, 8) - 1.75e11) < 1.0);
    CHECK(fabs(rs_busbw_allreduce(1e9, 0.01, 2) - 1e11) < 1.0);
    CHECK(rs_busbw_allreduce(1e9, 0.01, 1) == 0.0); /* one rank moves nothing */
    CHECK(fabs(rs_busbw_reduce(1e9, 0.01, 4) - 1e11) < 1.0);
    const double nan = 0.0 / 0.0, inf = 1.0 / 0.0;
    const double bad[] = {0.0, -1.0, nan, inf, -inf};
    for (int i = 0; i < 5; i++) {
        CHECK(rs_algbw(1e9, bad[i]) == 0.0 && rs_algbw(bad[i], 1.0) == 0.0);
        CHECK(rs_busbw_allreduce(1e9, bad[i], 8) == 0.0);
    }
    CHECK(rs_busbw_allreduce(1e9, 0.01, 0) == 0.0 && rs_busbw_reduce(1e9, 0.01, -3) == 0.0);
    CHECK(rs_algbw(1e308, 1e-308) == 0.0); /* an overflow is no bandwidth */
}

/* NCCL from the system: a setting that names no library says so and
 * which; a folder is looked into; without the setting the toolkit's or the
 * system's loads with its version, or the reason says how to install it. */
static void nccl(void)
{
    char why[512];
    int version = -1;
    setenv("REDSCOPE_NCCL", "/nonexistent/libnccl.so.2", 1);
    CHECK(rs_nccl_lib(&version, why, sizeof why) == NULL && version == 0);
    CHECK_STR_CONTAINS(why, "NCCL not found at /nonexistent/libnccl.so.2 (REDSCOPE_NCCL)");
    setenv("REDSCOPE_NCCL", "/tmp", 1); /* a folder without it */
    CHECK(rs_nccl_lib(&version, why, sizeof why) == NULL);
    CHECK_STR_CONTAINS(why, "/tmp/libnccl.so.2");
    setenv("REDSCOPE_NCCL", "/etc/hostname", 1); /* a file that is no library */
    CHECK(rs_nccl_lib(&version, why, sizeof why) == NULL && why[0]);
    unsetenv("REDSCOPE_NCCL");
    void *h = rs_nccl_lib(&version, why, sizeof why);
    if (h) {
        CHECK_MSG(version >= 20000 && !why[0], "version %d", version);
        printf("NCCL %d.%d.%d from the system\n", version / 10000, version / 100 % 100,
               version % 100);
    } else {
        CHECK_STR_CONTAINS(why, "NCCL is not installed");
        CHECK_STR_CONTAINS(why, "REDSCOPE_NCCL");
    }
}

/* Where a size sweep turns from latency- to bandwidth-bound, and sizes in
 * binary units; hostile input gives no crossover. */
static void crossovers(void)
{
    const double bytes[] = {8, 64, 1024, 65536, 1048576, 16777216, 268435456};
    const double us[] = {10, 10.5, 12, 25, 40, 120, 1500};
    const double bw[] = {0.001, 0.006, 0.08, 3.4, 26, 140, 179};
    double lat, band;
    CHECK(rs_ar_crossover(bytes, us, bw, 7, &lat, &band) == RS_AR_CROSSES);
    CHECK_MSG(lat == 1024 && band == 16777216, "latency up to %.0f, bandwidth from %.0f", lat,
              band);
    /* a sharp turn: time within 2x up to the size that reaches half the
     * best busbw: latency-bound stops below it, never at or past it */
    const double sharp_us[] = {40, 41, 42, 43, 60, 70, 3700};
    const double sharp_bw[] = {0.001, 0.01, 1.5, 25, 100, 240, 290};
    CHECK(rs_ar_crossover(bytes, sharp_us, sharp_bw, 7, &lat, &band) == RS_AR_CROSSES);
    CHECK_MSG(lat == 1048576 && band == 16777216, "sharp: up to %.0f, from %.0f", lat, band);
    /* a range above the turn, and one below it */
    const double big_us[] = {33.7, 47.3, 78}, big_bw[] = {124.5, 177.2, 215};
    CHECK(rs_ar_crossover(bytes + 4, big_us, big_bw, 3, &lat, &band) == RS_AR_ALL_BANDWIDTH);
    CHECK(lat == 0 && band == 1048576);
    const double small_us[] = {20, 20.5, 21, 22}, small_bw[] = {0.001, 0.006, 0.09, 5};
    CHECK(rs_ar_crossover(bytes, small_us, small_bw, 4, &lat, &band) == RS_AR_ALL_LATENCY);
    CHECK(lat == 0 && band == 0);
    /* 2^27, 3 x 2^26, 2^28 at full bandwidth: time under 2x, yet no latency: no verdict */
    const double narrow_b[] = {134217728, 201326592, 268435456}, narrow_us[] = {1692, 2470, 3251};
    const double narrow_bw[] = {330, 326, 330};
    CHECK(rs_ar_crossover(narrow_b, narrow_us, narrow_bw, 3, &lat, &band) == 0);
    CHECK(rs_ar_crossover(bytes, us, bw, 2, &lat, &band) == 0 && lat == 0 && band == 0);
    const double nan = 0.0 / 0.0, inf = 1.0 / 0.0;
    const double bad_us[] = {10, nan, 12}, bad_bw[] = {1, inf, 2}, zero_us[] = {0, 1, 2};
    CHECK(rs_ar_crossover(bytes, bad_us, bw, 3, &lat, &band) == 0);
    CHECK(rs_ar_crossover(bytes, us, bad_bw, 3, &lat, &band) == 0);
    CHECK(rs_ar_crossover(bytes, zero_us, bw, 3, &lat, &band) == 0);
    const double down[] = {64, 8, 1024}; /* sizes must rise */
    CHECK(rs_ar_crossover(down, us, bw, 3, &lat, &band) == 0);
    CHECK(rs_ar_crossover(NULL, us, bw, 3, &lat, &band) == 0);
    char buf[32];
    const struct {
        double v;
        const char *want;
    } fmt[] = {{8, "8 B"},        {1024, "1 KiB"}, {65536, "64 KiB"}, {4294967296.0, "4 GiB"},
               {1536, "1.5 KiB"}, {nan, "-"},      {-1, "-"},         {inf, "-"}};
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        rs_fmt_binary(fmt[i].v, buf, sizeof buf);
        CHECK_STR_EQ(buf, fmt[i].want);
    }
}

/* The ladder over several GPUs: each variant once on one GPU, then once
 * per cross-GPU finish (or only the one asked for); its rows' names. */
static void ladder(void)
{
    rs_request base, rows[64];
    char label[96];
    rs_request_defaults(&base);
    base.gpus = 2;
    int n = rs_multi_ladder(&base, 0, rows, 64);
    CHECK(n == 8); /* vectorized and cub, each 1 + 3 rows */
    CHECK(rows[0].variant == RS_V_VECTORIZED && rows[0].gpus == 1 && rows[4].variant == RS_V_CUB);
    for (int c = 0; c < RS_CROSS_COUNT; c++)
        CHECK(rows[1 + c].gpus == 2 && rows[1 + c].cross == (rs_cross)c);
    CHECK_STR_EQ(rs_request_label(&rows[0], label, sizeof label), "vectorized");
    CHECK_STR_EQ(rs_request_label(&rows[2], label, sizeof label), "vectorized on 2 GPUs, p2p");
    base.cross = RS_CROSS_NCCL;
    base.variants = 1u << RS_V_SEQUENTIAL;
    n = rs_multi_ladder(&base, 1, rows, 64);
    CHECK(n == 2 && rows[0].gpus == 1 && rows[1].gpus == 2 && rows[1].cross == RS_CROSS_NCCL);
    CHECK(rs_multi_ladder(&base, 0, rows, 3) == 3); /* never past max */
    /* what ends on the host, and your kernels, stay on one GPU */
    base.variants = (1u << RS_V_THRUST) | (1u << RS_V_CPU) | (1u << RS_V_KERNEL);
    n = rs_multi_ladder(&base, 0, rows, 64);
    CHECK(n == 2 && rows[0].variant == RS_V_THRUST && rows[0].gpus == 1 &&
          rows[1].variant == RS_V_CPU && rows[1].gpus == 1);
    base.variants = 1u << RS_V_SEQUENTIAL;
    base.gpus = 0;
    CHECK_STR_EQ(rs_request_label(&base, label, sizeof label), "sequential on every GPU, nccl");
}

/* What a run over several GPUs refuses, each with its reason. */
static void refusals(void)
{
    const struct {
        rs_variant v;
        const char *set, *value, *want;
    } cases[] = {
        {RS_V_CPU, NULL, NULL, "cpu runs on the host"},
        {RS_V_THRUST, NULL, NULL, "choose cub"},
        {RS_V_SEQUENTIAL, "finish", "cpu", "choose another finish"},
        {RS_V_SEQUENTIAL, "device", "1", "leave --device at 0"},
        {RS_V_SEQUENTIAL, "stalls", "1", "drop --stalls or --gpus"},
        {RS_V_KERNEL, "kernel", "k.cu", "your own kernel runs on one GPU"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rs_request r;
        rs_error err;
        rs_request_defaults(&r);
        r.variant = cases[i].v;
        if (cases[i].set)
            CHECK(rs_field_set(&r, rs_field_by_flag(cases[i].set), cases[i].value, &err) == RS_OK);
        CHECK(rs_catalogue_check(&r, &err) == RS_OK); /* one GPU: fine */
        r.gpus = 2;
        CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
        CHECK_MSG(strstr(err.msg, cases[i].want) != NULL, "case %zu: %s", i, err.msg);
    }
    rs_request r;
    rs_error err;
    rs_request_defaults(&r);
    r.variant = RS_V_VECTORIZED;
    r.gpus = 0; /* every GPU */
    CHECK(rs_catalogue_check(&r, &err) == RS_OK);
    snprintf(r.metrics, sizeof r.metrics, "full"); /* counters: each GPU's */
    CHECK(rs_catalogue_check(&r, &err) == RS_OK);
    r.gpus = RS_GPUS_MAX + 1;
    CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
    CHECK(rs_field_set(&r, rs_field_by_flag("gpus"), "17", &err) == RS_E_USAGE);
    CHECK(rs_field_set(&r, rs_field_by_flag("cross"), "p2p", &err) == RS_OK);
    CHECK(r.cross == RS_CROSS_P2P);
}

/* A run over several GPUs survives JSON (recordings, --format json). */
static void json_round_trip(void)
{
    rs_result a, b;
    rs_error err;
    memset(&a, 0, sizeof a);
    rs_request_defaults(&a.req);
    a.req.variant = RS_V_VECTORIZED;
    a.req.n = 31;
    a.req.gpus = 3;
    a.req.cross = RS_CROSS_NCCL;
    a.t_median_ms = a.t_min_ms = a.t_max_ms = 0.3; /* a measured row's times */
    a.reps = a.req.reps = 5;                       /* every repetition asked, timed */
    a.correct = 1;
    a.gbps = rs_result_input_bytes(&a) / (a.t_median_ms * 1e-3) / 1e9; /* as measured */
    a.multi.gpus = 3;
    a.multi.cross = RS_CROSS_NCCL;
    a.multi.shard_ms = 0.25;
    a.multi.finish_ms = 0.0125;
    static rs_gpu_share sh[RS_GPUS_MAX]; /* the shares, kept into the result (rs_keep) */
    for (int g = 0; g < 3; g++) {
        sh[g].device = g;
        snprintf(sh[g].name, sizeof sh[g].name, "GPU model %d", g);
        rs_split(31, 3, g, &sh[g].offset, &sh[g].count);
        sh[g].ms = 0.25 - 0.01 * g;
    }
    sh[1].valid = RS_METRIC_BIT(RS_M_DRAM_READ);
    sh[1].value[RS_M_DRAM_READ] = 40.0;
    a.multi.share = rs_keep(sh, sizeof sh[0] * 3);
    cJSON *j = rs_result_to_json(&a);
    CHECK(rs_result_from_json(j, &b, &err) == RS_OK);
    cJSON_Delete(j);
    CHECK(b.req.gpus == 3 && b.req.cross == RS_CROSS_NCCL);
    CHECK(b.multi.gpus == 3 && b.multi.cross == RS_CROSS_NCCL);
    CHECK(b.multi.shard_ms == 0.25 && b.multi.finish_ms == 0.0125);
    CHECK(b.multi.share[2].offset == 21 && b.multi.share[2].count == 10);
    CHECK(b.multi.share[1].ms == 0.24);
    CHECK_STR_EQ(b.multi.share[1].name, "GPU model 1");
    CHECK(b.multi.share[1].valid == RS_METRIC_BIT(RS_M_DRAM_READ) && !b.multi.share[0].valid);
    CHECK(b.multi.share[1].value[RS_M_DRAM_READ] == 40.0);
    /* shares that do not cover n, once each and in order: refused */
    a.req.n = 32;
    j = rs_result_to_json(&a);
    CHECK(rs_result_from_json(j, &b, &err) == RS_E_USAGE && strstr(err.msg, "gpus: 3 shares"));
    cJSON_Delete(j);
    a.req.n = 31;
    a.multi.gpus = 1; /* the split's code over one GPU (--gpus 0 on a machine of one) */
    sh[0].offset = 0;
    sh[0].count = 31;
    a.multi.share = rs_keep(sh, sizeof sh[0]);
    j = rs_result_to_json(&a);
    CHECK(rs_result_from_json(j, &b, &err) == RS_OK && b.multi.gpus == 1);
    cJSON_Delete(j);
    a.multi.gpus = 0; /* one GPU: no "gpus" object */
    j = rs_result_to_json(&a);
    CHECK(cJSON_GetObjectItemCaseSensitive(j, "gpus") == NULL);
    cJSON_Delete(j);
}

/* The links in a line: one phrase when every pair is alike, else pair by
 * pair, cut at a whole pair. */
static void links(void)
{
    char buf[160];
    rs_link nv[3] = {{0, 1, 18, 1, 0, 1}, {0, 2, 18, 1, 0, 1}, {1, 2, 18, 1, 0, 1}};
    rs_links_describe(nv, 3, buf, sizeof buf);
    CHECK_STR_EQ(buf, "NVLink through NVSwitch between every pair (18 links per GPU)");
    nv[0].switched = nv[1].switched = nv[2].switched = 0;
    nv[0].nvlinks = nv[1].nvlinks = nv[2].nvlinks = 4;
    rs_links_describe(nv, 3, buf, sizeof buf);
    CHECK_STR_EQ(buf, "NVLink between every pair (x4 each)");
    rs_link pcie[1] = {{0, 1, 0, 0, 30, 1}};
    rs_links_describe(pcie, 1, buf, sizeof buf);
    CHECK_STR_EQ(buf, "0-1 PCIe through the host bridge");
    rs_link mixed[3] = {{0, 1, 4, 0, 0, 1}, {0, 2, 0, 0, 50, 0}, {1, 2, 0, 0, -1, 1}};
    rs_links_describe(mixed, 3, buf, sizeof buf);
    CHECK_STR_EQ(buf, "0-1 NVLink x4, 0-2 PCIe across CPU sockets, no peer access, 1-2 PCIe");
    rs_links_describe(mixed, 3, buf, 30);
    CHECK_STR_EQ(buf, "0-1 NVLink x4");
    rs_links_describe(mixed, 0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
    rs_link two[2] = {{0, 1, 0, 0, 10, 1}, {0, 2, 0, 0, 10, 1}};
    rs_links_describe(two, 2, buf, sizeof buf);
    CHECK_STR_EQ(buf, "PCIe through one switch between every pair");
}

/* nccl-tests' JSON (all_reduce_perf -J, as its src/util.cu writes it): the
 * out-of-place figures of each size; hostile documents read as nothing. */
static void nccl_tests_json(void)
{
    rs_nt_point p[4];
    char why[128];
    const char *doc =
        "{\"version\": 1, \"args\": [\"all_reduce_perf\"], \"env\": [\"A=1\"],"
        " \"nccl_version\": 22803, \"results\": ["
        "{\"size\": 8, \"count\": 2, \"type\": \"float\", \"redop\": \"sum\","
        " \"root\": \"    -1\", \"out_of_place\": {\"time\": 20.5, \"alg_bw\": 0.0,"
        " \"bus_bw\": 0.0, \"nwrong\": null}, \"in_place\": {\"time\": 19.0,"
        " \"alg_bw\": 0.0, \"bus_bw\": 0.0, \"nwrong\": null}},"
        "{\"size\": 4294967296, \"count\": 1073741824, \"out_of_place\": {\"time\": 12300.1,"
        " \"alg_bw\": 349.19, \"bus_bw\": 349.19}, \"in_place\": {\"time\": 1, "
        "\"alg_bw\": 9, \"bus_bw\": 9}},"
        "{\"size\": 16, \"out_of_place\": null},"
        "{\"size\": -4, \"out_of_place\": {\"time\": 1, \"alg_bw\": 1, \"bus_bw\": 1}},"
        "{\"size\": 32, \"out_of_place\": {\"time\": 1, \"alg_bw\": 1, \"bus_bw\": 1e300}}"
        "]}";
    CHECK(rs_nt_parse(doc, p, 4, why, sizeof why) == 2);
    CHECK(p[0].bytes == 8 && p[0].us == 20.5 && p[0].busbw == 0.0);
    CHECK(p[1].bytes == 4294967296ull && p[1].busbw == 349.19 && p[1].us == 12300.1);
    CHECK(rs_nt_parse(doc, p, 1, why, sizeof why) == 1); /* never past max */
    CHECK(rs_nt_parse("{", p, 4, why, sizeof why) == -1);
    CHECK_STR_EQ(why, "not JSON");
    CHECK(rs_nt_parse("{\"results\": 3}", p, 4, why, sizeof why) == -1);
    CHECK(rs_nt_parse(NULL, p, 4, why, sizeof why) == -1);
    CHECK(rs_nt_parse("{\"results\": []}", p, 4, why, sizeof why) == 0);
    CHECK_STR_EQ(rs_nt_type(RS_FLOAT32), "float");
    CHECK_STR_EQ(rs_nt_type(RS_FLOAT16), "half");
    CHECK_STR_EQ(rs_nt_op(RS_PROD), "prod");
}

int main(void)
{
    splits();
    nccl_tests_json();
    links();
    ladder();
    refusals();
    json_round_trip();
    bandwidths();
    nccl();
    crossovers();
    return check_report("test_multi");
}
