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

/* What a source is asked of one request. */
typedef enum rs_ask_kind {
    RS_ASK_RUN, /* a run: its times, and what the request collects besides */
    /* counters alone, no timed run (a live GPU; the runner's counters_last):
     * the one-pass set, then the rest */
    RS_ASK_COUNTERS_ONE,
    RS_ASK_COUNTERS_MORE,
    /* a device's facts (request.device), no run: out->device, and the
     * devices here in out->multi.gpus; MEASURE adds the streaming-read limit
     * and timing's floors (a run of their own on that device) */
    RS_ASK_DEVICE,
    RS_ASK_DEVICE_MEASURE,
    /* one all-reduce size of one algorithm (request.ar_algo, of ask.job):
     * out->ar, the GPUs and their links in out->multi, the first GPU in
     * out->device */
    RS_ASK_ALLREDUCE,
    RS_ASK_COUNT
} rs_ask_kind;

typedef struct rs_ask {
    rs_ask_kind kind;
    /* RS_ASK_RUN: the command the run is for ("run", "ladder", "sweep"), as
     * a recording keeps its rows: those answer first; NULL: any */
    const char *command;
    const rs_ar_job *job;  /* RS_ASK_ALLREDUCE: the processes and rendezvous */
    const rs_hooks *hooks; /* NULL: none */
} rs_ask;

typedef struct rs_source rs_source;
struct rs_source {
    const char *kind; /* "gpu" or "recording", for messages */
    void *self;
    /* The device results come from (a recording's: as recorded). */
    const rs_device_info *(*device)(rs_source *s);
    /* Ready to answer: with need_gpu, a usable GPU (and its measured peak);
     * a recording is always ready. */
    rs_status (*prepare)(rs_source *s, int need_gpu, rs_error *err);
    /* What ask asks of one request into one result; a recording answers
     * with what it holds or RS_E_USAGE. */
    rs_status (*run)(rs_source *s, const rs_request *r, const rs_ask *ask, rs_result *out,
                     rs_error *err);
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

/* The GPU engine in its own process, the source every command and the
 * explorer open for a GPU: engine/gpu_process.h. */

void rs_source_close(rs_source *s);

#endif
