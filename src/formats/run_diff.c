#include "run_diff.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"

const char *rs_diff_verdict_name(rs_diff_verdict v)
{
    return v == RS_DIFF_FASTER ? "faster" : v == RS_DIFF_SLOWER ? "slower" : "same";
}

static int timed(const rs_row *r)
{
    return r && r->status == RS_OK && r->result.t_median_ms > 0.0 &&
           isfinite(r->result.t_median_ms);
}

/* Faster or slower only where the two runs' min..max do not overlap: the
 * spread each run measured, not one assumed. */
static rs_diff_verdict verdict(const rs_result *a, const rs_result *b)
{
    if (b->t_max_ms < a->t_min_ms) return RS_DIFF_FASTER;
    if (b->t_min_ms > a->t_max_ms) return RS_DIFF_SLOWER;
    return RS_DIFF_SAME;
}

/* A counter worth telling: not one the time already says (kernel time,
 * DRAM bandwidth and its share of a peak that differs between GPUs), and
 * big enough on one side that its move is not noise (1 MB, 1000 events). */
static int telling(int i, double va, double vb)
{
    if (i == RS_M_DURATION || i == RS_M_DRAM_GBPS || i == RS_M_DRAM_PCT) return 0;
    const char *unit = rs_metric_defs[i].unit;
    const double big = va > vb ? va : vb;
    if (strcmp(unit, "bytes") == 0) return big >= 1e6;
    if (strcmp(unit, "count") == 0) return big >= 1e3;
    return 1;
}

/* The counters read on both sides that moved by 5% or more, biggest first;
 * one that went to or from zero (a bank conflict removed) first of all. */
static void top_counters(const rs_result *a, const rs_result *b, rs_diff_pair *p)
{
    double moved[RS_DIFF_TOP] = {0};
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_mask bit = RS_METRIC_BIT(i);
        if (!(a->metrics.valid & b->metrics.valid & bit)) continue;
        const double va = a->metrics.value[i], vb = b->metrics.value[i];
        if (!(va >= 0.0) || !(vb >= 0.0) || !isfinite(va) || !isfinite(vb)) continue;
        if (!(va > 0.0 || vb > 0.0) || !telling(i, va, vb)) continue;
        const double m = va > 0.0 && vb > 0.0 ? fabs(log(vb / va)) : 1e9 + (va > vb ? va : vb);
        if (m < log(1.05)) continue;
        for (int k = 0; k < RS_DIFF_TOP; k++) {
            if (k < p->ntop && m <= moved[k]) continue;
            for (int j = RS_DIFF_TOP - 1; j > k; j--) { /* make room at k */
                moved[j] = moved[j - 1];
                p->top[j] = p->top[j - 1];
                p->top_ratio[j] = p->top_ratio[j - 1];
                p->top_a[j] = p->top_a[j - 1];
                p->top_b[j] = p->top_b[j - 1];
            }
            moved[k] = m;
            p->top[k] = (rs_metric_id)i;
            p->top_ratio[k] = va > 0.0 ? vb / va : INFINITY;
            p->top_a[k] = va;
            p->top_b[k] = vb;
            if (p->ntop < RS_DIFF_TOP) p->ntop++;
            break;
        }
    }
}

static void top_stall(const rs_result *a, const rs_result *b, rs_diff_pair *p)
{
    if (!rs_result_stalls(a)->valid || !rs_result_stalls(b)->valid) return;
    rs_stall_delta *d = malloc(sizeof *d * RS_STALL_DELTAS);
    if (!d) return;
    if (rs_stalls_diff(a->stalls, b->stalls, d, RS_STALL_DELTAS) > 0) {
        p->stall = d[0];
        p->has_stall = 1;
    }
    free(d);
}

void rs_diff_recordings_pair(const rs_row *a, const rs_row *b, rs_diff_pair *p)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    if (!timed(a) || !timed(b)) return;
    p->speedup = a->result.t_median_ms / b->result.t_median_ms;
    p->change_pct = 100.0 * (b->result.t_median_ms / a->result.t_median_ms - 1.0);
    p->verdict = verdict(&a->result, &b->result);
    top_counters(&a->result, &b->result, p);
    top_stall(&a->result, &b->result, p);
}

/* A side's second row of a configuration already paired (a recording that
 * holds it twice: in a ladder and in a sweep) is not a row of that side
 * only: the configuration is in both. */
static int paired(const rs_diff_pair *out, int n, int side_a, const rs_request *r)
{
    for (int k = 0; k < n; k++) {
        const rs_row *x = side_a ? out[k].a : out[k].b;
        if (out[k].a && out[k].b && rs_request_same_run(&x->result.req, r)) return 1;
    }
    return 0;
}

/* The one configuration a side's unpaired rows share (its first row), or
 * NULL where they are of several or none. */
static const rs_row *one_config(const rs_recording *r, const char *left)
{
    const rs_row *first = NULL;
    for (int i = 0; i < r->count; i++) {
        if (!left[i]) continue;
        if (!first)
            first = &r->rows[i];
        else if (rs_request_config_diff(&first->result.req, &r->rows[i].result.req))
            return NULL;
    }
    return first;
}

/* b's request with a's settings in the fields of differ. */
static rs_request with_settings(const rs_request *b, const rs_request *a, uint64_t differ)
{
    rs_request r = *b;
    rs_error err;
    for (int f = 0; f < RS_FIELD_COUNT; f++)
        if (differ & (UINT64_C(1) << f)) {
            char v[512];
            rs_field_format(a, &rs_fields[f], v, sizeof v);
            rs_field_set(&r, &rs_fields[f], v, &err);
        }
    return r;
}

/* One configuration against one that differs in some settings alone (a
 * ladder at block 256 against one at 64): each step paired with its own,
 * those settings said in across; 0 where the rows left are not so. */
static int pair_across(const rs_recording *a, const rs_recording *b, int *match, char *used,
                       char *across, size_t len)
{
    char *left_a = calloc((size_t)a->count + 1, 1), *left_b = calloc((size_t)b->count + 1, 1);
    int paired = 0, na = 0, nb = 0;
    for (int i = 0; left_a && i < a->count; i++) na += left_a[i] = match[i] < 0;
    for (int j = 0; left_b && j < b->count; j++) nb += left_b[j] = !used[j];
    if (na > 1024 || nb > 1024) { /* a ladder's steps, not a file's thousands: bounded */
        free(left_a);
        free(left_b);
        return 0;
    }
    const rs_row *ra = left_a ? one_config(a, left_a) : NULL;
    const rs_row *rb = left_b ? one_config(b, left_b) : NULL;
    const uint64_t d = ra && rb ? rs_request_config_diff(&ra->result.req, &rb->result.req) : 0;
    for (int i = 0; d && i < a->count; i++)
        for (int j = 0; match[i] < 0 && j < b->count; j++) {
            if (used[j]) continue;
            const rs_request moved =
                with_settings(&b->rows[j].result.req, &a->rows[i].result.req, d);
            if (strcmp(a->command[i], b->command[j]) == 0 &&
                rs_request_same_run(&a->rows[i].result.req, &moved))
                used[j] = 1, match[i] = j, paired++;
        }
    size_t at = 0;
    for (int f = 0; paired && f < RS_FIELD_COUNT && at < len; f++)
        if (d & (UINT64_C(1) << f)) {
            char x[128], y[128];
            rs_field_format(&ra->result.req, &rs_fields[f], x, sizeof x);
            rs_field_format(&rb->result.req, &rs_fields[f], y, sizeof y);
            at += (size_t)snprintf(across + at, len - at, "%s%s %s in A, %s in B", at ? "; " : "",
                                   rs_fields[f].key, x, y);
        }
    free(left_a);
    free(left_b);
    return paired;
}

int rs_diff_recordings(const rs_recording *a, const rs_recording *b, rs_diff_pair *out, int max)
{
    return rs_diff_recordings_across(a, b, out, max, NULL, 0);
}

/* B's rows by what every run of one configuration shares (variant, type,
 * operation, n, seed: rs_request_same_run compares each), each bucket in
 * B's order: a row is looked for among its own, not all of B (100,000
 * rows a side were 10^10 comparisons). */
typedef struct b_index {
    int *head, *next;
    size_t mask;
} b_index;

static size_t run_key(const rs_request *q, size_t mask)
{
    uint64_t h = 1469598103934665603ull;
    const uint64_t part[] = {(uint64_t)q->variant, (uint64_t)q->type, (uint64_t)q->op, q->n,
                             q->seed};
    for (size_t i = 0; i < sizeof part / sizeof *part; i++) h = (h ^ part[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29)) & mask;
}

static int index_b(const rs_recording *b, b_index *ix)
{
    size_t size = 16;
    while (size < 2 * (size_t)b->count) size *= 2;
    ix->mask = size - 1;
    ix->head = malloc(sizeof *ix->head * size);
    ix->next = malloc(sizeof *ix->next * ((size_t)b->count + 1));
    int *tail = malloc(sizeof *tail * size);
    if (!ix->head || !ix->next || !tail) {
        free(tail);
        return -1;
    }
    for (size_t k = 0; k < size; k++) ix->head[k] = tail[k] = -1;
    for (int j = 0; j < b->count; j++) {
        const size_t k = run_key(&b->rows[j].result.req, ix->mask);
        ix->next[j] = -1;
        if (tail[k] < 0)
            ix->head[k] = j;
        else
            ix->next[tail[k]] = j;
        tail[k] = j;
    }
    free(tail);
    return 0;
}

int rs_diff_recordings_across(const rs_recording *a, const rs_recording *b, rs_diff_pair *out,
                              int max, char *across, size_t len)
{
    if (across && len) across[0] = '\0';
    char *used = calloc((size_t)b->count + 1, 1);
    int *match = calloc((size_t)a->count + 1, sizeof *match);
    b_index ix = {NULL, NULL, 0};
    if (!used || !match || index_b(b, &ix) != 0) {
        free(used);
        free(match);
        free(ix.head);
        free(ix.next);
        return 0;
    }
    /* rows of the same command first, over both recordings (a ladder's step
     * with B's ladder's, not its sweep's), then any */
    for (int i = 0; i < a->count; i++) match[i] = -1;
    for (int same = 1; same >= 0; same--)
        for (int i = 0; i < a->count; i++)
            for (int j = ix.head[run_key(&a->rows[i].result.req, ix.mask)]; j >= 0 && match[i] < 0;
                 j = ix.next[j])
                if (!used[j] && (!same || strcmp(a->command[i], b->command[j]) == 0) &&
                    rs_request_same_run(&a->rows[i].result.req, &b->rows[j].result.req))
                    used[j] = 1, match[i] = j;
    free(ix.head);
    free(ix.next);
    if (across && len) pair_across(a, b, match, used, across, len);
    int n = 0;
    for (int i = 0; i < a->count && n < max; i++)
        if (match[i] >= 0) rs_diff_recordings_pair(&a->rows[i], &b->rows[match[i]], &out[n++]);
    for (int i = 0; i < a->count && n < max; i++) /* in a's order after the pairs */
        if (match[i] < 0 && !paired(out, n, 1, &a->rows[i].result.req))
            rs_diff_recordings_pair(&a->rows[i], NULL, &out[n++]);
    for (int j = 0; j < b->count && n < max; j++)
        if (!used[j] && !paired(out, n, 0, &b->rows[j].result.req))
            rs_diff_recordings_pair(NULL, &b->rows[j], &out[n++]);
    free(used);
    free(match);
    return n;
}

int rs_diff_wrong(const rs_row *r)
{
    return r && r->status == RS_OK && !r->result.correct;
}

int rs_diff_fails(const rs_diff_pair *p, double pct)
{
    return p->a && p->b && p->verdict == RS_DIFF_SLOWER && p->change_pct > pct;
}
