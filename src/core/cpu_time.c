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

/* The CPU time of row's input over rows[0..n): the cpu step's median where
 * a row of it measured one (the last such), else the least time measured
 * beside. 0 where no row has one. */
static double cpu_time_of(rs_row *const *rows, int n, const rs_request *in, rs_cpu_from *from)
{
    double best = 0.0, step = 0.0;
    for (int i = 0; i < n; i++) {
        if (!has_cpu(rows[i]) || !same_input(&rows[i]->result.req, in)) continue;
        const rs_result *r = &rows[i]->result;
        if (r->req.variant == RS_V_CPU && r->cpu_from != RS_CPU_BESIDE && r->t_median_ms > 0.0)
            step = r->t_median_ms;
        if (best == 0.0 || r->cpu_ms < best) best = r->cpu_ms;
    }
    *from = step > 0.0 ? RS_CPU_STEP : RS_CPU_BESIDE;
    return step > 0.0 ? step : best;
}

void rs_cpu_share(rs_row *const *rows, int n)
{
    double *ms = n > 0 ? calloc((size_t)n, sizeof *ms) : NULL;
    rs_cpu_from *from = n > 0 ? calloc((size_t)n, sizeof *from) : NULL;
    for (int i = 0; ms && from && i < n; i++) /* every figure from the rows as they came */
        if (has_cpu(rows[i])) ms[i] = cpu_time_of(rows, n, &rows[i]->result.req, &from[i]);
    for (int i = 0; ms && from && i < n; i++) {
        if (ms[i] <= 0.0) continue;
        rs_result *r = &rows[i]->result;
        r->cpu_ms = ms[i];
        r->cpu_from = from[i];
        r->speedup_cpu = r->t_median_ms > 0.0 ? ms[i] / r->t_median_ms : 0.0;
    }
    free(ms);
    free(from);
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
