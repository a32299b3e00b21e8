/* The engine: runs one request on the GPU (or the CPU), checks and times it,
 * and reads hardware counters when asked. Views never call CUDA; they call
 * this and read rs_result. */
#ifndef RS_ENGINE_H
#define RS_ENGINE_H

#include <stddef.h>

#include "core/error.h"
#include "core/request.h"
#include "core/result.h"
#include "core/source.h"

typedef struct rs_engine rs_engine;

/* rs_hooks: see source.h */

/* Create an engine for CUDA device `device`. Only running out of host memory
 * fails here: without a usable GPU the engine still runs the cpu variant,
 * and rs_engine_gpu says why the GPU cannot be used. */
rs_status rs_engine_open(rs_engine **out, int device, rs_error *err);
void rs_engine_close(rs_engine *e);

/* RS_OK when the GPU is usable; otherwise err holds the reason. */
rs_status rs_engine_gpu(const rs_engine *e, rs_error *err);

const rs_device_info *rs_engine_device(const rs_engine *e);
/* The GPU is known by another number than CUDA's here: a GPU process that
 * sees one GPU alone (visible.h) shows the number the user gave it. */
void rs_engine_show_as(rs_engine *e, int index);

/* Streaming-read bandwidth of the device, measured once per engine. */
rs_status rs_engine_measure_peak(rs_engine *e, double *gbps, rs_error *err);

/* 1 when hardware counters can be read here; otherwise why not. */
int rs_engine_counters_available(rs_engine *e, char *why, size_t len);

/* Replay passes a metric set costs on this GPU (or on GH100 without one). */
rs_status rs_engine_metric_passes(rs_engine *e, rs_metric_mask m, int *passes,
                                  rs_metric_mask *missing, rs_error *err);

/* Run one request. RS_OK means it ran: res->correct says whether the result
 * matched. Refused configurations, missing GPU, CUDA failures and
 * cancellation return their status with err filled. */
rs_status rs_engine_run(rs_engine *e, const rs_request *req, const rs_hooks *hooks, rs_result *res,
                        rs_error *err);

/* Counters alone, no timed run: the one-pass set (DRAM, shared memory,
 * instructions), the rest, or both, as rs_engine_run reads them. A list
 * reads every row's timings first and then their counters part by part
 * (core/runner.h): the range profiler stays enabled between collections of
 * one set (0.15 s each to enable) and never beside a timed run. */
typedef enum { RS_COUNTERS_ALL, RS_COUNTERS_ONE, RS_COUNTERS_MORE } rs_counters_part;
rs_status rs_engine_run_counters(rs_engine *e, const rs_request *req, rs_counters_part part,
                                 const rs_hooks *hooks, rs_result *res, rs_error *err);

/* All CUDA devices (no context is created for this). */
rs_status rs_devices_list(rs_device_info *out, int max, int *count, rs_error *err);

/* A kernel fault spoiled the context: the process can no longer use CUDA. */
int rs_engine_broken(const rs_engine *e);

/* The live GPU engine as a source, in this process (source_gpu.c): the GPU
 * process (source_child.c) serves through it. A bare one has no engine
 * and no context of its own: devices and the all-reduce alone. */
rs_status rs_source_gpu_open(int device, rs_source **out, rs_error *err);
rs_status rs_source_gpu_open_bare(rs_source **out, rs_error *err);
rs_engine *rs_source_engine(rs_source *s);
/* A fault spoiled a context of the source: its process can no longer use CUDA. */
int rs_source_gpu_broken(rs_source *s);
/* The facts the explorer's header shows (zeros for a bare source); with
 * `each`, what every counter costs alone. */
void rs_source_gpu_facts(rs_source *s, int each, rs_gpu_facts *out);

#endif
