#include "sweep.h"

#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/format.h"

rs_status rs_sweep_init(rs_sweep *s, const rs_sweep_sizes *sizes, const rs_variant *vars, int nvar,
                        rs_error *err)
{
    memset(s, 0, sizeof *s);
    s->sizes = *sizes;
    s->nvar = nvar;
    memcpy(s->var, vars, sizeof *vars * (size_t)nvar);
    s->rows = calloc((size_t)(sizes->count * nvar) + 1, sizeof *s->rows);
    if (!s->rows) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    return RS_OK;
}

void rs_sweep_free(rs_sweep *s)
{
    free(s->rows);
    memset(s, 0, sizeof *s);
}

rs_row *rs_sweep_row(const rs_sweep *s, int i, int v)
{
    return &s->rows[i * s->nvar + v];
}

rs_status rs_sweep_from_rows(rs_sweep *s, const rs_row *rows, const char (*command)[16], int count,
                             rs_error *err)
{
    rs_sweep_sizes sizes = {0, {0}};
    rs_variant vars[RS_VARIANT_COUNT] = {0};
    int nvar = 0, left = 0;
    uint64_t *out = NULL; /* the sizes past the cap, each once */
    for (int i = 0; i < count; i++) {
        if (strcmp(command[i], "sweep") != 0) continue;
        const rs_request *r = &rows[i].result.req;
        int k = 0;
        while (k < sizes.count && sizes.n[k] != r->n) k++;
        if (k == sizes.count && sizes.count < RS_SWEEP_MAX_SIZES) {
            sizes.n[sizes.count++] = r->n;
        } else if (k == sizes.count) {
            int seen = 0;
            for (int q = 0; q < left && !seen; q++) seen = out[q] == r->n;
            uint64_t *grown = seen ? out : realloc(out, sizeof *out * (size_t)(left + 1));
            if (grown && !seen) (out = grown)[left++] = r->n;
        }
        for (k = 0; k < nvar && vars[k] != r->variant; k++) continue;
        if (k == nvar && nvar < RS_VARIANT_COUNT) vars[nvar++] = r->variant;
    }
    if (!sizes.count) {
        free(out);
        return rs_fail(err, RS_E_USAGE, "the recording holds no sweep");
    }
    /* sizes ascending, variants in ladder order */
    for (int a = 0; a < sizes.count; a++)
        for (int b = a + 1; b < sizes.count; b++)
            if (sizes.n[b] < sizes.n[a]) {
                uint64_t t = sizes.n[a];
                sizes.n[a] = sizes.n[b];
                sizes.n[b] = t;
            }
    for (int a = 0; a < nvar; a++)
        for (int b = a + 1; b < nvar; b++)
            if (vars[b] < vars[a]) {
                rs_variant t = vars[a];
                vars[a] = vars[b];
                vars[b] = t;
            }
    free(out);
    rs_status st = rs_sweep_init(s, &sizes, vars, nvar, err);
    if (st != RS_OK) return st;
    s->sizes_left_out = left;
    for (int i = 0; i < sizes.count * nvar; i++) {
        s->rows[i].status = RS_E_USAGE;
        snprintf(s->rows[i].error, sizeof s->rows[i].error, "%s", RS_NOT_RECORDED);
    }
    for (int i = 0; i < count; i++) {
        if (strcmp(command[i], "sweep") != 0) continue;
        const rs_request *r = &rows[i].result.req;
        int si = 0, vi = 0;
        while (si < sizes.count && sizes.n[si] != r->n) si++;
        while (vi < nvar && vars[vi] != r->variant) vi++;
        /* sizes beyond RS_SWEEP_MAX_SIZES were not kept: their rows neither */
        if (si < sizes.count && vi < nvar) *rs_sweep_row(s, si, vi) = rows[i];
    }
    s->done = sizes.count * nvar;
    return RS_OK;
}

/* The CPU baseline is a series of its own unless the cpu variant is one. */
static int has_cpu_variant(const rs_sweep *s)
{
    for (int v = 0; v < s->nvar; v++)
        if (s->var[v] == RS_V_CPU) return 1;
    return 0;
}

int rs_sweep_series_count(const rs_sweep *s)
{
    return s->nvar + !has_cpu_variant(s);
}

const char *rs_sweep_series_name(const rs_sweep *s, int series)
{
    if (series >= s->nvar) return "cpu (1 thread)";
    /* a user kernel's series goes by its file's name */
    if (s->var[series] == RS_V_KERNEL && s->rows && s->done > series &&
        s->rows[series].result.req.kernel[0])
        return rs_request_name(&s->rows[series].result.req);
    return rs_variant_name(s->var[series]);
}

static int row_usable(const rs_sweep *s, int i, int v)
{
    if (i * s->nvar + v >= s->done) return 0;
    const rs_row *r = rs_sweep_row(s, i, v);
    return r->status == RS_OK && r->result.correct && r->result.t_median_ms > 0.0;
}

/* A value worth charting: finite and > 0; -1 otherwise. */
static double chartable(double v)
{
    return v > 0.0 && isfinite(v) ? v : -1.0;
}

double rs_sweep_value(const rs_sweep *s, int i, int series, rs_chart_quantity q)
{
    if (i < 0 || i >= s->sizes.count || series < 0) return -1.0;
    if (series < s->nvar) {
        if (!row_usable(s, i, series)) return -1.0;
        const rs_result *r = &rs_sweep_row(s, i, series)->result;
        return chartable(q == RS_CHART_TIME ? r->t_median_ms : r->gbps);
    }
    /* The CPU baseline measured beside any run at this size. */
    for (int v = 0; v < s->nvar; v++) {
        if (i * s->nvar + v >= s->done) break;
        const rs_row *r = rs_sweep_row(s, i, v);
        if (r->status != RS_OK || chartable(r->result.cpu_ms) < 0) continue;
        if (q == RS_CHART_TIME) return r->result.cpu_ms;
        return chartable(rs_result_input_bytes(&r->result) / (r->result.cpu_ms * 1e-3) / 1e9);
    }
    return -1.0;
}

/* A size as the sweep writes it: one notation down a column, so a range of
 * powers of two reads 2^1 .. 2^30, not 512 then 2^10. */
void rs_sweep_size_name(const rs_sweep *s, uint64_t n, char *buf, size_t len)
{
    int pow2 = s->sizes.count > 0;
    for (int i = 0; i < s->sizes.count && pow2; i++)
        pow2 = s->sizes.n[i] >= 2 && (s->sizes.n[i] & (s->sizes.n[i] - 1)) == 0;
    if (pow2 && n >= 2 && (n & (n - 1)) == 0)
        snprintf(buf, len, "2^%d", __builtin_ctzll(n));
    else
        rs_format_size(n, buf, len);
}

/* The fastest usable variant at size i, or -1. */
static int fastest(const rs_sweep *s, int i, double *t_out)
{
    int best = -1;
    double best_t = 0.0;
    for (int v = 0; v < rs_sweep_series_count(s); v++) {
        const double t = rs_sweep_value(s, i, v, RS_CHART_TIME);
        if (t > 0.0 && (best < 0 || t < best_t)) best = v, best_t = t;
    }
    *t_out = best_t;
    return best;
}

int rs_sweep_leads(const rs_sweep *s, rs_sweep_lead *out, int max)
{
    int segments = 0, lead = -1, start = 0, last = 0;
    for (int i = 0; i < s->sizes.count; i++) {
        double t;
        const int best = fastest(s, i, &t);
        if (best < 0) continue;
        const double lead_t = lead >= 0 ? rs_sweep_value(s, i, lead, RS_CHART_TIME) : -1.0;
        if (lead < 0 || lead_t <= 0.0 || (best != lead && lead_t > t * RS_LEAD_MARGIN)) {
            if (lead >= 0 && segments < max) out[segments++] = (rs_sweep_lead){lead, start, last};
            lead = best;
            start = i;
        }
        last = i;
    }
    if (lead >= 0 && segments < max) out[segments++] = (rs_sweep_lead){lead, start, last};
    return segments;
}

int rs_sweep_crossovers(const rs_sweep *s, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    rs_sweep_lead seg[RS_SWEEP_MAX_SIZES];
    const int segments = rs_sweep_leads(s, seg, RS_SWEEP_MAX_SIZES);
    int measured = 0; /* the sizes where some series has a time */
    for (int i = 0; i < s->sizes.count; i++) {
        double t;
        measured += fastest(s, i, &t) >= 0;
    }
    for (int k = 0; k < segments; k++) {
        char a[32], b[32];
        rs_sweep_size_name(s, s->sizes.n[seg[k].first], a, sizeof a);
        rs_sweep_size_name(s, s->sizes.n[seg[k].last], b, sizeof b);
        const char *name = rs_sweep_series_name(s, seg[k].series);
        int w;
        if (segments == 1 && seg[k].first == seg[k].last) /* one size: no crossover to find */
            w = snprintf(text + used, len - used, "%s fastest at the one size measured (%s)", name,
                         a);
        else if (segments == 1 && measured < s->sizes.count)
            w = snprintf(text + used, len - used,
                         "%s fastest at every size measured (%d of %d, %s to %s)", name, measured,
                         s->sizes.count, a, b);
        else if (segments == 1)
            w = snprintf(text + used, len - used, "%s fastest at every size (%s to %s)", name, a,
                         b);
        else if (k == 0)
            w = snprintf(text + used, len - used, "%s fastest up to %s", name, b);
        else if (k == segments - 1)
            w = snprintf(text + used, len - used, "; %s from %s on", name, a);
        else if (seg[k].first == seg[k].last)
            w = snprintf(text + used, len - used, "; %s at %s", name, a);
        else
            w = snprintf(text + used, len - used, "; %s from %s to %s", name, a, b);
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
    if (segments > 1 && measured < s->sizes.count && used < len) /* the gaps are not leads */
        snprintf(text + used, len - used, " (%d of %d sizes measured)", measured, s->sizes.count);
    return segments;
}

/* A usable bound: finite and > 0. */
static int usable(double v)
{
    return v > 0.0 && isfinite(v);
}

rs_axis rs_log_axis(double lo, double hi)
{
    rs_axis a = {1.0, 10.0};
    if (!usable(lo) && !usable(hi)) return a;
    if (!usable(lo)) lo = hi;
    if (!usable(hi)) hi = lo;
    if (hi < lo) {
        const double t = lo;
        lo = hi;
        hi = t;
    }
    a.lo = pow(10.0, floor(log10(lo)));
    a.hi = pow(10.0, ceil(log10(hi)));
    if (!usable(a.lo) || !usable(a.hi)) return (rs_axis){1.0, 10.0}; /* beyond double */
    if (a.hi <= a.lo) a.hi = a.lo * 10.0;
    if (!usable(a.hi)) a.lo /= 10.0, a.hi = a.lo * 10.0;
    return a;
}

int rs_log_pos(rs_axis a, double v, int cells)
{
    if (cells <= 1 || !usable(v) || !usable(a.lo) || !(a.hi > a.lo) || !isfinite(a.hi)) return 0;
    const double f = (log10(v) - log10(a.lo)) / (log10(a.hi) - log10(a.lo));
    if (!isfinite(f)) return 0;
    const double p = round(f * (cells - 1));
    return p < 0 ? 0 : p > cells - 1 ? cells - 1 : (int)p;
}

rs_axis rs_chart_axis(const rs_sweep *s, rs_chart_quantity q, double peak)
{
    double lo = INFINITY, hi = 0.0;
    for (int k = 0; k < rs_sweep_series_count(s); k++)
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, q);
            if (usable(v)) lo = fmin(lo, v), hi = fmax(hi, v);
        }
    if (q == RS_CHART_GBPS && usable(peak)) {
        hi = fmax(hi, peak);
        if (!usable(lo)) lo = peak;
    }
    return rs_log_axis(lo, hi);
}

int rs_log_decades(rs_axis a, double *out, int max)
{
    int n = 0;
    if (!usable(a.lo) || !(a.hi >= a.lo) || !isfinite(a.hi)) return 0;
    for (double v = a.lo; n < max && v <= a.hi * 1.0001; v *= 10.0) out[n++] = v;
    return n;
}

int rs_chart_x(const rs_sweep *s, int i, int dots)
{
    if (dots <= 1 || s->sizes.count <= 0 || i < 0 || i >= s->sizes.count) return 0;
    const double lo = log2((double)s->sizes.n[0] + 1e-300);
    const double hi = log2((double)s->sizes.n[s->sizes.count - 1] + 1e-300);
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi)) return dots / 2;
    const double f = (log2((double)s->sizes.n[i]) - lo) / (hi - lo);
    if (!isfinite(f)) return 0;
    const double x = round(f * (dots - 1));
    return x < 0 ? 0 : x > dots - 1 ? dots - 1 : (int)x;
}

int rs_place_labels(const int *center, const int *width, int count, int cursor, int plot_w, int gap,
                    int *start)
{
    int shown = 0;
    for (int i = 0; i < count; i++) start[i] = -1;
    /* the cursor's label first, then the others where they fit with a gap */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < count; i++) {
            if ((pass == 0) != (i == cursor) || width[i] <= 0 || width[i] > plot_w) continue;
            int x = center[i] - width[i] / 2;
            if (x < 0) x = 0;
            if (x + width[i] > plot_w) x = plot_w - width[i];
            int clash = 0;
            for (int k = 0; k < count && !clash; k++)
                clash =
                    start[k] >= 0 && x < start[k] + width[k] + gap && start[k] < x + width[i] + gap;
            if (!clash) start[i] = x, shown++;
        }
    return shown;
}
