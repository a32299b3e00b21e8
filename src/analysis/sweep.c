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
                        unsigned states, rs_error *err)
{
    memset(s, 0, sizeof *s);
    s->sizes = *sizes;
    int first = 1, filled = 0;
    for (int c = 0; c < RS_CACHE_COUNT; c++) {
        if (!(states & RS_CACHE_BIT(c))) continue;
        const int before = s->nvar;
        for (int v = 0; v < nvar && s->nvar < RS_SWEEP_MAX_COLS; v++)
            if (first || vars[v] != RS_V_CPU) /* the CPU has no cache: once */
                s->var[s->nvar] = vars[v], s->cache[s->nvar++] = (rs_cache)c;
        first = 0;
        filled += s->nvar > before;
    }
    s->both = filled > 1;
    s->rows = calloc((size_t)(sizes->count * s->nvar) + 1, sizeof *s->rows);
    if (!s->rows) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    return RS_OK;
}

void rs_sweep_free(rs_sweep *s)
{
    free(s->rows);
    memset(s, 0, sizeof *s);
}

/* The columns of column k's state: the first, and how many. */
static int state_cols(const rs_sweep *s, int k, int *count)
{
    int first = k;
    while (first > 0 && s->cache[first - 1] == s->cache[k]) first--;
    *count = 0;
    while (first + *count < s->nvar && s->cache[first + *count] == s->cache[k]) (*count)++;
    return first;
}

int rs_sweep_index(const rs_sweep *s, int i, int k)
{
    int count;
    const int first = state_cols(s, k, &count);
    return s->sizes.count * first + i * count + (k - first);
}

void rs_sweep_at(const rs_sweep *s, int index, int *i, int *k)
{
    *i = *k = 0;
    for (int first = 0, count; first < s->nvar; first += count) {
        state_cols(s, first, &count);
        const int base = s->sizes.count * first;
        if (index < base + s->sizes.count * count) {
            *i = (index - base) / count;
            *k = first + (index - base) % count;
            return;
        }
    }
}

rs_row *rs_sweep_row(const rs_sweep *s, int i, int k)
{
    return &s->rows[rs_sweep_index(s, i, k)];
}

void rs_sweep_request(const rs_sweep *s, int index, const rs_request *base, rs_request *out)
{
    int i, k;
    rs_sweep_at(s, index, &i, &k);
    rs_request_for_variant(base, s->var[k], out);
    out->n = s->sizes.n[i];
    out->cache = s->cache[k];
}

/* Column (v, c) of s, or -1. */
static int col_of(const rs_sweep *s, rs_variant v, rs_cache c)
{
    for (int k = 0; k < s->nvar; k++)
        if (s->var[k] == v && (s->cache[k] == c || v == RS_V_CPU)) return k;
    return -1;
}

/* n into sizes, each once, up to RS_SWEEP_MAX_SIZES; one past them into
 * out (each once), counted in *left. */
static void add_size(rs_sweep_sizes *sizes, uint64_t n, uint64_t **out, int *left)
{
    for (int k = 0; k < sizes->count; k++)
        if (sizes->n[k] == n) return;
    if (sizes->count < RS_SWEEP_MAX_SIZES) {
        sizes->n[sizes->count++] = n;
        return;
    }
    for (int q = 0; q < *left; q++)
        if ((*out)[q] == n) return;
    uint64_t *grown = realloc(*out, sizeof **out * (size_t)(*left + 1));
    if (grown) (*out = grown)[(*left)++] = n;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The columns rows hold: state by state (cold first), variants in ladder
 * order, the cpu in its first state alone. */
static int recorded_cols(const rs_row *rows, const char (*command)[16], int count, rs_sweep *s)
{
    int seen[RS_CACHE_COUNT][RS_VARIANT_COUNT] = {{0}}, cpu = -1;
    for (int i = 0; i < count; i++) {
        const rs_request *r = &rows[i].result.req;
        if (strcmp(command[i], "sweep") != 0 || (unsigned)r->variant >= RS_VARIANT_COUNT ||
            (unsigned)r->cache >= RS_CACHE_COUNT)
            continue;
        seen[r->cache][r->variant] = 1;
        if (r->variant == RS_V_CPU && (cpu < 0 || (int)r->cache < cpu)) cpu = (int)r->cache;
    }
    int states = 0;
    for (int c = 0; c < RS_CACHE_COUNT; c++) {
        const int before = s->nvar;
        for (int v = 0; v < RS_VARIANT_COUNT; v++)
            if (seen[c][v] && (v != RS_V_CPU || c == cpu))
                s->var[s->nvar] = (rs_variant)v, s->cache[s->nvar++] = (rs_cache)c;
        states += s->nvar > before;
    }
    s->both = states > 1;
    return s->nvar;
}

rs_status rs_sweep_from_rows(rs_sweep *s, const rs_row *rows, const char (*command)[16], int count,
                             rs_error *err)
{
    rs_sweep shape;
    memset(&shape, 0, sizeof shape);
    int left = 0;
    uint64_t *out = NULL; /* the sizes past the cap, each once */
    for (int i = 0; i < count; i++)
        if (strcmp(command[i], "sweep") == 0)
            add_size(&shape.sizes, rows[i].result.req.n, &out, &left);
    free(out);
    if (!shape.sizes.count || !recorded_cols(rows, command, count, &shape))
        return rs_fail(err, RS_E_USAGE, "the recording holds no sweep");
    qsort(shape.sizes.n, (size_t)shape.sizes.count, sizeof *shape.sizes.n, cmp_u64);
    *s = shape;
    s->rows = calloc((size_t)(s->sizes.count * s->nvar) + 1, sizeof *s->rows);
    if (!s->rows) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    s->sizes_left_out = left;
    for (int i = 0; i < s->sizes.count * s->nvar; i++) {
        s->rows[i].status = RS_E_USAGE;
        snprintf(s->rows[i].error, sizeof s->rows[i].error, "%s", RS_NOT_RECORDED);
    }
    for (int i = 0; i < count; i++) {
        if (strcmp(command[i], "sweep") != 0) continue;
        const rs_request *r = &rows[i].result.req;
        int si = 0;
        while (si < s->sizes.count && s->sizes.n[si] != r->n) si++;
        const int k = col_of(s, r->variant, r->cache);
        /* sizes beyond RS_SWEEP_MAX_SIZES were not kept: their rows neither */
        if (si < s->sizes.count && k >= 0 &&
            (r->variant != RS_V_CPU || r->cache == s->cache[k] ||
             rs_row_not_recorded(rs_sweep_row(s, si, k))))
            *rs_sweep_row(s, si, k) = rows[i];
    }
    s->done = s->sizes.count * s->nvar;
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
    const int at = rs_sweep_index(s, 0, series);
    if (s->var[series] == RS_V_KERNEL && s->rows && s->done > at &&
        s->rows[at].result.req.kernel[0])
        return rs_request_name(&s->rows[at].result.req);
    return rs_variant_name(s->var[series]);
}

const char *rs_sweep_series_label(const rs_sweep *s, int series, char *buf, size_t len)
{
    const char *name = rs_sweep_series_name(s, series);
    if (s->both && series < s->nvar && s->var[series] != RS_V_CPU)
        snprintf(buf, len, "%s (%s)", name, rs_cache_name(s->cache[series]));
    else
        snprintf(buf, len, "%s", name);
    return buf;
}

int rs_sweep_variant_place(const rs_sweep *s, int series)
{
    int first = 0, place = 0;
    while (series < s->nvar && s->var[first] != s->var[series]) first++;
    for (int j = 0; j < first && series < s->nvar; j++) {
        int seen = 0;
        for (int i = 0; i < j; i++) seen |= s->var[i] == s->var[j];
        place += !seen;
    }
    return series < s->nvar ? place : -1;
}

int rs_sweep_series_order(const rs_sweep *s, int *order)
{
    int n = 0;
    for (int place = 0; place < s->nvar; place++) /* a variant's columns side by side */
        for (int k = 0; k < s->nvar; k++)
            if (rs_sweep_variant_place(s, k) == place) order[n++] = k;
    for (int k = s->nvar; k < rs_sweep_series_count(s); k++) order[n++] = k;
    return n;
}

int rs_sweep_series_in(const rs_sweep *s, int series, int state)
{
    return state < 0 || series >= s->nvar || s->var[series] == RS_V_CPU ||
           (int)s->cache[series] == state;
}

static int row_usable(const rs_sweep *s, int i, int v)
{
    if (rs_sweep_index(s, i, v) >= s->done) return 0;
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
        if (rs_sweep_index(s, i, v) >= s->done) continue;
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

/* The fastest usable series of a state (-1: any) at size i, or -1. */
static int fastest(const rs_sweep *s, int state, int i, double *t_out)
{
    int best = -1;
    double best_t = 0.0;
    for (int v = 0; v < rs_sweep_series_count(s); v++) {
        const double t =
            rs_sweep_series_in(s, v, state) ? rs_sweep_value(s, i, v, RS_CHART_TIME) : -1.0;
        if (t > 0.0 && (best < 0 || t < best_t)) best = v, best_t = t;
    }
    *t_out = best_t;
    return best;
}

int rs_sweep_leads(const rs_sweep *s, int state, rs_sweep_lead *out, int max)
{
    int segments = 0, lead = -1, start = 0, last = 0;
    for (int i = 0; i < s->sizes.count; i++) {
        double t;
        const int best = fastest(s, state, i, &t);
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

/* One state's crossovers (-1: every series), appended at text + used. */
static int crossovers_in(const rs_sweep *s, int state, char *text, size_t len, size_t used)
{
    rs_sweep_lead seg[RS_SWEEP_MAX_SIZES];
    const int segments = rs_sweep_leads(s, state, seg, RS_SWEEP_MAX_SIZES);
    int measured = 0; /* the sizes where some series has a time */
    for (int i = 0; i < s->sizes.count; i++) {
        double t;
        measured += fastest(s, state, i, &t) >= 0;
    }
    for (int k = 0; k < segments && used < len; k++) {
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

int rs_sweep_crossovers(const rs_sweep *s, char *text, size_t len)
{
    text[0] = '\0';
    if (!s->both) return crossovers_in(s, -1, text, len, 0);
    int segments = 0;
    for (int c = 0; c < RS_CACHE_COUNT; c++) {
        const size_t used = strlen(text);
        if (used + 1 >= len) break;
        snprintf(text + used, len - used, "%s%s: ", used ? ". " : "", rs_cache_name((rs_cache)c));
        const size_t head = strlen(text);
        const int n = crossovers_in(s, c, text, len, head);
        if (!n) text[used] = '\0'; /* nothing of that state ran: not said */
        segments += n;
    }
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

/* ---- ceilings, bends and bounds ------------------------------------------------------ */

void rs_sweep_ceilings_of(const rs_sweep *s, rs_sweep_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < s->done && !c->first; i++)
        if (s->rows[i].status == RS_OK && s->rows[i].result.req.variant != RS_V_CPU)
            c->first = &s->rows[i].result;
    if (!c->first) return;
    const rs_device_info *d = &c->first->device;
    const int g = c->first->multi.gpus > 1 ? c->first->multi.gpus : 1;
    const size_t size = rs_dtype_size(c->first->req.type);
    c->dram_gbps = usable(d->measured_gbps) ? g * d->measured_gbps : 0.0;
    c->l2_gbps = usable(d->l2_gbps) ? g * d->l2_gbps : 0.0;
    c->l2_bytes = d->l2_bytes;
    c->n_l2 = size ? d->l2_bytes * (uint64_t)g / size : 0; /* each GPU's share fills its L2 */
    c->floor_launch_us = usable(d->floor_launch_us) ? d->floor_launch_us : 0.0;
}

int rs_bend_index(const double *v, int count)
{
    int best = -1;
    for (int i = 0; i < count; i++)
        if (usable(v[i]) && (best < 0 || v[i] > v[best])) best = i;
    for (int i = best + 1; best >= 0 && i < count; i++)
        if (usable(v[i]) && (v[best] - v[i]) * RS_BEND_FALL > v[best]) return i;
    return -1;
}

int rs_sweep_bend(const rs_sweep *s, int series, int *best)
{
    double v[RS_SWEEP_MAX_SIZES];
    *best = -1;
    for (int i = 0; i < s->sizes.count; i++) {
        v[i] = rs_sweep_value(s, i, series, RS_CHART_GBPS);
        if (v[i] > 0 && (*best < 0 || v[i] > v[*best])) *best = i;
    }
    return rs_bend_index(v, s->sizes.count);
}

rs_bound rs_result_bound(const rs_result *r)
{
    const double floor = r->device.floor_launch_us;
    if (r->req.variant == RS_V_CPU || !usable(floor) || !usable(r->t_median_ms))
        return RS_BOUND_NONE;
    if (r->t_median_ms * 1e3 <= RS_LAUNCH_BOUND * floor) return RS_BOUND_LAUNCH;
    if (r->req.cache == RS_CACHE_WARM && rs_result_fits_l2(r)) return RS_BOUND_L2;
    return RS_BOUND_DRAM;
}

const char *rs_bound_key(rs_bound b)
{
    static const char *const key[] = {"", "launch", "l2", "dram"};
    return (unsigned)b < 4 ? key[b] : "";
}

const char *rs_bound_words(rs_bound b)
{
    static const char *const words[] = {"", "launch-bound", "L2-bound", "DRAM-bound"};
    return (unsigned)b < 4 ? words[b] : "";
}

/* The bound of column k's row at size i (NONE: none, or it did not run). */
static rs_bound bound_at(const rs_sweep *s, int i, int k)
{
    return k >= 0 && row_usable(s, i, k) ? rs_result_bound(&rs_sweep_row(s, i, k)->result)
                                         : RS_BOUND_NONE;
}

int rs_sweep_bounds(const rs_sweep *s, int k, rs_bound_range *out, int max)
{
    int n = 0;
    for (int i = 0; i < s->sizes.count; i++) {
        const rs_bound b = bound_at(s, i, k);
        if (b == RS_BOUND_NONE) continue;
        if (n && out[n - 1].bound == b)
            out[n - 1].last = i;
        else if (n < max)
            out[n++] = (rs_bound_range){b, i, i};
    }
    return n;
}

/* One stretch of the line: its bound (the warm one's where they differ),
 * its sizes by place ("to B", "A..B", "from A"), what the other state says. */
static size_t bound_part(const rs_sweep *s, const rs_bound pair[2], int first, int last, int place,
                         char *buf, size_t len)
{
    char a[32], b[32], range[80], tail[64] = "";
    rs_sweep_size_name(s, s->sizes.n[first], a, sizeof a);
    rs_sweep_size_name(s, s->sizes.n[last], b, sizeof b);
    if (first == last)
        snprintf(range, sizeof range, "at %s", a);
    else if (place == 1)
        snprintf(range, sizeof range, "to %s", b);
    else if (place == 3)
        snprintf(range, sizeof range, "from %s", a);
    else
        snprintf(range, sizeof range, "%s..%s", a, b);
    const int warm = pair[1] != RS_BOUND_NONE;
    if (s->both && pair[0] != pair[1] && pair[0] && warm)
        snprintf(tail, sizeof tail, " (warm; cold: %s)", rs_bound_words(pair[0]));
    else if (s->both && pair[0] != pair[1])
        snprintf(tail, sizeof tail, " (%s)", warm ? "warm" : "cold");
    const int w = snprintf(buf, len, "%s %s%s", rs_bound_words(pair[warm]), range, tail);
    return w < 0 ? 0 : (size_t)w;
}

void rs_sweep_bound_line(const rs_sweep *s, int col, char *buf, size_t len)
{
    int k[2] = {-1, -1}, seg_first[RS_SWEEP_MAX_SIZES], seg_last[RS_SWEEP_MAX_SIZES], n = 0;
    rs_bound seg[RS_SWEEP_MAX_SIZES][2];
    for (int c = 0; c < s->nvar; c++) /* its column in each state */
        if (s->var[c] == s->var[col]) k[s->cache[c] == RS_CACHE_WARM] = c;
    for (int i = 0; i < s->sizes.count; i++) {
        const rs_bound pair[2] = {bound_at(s, i, k[0]), bound_at(s, i, k[1])};
        if (!pair[0] && !pair[1]) continue;
        if (n && seg[n - 1][0] == pair[0] && seg[n - 1][1] == pair[1]) {
            seg_last[n - 1] = i;
            continue;
        }
        seg[n][0] = pair[0], seg[n][1] = pair[1], seg_first[n] = seg_last[n] = i, n++;
    }
    size_t used = 0;
    buf[0] = '\0';
    if (n) used = (size_t)snprintf(buf, len, "%s:", rs_sweep_series_name(s, col));
    for (int j = 0; j < n && used + 2 < len; j++) {
        used += (size_t)snprintf(buf + used, len - used, "%s", j ? ", " : " ");
        const int place = n == 1 ? 0 : j == 0 ? 1 : j == n - 1 ? 3 : 2;
        if (used < len)
            used += bound_part(s, seg[j], seg_first[j], seg_last[j], place, buf + used, len - used);
    }
}
