/* A source answers requests with results: the live GPU engine, or a
 * recording of one. Views and the runner see only this table of functions,
 * never which source they have. Later sources (kernels compiled at run time,
 * several GPUs) are new implementations of the same table. */
#ifndef RS_SOURCE_H
#define RS_SOURCE_H

#include "error.h"
#include "request.h"
#include "result.h"

typedef struct rs_hooks {
    /* Called after each repetition with the share done (0..1). */
    void (*progress)(void *ctx, double done);
    void *ctx;
    /* Set non-zero (from any thread) to stop between launches. */
    const volatile int *cancel;
    /* Called when a run enters a stage: RS_STAGE_TIMING as its kernels
     * start, then what follows ("reading counters"). */
    void (*stage)(void *ctx, const char *what);
} rs_hooks;
#define RS_STAGE_TIMING "timing"
/* Commands a live GPU source answers with counters alone, no timed run:
 * the one-pass set, or the rest (the runner's counters_last). */
#define RS_COMMAND_COUNTERS_ONE  "counters:one"
#define RS_COMMAND_COUNTERS_MORE "counters:more"
/* A device's facts (request.device), no run: out->device, and the devices
 * here in out->multi.gpus; MEASURE adds the streaming-read limit and
 * timing's floors (a run of their own on that device). */
#define RS_COMMAND_DEVICE         "device"
#define RS_COMMAND_DEVICE_MEASURE "device:measure"
/* One all-reduce size of one algorithm (request.ar): out->ar, with the
 * GPUs and their links in out->multi and the first GPU in out->device. */
#define RS_COMMAND_ALLREDUCE "allreduce"

typedef struct rs_source rs_source;
struct rs_source {
    const char *kind; /* "gpu" or "recording", for messages */
    void *self;
    /* The device results come from (a recording's: as recorded). */
    const rs_device_info *(*device)(rs_source *s);
    /* Ready to answer: with need_gpu, a usable GPU (and its measured peak);
     * a recording is always ready. */
    rs_status (*prepare)(rs_source *s, int need_gpu, rs_error *err);
    /* One request into one result, as `command` ("run", "ladder", "sweep")
     * would; a recording answers with what it holds or RS_E_USAGE. */
    rs_status (*run)(rs_source *s, const rs_request *r, const char *command, const rs_hooks *hooks,
                     rs_result *out, rs_error *err);
    void (*close)(rs_source *s);
};

/* A recording as a source: formats/source_recording.h; an all-reduce's
 * recording: formats/source_allreduce.h. The live GPU engine in this
 * process: engine/engine.h (the GPU process below serves through it). */

/* What the explorer's header shows of a GPU besides its device facts. */
typedef struct rs_gpu_facts {
    int counters_ok;
    char counters_why[240];
    int passes_default, passes_full; /* what each counter set costs */
    rs_status peak_status;
    double peak_gbps; /* measured streaming-read bandwidth */
    int gpu_count;    /* GPUs a run may span (rs_gpu_count) */
    char links[160];  /* how they are linked (several only) */
    /* the passes each counter costs alone, -1 where it cannot be read
     * (RS_CHILD_METRICS; else zeros) */
    int metric_passes[RS_METRIC_COUNT];
} rs_gpu_facts;

/* The GPU engine in a child process (src/engine/source_child.c): a kernel
 * fault ends the child, and the next run starts a fresh one. prepare()
 * starts it; its facts are read once per child, and asked for only where
 * they are shown (RS_CHILD_FACTS: the explorer), since finding them starts the
 * profiler (a fifth of a second that a run without counters need not wait). */
enum {
    RS_CHILD_FACTS = 1,    /* find the counter facts at start (the explorer) */
    RS_CHILD_COUNTERS = 2, /* runs will read counters: load CUPTI while CUDA starts */
    RS_CHILD_METRICS = 4,  /* the facts with each counter's passes (redscope metrics) */
    RS_CHILD_BARE = 8      /* no engine and no context of its own: devices and the
                              all-reduce alone (RS_COMMAND_DEVICE, _ALLREDUCE) */
};
rs_status rs_source_child_open(int device, int wants, rs_source **out, rs_error *err);
/* The child's side: `redscope RS_GPU_PROCESS_ARG DEVICE FD_IN FD_OUT WANTS`
 * (WANTS: the RS_CHILD_* bits in decimal) serves runs until FD_IN closes;
 * its exit status. */
#define RS_GPU_PROCESS_ARG "--gpu-process"
int rs_source_child_serve(int device, int down, int up, int wants);
int rs_source_child_wants(const char *arg);
const rs_gpu_facts *rs_source_child_facts(rs_source *s);
/* The child ended and waited for (at most a second or two): its GPUs and
 * their memory free for another program (nccl-tests). Any other source:
 * nothing. */
void rs_source_child_end(rs_source *s);

void rs_source_close(rs_source *s);

#endif
