/* The split of n over G GPUs (every remainder) and nccl-tests' bandwidth
 * formulas, with hostile input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "core/multi.h"
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
    CHECK(rs_ar_crossover(bytes, us, bw, 7, &lat, &band) == 1);
    CHECK_MSG(lat == 1024 && band == 16777216, "latency up to %.0f, bandwidth from %.0f", lat,
              band);
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

int main(void)
{
    splits();
    bandwidths();
    nccl();
    crossovers();
    return check_report("test_multi");
}
