/* The device: the devices listed, the engine opened and closed on one of
 * them, a context rebuilt after a sticky error (cuda_error.c tells them;
 * measure.c measures its limits). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* ---- devices ----------------------------------------------------------------- */

static void fill_info(int dev, rs_device_info *d)
{
    struct cudaDeviceProp p;
    memset(d, 0, sizeof *d);
    d->index = dev;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
        cudaGetLastError();
        snprintf(d->name, sizeof d->name, "CUDA device %d", dev);
        return;
    }
    snprintf(d->name, sizeof d->name, "%.127s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sm_count = p.multiProcessorCount;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->total_mem = p.totalGlobalMem;
    cudaDeviceGetAttribute(&d->mem_clock_khz, cudaDevAttrMemoryClockRate, dev);
    cudaDeviceGetAttribute(&d->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
    d->l2_bytes = p.l2CacheSize > 0 ? (uint64_t)p.l2CacheSize : 0;
    d->peak_gbps = (double)d->mem_clock_khz * 1e3 * 2.0 * d->bus_width_bits / 8.0 / 1e9;
    cudaDriverGetVersion(&d->driver_version);
    cudaRuntimeGetVersion(&d->runtime_version);
    cudaGetLastError();
}

static rs_status device_count(int *count, rs_error *err)
{
    cudaError_t c = cudaGetDeviceCount(count);
    if (c == cudaSuccess && *count > 0) return RS_OK;
    cudaGetLastError();
    if (c == cudaSuccess || c == cudaErrorNoDevice)
        return rs_fail(err, RS_E_NODEVICE, "no CUDA device is visible (CUDA_VISIBLE_DEVICES=%s)",
                       getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "unset");
    if (c == cudaErrorInsufficientDriver || c == cudaErrorStubLibrary)
        return rs_cuda_fail(NULL, err, c, "listing devices"); /* no driver, or too old */
    return rs_fail(err, RS_E_NODEVICE, "CUDA cannot list devices: %s", cudaGetErrorString(c));
}

rs_status rs_devices_list(rs_device_info *out, int max, int *count, rs_error *err)
{
    int n = 0;
    *count = 0;
    rs_status st = device_count(&n, err);
    if (st != RS_OK) return st;
    for (int i = 0; i < n && i < max; i++) {
        fill_info(i, &out[i]);
        *count = i + 1;
    }
    return RS_OK;
}

static rs_status gpu_setup(rs_engine *e, rs_error *err)
{
    int count = 0;
    rs_status st = device_count(&count, err);
    if (st != RS_OK) return st;
    if (e->device >= count)
        return rs_fail(err, RS_E_NODEVICE, "device %d does not exist: %d CUDA device%s (0..%d)",
                       e->device, count, count == 1 ? "" : "s", count - 1);
    CUDA_TRY(e, err, cudaSetDevice(e->device), "selecting the device");
    CUDA_TRY(e, err, cudaFree(0), "creating the CUDA context");
    fill_info(e->device, &e->info);
    e->info.index = e->shown;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) e->info.free_mem = free_b;
    CUDA_TRY(e, err, cudaStreamCreateWithFlags(&e->stream, cudaStreamNonBlocking),
             "creating a stream");
    CUDA_TRY(e, err, cudaEventCreate(&e->ev_start), "creating events");
    CUDA_TRY(e, err, cudaEventCreate(&e->ev_stop), "creating events");
    return RS_OK;
}

rs_status rs_engine_open(rs_engine **out, int device, rs_error *err)
{
    rs_engine *e = calloc(1, sizeof *e);
    if (!e) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    e->device = e->shown = device;
    const char *fault = getenv("REDSCOPE_TEST_FAULT"); /* test-only: docs/architecture.md */
    char *at = NULL;
    e->fault_at = fault ? (unsigned)strtoul(fault, &at, 10) : 0;
    e->fault_gpu = at && *at == '@' ? (int)strtol(at + 1, NULL, 10) : -1; /* "N@G": on GPU G */
    if (device != 0) e->fault_at = 0;                /* the first GPU's engine counts the runs */
    const char *one = getenv("REDSCOPE_TEST_SPLIT"); /* test-only: the split on one GPU */
    e->split_one = one && *one && strcmp(one, "0") != 0;
    e->info.index = -1;
    snprintf(e->info.name, sizeof e->info.name, "no CUDA device");
    rs_error gerr;
    rs_error_clear(&gerr);
    e->gpu_status = gpu_setup(e, &gerr);
    if (e->gpu_status != RS_OK) {
        snprintf(e->gpu_msg, sizeof e->gpu_msg, "%s", gerr.msg);
        e->info.index = -1;
    }
    *out = e;
    return RS_OK;
}

rs_status rs_engine_gpu(const rs_engine *e, rs_error *err)
{
    if (e->gpu_status != RS_OK) return rs_fail(err, e->gpu_status, "%s", e->gpu_msg);
    return RS_OK;
}

const rs_device_info *rs_engine_device(const rs_engine *e)
{
    return &e->info;
}

void rs_engine_show_as(rs_engine *e, int index)
{
    e->shown = index;
    if (e->gpu_status == RS_OK) e->info.index = index;
}

void rs_engine_close(rs_engine *e)
{
    if (!e) return;
    rs_engine_prof_join(e);
    if (e->prof) rs_prof_shutdown(e->prof);
    rs_split_free(e->split);
    for (int g = 0; g < RS_GPUS_MAX; g++) rs_engine_close(e->peer[g]);
    if (e->gpu_status == RS_OK) {
        rs_engine_free_buffers(e);
        if (!e->broken) {
            cudaEventDestroy(e->ev_start);
            cudaEventDestroy(e->ev_stop);
            cudaStreamDestroy(e->stream);
        }
    }
    rs_uk_free(e->uk);
    rs_engine_energy_free(e);
    free(e->h_in);
    free(e->h_part);
    free(e);
}

/* After a kernel fault the context is unusable: start a new one. */
rs_status rs_engine_recover(rs_engine *e, rs_error *err)
{
    if (!e->broken) return RS_OK;
    rs_engine_prof_join(e);
    if (e->prof) {
        rs_prof_shutdown(e->prof);
        e->prof = NULL;
    }
    rs_split_free(e->split); /* its GPUs' contexts were reset: their engines start afresh */
    e->split = NULL;
    for (int g = 0; g < RS_GPUS_MAX; g++)
        if (e->peer[g] && e->peer[g]->broken) {
            rs_engine_close(e->peer[g]);
            e->peer[g] = NULL;
        }
    rs_engine_free_buffers(e);
    rs_uk_free(e->uk); /* its modules die with the context */
    e->uk = NULL;
    cudaDeviceReset();
    e->broken = 0;
    e->key.valid = 0;
    e->gpu_status = gpu_setup(e, err);
    if (e->gpu_status != RS_OK) snprintf(e->gpu_msg, sizeof e->gpu_msg, "%s", err->msg);
    return e->gpu_status;
}
int rs_engine_broken(const rs_engine *e)
{
    return e && e->broken;
}
