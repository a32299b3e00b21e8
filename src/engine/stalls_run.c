/* The stall view of a run: CUPTI's PC samples of the plan's launches, in a
 * run of their own after the timed ones, each PC mapped to its inline chain
 * (a built-in kernel through the cubins nvcc kept, the user's through the
 * cubin NVRTC made), gathered by line, function and reason (core/stalls).
 * A sample is shown on the innermost line of its chain that lies in the
 * kernel's own sources (redscope's kernels, or the user's file): library
 * code inlined there (cooperative groups, intrinsics) goes to the line that
 * calls it, and counts under that library function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snippets.h"
#include "core/trace.h"
#include "internal.h"
#include "profiling/builtin_cubins.h"
#include "profiling/demangle.h"
#include "profiling/pc_sampling.h"

#define SINK_KERNELS 4   /* kernels whose instructions are kept; the hottest one's stay */
#define STALL_TARGET 2e5 /* samples aimed at: a share of a line to 0.2% and no drops */

typedef struct sink {
    rs_engine *e;
    rs_stalls *s;
    int sm;
    char fn[256]; /* the last PC mapped (a PC comes once per reason) */
    uint64_t pc;
    rs_src_frame frames[RS_FRAMES_MAX];
    char name[RS_STALL_NAME]; /* the function it counts under */
    rs_stall_at at;
    int unmapped;                  /* PCs without a line (the first few are traced) */
    rs_stalls *kern[SINK_KERNELS]; /* each kernel's instructions (kernel, pc[]); heap */
} sink;

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A file of the kernel's own: one of redscope's kernel sources, or the
 * user's kernel file. */
static int own_file(const void *ctx, const char *file)
{
    const char *uk = rs_uk_path(ctx);
    return rs_kernel_source(base_of(file)) || (uk && strcmp(base_of(uk), base_of(file)) == 0);
}

static void map_pc(sink *k, const char *function, uint64_t pc)
{
    if (strcmp(k->fn, function) == 0 && k->pc == pc) return;
    snprintf(k->fn, sizeof k->fn, "%s", function);
    k->pc = pc;
    rs_error err;
    int n = rs_uk_chain(k->e, function, pc, k->frames, RS_FRAMES_MAX, &err);
    if (!n) n = rs_builtin_chain(NULL, k->sm, function, pc, k->frames, RS_FRAMES_MAX, &err);
    if (!n) {
        k->at = (rs_stall_at){NULL, 0, NULL, 0};
        if (k->unmapped++ < 3) rs_trace("stalls: %s", err.msg);
        return;
    }
    const int pick = rs_frames_pick(k->frames, n, own_file, k->e);
    /* library code counts under the function the shown line calls */
    rs_function_name(k->frames[pick > 0 ? pick - 1 : 0].function, k->name, sizeof k->name);
    k->at = (rs_stall_at){k->frames[pick].file, k->frames[pick].line, k->name, pick > 0};
}

static void on_sample(void *ctx, const char *function, uint64_t pc, const char *reason,
                      uint64_t samples)
{
    sink *k = ctx;
    /* every reason's count holds its not-issued samples too: counted once */
    if (strstr(reason, "_not_issued")) return;
    map_pc(k, function, pc);
    rs_stalls_add_at(k->s, &k->at, rs_stall_kind(reason), samples);
    for (int i = 0; i < SINK_KERNELS; i++) {
        rs_stalls *q = k->kern[i];
        if (!q && !(q = k->kern[i] = calloc(1, sizeof *q))) return;
        if (q->kernel[0] && strcmp(q->kernel, function) != 0) continue;
        snprintf(q->kernel, sizeof q->kernel, "%s", function);
        q->total += samples;
        rs_stalls_add_pc(q, pc, samples);
        return;
    }
}

/* The instructions of the kernel with the most samples into the view;
 * the scratch freed. */
static void keep_hottest(sink *k)
{
    const rs_stalls *best = NULL;
    for (int i = 0; i < SINK_KERNELS; i++)
        if (k->kern[i] && (!best || k->kern[i]->total > best->total)) best = k->kern[i];
    if (best && best->kernel[0]) {
        snprintf(k->s->kernel, sizeof k->s->kernel, "%s", best->kernel);
        memcpy(k->s->pc, best->pc, sizeof best->pc);
        k->s->npcs = best->npcs;
    }
    for (int i = 0; i < SINK_KERNELS; i++) free(k->kern[i]);
    memset(k->kern, 0, sizeof k->kern);
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
    st = rs_pcs_collect(period, rs_engine_exec, &x, on_sample, k, tot, k->s->why, sizeof k->s->why,
                        err);
    keep_hottest(k);
    return st;
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
    sink k;
    memset(&k, 0, sizeof k);
    k.e = e;
    k.s = s;
    k.sm = e->info.cc_major * 10 + e->info.cc_minor;
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
    s->sm = k.sm;
    if (s->kernel[0] && !rs_uk_save_cubin(e, s->kernel, s->cubin, sizeof s->cubin))
        rs_builtin_cubin_path(NULL, k.sm, s->kernel, s->cubin, sizeof s->cubin);
    s->dropped = tot.dropped;
    s->period = period;
    if (!s->valid)
        snprintf(s->why, sizeof s->why, "no samples came back (%llu taken, %llu dropped)",
                 (unsigned long long)tot.total, (unsigned long long)tot.dropped);
    return RS_OK;
}
