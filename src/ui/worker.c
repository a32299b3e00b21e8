#define _GNU_SOURCE /* pthread_timedjoin_np */
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/catalogue.h"
#include "core/engine.h"

#define QUEUE 16

struct ui_worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int device;
    const rs_recording *rec;
    rs_engine *engine;

    /* the job */
    int has_job, busy, quit;
    volatile int cancel;
    ui_job_kind kind;
    rs_request base;
    rs_variant vars[RS_VARIANT_COUNT];
    int nvar;
    rs_sweep_sizes sizes;
    double progress;
    char what[96];

    /* events for the screen */
    ui_event *queue;
    int head, count;
};

static void post(ui_worker *w, const ui_event *ev)
{
    pthread_mutex_lock(&w->mu);
    while (w->count == QUEUE && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (!w->quit) {
        w->queue[(w->head + w->count) % QUEUE] = *ev;
        w->count++;
    }
    pthread_mutex_unlock(&w->mu);
}

typedef struct progress_ctx {
    ui_worker *w;
    int index, total;
} progress_ctx;

static void on_progress(void *ctx, double done)
{
    progress_ctx *p = ctx;
    pthread_mutex_lock(&p->w->mu);
    p->w->progress = (p->index + done) / p->total;
    pthread_mutex_unlock(&p->w->mu);
}

static void on_stage(void *ctx, const char *stage)
{
    progress_ctx *p = ctx;
    pthread_mutex_lock(&p->w->mu);
    const size_t len = strcspn(p->w->what, ":");
    snprintf(p->w->what + len, sizeof p->w->what - len, ": %s", stage);
    pthread_mutex_unlock(&p->w->mu);
}

static void set_what(ui_worker *w, int index, int total, const char *what)
{
    pthread_mutex_lock(&w->mu);
    snprintf(w->what, sizeof w->what, "%s", what);
    w->progress = (double)index / total;
    pthread_mutex_unlock(&w->mu);
}

/* One row: measured, or looked up in the recording. */
static void produce(ui_worker *w, const rs_request *r, const char *command, int index, int total,
                    rs_row *row)
{
    rs_error err;
    memset(row, 0, sizeof *row);
    if (w->rec) {
        const rs_row *found = rs_recording_find(w->rec, r, command);
        if (!found) found = rs_recording_find(w->rec, r, NULL);
        if (found) {
            *row = *found;
            return;
        }
        row->status = RS_E_USAGE;
        row->result.req = *r;
        snprintf(row->error, sizeof row->error,
                 "not in the recording: %s with this configuration was not recorded",
                 rs_variant_name(r->variant));
        return;
    }
    progress_ctx pc = {w, index, total};
    rs_hooks hooks = {on_progress, &pc, &w->cancel, on_stage};
    row->status = rs_engine_run(w->engine, r, &hooks, &row->result, &err);
    if (row->status != RS_OK) {
        row->result.req = *r;
        snprintf(row->error, sizeof row->error, "%s", err.msg);
    }
}

static rs_status run_job(ui_worker *w, ui_event *ev)
{
    const int sweep = w->kind == UI_JOB_SWEEP;
    const int total = sweep ? w->sizes.count * w->nvar : w->nvar;
    const char *command = w->kind == UI_JOB_RUN ? "run" : sweep ? "sweep" : "ladder";
    for (int k = 0; k < total; k++) {
        if (w->cancel) return RS_E_CANCELLED;
        const int si = sweep ? k / w->nvar : 0, vi = sweep ? k % w->nvar : k;
        rs_request r;
        rs_request_for_variant(&w->base, w->vars[vi], &r);
        if (sweep) r.n = w->sizes.n[si];
        set_what(w, k, total, rs_variant_name(r.variant));
        memset(ev, 0, sizeof *ev);
        ev->kind = UI_EV_ROW;
        ev->job = w->kind;
        ev->index = sweep ? si : (w->kind == UI_JOB_RUN ? (int)r.variant : k);
        ev->index2 = vi;
        produce(w, &r, command, k, total, &ev->row);
        if (ev->row.status == RS_E_CANCELLED) return RS_E_CANCELLED;
        post(w, ev);
        if (ev->row.status == RS_E_NODRIVER || ev->row.status == RS_E_NODEVICE)
            return ev->row.status;
    }
    return RS_OK;
}

static void open_backend(ui_worker *w, ui_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_OPENED;
    if (w->rec) {
        ev->dev = w->rec->device;
        ev->counters_ok = 1;
        snprintf(ev->counters_why, sizeof ev->counters_why, "recorded");
        post(w, ev);
        return;
    }
    rs_error err;
    ev->status = rs_engine_open(&w->engine, w->device, &err);
    if (ev->status == RS_OK) ev->status = rs_engine_gpu(w->engine, &err);
    if (ev->status != RS_OK) snprintf(ev->msg, sizeof ev->msg, "%s", err.msg);
    if (w->engine) ev->dev = *rs_engine_device(w->engine);
    if (ev->status == RS_OK)
        ev->counters_ok =
            rs_engine_counters_available(w->engine, ev->counters_why, sizeof ev->counters_why);
    if (w->engine) {
        rs_engine_metric_passes(w->engine, rs_metric_set_default(), &ev->passes_default, NULL,
                                &err);
        rs_engine_metric_passes(w->engine, rs_metric_set_full(), &ev->passes_full, NULL, &err);
    }
    post(w, ev);
    if (ev->status != RS_OK) return;
    double gbps = 0.0;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_PEAK;
    ev->status = rs_engine_measure_peak(w->engine, &gbps, &err);
    ev->gbps = gbps;
    post(w, ev);
}

static void *loop(void *arg)
{
    ui_worker *w = arg;
    ui_event *ev = malloc(sizeof *ev);
    if (!ev) return NULL;
    open_backend(w, ev);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->has_job && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        w->has_job = 0;
        w->busy = 1;
        w->progress = 0.0;
        pthread_mutex_unlock(&w->mu);
        const rs_status st = run_job(w, ev);
        memset(ev, 0, sizeof *ev);
        ev->kind = UI_EV_DONE;
        ev->job = w->kind;
        ev->status = st;
        if (st == RS_E_CANCELLED) snprintf(ev->msg, sizeof ev->msg, "cancelled");
        pthread_mutex_lock(&w->mu);
        w->busy = 0;
        w->cancel = 0;
        pthread_mutex_unlock(&w->mu);
        post(w, ev);
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    rs_engine_close(w->engine);
    free(ev);
    return NULL;
}

ui_worker *ui_worker_start(int device, const rs_recording *rec)
{
    ui_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->queue = calloc(QUEUE, sizeof *w->queue);
    w->device = device;
    w->rec = rec;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (!w->queue || pthread_create(&w->thread, NULL, loop, w) != 0) {
        free(w->queue);
        free(w);
        return NULL;
    }
    return w;
}

int ui_worker_submit(ui_worker *w, ui_job_kind kind, const rs_request *base, const rs_variant *vars,
                     int nvar, const rs_sweep_sizes *sizes)
{
    pthread_mutex_lock(&w->mu);
    const int ok = !w->busy && !w->has_job;
    if (ok) {
        w->kind = kind;
        w->base = *base;
        w->nvar = nvar < RS_VARIANT_COUNT ? nvar : RS_VARIANT_COUNT;
        memcpy(w->vars, vars, sizeof *vars * (size_t)w->nvar);
        if (sizes) w->sizes = *sizes;
        w->cancel = 0;
        w->has_job = 1;
        w->busy = 1;
        snprintf(w->what, sizeof w->what, "starting");
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return ok;
}

void ui_worker_cancel(ui_worker *w)
{
    w->cancel = 1;
}

int ui_worker_busy(ui_worker *w, double *progress, char *what, size_t len)
{
    pthread_mutex_lock(&w->mu);
    const int busy = w->busy;
    if (progress) *progress = w->progress;
    if (what) snprintf(what, len, "%s", w->what);
    pthread_mutex_unlock(&w->mu);
    return busy;
}

int ui_worker_poll(ui_worker *w, ui_event *ev)
{
    pthread_mutex_lock(&w->mu);
    const int got = w->count > 0;
    if (got) {
        *ev = w->queue[w->head];
        w->head = (w->head + 1) % QUEUE;
        w->count--;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return got;
}

int ui_worker_stop(ui_worker *w, double timeout_s)
{
    if (!w) return 1;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    w->cancel = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)timeout_s;
    until.tv_nsec += (long)((timeout_s - (double)(time_t)timeout_s) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    if (pthread_timedjoin_np(w->thread, NULL, &until) != 0) return 0; /* still inside CUDA */
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->queue);
    free(w);
    return 1;
}
