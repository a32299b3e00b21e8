/* A reduction split over several GPUs: the input of n elements in even
 * shares (rs_split), each GPU reducing its share with the request's variant
 * (an engine per GPU, the caller's on the first), and the partials combined
 * by the cross-GPU finish:
 *
 * - host: every partial copied to the host and combined there;
 * - p2p:  a tree of peer copies (NVLink where present), each level's pairs
 *         combined on the receiving GPU, the result on the first GPU;
 * - nccl: ncclReduce of the partials to the first GPU.
 *
 * Timed like a one-GPU run, with cudaEvents on the first GPU, each L2 as
 * --cache asks: from before the first launch (every other GPU waits for
 * that event) until the result is whole on the first GPU (host: in host
 * memory, added there). The first GPU is held (a host function on its
 * stream) until every launch and the finish are queued, so one thread's
 * issuing is not timed; the warm-up runs ungated (a kernel's first launch
 * loads it, and loading waits on the held GPU). Each GPU's own reduction
 * is timed on its own events (the finish's cost is the whole less the
 * slowest GPU's), its share kept into the run's result (rs_keep). */
#include <math.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "analysis/multi.h"
#include "internal.h"
#include "topology.h"

struct rs_shards {
    int gpus;
    rs_engine *eng[RS_GPUS_MAX]; /* eng[0]: the caller's; the others its peers (not owned) */
    rs_ar *nccl;                 /* NCCL's communicators, made on first use */
    int peers;                   /* peer access enabled */
    void *d_share[RS_GPUS_MAX];  /* each GPU's share of the input */
    size_t share_cap[RS_GPUS_MAX];
    void *d_recv[RS_GPUS_MAX];      /* 16 bytes: a partial arriving */
    cudaEvent_t ready[RS_GPUS_MAX]; /* a GPU's part of the finish is done */
    cudaEvent_t t0, t1;             /* on the first GPU: the whole reduction */
    unsigned char *h_part;          /* pinned: the partials, or the result */
    input_key key;                  /* the input the shares hold */
    char links[160];                /* how the GPUs are linked */
    sem_t gate;                     /* holds the first GPU until all is queued */
    int gate_made;
    uint64_t off[RS_GPUS_MAX], count[RS_GPUS_MAX]; /* each GPU's elements */
    rs_plan plan[RS_GPUS_MAX];
    rs_gpu_share share[RS_GPUS_MAX]; /* this run's, kept into its result at the end */
};

#define SET_DEV(s, g, err)                                                                         \
    CUDA_TRY((s)->eng[g], err, cudaSetDevice(rs_gpu_dev(g)), "selecting the GPU")

void rs_split_free(rs_shards *s)
{
    if (!s) return;
    int broken = 0;
    for (int g = 0; g < s->gpus; g++) broken |= s->eng[g] && s->eng[g]->broken;
    if (broken) { /* NCCL's and CUDA's objects die with the contexts: reset them */
        for (int g = 1; g < s->gpus; g++)
            if (rs_gpu_dev(g) != s->eng[0]->device && cudaSetDevice(rs_gpu_dev(g)) == cudaSuccess)
                cudaDeviceReset();
        if (s->gate_made) sem_destroy(&s->gate);
        free(s);
        return;
    }
    rs_ar_close(s->nccl);
    for (int g = 0; g < s->gpus; g++) {
        if (cudaSetDevice(rs_gpu_dev(g)) != cudaSuccess) continue;
        cudaFree(s->d_share[g]);
        cudaFree(s->d_recv[g]);
        if (s->ready[g]) cudaEventDestroy(s->ready[g]);
    }
    if (cudaSetDevice(rs_gpu_dev(0)) == cudaSuccess) {
        if (s->t0) cudaEventDestroy(s->t0);
        if (s->t1) cudaEventDestroy(s->t1);
        cudaFreeHost(s->h_part);
    }
    if (s->gate_made) sem_destroy(&s->gate);
    free(s);
}

rs_status rs_split_gpus(const rs_request *r, int *gpus, rs_error *err)
{
    int count = 0;
    rs_gpu_count(&count);
    *gpus = r->gpus ? (int)r->gpus : (count < RS_GPUS_MAX ? count : RS_GPUS_MAX);
    if (*gpus > count)
        return rs_fail(err, RS_E_NODEVICE, "a run over %d GPUs needs %d; this machine has %d",
                       *gpus, *gpus, count);
    return RS_OK;
}

/* An engine per GPU, a landing place for a partial and an event on each,
 * and the first GPU's timing events and pinned host memory. */
static rs_status split_setup(rs_shards *s, rs_error *err)
{
    for (int g = 1; g < s->gpus; g++) { /* the peers' engines outlive this split */
        rs_engine *e0 = s->eng[0];
        rs_status st = e0->peer[g] ? RS_OK : rs_engine_open(&e0->peer[g], rs_gpu_dev(g), err);
        if (st == RS_OK) st = rs_engine_gpu(e0->peer[g], err);
        if (st != RS_OK) return st;
        s->eng[g] = e0->peer[g];
    }
    for (int g = 0; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        CUDA_TRY(s->eng[g], err, cudaMalloc(&s->d_recv[g], 16), "allocating a partial");
        CUDA_TRY(s->eng[g], err, cudaEventCreateWithFlags(&s->ready[g], cudaEventDisableTiming),
                 "creating events");
    }
    SET_DEV(s, 0, err);
    CUDA_TRY(s->eng[0], err, cudaEventCreate(&s->t0), "creating events");
    CUDA_TRY(s->eng[0], err, cudaEventCreate(&s->t1), "creating events");
    CUDA_TRY(s->eng[0], err,
             cudaHostAlloc((void **)&s->h_part, 16 * RS_GPUS_MAX, cudaHostAllocPortable),
             "allocating pinned memory"); /* every GPU copies its partial into it */
    rs_topology_describe(s->gpus, s->links, sizeof s->links);
    if (sem_init(&s->gate, 0, 0) != 0) return rs_fail(err, RS_E_NOMEM, "cannot make a semaphore");
    s->gate_made = 1;
    return RS_OK;
}

static rs_status split_open(rs_engine *e, int gpus, rs_shards **out, rs_error *err)
{
    if (e->split && e->split->gpus == gpus) {
        *out = e->split;
        return RS_OK;
    }
    rs_split_free(e->split);
    e->split = calloc(1, sizeof *e->split);
    if (!e->split) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    e->split->gpus = gpus;
    e->split->eng[0] = e;
    const rs_status st = split_setup(e->split, err);
    if (st != RS_OK) {
        rs_split_free(e->split);
        e->split = NULL;
        return st;
    }
    *out = e->split;
    return RS_OK;
}

/* Room for GPU g's share: the first GPU gives up a whole input a run on one
 * GPU left there; too little is a size that does not fit (RS_E_NOMEM). */
static rs_status share_fits(rs_shards *s, int g, size_t bytes, rs_error *err)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return RS_OK; /* cudaMalloc will say */
    }
    const size_t have = free_b + s->share_cap[g], margin = (size_t)256 << 20;
    rs_engine *e0 = s->eng[0];
    if (g == 0 && e0->d_in && have < bytes + margin) {
        cudaFree(e0->d_in); /* made again when a run on one GPU needs it */
        e0->d_in = NULL;
        e0->d_in_bytes = 0;
        return share_fits(s, g, bytes, err);
    }
    if (have >= bytes + margin) return RS_OK;
    return rs_fail(err, RS_E_NOMEM,
                   "out of device memory on GPU %d: its share of the input needs %.1f GiB, "
                   "%.1f GiB of %.1f GiB are free",
                   g, bytes / 1073741824.0, have / 1073741824.0, total_b / 1073741824.0);
}

/* The whole input and its reference on the host (the first engine's), and
 * each GPU's share copied to it; kept while the input stays the same. */
static rs_status split_input(rs_shards *s, const rs_request *r, rs_error *err)
{
    rs_engine *e = s->eng[0];
    rs_request whole = *r;
    whole.gpus = 1;
    rs_status st = rs_engine_input(e, &whole, 0, 0, err);
    if (st != RS_OK) return st;
    const size_t esz = rs_dtype_size(r->type);
    for (int g = 0; g < s->gpus; g++) rs_split(r->n, s->gpus, g, &s->off[g], &s->count[g]);
    if (s->key.valid && memcmp(&s->key, &e->key, sizeof s->key) == 0) return RS_OK;
    s->key.valid = 0;
    for (int g = 0; g < s->gpus; g++) {
        if (!s->count[g]) continue;
        SET_DEV(s, g, err);
        const size_t bytes = (size_t)s->count[g] * esz;
        if ((st = share_fits(s, g, bytes, err)) != RS_OK) return st;
        st = rs_engine_buffer(s->eng[g], &s->d_share[g], &s->share_cap[g], bytes,
                              "allocating a GPU's share of the input", err);
        if (st != RS_OK) return st;
        CUDA_TRY(s->eng[g], err,
                 cudaMemcpy(s->d_share[g], (const char *)e->h_in + s->off[g] * esz, bytes,
                            cudaMemcpyHostToDevice),
                 "copying a share of the input to its GPU");
    }
    s->key = e->key;
    return RS_OK;
}

/* Each GPU's plan for its share and the buffers it names; a GPU without
 * elements (n < GPUs) contributes the identity. */
static rs_status split_plans(rs_shards *s, const rs_request *r, rs_error *err)
{
    for (int g = 0; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        rs_engine *eg = s->eng[g];
        rs_status st;
        if (!s->count[g]) {
            size_t cap = eg->d_out ? 16 : 0;
            st = rs_engine_buffer(eg, &eg->d_out, &cap, 16, "allocating the result", err);
            if (st != RS_OK) return st;
            continue;
        }
        rs_request rg = *r;
        rg.n = s->count[g];
        rg.gpus = 1;
        rg.device = (uint32_t)g;
        if ((st = rs_engine_plan(eg, &rg, &s->plan[g], err)) != RS_OK ||
            (st = rs_engine_work(eg, &rg, &s->plan[g], err)) != RS_OK)
            return st;
    }
    return RS_OK;
}

/* Each L2 as asked (warm: its share), fresh garbage, every GPU idle. */
static rs_status split_reset(rs_shards *s, int pattern, rs_error *err)
{
    for (int g = 0; g < s->gpus; g++) {
        rs_engine *eg = s->eng[g];
        SET_DEV(s, g, err);
        const void *in = s->count[g] ? s->d_share[g] : NULL;
        rs_status st = rs_engine_cache_prep(eg, &s->plan[g], in, err);
        if (st == RS_OK && s->count[g]) st = rs_engine_poison(eg, &s->plan[g], pattern, err);
        if (st != RS_OK) return st;
        CUDA_TRY(eg, err, cudaMemsetAsync(s->d_recv[g], pattern, 16, eg->stream),
                 "poisoning a partial");
    }
    for (int g = 0; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        CUDA_TRY(s->eng[g], err, cudaStreamSynchronize(s->eng[g]->stream), "preparing the run");
    }
    return RS_OK;
}

/* Every GPU's own reduction into its d_out, after the first GPU's start. */
static rs_status split_launch(rs_shards *s, const rs_request *r, const volatile int *cancel,
                              rs_error *err)
{
    SET_DEV(s, 0, err);
    CUDA_TRY(s->eng[0], err, cudaEventRecord(s->t0, s->eng[0]->stream), "timing the reduction");
    for (int g = 0; g < s->gpus; g++) {
        rs_engine *eg = s->eng[g];
        SET_DEV(s, g, err);
        if (g > 0)
            CUDA_TRY(eg, err, cudaStreamWaitEvent(eg->stream, s->t0, 0), "ordering the GPUs");
        CUDA_TRY(eg, err, cudaEventRecord(eg->ev_start, eg->stream), "timing a GPU");
        if (s->count[g]) {
            rs_exec x = {eg, &s->plan[g], cancel, 0, {0}};
            void *own = eg->d_in;
            eg->d_in = s->d_share[g]; /* bound into the launches as they are issued */
            const rs_status st = rs_engine_exec(&x, err);
            eg->d_in = own;
            if (st != RS_OK) return st;
            if (x.host_value) /* check_gpus refuses what ends on the host */
                return rs_fail(err, RS_E_USAGE, "internal: a GPU's partial ended on the host");
        } else {
            CUDA_TRY(eg, err,
                     rs_kernel_init_result(rs_dtype_acc(r->type), r->op, eg->d_out, eg->stream),
                     "writing the identity");
        }
        CUDA_TRY(eg, err, cudaEventRecord(eg->ev_stop, eg->stream), "timing a GPU");
    }
    return RS_OK;
}

/* The first GPU's stream waits for every other GPU's part, then stops the
 * clock. */
static rs_status join_first(rs_shards *s, rs_error *err)
{
    for (int g = 1; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        CUDA_TRY(s->eng[g], err, cudaEventRecord(s->ready[g], s->eng[g]->stream), "ordering");
    }
    SET_DEV(s, 0, err);
    for (int g = 1; g < s->gpus; g++)
        CUDA_TRY(s->eng[0], err, cudaStreamWaitEvent(s->eng[0]->stream, s->ready[g], 0),
                 "ordering the GPUs");
    CUDA_TRY(s->eng[0], err, cudaEventRecord(s->t1, s->eng[0]->stream), "timing the reduction");
    return RS_OK;
}

/* The clock stops when the result is whole on the first GPU, as a run on
 * one GPU stops before its result is read; then it is read. */
static rs_status read_first(rs_shards *s, const void *result, size_t asz, rs_error *err)
{
    const rs_status st = join_first(s, err);
    if (st != RS_OK) return st;
    CUDA_TRY(s->eng[0], err,
             cudaMemcpyAsync(s->h_part, result, asz, cudaMemcpyDeviceToHost, s->eng[0]->stream),
             "reading the result");
    return RS_OK;
}

static rs_status finish_host(rs_shards *s, size_t asz, rs_error *err)
{
    for (int g = 0; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        CUDA_TRY(s->eng[g], err,
                 cudaMemcpyAsync(s->h_part + (size_t)g * asz, s->eng[g]->d_out, asz,
                                 cudaMemcpyDeviceToHost, s->eng[g]->stream),
                 "copying a partial to the host");
    }
    return join_first(s, err);
}

/* Level by level, GPU i + step's partial is copied to GPU i and combined
 * there; the first GPU ends with all of them. */
static rs_status finish_p2p(rs_shards *s, rs_dtype acc, rs_op op, rs_error *err)
{
    const size_t asz = rs_dtype_size(acc);
    for (int step = 1; step < s->gpus; step *= 2)
        for (int i = 0; i + step < s->gpus; i += 2 * step) {
            const int j = i + step;
            rs_engine *ei = s->eng[i], *ej = s->eng[j];
            SET_DEV(s, j, err);
            CUDA_TRY(ej, err, cudaEventRecord(s->ready[j], ej->stream), "ordering the GPUs");
            SET_DEV(s, i, err);
            CUDA_TRY(ei, err, cudaStreamWaitEvent(ei->stream, s->ready[j], 0), "ordering");
            CUDA_TRY(ei, err,
                     cudaMemcpyPeerAsync(s->d_recv[i], rs_gpu_dev(i), ej->d_out, rs_gpu_dev(j), asz,
                                         ei->stream),
                     "copying a partial between GPUs");
            CUDA_TRY(ei, err, rs_partial_combine(acc, op, ei->d_out, s->d_recv[i], ei->stream),
                     "combining two partials");
        }
    return read_first(s, s->eng[0]->d_out, asz, err);
}

static rs_status finish_nccl(rs_shards *s, rs_dtype acc, rs_op op, rs_error *err)
{
    void *in[RS_GPUS_MAX];
    cudaStream_t st[RS_GPUS_MAX];
    for (int g = 0; g < s->gpus; g++) {
        in[g] = s->eng[g]->d_out;
        st[g] = s->eng[g]->stream;
    }
    rs_status rc = rs_ar_reduce(s->nccl, in, s->d_recv[0], 1, acc, op, st, err);
    if (rc != RS_OK) return rc;
    return read_first(s, s->d_recv[0], rs_dtype_size(acc), err);
}

/* What the cross-GPU finish needs, once: NCCL's communicators, or peer
 * access between every pair. */
static rs_status finish_ready(rs_shards *s, rs_cross cross, rs_error *err)
{
    if (cross == RS_CROSS_NCCL && !s->nccl) return rs_ar_open(s->gpus, RS_AR_NCCL, &s->nccl, err);
    if (cross == RS_CROSS_P2P && !s->peers) { /* only the tree's pairs: at most 8 peers a GPU */
        for (int step = 1; step < s->gpus; step *= 2)
            for (int i = 0; i + step < s->gpus; i += 2 * step) {
                const rs_status st =
                    rs_peer_enable(rs_gpu_dev(i), rs_gpu_dev(i + step), "the p2p finish", err);
                if (st != RS_OK) return st;
            }
        s->peers = 1;
    }
    return RS_OK;
}

static rs_status finish_of(rs_shards *s, const rs_request *r, rs_error *err)
{
    const rs_dtype acc = rs_dtype_acc(r->type);
    return r->cross == RS_CROSS_NCCL  ? finish_nccl(s, acc, r->op, err)
           : r->cross == RS_CROSS_P2P ? finish_p2p(s, acc, r->op, err)
                                      : finish_host(s, rs_dtype_size(acc), err);
}

/* The last GPUs first: a fault is charged to the GPU that had it. */
static rs_status split_wait(rs_shards *s, rs_error *err)
{
    for (int g = s->gpus - 1; g >= 0; g--)
        CUDA_TRY(s->eng[g], err, cudaStreamSynchronize(s->eng[g]->stream), "running the reduction");
    return RS_OK;
}

static void CUDART_CB gate_wait(void *gate)
{
    while (sem_wait(gate) != 0) continue; /* EINTR */
}

/* One whole reduction: reset, launch, finish, result in *v; its time and
 * each GPU's own in ms[0..gpus] (ms[0]: the whole). */
static rs_status split_once(rs_shards *s, const rs_request *r, const volatile int *cancel,
                            int pattern, int gated, rs_value *v, double *ms, rs_error *err)
{
    const rs_dtype acc = rs_dtype_acc(r->type);
    rs_status st = split_reset(s, pattern, err);
    if (st != RS_OK) return st;
    const int faulty = s->eng[0]->fault_pending - 1; /* test-only (REDSCOPE_TEST_FAULT=N@G) */
    if (faulty >= 0 && faulty < s->gpus) {
        s->eng[0]->fault_pending = 0;
        SET_DEV(s, faulty, err);
        CUDA_TRY(s->eng[faulty], err, rs_kernel_fault(s->eng[faulty]->stream),
                 "running the kernel");
    }
    if (!gated) { /* a pass that loads every kernel it launches: loading waits on the GPU */
        st = split_launch(s, r, cancel, err);
        if (st == RS_OK) st = finish_of(s, r, err);
        return st == RS_OK ? split_wait(s, err) : st;
    }
    /* The first GPU waits on the host until every launch and the finish are
     * queued, so the GPUs start together and one thread's issuing of G
     * GPUs' launches is not timed as the finish. */
    SET_DEV(s, 0, err);
    CUDA_TRY(s->eng[0], err, cudaLaunchHostFunc(s->eng[0]->stream, gate_wait, &s->gate),
             "holding the first GPU");
    st = split_launch(s, r, cancel, err);
    if (st == RS_OK) st = finish_of(s, r, err);
    sem_post(&s->gate); /* on every path: a held stream never ends */
    if (st == RS_OK) st = split_wait(s, err);
    if (st != RS_OK) return st;
    float f = 0.0f;
    CUDA_TRY(s->eng[0], err, cudaEventElapsedTime(&f, s->t0, s->t1), "timing the reduction");
    ms[0] = f;
    if (r->cross == RS_CROSS_HOST) { /* the host's adds count too */
        const double t = rs_now_ms();
        *v = rs_cpu_reduce(s->h_part, acc, r->op, (uint64_t)s->gpus);
        ms[0] += rs_now_ms() - t;
    } else {
        *v = rs_value_from_bytes(acc, s->h_part);
    }
    for (int g = 0; g < s->gpus; g++) {
        SET_DEV(s, g, err);
        CUDA_TRY(s->eng[g], err, cudaEventElapsedTime(&f, s->eng[g]->ev_start, s->eng[g]->ev_stop),
                 "timing a GPU");
        ms[1 + g] = f;
    }
    return RS_OK;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, rs_cmp_double);
    return v[n / 2];
}

/* The medians of the timed repetitions: the whole (min and max too), each
 * GPU's own, the slowest GPU's, and the finish's share. t: reps rows of
 * 1 + gpus times. */
static void split_times(rs_shards *s, double *t, unsigned reps, rs_result *res)
{
    double *col = t + (size_t)reps * (1 + (size_t)s->gpus); /* room for two columns */
    double *fin = col + reps;
    for (unsigned k = 0; k < reps; k++) {
        double slowest = 0.0;
        for (int g = 0; g < s->gpus; g++) slowest = fmax(slowest, t[k * (1 + s->gpus) + 1 + g]);
        col[k] = slowest;
        fin[k] = t[k * (1 + s->gpus)] - slowest;
    }
    res->multi.shard_ms = median(col, reps);
    res->multi.finish_ms = median(fin, reps);
    for (int g = 0; g <= s->gpus; g++) {
        for (unsigned k = 0; k < reps; k++) col[k] = t[k * (1 + s->gpus) + g];
        const double m = median(col, reps);
        if (g == 0) {
            res->t_median_ms = m, res->t_min_ms = col[0], res->t_max_ms = col[reps - 1];
            continue;
        }
        rs_gpu_share *sh = &s->share[g - 1];
        sh->device = g - 1;
        snprintf(sh->name, sizeof sh->name, "%.63s", s->eng[g - 1]->info.name);
        sh->offset = s->off[g - 1];
        sh->count = s->count[g - 1];
        sh->ms = s->count[g - 1] ? m : 0.0;
    }
}

/* The check's plan: the first GPU's, over all n, its chain of operations
 * lengthened by the partials' combination. */
static void check_plan(const rs_shards *s, const rs_request *r, rs_plan *p)
{
    *p = s->plan[0];
    p->op = r->op;
    p->n = r->n;
    p->chain = 0.0;
    for (int g = 0; g < s->gpus; g++)
        if (s->count[g]) p->chain = fmax(p->chain, s->plan[g].chain);
    p->chain += s->gpus;
}

static rs_status split_time(rs_shards *s, const rs_request *r, const rs_hooks *h, rs_result *res,
                            rs_error *err)
{
    /* the warm-up runs ungated, at least one: the first launch of a kernel
     * loads it, and loading waits on a GPU the gate would hold */
    const unsigned warm = r->warmup ? r->warmup : 1;
    const unsigned total = warm + r->reps, cols = 1 + (unsigned)s->gpus;
    memset(s->share, 0, sizeof s->share); /* this run's: times here, counters after */
    double *t = malloc(sizeof(double) * r->reps * (cols + 2));
    if (!t) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_plan chk;
    check_plan(s, r, &chk);
    rs_status st = RS_OK;
    if (h && h->stage) h->stage(h->ctx, RS_STAGE_TIMING);
    for (unsigned k = 0; k < total && st == RS_OK; k++) {
        double ms[1 + RS_GPUS_MAX];
        rs_value v;
        if (h && h->cancel && *h->cancel) {
            st = rs_fail(err, RS_E_CANCELLED, "cancelled");
            break;
        }
        st = split_once(s, r, h ? h->cancel : NULL, (k & 1) ? 0xa5 : 0xff, k >= warm, &v, ms, err);
        if (st != RS_OK || k < warm) continue;
        memcpy(t + (size_t)(k - warm) * cols, ms, sizeof(double) * cols);
        rs_engine_check(res, &s->eng[0]->ref[r->op], &v, &chk, k == warm);
        if (h && h->progress) h->progress(h->ctx, (k + 1.0) / total);
    }
    if (st == RS_OK) split_times(s, t, r->reps, res);
    free(t);
    return st;
}

/* GPU g's counters for its own share, read as on one GPU, into one. */
static rs_status share_counters(rs_shards *s, int g, const rs_request *r, const rs_hooks *h,
                                rs_result *one, rs_error *err)
{
    SET_DEV(s, g, err);
    rs_engine *eg = s->eng[g];
    rs_request rg = *r;
    rg.n = s->count[g];
    rg.gpus = 1;
    rg.device = (uint32_t)g;
    memset(&one->metrics, 0, sizeof one->metrics);
    void *own = eg->d_in;
    eg->d_in = s->d_share[g]; /* its share, as the timed runs read */
    const rs_status st = rs_engine_counters(eg, &rg, &s->plan[g], one, h, err);
    eg->d_in = own;
    /* GPUs of a virtual split share one context, where one range profiler
     * is enabled at a time: each share's is ended after its collection */
    if (eg->prof) rs_prof_release(eg->prof);
    return st;
}

/* Each GPU's counters for its own share; the first GPU's are the row's
 * (its launches named), every GPU's totals its share's. */
static rs_status split_counters(rs_shards *s, const rs_request *r, const rs_hooks *h,
                                rs_result *res, rs_error *err)
{
    rs_metric_mask m = 0;
    rs_metric_parse_set(r->metrics, &m, NULL);
    if (!m) return RS_OK;
    rs_result *one = calloc(1, sizeof *one);
    if (!one) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_status st = RS_OK;
    for (int g = 0; g < s->gpus && st == RS_OK; g++) {
        if (!s->count[g]) continue;
        st = share_counters(s, g, r, h, one, err);
        if (g == 0) {
            res->metrics = one->metrics;
            if (!res->metrics.reason[0])
                snprintf(res->metrics.reason, sizeof res->metrics.reason,
                         "GPU 0's share; every GPU's beside its share");
        }
        s->share[g].valid = one->metrics.valid;
        memcpy(s->share[g].value, one->metrics.value, sizeof one->metrics.value);
    }
    free(one);
    return st;
}

rs_status rs_engine_run_split(rs_engine *e, const rs_request *r, int gpus, const rs_hooks *hooks,
                              rs_result *res, rs_error *err)
{
    rs_shards *s = NULL;
    rs_engine_prof_join(e); /* CUPTI starts on no other thread while the GPUs are gated */
    rs_status st = split_open(e, gpus, &s, err);
    if (st == RS_OK) st = finish_ready(s, r->cross, err);
    if (st == RS_OK) st = split_input(s, r, err);
    if (st == RS_OK) st = split_plans(s, r, err);
    if (st == RS_OK) st = split_time(s, r, hooks, res, err);
    if (st == RS_OK) st = split_counters(s, r, hooks, res, err);
    e->fault_pending = 0; /* test-only: one fault, in this run or none */
    int broken = 0;
    for (int g = 0; s && g < s->gpus; g++) broken |= s->eng[g] && s->eng[g]->broken;
    if (broken) { /* which GPU faulted is not always the one that said so: every one
                   * starts afresh (rs_engine_recover; the GPU process ends first) */
        for (int g = 0; g < s->gpus; g++)
            if (s->eng[g]) s->eng[g]->broken = 1;
        if (st == RS_OK) st = rs_fail(err, RS_E_CUDA, "a GPU of the run failed");
    }
    cudaSetDevice(e->device);
    if (st != RS_OK) return st;
    const rs_plan *p = &s->plan[0];
    res->grid = p->grid1;
    res->block = p->block1;
    res->ept = p->ept;
    res->launches = (unsigned)p->nsteps + (unsigned)p->init_first;
    res->multi.gpus = gpus, res->multi.cross = r->cross;
    res->multi.share = rs_keep(s->share, sizeof s->share[0] * (size_t)gpus);
    if (!res->multi.share) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    snprintf(res->multi.links, sizeof res->multi.links, "%s", s->links);
    return RS_OK;
}
