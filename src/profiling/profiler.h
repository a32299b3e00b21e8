/* Hardware counters through CUPTI's Range Profiler, behind one interface.
 *
 * The engine hands over a function that runs the reduction once; the
 * profiler brackets it (auto range, kernel replay: every launch is one range,
 * replayed as many passes as the metric set needs) and returns per-launch and
 * total values. Timing runs never go through here.
 */
#ifndef RS_PROFILER_H
#define RS_PROFILER_H

#include <stddef.h>

#include "../core/error.h"
#include "../core/result.h"
#include "../core/metric_table.h"

typedef struct rs_prof rs_prof;

/* Runs the reduction once; returns RS_OK or fills err. */
typedef rs_status (*rs_prof_body)(void *ctx, rs_error *err);

/* Set up for a device whose CUDA context is current (device >= 0), or for
 * the host API only (device < 0: names and pass counts for `chip`, which may
 * be NULL for "GH100"). Never fails for lack of counters: that is reported by
 * rs_prof_available and in every result. */
rs_status rs_prof_init(rs_prof **out, int device, const char *chip, rs_error *err);

/* 1 when counters can be collected; otherwise why not, in words. */
int rs_prof_available(const rs_prof *p, char *why, size_t len);

/* Replay passes a metric set costs on this chip (host API; no GPU needed).
 * Metrics the chip lacks are left out; *missing gets them. */
rs_status rs_prof_passes(rs_prof *p, rs_metric_mask m, int *passes, rs_metric_mask *missing,
                         rs_error *err);

/* Collect metric set m over one run of body: launches->at[k] holds the
 * k-th launch's values (the caller names them and keeps them into out).
 * On failure out->reason says why and RS_OK is still returned unless the
 * reduction itself failed: missing counters never stop a run. */
rs_status rs_prof_collect(rs_prof *p, rs_metric_mask m, rs_prof_body body, void *ctx,
                          rs_metrics *out, rs_launches *launches, rs_error *err);

/* End the range profiler kept enabled between collections (PC sampling
 * finds no PCs while it is on); the next collection enables it again. */
void rs_prof_release(rs_prof *p);

void rs_prof_shutdown(rs_prof *p);

#endif
