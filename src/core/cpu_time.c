#include "cpu_time.h"

#include <stdlib.h>
#include <string.h>

static int same_input(const rs_request *a, const rs_request *b)
{
    return a->type == b->type && a->op == b->op && a->n == b->n && a->dist == b->dist &&
           a->seed == b->seed;
}

static int has_cpu(const rs_row *row)
{
    return row && row->status == RS_OK && row->result.cpu_ms > 0.0;
}

rs_cpu_from rs_cpu_from_of(const rs_result *r)
{
    if (r->cpu_from != RS_CPU_UNSHARED) return r->cpu_from;
    return r->req.variant == RS_V_CPU ? RS_CPU_STEP : RS_CPU_BESIDE;
}

const char *rs_cpu_from_name(rs_cpu_from f)
{
    return f == RS_CPU_BESIDE ? "beside" : f == RS_CPU_STEP ? "cpu_step" : NULL;
}

int rs_cpu_from_parse(const char *name)
{
    if (!name) return -1;
    if (strcmp(name, "beside") == 0) return RS_CPU_BESIDE;
    if (strcmp(name, "cpu_step") == 0) return RS_CPU_STEP;
    return -1;
}

const char *rs_cpu_from_words(rs_cpu_from f)
{
    return f == RS_CPU_STEP ? "the cpu step's median"
                            : "the best of the host runs timed beside the GPU runs, up to 3 each";
}

/* Rows ordered by their input (type, operation, n, distribution, seed),
 * then by place: each input's rows side by side, in the order they came. */
static _Thread_local rs_row *const *sort_rows;

static int by_input(const void *x, const void *y)
{
    const int i = *(const int *)x, j = *(const int *)y;
    const rs_request *a = &sort_rows[i]->result.req, *b = &sort_rows[j]->result.req;
#define RS_CMP(f)                                                                                  \
    if (a->f != b->f) return a->f < b->f ? -1 : 1;
    RS_CMP(type)
    RS_CMP(op)
    RS_CMP(n)
    RS_CMP(dist)
    RS_CMP(seed)
#undef RS_CMP
    return i < j ? -1 : i > j;
}

/* The CPU time of the input of rows at[0..k) (one input's rows that have
 * one, in order): the cpu step's median where a row of it measured one
 * (the last such), else the least time measured beside. */
static double cpu_time_of(rs_row *const *rows, const int *at, int k, rs_cpu_from *from)
{
    double best = 0.0, step = 0.0;
    for (int q = 0; q < k; q++) {
        const rs_result *r = &rows[at[q]]->result;
        if (r->req.variant == RS_V_CPU && r->cpu_from != RS_CPU_BESIDE && r->t_median_ms > 0.0)
            step = r->t_median_ms;
        if (best == 0.0 || r->cpu_ms < best) best = r->cpu_ms;
    }
    *from = step > 0.0 ? RS_CPU_STEP : RS_CPU_BESIDE;
    return step > 0.0 ? step : best;
}

/* Every row with a CPU time takes its input's: one sort, then each input's
 * rows once (n log n; a recording of 100,000 rows was quadratic). */
void rs_cpu_share(rs_row *const *rows, int n)
{
    int *at = n > 0 ? malloc(sizeof *at * (size_t)n) : NULL;
    int k = 0;
    for (int i = 0; at && i < n; i++)
        if (has_cpu(rows[i])) at[k++] = i;
    sort_rows = rows; /* qsort has no context argument in C11 */
    if (k > 1) qsort(at, (size_t)k, sizeof *at, by_input);
    for (int g = 0, e; g < k; g = e) {
        const rs_request *in = &rows[at[g]]->result.req;
        for (e = g + 1; e < k && same_input(&rows[at[e]]->result.req, in);) e++;
        rs_cpu_from from;
        const double ms = cpu_time_of(rows, at + g, e - g, &from);
        for (int q = g; q < e && ms > 0.0; q++) {
            rs_result *r = &rows[at[q]]->result;
            r->cpu_ms = ms;
            r->cpu_from = from;
            r->speedup_cpu = r->t_median_ms > 0.0 ? ms / r->t_median_ms : 0.0;
        }
    }
    free(at);
}

void rs_cpu_share_rows(rs_row *rows, int n)
{
    rs_row **p = n > 0 ? malloc(sizeof *p * (size_t)n) : NULL;
    for (int i = 0; p && i < n; i++) p[i] = &rows[i];
    if (p) rs_cpu_share(p, n);
    free(p);
}

int rs_cpu_from_rows(const rs_row *rows, int n, const rs_request *r, rs_result *out)
{
    const rs_row *best = NULL;
    for (int i = 0; i < n; i++)
        if (has_cpu(&rows[i]) && rows[i].result.req.variant != RS_V_CPU &&
            same_input(&rows[i].result.req, r) &&
            (!best || rows[i].result.cpu_ms < best->result.cpu_ms))
            best = &rows[i];
    if (!best) return 0;
    const double ms = best->result.cpu_ms;
    memset(out, 0, sizeof *out);
    out->req = *r;
    out->device = best->result.device;
    out->finish = RS_FINISH_AUTO;
    out->reps = 1;
    out->t_median_ms = out->t_min_ms = out->t_max_ms = ms;
    out->gbps = rs_result_input_bytes(out) / (ms * 1e-3) / 1e9;
    if (out->device.peak_gbps > 0.0) out->pct_peak = 100.0 * out->gbps / out->device.peak_gbps;
    if (out->device.measured_gbps > 0.0)
        out->pct_measured = 100.0 * out->gbps / out->device.measured_gbps;
    out->cpu_ms = ms;
    out->speedup_cpu = 1.0;
    out->cpu_from = RS_CPU_BESIDE;
    out->correct = 1;
    out->got = out->expected = best->result.expected;
    return 1;
}
