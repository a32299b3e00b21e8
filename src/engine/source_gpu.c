/* The live source: the GPU engine behind the source table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "engine/engine.h"
#include "engine/topology.h"
#include "core/catalogue.h"
#include "core/source.h"

typedef struct gpu_source {
    rs_source base;
    rs_engine *e;
    int peak_done;
} gpu_source;

static const rs_device_info *gpu_device(rs_source *s)
{
    return rs_engine_device(((gpu_source *)s->self)->e);
}

static rs_status gpu_prepare(rs_source *s, int need_gpu, rs_error *err)
{
    gpu_source *g = s->self;
    if (!need_gpu) return RS_OK;
    const rs_status st = rs_engine_gpu(g->e, err);
    if (st != RS_OK || g->peak_done) return st;
    double gbps;
    rs_error ignored;
    rs_engine_measure_peak(g->e, &gbps, &ignored); /* for "% of measured"; optional */
    g->peak_done = 1;
    return RS_OK;
}

static rs_status gpu_run(rs_source *s, const rs_request *r, const char *command,
                         const rs_hooks *hooks, rs_result *out, rs_error *err)
{
    rs_engine *e = ((gpu_source *)s->self)->e;
    rs_status st;
    if (strcmp(command, RS_COMMAND_COUNTERS_ONE) == 0)
        st = rs_engine_run_counters(e, r, RS_COUNTERS_ONE, hooks, out, err);
    else if (strcmp(command, RS_COMMAND_COUNTERS_MORE) == 0)
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

rs_engine *rs_source_engine(rs_source *s)
{
    return s && s->close == gpu_close ? ((gpu_source *)s->self)->e : NULL;
}

void rs_source_gpu_facts(rs_source *s, rs_gpu_facts *out)
{
    memset(out, 0, sizeof *out);
    rs_engine *e = rs_source_engine(s);
    if (!e) return;
    rs_error err;
    out->counters_ok = rs_engine_counters_available(e, out->counters_why, sizeof out->counters_why);
    rs_engine_metric_passes(e, rs_metric_set_default(), &out->passes_default, NULL, &err);
    rs_engine_metric_passes(e, rs_metric_set_full(), &out->passes_full, NULL, &err);
    out->peak_status = rs_engine_measure_peak(e, &out->peak_gbps, &err);
    rs_gpu_count(&out->gpu_count);
    if (out->gpu_count > 1)
        rs_topology_describe(out->gpu_count < RS_GPUS_MAX ? out->gpu_count : RS_GPUS_MAX,
                             out->links, sizeof out->links);
}
