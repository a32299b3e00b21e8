/* The stall view of a run: CUPTI's PC samples of the plan's launches, in a
 * run of their own after the timed ones, each PC mapped to its inline chain
 * (a built-in kernel through the cubins nvcc kept, the user's through the
 * cubin NVRTC made), gathered by line, function and reason (core/stalls).
 * A sample is shown on the step's own line (core/stall_owner.c: the
 * innermost frame in the step's key lines or the user's file, else the
 * kernel's line); the code inlined inside it is a link of that line, and
 * so is the instruction a waiting sample stands on (stalls_cause.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stall_owner.h"
#include "core/trace.h"
#include "internal.h"
#include "nvtools/builtin_cubins.h"
#include "nvtools/demangle.h"
#include "profiling/pc_sampling.h"
#include "nvtools/sass_view.h"
#include "stalls_cause.h"

#define SINK_KERNELS 4   /* kernels whose instructions are kept; the hottest one's stay */
#define STALL_TARGET 2e5 /* samples at most a run: a line's share to 0.2%, no drops */
#define STALL_LEAST  5e4 /* samples at least, over runs of a short kernel */
#define FLUSH_KERNEL "k_stream_read" /* the L2 flush's kernel (kernels/bandwidth.cu) */
#define INSIDE_KEPT  24 /* links to the code inside lines, at most (of RS_STALL_LINKS) */

typedef struct sink {
    rs_engine *e;
    rs_stalls *s;
    int sm;
    rs_stall_owner owner;
    char fn[256]; /* the last PC mapped (a PC comes once per reason) */
    uint64_t pc;
    rs_src_frame frames[RS_FRAMES_MAX];
    char name[RS_STALL_NAME]; /* the function it counts under */
    rs_stall_at at;
    rs_stall_link inside;   /* the code inside the shown line (samples 0: none) */
    rs_stall_link *insides; /* every one seen, merged (heap); the biggest go to the view */
    int ninsides, cap;
    int unmapped;                  /* PCs without a line (the first few are traced) */
    rs_stalls *kern[SINK_KERNELS]; /* each kernel's instructions (kernel, pc[]); heap */
    rs_waits waits;                /* each kernel's waiting PCs, for their causes */
} sink;

/* "vec_reduce (modern.cu:81) > SumOp::operator() (common.cuh:65)": the
 * calls inside the shown line, outermost first (what the line calls leads). */
static void chain_words(const rs_src_frame *f, int shown, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = shown - 1; i >= 0; i--) {
        char fn[RS_STALL_NAME];
        rs_function_name(f[i].function, fn, sizeof fn);
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s (%s:%u)", i == shown - 1 ? "" : " > ", fn,
                 rs_stall_base(f[i].file), f[i].line);
    }
}

static void map_pc(sink *k, const char *function, uint64_t pc)
{
    if (strcmp(k->fn, function) == 0 && k->pc == pc) return;
    snprintf(k->fn, sizeof k->fn, "%s", function);
    k->pc = pc;
    rs_error err;
    int n = rs_uk_chain(k->e, function, pc, k->frames, RS_FRAMES_MAX, &err);
    if (!n) n = rs_builtin_chain(NULL, k->sm, function, pc, k->frames, RS_FRAMES_MAX, &err);
    memset(&k->inside, 0, sizeof k->inside);
    if (!n) {
        k->at = (rs_stall_at){NULL, 0, NULL, 0};
        if (k->unmapped++ < 3) rs_trace("stalls: %s", err.msg);
        return;
    }
    const int shown = rs_stall_shown(k->frames, n, &k->owner);
    /* library code and helpers count under the function the shown line calls */
    rs_function_name(k->frames[shown > 0 ? shown - 1 : 0].function, k->name, sizeof k->name);
    k->at = (rs_stall_at){k->frames[shown].file, k->frames[shown].line, k->name, shown > 0};
    if (!shown) return;
    rs_stall_link *l = &k->inside;
    snprintf(l->file, sizeof l->file, "%s", rs_stall_base(k->frames[shown].file));
    l->line = k->frames[shown].line;
    l->what = RS_LINK_INSIDE;
    snprintf(l->to_file, sizeof l->to_file, "%s", rs_stall_base(k->frames[0].file));
    l->to_line = k->frames[0].line;
    chain_words(k->frames, shown, l->name, sizeof l->name);
}

static void add_inside(sink *k, const rs_stall_link *l)
{
    for (int i = 0; i < k->ninsides; i++)
        if (k->insides[i].line == l->line && k->insides[i].to_line == l->to_line &&
            strcmp(k->insides[i].file, l->file) == 0 &&
            strcmp(k->insides[i].to_file, l->to_file) == 0 &&
            strcmp(k->insides[i].name, l->name) == 0) {
            k->insides[i].samples += l->samples;
            return;
        }
    if (k->ninsides == k->cap) {
        const int cap = k->cap ? 2 * k->cap : 64;
        rs_stall_link *more = realloc(k->insides, sizeof *more * (size_t)cap);
        if (!more) {
            k->s->other_links += l->samples;
            return;
        }
        k->insides = more;
        k->cap = cap;
    }
    k->insides[k->ninsides++] = *l;
}

static int more_samples(const void *a, const void *b)
{
    const uint64_t x = ((const rs_stall_link *)a)->samples, y = ((const rs_stall_link *)b)->samples;
    return (x < y) - (x > y);
}

/* The code inside each line into the view: its biggest two, at most
 * INSIDE_KEPT in all (the rest is counted as other links): the waits'
 * causes need the rest of the table. */
static void keep_insides(sink *k)
{
    if (k->ninsides > 1) /* none: no table at all (qsort takes no NULL, even of 0) */
        qsort(k->insides, (size_t)k->ninsides, sizeof *k->insides, more_samples);
    int kept = 0;
    for (int i = 0; i < k->ninsides; i++) {
        int per_line = 0;
        for (int j = 0; j < i; j++)
            per_line += k->insides[j].line == k->insides[i].line &&
                        strcmp(k->insides[j].file, k->insides[i].file) == 0;
        if (kept < INSIDE_KEPT && per_line < 2) {
            rs_stalls_link(k->s, &k->insides[i]);
            kept++;
        } else {
            k->s->other_links += k->insides[i].samples;
        }
    }
    free(k->insides);
    k->insides = NULL;
    k->ninsides = k->cap = 0;
}

static void on_sample(void *ctx, const char *function, uint64_t pc, const char *reason,
                      uint64_t samples)
{
    sink *k = ctx;
    /* every reason's count holds its not-issued samples too: counted once;
     * the cache flush before the plan is not the step's */
    if (strstr(reason, "_not_issued") || strstr(function, FLUSH_KERNEL)) return;
    map_pc(k, function, pc);
    const int kind = rs_stall_kind(reason);
    rs_stalls_add_at(k->s, &k->at, kind, samples);
    if (k->inside.what) {
        k->inside.samples = samples;
        add_inside(k, &k->inside);
    }
    if (k->at.file && rs_stall_wait_class(kind))
        rs_waits_add(&k->waits, function, pc, kind, k->at.file, k->at.line, samples);
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

/* Once a process: the built-in cubins' SASS made ready in the background
 * (a ladder's later steps then find their causes at once). */
static void prefetch_sass(int sm)
{
    static int done;
    if (done) return;
    done = 1;
    char path[4096 + 256];
    for (int i = 0; rs_builtin_cubin_nth(NULL, sm, i, path, sizeof path); i++)
        rs_sass_prefetch(path);
}

/* The sampled body: the plan's launches `runs` times, each run after its
 * own L2 flush, as the counters' body (counters.c): the plan's first
 * kernel then finds the cache as Nsight Compute's kernel replay leaves it;
 * the flushes' own samples are left out (on_sample). Runs, not a faster
 * period, give a short kernel its samples (RS_PCS_PERIOD_MIN). */
typedef struct sampled {
    rs_exec x;
    int runs;
} sampled;

static rs_status flush_then_run(void *vctx, rs_error *err)
{
    sampled *b = vctx;
    for (int i = 0; i < b->runs; i++) {
        rs_status st = rs_engine_cache_prep(b->x.e, b->x.p, b->x.e->d_in, err);
        if (st == RS_OK) st = rs_engine_exec(&b->x, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

/* One collection of the plan's launches, `runs` times. */
static rs_status sample_once(rs_engine *e, const rs_plan *p, int period, int runs, sink *k,
                             rs_pcs_totals *tot, rs_error *err)
{
    memset(k->s, 0, sizeof *k->s);
    k->s->requested = 1;
    k->fn[0] = '\0';
    rs_waits_clear(&k->waits);
    free(k->insides);
    k->insides = NULL;
    k->ninsides = k->cap = 0;
    sampled b = {{e, p, NULL, 0, {0}}, runs};
    const rs_status st = rs_pcs_collect(period, flush_then_run, &b, on_sample, k, tot, k->s->why,
                                        sizeof k->s->why, err);
    keep_hottest(k);
    return st;
}

/* The view r asks for, gathered into s (zeroed here). */
static rs_status gather(rs_engine *e, const rs_request *r, const rs_plan *p, const rs_result *res,
                        const rs_hooks *hooks, rs_stalls *s, rs_error *err)
{
    memset(s, 0, sizeof *s);
    s->requested = 1;
    if (rs_variant_has(r->variant, RS_VF_NOT_SAMPLED)) {
        if (rs_variant_has(r->variant, RS_VF_HOST))
            snprintf(s->why, sizeof s->why, "the %s variant runs on the host",
                     rs_variant_name(r->variant));
        else
            snprintf(s->why, sizeof s->why, "%s's kernels are not sampled",
                     rs_variant_name(r->variant));
        return RS_OK;
    }
    if (hooks && hooks->stage) hooks->stage(hooks->ctx, "sampling where warps wait");
    if (e->prof) rs_prof_release(e->prof); /* sampling finds no PCs while it is on */
    prefetch_sass(e->info.cc_major * 10 + e->info.cc_minor);
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, e->device);
    int period = rs_pcs_period(res->t_median_ms, e->info.sm_count, khz, STALL_TARGET);
    sink k;
    memset(&k, 0, sizeof k);
    k.e = e;
    k.s = s;
    k.sm = e->info.cc_major * 10 + e->info.cc_minor;
    k.owner = (rs_stall_owner){r->variant, rs_uk_path(e)};
    rs_pcs_totals tot;
    int runs = 1;
    for (int attempt = 0; attempt < 4; attempt++) {
        runs = rs_pcs_runs(res->t_median_ms, e->info.sm_count, khz, period, STALL_LEAST);
        const rs_status st = sample_once(e, p, period, runs, &k, &tot, err);
        if (st != RS_OK || s->why[0]) { /* a failure, or why none were taken */
            rs_waits_clear(&k.waits);
            free(k.insides);
            return st;
        }
        rs_trace("stalls: period %d, %d runs, %llu of %llu samples dropped", period, runs,
                 (unsigned long long)tot.dropped, (unsigned long long)tot.total);
        /* a few percent dropped is kept: a slower period would give a
         * quarter of the samples */
        if (tot.dropped * 100 <= 3 * tot.total || period >= 29 || attempt == 3) break;
        period += 2; /* a quarter of the samples: the buffer keeps up (the view says the
                      * period sampled: raised only when another collection follows) */
    }
    s->valid = s->total > 0;
    s->sm = k.sm;
    rs_trace("stalls: gathered");
    keep_insides(&k);
    if (s->valid) rs_engine_causes(e, k.sm, &k.owner, &k.waits, s);
    rs_waits_clear(&k.waits);
    rs_engine_stall_texts(e, s);
    if (s->kernel[0] && !rs_uk_save_cubin(e, s->kernel, s->cubin, sizeof s->cubin))
        rs_builtin_cubin_path(NULL, k.sm, s->kernel, s->cubin, sizeof s->cubin);
    s->dropped = tot.dropped;
    s->period = period;
    s->runs = runs;
    if (!s->valid)
        snprintf(s->why, sizeof s->why, "no samples came back (%llu taken, %llu dropped)",
                 (unsigned long long)tot.total, (unsigned long long)tot.dropped);
    return RS_OK;
}

rs_status rs_engine_stalls(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                           const rs_hooks *hooks, rs_error *err)
{
    res->stalls = NULL;
    if (!r->stalls) return RS_OK;
    rs_stalls *s = malloc(sizeof *s); /* gathered here, then kept out of line */
    if (!s) return rs_fail(err, RS_E_NOMEM, "out of host memory for the stall view");
    rs_status st = gather(e, r, p, res, hooks, s, err);
    res->stalls = rs_stalls_keep(s); /* a failed one too: its `why` */
    free(s);
    if (st == RS_OK && !res->stalls)
        st = rs_fail(err, RS_E_NOMEM, "out of host memory for the stall view");
    return st;
}
