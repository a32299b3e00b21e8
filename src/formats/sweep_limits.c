/* A sweep's limits out (formats/sweep_out.h): below its table, the two
 * measured ceilings and where the input outgrows the L2, where a curve
 * bends, and where each variant is launch-, L2- or DRAM-bound; the same
 * as data in its JSON. The figures are analysis/sweep.c's. */
#include "sweep_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/format.h"

/* "15,728,640 (2^23.91)": the n where the input fills the L2. */
static void n_words(uint64_t n, char *buf, size_t len)
{
    char count[32];
    rs_fmt_count((double)n, count, sizeof count);
    snprintf(buf, len, "%s (2^%.2f)", count, log2((double)n));
}

static void print_ceilings(FILE *f, const rs_sweep_ceilings *c)
{
    char dram[64] = "", l2[64] = "", bytes[32], n[48];
    if (c->dram_gbps > 0) snprintf(dram, sizeof dram, "DRAM read %.0f GB/s", c->dram_gbps);
    if (c->l2_gbps > 0)
        snprintf(l2, sizeof l2, "%sL2 read %.0f GB/s", dram[0] ? ", " : "", c->l2_gbps);
    if (dram[0] || l2[0])
        fprintf(f, "ceilings (measured): %s%s%s\n", dram, l2,
                l2[0] ? "" : "; the L2 read was not measured");
    if (!c->l2_bytes || !c->n_l2) return;
    rs_fmt_bytes((double)c->l2_bytes, bytes, sizeof bytes);
    n_words(c->n_l2, n, sizeof n);
    const int g = c->first->multi.gpus > 1;
    fprintf(f, "L2: %s%s holds the %s input up to n = %s; past it a warm input comes from DRAM\n",
            bytes, g ? " per GPU" : "", rs_dtype_name(c->first->req.type), n);
}

/* Each series that bends: where its GB/s falls by more than a third of
 * its best. */
/* Where each warm series stops gaining on its cold twin: the L2's edge,
 * measured (sweeps of both states). */
static void print_edges(FILE *f, const rs_sweep *s)
{
    int said = 0;
    for (int k = 0; k < s->nvar; k++) {
        double best = 0.0;
        const int at = rs_sweep_warm_edge(s, k, &best);
        if (at < 0) continue;
        char n[32], x[32];
        rs_sweep_size_name(s, s->sizes.n[at], n, sizeof n);
        rs_fmt_ratio(best, rs_notation_utf8(), x, sizeof x);
        fprintf(f, "%s %s from %s (warm at most %s faster before)",
                said++ ? ";" : "warm stops gaining (within 5% of cold):",
                rs_sweep_series_name(s, k), n, x);
    }
    if (said) fputc('\n', f);
}

static void print_bends(FILE *f, const rs_sweep *s)
{
    int said = 0, warm = 0;
    for (int k = 0; k < s->nvar; k++) {
        int best;
        const int at = s->var[k] == RS_V_CPU ? -1 : rs_sweep_bend(s, k, &best);
        warm |= s->cache[k] == RS_CACHE_WARM && s->var[k] != RS_V_CPU;
        if (at < 0) continue;
        char label[128], n[32], nb[32];
        rs_sweep_size_name(s, s->sizes.n[at], n, sizeof n);
        rs_sweep_size_name(s, s->sizes.n[best], nb, sizeof nb);
        fprintf(f, "%s %s at %s (%.0f GB/s; its best %.0f at %s)",
                said++ ? ";" : "bends (GB/s falls by more than a third of its best):",
                rs_sweep_series_label(s, k, label, sizeof label), n,
                rs_sweep_value(s, at, k, RS_CHART_GBPS), rs_sweep_value(s, best, k, RS_CHART_GBPS),
                nb);
    }
    if (said)
        fputc('\n', f);
    else if (warm)
        fprintf(f, "bends: none (no warm curve falls by more than a third of its best)\n");
    print_edges(f, s);
}

/* The first column of each variant: its line of bounds. */
static int first_of_variant(const rs_sweep *s, int k)
{
    for (int j = 0; j < k; j++)
        if (s->var[j] == s->var[k]) return 0;
    return 1;
}

static void print_bounds(FILE *f, const rs_sweep *s, const rs_sweep_ceilings *c)
{
    int said = 0;
    for (int k = 0; k < s->nvar; k++) {
        char line[1024];
        if (!first_of_variant(s, k)) continue;
        rs_sweep_bound_line(s, k, line, sizeof line);
        if (!line[0]) continue;
        if (!said++) {
            char floor[32];
            rs_fmt_time(c->floor_launch_us * 1e-3, rs_notation_utf8(), floor, sizeof floor);
            fprintf(f,
                    "bounds (launch-bound: within %.1fx of one launch, %s; L2-bound: warm and "
                    "within the L2; else DRAM-bound):\n",
                    RS_LAUNCH_BOUND, floor);
        }
        fprintf(f, "  %s\n", line);
    }
    if (!said && c->first)
        fprintf(f, "bounds: not told: the rows hold no launch floor (one launch's time, which "
                   "launch-bound is held against)\n");
}

void rs_print_sweep_limits(FILE *f, const rs_sweep *s)
{
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(s, &c);
    if (!c.first) return;
    print_ceilings(f, &c);
    print_bends(f, s);
    print_bounds(f, s, &c);
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void ceilings_json(const rs_sweep_ceilings *c, cJSON *j)
{
    cJSON *o = cJSON_AddObjectToObject(j, "ceilings");
    cJSON_AddNumberToObject(o, "dram_read_gbps", c->dram_gbps);
    cJSON_AddNumberToObject(o, "l2_read_gbps", c->l2_gbps);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)c->l2_bytes);
    cJSON_AddNumberToObject(o, "n_l2", (double)c->n_l2);
    cJSON_AddNumberToObject(o, "floor_launch_ms", c->floor_launch_us * 1e-3);
}

static void bends_json(const rs_sweep *s, cJSON *j)
{
    cJSON *a = cJSON_AddArrayToObject(j, "bends");
    for (int k = 0; k < s->nvar; k++) {
        if (s->var[k] == RS_V_CPU) continue;
        int best;
        const int at = rs_sweep_bend(s, k, &best);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "variant", rs_sweep_series_name(s, k));
        cJSON_AddStringToObject(o, "cache", rs_cache_name(s->cache[k]));
        cJSON_AddNumberToObject(o, "n", at < 0 ? 0.0 : (double)s->sizes.n[at]);
        cJSON_AddNumberToObject(o, "gbps", at < 0 ? 0.0 : rs_sweep_value(s, at, k, RS_CHART_GBPS));
        cJSON_AddNumberToObject(o, "n_best", best < 0 ? 0.0 : (double)s->sizes.n[best]);
        cJSON_AddNumberToObject(o, "best_gbps",
                                best < 0 ? 0.0 : rs_sweep_value(s, best, k, RS_CHART_GBPS));
        cJSON_AddItemToArray(a, o);
    }
}

static void edges_json(const rs_sweep *s, cJSON *j)
{
    cJSON *a = cJSON_AddArrayToObject(j, "warm_edges");
    for (int k = 0; k < s->nvar; k++) {
        double best = 0.0;
        const int at = rs_sweep_warm_edge(s, k, &best);
        if (at < 0) continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "variant", rs_sweep_series_name(s, k));
        cJSON_AddNumberToObject(o, "n", (double)s->sizes.n[at]);
        cJSON_AddNumberToObject(o, "best_speedup", best);
        cJSON_AddItemToArray(a, o);
    }
}

static void bounds_json(const rs_sweep *s, cJSON *j)
{
    cJSON *a = cJSON_AddArrayToObject(j, "bounds");
    for (int k = 0; k < s->nvar; k++) {
        if (!first_of_variant(s, k) || s->var[k] == RS_V_CPU) continue;
        char line[1024];
        rs_sweep_bound_line(s, k, line, sizeof line);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "variant", rs_sweep_series_name(s, k));
        cJSON_AddStringToObject(o, "said", line);
        cJSON *ranges = cJSON_AddArrayToObject(o, "ranges");
        for (int c = k; c < s->nvar; c++) { /* its column in each state */
            if (s->var[c] != s->var[k]) continue;
            rs_bound_range r[RS_SWEEP_MAX_SIZES];
            const int n = rs_sweep_bounds(s, c, r, RS_SWEEP_MAX_SIZES);
            for (int q = 0; q < n; q++) {
                cJSON *x = cJSON_CreateObject();
                cJSON_AddStringToObject(x, "cache", rs_cache_name(s->cache[c]));
                cJSON_AddStringToObject(x, "bound", rs_bound_key(r[q].bound));
                cJSON_AddNumberToObject(x, "n_from", (double)s->sizes.n[r[q].first]);
                cJSON_AddNumberToObject(x, "n_to", (double)s->sizes.n[r[q].last]);
                cJSON_AddItemToArray(ranges, x);
            }
        }
        cJSON_AddItemToArray(a, o);
    }
}

void rs_sweep_limits_json(const rs_sweep *s, cJSON *j)
{
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(s, &c);
    ceilings_json(&c, j);
    bends_json(s, j);
    edges_json(s, j);
    bounds_json(s, j);
}
