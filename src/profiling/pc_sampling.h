/* CUPTI's PC sampling around a body of launches (its own profiled run,
 * never a timed one): every sampled PC of the body's kernels with its
 * samples by stall reason, handed to a sink one (PC, reason) at a time.
 * The order of calls is the one docs/cupti.md records as working on CUPTI
 * 13: enable, then ask for the stall reasons, configure, start, run, stop,
 * read the configured buffer, then what remains; the session stays enabled
 * for the next collection (rs_pcs_end disables it). */
#ifndef RS_PC_SAMPLING_H
#define RS_PC_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "profiler.h"

/* One PC's samples of one reason (CUPTI's name, e.g.
 * smsp__pcsamp_warps_issue_stalled_long_scoreboard). function is the
 * kernel's name in its cubin (mangled). */
typedef void (*rs_pcs_sink)(void *ctx, const char *function, uint64_t pc_offset, const char *reason,
                            uint64_t samples);

typedef struct rs_pcs_totals {
    uint64_t total;   /* samples the hardware took, dropped ones included */
    uint64_t dropped; /* lost to a full buffer */
    uint64_t pcs;     /* PC records read */
    int period;       /* the period used: a sample every 2^(5 + period) cycles */
    int buffer_full;  /* the hardware buffer filled up */
} rs_pcs_totals;

/* The shortest period that takes samples as Nsight Compute does: at 7 and
 * 8 the hardware loses some without saying so, the loads' share the most
 * (a tree step's load line 4-9 points low at 7; docs/results.md). */
#define RS_PCS_PERIOD_MIN 9
#define RS_PCS_RUNS_MAX   32 /* body runs in one collection, at most */

/* The period (RS_PCS_PERIOD_MIN..31) that samples a kernel body of `ms`
 * milliseconds on `sms` SMs at `clock_khz` about `target` times (10 for a
 * value that is not a number, zero or negative). */
int rs_pcs_period(double ms, int sms, int clock_khz, double target);

/* How many runs of that body (1..RS_PCS_RUNS_MAX) one collection at
 * `period` needs for `least` samples: a short kernel at the shortest
 * period gives a few thousand a run (1 for input that is no number). */
int rs_pcs_runs(double ms, int sms, int clock_khz, int period, double least);

/* What a failed CUPTI call (its CUptiResult) during `what` means for a user:
 * no permission, not supported, a virtualized GPU, another profiler, or
 * CUPTI's own words. */
void rs_pcs_explain(int result, const char *what, char *why, size_t len);

/* Sample body's launches on the current device at `period`. RS_OK with
 * *why empty when samples came back; RS_OK with *why saying what stood in
 * the way (no CUPTI, not supported, no permission, another profiler) when
 * none could be taken; the body's own status when it failed. */
rs_status rs_pcs_collect(int period, rs_prof_body body, void *body_ctx, rs_pcs_sink sink,
                         void *sink_ctx, rs_pcs_totals *out, char *why, size_t why_len,
                         rs_error *err);

/* End this process's sampling session (it is kept from the first
 * collection on). */
void rs_pcs_end(void);

#endif
