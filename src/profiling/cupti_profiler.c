/* CUPTI Range Profiler + Profiler Host API (CUDA 13), loaded with dlopen so
 * that a machine without CUPTI still runs every timing. The header
 * cupti_profiler_host.h includes <string>; an empty shim of that name on the
 * include path (src/profiling/shim) lets this stay a C11 file. */
#include "profiler.h"

#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/trace.h"
#include "cupti_lib.h"

#define CUPTI_FUNCS(X)                                                                             \
    X(cuptiGetResultString)                                                                        \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiProfilerDeInitialize)                                                                   \
    X(cuptiProfilerDeviceSupported)                                                                \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostGetMetricProperties)                                                        \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)                                                                      \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerGetCounterDataInfo)

static struct {
#define X(f) __typeof__(&f) f;
    CUPTI_FUNCS(X)
#undef X
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[200];

static void load_cupti(void)
{
    const char *why = NULL;
    void *h = rs_cupti_lib(&why);
    if (!h) {
        snprintf(load_error, sizeof load_error, "%s", why);
        return;
    }
#define X(f)                                                                                       \
    api.f = (__typeof__(&f))dlsym(h, #f);                                                          \
    if (!api.f) {                                                                                  \
        snprintf(load_error, sizeof load_error, "CUPTI is too old: it lacks %s (needs CUDA 13)",   \
                 #f);                                                                              \
        return;                                                                                    \
    }
    CUPTI_FUNCS(X)
#undef X
}

static const char *cupti_loaded(void)
{
    pthread_once(&load_once, load_cupti);
    return load_error[0] ? load_error : NULL;
}

struct rs_prof {
    int device;
    int available;
    int initialized;
    char why[240];
    char chip[64];
    char last_error[240];
    uint8_t *avail;
    size_t avail_size;
    struct kept *kept; /* the range profiler kept between collections */
};

#define PARAMS(type, var)                                                                          \
    type var;                                                                                      \
    memset(&var, 0, sizeof var);                                                                   \
    var.structSize = type##_STRUCT_SIZE

static const char *result_text(CUptiResult r)
{
    const char *s = NULL;
    if (api.cuptiGetResultString && api.cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "unknown CUPTI error";
}

/* A CUPTI failure in words a user can act on. */
static void explain(CUptiResult r, const char *step, char *buf, size_t len)
{
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        snprintf(buf, len,
                 "needs profiling permission: run as root, or load the nvidia driver with "
                 "NVreg_RestrictProfilingToAdminUsers=0 (RmProfilingAdminOnly in "
                 "/proc/driver/nvidia/params)");
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        snprintf(buf, len,
                 "another profiler is attached (Nsight Compute, Nsight Systems, "
                 "compute-sanitizer or cuda-gdb): counters are off while it runs");
        break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
        snprintf(buf, len, "not supported on this GPU (%s: %s)", step, result_text(r));
        break;
    case CUPTI_ERROR_HARDWARE_BUSY:
        snprintf(buf, len, "the GPU's counters are busy (another process profiles it)");
        break;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        snprintf(buf, len, "not on a MIG slice: counters need a whole GPU");
        break;
    default: snprintf(buf, len, "%s failed: %s", step, result_text(r)); break;
    }
}

static const char *level_text(CUpti_Profiler_Support_Level l)
{
    return l == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "disabled" : "unsupported";
}

static void device_unsupported_reason(const CUpti_Profiler_DeviceSupported_Params *p, char *buf,
                                      size_t len)
{
    if (p->architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "not on this chip: counters need compute capability 7.0 or newer");
    else if (p->vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "profiling is %s on this virtual GPU", level_text(p->vGpu));
    else if (p->confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "not available under confidential computing");
    else if (p->wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "not available under this WSL");
    else if (p->sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "not available with SLI");
    else if (p->cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        snprintf(buf, len, "not available on a mining processor");
    else
        snprintf(buf, len, "the profiler does not support this device");
}

static int probe_device(rs_prof *p)
{
    CUptiResult r;
    PARAMS(CUpti_Profiler_Initialize_Params, ip);
    if ((r = api.cuptiProfilerInitialize(&ip)) != CUPTI_SUCCESS) {
        explain(r, "cuptiProfilerInitialize", p->why, sizeof p->why);
        return 0;
    }
    p->initialized = 1;
    PARAMS(CUpti_Profiler_DeviceSupported_Params, ds);
    ds.cuDevice = (CUdevice)p->device;
    ds.api = CUPTI_PROFILER_RANGE_PROFILING;
    if ((r = api.cuptiProfilerDeviceSupported(&ds)) != CUPTI_SUCCESS) {
        explain(r, "cuptiProfilerDeviceSupported", p->why, sizeof p->why);
        return 0;
    }
    if (ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        device_unsupported_reason(&ds, p->why, sizeof p->why);
        return 0;
    }
    PARAMS(CUpti_Device_GetChipName_Params, cn);
    cn.deviceIndex = (size_t)p->device;
    if ((r = api.cuptiDeviceGetChipName(&cn)) != CUPTI_SUCCESS) {
        explain(r, "cuptiDeviceGetChipName", p->why, sizeof p->why);
        return 0;
    }
    snprintf(p->chip, sizeof p->chip, "%s", cn.pChipName);
    /* Counter availability is also where missing permission shows first. */
    PARAMS(CUpti_Profiler_GetCounterAvailability_Params, ca);
    if ((r = api.cuptiProfilerGetCounterAvailability(&ca)) != CUPTI_SUCCESS) {
        explain(r, "reading counter availability", p->why, sizeof p->why);
        return 0;
    }
    p->avail = malloc(ca.counterAvailabilityImageSize);
    if (!p->avail) {
        snprintf(p->why, sizeof p->why, "out of host memory");
        return 0;
    }
    p->avail_size = ca.counterAvailabilityImageSize;
    ca.pCounterAvailabilityImage = p->avail;
    if ((r = api.cuptiProfilerGetCounterAvailability(&ca)) != CUPTI_SUCCESS) {
        explain(r, "reading counter availability", p->why, sizeof p->why);
        return 0;
    }
    return 1;
}

rs_status rs_prof_init(rs_prof **out, int device, const char *chip, rs_error *err)
{
    rs_prof *p = calloc(1, sizeof *p);
    if (!p) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    p->device = device;
    snprintf(p->chip, sizeof p->chip, "%s", chip ? chip : "GH100");
    const char *missing = cupti_loaded();
    if (missing)
        snprintf(p->why, sizeof p->why, "%s", missing);
    else if (device < 0)
        snprintf(p->why, sizeof p->why, "no CUDA device");
    else
        p->available = probe_device(p);
    rs_trace("profiler: initialised (%s)", p->available ? "counters available" : p->why);
    *out = p;
    return RS_OK;
}

int rs_prof_available(const rs_prof *p, char *why, size_t len)
{
    if (!p->available && why) snprintf(why, len, "%s", p->why);
    return p->available;
}

void rs_prof_shutdown(rs_prof *p)
{
    if (!p) return;
    rs_prof_release(p);
    if (p->initialized) {
        PARAMS(CUpti_Profiler_DeInitialize_Params, dp);
        api.cuptiProfilerDeInitialize(&dp);
    }
    free(p->avail);
    free(p);
}

/* ---- host object: names, configuration, passes ---------------------------- */

typedef struct host_cfg {
    CUpti_Profiler_Host_Object *host;
    const char *names[RS_METRIC_COUNT];
    rs_metric_id ids[RS_METRIC_COUNT];
    int count;
    rs_metric_mask missing;
    uint8_t *config;
    size_t config_size;
    size_t passes;
} host_cfg;

static void host_end(host_cfg *h)
{
    if (h->host) {
        PARAMS(CUpti_Profiler_Host_Deinitialize_Params, dp);
        dp.pHostObject = h->host;
        api.cuptiProfilerHostDeinitialize(&dp);
    }
    free(h->config);
    memset(h, 0, sizeof *h);
}

/* Build the configuration image of metric set m on p's chip. Each name is
 * checked first: one unknown name makes ConfigAddMetrics fail as a whole. */
static int host_begin(rs_prof *p, rs_metric_mask m, host_cfg *h, int with_availability)
{
    CUptiResult r;
    memset(h, 0, sizeof *h);
    PARAMS(CUpti_Profiler_Host_Initialize_Params, ip);
    ip.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    ip.pChipName = p->chip;
    ip.pCounterAvailabilityImage = with_availability ? p->avail : NULL;
    if ((r = api.cuptiProfilerHostInitialize(&ip)) != CUPTI_SUCCESS) {
        explain(r, "initialising the profiler host", p->last_error, sizeof p->last_error);
        return 0;
    }
    h->host = ip.pHostObject;
    rs_trace("profiler: host object for %s", p->chip);
    m = rs_metric_closure(m);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (!(m & RS_METRIC_BIT(i)) || !d->cupti) continue;
        PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, mp);
        mp.pHostObject = h->host;
        mp.pMetricName = d->cupti;
        if (api.cuptiProfilerHostGetMetricProperties(&mp) != CUPTI_SUCCESS) {
            h->missing |= RS_METRIC_BIT(i);
            continue;
        }
        h->names[h->count] = d->cupti;
        h->ids[h->count++] = (rs_metric_id)i;
    }
    if (h->count == 0) return 1;
    PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, ap);
    ap.pHostObject = h->host;
    ap.ppMetricNames = h->names;
    ap.numMetrics = (size_t)h->count;
    PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, sp);
    sp.pHostObject = h->host;
    if ((r = api.cuptiProfilerHostConfigAddMetrics(&ap)) != CUPTI_SUCCESS ||
        (r = api.cuptiProfilerHostGetConfigImageSize(&sp)) != CUPTI_SUCCESS) {
        explain(r, "configuring metrics", p->last_error, sizeof p->last_error);
        return 0;
    }
    h->config = malloc(sp.configImageSize);
    if (!h->config) return 0;
    h->config_size = sp.configImageSize;
    PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, gp);
    gp.pHostObject = h->host;
    gp.configImageSize = h->config_size;
    gp.pConfigImage = h->config;
    PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, np);
    np.configImageSize = h->config_size;
    np.pConfigImage = h->config;
    if ((r = api.cuptiProfilerHostGetConfigImage(&gp)) != CUPTI_SUCCESS ||
        (r = api.cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        explain(r, "building the metric configuration", p->last_error, sizeof p->last_error);
        return 0;
    }
    h->passes = np.numOfPasses;
    rs_trace("profiler: configuration image of %d metrics, %zu passes", h->count, h->passes);
    return 1;
}

rs_status rs_prof_passes(rs_prof *p, rs_metric_mask m, int *passes, rs_metric_mask *missing,
                         rs_error *err)
{
    const char *absent = cupti_loaded();
    if (absent) return rs_fail(err, RS_E_IO, "%s", absent);
    host_cfg h;
    if (!host_begin(p, m, &h, p->available)) {
        host_end(&h);
        return rs_fail(err, RS_E_IO, "%s", p->last_error);
    }
    *passes = (int)h.passes;
    if (missing) *missing = h.missing;
    host_end(&h);
    return RS_OK;
}

/* ---- collection ---------------------------------------------------------------- */

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct session {
    CUpti_RangeProfiler_Object *rp;
    uint8_t *data;
    size_t data_size;
} session;

static void rp_disable(CUpti_RangeProfiler_Object *rp)
{
    if (!rp) return;
    PARAMS(CUpti_RangeProfiler_Disable_Params, dp);
    dp.pRangeProfilerObject = rp;
    api.cuptiRangeProfilerDisable(&dp);
    rs_trace("profiler: range profiler disabled");
}

static CUptiResult rp_enable(CUpti_RangeProfiler_Object **rp, const char **step)
{
    *step = "enabling the range profiler";
    PARAMS(CUpti_RangeProfiler_Enable_Params, ep);
    ep.ctx = NULL; /* the current context */
    const CUptiResult r = api.cuptiRangeProfilerEnable(&ep);
    *rp = r == CUPTI_SUCCESS ? ep.pRangeProfilerObject : NULL;
    rs_trace("profiler: range profiler enabled");
    return r;
}

/* The counter data image for h's metrics, sized for every launch. */
static CUptiResult data_make(const host_cfg *h, session *s, const char **step)
{
    CUptiResult r;
    *step = "sizing counter data";
    PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, cs);
    cs.pRangeProfilerObject = s->rp;
    cs.pMetricNames = (const char **)h->names;
    cs.numMetrics = (size_t)h->count;
    cs.maxNumOfRanges = RS_MAX_LAUNCHES;
    cs.maxNumRangeTreeNodes = RS_MAX_LAUNCHES;
    if ((r = api.cuptiRangeProfilerGetCounterDataSize(&cs)) != CUPTI_SUCCESS) return r;
    s->data = calloc(1, cs.counterDataSize);
    if (!s->data) return CUPTI_ERROR_OUT_OF_MEMORY;
    s->data_size = cs.counterDataSize;
    return CUPTI_SUCCESS;
}

/* Empty the counter data and set h's configuration: ready for pass 0. */
static CUptiResult data_arm(const host_cfg *h, session *s, const char **step)
{
    CUptiResult r;
    *step = "initialising counter data";
    PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, ci);
    ci.pRangeProfilerObject = s->rp;
    ci.counterDataSize = s->data_size;
    ci.pCounterData = s->data;
    if ((r = api.cuptiRangeProfilerCounterDataImageInitialize(&ci)) != CUPTI_SUCCESS) return r;
    *step = "setting the configuration";
    PARAMS(CUpti_RangeProfiler_SetConfig_Params, sc);
    sc.pRangeProfilerObject = s->rp;
    sc.configSize = h->config_size;
    sc.pConfig = h->config;
    sc.counterDataImageSize = s->data_size;
    sc.pCounterDataImage = s->data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = RS_MAX_LAUNCHES;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    r = api.cuptiRangeProfilerSetConfig(&sc);
    rs_trace("profiler: configuration set");
    return r;
}

/* Run body under the profiler until every pass is submitted. */
static CUptiResult session_run(session *s, rs_prof_body body, void *ctx, rs_status *body_status,
                               rs_error *err, const char **step)
{
    CUptiResult r;
    for (int round = 0; round < 64; round++) {
        *step = "starting the range profiler";
        PARAMS(CUpti_RangeProfiler_Start_Params, sp);
        sp.pRangeProfilerObject = s->rp;
        if ((r = api.cuptiRangeProfilerStart(&sp)) != CUPTI_SUCCESS) return r;
        rs_trace("profiler: pass %d started", round);
        *body_status = body(ctx, err);
        cudaError_t c = cudaDeviceSynchronize();
        rs_trace("profiler: pass %d ran", round);
        *step = "stopping the range profiler";
        PARAMS(CUpti_RangeProfiler_Stop_Params, tp);
        tp.pRangeProfilerObject = s->rp;
        r = api.cuptiRangeProfilerStop(&tp);
        rs_trace("profiler: pass %d stopped", round);
        if (*body_status != RS_OK) return CUPTI_SUCCESS;
        if (c != cudaSuccess) {
            *body_status =
                rs_fail(err, RS_E_CUDA, "CUDA error under the profiler: %s", cudaGetErrorString(c));
            return CUPTI_SUCCESS;
        }
        if (r != CUPTI_SUCCESS) return r;
        if (tp.isAllPassSubmitted) return CUPTI_SUCCESS;
    }
    return CUPTI_ERROR_UNKNOWN;
}

static CUptiResult session_read(const host_cfg *h, session *s, rs_launches *out, const char **step)
{
    CUptiResult r;
    *step = "decoding counter data";
    PARAMS(CUpti_RangeProfiler_DecodeData_Params, dd);
    dd.pRangeProfilerObject = s->rp;
    if ((r = api.cuptiRangeProfilerDecodeData(&dd)) != CUPTI_SUCCESS) return r;
    rs_trace("profiler: counter data decoded");
    PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, di);
    di.pCounterDataImage = s->data;
    di.counterDataImageSize = s->data_size;
    if ((r = api.cuptiRangeProfilerGetCounterDataInfo(&di)) != CUPTI_SUCCESS) return r;
    out->n = (int)(di.numTotalRanges < RS_MAX_LAUNCHES ? di.numTotalRanges : RS_MAX_LAUNCHES);
    *step = "evaluating metrics";
    for (int k = 0; k < out->n; k++) {
        double values[RS_METRIC_COUNT];
        PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ev);
        ev.pHostObject = h->host;
        ev.pCounterDataImage = s->data;
        ev.counterDataImageSize = s->data_size;
        ev.rangeIndex = (size_t)k;
        ev.ppMetricNames = (const char **)h->names;
        ev.numMetrics = (size_t)h->count;
        ev.pMetricValues = values;
        if ((r = api.cuptiProfilerHostEvaluateToGpuValues(&ev)) != CUPTI_SUCCESS) return r;
        for (int i = 0; i < h->count; i++) out->at[k].value[h->ids[i]] = values[i];
    }
    return CUPTI_SUCCESS;
}

/* Enabling the range profiler and its first start cost ~0.15 s a
 * collection on an H100, the configuration image ~10 ms more: a profiler
 * keeps the range profiler enabled with its metric set's images until
 * rs_prof_release or another set. (Its configuration cannot be changed
 * while it stays enabled: a second set's values came back NaN.)
 * REDSCOPE_PROF_KEEP=0 ends it after every collection. */
typedef struct kept_set {
    rs_metric_mask mask;
    host_cfg h;
    session s;
} kept_set;

struct kept {
    CUpti_RangeProfiler_Object *rp;
    int device;
    kept_set set;
};

static void kept_set_free(kept_set *k)
{
    free(k->s.data);
    host_end(&k->h);
    memset(k, 0, sizeof *k);
}

void rs_prof_release(rs_prof *p)
{
    if (!p || !p->kept) return;
    rp_disable(p->kept->rp);
    kept_set_free(&p->kept->set);
    free(p->kept);
    p->kept = NULL;
}

static int keep_sessions(void)
{
    const char *v = getenv("REDSCOPE_PROF_KEEP");
    return !(v && v[0] == '0');
}

/* The range profiler of the current device, enabled once and kept. */
static struct kept *kept_for(rs_prof *p, rs_metric_mask m)
{
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess) dev = -1;
    if (p->kept && (p->kept->device != dev || p->kept->set.mask != m)) rs_prof_release(p);
    if (!p->kept && (p->kept = calloc(1, sizeof *p->kept))) p->kept->device = dev;
    return p->kept;
}

static CUptiResult collect_on(struct kept *k, kept_set *ks, rs_prof_body body, void *ctx,
                              rs_launches *out, rs_status *body_status, rs_error *err,
                              const char **step)
{
    CUptiResult r = CUPTI_SUCCESS;
    if (!k->rp) r = rp_enable(&k->rp, step);
    ks->s.rp = k->rp;
    if (r == CUPTI_SUCCESS && !ks->s.data) r = data_make(&ks->h, &ks->s, step);
    if (r == CUPTI_SUCCESS) r = data_arm(&ks->h, &ks->s, step);
    if (r == CUPTI_SUCCESS) r = session_run(&ks->s, body, ctx, body_status, err, step);
    if (r == CUPTI_SUCCESS && *body_status == RS_OK) r = session_read(&ks->h, &ks->s, out, step);
    return r;
}

rs_status rs_prof_collect(rs_prof *p, rs_metric_mask m, rs_prof_body body, void *ctx,
                          rs_metrics *out, rs_launches *launches, rs_error *err)
{
    out->requested = m;
    out->valid = 0;
    out->nlaunch = 0;
    out->launch = NULL;
    memset(launches, 0, sizeof *launches);
    out->reason[0] = '\0';
    const double t0 = wall_ms();
    if (!p->available) {
        snprintf(out->reason, sizeof out->reason, "%s", p->why);
        return RS_OK;
    }
    struct kept *k = kept_for(p, m);
    if (!k) {
        snprintf(out->reason, sizeof out->reason, "out of host memory");
        return RS_OK;
    }
    kept_set *ks = &k->set;
    if (!ks->h.host && !host_begin(p, m, &ks->h, 1)) {
        snprintf(out->reason, sizeof out->reason, "%s", p->last_error);
        rs_prof_release(p);
        return RS_OK;
    }
    ks->mask = m;
    rs_status body_status = RS_OK;
    const char *step = "building the metric configuration";
    CUptiResult r = CUPTI_SUCCESS;
    out->passes = (int)ks->h.passes;
    if (ks->h.count > 0) r = collect_on(k, ks, body, ctx, launches, &body_status, err, &step);
    if (r != CUPTI_SUCCESS) {
        explain(r, step, out->reason, sizeof out->reason);
        snprintf(p->last_error, sizeof p->last_error, "%s", out->reason);
        launches->n = 0;
    } else if (body_status == RS_OK) {
        for (int i = 0; i < ks->h.count; i++) out->valid |= RS_METRIC_BIT(ks->h.ids[i]);
        if (ks->h.missing)
            snprintf(out->reason, sizeof out->reason, "some metrics are not on this chip (%s)",
                     p->chip);
    }
    if (r != CUPTI_SUCCESS || body_status != RS_OK || !keep_sessions()) rs_prof_release(p);
    out->wall_ms = wall_ms() - t0;
    return body_status;
}
