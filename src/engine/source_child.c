/* The GPU source in a child process. A kernel fault leaves CUDA's context
 * unusable for the rest of the process (CUDA's own rule for sticky errors),
 * so the engine runs in a child: a fault ends the child, and the next run
 * starts a fresh one. Requests go down a pipe, progress, stages and results
 * come back up another; a cancel is SIGUSR1. Both ends are this binary, so
 * the plain structs travel as bytes. */
#define _GNU_SOURCE /* prctl */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/catalogue.h"
#include "core/metric_table.h"
#include "profiling/cupti_lib.h"
#include "core/source.h"
#include "core/trace.h"
#include "engine/engine.h"
#include "formats/files.h"
#include "engine/gpu_process.h"
#include "engine/visible.h"

enum { MSG_OPENED = 1, MSG_PROGRESS, MSG_STAGE, MSG_RESULT, MSG_RUN };

typedef struct msg {
    int type;
    int broken; /* MSG_RESULT: the context is gone, the child ends */
    rs_status status;
    double done;
    char text[sizeof(((rs_error *)0)->msg)];
} msg;

typedef struct child_source {
    rs_source base;
    int device;
    pid_t pid;
    int down, up; /* to the child, from the child */
    rs_status open_status;
    char open_msg[sizeof(((rs_error *)0)->msg)];
    rs_gpu_facts facts;
    rs_device_info dev;
    int started;  /* children started so far */
    int wants;    /* RS_CHILD_FACTS, RS_CHILD_COUNTERS */
    int profiled; /* this child has had a range-profiler session (see child_run) */
    int no_facts; /* start the next child without its facts (kept from before) */
    int one;      /* this child sees its GPU alone (RS_CHILD_ONE, visible.h) */
    int wide;     /* a run spanned several GPUs: every child sees them all */
} child_source;

/* What goes down the pipe after a request: the ask, its pointers as values. */
typedef struct wire_ask {
    rs_ask_kind kind;
    char command[16]; /* "" for none */
    int has_job;
    rs_ar_job job;
} wire_ask;

/* A result up the pipe: its bytes, then its kept parts (a pointer means
 * nothing in the other process): the launches' counters, the GPUs'
 * shares, and whether a stall view follows and the view. */
static int put_result(int fd, const rs_result *res)
{
    const int has = res->stalls != NULL;
    const int nl = res->metrics.launch ? res->metrics.nlaunch : 0;
    const int ng = res->multi.share ? res->multi.gpus : 0;
    return rs_fd_put(fd, res, sizeof *res) || rs_fd_put(fd, &nl, sizeof nl) ||
           (nl && rs_fd_put(fd, res->metrics.launch, sizeof *res->metrics.launch * (size_t)nl)) ||
           rs_fd_put(fd, &ng, sizeof ng) ||
           (ng && rs_fd_put(fd, res->multi.share, sizeof *res->multi.share * (size_t)ng)) ||
           rs_fd_put(fd, &has, sizeof has) ||
           (has && rs_fd_put(fd, res->stalls, sizeof *res->stalls));
}

/* n (at most max) things of size bytes from the pipe, kept (rs_keep). */
static int get_kept(int fd, int n, int max, size_t size, const void **out)
{
    *out = NULL;
    if (n < 0 || n > max) return -1;
    if (!n) return 0;
    void *tmp = malloc(size * (size_t)n);
    const int bad = !tmp || rs_fd_get(fd, tmp, size * (size_t)n, 0);
    if (!bad) *out = rs_keep(tmp, size * (size_t)n);
    free(tmp);
    return bad || !*out ? -1 : 0;
}

/* The parent's side of put_result: the parts kept (rs_keep, rs_stalls_keep). */
static int get_result(int fd, rs_result *out)
{
    int has = 0, nl = 0, ng = 0;
    const void *launch = NULL, *share = NULL;
    const int bad_read = rs_fd_get(fd, out, sizeof *out, 0) || rs_fd_get(fd, &nl, sizeof nl, 0) ||
                         get_kept(fd, nl, RS_MAX_LAUNCHES, sizeof(rs_launch_metrics), &launch) ||
                         rs_fd_get(fd, &ng, sizeof ng, 0) ||
                         get_kept(fd, ng, RS_GPUS_MAX, sizeof(rs_gpu_share), &share) ||
                         rs_fd_get(fd, &has, sizeof has, 0);
    /* the child's pointers, or bytes left of them: never this process's */
    out->stalls = NULL;
    out->metrics.launch = launch;
    out->metrics.nlaunch = launch ? nl : 0;
    out->multi.share = share;
    if (bad_read) return -1;
    if (!has) return 0;
    rs_stalls *view = malloc(sizeof *view);
    const int bad = !view || rs_fd_get(fd, view, sizeof *view, 0);
    if (!bad) out->stalls = rs_stalls_keep(view);
    free(view);
    return bad || !out->stalls ? -1 : 0;
}

/* ---- the child ------------------------------------------------------------------- */

static volatile int child_cancel;
static int child_up = -1;

static void on_usr1(int sig)
{
    (void)sig;
    child_cancel = 1;
}

static void child_progress(void *ctx, double done)
{
    (void)ctx;
    msg m = {MSG_PROGRESS, 0, RS_OK, done, ""};
    rs_fd_put(child_up, &m, sizeof m);
}

static void child_stage(void *ctx, const char *what)
{
    (void)ctx;
    msg m = {MSG_STAGE, 0, RS_OK, 0.0, ""};
    snprintf(m.text, sizeof m.text, "%s", what);
    rs_fd_put(child_up, &m, sizeof m);
}

int rs_source_child_wants(const char *arg)
{
    char *end = NULL;
    const long w = strtol(arg, &end, 10);
    return end && end != arg && !*end && w >= 0 && w < 32 ? (int)w : 0;
}

static void *load_cupti(void *arg)
{
    (void)arg;
    rs_cupti_lib(NULL);
    return NULL;
}

/* The engine for device, ready (its limit measured), and its facts when
 * asked for; a bare source (RS_CHILD_BARE) has neither. */
static rs_status open_gpu(int device, int wants, rs_source **g, rs_gpu_facts *facts, rs_error *err)
{
    memset(facts, 0, sizeof *facts);
    if (wants & RS_CHILD_BARE) return rs_source_gpu_open_bare(g, err);
    /* alone, the GPU is CUDA's device 0, and shown as the one asked for */
    rs_status st = rs_source_gpu_open(wants & RS_CHILD_ONE ? 0 : device, g, err);
    if (st == RS_OK && (wants & RS_CHILD_ONE)) rs_engine_show_as(rs_source_engine(*g), device);
    rs_trace("gpu process: CUDA context");
    if (st == RS_OK) st = (*g)->prepare(*g, 1, err);
    rs_trace("gpu process: streaming-read limit measured");
    if (wants & RS_CHILD_FACTS) {
        rs_source_gpu_facts(*g, (wants & RS_CHILD_METRICS) != 0, facts);
        rs_trace("gpu process: counter facts (profiler, passes of the metric sets)");
    }
    return st;
}

/* Open the GPU, say what it is, then answer runs until the pipe closes or
 * a fault spoils the context. Runs that will read counters have CUPTI
 * loaded on a thread while the context is made. */
int rs_source_child_serve(int device, int down, int up, int wants)
{
    pthread_t loader;
    if ((wants & RS_CHILD_COUNTERS) && pthread_create(&loader, NULL, load_cupti, NULL) == 0)
        pthread_detach(loader);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    child_up = up;
    rs_source *g = NULL;
    rs_error err;
    msg m = {MSG_OPENED, 0, RS_OK, 0.0, ""};
    rs_gpu_facts facts;
    rs_trace("gpu process: started");
    m.status = open_gpu(device, wants, &g, &facts, &err);
    if (m.status != RS_OK) snprintf(m.text, sizeof m.text, "%s", err.msg);
    rs_device_info none;
    memset(&none, 0, sizeof none); /* no engine (no memory for one): the parent still reads one */
    if (rs_fd_put(up, &m, sizeof m) || rs_fd_put(up, &facts, sizeof facts) ||
        rs_fd_put(up, g ? g->device(g) : &none, sizeof(rs_device_info)))
        return 1;
    rs_request req;
    rs_result *res = malloc(sizeof *res);
    wire_ask w;
    while (res && rs_fd_get(down, &req, sizeof req, 0) == 0 &&
           rs_fd_get(down, &w, sizeof w, 0) == 0) {
        child_cancel = 0;
        rs_hooks hooks = {child_progress, NULL, &child_cancel, child_stage};
        w.command[sizeof w.command - 1] = '\0';
        w.job.rendezvous[sizeof w.job.rendezvous - 1] = '\0';
        const rs_ask ask = {w.kind, w.command[0] ? w.command : NULL, w.has_job ? &w.job : NULL,
                            &hooks};
        m = (msg){MSG_RESULT, 0, RS_OK, 0.0, ""};
        memset(res, 0, sizeof *res); /* a run that fails early leaves no old view to send */
        rs_trace("gpu process: run %s", rs_request_name(&req));
        m.status =
            g ? g->run(g, &req, &ask, res, &err) : rs_fail(&err, RS_E_NODEVICE, "no CUDA device");
        rs_trace("gpu process: run done");
        if (m.status != RS_OK) snprintf(m.text, sizeof m.text, "%s", err.msg);
        m.broken = rs_source_gpu_broken(g);
        if (rs_fd_put(up, &m, sizeof m) || put_result(up, res) || m.broken) break;
    }
    free(res);
    rs_source_close(g);
    return 0;
}

/* ---- the parent ------------------------------------------------------------------ */

static void stop_child(child_source *c)
{
    if (c->pid <= 0) return;
    close(c->down);
    close(c->up);
    int status;
    for (int i = 0; i < 100 && waitpid(c->pid, &status, WNOHANG) == 0; i++) {
        if (i == 50) kill(c->pid, SIGKILL); /* 1 s: inside a long kernel */
        usleep(20000);
    }
    if (waitpid(c->pid, &status, WNOHANG) == 0) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
    }
    c->pid = 0;
}

/* The child's environment, made before fork (nothing may allocate between
 * fork and exec): the test-only fault is one fault, so a replacement child
 * runs without it; visible (NULL: as it is) replaces CUDA_VISIBLE_DEVICES. */
static char **child_env(int replacement, const char *visible)
{
    extern char **environ;
    size_t n = 0, k = 0;
    while (environ[n]) n++;
    char **env = malloc(sizeof *env * (n + 2));
    for (size_t i = 0; env && i < n; i++)
        if ((!replacement || strncmp(environ[i], "REDSCOPE_TEST_FAULT=", 20) != 0) &&
            (!visible || strncmp(environ[i], "CUDA_VISIBLE_DEVICES=", 21) != 0))
            env[k++] = environ[i];
    if (env && visible) env[k++] = (char *)visible;
    if (env) env[k] = NULL;
    return env;
}

/* Whether the next child sees its GPU alone: asked (RS_CHILD_ONE), no run
 * has spanned several, and the GPU can be named for certain (visible.c). */
static int child_alone(child_source *c, char *env, size_t len)
{
    char uuid[64], why[160];
    int visible = -1;
    c->one = (c->wants & RS_CHILD_ONE) && !c->wide &&
             rs_visible_one(c->device, uuid, sizeof uuid, &visible, why, sizeof why);
    if (c->one) snprintf(env, len, "CUDA_VISIBLE_DEVICES=%s", uuid);
    rs_trace("gpu process: %s%s", c->one ? "alone, " : "every GPU visible: ",
             c->wants & RS_CHILD_ONE && !c->wide ? why : "asked for");
    return visible;
}

static rs_status start_child(child_source *c, rs_error *err)
{
    int down[2], up[2];
    if (pipe(down) != 0) return rs_fail(err, RS_E_IO, "cannot make a pipe: %s", strerror(errno));
    if (pipe(up) != 0) {
        close(down[0]), close(down[1]);
        return rs_fail(err, RS_E_IO, "cannot make a pipe: %s", strerror(errno));
    }
    /* a fresh process image: no copy of the explorer's heap or threads */
    char exe[4096], dev_arg[16], fd_down[16], fd_up[16], wants[16];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    snprintf(dev_arg, sizeof dev_arg, "%d", c->device);
    snprintf(fd_down, sizeof fd_down, "%d", down[0]);
    snprintf(fd_up, sizeof fd_up, "%d", up[1]);
    /* no_facts: a child that replaces one for sampling keeps the facts it found */
    const int with_facts = (c->wants & RS_CHILD_FACTS) && !c->no_facts;
    char visible[96];
    const int count = child_alone(c, visible, sizeof visible);
    snprintf(wants, sizeof wants, "%d",
             (with_facts ? c->wants : c->wants & ~RS_CHILD_FACTS) & (c->one ? ~0 : ~RS_CHILD_ONE));
    char **env = child_env(c->started, c->one ? visible : NULL);
    const pid_t pid = len > 0 && env ? fork() : -1;
    if (pid < 0) {
        free(env);
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        return rs_fail(err, RS_E_NOMEM, "cannot start the GPU process: %s", strerror(errno));
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive redscope */
        signal(SIGINT, SIG_IGN);          /* the parent decides; kept across exec */
        signal(SIGPIPE, SIG_DFL);
        close(down[1]), close(up[0]);
        char *args[] = {"redscope", RS_GPU_PROCESS_ARG, dev_arg, fd_down, fd_up, wants, NULL};
        execve(exe, args, env); /* only async-signal-safe calls between fork and here */
        _exit(127);
    }
    free(env);
    close(down[0]), close(up[1]);
    c->pid = pid, c->down = down[1], c->up = up[0];
    c->started++;
    msg m;
    rs_device_info dev;
    rs_gpu_facts facts;
    c->profiled = with_facts; /* finding the facts starts the profiler */
    c->no_facts = 0;
    if (rs_fd_get(c->up, &m, sizeof m, 0) || rs_fd_get(c->up, &facts, sizeof facts, 0) ||
        rs_fd_get(c->up, &dev, sizeof dev, 0)) {
        stop_child(c);
        return rs_fail(err, RS_E_CUDA, "the GPU process ended while opening the device");
    }
    if (with_facts) c->facts = facts;
    /* alone, it counted one GPU: a run may span the count CUDA sees here
     * (their links are named once a run spans them) */
    if (with_facts && c->one && count > c->facts.gpu_count) c->facts.gpu_count = count;
    c->base.kind = "gpu";
    c->open_status = m.status;
    snprintf(c->open_msg, sizeof c->open_msg, "%s", m.text);
    c->dev = dev;
    if (m.status != RS_OK) return rs_fail(err, m.status, "%s", m.text);
    return RS_OK;
}

static const rs_device_info *child_device(rs_source *s)
{
    return &((child_source *)s->self)->dev;
}

static rs_status child_prepare(rs_source *s, int need_gpu, rs_error *err)
{
    child_source *c = s->self;
    if (c->pid <= 0) {
        const rs_status st = start_child(c, err);
        if (st != RS_OK && (need_gpu || c->pid <= 0)) return st;
        return RS_OK;
    }
    if (need_gpu && c->open_status != RS_OK) return rs_fail(err, c->open_status, "%s", c->open_msg);
    return RS_OK;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A user kernel that sends no word for its timeout is stuck on the GPU:
 * the child is killed (the GPU with it is freed) and the run reported. */
static rs_status stuck(child_source *c, const rs_request *r, rs_error *err)
{
    stop_child(c);
    return rs_fail(err, RS_E_KERNEL,
                   "%s did not finish within %u s: the GPU process was stopped (an endless "
                   "loop? --timeout sets the limit)",
                   rs_request_name(r), r->timeout);
}

/* Messages until the result; the cancel passed on once as SIGUSR1. A run
 * that never looks at it (grace > 0: the all-reduce, inside NCCL, or a
 * rank waiting at its rendezvous) has its process stopped `grace` seconds
 * after the cancel. */
static rs_status await_result(child_source *c, const rs_request *r, const rs_hooks *h, double grace,
                              rs_result *out, rs_error *err)
{
    int signalled = 0;
    double cancelled_at = 0.0;
    /* a user kernel's time is watched while the timed runs go: from the
     * timing stage, between progress messages; host work (the input,
     * NVRTC, counters) is not a kernel that hangs */
    const double limit = r->variant == RS_V_KERNEL && r->timeout ? r->timeout : 0.0;
    int armed = 0;
    double last = mono_s();
    for (;;) {
        struct pollfd p = {c->up, POLLIN, 0};
        const int ready = poll(&p, 1, 50);
        if (ready == 0 && armed && limit > 0.0 && mono_s() - last > limit) return stuck(c, r, err);
        if (ready > 0) last = mono_s();
        if (!signalled && h && h->cancel && *h->cancel) {
            kill(c->pid, SIGUSR1);
            signalled = 1;
            cancelled_at = mono_s();
        }
        if (signalled && grace > 0.0 && mono_s() - cancelled_at > grace) {
            stop_child(c);
            return rs_fail(err, RS_E_CANCELLED,
                           "cancelled: the GPU process was stopped inside the all-reduce");
        }
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        msg m;
        if (rs_fd_get(c->up, &m, sizeof m, 0)) break;
        if (m.type == MSG_PROGRESS && h && h->progress) h->progress(h->ctx, m.done);
        if (m.type == MSG_STAGE) armed = strcmp(m.text, RS_STAGE_TIMING) == 0;
        if (m.type == MSG_STAGE && h && h->stage) h->stage(h->ctx, m.text);
        if (m.type != MSG_RESULT) continue;
        if (get_result(c->up, out)) break;
        if (m.broken) stop_child(c); /* it is ending: the next run starts another */
        if (m.status != RS_OK) return rs_fail(err, m.status, "%s", m.text);
        return RS_OK;
    }
    stop_child(c);
    return rs_fail(err, RS_E_CUDA,
                   "the GPU process ended during the run; a new one starts with the next run");
}

static rs_status child_run(rs_source *s, const rs_request *r, const rs_ask *ask, rs_result *out,
                           rs_error *err)
{
    child_source *c = s->self;
    int status;
    if (c->pid > 0 && waitpid(c->pid, &status, WNOHANG) == c->pid) { /* after a fault */
        close(c->down);
        close(c->up);
        c->pid = 0;
    }
    /* After a range-profiler session PC sampling's samples come back
     * without PCs (CUDA 13, measured): a run that samples gets a fresh GPU
     * process when this one has read counters. Its facts are kept. A
     * process keeps one sampling session (profiling/pc_sampling.c), so
     * runs that only sample share it. */
    if (r->stalls && c->pid > 0 && c->profiled) {
        stop_child(c);
        c->no_facts = 1;
    }
    /* A run over several GPUs, or an ask about them, needs every GPU seen:
     * from now on every child sees them (a second more to start). */
    if (r->gpus != 1 || (ask->kind != RS_ASK_RUN && ask->kind != RS_ASK_COUNTERS_ONE &&
                         ask->kind != RS_ASK_COUNTERS_MORE)) {
        if (c->pid > 0 && c->one) {
            stop_child(c);
            c->no_facts = 1;
        }
        c->wide = 1;
    }
    if (c->pid <= 0) {
        c->pid = 0;
        const rs_status st = start_child(c, err);
        if (st != RS_OK && c->pid <= 0) return st;
    }
    wire_ask w;
    memset(&w, 0, sizeof w);
    w.kind = ask->kind;
    snprintf(w.command, sizeof w.command, "%s", ask->command ? ask->command : "");
    w.has_job = ask->job != NULL;
    if (ask->job) w.job = *ask->job;
    if (rs_fd_put(c->down, r, sizeof *r) || rs_fd_put(c->down, &w, sizeof w)) {
        stop_child(c);
        return rs_fail(err, RS_E_CUDA,
                       "the GPU process is gone; a new one starts with the next run");
    }
    rs_metric_mask m = 0;
    rs_metric_parse_set(r->metrics, &m, NULL);
    if (m) c->profiled = 1;
    const double grace = ask->kind == RS_ASK_ALLREDUCE ? 2.0 : 0.0;
    return await_result(c, r, ask->hooks, grace, out, err);
}

/* The end: the child sees its pipe close and tears its context down on its
 * own (a tenth of a second), which redscope does not wait for; should
 * redscope exit first, the child's parent-death signal ends it. */
static void child_close(rs_source *s)
{
    child_source *c = s->self;
    if (c->pid > 0) {
        close(c->down);
        close(c->up);
        int status;
        waitpid(c->pid, &status, WNOHANG);
    }
    free(c);
}

rs_status rs_source_child_open(int device, int wants, rs_source **out, rs_error *err)
{
    child_source *c = calloc(1, sizeof *c);
    *out = NULL;
    if (!c) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    c->device = device;
    c->wants = wants;
    c->base = (rs_source){"gpu", c, child_device, child_prepare, child_run, child_close};
    snprintf(c->dev.name, sizeof c->dev.name, "no CUDA device");
    c->dev.index = -1;
    signal(SIGPIPE, SIG_IGN); /* a dead child is an error from write, not a signal */
    *out = &c->base;
    return RS_OK;
}

void rs_source_child_end(rs_source *s)
{
    if (s && s->close == child_close) stop_child(s->self);
}

const rs_gpu_facts *rs_source_child_facts(rs_source *s)
{
    return s && s->close == child_close ? &((child_source *)s->self)->facts : NULL;
}
