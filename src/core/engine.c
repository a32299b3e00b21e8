#include "engine.h"

#include <dlfcn.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kernels/rs_kernels.h"
#include "../profiling/profiler.h"
#include "catalogue.h"
#include "reference.h"

#define GRID_LIMIT 2147483647ull

typedef struct input_key {
    int valid;
    rs_dtype type;
    int product; /* product inputs differ from the others */
    rs_dist dist;
    uint64_t seed, n;
} input_key;

struct rs_engine {
    int device;
    rs_status gpu_status;
    char gpu_msg[sizeof(((rs_error *)0)->msg)];
    rs_device_info info;
    int broken; /* a sticky CUDA error: the context must be rebuilt */
    cudaStream_t stream;
    cudaEvent_t ev_start, ev_stop;

    input_key key;
    void *h_in;
    void *d_in;
    size_t d_in_bytes;
    int ref_valid[RS_OP_COUNT];
    rs_reference ref[RS_OP_COUNT];
    double cpu_ms[RS_OP_COUNT];

    void *d_part[2];
    size_t part_bytes;
    void *d_out;
    unsigned *d_counter;
    void *d_temp;
    size_t temp_bytes;
    void *h_part;
    size_t h_part_bytes;
    void *d_flush; /* written before every run: each starts with a cold L2 */
    size_t flush_bytes;

    rs_prof *prof;
};

/* One reduction, as the engine will issue it. */
typedef struct plan {
    const rs_variant_info *vi;
    rs_dtype type, acc;
    rs_op op;
    uint64_t n;
    int nsteps;
    rs_launch step[RS_MAX_LAUNCHES];
    const char *names[RS_MAX_LAUNCHES + 1];
    char name_buf[RS_MAX_LAUNCHES + 1][48];
    int init_first; /* result starts as the identity (atomic updates) */
    int cpu_finish; /* block results finished on the host */
    unsigned cpu_count;
    unsigned grid1;
    double ept;
    double chain; /* longest dependent chain of operations, for the tolerance */
    size_t part_elems;
} plan;

/* ---- errors ----------------------------------------------------------------- */

static int is_sticky(cudaError_t c)
{
    switch (c) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable: return 1;
    default: return 0;
    }
}

/* "The driver is insufficient" reads as "upgrade it"; tell no driver at
 * all (libcuda absent) apart from one too old for this runtime. */
static rs_status driver_fail(cudaError_t c, rs_error *err)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return rs_fail(err, RS_E_NODRIVER,
                       "no NVIDIA driver (libcuda.so.1 not found): install the NVIDIA driver, or "
                       "replay a recording with --replay FILE");
    dlclose(h);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaGetLastError();
    if (drv > 0 && drv < rt)
        return rs_fail(err, RS_E_NODRIVER,
                       "NVIDIA driver too old for CUDA %d.%d (found a driver for CUDA %d.%d): "
                       "update the driver",
                       rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    return rs_fail(err, RS_E_NODRIVER, "the NVIDIA driver does not work here: %s",
                   cudaGetErrorString(c));
}

static rs_status cuda_fail(rs_engine *e, rs_error *err, cudaError_t c, const char *what)
{
    cudaGetLastError(); /* clear a non-sticky error */
    switch (c) {
    case cudaErrorMemoryAllocation:
        return rs_fail(err, RS_E_NOMEM, "out of device memory while %s", what);
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary: (void)what; return driver_fail(c, err);
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
        return rs_fail(err, RS_E_NODEVICE, "no usable CUDA device (%s): %s", what,
                       cudaGetErrorString(c));
    default: break;
    }
    if (e && is_sticky(c)) e->broken = 1;
    return rs_fail(err, RS_E_CUDA, "CUDA error while %s: %s (%s)", what, cudaGetErrorString(c),
                   cudaGetErrorName(c));
}

#define CUDA_TRY(e, err, call, what)                                                               \
    do {                                                                                           \
        cudaError_t c_ = (call);                                                                   \
        if (c_ != cudaSuccess) return cuda_fail((e), (err), c_, (what));                           \
    } while (0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void human_bytes(double b, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) b /= 1024.0, u++;
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

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
    if (c == cudaErrorInsufficientDriver || c == cudaErrorStubLibrary) return driver_fail(c, err);
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
    e->device = device;
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

static void free_device_buffers(rs_engine *e)
{
    if (!e->broken) {
        cudaFree(e->d_in);
        cudaFree(e->d_part[0]);
        cudaFree(e->d_part[1]);
        cudaFree(e->d_out);
        cudaFree(e->d_counter);
        cudaFree(e->d_temp);
        cudaFree(e->d_flush);
    }
    e->d_in = e->d_part[0] = e->d_part[1] = e->d_out = e->d_temp = e->d_flush = NULL;
    e->flush_bytes = 0;
    e->d_counter = NULL;
    e->d_in_bytes = e->part_bytes = e->temp_bytes = 0;
}

void rs_engine_close(rs_engine *e)
{
    if (!e) return;
    if (e->prof) rs_prof_shutdown(e->prof);
    if (e->gpu_status == RS_OK) {
        free_device_buffers(e);
        if (!e->broken) {
            cudaEventDestroy(e->ev_start);
            cudaEventDestroy(e->ev_stop);
            cudaStreamDestroy(e->stream);
        }
    }
    free(e->h_in);
    free(e->h_part);
    free(e);
}

/* After a kernel fault the context is unusable: start a new one. */
static rs_status recover(rs_engine *e, rs_error *err)
{
    if (!e->broken) return RS_OK;
    if (e->prof) {
        rs_prof_shutdown(e->prof);
        e->prof = NULL;
    }
    free_device_buffers(e);
    cudaDeviceReset();
    e->broken = 0;
    e->key.valid = 0;
    e->gpu_status = gpu_setup(e, err);
    if (e->gpu_status != RS_OK) snprintf(e->gpu_msg, sizeof e->gpu_msg, "%s", err->msg);
    return e->gpu_status;
}

/* ---- buffers ---------------------------------------------------------------------- */

static rs_status ensure_device(rs_engine *e, void **p, size_t *cap, size_t bytes, const char *what,
                               rs_error *err)
{
    if (*cap >= bytes && *p) return RS_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    cudaError_t c = cudaMalloc(p, bytes ? bytes : 16);
    if (c != cudaSuccess) {
        *p = NULL;
        return cuda_fail(e, err, c, what);
    }
    *cap = bytes;
    return RS_OK;
}

static rs_status check_fits(rs_engine *e, uint64_t n, rs_dtype t, size_t extra, rs_error *err)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return RS_OK; /* cudaMalloc will say */
    }
    const double need = (double)n * rs_dtype_size(t) + (double)extra;
    const double have = (double)free_b + (double)e->d_in_bytes;
    if (need <= have) return RS_OK;
    char a[32], b[32], c[32];
    human_bytes(need, a, sizeof a);
    human_bytes(have, b, sizeof b);
    human_bytes((double)total_b, c, sizeof c);
    return rs_fail(err, RS_E_NOMEM, "out of device memory: n = %llu %s needs %s, %s of %s are free",
                   (unsigned long long)n, rs_dtype_name(t), a, b, c);
}

/* The host keeps a copy of the input for the reference and the CPU: refuse
 * what would not fit in its free memory rather than thrash or be killed. */
static rs_status check_host_memory(size_t bytes, rs_error *err)
{
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return RS_OK;
    const double avail = (double)pages * (double)page;
    if ((double)bytes <= 0.9 * avail) return RS_OK;
    char a[32], b[32];
    human_bytes((double)bytes, a, sizeof a);
    human_bytes(avail, b, sizeof b);
    return rs_fail(err, RS_E_NOMEM, "out of host memory: the input needs %s, %s are free", a, b);
}

/* The input, on the host and the device, and its reference. Cached: the
 * ladder reuses one input for every variant. */
static rs_status ensure_input(rs_engine *e, const rs_request *r, int on_gpu, size_t extra,
                              rs_error *err)
{
    input_key k = {1, r->type, r->op == RS_PROD, r->dist, r->seed, r->n};
    const size_t bytes = (size_t)r->n * rs_dtype_size(r->type);
    const int same = e->key.valid && memcmp(&e->key, &k, sizeof k) == 0;
    if (on_gpu && !(same && e->d_in)) {
        rs_status st = check_fits(e, r->n, r->type, extra, err);
        if (st != RS_OK) return st;
    }
    if (!same) {
        rs_status st = check_host_memory(bytes, err);
        if (st != RS_OK) return st;
        e->key.valid = 0;
        memset(e->ref_valid, 0, sizeof e->ref_valid);
        free(e->h_in);
        e->h_in = malloc(bytes);
        if (!e->h_in) {
            char a[32];
            human_bytes((double)bytes, a, sizeof a);
            return rs_fail(err, RS_E_NOMEM, "out of host memory: the input needs %s", a);
        }
        rs_input_fill(e->h_in, r->type, r->op, r->dist, r->seed, r->n);
        if (e->d_in) { /* stale device copy */
            cudaFree(e->d_in);
            e->d_in = NULL;
            e->d_in_bytes = 0;
        }
        e->key = k;
    }
    if (!e->ref_valid[r->op]) {
        rs_reference_compute(e->h_in, r->type, r->op, r->n, &e->ref[r->op]);
        e->cpu_ms[r->op] = 0.0;
        e->ref_valid[r->op] = 1;
    }
    if (on_gpu && !e->d_in) {
        rs_status st =
            ensure_device(e, &e->d_in, &e->d_in_bytes, bytes, "allocating the input", err);
        if (st != RS_OK) return st;
        CUDA_TRY(e, err, cudaMemcpy(e->d_in, e->h_in, bytes, cudaMemcpyHostToDevice),
                 "copying the input to the device");
    }
    return RS_OK;
}

/* ---- planning ---------------------------------------------------------------------- */

static double log2u(unsigned x)
{
    return log2((double)x);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static rs_status grid_stride_grid(rs_engine *e, const rs_request *r, const rs_launch *proto,
                                  unsigned *grid, rs_error *err)
{
    uint64_t g;
    if (r->grid) {
        g = r->grid;
    } else if (r->ept) {
        g = ceil_div(r->n, (uint64_t)r->block * r->ept);
    } else {
        int per_sm = 0;
        CUDA_TRY(e, err, rs_kernel_max_blocks_per_sm(proto, &per_sm), "asking for occupancy");
        if (per_sm < 1) per_sm = 1;
        const uint64_t wave = (uint64_t)e->info.sm_count * (unsigned)per_sm;
        unsigned per_iter = 1;
        if (r->variant == RS_V_MULTI_ELEMENT) per_iter = 2;
        if (r->variant == RS_V_VECTORIZED) per_iter = 16 / (unsigned)rs_dtype_size(r->type);
        g = ceil_div(r->n, (uint64_t)r->block * per_iter);
        if (g > wave) g = wave;
    }
    if (g < 1) g = 1;
    if (g > GRID_LIMIT) g = GRID_LIMIT;
    *grid = (unsigned)g;
    return RS_OK;
}

static void add_step(plan *p, const rs_launch *l, const char *label)
{
    p->step[p->nsteps] = *l;
    snprintf(p->name_buf[p->nsteps], sizeof p->name_buf[0], "%s", label);
    p->names[p->nsteps] = p->name_buf[p->nsteps];
    p->nsteps++;
}

static rs_status plan_kernels(rs_engine *e, const rs_request *r, plan *p, rs_error *err)
{
    const rs_variant_info *vi = p->vi;
    rs_launch l = {r->variant, r->type,      r->op, e->d_in,  r->n,          e->d_out,
                   NULL,       e->d_counter, 0,     r->block, RS_KFIN_STORE, e->stream};
    const int stride = (vi->flags & RS_VF_GRID_STRIDE) != 0;
    uint64_t g;
    if (stride) {
        unsigned gs = 1;
        rs_status st = grid_stride_grid(e, r, &l, &gs, err);
        if (st != RS_OK) return st;
        g = gs;
    } else {
        g = ceil_div(r->n, (uint64_t)r->block * vi->elems_per_thread);
        if (g > GRID_LIMIT)
            return rs_fail(err, RS_E_USAGE,
                           "%s at blockDim %u needs %llu blocks for n = %llu; CUDA allows "
                           "2^31-1: use a larger blockDim or a grid-stride variant",
                           vi->name, r->block, (unsigned long long)g, (unsigned long long)r->n);
    }
    p->grid1 = (unsigned)g;
    p->ept = (double)r->n / ((double)g * r->block);
    p->part_elems = (size_t)g;
    l.grid = (unsigned)g;
    const double tree = log2u(r->block) + 6.0;
    p->chain = ceil(p->ept) + tree;

    if (r->variant == RS_V_ATOMIC) {
        p->init_first = 1;
        p->chain = (double)r->n;
        add_step(p, &l, rs_kernel_name(r->variant));
        return RS_OK;
    }
    const rs_finish fin = rs_catalogue_finish(r);
    switch (fin) {
    case RS_FINISH_ATOMIC:
        p->init_first = 1;
        l.finish = RS_KFIN_ATOMIC;
        p->chain += g;
        add_step(p, &l, rs_kernel_name(r->variant));
        return RS_OK;
    case RS_FINISH_SINGLE_PASS:
        l.finish = RS_KFIN_SINGLE_PASS;
        l.partials = e->d_part[0];
        p->chain += ceil((double)g / r->block) + tree;
        add_step(p, &l, rs_kernel_name(r->variant));
        return RS_OK;
    case RS_FINISH_CPU:
        l.out = e->d_part[0];
        p->cpu_finish = 1;
        p->cpu_count = (unsigned)g;
        p->chain += g;
        add_step(p, &l, rs_kernel_name(r->variant));
        return RS_OK;
    default: break;
    }
    /* relaunch: the same kernel on the block results until one is left */
    l.out = g == 1 ? e->d_out : e->d_part[0];
    add_step(p, &l, rs_kernel_name(r->variant));
    int buf = 0;
    while (g > 1) {
        if (p->nsteps == RS_MAX_LAUNCHES)
            return rs_fail(err, RS_E_USAGE, "too many passes: use a larger blockDim");
        const uint64_t m = g;
        g = stride ? 1 : ceil_div(m, (uint64_t)r->block * vi->elems_per_thread);
        rs_launch next = l;
        next.in_type = p->acc;
        next.in = e->d_part[buf];
        next.n = m;
        next.grid = (unsigned)g;
        next.out = g == 1 ? e->d_out : e->d_part[buf ^ 1];
        buf ^= 1;
        p->chain += ceil((double)m / ((double)g * r->block)) + tree;
        char label[48];
        snprintf(label, sizeof label, "%s (pass %d)", rs_kernel_name(r->variant), p->nsteps + 1);
        add_step(p, &next, label);
    }
    return RS_OK;
}

static rs_status make_plan(rs_engine *e, const rs_request *r, plan *p, rs_error *err)
{
    memset(p, 0, sizeof *p);
    p->vi = rs_catalogue_get(r->variant);
    p->type = r->type;
    p->acc = rs_dtype_acc(r->type);
    p->op = r->op;
    p->n = r->n;
    if (p->vi->flags & RS_VF_LIBRARY) {
        /* CUB's per-thread work is not ours to see; assume at least 4096 threads. */
        p->chain = ceil((double)r->n / 4096.0) + 64.0;
        p->names[0] = rs_kernel_name(r->variant);
        return RS_OK;
    }
    return plan_kernels(e, r, p, err);
}

/* An upper bound of the first pass's blocks (grid-stride variants stop at
 * one wave, at most 64 blocks per SM). */
static uint64_t first_pass_blocks(const rs_engine *e, const rs_request *r)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    if (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST)) return 1;
    if (!(vi->flags & RS_VF_GRID_STRIDE))
        return ceil_div(r->n, (uint64_t)r->block * vi->elems_per_thread);
    if (r->grid) return r->grid;
    if (r->ept) return ceil_div(r->n, (uint64_t)r->block * r->ept);
    return (uint64_t)(e->info.sm_count > 0 ? e->info.sm_count : 1) * 64;
}

/* Buffers a plan needs, sized before planning binds their addresses. */
static rs_status ensure_work(rs_engine *e, const rs_request *r, rs_error *err)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    const size_t asz = rs_dtype_size(rs_dtype_acc(r->type));
    rs_status st;
    size_t cap_out = e->d_out ? 16 : 0, cap_cnt = e->d_counter ? 16 : 0;
    if ((st = ensure_device(e, &e->d_out, &cap_out, 16, "allocating the result", err)) ||
        (st = ensure_device(e, (void **)&e->d_counter, &cap_cnt, 16, "allocating a counter", err)))
        return st;
    if (vi->flags & RS_VF_LIBRARY) {
        if (r->variant == RS_V_CUB) {
            size_t need = 0;
            CUDA_TRY(e, err, rs_cub_temp_bytes(r->type, r->op, r->n, &need),
                     "sizing CUB's temporary storage");
            return ensure_device(e, &e->d_temp, &e->temp_bytes, need,
                                 "allocating CUB's temporary storage", err);
        }
        return RS_OK;
    }
    const uint64_t blocks = first_pass_blocks(e, r);
    const size_t bytes = (size_t)blocks * asz;
    size_t cap0 = e->part_bytes, cap1 = e->part_bytes;
    if ((st = ensure_device(e, &e->d_part[0], &cap0, bytes, "allocating block results", err)) ||
        (st = ensure_device(e, &e->d_part[1], &cap1, bytes, "allocating block results", err)))
        return st;
    e->part_bytes = cap0 < cap1 ? cap0 : cap1;
    if (e->h_part_bytes < bytes) {
        free(e->h_part);
        e->h_part = malloc(bytes);
        e->h_part_bytes = e->h_part ? bytes : 0;
        if (!e->h_part) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    }
    return RS_OK;
}

/* ---- running ----------------------------------------------------------------------- */

typedef struct exec_ctx {
    rs_engine *e;
    const plan *p;
    const volatile int *cancel;
    int host_value; /* the result arrived in host memory */
    unsigned char host_bytes[16];
} exec_ctx;

static int cancelled(const volatile int *c)
{
    return c && *c;
}

static rs_status exec_once(void *vctx, rs_error *err)
{
    exec_ctx *x = vctx;
    rs_engine *e = x->e;
    const plan *p = x->p;
    x->host_value = 0;
    if (p->init_first)
        CUDA_TRY(e, err, rs_kernel_init_result(p->acc, p->op, e->d_out, e->stream),
                 "initialising the result");
    if (p->vi->id == RS_V_CUB) {
        CUDA_TRY(e, err,
                 rs_cub_reduce(p->type, p->op, e->d_in, p->n, e->d_out, e->d_temp, e->temp_bytes,
                               e->stream),
                 "running cub::DeviceReduce");
        return RS_OK;
    }
    if (p->vi->id == RS_V_THRUST) {
        CUDA_TRY(e, err, rs_thrust_reduce(p->type, p->op, e->d_in, p->n, x->host_bytes, e->stream),
                 "running thrust::reduce");
        x->host_value = 1;
        return RS_OK;
    }
    for (int i = 0; i < p->nsteps; i++) {
        if (i > 0 && cancelled(x->cancel)) return rs_fail(err, RS_E_CANCELLED, "cancelled");
        CUDA_TRY(e, err, rs_kernel_launch(&p->step[i]), "launching the kernel");
    }
    if (p->cpu_finish) {
        const size_t asz = rs_dtype_size(p->acc);
        CUDA_TRY(e, err,
                 cudaMemcpyAsync(e->h_part, e->d_part[0], (size_t)p->cpu_count * asz,
                                 cudaMemcpyDeviceToHost, e->stream),
                 "copying block results to the host");
        CUDA_TRY(e, err, cudaStreamSynchronize(e->stream), "running the kernel");
        rs_value v = rs_cpu_reduce(e->h_part, p->acc, p->op, p->cpu_count);
        rs_value_to_bytes(&v, x->host_bytes);
        x->host_value = 1;
    }
    return RS_OK;
}

/* Evict the L2 by reading twice its size, so that every run, timed or
 * profiled, reads its input from DRAM as Nsight Compute's cache control
 * makes it: inputs smaller than the L2 would otherwise time the cache.
 * Reading (not writing) leaves clean lines: no write-backs land in the
 * next kernel's DRAM counters. */
static rs_status flush_l2(rs_engine *e, rs_error *err)
{
    if (!e->d_flush) {
        int l2 = 0;
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, e->device);
        const size_t bytes = (size_t)(l2 > 0 ? l2 : 64 << 20) * 2 + 16;
        rs_status st = ensure_device(e, &e->d_flush, &e->flush_bytes, bytes,
                                     "allocating the cache-flush buffer", err);
        if (st != RS_OK) return st;
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_flush, 0, e->flush_bytes, e->stream),
                 "clearing the cache-flush buffer");
    }
    const unsigned grid = (unsigned)(e->info.sm_count > 0 ? e->info.sm_count : 1) * 8u;
    unsigned long long *sink = (unsigned long long *)((char *)e->d_flush + e->flush_bytes - 16);
    CUDA_TRY(e, err, rs_stream_read(e->d_flush, e->flush_bytes - 16, grid, 256, sink, e->stream),
             "flushing the L2");
    return RS_OK;
}

/* Fresh garbage before every run, so a result nobody wrote cannot pass. */
static rs_status poison(rs_engine *e, const plan *p, int pattern, rs_error *err)
{
    CUDA_TRY(e, err, cudaMemsetAsync(e->d_out, pattern, 16, e->stream), "poisoning the result");
    CUDA_TRY(e, err, cudaMemsetAsync(e->d_counter, 0, 16, e->stream), "resetting the counter");
    if (p->nsteps && !(p->vi->flags & RS_VF_LIBRARY)) {
        const size_t bytes = p->part_elems * rs_dtype_size(p->acc);
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_part[0], pattern, bytes, e->stream),
                 "poisoning block results");
        CUDA_TRY(e, err, cudaMemsetAsync(e->d_part[1], pattern, bytes, e->stream),
                 "poisoning block results");
    }
    return RS_OK;
}

static rs_status read_result(exec_ctx *x, rs_value *v, rs_error *err)
{
    unsigned char bytes[16];
    if (x->host_value) {
        memcpy(bytes, x->host_bytes, sizeof bytes);
    } else {
        rs_engine *e = x->e;
        CUDA_TRY(e, err,
                 cudaMemcpyAsync(bytes, e->d_out, rs_dtype_size(x->p->acc), cudaMemcpyDeviceToHost,
                                 e->stream),
                 "reading the result");
        CUDA_TRY(e, err, cudaStreamSynchronize(e->stream), "running the reduction");
    }
    *v = rs_value_from_bytes(x->p->acc, bytes);
    return RS_OK;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void record_check(rs_result *res, const rs_reference *ref, const rs_value *v, const plan *p,
                         int first)
{
    const rs_check c = rs_reference_check(ref, v, p->op, p->n, p->chain);
    if (!c.ok) res->bad_reps++;
    /* keep the worst repetition */
    if (first || (!c.ok && res->correct) || c.rel_err > res->rel_err || isnan(c.rel_err)) {
        res->got = *v;
        res->abs_err = c.abs_err;
        res->rel_err = c.rel_err;
        res->tol = c.tol;
    }
    res->correct = res->bad_reps == 0;
}

static rs_status time_cpu_baseline(rs_engine *e, const rs_request *r)
{
    if (e->cpu_ms[r->op] > 0.0) return RS_OK;
    double best = INFINITY, total = 0.0;
    for (int k = 0; k < 5 && total < 50.0; k++) {
        const double t0 = now_ms();
        volatile rs_value v = rs_cpu_reduce(e->h_in, r->type, r->op, r->n);
        (void)v;
        const double dt = now_ms() - t0;
        total += dt;
        if (dt < best) best = dt;
    }
    e->cpu_ms[r->op] = best > 0.0 ? best : 1e-6;
    return RS_OK;
}

static void progress(const rs_hooks *h, double done)
{
    if (h && h->progress) h->progress(h->ctx, done);
}

static rs_status run_cpu_variant(rs_engine *e, const rs_request *r, const rs_hooks *h,
                                 rs_result *res, rs_error *err)
{
    rs_status st = ensure_input(e, r, 0, 0, err);
    if (st != RS_OK) return st;
    const unsigned total = r->warmup + r->reps;
    double *t = malloc(sizeof(double) * r->reps);
    if (!t) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    plan p;
    memset(&p, 0, sizeof p);
    p.op = r->op;
    p.n = r->n;
    p.chain = rs_cpu_reduce_chain(r->n);
    for (unsigned k = 0; k < total; k++) {
        if (cancelled(h ? h->cancel : NULL)) {
            free(t);
            return rs_fail(err, RS_E_CANCELLED, "cancelled");
        }
        const double t0 = now_ms();
        rs_value v = rs_cpu_reduce(e->h_in, r->type, r->op, r->n);
        const double dt = now_ms() - t0;
        if (k >= r->warmup) {
            t[k - r->warmup] = dt;
            record_check(res, &e->ref[r->op], &v, &p, k == r->warmup);
        }
        progress(h, (k + 1.0) / total);
    }
    qsort(t, r->reps, sizeof *t, cmp_double);
    res->t_median_ms = t[r->reps / 2];
    res->t_min_ms = t[0];
    res->t_max_ms = t[r->reps - 1];
    e->cpu_ms[r->op] = res->t_min_ms;
    free(t);
    return RS_OK;
}

static rs_status run_gpu_variant(rs_engine *e, const rs_request *r, const rs_hooks *h,
                                 rs_result *res, plan *p, rs_error *err)
{
    rs_status st;
    const size_t extra = (size_t)first_pass_blocks(e, r) * 2 * rs_dtype_size(rs_dtype_acc(r->type));
    if ((st = ensure_input(e, r, 1, extra, err)) || (st = ensure_work(e, r, err)) ||
        (st = make_plan(e, r, p, err)))
        return st;
    if (p->part_elems * rs_dtype_size(p->acc) > e->part_bytes && !(p->vi->flags & RS_VF_LIBRARY))
        return rs_fail(err, RS_E_USAGE, "internal: block-result buffer too small");
    exec_ctx x = {e, p, h ? h->cancel : NULL, 0, {0}};
    const unsigned total = r->warmup + r->reps;
    double *t = malloc(sizeof(double) * r->reps);
    if (!t) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    for (unsigned k = 0; k < total && st == RS_OK; k++) {
        float ms = 0.0f;
        rs_value v;
        if (cancelled(x.cancel)) {
            st = rs_fail(err, RS_E_CANCELLED, "cancelled");
            break;
        }
        if ((st = flush_l2(e, err)) != RS_OK || (st = poison(e, p, (k & 1) ? 0xa5 : 0xff, err)))
            break;
        cudaError_t c = cudaEventRecord(e->ev_start, e->stream);
        if (c == cudaSuccess && (st = exec_once(&x, err)) != RS_OK) break;
        if (c == cudaSuccess) c = cudaEventRecord(e->ev_stop, e->stream);
        if (c == cudaSuccess) c = cudaEventSynchronize(e->ev_stop);
        if (c == cudaSuccess) c = cudaEventElapsedTime(&ms, e->ev_start, e->ev_stop);
        if (c != cudaSuccess) {
            st = cuda_fail(e, err, c, "timing the reduction");
            break;
        }
        if ((st = read_result(&x, &v, err)) != RS_OK) break;
        if (k >= r->warmup) {
            t[k - r->warmup] = ms;
            record_check(res, &e->ref[r->op], &v, p, k == r->warmup);
        }
        progress(h, (k + 1.0) / total);
    }
    if (st == RS_OK) {
        qsort(t, r->reps, sizeof *t, cmp_double);
        res->t_median_ms = t[r->reps / 2];
        res->t_min_ms = t[0];
        res->t_max_ms = t[r->reps - 1];
    }
    free(t);
    return st;
}

/* The profiled body starts with its own L2 flush: setting up a profiling
 * session leaves dirty lines in the L2 (seen on an H200: 15-40 MB of DRAM
 * writes charged to the first kernel whenever its input outgrew the L2).
 * The flush is launch 0 of every collection and is dropped from it. */
static rs_status flush_then_run(void *vctx, rs_error *err)
{
    exec_ctx *x = vctx;
    const rs_status st = flush_l2(x->e, err);
    return st != RS_OK ? st : exec_once(vctx, err);
}

/* Launch names: the plan's when the counts agree (the library variants
 * launch kernels of their own), otherwise numbered after the variant. */
static void name_launches(rs_metrics *m, const char *const *names, int nn)
{
    for (int k = 0; k < m->nlaunch; k++) {
        if (m->nlaunch == nn)
            snprintf(m->launch[k].name, sizeof m->launch[k].name, "%s", names[k]);
        else
            snprintf(m->launch[k].name, sizeof m->launch[k].name, "%s kernel %d", names[nn - 1],
                     k + 1);
    }
}

static rs_status collect_set(rs_engine *e, const plan *p, rs_metric_mask m,
                             const char *const *names, int nn, rs_metrics *out, rs_error *err)
{
    exec_ctx x = {e, p, NULL, 0, {0}};
    rs_status st = poison(e, p, 0xff, err);
    if (st != RS_OK) return st;
    st = rs_prof_collect(e->prof, m, flush_then_run, &x, out, err);
    if (st != RS_OK || out->nlaunch < 1) return st;
    memmove(&out->launch[0], &out->launch[1], sizeof out->launch[0] * (size_t)(out->nlaunch - 1));
    out->nlaunch--;
    name_launches(out, names, nn);
    rs_metrics_aggregate(out);
    return RS_OK;
}

/* The one-pass counters (DRAM, shared memory, instructions) are collected
 * on their own, so asking for more metrics never changes how they are read;
 * what needs more passes comes from a second collection. */
static void split_set(rs_metric_mask m, rs_metric_mask *one, rs_metric_mask *more)
{
    *one = m & rs_metric_set_default();
    *more = m & ~rs_metric_set_default();
}

/* Add a second collection's metrics to the first. */
static void merge_metrics(rs_metrics *into, const rs_metrics *from)
{
    const rs_metric_mask add = from->valid & ~into->valid;
    into->passes += from->passes;
    into->wall_ms += from->wall_ms;
    if (!from->valid && from->reason[0] && !into->reason[0])
        snprintf(into->reason, sizeof into->reason, "%s", from->reason);
    if (!add || into->nlaunch != from->nlaunch) return;
    for (int k = 0; k < into->nlaunch; k++)
        for (int i = 0; i < RS_METRIC_COUNT; i++)
            if (add & RS_METRIC_BIT(i)) into->launch[k].value[i] = from->launch[k].value[i];
    into->valid |= add;
    rs_metrics_aggregate(into);
}

static rs_status collect_metrics(rs_engine *e, const rs_request *r, const plan *p, rs_result *res,
                                 const rs_hooks *hooks, rs_error *err)
{
    rs_metric_mask m = 0;
    rs_metrics *mt = &res->metrics;
    rs_metric_parse_set(r->metrics, &m, NULL);
    mt->requested = m;
    if (!m) return RS_OK;
    if (r->variant == RS_V_CPU) {
        snprintf(mt->reason, sizeof mt->reason, "not collected: the cpu variant runs on the host");
        return RS_OK;
    }
    if (!e->prof) {
        rs_error perr;
        if (rs_prof_init(&e->prof, e->device, NULL, &perr) != RS_OK) {
            snprintf(mt->reason, sizeof mt->reason, "%.239s", perr.msg);
            return RS_OK;
        }
    }
    const char *names[RS_MAX_LAUNCHES + 2];
    int nn = 0;
    if (p->init_first) names[nn++] = "k_init (identity)";
    for (int i = 0; i < p->nsteps; i++) names[nn++] = p->names[i];
    if (p->nsteps == 0) names[nn++] = p->names[0];
    if (hooks && hooks->stage) hooks->stage(hooks->ctx, "reading counters");
    rs_metric_mask one, more;
    split_set(m, &one, &more);
    rs_status st = collect_set(e, p, one ? one : more, names, nn, mt, err);
    if (st != RS_OK || !one || !more) return st;
    rs_metrics *extra = calloc(1, sizeof *extra);
    if (!extra) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    st = collect_set(e, p, more, names, nn, extra, err);
    if (st == RS_OK) merge_metrics(mt, extra);
    free(extra);
    mt->requested = m;
    return st;
}

rs_status rs_engine_run(rs_engine *e, const rs_request *req, const rs_hooks *hooks, rs_result *res,
                        rs_error *err)
{
    memset(res, 0, sizeof *res);
    res->req = *req;
    rs_status st = rs_catalogue_check(req, err);
    if (st != RS_OK) return st;
    res->finish = rs_catalogue_finish(req);
    res->reps = req->reps;
    if (req->variant == RS_V_CPU) {
        res->device = e->info;
        st = run_cpu_variant(e, req, hooks, res, err);
        plan none;
        memset(&none, 0, sizeof none);
        if (st == RS_OK) st = collect_metrics(e, req, &none, res, hooks, err);
    } else {
        if ((st = rs_engine_gpu(e, err)) != RS_OK) return st;
        if ((st = recover(e, err)) != RS_OK) return st;
        CUDA_TRY(e, err, cudaSetDevice(e->device), "selecting the device");
        res->device = e->info;
        plan p;
        st = run_gpu_variant(e, req, hooks, res, &p, err);
        if (st == RS_OK) {
            res->grid = p.grid1;
            res->ept = p.ept;
            res->launches = (unsigned)p.nsteps + (unsigned)p.init_first;
            st = collect_metrics(e, req, &p, res, hooks, err);
        }
    }
    if (st != RS_OK) return st;
    res->expected = e->ref[req->op].exact;
    time_cpu_baseline(e, req);
    res->cpu_ms = e->cpu_ms[req->op];
    res->speedup_cpu = res->t_median_ms > 0.0 ? res->cpu_ms / res->t_median_ms : 0.0;
    res->gbps = rs_result_input_bytes(res) / (res->t_median_ms * 1e-3) / 1e9;
    if (e->info.peak_gbps > 0.0) res->pct_peak = 100.0 * res->gbps / e->info.peak_gbps;
    if (e->info.measured_gbps > 0.0) res->pct_measured = 100.0 * res->gbps / e->info.measured_gbps;
    res->device = e->info;
    return RS_OK;
}

/* ---- peak bandwidth and counters ------------------------------------------------- */

rs_status rs_engine_measure_peak(rs_engine *e, double *gbps, rs_error *err)
{
    rs_status st;
    if ((st = rs_engine_gpu(e, err)) != RS_OK || (st = recover(e, err)) != RS_OK) return st;
    if (e->info.measured_gbps > 0.0) {
        *gbps = e->info.measured_gbps;
        return RS_OK;
    }
    CUDA_TRY(e, err, cudaSetDevice(e->device), "selecting the device");
    size_t free_b = 0, total_b = 0;
    CUDA_TRY(e, err, cudaMemGetInfo(&free_b, &total_b), "asking for free memory");
    size_t bytes = (size_t)1 << 30;
    while (bytes > free_b / 4 && bytes > ((size_t)1 << 24)) bytes >>= 1;
    void *buf = NULL;
    unsigned long long *sink = NULL;
    cudaError_t c = cudaMalloc(&buf, bytes);
    if (c == cudaSuccess) c = cudaMalloc((void **)&sink, sizeof *sink);
    if (c == cudaSuccess) c = cudaMemsetAsync(buf, 0, bytes, e->stream);
    const unsigned grid = (unsigned)e->info.sm_count * 8u, block = 256;
    float t[16];
    for (int k = 0; k < 19 && c == cudaSuccess; k++) {
        c = cudaEventRecord(e->ev_start, e->stream);
        if (c == cudaSuccess) c = rs_stream_read(buf, bytes, grid, block, sink, e->stream);
        if (c == cudaSuccess) c = cudaEventRecord(e->ev_stop, e->stream);
        if (c == cudaSuccess) c = cudaEventSynchronize(e->ev_stop);
        if (c == cudaSuccess && k >= 3)
            c = cudaEventElapsedTime(&t[k - 3], e->ev_start, e->ev_stop);
    }
    cudaFree(buf);
    cudaFree(sink);
    if (c != cudaSuccess) return cuda_fail(e, err, c, "measuring the streaming-read bandwidth");
    double td[16];
    for (int k = 0; k < 16; k++) td[k] = t[k];
    qsort(td, 16, sizeof td[0], cmp_double);
    e->info.measured_gbps = (double)bytes / (td[8] * 1e-3) / 1e9;
    *gbps = e->info.measured_gbps;
    return RS_OK;
}

static rs_status ensure_prof(rs_engine *e, rs_error *err)
{
    if (e->prof) return RS_OK;
    return rs_prof_init(&e->prof, e->gpu_status == RS_OK ? e->device : -1, NULL, err);
}

int rs_engine_counters_available(rs_engine *e, char *why, size_t len)
{
    rs_error err;
    if (e->gpu_status != RS_OK) {
        snprintf(why, len, "no GPU: %s", e->gpu_msg);
        return 0;
    }
    if (ensure_prof(e, &err) != RS_OK) {
        snprintf(why, len, "%s", err.msg);
        return 0;
    }
    return rs_prof_available(e->prof, why, len);
}

/* As collect_metrics reads them: the one-pass counters alone, then the rest. */
rs_status rs_engine_metric_passes(rs_engine *e, rs_metric_mask m, int *passes,
                                  rs_metric_mask *missing, rs_error *err)
{
    rs_status st = ensure_prof(e, err);
    if (st != RS_OK) return st;
    rs_metric_mask one, more;
    split_set(m, &one, &more);
    int p1 = 0, p2 = 0;
    rs_metric_mask miss1 = 0, miss2 = 0;
    if (one && (st = rs_prof_passes(e->prof, one, &p1, &miss1, err)) != RS_OK) return st;
    if (more && (st = rs_prof_passes(e->prof, more, &p2, &miss2, err)) != RS_OK) return st;
    *passes = p1 + p2;
    if (missing) *missing = miss1 | miss2;
    return RS_OK;
}
