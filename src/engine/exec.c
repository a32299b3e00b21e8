/* One issue of the plan: its launches with their buffers bound, the L2
 * evicted and the buffers poisoned before it, its result read back and
 * checked against the CPU reference (run.c times it, counters.c,
 * energy.c, stalls_run.c and split.c run it too). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

double rs_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int rs_engine_cancelled(const volatile int *c)
{
    return c && *c;
}

static void *buffer(const rs_engine *e, rs_buf b)
{
    switch (b) {
    case RS_BUF_INPUT: return e->d_in;
    case RS_BUF_OUT: return e->d_out;
    case RS_BUF_PART0: return e->d_part[0];
    case RS_BUF_PART1: return e->d_part[1];
    default: return NULL;
    }
}

/* A planned launch with this engine's buffers and stream. */
static rs_launch bind(const rs_engine *e, const rs_plan_step *s)
{
    rs_launch l = s->l;
    l.in = buffer(e, s->in);
    l.out = buffer(e, s->out);
    l.partials = buffer(e, s->partials);
    l.counter = e->d_counter;
    l.stream = e->stream;
    return l;
}

/* The two facts the plan needs: SMs, and resident blocks of the first
 * pass's kernel (grid-stride variants fill one wave). */
rs_status rs_engine_plan(rs_engine *e, const rs_request *r, rs_plan *p, rs_error *err)
{
    rs_plan_facts f = {e->info.sm_count, 1, NULL};
    rs_status st;
    if (r->variant == RS_V_KERNEL) {
        if ((st = rs_uk_prepare(e, r, &f.vi, err)) != RS_OK) return st;
        const rs_finish fin = r->finish != RS_FINISH_AUTO ? r->finish : f.vi->default_finish;
        const rs_kfinish kf = fin == RS_FINISH_ATOMIC        ? RS_KFIN_ATOMIC
                              : fin == RS_FINISH_SINGLE_PASS ? RS_KFIN_SINGLE_PASS
                                                             : RS_KFIN_STORE;
        if ((f.vi->flags & RS_VF_GRID_STRIDE) &&
            (st = rs_uk_blocks_per_sm(e, r, kf, &f.blocks_per_sm, err)) != RS_OK)
            return st;
    } else if (rs_catalogue_get(r->variant)->flags & RS_VF_GRID_STRIDE) {
        const rs_launch proto = {r->variant,    r->type,  r->op, NULL, r->n,
                                 NULL,          NULL,     NULL,  1,    rs_plan_block(r),
                                 RS_KFIN_STORE, e->stream};
        CUDA_TRY(e, err, rs_kernel_max_blocks_per_sm(&proto, &f.blocks_per_sm),
                 "asking for occupancy");
    }
    return rs_plan_make(r, &f, p, err);
}

rs_status rs_engine_exec(void *vctx, rs_error *err)
{
    rs_exec *x = vctx;
    rs_engine *e = x->e;
    const rs_plan *p = x->p;
    x->host_value = 0;
    if (p->init_first)
        CUDA_TRY(e, err, rs_kernel_init_result(p->acc, p->op, e->d_out, e->stream),
                 "initialising the result");
    if (p->vi->group == RS_KG_CUB) {
        CUDA_TRY(e, err,
                 rs_cub_reduce(p->type, p->op, e->d_in, p->n, e->d_out, e->d_temp, e->temp_bytes,
                               e->stream),
                 "running cub::DeviceReduce");
        return RS_OK;
    }
    if (p->vi->group == RS_KG_THRUST) {
        CUDA_TRY(e, err, rs_thrust_reduce(p->type, p->op, e->d_in, p->n, x->host_bytes, e->stream),
                 "running thrust::reduce");
        x->host_value = 1;
        return RS_OK;
    }
    for (int i = 0; i < p->nsteps; i++) {
        if (i > 0 && rs_engine_cancelled(x->cancel))
            return rs_fail(err, RS_E_CANCELLED, "cancelled");
        const rs_launch l = bind(e, &p->step[i]);
        CUDA_TRY(e, err, l.variant == RS_V_KERNEL ? rs_uk_launch(e, &l) : rs_kernel_launch(&l),
                 "launching the kernel");
    }
    if (p->cpu_finish) {
        const size_t asz = rs_dtype_size(p->acc);
        CUDA_TRY(e, err,
                 cudaMemcpyAsync(e->h_part, e->d_part[0], (size_t)p->cpu_count * asz,
                                 cudaMemcpyDeviceToHost, e->stream),
                 "copying block results to the host");
        CUDA_TRY(e, err, cudaStreamSynchronize(e->stream), "running the kernel");
        rs_value v = rs_cpu_reduce(e->h_part, p->acc, p->op, p->cpu_count);
        rs_value_to_bytes(&v, x->host_bytes);
        x->host_value = 1;
    }
    return RS_OK;
}

/* Evict the L2 by reading twice its size, so that every run, timed or
 * profiled, reads its input from DRAM as Nsight Compute's cache control
 * makes it: inputs smaller than the L2 would otherwise time the cache.
 * Reading (not writing) leaves clean lines: no write-backs land in the
 * next kernel's DRAM counters. */
rs_status rs_engine_flush_l2(rs_engine *e, rs_error *err)
{
    if (!e->d_flush) {
        int l2 = 0;
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, e->device);
        const size_t bytes = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2 + 16;
        rs_status st = rs_engine_buffer(e, &e->d_flush, &e->flush_bytes, bytes,
                                        "allocating the cache-flush buffer", err);
        if (st != RS_OK) return st;
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_flush, 0, e->flush_bytes, e->stream),
                 "clearing the cache-flush buffer");
    }
    const unsigned grid = (unsigned)(e->info.sm_count > 0 ? e->info.sm_count : 1) * 8u;
    unsigned long long *sink = (unsigned long long *)((char *)e->d_flush + e->flush_bytes - 16);
    CUDA_TRY(e, err, rs_stream_read(e->d_flush, e->flush_bytes - 16, grid, 256, sink, e->stream),
             "flushing the L2");
    return RS_OK;
}

/* The input as the plan's cache state asks before an issue: cold, the L2
 * flushed; warm, the input read once by the same read kernel, so that as
 * much of it as the L2 holds is there (the rest, for an input larger than
 * the L2, comes from DRAM as cold). The kernel is the flush's: the
 * counters and the sampling drop it by that name. */
static size_t warm_bytes(const rs_plan *p, const void *in)
{
    const size_t bytes = ((size_t)p->n * rs_dtype_size(p->type)) & ~(size_t)15;
    return p->cache == RS_CACHE_WARM && in ? bytes : 0;
}

int rs_engine_cache_launches(const rs_plan *p, const void *in)
{
    return warm_bytes(p, in) ? 2 : 1;
}

rs_status rs_engine_cache_prep(rs_engine *e, const rs_plan *p, const void *in, rs_error *err)
{
    const size_t bytes = warm_bytes(p, in);
    rs_status st = rs_engine_flush_l2(e, err); /* warm too: only the input stays */
    if (st != RS_OK || !bytes) return st;
    const unsigned grid = (unsigned)(e->info.sm_count > 0 ? e->info.sm_count : 1) * 8u;
    unsigned long long *sink = (unsigned long long *)((char *)e->d_flush + e->flush_bytes - 16);
    CUDA_TRY(e, err, rs_stream_read(in, bytes, grid, 256, sink, e->stream),
             "reading the input into the L2");
    return RS_OK;
}

/* Fresh garbage before every run, so a result nobody wrote cannot pass. */
rs_status rs_engine_poison(rs_engine *e, const rs_plan *p, int pattern, rs_error *err)
{
    CUDA_TRY(e, err, cudaMemsetAsync(e->d_out, pattern, 16, e->stream), "poisoning the result");
    CUDA_TRY(e, err, cudaMemsetAsync(e->d_counter, 0, 16, e->stream), "resetting the counter");
    if (p->nsteps && !(p->vi->flags & RS_VF_LIBRARY)) {
        const size_t bytes = p->part_elems * rs_dtype_size(p->acc);
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_part[0], pattern, bytes, e->stream),
                 "poisoning block results");
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_part[1], pattern, bytes, e->stream),
                 "poisoning block results");
    }
    return RS_OK;
}

rs_status rs_engine_read_result(rs_exec *x, rs_value *v, rs_error *err)
{
    unsigned char bytes[16];
    if (x->host_value) {
        memcpy(bytes, x->host_bytes, sizeof bytes);
    } else {
        rs_engine *e = x->e;
        CUDA_TRY(e, err,
                 cudaMemcpyAsync(bytes, e->d_out, rs_dtype_size(x->p->acc), cudaMemcpyDeviceToHost,
                                 e->stream),
                 "reading the result");
        CUDA_TRY(e, err, cudaStreamSynchronize(e->stream), "running the reduction");
    }
    *v = rs_value_from_bytes(x->p->acc, bytes);
    return RS_OK;
}

int rs_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void rs_engine_check(rs_result *res, const rs_reference *ref, const rs_value *v, const rs_plan *p,
                     int first)
{
    const rs_check c = rs_reference_check(ref, v, p->op, p->n, p->chain);
    if (!c.ok) res->bad_reps++;
    /* keep the worst repetition */
    if (first || (!c.ok && res->correct) || c.rel_err > res->rel_err || isnan(c.rel_err)) {
        res->got = *v;
        res->abs_err = c.abs_err;
        res->rel_err = c.rel_err;
        res->tol = c.tol;
    }
    res->correct = res->bad_reps == 0;
}
