/* The stall view of a run: CUPTI's PC samples of the plan's launches, in a
 * run of their own after the timed ones, each PC mapped to its source line
 * (a built-in kernel through the cubins nvcc kept, the user's through the
 * cubin NVRTC made), gathered by line and reason (core/stalls). */
#include <stdio.h>
#include <string.h>

#include "core/trace.h"
#include "internal.h"
#include "profiling/builtin_cubins.h"
#include "profiling/pc_sampling.h"

#define STALL_TARGET 2e5 /* samples aimed at: a share of a line to 0.2% and no drops */

typedef struct sink {
    rs_engine *e;
    rs_stalls *s;
    int sm;
    char fn[256]; /* the last PC mapped (a PC comes once per reason) */
    uint64_t pc;
    char file[512];
    unsigned line;
    int unmapped; /* PCs without a line (the first few are traced) */
} sink;

static void map_pc(sink *k, const char *function, uint64_t pc)
{
    if (strcmp(k->fn, function) == 0 && k->pc == pc) return;
    snprintf(k->fn, sizeof k->fn, "%s", function);
    k->pc = pc;
    rs_error err;
    if (rs_uk_line(k->e, function, pc, k->file, sizeof k->file, &k->line, &err) != RS_OK &&
        rs_builtin_line(NULL, k->sm, function, pc, k->file, sizeof k->file, &k->line, &err) !=
            RS_OK) {
        k->line = 0;
        if (k->unmapped++ < 3) rs_trace("stalls: %s", err.msg);
    }
}

static void on_sample(void *ctx, const char *function, uint64_t pc, const char *reason,
                      uint64_t samples)
{
    sink *k = ctx;
    /* every reason's count holds its not-issued samples too: counted once */
    if (strstr(reason, "_not_issued")) return;
    map_pc(k, function, pc);
    rs_stalls_add(k->s, k->line ? k->file : NULL, k->line, rs_stall_kind(reason), samples);
}

/* The L2 flushed first (outside the samples), then the plan's launches. */
static rs_status sample_once(rs_engine *e, const rs_plan *p, int period, sink *k,
                             rs_pcs_totals *tot, rs_error *err)
{
    rs_status st = rs_engine_flush_l2(e, err);
    if (st != RS_OK) return st;
    CUDA_TRY(e, err, cudaStreamSynchronize(e->stream), "flushing the L2");
    memset(k->s, 0, sizeof *k->s);
    k->s->requested = 1;
    k->fn[0] = '\0';
    rs_exec x = {e, p, NULL, 0, {0}};
    return rs_pcs_collect(period, rs_engine_exec, &x, on_sample, k, tot, k->s->why,
                          sizeof k->s->why, err);
}

rs_status rs_engine_stalls(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                           const rs_hooks *hooks, rs_error *err)
{
    rs_stalls *s = &res->stalls;
    memset(s, 0, sizeof *s);
    if (!r->stalls) return RS_OK;
    s->requested = 1;
    if (r->variant == RS_V_CPU || r->variant == RS_V_THRUST) {
        snprintf(s->why, sizeof s->why, "%s",
                 r->variant == RS_V_CPU ? "the cpu variant runs on the host"
                                        : "thrust's kernels are not sampled");
        return RS_OK;
    }
    if (hooks && hooks->stage) hooks->stage(hooks->ctx, "sampling where warps wait");
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, e->device);
    int period = rs_pcs_period(res->t_median_ms, e->info.sm_count, khz, STALL_TARGET);
    sink k = {e, s, e->info.cc_major * 10 + e->info.cc_minor, "", 0, "", 0, 0};
    rs_pcs_totals tot;
    for (int attempt = 0; attempt < 4; attempt++) {
        const rs_status st = sample_once(e, p, period, &k, &tot, err);
        if (st != RS_OK || s->why[0]) return st; /* a failure, or why none were taken */
        rs_trace("stalls: period %d, %llu of %llu samples dropped", period,
                 (unsigned long long)tot.dropped, (unsigned long long)tot.total);
        if (tot.dropped * 100 <= tot.total || period >= 29) break;
        period += 2; /* a quarter of the samples: the buffer keeps up */
    }
    s->valid = s->total > 0;
    s->dropped = tot.dropped;
    s->period = period;
    if (!s->valid)
        snprintf(s->why, sizeof s->why, "no samples came back (%llu taken, %llu dropped)",
                 (unsigned long long)tot.total, (unsigned long long)tot.dropped);
    return RS_OK;
}
