/* The live source: the GPU engine behind the source table, and what it
 * answers besides runs: a device's facts (RS_ASK_DEVICE) and the
 * all-reduce (RS_ASK_ALLREDUCE). A bare source has no engine, and so no
 * context of its own: it answers those two alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "engine/allreduce.h"
#include "engine/engine.h"
#include "engine/topology.h"
#include "core/catalogue.h"
#include "core/source.h"

typedef struct gpu_source {
    rs_source base;
    rs_engine *e; /* NULL: bare */
    rs_ar_session *ar;
    int peak_done;
} gpu_source;

static const rs_device_info *gpu_device(rs_source *s)
{
    static const rs_device_info none = {.index = -1};
    const gpu_source *g = s->self;
    return g->e ? rs_engine_device(g->e) : &none;
}

static rs_status gpu_prepare(rs_source *s, int need_gpu, rs_error *err)
{
    gpu_source *g = s->self;
    if (!need_gpu || !g->e) return RS_OK;
    const rs_status st = rs_engine_gpu(g->e, err);
    if (st != RS_OK || g->peak_done) return st;
    double gbps;
    rs_error ignored;
    rs_engine_measure_peak(g->e, &gbps, &ignored); /* for "% of measured"; optional */
    g->peak_done = 1;
    return RS_OK;
}

/* Device r->device's facts; with `measure`, its streaming-read limit and
 * timing's floors, measured in an engine of its own. out->multi.gpus: the
 * devices here. */
static rs_status device_facts(const rs_request *r, int measure, rs_result *out, rs_error *err)
{
    rs_device_info devs[64];
    int count = 0;
    memset(out, 0, sizeof *out);
    out->req = *r;
    rs_status st = rs_devices_list(devs, 64, &count, err);
    if (st != RS_OK) return st;
    out->multi.gpus = count;
    if ((int)r->device >= count)
        return rs_fail(err, RS_E_NODEVICE, "device %u does not exist: %d CUDA device%s", r->device,
                       count, count == 1 ? "" : "s");
    out->device = devs[r->device];
    rs_engine *e = NULL;
    double gbps = 0;
    if (measure && (st = rs_engine_open(&e, (int)r->device, err)) == RS_OK &&
        (st = rs_engine_measure_peak(e, &gbps, err)) == RS_OK) {
        const rs_device_info *m = rs_engine_device(e);
        out->device.measured_gbps = gbps;
        out->device.l2_gbps = m->l2_gbps;
        out->device.floor_empty_us = m->floor_empty_us;
        out->device.floor_launch_us = m->floor_launch_us;
    }
    rs_engine_close(e);
    return st;
}

/* One all-reduce point: the job asked, with the point's algorithm. */
static rs_status allreduce(gpu_source *g, const rs_request *r, const rs_ask *ask, rs_result *out,
                           rs_error *err)
{
    if (!g->ar && !(g->ar = rs_ar_session_new()))
        return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_ar_job job = {r->ar_algo, 0, 0, ""};
    if (ask->job) job = *ask->job, job.algo = r->ar_algo;
    return rs_ar_session_run(g->ar, r, &job, out, err);
}

static rs_status gpu_run(rs_source *s, const rs_request *r, const rs_ask *ask, rs_result *out,
                         rs_error *err)
{
    gpu_source *g = s->self;
    rs_engine *e = g->e;
    const rs_hooks *hooks = ask->hooks;
    rs_status st;
    switch (ask->kind) {
    case RS_ASK_DEVICE:
    case RS_ASK_DEVICE_MEASURE:
        return device_facts(r, ask->kind == RS_ASK_DEVICE_MEASURE, out, err);
    case RS_ASK_ALLREDUCE: return allreduce(g, r, ask, out, err);
    case RS_ASK_RUN:
    case RS_ASK_COUNTERS_ONE:
    case RS_ASK_COUNTERS_MORE: break;
    default: return rs_fail(err, RS_E_USAGE, "the GPU source does not answer this");
    }
    if (!e) return rs_fail(err, RS_E_USAGE, "a bare GPU source runs no reduction");
    if (ask->kind == RS_ASK_COUNTERS_ONE)
        st = rs_engine_run_counters(e, r, RS_COUNTERS_ONE, hooks, out, err);
    else if (ask->kind == RS_ASK_COUNTERS_MORE)
        st = rs_engine_run_counters(e, r, RS_COUNTERS_MORE, hooks, out, err);
    else
        st = rs_engine_run(e, r, hooks, out, err);
    if (st != RS_E_CUDA || r->variant != RS_V_KERNEL) return st;
    char why[sizeof err->msg];
    snprintf(why, sizeof why, "%s", err->msg);
    /* a fault or a trap spoils the context: the kernel's own exit status and
     * its name; another CUDA error (too many registers for the blockDim, a
     * module that does not load) stays one, named */
    if (rs_engine_broken(e))
        st = rs_fail(err, RS_E_KERNEL, "%s (kernel %s): %s (--check memory names the line)",
                     rs_request_name(r), out->uk.entry[0] ? out->uk.entry : "?", why);
    else
        st = rs_fail(err, RS_E_CUDA, "%s: %s", rs_request_name(r), why);
    return st;
}

static void gpu_close(rs_source *s)
{
    gpu_source *g = s->self;
    rs_ar_session_free(g->ar);
    rs_engine_close(g->e);
    free(g);
}

rs_status rs_source_gpu_open(int device, rs_source **out, rs_error *err)
{
    *out = NULL;
    gpu_source *g = calloc(1, sizeof *g);
    if (!g) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    const rs_status st = rs_engine_open(&g->e, device, err);
    if (st != RS_OK) {
        free(g);
        return st;
    }
    g->base = (rs_source){"gpu", g, gpu_device, gpu_prepare, gpu_run, gpu_close};
    *out = &g->base;
    return RS_OK;
}

rs_status rs_source_gpu_open_bare(rs_source **out, rs_error *err)
{
    *out = NULL;
    gpu_source *g = calloc(1, sizeof *g);
    if (!g) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    g->base = (rs_source){"gpu", g, gpu_device, gpu_prepare, gpu_run, gpu_close};
    *out = &g->base;
    return RS_OK;
}

int rs_source_gpu_broken(rs_source *s)
{
    const gpu_source *g = s && s->close == gpu_close ? s->self : NULL;
    return g && ((g->e && rs_engine_broken(g->e)) || rs_ar_session_broken(g->ar));
}

rs_engine *rs_source_engine(rs_source *s)
{
    return s && s->close == gpu_close ? ((gpu_source *)s->self)->e : NULL;
}

void rs_source_gpu_facts(rs_source *s, int each, rs_gpu_facts *out)
{
    memset(out, 0, sizeof *out);
    rs_engine *e = rs_source_engine(s);
    if (!e) return;
    rs_error err;
    out->counters_ok = rs_engine_counters_available(e, out->counters_why, sizeof out->counters_why);
    rs_engine_metric_passes(e, rs_metric_set_default(), &out->passes_default, NULL, &err);
    rs_engine_metric_passes(e, rs_metric_set_full(), &out->passes_full, NULL, &err);
    for (int i = 0; each && i < RS_METRIC_COUNT; i++) {
        rs_metric_mask missing = 0;
        out->metric_passes[i] = -1;
        if (rs_engine_metric_passes(e, RS_METRIC_BIT(i), &out->metric_passes[i], &missing, &err) !=
                RS_OK ||
            (missing & RS_METRIC_BIT(i)))
            out->metric_passes[i] = -1;
    }
    out->peak_status = rs_engine_measure_peak(e, &out->peak_gbps, &err);
    rs_gpu_count(&out->gpu_count);
    if (out->gpu_count > 1)
        rs_topology_describe(out->gpu_count < RS_GPUS_MAX ? out->gpu_count : RS_GPUS_MAX,
                             out->links, sizeof out->links);
}
