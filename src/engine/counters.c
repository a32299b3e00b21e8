/* Counters: the profiler's collections around the plan's launches, the
 * flush launch dropped, launches named, the sets merged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/trace.h"
#include "internal.h"

/* The profiled body starts with its own L2 flush: setting up a profiling
 * session leaves dirty lines in the L2 (seen on an H200: 15-40 MB of DRAM
 * writes charged to the first kernel whenever its input outgrew the L2).
 * Warm, the input's read follows it. Those launches come first in every
 * collection and are dropped from it: the counters are the step's, in the
 * cache state its times were taken in. */
static rs_status flush_then_run(void *vctx, rs_error *err)
{
    rs_exec *x = vctx;
    const rs_status st = rs_engine_cache_prep(x->e, x->p, x->e->d_in, err);
    return st != RS_OK ? st : rs_engine_exec(vctx, err);
}

/* Launch names: the plan's when the counts agree (the library variants
 * launch kernels of their own), otherwise numbered after the variant. */
static void name_launches(rs_launches *l, const char *const *names, int nn)
{
    for (int k = 0; k < l->n; k++) {
        if (l->n == nn)
            snprintf(l->at[k].name, sizeof l->at[k].name, "%s", names[k]);
        else
            snprintf(l->at[k].name, sizeof l->at[k].name, "%s kernel %d", names[nn - 1], k + 1);
    }
}

static rs_status collect_set(rs_engine *e, const rs_plan *p, rs_metric_mask m,
                             const char *const *names, int nn, rs_metrics *out, rs_error *err)
{
    rs_exec x = {e, p, NULL, 0, {0}};
    rs_status st = rs_engine_poison(e, p, 0xff, err);
    if (st != RS_OK) return st;
    rs_trace("counters: collecting");
    static _Thread_local rs_launches l;
    st = rs_prof_collect(e->prof, m, flush_then_run, &x, out, &l, err);
    rs_trace("counters: collected (%d passes)", out->passes);
    const int prep = rs_engine_cache_launches(p, e->d_in); /* known here alone */
    if (st != RS_OK || l.n < prep) return st;
    memmove(&l.at[0], &l.at[prep], sizeof l.at[0] * (size_t)(l.n - prep));
    l.n -= prep; /* the flush, and warm the input's read: the cache's, not the step's */
    name_launches(&l, names, nn);
    rs_metrics_keep_launches(out, &l);
    return RS_OK;
}

/* The one-pass counters (DRAM, L2 sectors, shared memory, instructions)
 * are collected on their own, so asking for more metrics never changes how
 * they are read; the L2's hits come from a one-pass collection of their own
 * (beside the rest they take a second pass, and CUPTI's kernel replay of a
 * multi-pass set saves and restores memory, which leaves a warm input
 * cold); what needs more passes comes last (cache-sensitive counters there
 * read as replayed). The hit rate is derived from the first two. */
static void split_set(rs_metric_mask m, rs_metric_mask *one, rs_metric_mask *hits,
                      rs_metric_mask *more)
{
    const rs_metric_mask rate = RS_METRIC_BIT(RS_M_L2_HIT_RATE);
    const rs_metric_mask hit = RS_METRIC_BIT(RS_M_L2_READ_HIT);
    if (m & rate) m = (m & ~rate) | hit | RS_METRIC_BIT(RS_M_L2_READ);
    *one = m & rs_metric_set_default() & ~hit;
    *hits = m & hit;
    *more = m & ~rs_metric_set_default();
}

/* Set s into mt: the first collection there, the others merged into it. */
static rs_status collect_into(rs_engine *e, const rs_plan *p, rs_metric_mask s,
                              const char *const *names, int nn, rs_metrics *mt, int *first,
                              rs_error *err)
{
    if (!s) return RS_OK;
    if (*first) {
        *first = 0;
        return collect_set(e, p, s, names, nn, mt, err);
    }
    rs_metrics *extra = calloc(1, sizeof *extra);
    if (!extra) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_status st = collect_set(e, p, s, names, nn, extra, err);
    if (st == RS_OK) rs_metrics_merge(mt, extra);
    free(extra);
    return st;
}

/* Loading CUPTI and initialising the profiler take ~0.2 s: a run that will
 * read counters starts them on a thread while it makes its input and times
 * its kernels. CUPTI reads counter availability in the thread's current
 * context, the device's primary one. */
static void *prof_start(void *arg)
{
    rs_engine *e = arg;
    rs_error perr;
    if (cudaSetDevice(e->device) != cudaSuccess ||
        rs_prof_init(&e->prof_next, e->device, NULL, &perr) != RS_OK)
        e->prof_next = NULL; /* the first use starts it again, and says why not */
    return NULL;
}

void rs_engine_prof_start(rs_engine *e, const rs_request *r)
{
    rs_metric_mask m = 0;
    /* with PC sampling the profiler waits: after it, sampling gives no PCs */
    if (e->prof || e->prof_starting || r->variant == RS_V_CPU || r->stalls) return;
    rs_metric_parse_set(r->metrics, &m, NULL);
    if (m) e->prof_starting = pthread_create(&e->prof_thread, NULL, prof_start, e) == 0;
}

void rs_engine_prof_join(rs_engine *e)
{
    if (!e->prof_starting) return;
    pthread_join(e->prof_thread, NULL);
    e->prof_starting = 0;
    if (!e->prof)
        e->prof = e->prof_next;
    else if (e->prof_next)
        rs_prof_shutdown(e->prof_next);
    e->prof_next = NULL;
}

rs_status rs_engine_counters(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                             const rs_hooks *hooks, rs_error *err)
{
    return rs_engine_counters_part(e, r, p, RS_COUNTERS_ALL, res, hooks, err);
}

rs_status rs_engine_counters_part(rs_engine *e, const rs_request *r, const rs_plan *p,
                                  rs_counters_part part, rs_result *res, const rs_hooks *hooks,
                                  rs_error *err)
{
    rs_engine_prof_join(e);
    rs_metric_mask m = 0;
    rs_metrics *mt = &res->metrics;
    rs_metric_parse_set(r->metrics, &m, NULL);
    mt->requested = m;
    if (!m) return RS_OK;
    if (r->variant == RS_V_CPU) {
        snprintf(mt->reason, sizeof mt->reason, "the cpu variant runs on the host");
        return RS_OK;
    }
    if (!e->prof) {
        rs_error perr;
        if (rs_prof_init(&e->prof, e->device, NULL, &perr) != RS_OK) {
            snprintf(mt->reason, sizeof mt->reason, "%.239s", perr.msg);
            return RS_OK;
        }
    }
    const char *names[RS_MAX_LAUNCHES + 2];
    int nn = 0;
    if (p->init_first) names[nn++] = "k_init (identity)";
    for (int i = 0; i < p->nsteps; i++) names[nn++] = p->names[i];
    if (p->nsteps == 0) names[nn++] = p->names[0];
    if (hooks && hooks->stage) hooks->stage(hooks->ctx, "reading counters");
    rs_metric_mask one, l2, more;
    split_set(m, &one, &l2, &more);
    if (part == RS_COUNTERS_ONE) more = 0;
    if (part == RS_COUNTERS_MORE) one = l2 = 0;
    if (!one && !l2 && !more) return RS_OK;
    int first = 1;
    rs_status st = collect_into(e, p, one, names, nn, mt, &first, err);
    if (st == RS_OK) st = collect_into(e, p, l2, names, nn, mt, &first, err);
    if (st == RS_OK) st = collect_into(e, p, more, names, nn, mt, &first, err);
    mt->requested = m;
    if (st == RS_OK) rs_metrics_aggregate(mt); /* once, over every collection */
    return st;
}
static rs_status ensure_prof(rs_engine *e, rs_error *err)
{
    rs_engine_prof_join(e);
    if (e->prof) return RS_OK;
    return rs_prof_init(&e->prof, e->gpu_status == RS_OK ? e->device : -1, NULL, err);
}

int rs_engine_counters_available(rs_engine *e, char *why, size_t len)
{
    rs_error err;
    if (e->gpu_status != RS_OK) {
        snprintf(why, len, "no GPU: %s", e->gpu_msg);
        return 0;
    }
    if (ensure_prof(e, &err) != RS_OK) {
        snprintf(why, len, "%s", err.msg);
        return 0;
    }
    return rs_prof_available(e->prof, why, len);
}

/* As the counters are collected: the one-pass ones, the L2's hits, the rest. */
rs_status rs_engine_metric_passes(rs_engine *e, rs_metric_mask m, int *passes,
                                  rs_metric_mask *missing, rs_error *err)
{
    rs_status st = ensure_prof(e, err);
    if (st != RS_OK) return st;
    rs_metric_mask set[3];
    split_set(m, &set[0], &set[1], &set[2]);
    *passes = 0;
    if (missing) *missing = 0;
    for (int k = 0; k < 3; k++) {
        int p = 0;
        rs_metric_mask miss = 0;
        if (set[k] && (st = rs_prof_passes(e->prof, set[k], &p, &miss, err)) != RS_OK) return st;
        *passes += p;
        if (missing) *missing |= miss;
    }
    return RS_OK;
}
