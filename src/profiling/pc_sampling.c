#include "pc_sampling.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_pcsampling.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/trace.h"
#include "cupti_lib.h"

#define PCS_RECORDS 8192 /* PC records per read; what remains is read again */

/* A CUPTI parameter block, zeroed, its size set. */
#define PARAMS_PCS(type, name)                                                                     \
    type name;                                                                                     \
    memset(&name, 0, sizeof name);                                                                 \
    name.size = type##Size

static struct {
    CUptiResult (*enable)(CUpti_PCSamplingEnableParams *);
    CUptiResult (*disable)(CUpti_PCSamplingDisableParams *);
    CUptiResult (*num_reasons)(CUpti_PCSamplingGetNumStallReasonsParams *);
    CUptiResult (*reasons)(CUpti_PCSamplingGetStallReasonsParams *);
    CUptiResult (*configure)(CUpti_PCSamplingConfigurationInfoParams *);
    CUptiResult (*start)(CUpti_PCSamplingStartParams *);
    CUptiResult (*stop)(CUpti_PCSamplingStopParams *);
    CUptiResult (*get_data)(CUpti_PCSamplingGetDataParams *);
    CUptiResult (*result_string)(CUptiResult, const char **);
} api;

/* CUPTI's PC sampling functions; NULL when all are there. */
static const char *load_api(void)
{
    const char *why = NULL;
    void *h = rs_cupti_lib(&why);
    if (!h) return why;
#define SYM(field, name)                                                                           \
    if (!(*(void **)&api.field = dlsym(h, name))) return "CUPTI lacks " name
    SYM(enable, "cuptiPCSamplingEnable");
    SYM(disable, "cuptiPCSamplingDisable");
    SYM(num_reasons, "cuptiPCSamplingGetNumStallReasons");
    SYM(reasons, "cuptiPCSamplingGetStallReasons");
    SYM(configure, "cuptiPCSamplingSetConfigurationAttribute");
    SYM(start, "cuptiPCSamplingStart");
    SYM(stop, "cuptiPCSamplingStop");
    SYM(get_data, "cuptiPCSamplingGetData");
    SYM(result_string, "cuptiGetResultString");
#undef SYM
    return NULL;
}

/* Samples one run of `ms` takes at `period`. Measured on an H100 and an
 * H200 (docs/results.md): ~32 samples per SM per 2^(5 + period) cycles. */
static double samples_per_run(double ms, int sms, int clock_khz, int period)
{
    return ms * clock_khz * 32.0 * sms / ldexp(1.0, 5 + period);
}

static int usable(double ms, int sms, int clock_khz, double target)
{
    return ms > 0.0 && isfinite(ms) && sms > 0 && clock_khz > 0 && target >= 1.0 &&
           isfinite(target);
}

int rs_pcs_period(double ms, int sms, int clock_khz, double target)
{
    if (!usable(ms, sms, clock_khz, target)) return 10;
    int p = RS_PCS_PERIOD_MIN;
    while (p < 31 && samples_per_run(ms, sms, clock_khz, p) > target) p++;
    return p;
}

int rs_pcs_runs(double ms, int sms, int clock_khz, int period, double least)
{
    if (!usable(ms, sms, clock_khz, least) || period < 0 || period > 31) return 1;
    const double one = samples_per_run(ms, sms, clock_khz, period);
    if (!(one >= 1.0)) return RS_PCS_RUNS_MAX;
    const double runs = ceil(least / one);
    return runs >= RS_PCS_RUNS_MAX ? RS_PCS_RUNS_MAX : runs < 1.0 ? 1 : (int)runs;
}

void rs_pcs_explain(int result, const char *what, char *why, size_t len)
{
    const CUptiResult r = (CUptiResult)result;
    const char *s = NULL;
    if (api.result_string) api.result_string(r, &s);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        snprintf(why, len,
                 "PC sampling needs permission to profile (run as root, or set "
                 "NVreg_RestrictProfilingToAdminUsers=0)");
    else if (r == CUPTI_ERROR_NOT_SUPPORTED)
        snprintf(why, len, "PC sampling is not supported on this device or system");
    else if (r == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED)
        snprintf(why, len, "PC sampling is not supported on this virtualized GPU");
    else if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        snprintf(why, len, "PC sampling is unavailable: %s (is another profiler attached?)",
                 s ? s : "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED");
    else
        snprintf(why, len, "PC sampling failed %s: %s", what, s ? s : "CUPTI error");
}

static CUcontext current_context(void)
{
    CUresult (*get)(CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CUcontext ctx = NULL;
    if (cudaFree(0) == cudaSuccess &&
        cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get, 12000, cudaEnableDefault,
                                         &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess && get)
        get(&ctx);
    return ctx;
}

typedef struct pcs_state {
    CUcontext ctx;
    size_t nreasons;
    uint32_t *index;
    char **names;
    CUpti_PCSamplingData data[2]; /* the configured buffer, then one for what remains */
    CUpti_PCSamplingStallReason *slots[2];
} pcs_state;

static int buffer_make(pcs_state *st, int k)
{
    CUpti_PCSamplingData *d = &st->data[k];
    memset(d, 0, sizeof *d);
    d->size = sizeof *d;
    d->collectNumPcs = PCS_RECORDS;
    d->pPcData = calloc(PCS_RECORDS, sizeof *d->pPcData);
    st->slots[k] = calloc(PCS_RECORDS * st->nreasons, sizeof *st->slots[k]);
    if (!d->pPcData || !st->slots[k]) return 0;
    for (size_t i = 0; i < PCS_RECORDS; i++) {
        d->pPcData[i].size = sizeof d->pPcData[i];
        d->pPcData[i].stallReason = st->slots[k] + i * st->nreasons;
    }
    return 1;
}

static void state_free(pcs_state *st)
{
    for (int k = 0; k < 2; k++) {
        free(st->data[k].pPcData);
        free(st->slots[k]);
    }
    for (size_t i = 0; st->names && i < st->nreasons; i++) free(st->names[i]);
    free(st->names);
    free(st->index);
}

/* Hand a buffer's records to the sink; its totals into out. */
static void drain(pcs_state *st, CUpti_PCSamplingData *d, rs_pcs_sink sink, void *ctx,
                  rs_pcs_totals *out)
{
    if (d->totalSamples > out->total) out->total = d->totalSamples;
    if (d->droppedSamples > out->dropped) out->dropped = d->droppedSamples;
    out->buffer_full |= d->hardwareBufferFull != 0;
    const size_t n = d->totalNumPcs < d->collectNumPcs ? d->totalNumPcs : d->collectNumPcs;
    for (size_t i = 0; i < n; i++) {
        /* pc->functionName is not freed here: CUPTI hands the same string to
         * every collection of the process (freeing it broke the second) */
        CUpti_PCSamplingPCData *pc = &d->pPcData[i];
        const size_t nr = pc->stallReasonCount <= st->nreasons ? pc->stallReasonCount : 0;
        for (size_t r = 0; r < nr; r++) {
            const uint32_t idx = pc->stallReason[r].pcSamplingStallReasonIndex;
            const char *name = NULL;
            for (size_t j = 0; j < st->nreasons && !name; j++)
                if (st->index[j] == idx) name = st->names[j];
            if (name && pc->stallReason[r].samples)
                sink(ctx, pc->functionName ? pc->functionName : "", pc->pcOffset, name,
                     pc->stallReason[r].samples);
        }
        out->pcs++;
    }
}

/* After Enable: the device's stall reasons, every one selected. */
static CUptiResult reasons(pcs_state *st)
{
    PARAMS_PCS(CUpti_PCSamplingGetNumStallReasonsParams, np);
    np.ctx = st->ctx;
    np.numStallReasons = &st->nreasons;
    CUptiResult r = api.num_reasons(&np);
    if (r != CUPTI_SUCCESS) return r;
    if (st->nreasons == 0 || st->nreasons > 1024) return CUPTI_ERROR_NOT_SUPPORTED;
    st->index = calloc(st->nreasons, sizeof *st->index);
    st->names = calloc(st->nreasons, sizeof *st->names);
    if (!st->index || !st->names) return CUPTI_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < st->nreasons; i++)
        if (!(st->names[i] = calloc(1, CUPTI_STALL_REASON_STRING_SIZE)))
            return CUPTI_ERROR_OUT_OF_MEMORY;
    PARAMS_PCS(CUpti_PCSamplingGetStallReasonsParams, rp);
    rp.ctx = st->ctx;
    rp.numStallReasons = st->nreasons;
    rp.stallReasonIndex = st->index;
    rp.stallReasons = st->names;
    return api.reasons(&rp);
}

/* CUPTI's hardware buffer: 512 MB by default, which cost 0.25 s more at
 * every collection on an H200 (a ladder's 13 sampled steps: 7.5 s against
 * 2.9 s); a step's 200,000 samples need a few MB (docs/results.md). */
#define PCS_HW_BUFFER ((size_t)32 << 20)

static CUptiResult configure(pcs_state *st, int period)
{
    CUpti_PCSamplingConfigurationInfo a[7];
    memset(a, 0, sizeof a);
    a[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    a[0].attributeData.stallReasonData.stallReasonCount = st->nreasons;
    a[0].attributeData.stallReasonData.pStallReasonIndex = st->index;
    a[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    a[1].attributeData.samplingDataBufferData.samplingDataBuffer = &st->data[0];
    a[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    a[2].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    a[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    a[3].attributeData.samplingPeriodData.samplingPeriod = (uint32_t)period;
    a[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    a[4].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    a[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    a[5].attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    a[6].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
    a[6].attributeData.hardwareBufferSizeData.hardwareBufferSize = PCS_HW_BUFFER;
    PARAMS_PCS(CUpti_PCSamplingConfigurationInfoParams, cp);
    cp.ctx = st->ctx;
    cp.numAttributes = sizeof a / sizeof a[0];
    cp.pPCSamplingConfigurationInfo = a;
    return api.configure(&cp);
}

/* Start, the body, stop; then the configured buffer and what remains. */
static CUptiResult sample(pcs_state *st, rs_prof_body body, void *body_ctx, rs_status *body_st,
                          rs_error *err, rs_pcs_sink sink, void *sink_ctx, rs_pcs_totals *out,
                          const char **step)
{
    *step = "starting";
    PARAMS_PCS(CUpti_PCSamplingStartParams, sp);
    sp.ctx = st->ctx;
    CUptiResult r = api.start(&sp);
    if (r != CUPTI_SUCCESS) return r;
    *body_st = body(body_ctx, err);
    const cudaError_t c = cudaDeviceSynchronize();
    rs_trace("pc sampling: body done");
    *step = "stopping";
    PARAMS_PCS(CUpti_PCSamplingStopParams, tp);
    tp.ctx = st->ctx;
    r = api.stop(&tp);
    if (*body_st != RS_OK) return CUPTI_SUCCESS;
    if (c != cudaSuccess) {
        *body_st = rs_fail(err, RS_E_CUDA, "CUDA error while sampling: %s", cudaGetErrorString(c));
        return CUPTI_SUCCESS;
    }
    if (r != CUPTI_SUCCESS) return r;
    drain(st, &st->data[0], sink, sink_ctx, out);
    *step = "reading the samples";
    size_t left = st->data[0].remainingNumPcs;
    for (int guard = 0; left > 0 && guard < 4096; guard++) {
        PARAMS_PCS(CUpti_PCSamplingGetDataParams, gp);
        gp.ctx = st->ctx;
        gp.pcSamplingData = &st->data[1];
        if ((r = api.get_data(&gp)) != CUPTI_SUCCESS) return r;
        drain(st, &st->data[1], sink, sink_ctx, out);
        left = st->data[1].totalNumPcs ? st->data[1].remainingNumPcs : 0;
    }
    return CUPTI_SUCCESS;
}

/* One session per process: enabled at the first collection and kept, as
 * a second session in one process samples no kernel that the first did
 * not (CUDA 13, docs/results.md). Configured again for each collection. */
static struct {
    int on;
    pcs_state st;
} session;

static void session_end(void)
{
    if (session.on) {
        PARAMS_PCS(CUpti_PCSamplingDisableParams, dp);
        dp.ctx = session.st.ctx;
        api.disable(&dp);
    }
    state_free(&session.st);
    memset(&session, 0, sizeof session);
}

/* The session for the current context, enabled with its stall reasons and
 * buffers; *step names what failed. */
static CUptiResult session_get(const char **step)
{
    *step = "finding the CUDA context";
    const CUcontext ctx = current_context();
    if (!ctx) return CUPTI_ERROR_INVALID_CONTEXT;
    if (session.on && session.st.ctx == ctx) return CUPTI_SUCCESS;
    session_end();
    session.st.ctx = ctx;
    *step = "enabling";
    PARAMS_PCS(CUpti_PCSamplingEnableParams, ep);
    ep.ctx = ctx;
    CUptiResult r = api.enable(&ep);
    if (r != CUPTI_SUCCESS) {
        state_free(&session.st);
        memset(&session, 0, sizeof session);
        return r;
    }
    session.on = 1;
    rs_trace("pc sampling: enabled");
    *step = "reading the stall reasons";
    if ((r = reasons(&session.st)) == CUPTI_SUCCESS)
        r = buffer_make(&session.st, 0) && buffer_make(&session.st, 1) ? CUPTI_SUCCESS
                                                                       : CUPTI_ERROR_OUT_OF_MEMORY;
    if (r != CUPTI_SUCCESS) session_end();
    return r;
}

void rs_pcs_end(void)
{
    if (api.disable) session_end();
}

rs_status rs_pcs_collect(int period, rs_prof_body body, void *body_ctx, rs_pcs_sink sink,
                         void *sink_ctx, rs_pcs_totals *out, char *why, size_t why_len,
                         rs_error *err)
{
    memset(out, 0, sizeof *out);
    out->period = period;
    if (why_len) why[0] = '\0';
    const char *missing = load_api();
    if (missing) {
        snprintf(why, why_len, "%s", missing);
        return RS_OK;
    }
    rs_status body_st = RS_OK;
    const char *step = "";
    CUptiResult r = session_get(&step);
    if (r == CUPTI_SUCCESS) {
        step = "configuring";
        r = configure(&session.st, period);
    }
    if (r == CUPTI_SUCCESS) {
        rs_trace("pc sampling: configured (period %d)", period);
        r = sample(&session.st, body, body_ctx, &body_st, err, sink, sink_ctx, out, &step);
    }
    rs_trace("pc sampling: %llu samples, %llu dropped, %llu PCs (period %d)",
             (unsigned long long)out->total, (unsigned long long)out->dropped,
             (unsigned long long)out->pcs, period);
    if (r != CUPTI_SUCCESS || body_st != RS_OK) session_end(); /* a broken session is not reused */
    if (body_st != RS_OK) return body_st;
    if (r != CUPTI_SUCCESS) rs_pcs_explain(r, step, why, why_len);
    return RS_OK;
}
