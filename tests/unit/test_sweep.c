/* Sweep data: crossovers, chart scales, and sweeps read back from rows. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "formats/record.h"
#include "analysis/sweep.h"
#include "formats/sweep_out.h"

static const rs_variant vars[2] = {RS_V_ATOMIC, RS_V_FIRST_ADD};

/* A sweep where `a` costs 1 us per 2^10 elements plus nothing, and `b` a
 * fixed 10 us plus 0.1 us per 2^10: a is fastest up to 2^13, b above. The
 * CPU baseline, 4 us per 2^10, is never fastest. */
static void fill(rs_sweep *s)
{
    for (int i = 0; i < s->sizes.count; i++)
        for (int v = 0; v < s->nvar; v++) {
            rs_row *r = rs_sweep_row(s, i, v);
            const double k = (double)s->sizes.n[i] / 1024.0;
            r->status = RS_OK;
            r->result.req.n = s->sizes.n[i];
            r->result.req.variant = s->var[v];
            r->result.correct = 1;
            r->result.t_median_ms = 1e-3 * (v == 0 ? k : 10.0 + 0.1 * k);
            r->result.cpu_ms = 1e-3 * 4.0 * k;
            r->result.gbps = 1.0;
        }
    s->done = s->sizes.count * s->nvar;
}

static void make(rs_sweep *s, const char *range)
{
    rs_sweep_sizes sizes;
    rs_error err;
    CHECK(rs_sweep_parse(range, &sizes, &err) == RS_OK);
    CHECK(rs_sweep_init(s, &sizes, vars, 2, RS_CACHE_BIT(RS_CACHE_COLD), &err) == RS_OK);
}

static void test_crossovers(void)
{
    rs_sweep s;
    make(&s, "2^10..2^20");
    fill(&s);
    char text[256];
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 2);
    CHECK_MSG(strcmp(text, "atomic fastest up to 2^13; first_add from 2^14 on") == 0, "%s", text);
    /* A near-tie (under 5%) does not take the lead. */
    rs_sweep_row(&s, 5, 0)->result.t_median_ms = rs_sweep_row(&s, 5, 1)->result.t_median_ms * 1.03;
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 2);
    CHECK_MSG(strcmp(text, "atomic fastest up to 2^13; first_add from 2^14 on") == 0, "%s", text);
    /* A wrong result never wins. */
    rs_sweep_row(&s, 0, 1)->result.t_median_ms = 1e-9;
    rs_sweep_row(&s, 0, 1)->result.correct = 0;
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 2);
    /* One winner everywhere. */
    for (int i = 0; i < s.sizes.count; i++) rs_sweep_row(&s, i, 0)->result.t_median_ms = 1e-6;
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 1);
    CHECK_STR_CONTAINS(text, "atomic fastest at every size (2^10 to 2^20)");
    /* The CPU series comes from the baseline beside each run. */
    CHECK(fabs(rs_sweep_value(&s, 0, 2, RS_CHART_TIME) - 4e-3) < 1e-12);
    CHECK(rs_sweep_series_count(&s) == 3);
    /* Only what has run counts. */
    s.done = 3;
    CHECK(rs_sweep_value(&s, 5, 0, RS_CHART_TIME) < 0);
    rs_sweep_free(&s);

    /* The crossovers cover the CPU series: 0.1 us, faster than both, up to
     * 2^12 (the sentence once named only the GPU variants). */
    make(&s, "2^10..2^20");
    fill(&s);
    for (int i = 0; i < 3; i++) rs_sweep_row(&s, i, 0)->result.cpu_ms = 1e-4;
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 3);
    CHECK_MSG(strcmp(text, "cpu (1 thread) fastest up to 2^12; atomic at 2^13; first_add from "
                           "2^14 on") == 0,
              "%s", text);
    rs_sweep_free(&s);
}

/* The fastest series at size i by the chart's own values, CPU included. */
static int fastest_series(const rs_sweep *s, int i)
{
    int best = -1;
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        const double t = rs_sweep_value(s, i, k, RS_CHART_TIME);
        if (t > 0 && (best < 0 || t < rs_sweep_value(s, i, best, RS_CHART_TIME))) best = k;
    }
    return best;
}

/* The shipped H200 recording's sweep: at small n one host thread beats
 * every kernel launch, and the sentence must say so. */
static void test_recording(void)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(rs_recording_load(RS_SOURCE_DIR "/conf/recordings/h200-demo.jsonl", &rec, &err) ==
                  RS_OK,
              "%s", err.msg);
    rs_sweep s;
    CHECK(rs_sweep_from_rows(&s, rec.rows, rec.command, rec.count, &err) == RS_OK);
    CHECK(s.nvar == 5 && s.sizes.count == 19 && rs_sweep_series_count(&s) == 6);
    const int first = fastest_series(&s, 0);
    CHECK_MSG(first == s.nvar, "the CPU is fastest at 2^10 in the recording (%d)", first);
    char text[512];
    const int segments = rs_sweep_crossovers(&s, text, sizeof text);
    CHECK_MSG(strncmp(text, rs_sweep_series_name(&s, first), strlen("cpu (1 thread)")) == 0,
              "the sentence starts with the fastest at 2^10: %s", text);
    CHECK_MSG(segments == 3 && strcmp(text, "cpu (1 thread) fastest up to 2^13; multi_element "
                                            "from 2^14 to 2^18; cub from 2^19 on") == 0,
              "%d: %s", segments, text);
    rs_sweep_free(&s);
    rs_recording_free(&rec);
}

/* Empty, zero, NaN and infinite bounds: always a finite axis, so every
 * loop over its decades ends (an infinite bound once hung the chart). */
static void test_bad_bounds(void)
{
    const double bad[] = {0.0, -1.0, NAN, INFINITY, -INFINITY, 1e-320, 1e308, 5.0};
    const size_t nb = sizeof bad / sizeof bad[0];
    for (size_t i = 0; i < nb; i++)
        for (size_t k = 0; k < nb; k++) {
            const rs_axis b = rs_log_axis(bad[i], bad[k]);
            CHECK_MSG(isfinite(b.lo) && isfinite(b.hi) && b.lo > 0 && b.hi > b.lo,
                      "axis(%g, %g) = %g..%g", bad[i], bad[k], b.lo, b.hi);
            double dec[64];
            const int nd = rs_log_decades(b, dec, 64);
            CHECK_MSG(nd >= 2 && nd <= 64, "axis(%g, %g): %d decades", bad[i], bad[k], nd);
            for (int cells = -1; cells <= 10; cells += 11) {
                const int p = rs_log_pos(b, bad[k], cells);
                CHECK_MSG(p >= 0 && (cells <= 1 ? p == 0 : p < cells), "pos(%g) = %d of %d", bad[k],
                          p, cells);
            }
        }
    rs_axis a = rs_log_axis(INFINITY, 4814.0); /* the GB/s view with no point yet */
    CHECK(a.lo == 1000.0 && a.hi == 10000.0);
    CHECK(rs_log_pos((rs_axis){1.0, INFINITY}, 5.0, 10) == 0);
    CHECK(rs_log_pos((rs_axis){NAN, 10.0}, 5.0, 10) == 0);
    CHECK(rs_log_pos((rs_axis){10.0, 10.0}, 5.0, 10) == 0);
    CHECK(rs_log_decades((rs_axis){1.0, INFINITY}, (double[4]){0}, 4) == 0);
    CHECK(rs_log_decades((rs_axis){0.0, 10.0}, (double[4]){0}, 4) == 0);
    CHECK(rs_log_decades((rs_axis){NAN, NAN}, (double[4]){0}, 4) == 0);
    CHECK(rs_log_decades((rs_axis){1e-300, 1e300}, (double[8]){0}, 8) == 8); /* bounded */
}

static void test_axes(void)
{
    rs_axis a = rs_log_axis(0.0042, 310.0);
    CHECK(a.lo == 0.001 && a.hi == 1000.0);
    CHECK(rs_log_pos(a, 0.001, 7) == 0 && rs_log_pos(a, 1000.0, 7) == 6);
    CHECK(rs_log_pos(a, 1.0, 7) == 3 && rs_log_pos(a, 1e9, 7) == 6 && rs_log_pos(a, -1, 7) == 0);
    a = rs_log_axis(5.0, 5.0);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    double dec[8];
    CHECK(rs_log_decades(rs_log_axis(0.0042, 310.0), dec, 8) == 7 && dec[6] == 1000.0);
    test_bad_bounds();
}

/* The chart's value range over a sweep with nothing plottable: before the
 * first result, or every row wrong, zero, NaN or infinite. */
static void test_chart_axis(void)
{
    rs_sweep s;
    make(&s, "2^10..2^20");
    rs_axis a = rs_chart_axis(&s, RS_CHART_GBPS, 4814.0); /* nothing run yet */
    CHECK(a.lo == 1000.0 && a.hi == 10000.0);
    a = rs_chart_axis(&s, RS_CHART_GBPS, 0.0);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    a = rs_chart_axis(&s, RS_CHART_GBPS, INFINITY);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    a = rs_chart_axis(&s, RS_CHART_TIME, NAN);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    fill(&s);
    const double bad[] = {0.0, -3.0, NAN, INFINITY};
    for (int i = 0; i < s.sizes.count; i++)
        for (int v = 0; v < 2; v++) {
            rs_row *r = rs_sweep_row(&s, i, v);
            r->result.gbps = bad[(i + v) % 4];
            r->result.t_median_ms = bad[(i + v + 1) % 4];
            r->result.cpu_ms = bad[(i + v + 2) % 4];
        }
    for (int q = 0; q < 2; q++) {
        for (int i = 0; i < s.sizes.count; i++)
            for (int k = 0; k < rs_sweep_series_count(&s); k++)
                CHECK_MSG(rs_sweep_value(&s, i, k, (rs_chart_quantity)q) == -1.0,
                          "view %d: (%d, %d) = %g", q, i, k,
                          rs_sweep_value(&s, i, k, (rs_chart_quantity)q));
        a = rs_chart_axis(&s, (rs_chart_quantity)q, NAN);
        CHECK_MSG(a.lo == 1.0 && a.hi == 10.0, "view %d: %g..%g", q, a.lo, a.hi);
        double dec[64];
        CHECK(rs_log_decades(a, dec, 64) == 2);
    }
    /* one usable value: its decade */
    rs_sweep_row(&s, 3, 1)->result.gbps = 250.0;
    rs_sweep_row(&s, 3, 1)->result.t_median_ms = 0.01;
    a = rs_chart_axis(&s, RS_CHART_GBPS, -1.0);
    CHECK(a.lo == 100.0 && a.hi == 1000.0);
    CHECK(rs_chart_x(&s, 0, 100) == 0 && rs_chart_x(&s, 10, 100) == 99);
    CHECK(rs_chart_x(&s, 11, 100) == 0 && rs_chart_x(&s, -1, 100) == 0);
    CHECK(rs_chart_x(&s, 0, 0) == 0 && rs_chart_x(&s, 5, -7) == 0);
    rs_sweep_free(&s);
    make(&s, "4096");
    CHECK(rs_chart_x(&s, 0, 100) == 50);
    /* sizes no range parses to (a recording's n = 0, or one n twice) */
    s.sizes = (rs_sweep_sizes){2, {0, 0}};
    CHECK(rs_chart_x(&s, 1, 100) == 50);
    s.sizes = (rs_sweep_sizes){3, {0, 1, 1024}};
    for (int i = 0; i < 3; i++) CHECK(rs_chart_x(&s, i, 100) >= 0 && rs_chart_x(&s, i, 100) < 100);
    CHECK(rs_chart_x(&s, 2, 100) == 99);
    rs_sweep_free(&s);
}

/* Labels: inside the plot, never touching, the cursor's always shown. */
static void test_labels(void)
{
    const int center[4] = {0, 4, 8, 40}, width[4] = {4, 4, 4, 4};
    int start[4];
    CHECK(rs_place_labels(center, width, 4, 1, 42, 1, start) == 2);
    CHECK(start[1] == 2);                    /* the cursor's first */
    CHECK(start[0] == -1 && start[2] == -1); /* its neighbours would touch it */
    CHECK(start[3] == 38);                   /* kept inside the plot */
    rs_place_labels(center, width, 4, -1, 42, 1, start);
    CHECK(start[0] == 0 && start[1] == -1 && start[2] == 6);
    const int wide[1] = {50};
    CHECK(rs_place_labels(center, wide, 1, 0, 42, 1, start) == 0 && start[0] == -1);
    /* x labels a column apart: "2^10" ending at 3 and one starting at 4 touch */
    const int near[2] = {1, 6};
    CHECK(rs_place_labels(near, width, 2, 0, 42, 1, start) == 1 && start[1] == -1);
    CHECK(rs_place_labels((const int[2]){1, 7}, width, 2, 0, 42, 1, start) == 2);
    /* y labels a row each: neighbouring rows both kept, the same row once */
    const int rows[4] = {5, 4, 4, 0}, one[4] = {1, 1, 1, 1};
    CHECK(rs_place_labels(rows, one, 4, -1, 6, 0, start) == 3);
    CHECK(start[0] == 5 && start[1] == 4 && start[2] == -1 && start[3] == 0);
    /* centres far outside (a broken position) are kept inside */
    const int far[2] = {-1000000, 1000000};
    CHECK(rs_place_labels(far, width, 2, -1, 42, 1, start) == 2);
    CHECK(start[0] == 0 && start[1] == 38);
}

static void test_from_rows(void)
{
    rs_row rows[4];
    char cmd[4][16] = {"sweep", "sweep", "ladder", "sweep"};
    memset(rows, 0, sizeof rows);
    rows[0].result.req.variant = RS_V_CUB;
    rows[0].result.req.n = 1 << 20;
    rows[1].result.req.variant = RS_V_ATOMIC;
    rows[1].result.req.n = 1 << 10;
    rows[2].result.req.variant = RS_V_THRUST;
    rows[3].result.req.variant = RS_V_ATOMIC;
    rows[3].result.req.n = 1 << 20;
    rs_sweep r;
    rs_error err;
    CHECK(rs_sweep_from_rows(&r, rows, cmd, 4, &err) == RS_OK);
    CHECK(r.sizes.count == 2 && r.sizes.n[0] == 1024 && r.nvar == 2);
    CHECK(r.var[0] == RS_V_ATOMIC && r.var[1] == RS_V_CUB);
    CHECK(rs_sweep_row(&r, 0, 1)->status == RS_E_USAGE); /* cub at 2^10 was not recorded */
    CHECK(rs_sweep_row(&r, 1, 1)->result.req.variant == RS_V_CUB);
    rs_sweep_free(&r);

    /* More sizes than a sweep holds: the first RS_SWEEP_MAX_SIZES are kept,
     * the rows of the others left out (they were once looked up past the
     * end of the sizes). Descending, so the kept ones are the largest. */
    enum { N = RS_SWEEP_MAX_SIZES + 6 };
    rs_row *many = calloc(N, sizeof *many);
    char(*mcmd)[16] = calloc(N, sizeof *mcmd);
    for (int i = 0; i < N; i++) {
        many[i].result.req.variant = RS_V_ATOMIC;
        many[i].result.req.n = (uint64_t)(1000 + N - i);
        snprintf(mcmd[i], sizeof mcmd[i], "sweep");
    }
    CHECK(rs_sweep_from_rows(&r, many, mcmd, N, &err) == RS_OK);
    CHECK(r.sizes.count == RS_SWEEP_MAX_SIZES && r.nvar == 1);
    CHECK(r.sizes.n[0] == 1000 + N - RS_SWEEP_MAX_SIZES + 1 && r.sizes.n[63] == 1000 + N);
    CHECK(rs_sweep_row(&r, 0, 0)->result.req.n == r.sizes.n[0]);
    rs_sweep_free(&r);
    free(many);
    free(mcmd);
}

static void test_csv(void)
{
    rs_sweep s;
    rs_error err;
    make(&s, "2^10..2^20");
    fill(&s);
    char path[] = "/tmp/rs_sweep_csvXXXXXX";
    close(mkstemp(path));
    CHECK(rs_sweep_write_csv(&s, RS_CHART_TIME, path, &err) == RS_OK);
    FILE *f = fopen(path, "r");
    char line[256];
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "n,atomic,first_add,cpu\n") == 0);
    CHECK(fgets(line, sizeof line, f) && strncmp(line, "1024,", 5) == 0);
    fclose(f);
    unlink(path);
    rs_sweep_free(&s);
}

/* ---- both cache states: the layout, the bend, the bounds ---------------------------- */

/* A sweep of vars in both states over 2^16..2^28 on a device like an
 * H200's: 3.7 us a launch, 60 MiB of L2, the DRAM read 4400 GB/s and the
 * L2's 9000. Each row as measured: gbps from the time, float32. */
static void both(rs_sweep *s, const rs_variant *v, int nv)
{
    rs_sweep_sizes sizes;
    rs_error err;
    CHECK(rs_sweep_parse("2^16..2^28", &sizes, &err) == RS_OK);
    CHECK(rs_sweep_init(s, &sizes, v, nv, RS_CACHE_BOTH, &err) == RS_OK);
    s->done = s->sizes.count * s->nvar; /* filled by measured() */
}

static void measured(rs_sweep *s, int i, int k, double us)
{
    rs_row *r = rs_sweep_row(s, i, k);
    memset(r, 0, sizeof *r);
    r->status = RS_OK;
    r->result.correct = 1;
    r->result.req.variant = s->var[k];
    r->result.req.cache = s->cache[k];
    r->result.req.type = RS_FLOAT32;
    r->result.req.n = s->sizes.n[i];
    r->result.t_median_ms = us * 1e-3;
    r->result.gbps = 4.0 * (double)s->sizes.n[i] / (us * 1e-6) / 1e9;
    r->result.device.floor_launch_us = 3.7;
    r->result.device.l2_bytes = 60ull << 20;
    r->result.device.measured_gbps = 4400.0;
    r->result.device.l2_gbps = 9000.0;
}

static void test_layout(void)
{
    const rs_variant v[3] = {RS_V_ATOMIC, RS_V_VECTORIZED, RS_V_CPU};
    rs_sweep s;
    both(&s, v, 3);
    /* cold: the three; warm: the two GPU variants (the CPU has no cache) */
    CHECK(s.nvar == 5 && s.both && s.cache[2] == RS_CACHE_COLD && s.var[2] == RS_V_CPU);
    CHECK(s.cache[3] == RS_CACHE_WARM && s.var[3] == RS_V_ATOMIC && s.var[4] == RS_V_VECTORIZED);
    CHECK(rs_sweep_series_count(&s) == 5); /* the cpu variant is the CPU's series */
    /* rows: every size cold (3 a size), then every size warm (2 a size) */
    CHECK(rs_sweep_index(&s, 0, 0) == 0 && rs_sweep_index(&s, 1, 0) == 3);
    CHECK(rs_sweep_index(&s, 12, 2) == 38 && rs_sweep_index(&s, 0, 3) == 39);
    CHECK(rs_sweep_index(&s, 12, 4) == 13 * 5 - 1);
    for (int x = 0; x < s.sizes.count * s.nvar; x++) {
        int i, k;
        rs_sweep_at(&s, x, &i, &k);
        CHECK_MSG(rs_sweep_index(&s, i, k) == x, "%d: (%d, %d)", x, i, k);
        rs_request base, q;
        rs_request_defaults(&base);
        rs_sweep_request(&s, x, &base, &q);
        CHECK(q.variant == s.var[k] && q.n == s.sizes.n[i] && q.cache == s.cache[k]);
    }
    char a[64], b[64];
    CHECK_STR_EQ(rs_sweep_series_label(&s, 4, a, sizeof a), "vectorized (warm)");
    CHECK_STR_EQ(rs_sweep_series_label(&s, 2, b, sizeof b), "cpu");
    int order[RS_SWEEP_MAX_SERIES]; /* side by side: atomic cold, warm, vectorized..., cpu */
    CHECK(rs_sweep_series_order(&s, order) == 5 && order[0] == 0 && order[1] == 3 &&
          order[2] == 1 && order[3] == 4 && order[4] == 2);
    rs_sweep_free(&s);
    /* one state: the layout as before, size by size */
    rs_sweep_sizes sizes;
    rs_error err;
    CHECK(rs_sweep_parse("2^16..2^18", &sizes, &err) == RS_OK);
    CHECK(rs_sweep_init(&s, &sizes, v, 3, RS_CACHE_BIT(RS_CACHE_WARM), &err) == RS_OK);
    CHECK(s.nvar == 3 && !s.both && s.cache[0] == RS_CACHE_WARM && rs_sweep_index(&s, 2, 1) == 7);
    CHECK_STR_EQ(rs_sweep_series_label(&s, 1, a, sizeof a), "vectorized");
    rs_sweep_free(&s);
}

static void test_bend(void)
{
    /* rises to its best, falls by exactly a third (not more), then below */
    const double v[] = {10, 40, 90, 90, 60, 59.9, 80};
    CHECK(rs_bend_index(v, 7) == 5);
    CHECK(rs_bend_index(v, 5) == -1); /* 60 is two thirds of 90: no bend yet */
    /* a dip before the best is no bend; gaps (not measured) are skipped */
    const double w[] = {50, 20, 0, 100, -1, 30};
    CHECK(rs_bend_index(w, 6) == 5);
    CHECK(rs_bend_index(w, 0) == -1 && rs_bend_index((const double[]){0, -1}, 2) == -1);
    const double flat[] = {1, 2, 3, 4};
    CHECK(rs_bend_index(flat, 4) == -1);
    /* over a sweep: warm rises in the L2 and falls past it; cold never bends */
    const rs_variant var[1] = {RS_V_VECTORIZED};
    rs_sweep s;
    both(&s, var, 1);
    for (int i = 0; i < s.sizes.count; i++) {
        const double mb = 4.0 * (double)s.sizes.n[i] / 1e6; /* MB of input */
        measured(&s, i, 0, 0.5 + mb / 4.4); /* 4400 GB/s (4.4 MB a us) cold, 0.5 us more */
        measured(&s, i, 1, 0.5 + mb / (i <= 7 ? 9.0 : 4.4)); /* warm: the L2's within it */
    }
    int best;
    CHECK(rs_sweep_bend(&s, 0, &best) == -1 && best == 12);
    const int at = rs_sweep_bend(&s, 1, &best);
    CHECK_MSG(best == 7 && at == 8, "best %d, bend %d", best, at); /* 2^23 -> 2^24 */
    rs_sweep_free(&s);
}

/* Where warm stops gaining on cold: after the best ratio (at least x1.15),
 * the first size within 5%; none where warm never gained or never stops. */
static void test_edge(void)
{
    const double cold[] = {5.5, 6.6, 10.0, 13.6, 20.3, 34.4};
    const double warm[] = {5.0, 6.0, 7.6, 9.6, 20.1, 34.3};
    double best = 0.0;
    CHECK(rs_edge_index(cold, warm, 6, &best) == 4 && best > 1.41 && best < 1.42);
    CHECK(rs_edge_index(cold, warm, 4, &best) == -1); /* still gaining at the end */
    const double same[] = {5.4, 6.5, 9.9, 13.5, 20.2, 34.4};
    CHECK(rs_edge_index(cold, same, 6, &best) == -1 && best == 0.0); /* never gained */
    const double gap[] = {5.0, 6.0, 7.6, 0, 20.1, 34.3};             /* not measured: skipped */
    CHECK(rs_edge_index(cold, gap, 6, &best) == 4);
    /* over a sweep of both states: the warm series against its cold twin */
    const rs_variant var[1] = {RS_V_VECTORIZED};
    rs_sweep s;
    both(&s, var, 1);
    for (int i = 0; i < s.sizes.count; i++) {
        const double mb = 4.0 * (double)s.sizes.n[i] / 1e6;
        measured(&s, i, 0, 0.5 + mb / 4.4);
        measured(&s, i, 1, 0.5 + mb / (i <= 7 ? 9.0 : 4.4));
    }
    CHECK(rs_sweep_warm_edge(&s, 0, &best) == -1); /* a cold series has none */
    CHECK_MSG(rs_sweep_warm_edge(&s, 1, &best) == 8, "edge %d", rs_sweep_warm_edge(&s, 1, &best));
    rs_sweep_free(&s);
}

static void test_bounds(void)
{
    rs_result r;
    memset(&r, 0, sizeof r);
    r.req.variant = RS_V_VECTORIZED;
    r.req.type = RS_FLOAT32;
    r.req.n = 1 << 20;
    r.device.floor_launch_us = 4.0;
    r.device.l2_bytes = 60ull << 20;
    r.t_median_ms = 0.006; /* 6 us: within 1.5x of 4 */
    CHECK(rs_result_bound(&r) == RS_BOUND_LAUNCH);
    r.t_median_ms = 0.0061;
    CHECK(rs_result_bound(&r) == RS_BOUND_DRAM); /* cold */
    r.req.cache = RS_CACHE_WARM;
    CHECK(rs_result_bound(&r) == RS_BOUND_L2);
    r.req.n = (60u << 20) / 4 + 1; /* one element past the L2 */
    CHECK(rs_result_bound(&r) == RS_BOUND_DRAM);
    r.device.floor_launch_us = 0; /* no floor: launch-bound cannot be told */
    CHECK(rs_result_bound(&r) == RS_BOUND_NONE);
    r.device.floor_launch_us = 4.0;
    r.req.variant = RS_V_CPU;
    CHECK(rs_result_bound(&r) == RS_BOUND_NONE && !strcmp(rs_bound_key(RS_BOUND_L2), "l2"));

    /* vectorized: launch-bound to 2^18 in both, L2-bound warm to 2^23,
     * DRAM-bound beyond (the L2 holds 15.7M float32) */
    const rs_variant var[2] = {RS_V_ATOMIC, RS_V_VECTORIZED};
    rs_sweep s;
    both(&s, var, 2);
    for (int i = 0; i < s.sizes.count; i++)
        for (int k = 0; k < s.nvar; k++) measured(&s, i, k, i <= 2 && k % 2 ? 5.0 : 50.0 * (i + 1));
    char line[512];
    rs_sweep_bound_line(&s, 1, line, sizeof line);
    CHECK_STR_EQ(line, "vectorized: launch-bound to 2^18, L2-bound 2^19..2^23 (warm; cold: "
                       "DRAM-bound), DRAM-bound from 2^24");
    rs_sweep_bound_line(&s, 2, line, sizeof line); /* its warm column: the same line */
    CHECK_STR_EQ(line, "atomic: L2-bound to 2^23 (warm; cold: DRAM-bound), DRAM-bound from 2^24");
    rs_bound_range b[16];
    CHECK(rs_sweep_bounds(&s, 3, b, 16) == 3 && b[1].bound == RS_BOUND_L2 && b[1].first == 3 &&
          b[1].last == 7);
    /* a size warm did not run: cold alone there, said so */
    rs_sweep_row(&s, 12, 3)->status = RS_E_USAGE;
    rs_sweep_bound_line(&s, 1, line, sizeof line);
    CHECK_STR_CONTAINS(line, "DRAM-bound 2^24..2^27, DRAM-bound at 2^28 (cold)");
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(&s, &c);
    CHECK(c.n_l2 == 15728640 && c.dram_gbps == 4400.0 && c.l2_gbps == 9000.0);
    rs_sweep_free(&s);
}

/* A recording of both states as rs_sweep_from_rows reads it: a column per
 * variant and state, the cpu once, the crossovers each state's. */
static void test_from_rows_both(void)
{
    const rs_variant var[2] = {RS_V_ATOMIC, RS_V_CPU};
    rs_sweep live;
    both(&live, var, 2);
    const int n = live.sizes.count * live.nvar;
    char(*cmd)[16] = calloc((size_t)n, sizeof *cmd);
    for (int x = 0; x < n; x++) {
        int i, k;
        rs_sweep_at(&live, x, &i, &k);
        measured(&live, i, k, k == 1 ? 1.0 : 10.0 - (live.cache[k] == RS_CACHE_WARM));
        rs_sweep_row(&live, i, k)->result.cpu_ms = 1e9; /* never the fastest beside */
        snprintf(cmd[x], sizeof cmd[x], "sweep");
    }
    rs_sweep s;
    rs_error err;
    CHECK(rs_sweep_from_rows(&s, live.rows, cmd, n, &err) == RS_OK);
    CHECK(s.both && s.nvar == 3 && s.var[1] == RS_V_CPU && s.cache[2] == RS_CACHE_WARM);
    CHECK(rs_sweep_row(&s, 4, 2)->result.req.cache == RS_CACHE_WARM);
    char text[512];
    rs_sweep_crossovers(&s, text, sizeof text);
    CHECK_STR_EQ(text, "cold: cpu fastest at every size (2^16 to 2^28). warm: cpu fastest at "
                       "every size (2^16 to 2^28)");
    rs_sweep_free(&s);
    rs_sweep_free(&live);
    free(cmd);
}

int main(void)
{
    test_crossovers();
    test_recording();
    test_axes();
    test_chart_axis();
    test_labels();
    test_from_rows();
    test_csv();
    test_layout();
    test_bend();
    test_edge();
    test_bounds();
    test_from_rows_both();
    return check_report("test_sweep");
}
