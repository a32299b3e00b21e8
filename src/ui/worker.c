#define _GNU_SOURCE /* pthread_timedjoin_np */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvtools/compile.h"
#include "core/catalogue.h"
#include "formats/source_recording.h"
#include "core/runner.h"
#include "engine/gpu_process.h"

#define QUEUE 16

struct ui_worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int device;
    const rs_recording *rec; /* replay: the recording the source reads */
    rs_source *src;          /* the GPU engine, or the recording */
    ui_event *row_event;     /* the runner's rows, posted from the worker thread */

    /* the job; a worker its owner gave up waiting for frees itself */
    int has_job, busy, quit, exited, abandoned;
    volatile int cancel;
    ui_job_kind kind;
    rs_request base;
    rs_variant vars[RS_VARIANT_COUNT];
    int nvar;
    rs_sweep_sizes sizes;
    rs_check_kind check;
    rs_stalls *sass_view; /* UI_JOB_SASS: a copy of the view, its line, its step */
    char sass_file[RS_STALL_FILE], sass_user[RS_NOTE_MAX];
    unsigned sass_line;
    rs_stall_owner sass_owner;
    int sass_tag;
    double progress;
    char what[96];

    /* events for the screen, and a pipe that wakes it when one is posted */
    ui_event *queue;
    int head, count;
    int wake[2];
};

static void close_wake(ui_worker *w)
{
    for (int k = 0; k < 2; k++)
        if (w->wake[k] >= 0) close(w->wake[k]);
    w->wake[0] = w->wake[1] = -1;
}

static void free_worker(ui_worker *w)
{
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    close_wake(w);
    free(w->sass_view);
    for (int k = 0; w->queue && k < w->count; k++) /* answers the screen never took */
        ui_event_release(&w->queue[(w->head + k) % QUEUE]);
    free(w->queue);
    free(w);
}

void ui_event_release(ui_event *ev)
{
    switch (ev->kind) {
    case UI_EV_ROW: free(ev->row), ev->row = NULL; break;
    case UI_EV_CHECK: free(ev->check), ev->check = NULL; break;
    case UI_EV_SASS: free(ev->insn), ev->insn = NULL; break;
    default: break;
    }
}

/* With w->mu held: the event into the queue, and the screen woken. */
static void enqueue(ui_worker *w, const ui_event *ev)
{
    while (w->count == QUEUE && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (w->quit) {
        ui_event copy = *ev;
        ui_event_release(&copy); /* nobody will take it */
        return;
    }
    w->queue[(w->head + w->count) % QUEUE] = *ev;
    w->count++;
    const char one = 1;
    if (w->wake[1] >= 0 && write(w->wake[1], &one, 1) < 0) {
        /* full (the screen has not drained it yet): it wakes anyway */
    }
}

static void post(ui_worker *w, const ui_event *ev)
{
    pthread_mutex_lock(&w->mu);
    enqueue(w, ev);
    pthread_mutex_unlock(&w->mu);
}

static void on_progress(void *ctx, int index, int total, double done, const char *label)
{
    ui_worker *w = ctx;
    pthread_mutex_lock(&w->mu);
    w->progress = total > 0 ? (index + done) / total : done;
    if (done == 0.0) snprintf(w->what, sizeof w->what, "%s", label);
    pthread_mutex_unlock(&w->mu);
}

static void on_stage(void *ctx, const char *stage)
{
    ui_worker *w = ctx;
    pthread_mutex_lock(&w->mu);
    const size_t len = strcspn(w->what, ":");
    snprintf(w->what + len, sizeof w->what - len, ": %s", stage);
    pthread_mutex_unlock(&w->mu);
}

/* Each row to the screen as it is made. */
static void on_row(void *ctx, int k, const rs_row *row)
{
    ui_worker *w = ctx;
    ui_event *ev = w->row_event;
    if (!ev) return;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_ROW;
    ev->job = w->kind;
    const int sweep = w->kind == UI_JOB_SWEEP;
    ev->index = sweep ? k / w->nvar : (w->kind == UI_JOB_RUN ? (int)row->result.req.variant : k);
    ev->index2 = sweep ? k % w->nvar : k;
    if (!(ev->row = malloc(sizeof *ev->row))) return; /* no memory: the job's end says so */
    *ev->row = *row;
    post(w, ev);
}

/* The job as a list of requests, through the runner. */
static rs_status run_job(ui_worker *w)
{
    const int sweep = w->kind == UI_JOB_SWEEP;
    const int total = sweep ? w->sizes.count * w->nvar : w->nvar;
    rs_request *reqs = calloc((size_t)total + 1, sizeof *reqs);
    rs_row *rows = calloc((size_t)total + 1, sizeof *rows);
    rs_status st = RS_E_NOMEM;
    if (reqs && rows) {
        for (int k = 0; k < total; k++) {
            rs_request_for_variant(&w->base, w->vars[sweep ? k % w->nvar : k], &reqs[k]);
            if (sweep) reqs[k].n = w->sizes.n[k / w->nvar];
        }
        const char *command = w->kind == UI_JOB_RUN ? "run" : sweep ? "sweep" : "ladder";
        const rs_runner rn = {w->src,      {RS_ASK_RUN, command, NULL, NULL},
                              NULL,        &w->cancel,
                              on_progress, on_stage,
                              on_row,      w};
        int done = 0;
        rs_error err;
        st = rs_runner_run(&rn, reqs, total, rows, &done, &err);
    }
    free(reqs);
    free(rows);
    return st;
}

/* The source, and what the header needs: device, counters, passes, peak. */
static void open_backend(ui_worker *w, ui_event *ev)
{
    rs_error err;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_OPENED;
    if (w->rec) {
        ev->status = rs_source_recording_borrow(w->rec, &w->src, &err);
        ev->dev = w->rec->device;
        rs_recording_gpus(w->rec, &ev->facts.gpu_count, ev->facts.links, sizeof ev->facts.links);
        ev->facts.counters_ok = 1;
        snprintf(ev->facts.counters_why, sizeof ev->facts.counters_why, "recorded");
        if (ev->status != RS_OK) snprintf(ev->msg, sizeof ev->msg, "%s", err.msg);
        post(w, ev);
        return;
    }
    const int one = w->base.gpus == 1 ? RS_CHILD_ONE : 0; /* its GPU alone, while it runs on one */
    ev->status = rs_source_child_open(w->device, RS_CHILD_FACTS | one, &w->src, &err);
    if (ev->status == RS_OK) ev->status = w->src->prepare(w->src, 1, &err);
    if (ev->status != RS_OK) snprintf(ev->msg, sizeof ev->msg, "%s", err.msg);
    if (w->src) ev->dev = *w->src->device(w->src);
    const rs_gpu_facts *f = rs_source_child_facts(w->src);
    if (f) ev->facts = *f;
    ev->facts.counters_ok = ev->status == RS_OK && f && f->counters_ok;
    post(w, ev);
    if (ev->status != RS_OK || !f) return;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_PEAK;
    ev->facts = *f;
    post(w, ev);
}

/* --check in the explorer: this binary under compute-sanitizer. */
static rs_status run_check(ui_worker *w, ui_event *ev)
{
    char exe[4096];
    rs_error err;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_CHECK;
    ev->index = (int)w->base.variant;
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return RS_E_IO;
    exe[len] = '\0';
    pthread_mutex_lock(&w->mu);
    snprintf(w->what, sizeof w->what, "%s under compute-sanitizer",
             rs_variant_name(w->base.variant));
    pthread_mutex_unlock(&w->mu);
    if (!(ev->check = malloc(sizeof *ev->check))) {
        ev->status = RS_E_NOMEM;
        snprintf(ev->msg, sizeof ev->msg, "out of host memory");
        post(w, ev);
        return RS_E_NOMEM;
    }
    ev->status = rs_check_run(&w->base, w->check, exe, ev->check, &w->cancel, &err);
    if (ev->status != RS_OK) snprintf(ev->msg, sizeof ev->msg, "%s", err.msg);
    post(w, ev);
    return ev->status;
}

/* Your kernel compiled where it cannot run (a replay, no GPU): NVRTC needs
 * none. The row carries the build facts, or the compiler's first error. */
static rs_status run_compile(ui_worker *w)
{
    rs_row *row = w->row_event ? malloc(sizeof *row) : NULL;
    if (!row) return RS_E_NOMEM;
    rs_error err = {RS_OK, ""};
    char *text = NULL;
    size_t len = 0;
    rs_ukernel_spec spec;
    rs_compiled c;
    memset(&c, 0, sizeof c);
    memset(row, 0, sizeof *row);
    row->result.req = w->base;
    row->result.req.variant = RS_V_KERNEL;
    rs_status st = rs_ukernel_read(w->base.kernel, &text, &len, &err);
    if (st == RS_OK) st = rs_ukernel_parse(w->base.kernel, text, &spec, &err);
    if (st == RS_OK) {
        const rs_finish f = w->base.finish != RS_FINISH_AUTO ? w->base.finish : spec.finish;
        const int kfin = f == RS_FINISH_ATOMIC ? 1 : f == RS_FINISH_SINGLE_PASS ? 2 : 0;
        const rs_device_info *d = w->rec ? &w->rec->device : NULL; /* the GPU replayed */
        const int arch = d && d->cc_major >= 5 ? 10 * d->cc_major + d->cc_minor : 90;
        st = rs_compile_bounded(w->base.kernel, text, w->base.type, w->base.op, kfin, arch, &c,
                                &err);
    }
    free(text);
    row->status = st;
    snprintf(row->error, sizeof row->error, "%s", st == RS_OK ? "" : err.msg);
    rs_ukernel_result *u = &row->result.uk;
    snprintf(u->entry, sizeof u->entry, "%s", c.build.entry);
    u->regs = c.build.regs, u->smem = c.build.smem;
    u->spill_st = c.build.spill_st, u->spill_ld = c.build.spill_ld;
    u->arch = c.arch, u->compile_ms = c.ms;
    rs_compiled_free(&c);
    ui_event *ev = w->row_event;
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_ROW;
    ev->row = row;
    ev->job = UI_JOB_COMPILE;
    ev->index = ev->index2 = RS_V_KERNEL;
    post(w, ev);
    return RS_OK;
}

/* The Source screen's s: nvdisasm on the kernel's cubin, here, so the
 * screen never waits for it. */
static rs_status run_sass(ui_worker *w, ui_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = UI_EV_SASS;
    ev->index = w->sass_tag;
    ev->insn = malloc(UI_SASS_MAX * sizeof *ev->insn);
    if (!ev->insn || !w->sass_view) {
        ev->nsass = -1;
        snprintf(ev->msg, sizeof ev->msg, "out of host memory");
    } else {
        ev->nsass = rs_sass_of_line(w->sass_view, w->sass_file, w->sass_line, &w->sass_owner,
                                    ev->insn, UI_SASS_MAX, ev->msg, sizeof ev->msg);
    }
    free(w->sass_view);
    w->sass_view = NULL;
    post(w, ev);
    return RS_OK;
}

static void *loop(void *arg)
{
    ui_worker *w = arg;
    ui_event *ev = malloc(sizeof *ev);
    if (!ev) return NULL;
    w->row_event = malloc(sizeof *w->row_event);
    open_backend(w, ev);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->has_job && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        w->has_job = 0;
        w->busy = 1;
        w->progress = 0.0;
        pthread_mutex_unlock(&w->mu);
        const rs_status st = w->kind == UI_JOB_CHECK     ? run_check(w, ev)
                             : w->kind == UI_JOB_COMPILE ? run_compile(w)
                             : w->kind == UI_JOB_SASS    ? run_sass(w, ev)
                             : w->src                    ? run_job(w)
                                                         : RS_E_NODEVICE;
        memset(ev, 0, sizeof *ev);
        ev->kind = UI_EV_DONE;
        ev->job = w->kind;
        ev->status = st;
        if (st == RS_E_CANCELLED) snprintf(ev->msg, sizeof ev->msg, "cancelled");
        pthread_mutex_lock(&w->mu);
        w->busy = 0; /* with its DONE queued: nothing of this job arrives after a new one */
        w->cancel = 0;
        enqueue(w, ev);
    }
    pthread_mutex_unlock(&w->mu);
    rs_source_close(w->src);
    free(w->row_event);
    free(ev);
    pthread_mutex_lock(&w->mu);
    const int orphan = w->abandoned;
    w->exited = 1;
    pthread_mutex_unlock(&w->mu);
    if (orphan) free_worker(w);
    return NULL;
}

ui_worker *ui_worker_start(int device, unsigned gpus, const rs_recording *rec)
{
    ui_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->queue = calloc(QUEUE, sizeof *w->queue);
    w->device = device;
    w->base.gpus = gpus; /* what the GPU process is started for, until a job says */
    w->rec = rec;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pipe(w->wake) != 0) w->wake[0] = w->wake[1] = -1; /* the screen polls every 100 ms */
    for (int k = 0; k < 2; k++)
        if (w->wake[k] >= 0) {
            fcntl(w->wake[k], F_SETFL, O_NONBLOCK);
            fcntl(w->wake[k], F_SETFD, FD_CLOEXEC);
        }
    if (!w->queue || pthread_create(&w->thread, NULL, loop, w) != 0) {
        close_wake(w);
        free(w->queue);
        free(w);
        return NULL;
    }
    return w;
}

int ui_worker_wake_fd(const ui_worker *w)
{
    return w ? w->wake[0] : -1;
}

void ui_worker_drain_wake(ui_worker *w)
{
    char buf[64];
    while (w && w->wake[0] >= 0 && read(w->wake[0], buf, sizeof buf) > 0) {
    }
}

/* With w->mu held: 1 while a job runs or waits, or the screen has not yet
 * taken all it said. */
static int busy_locked(const ui_worker *w)
{
    return w->busy || w->has_job || w->count > 0;
}

static int submit(ui_worker *w, ui_job_kind kind, const rs_request *base, const rs_variant *vars,
                  int nvar, const rs_sweep_sizes *sizes, rs_check_kind check)
{
    pthread_mutex_lock(&w->mu);
    const int ok = !busy_locked(w) && !w->quit;
    if (ok) {
        w->check = check;
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

int ui_worker_submit(ui_worker *w, ui_job_kind kind, const rs_request *base, const rs_variant *vars,
                     int nvar, const rs_sweep_sizes *sizes)
{
    return submit(w, kind, base, vars, nvar, sizes, RS_CHECK_NONE);
}

int ui_worker_submit_check(ui_worker *w, const rs_request *base, rs_check_kind kind)
{
    const rs_variant v = base->variant;
    return submit(w, UI_JOB_CHECK, base, &v, 1, NULL, kind);
}

int ui_worker_submit_sass(ui_worker *w, const rs_stalls *s, const char *file, unsigned line,
                          const rs_stall_owner *o, int tag)
{
    rs_stalls *copy = malloc(sizeof *copy);
    if (!copy) return 0;
    *copy = *s;
    pthread_mutex_lock(&w->mu);
    const int ok = !busy_locked(w) && !w->quit;
    if (ok) {
        free(w->sass_view);
        w->sass_view = copy;
        snprintf(w->sass_file, sizeof w->sass_file, "%s", file);
        snprintf(w->sass_user, sizeof w->sass_user, "%s", o->user_file ? o->user_file : "");
        w->sass_owner = (rs_stall_owner){o->variant, o->user_file ? w->sass_user : NULL};
        w->sass_line = line;
        w->sass_tag = tag;
        w->kind = UI_JOB_SASS;
        w->cancel = 0;
        w->has_job = w->busy = 1;
        snprintf(w->what, sizeof w->what, "nvdisasm");
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    if (!ok) free(copy);
    return ok;
}

int ui_worker_idle(ui_worker *w)
{
    pthread_mutex_lock(&w->mu);
    const int idle = !busy_locked(w);
    pthread_mutex_unlock(&w->mu);
    return idle;
}

void ui_worker_cancel(ui_worker *w)
{
    pthread_mutex_lock(&w->mu);
    w->cancel = 1;
    pthread_mutex_unlock(&w->mu);
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
    const pthread_t thread = w->thread;
    if (pthread_timedjoin_np(thread, NULL, &until) != 0) {
        /* still inside CUDA: it frees itself when it comes out, unless it just did */
        pthread_mutex_lock(&w->mu);
        const int exited = w->exited;
        w->abandoned = !exited;
        pthread_mutex_unlock(&w->mu);
        if (!exited) {
            pthread_detach(thread);
            return 0;
        }
        pthread_join(thread, NULL);
    }
    free_worker(w);
    return 1;
}
