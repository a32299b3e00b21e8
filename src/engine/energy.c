/* Energy per reduction through NVML, loaded at run time as CUPTI is.
 *
 * NVML's total-energy counter holds the board's energy in millijoules
 * since the driver loaded, and it changes only every so often (its update
 * interval, measured here, not assumed). So the reduction runs back to
 * back, the GPU never idle, and the counter is read at two of its updates
 * at least four intervals apart: their difference over the time between
 * them is the board's average power, and power times one reduction's time
 * in that loop is its energy.
 *
 * The loop keeps the run's cache state without a flush between reductions
 * (the flush's own energy would be counted): warm, the one input read
 * again and again stays in the L2 where it fits; cold, each reduction reads
 * the next of several copies of the input that together fill three L2s, so
 * that every read finds its copy evicted and comes from DRAM. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/trace.h"
#include "internal.h"
#include "nvml_lib.h"

struct rs_nvml {
    rs_nvml_lib nvml;
    rs_nvml_dev dev;
    char why[200]; /* "" while usable */
    double interval_ms, idle_watts, limit_watts;
    int (*energy)(rs_nvml_dev, unsigned long long *); /* mJ since the driver loaded */
};

/* The library, the engine's GPU in it, its power limit and its counter. */
static void nvml_load(rs_nvml *n, int device)
{
    char why[160];
    if (!rs_nvml_open(&n->nvml, why, sizeof why)) {
        snprintf(n->why, sizeof n->why, "%s", why);
        return;
    }
    int (*limit)(rs_nvml_dev, unsigned *) =
        (int (*)(rs_nvml_dev, unsigned *))rs_nvml_sym(&n->nvml, "nvmlDeviceGetEnforcedPowerLimit");
    n->energy = (int (*)(rs_nvml_dev, unsigned long long *))rs_nvml_sym(
        &n->nvml, "nvmlDeviceGetTotalEnergyConsumption");
    unsigned long long mj = 0;
    int r = 0;
    if (!n->energy)
        snprintf(n->why, sizeof n->why, "this driver's NVML has no energy counter");
    else if (!rs_nvml_device(&n->nvml, device, &n->dev))
        snprintf(n->why, sizeof n->why, "NVML does not know CUDA device %d", device);
    else if ((r = n->energy(n->dev, &mj)) != 0)
        snprintf(n->why, sizeof n->why, "this GPU has no energy counter (NVML: %s)",
                 rs_nvml_error(&n->nvml, r));
    unsigned mw = 0;
    if (!n->why[0] && limit && limit(n->dev, &mw) == 0) n->limit_watts = mw / 1000.0;
}

static void nap(void)
{
    const struct timespec t = {0, 100000}; /* 0.1 ms */
    nanosleep(&t, NULL);
}

/* The counter's update interval (the median of five) and the idle board's
 * power over them; at most 3 s. */
static void nvml_interval(rs_nvml *n)
{
    enum { EDGES = 6 };
    double t[EDGES];
    unsigned long long v[EDGES], last = 0;
    if (n->energy(n->dev, &last) != 0) {
        snprintf(n->why, sizeof n->why, "NVML stopped answering");
        return;
    }
    const double start = rs_now_ms();
    int k = 0;
    while (k < EDGES && rs_now_ms() - start < 3000.0) {
        unsigned long long x = 0;
        if (n->energy(n->dev, &x) != 0) break;
        if (x != last)
            t[k] = rs_now_ms(), v[k++] = x, last = x;
        else
            nap();
    }
    for (int i = 1; i < k; i++)
        if (v[i] < v[i - 1]) k = -1; /* a counter that goes back: the driver reloaded */
    if (k < EDGES) {
        snprintf(n->why, sizeof n->why,
                 k < 0 ? "the energy counter went backwards"
                       : "the energy counter changed %d times in 3 s: too seldom to measure a run",
                 k);
        return;
    }
    double d[EDGES - 1];
    for (int i = 0; i + 1 < EDGES; i++) d[i] = t[i + 1] - t[i];
    qsort(d, EDGES - 1, sizeof d[0], rs_cmp_double);
    n->interval_ms = d[(EDGES - 1) / 2];
    n->idle_watts = (double)(v[EDGES - 1] - v[0]) / (t[EDGES - 1] - t[0]); /* mJ/ms */
    rs_trace("energy: counter every %.1f ms, idle %.1f W, limit %.0f W", n->interval_ms,
             n->idle_watts, n->limit_watts);
}

/* NVML for this engine, opened on first use; NULL with the reason in note. */
static rs_nvml *nvml_of(rs_engine *e, char *note, size_t len)
{
    if (!e->nvml && (e->nvml = calloc(1, sizeof *e->nvml)) != NULL) {
        nvml_load(e->nvml, e->device);
        if (!e->nvml->why[0]) nvml_interval(e->nvml);
    }
    if (!e->nvml)
        snprintf(note, len, "out of host memory");
    else if (e->nvml->why[0])
        snprintf(note, len, "%s", e->nvml->why);
    return e->nvml && !e->nvml->why[0] ? e->nvml : NULL;
}

void rs_engine_energy_free(rs_engine *e)
{
    if (!e->nvml) return;
    rs_nvml_close(&e->nvml->nvml);
    free(e->nvml);
    e->nvml = NULL;
}

/* The counter's reader, on a thread of its own (a read is a driver call of
 * milliseconds: the launching thread never waits on it, and an update is
 * seen within one read). It keeps the first update after the warm-up and
 * the first one a window after that. */
typedef struct window {
    rs_nvml *n;
    double start, warm_ms, window_ms;
    _Atomic int phase; /* 0: warming up, 1: in the window, 2: done, -1: NVML failed */
    _Atomic int stop;  /* the launcher gave up */
    unsigned long long e0, e1;
    double t0, t1;
    unsigned reads; /* the counter's reads, and the time they took */
    double read_ms;
} window;

static void *read_counter(void *arg)
{
    window *w = arg;
    unsigned long long last = 0, x = 0;
    if (w->n->energy(w->n->dev, &last) != 0) atomic_store(&w->phase, -1);
    while (atomic_load(&w->phase) >= 0 && atomic_load(&w->phase) < 2 && !atomic_load(&w->stop)) {
        const double before = rs_now_ms();
        if (w->n->energy(w->n->dev, &x) != 0) {
            atomic_store(&w->phase, -1);
            break;
        }
        const double now = 0.5 * (before + rs_now_ms()); /* the read's middle */
        w->reads++, w->read_ms += 2.0 * (now - before);
        if (x == last) {
            nap();
            continue;
        }
        last = x;
        if (atomic_load(&w->phase) == 0 && now - w->start >= w->warm_ms) {
            w->e0 = x, w->t0 = now;
            atomic_store(&w->phase, 1);
        } else if (atomic_load(&w->phase) == 1 && now - w->t0 >= w->window_ms) {
            w->e1 = x, w->t1 = now;
            atomic_store(&w->phase, 2);
        }
    }
    return NULL;
}

/* Copies of the input a cold loop turns through (count 0: none needed). */
typedef struct copies {
    char *base;
    size_t stride;
    unsigned long count, next;
} copies;

static rs_status make_copies(rs_engine *e, const rs_plan *p, copies *c, rs_error *err)
{
    const size_t bytes = (size_t)p->n * rs_dtype_size(p->type), l2 = e->info.l2_bytes;
    memset(c, 0, sizeof *c);
    if (p->cache == RS_CACHE_WARM || !l2 || !bytes || bytes >= 2 * l2) return RS_OK;
    c->stride = (bytes + 255) & ~(size_t)255; /* aligned as cudaMalloc's, for vector loads */
    c->count = (unsigned long)((3 * l2 + c->stride - 1) / c->stride);
    if (c->count < 2) c->count = 2;
    CUDA_TRY(e, err, cudaMalloc((void **)&c->base, c->stride * c->count),
             "allocating the input's copies for a cold energy loop");
    cudaError_t k = cudaMemcpyAsync(c->base, e->d_in, bytes, cudaMemcpyDeviceToDevice, e->stream);
    for (unsigned long have = 1; have < c->count && k == cudaSuccess; have *= 2) {
        const unsigned long more = have < c->count - have ? have : c->count - have;
        k = cudaMemcpyAsync(c->base + have * c->stride, c->base, more * c->stride,
                            cudaMemcpyDeviceToDevice, e->stream);
    }
    if (k == cudaSuccess) k = cudaStreamSynchronize(e->stream);
    if (k != cudaSuccess) {
        cudaFree(c->base);
        c->base = NULL, c->count = 0;
        return rs_cuda_fail(e, err, k, "copying the input for a cold energy loop");
    }
    return RS_OK;
}

/* One reduction of the loop, over the next copy where there are copies. */
static rs_status issue(rs_exec *x, copies *c, rs_error *err)
{
    if (!c->count) return rs_engine_exec(x, err);
    void *own = x->e->d_in;
    x->e->d_in = c->base + (c->next++ % c->count) * c->stride; /* bound as it is issued */
    const rs_status st = rs_engine_exec(x, err);
    x->e->d_in = own;
    return st;
}

/* Batches of reductions, two in flight, until the reader has its window. */
static rs_status run_window(rs_engine *e, rs_exec *x, copies *cp, window *w, unsigned batch,
                            unsigned *reps, rs_error *err)
{
    cudaEvent_t done[2];
    CUDA_TRY(e, err, cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming), "an event");
    const cudaError_t made = cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming);
    if (made != cudaSuccess) {
        cudaEventDestroy(done[0]);
        return rs_cuda_fail(e, err, made, "creating an event");
    }
    const double give_up = w->warm_ms + w->window_ms + 4.0 * w->n->interval_ms + 3000.0;
    rs_status st = RS_OK;
    cudaError_t c = cudaSuccess;
    for (unsigned k = 0; st == RS_OK && c == cudaSuccess; k++) {
        const int phase = atomic_load(&w->phase);
        if (phase == 2) break;
        if (phase < 0)
            st = rs_fail(err, RS_E_IO, "NVML stopped answering");
        else if (x->cancel && *x->cancel)
            st = rs_fail(err, RS_E_CANCELLED, "cancelled");
        else if (rs_now_ms() - w->start > give_up)
            st = rs_fail(err, RS_E_IO, "the energy counter stopped changing during the run");
        for (unsigned b = 0; b < batch && st == RS_OK; b++) st = issue(x, cp, err);
        if (st != RS_OK) break;
        *reps += batch;
        c = cudaEventRecord(done[k & 1], e->stream);
        if (c == cudaSuccess && k > 0) c = cudaEventSynchronize(done[(k - 1) & 1]);
    }
    atomic_store(&w->stop, 1);
    /* the loop's end, before any wait: the GPU's time is the loop's alone */
    const cudaError_t end = cudaEventRecord(e->ev_stop, e->stream);
    const cudaError_t sync = cudaStreamSynchronize(e->stream);
    if (c == cudaSuccess) c = end != cudaSuccess ? end : sync;
    cudaEventDestroy(done[0]);
    cudaEventDestroy(done[1]);
    /* a CUDA failure wins over NVML's or a cancel: the context may be spoiled */
    return c != cudaSuccess ? rs_cuda_fail(e, err, c, "running the reduction") : st;
}

/* The loop timed on the engine's events, the reader beside it; RS_E_IO:
 * NVML's failure, said in err (the run stands without energy). */
static rs_status measure(rs_engine *e, rs_exec *x, copies *cp, window *w, unsigned batch,
                         unsigned *reps, float *ms, rs_error *err)
{
    pthread_t reader;
    w->start = rs_now_ms();
    if (pthread_create(&reader, NULL, read_counter, w) != 0)
        return rs_fail(err, RS_E_IO, "no thread to read the energy counter on");
    rs_status st = RS_OK;
    cudaError_t c = cudaEventRecord(e->ev_start, e->stream);
    if (c == cudaSuccess) st = run_window(e, x, cp, w, batch, reps, err);
    atomic_store(&w->stop, 1);
    pthread_join(reader, NULL);
    if (c == cudaSuccess && st == RS_OK) c = cudaEventSynchronize(e->ev_stop);
    if (c == cudaSuccess && st == RS_OK) c = cudaEventElapsedTime(ms, e->ev_start, e->ev_stop);
    if (c != cudaSuccess && st == RS_OK) st = rs_cuda_fail(e, err, c, "timing the energy loop");
    return st;
}

rs_status rs_engine_energy(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                           const rs_hooks *h, rs_error *err)
{
    rs_energy *en = &res->energy;
    if (!r->energy) return RS_OK;
    en->requested = 1;
    if (r->variant == RS_V_CPU || !p) {
        snprintf(en->note, sizeof en->note, "%s",
                 p ? "the cpu step runs on the host, not the GPU's board"
                   : "energy is measured for runs on one GPU");
        return RS_OK;
    }
    rs_nvml *n = nvml_of(e, en->note, sizeof en->note);
    if (!n) return RS_OK;
    if (h && h->stage) h->stage(h->ctx, "measuring energy");
    en->interval_ms = n->interval_ms;
    en->idle_watts = n->idle_watts;
    en->limit_watts = n->limit_watts;
    rs_exec x = {e, p, h ? h->cancel : NULL, 0, {0}};
    /* batches of a quarter of the counter's interval, two in flight */
    const double rep = res->t_median_ms > 0.0 ? res->t_median_ms : 0.01;
    const unsigned batch = (unsigned)fmin(fmax(0.25 * n->interval_ms / rep, 1.0), 100000.0);
    window w = {.n = n,
                .warm_ms = fmax(n->interval_ms, 100.0),
                .window_ms = fmax(4.0 * n->interval_ms, 250.0)};
    unsigned reps = 0;
    float ms = 0.0f;
    copies cp;
    rs_status st = make_copies(e, p, &cp, err);
    if (st != RS_OK) return st;
    st = measure(e, &x, &cp, &w, batch, &reps, &ms, err);
    if (cp.base) cudaFree(cp.base);
    if (st == RS_E_IO) { /* NVML's, not the GPU's: the run stands without energy */
        snprintf(en->note, sizeof en->note, "%.199s", err->msg);
        return RS_OK;
    }
    if (st != RS_OK) return st;
    if (w.e1 <= w.e0 || !(w.t1 > w.t0) || !(ms > 0.0f) || !reps) {
        snprintf(en->note, sizeof en->note, "the energy counter did not advance over the run");
        return RS_OK;
    }
    en->reps = reps;
    en->rep_ms = ms / reps;
    en->window_ms = w.t1 - w.t0;
    en->watts = (double)(w.e1 - w.e0) / en->window_ms; /* mJ per ms */
    en->joules = en->watts * en->rep_ms * 1e-3;
    const double gb = rs_result_input_bytes(res) / 1e9;
    en->j_per_gb = gb > 0.0 ? en->joules / gb : 0.0;
    en->valid = 1;
    rs_trace("energy: %.1f W over %.0f ms, %u reps of %.4f ms (batches of %u); %u reads of the "
             "counter, %.3f ms each",
             en->watts, en->window_ms, reps, en->rep_ms, batch, w.reads,
             w.reads ? w.read_ms / w.reads : 0.0);
    return RS_OK;
}
