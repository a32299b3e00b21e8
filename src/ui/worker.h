/* The explorer's worker thread: it alone calls the engine (CUDA, CUPTI) or
 * reads the recording, and hands rows back through a small event queue, so
 * the screen never waits for the GPU. */
#ifndef UI_WORKER_H
#define UI_WORKER_H

#include "formats/check.h"
#include "formats/export.h"
#include "formats/record.h"
#include "core/sweep_range.h"
#include "nvtools/sass_view.h"

#define UI_SASS_MAX 96 /* instructions the SASS panel holds */

/* UI_JOB_COMPILE: the kernel file of base compiled, not run (a replay, or
 * no GPU): one row, its status and build facts, or the compiler's error. */
/* UI_JOB_SASS: one line's instructions from nvdisasm (the Source screen's
 * s), off the screen's thread. */
typedef enum {
    UI_JOB_RUN,
    UI_JOB_LADDER,
    UI_JOB_SWEEP,
    UI_JOB_CHECK,
    UI_JOB_COMPILE,
    UI_JOB_SASS
} ui_job_kind;

typedef enum {
    UI_EV_OPENED, /* engine ready (or why not); dev, counters */
    UI_EV_PEAK,   /* measured streaming-read bandwidth */
    UI_EV_ROW,    /* one row of the job: index (variant, ladder row or size) and index2 */
    UI_EV_DONE,   /* the job ended: status, msg */
    UI_EV_CHECK,  /* a --check finished: index (variant), check */
    UI_EV_SASS,   /* a line's SASS: index (the request's tag), nsass and insn, or msg */
} ui_event_kind;

/* One event: what every kind has, then its kind's own part. A part on
 * the heap belongs to the event: ui_event_release frees it once taken. */
typedef struct ui_event {
    ui_event_kind kind;
    ui_job_kind job;
    int index, index2;
    rs_status status;
    char msg[512];
    union {
        rs_row *row; /* UI_EV_ROW */
        struct {     /* UI_EV_OPENED, _PEAK */
            rs_device_info dev;
            /* the counters, their sets' passes, the measured limit, the
             * GPUs and their links (a recording: "recorded", its rows'
             * most GPUs) */
            rs_gpu_facts facts;
        };
        rs_check_report *check; /* UI_EV_CHECK (NULL: none ran) */
        struct {                /* UI_EV_SASS */
            int nsass;          /* instructions, or -1 with msg saying why none */
            rs_sass_insn *insn;
        };
    };
} ui_event;

/* Free what the event holds on the heap (its row, check or instructions). */
void ui_event_release(ui_event *ev);

typedef struct ui_worker ui_worker;

/* Live on CUDA device `device`, runs spanning `gpus` (1: its GPU process
 * sees that GPU alone until a run spans more), or replaying `rec` (kept by
 * the caller). */
ui_worker *ui_worker_start(int device, unsigned gpus, const rs_recording *rec);

/* Queue a job; 0 unless ui_worker_idle. For UI_JOB_RUN vars[0] is
 * the variant; for a sweep, sizes gives n. */
int ui_worker_submit(ui_worker *w, ui_job_kind kind, const rs_request *base, const rs_variant *vars,
                     int nvar, const rs_sweep_sizes *sizes);

/* Queue a check of base's variant under compute-sanitizer (a child
 * process); 0 unless ui_worker_idle. */
int ui_worker_submit_check(ui_worker *w, const rs_request *base, rs_check_kind kind);

/* Queue the instructions of s's kernel on file:line (the step o's rule),
 * answered by a UI_EV_SASS with index tag; 0 unless ui_worker_idle. */
int ui_worker_submit_sass(ui_worker *w, const rs_stalls *s, const char *file, unsigned line,
                          const rs_stall_owner *o, int tag);

/* Stop the running job between launches. */
void ui_worker_cancel(ui_worker *w);

/* 1 while a job runs; progress 0..1 and what it is doing. */
int ui_worker_busy(ui_worker *w, double *progress, char *what, size_t len);

/* 1 when a job may be submitted: none runs or waits, and the screen has
 * taken every event of the last one. */
int ui_worker_idle(ui_worker *w);

/* Take the next event; 0 when there is none. */
int ui_worker_poll(ui_worker *w, ui_event *ev);

/* A descriptor that turns readable when an event is posted (-1: none), so
 * the screen shows a result at once rather than at its next tick; drained
 * before the screen waits again. */
int ui_worker_wake_fd(const ui_worker *w);
void ui_worker_drain_wake(ui_worker *w);

/* Cancel, and wait up to timeout_s for the thread; 1 when it ended. 0: it
 * is still inside a call that cannot be cancelled (CUDA starting, say); it
 * ends and frees itself when that returns, and w must not be used again. */
int ui_worker_stop(ui_worker *w, double timeout_s);

#endif
