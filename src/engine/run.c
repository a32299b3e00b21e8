/* Running: the plan's launches issued with their buffers bound, timed with
 * cudaEvents on a cold L2, every repetition checked against the CPU
 * reference; the cpu variant timed on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/metric_table.h"
#include "core/trace.h"
#include "internal.h"
#include "profiling/pc_sampling.h"

static rs_status time_cpu_baseline(rs_engine *e, const rs_request *r)
{
    if (e->cpu_ms[r->op] > 0.0) return RS_OK;
    double best = INFINITY, total = 0.0;
    for (int k = 0; k < 3 && total < 20.0; k++) { /* the best of up to 3, within ~20 ms */
        const double t0 = rs_now_ms();
        volatile rs_value v = rs_cpu_reduce(e->h_in, r->type, r->op, r->n);
        (void)v;
        const double dt = rs_now_ms() - t0;
        total += dt;
        if (dt < best) best = dt;
    }
    e->cpu_ms[r->op] = best > 0.0 ? best : 1e-6;
    return RS_OK;
}

static void progress(const rs_hooks *h, double done)
{
    if (h && h->progress) h->progress(h->ctx, done);
}

static rs_status run_cpu_variant(rs_engine *e, const rs_request *r, const rs_hooks *h,
                                 rs_result *res, rs_error *err)
{
    rs_status st = rs_engine_input(e, r, 0, 0, err);
    if (st != RS_OK) return st;
    const unsigned total = r->warmup + r->reps;
    double *t = malloc(sizeof(double) * r->reps);
    if (!t) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_plan p;
    memset(&p, 0, sizeof p);
    p.op = r->op;
    p.n = r->n;
    p.chain = rs_cpu_reduce_chain(r->n);
    for (unsigned k = 0; k < total; k++) {
        if (rs_engine_cancelled(h ? h->cancel : NULL)) {
            free(t);
            return rs_fail(err, RS_E_CANCELLED, "cancelled");
        }
        const double t0 = rs_now_ms();
        rs_value v = rs_cpu_reduce(e->h_in, r->type, r->op, r->n);
        const double dt = rs_now_ms() - t0;
        if (k >= r->warmup) {
            t[k - r->warmup] = dt;
            rs_engine_check(res, &e->ref[r->op], &v, &p, k == r->warmup);
        }
        progress(h, (k + 1.0) / total);
    }
    qsort(t, r->reps, sizeof *t, rs_cmp_double);
    res->t_median_ms = t[r->reps / 2];
    res->t_min_ms = t[0];
    res->t_max_ms = t[r->reps - 1];
    e->cpu_ms[r->op] = res->t_min_ms;
    free(t);
    return RS_OK;
}

static rs_status run_gpu_variant(rs_engine *e, const rs_request *r, const rs_hooks *h,
                                 rs_result *res, rs_plan *p, rs_error *err)
{
    rs_status st;
    /* an input that does not fit is a skipped size (RS_E_NOMEM), whatever
     * the shape would be; then the plan, then the buffers it names */
    if ((st = rs_engine_input(e, r, 1, 0, err)) || (st = rs_engine_plan(e, r, p, err)) ||
        (st = rs_engine_work(e, r, p, err)))
        return st;
    rs_trace("engine: input, CPU reference and buffers ready");
    if (r->variant == RS_V_KERNEL && (st = rs_uk_compile_plan(e, p, res, err)) != RS_OK) return st;
    if (p->part_elems * rs_dtype_size(p->acc) > e->part_bytes && !(p->vi->flags & RS_VF_LIBRARY))
        return rs_fail(err, RS_E_USAGE, "internal: block-result buffer too small");
    rs_exec x = {e, p, h ? h->cancel : NULL, 0, {0}};
    /* the kernels run from here: a user kernel's --timeout counts from now */
    if (h && h->stage) h->stage(h->ctx, RS_STAGE_TIMING);
    const unsigned total = r->warmup + r->reps;
    double *t = malloc(sizeof(double) * r->reps);
    if (!t) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    for (unsigned k = 0; k < total && st == RS_OK; k++) {
        float ms = 0.0f;
        rs_value v;
        if (rs_engine_cancelled(x.cancel)) {
            st = rs_fail(err, RS_E_CANCELLED, "cancelled");
            break;
        }
        if ((st = rs_engine_cache_prep(e, p, e->d_in, err)) != RS_OK ||
            (st = rs_engine_poison(e, p, (k & 1) ? 0xa5 : 0xff, err)))
            break;
        cudaError_t c = cudaEventRecord(e->ev_start, e->stream);
        if (c == cudaSuccess && (st = rs_engine_exec(&x, err)) != RS_OK) break;
        if (c == cudaSuccess) c = cudaEventRecord(e->ev_stop, e->stream);
        if (c == cudaSuccess) c = cudaEventSynchronize(e->ev_stop);
        if (c == cudaSuccess) c = cudaEventElapsedTime(&ms, e->ev_start, e->ev_stop);
        if (c != cudaSuccess) {
            st = rs_cuda_fail(e, err, c, "timing the reduction");
            break;
        }
        if ((st = rs_engine_read_result(&x, &v, err)) != RS_OK) break;
        if (k >= r->warmup) {
            t[k - r->warmup] = ms;
            rs_engine_check(res, &e->ref[r->op], &v, p, k == r->warmup);
        }
        progress(h, (k + 1.0) / total);
    }
    rs_trace("engine: %u timed runs done", total);
    if (st == RS_OK) {
        qsort(t, r->reps, sizeof *t, rs_cmp_double);
        res->t_median_ms = t[r->reps / 2];
        res->t_min_ms = t[0];
        res->t_max_ms = t[r->reps - 1];
    }
    free(t);
    return st;
}

/* No range profiler stays enabled beside a timed run (with it on, a 7 µs
 * launch took 0.3-0.6 µs longer on an H100): this engine's and its split's. */
static void profiler_off(rs_engine *e)
{
    if (e->prof) rs_prof_release(e->prof);
    for (int g = 0; g < RS_GPUS_MAX; g++)
        if (e->peer[g] && e->peer[g]->prof) rs_prof_release(e->peer[g]->prof);
}

/* The cpu step's counters, stall view and energy: each says it has none. */
static rs_status host_parts(rs_engine *e, const rs_request *req, const rs_hooks *hooks,
                            rs_result *res, rs_error *err)
{
    rs_plan none;
    memset(&none, 0, sizeof none);
    rs_status st = rs_engine_counters(e, req, &none, res, hooks, err);
    if (st == RS_OK) st = rs_engine_stalls(e, req, &none, res, hooks, err);
    if (st == RS_OK) st = rs_engine_energy(e, req, &none, res, hooks, err);
    return st;
}

/* Test-only (REDSCOPE_TEST_SPLIT): a one-GPU request that a split accepts
 * goes through split.c over one GPU, so that its gate, timing, finishes,
 * counters and faults run on a machine with one GPU (tests/gpu/test_gpu_multi_one.py). */
static int split_one(const rs_engine *e, const rs_request *req)
{
    if (!e->split_one || req->gpus != 1) return 0;
    rs_request two = *req;
    two.gpus = 2;
    rs_error ignored;
    return rs_catalogue_check(&two, &ignored) == RS_OK;
}

rs_status rs_engine_run(rs_engine *e, const rs_request *req, const rs_hooks *hooks, rs_result *res,
                        rs_error *err)
{
    memset(res, 0, sizeof *res);
    res->req = *req;
    rs_status st = rs_catalogue_check(req, err);
    if (st != RS_OK) return st;
    res->finish = rs_catalogue_finish(req);
    res->reps = req->reps;
    if (req->variant == RS_V_CPU) {
        res->device = e->info;
        st = run_cpu_variant(e, req, hooks, res, err);
        if (st == RS_OK) st = host_parts(e, req, hooks, res, err);
    } else {
        if ((st = rs_engine_gpu(e, err)) != RS_OK) return st;
        if ((st = rs_engine_recover(e, err)) != RS_OK) return st;
        CUDA_TRY(e, err, cudaSetDevice(e->device), "selecting the device");
        profiler_off(e);
        int gpus = 1;
        const rs_status gst = req->gpus != 1 ? rs_split_gpus(req, &gpus, err) : RS_OK;
        const int split = gst == RS_OK && (gpus > 1 || split_one(e, req));
        if (++e->gpu_runs == e->fault_at && split && e->fault_gpu >= 0)
            e->fault_pending = 1 + e->fault_gpu; /* test-only, "N@G": in the split, on GPU G */
        else if (e->gpu_runs == e->fault_at) {   /* test-only: a kernel fault in this run */
            cudaError_t c = rs_kernel_fault(e->stream);
            if (c == cudaSuccess) c = cudaStreamSynchronize(e->stream);
            if (c != cudaSuccess) return rs_cuda_fail(e, err, c, "running the kernel");
        }
        res->device = e->info;
        if (gst != RS_OK) return gst;
        rs_engine_prof_start(e, req);
        rs_plan p;
        st = split ? rs_engine_run_split(e, req, gpus, hooks, res, err)
                   : run_gpu_variant(e, req, hooks, res, &p, err);
        if (st == RS_OK && split) st = rs_engine_energy(e, req, NULL, res, hooks, err);
        if (st == RS_OK && !split) {
            if (req->variant == RS_V_KERNEL)
                res->finish = req->finish != RS_FINISH_AUTO ? req->finish : p.vi->default_finish;
            res->grid = p.grid1;
            res->block = p.block1;
            res->ept = p.ept;
            res->launches = (unsigned)p.nsteps + (unsigned)p.init_first;
            st = rs_engine_energy(e, req, &p, res, hooks, err);
            /* PC sampling first: after a counter session it gives no PCs */
            if (st == RS_OK) st = rs_engine_stalls(e, req, &p, res, hooks, err);
            rs_metric_mask m = 0;
            rs_metric_parse_set(req->metrics, &m, NULL);
            /* the sampling session stays for the next run, unless counters
             * follow: the range profiler reads nothing while it is on */
            if (req->stalls && m) rs_pcs_end();
            if (st == RS_OK) st = rs_engine_counters(e, req, &p, res, hooks, err);
        }
    }
    if (st != RS_OK) return st;
    rs_trace("engine: counters done");
    res->expected = e->ref[req->op].exact;
    time_cpu_baseline(e, req);
    rs_trace("engine: CPU baseline timed");
    res->cpu_ms = e->cpu_ms[req->op];
    res->speedup_cpu = res->t_median_ms > 0.0 ? res->cpu_ms / res->t_median_ms : 0.0;
    res->gbps = rs_result_input_bytes(res) / (res->t_median_ms * 1e-3) / 1e9;
    const double g = res->multi.gpus > 1 ? res->multi.gpus : 1; /* of all the GPUs' peaks */
    if (e->info.peak_gbps > 0.0) res->pct_peak = 100.0 * res->gbps / (g * e->info.peak_gbps);
    if (e->info.measured_gbps > 0.0)
        res->pct_measured = 100.0 * res->gbps / (g * e->info.measured_gbps);
    res->device = e->info;
    return RS_OK;
}

rs_status rs_engine_run_counters(rs_engine *e, const rs_request *req, rs_counters_part part,
                                 const rs_hooks *hooks, rs_result *res, rs_error *err)
{
    memset(res, 0, sizeof *res);
    res->req = *req;
    rs_status st = rs_catalogue_check(req, err);
    if (st != RS_OK) return st;
    if (req->variant == RS_V_CPU || req->gpus != 1 || split_one(e, req))
        return rs_fail(err, RS_E_USAGE, "counters alone are read for one GPU's kernels");
    if ((st = rs_engine_gpu(e, err)) != RS_OK) return st;
    if ((st = rs_engine_recover(e, err)) != RS_OK) return st;
    CUDA_TRY(e, err, cudaSetDevice(e->device), "selecting the device");
    res->device = e->info;
    rs_plan p;
    if ((st = rs_engine_input(e, req, 1, 0, err)) || (st = rs_engine_plan(e, req, &p, err)) ||
        (st = rs_engine_work(e, req, &p, err)))
        return st;
    if (req->variant == RS_V_KERNEL && (st = rs_uk_compile_plan(e, &p, res, err)) != RS_OK)
        return st;
    rs_pcs_end(); /* a list's sampled rows came first: the range profiler reads nothing beside it */
    return rs_engine_counters_part(e, req, &p, part, res, hooks, err);
}
