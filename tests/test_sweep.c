/* Sweep data: crossovers, chart scales, and sweeps read back from rows. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/sweep.h"

/* A sweep where `a` costs 1 us per 2^10 elements plus nothing, and `b` a
 * fixed 10 us plus 0.1 us per 2^10: a is fastest up to 2^16, b above. */
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

int main(void)
{
    rs_sweep_sizes sizes;
    rs_error err;
    CHECK(rs_sweep_parse("2^10..2^20", &sizes, &err) == RS_OK);
    const rs_variant vars[2] = {RS_V_ATOMIC, RS_V_FIRST_ADD};
    rs_sweep s;
    CHECK(rs_sweep_init(&s, &sizes, vars, 2, &err) == RS_OK);
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
    for (int i = 0; i < sizes.count; i++) rs_sweep_row(&s, i, 0)->result.t_median_ms = 1e-6;
    CHECK(rs_sweep_crossovers(&s, text, sizeof text) == 1);
    CHECK_STR_CONTAINS(text, "atomic fastest at every size (2^10 to 2^20)");
    /* The crossovers cover the CPU series: faster than both at small n. */
    {
        rs_sweep c;
        CHECK(rs_sweep_init(&c, &sizes, vars, 2, &err) == RS_OK);
        fill(&c);
        for (int i = 0; i < 3; i++) rs_sweep_row(&c, i, 0)->result.cpu_ms = 1e-4;
        CHECK(rs_sweep_crossovers(&c, text, sizeof text) == 3);
        CHECK_MSG(strstr(text, "cpu (1 thread) fastest up to 2^12; atomic from 2^13 to 2^13") ==
                          text ||
                      strstr(text, "cpu (1 thread) fastest up to 2^12") == text,
                  "%s", text);
        rs_sweep_free(&c);
    }
    /* The CPU series comes from the baseline beside each run. */
    CHECK(fabs(rs_sweep_value(&s, 0, 2, RS_CHART_TIME) - 4e-3) < 1e-12);
    CHECK(rs_sweep_series_count(&s) == 3);
    /* Only what has run counts. */
    s.done = 3;
    CHECK(rs_sweep_value(&s, 5, 0, RS_CHART_TIME) < 0);
    s.done = sizes.count * 2;

    rs_axis a = rs_log_axis(0.0042, 310.0);
    CHECK(a.lo == 0.001 && a.hi == 1000.0);
    CHECK(rs_log_pos(a, 0.001, 7) == 0 && rs_log_pos(a, 1000.0, 7) == 6);
    CHECK(rs_log_pos(a, 1.0, 7) == 3 && rs_log_pos(a, 1e9, 7) == 6 && rs_log_pos(a, -1, 7) == 0);
    a = rs_log_axis(5.0, 5.0);
    CHECK(a.lo == 1.0 && a.hi == 10.0);

    /* Empty, zero, NaN and infinite bounds: always a finite axis, so every
     * loop over its decades ends (an infinite bound once hung the chart). */
    const double bad[] = {0.0, -1.0, NAN, INFINITY, -INFINITY, 1e-320, 1e308};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            const rs_axis b = rs_log_axis(bad[i], bad[k]);
            CHECK_MSG(isfinite(b.lo) && isfinite(b.hi) && b.lo > 0 && b.hi > b.lo,
                      "axis(%g, %g) = %g..%g", bad[i], bad[k], b.lo, b.hi);
            double dec[64];
            const int nd = rs_log_decades(b, dec, 64);
            CHECK_MSG(nd >= 2 && nd <= 64, "axis(%g, %g): %d decades", bad[i], bad[k], nd);
            CHECK(rs_log_pos(b, bad[k], 10) >= 0 && rs_log_pos(b, bad[k], 10) < 10);
        }
    a = rs_log_axis(INFINITY, 4814.0); /* the GB/s view with no point yet */
    CHECK(a.lo == 1000.0 && a.hi == 10000.0);
    CHECK(rs_log_pos((rs_axis){1.0, INFINITY}, 5.0, 10) == 0);
    CHECK(rs_log_decades((rs_axis){1.0, INFINITY}, (double[4]){0}, 4) == 0);

    /* The chart's axis over a sweep with nothing plottable yet. */
    rs_sweep empty;
    CHECK(rs_sweep_init(&empty, &sizes, vars, 2, &err) == RS_OK);
    a = rs_chart_axis(&empty, RS_CHART_GBPS, 4814.0);
    CHECK(a.lo == 1000.0 && a.hi == 10000.0);
    a = rs_chart_axis(&empty, RS_CHART_GBPS, 0.0);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    a = rs_chart_axis(&empty, RS_CHART_TIME, NAN);
    CHECK(a.lo == 1.0 && a.hi == 10.0);
    CHECK(rs_chart_x(&empty, 0, 100) == 0 && rs_chart_x(&empty, 10, 100) == 99);
    CHECK(rs_chart_x(&empty, 11, 100) == 0 && rs_chart_x(&empty, 0, 0) == 0);
    rs_sweep_free(&empty);
    rs_sweep_sizes one = {1, {4096}};
    CHECK(rs_sweep_init(&empty, &one, vars, 1, &err) == RS_OK);
    CHECK(rs_chart_x(&empty, 0, 100) == 50);
    rs_sweep_free(&empty);

    /* x labels: inside the plot, never touching, the cursor's always shown */
    {
        const int center[4] = {0, 4, 8, 40}, width[4] = {4, 4, 4, 4};
        int start[4];
        rs_place_labels(center, width, 4, 1, 42, start);
        CHECK(start[1] == 2);                    /* the cursor's first */
        CHECK(start[0] == -1 && start[2] == -1); /* its neighbours would touch it */
        CHECK(start[3] == 38);                   /* kept inside the plot */
        rs_place_labels(center, width, 4, -1, 42, start);
        CHECK(start[0] == 0 && start[1] == -1 && start[2] == 6);
        const int wide[1] = {50};
        CHECK(rs_place_labels(center, wide, 1, 0, 42, start) == 0 && start[0] == -1);
    }

    /* From recorded rows: sizes ascending, variants in ladder order. */
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
    CHECK(rs_sweep_from_rows(&r, rows, cmd, 4, &err) == RS_OK);
    CHECK(r.sizes.count == 2 && r.sizes.n[0] == 1024 && r.nvar == 2);
    CHECK(r.var[0] == RS_V_ATOMIC && r.var[1] == RS_V_CUB);
    CHECK(rs_sweep_row(&r, 0, 1)->status == RS_E_USAGE); /* cub at 2^10 was not recorded */
    CHECK(rs_sweep_row(&r, 1, 1)->result.req.variant == RS_V_CUB);
    rs_sweep_free(&r);

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
    return check_report("test_sweep");
}
