/* The device's limits, measured in this process: the streaming-read
 * bandwidth (the best of a few launch shapes of the read kernel), the
 * event-timing floor (an empty kernel) and the one-launch floor (one launch
 * that reads 2^16 int32 from DRAM, the L2 flushed before it). */
#include <stdlib.h>

#include "internal.h"

typedef struct shape {
    unsigned blocks_per_sm, block;
} shape;

static unsigned sms(const rs_engine *e)
{
    return e->info.sm_count > 0 ? (unsigned)e->info.sm_count : 1u;
}

/* Median milliseconds of `reps` timed launches (after 3 untimed) of what
 * `shape` says: a read of `bytes` at buf, or an empty kernel (buf NULL). */
static cudaError_t median_ms(rs_engine *e, const void *buf, size_t bytes, shape s, int flush,
                             unsigned long long *sink, double *ms)
{
    enum { WARM = 3, REPS = 15 };
    double t[REPS];
    const unsigned grid = sms(e) * s.blocks_per_sm;
    cudaError_t c = cudaSuccess;
    for (int k = 0; k < WARM + REPS && c == cudaSuccess; k++) {
        rs_error ignored;
        if (flush && rs_engine_flush_l2(e, &ignored) != RS_OK) {
            const cudaError_t why = cudaGetLastError(); /* the flush buffer's, as a rule */
            return why != cudaSuccess ? why : cudaErrorMemoryAllocation;
        }
        float f = 0.0f;
        c = cudaEventRecord(e->ev_start, e->stream);
        if (c == cudaSuccess)
            c = buf ? rs_stream_read(buf, bytes, grid, s.block, sink, e->stream)
                    : rs_kernel_empty(e->stream);
        if (c == cudaSuccess) c = cudaEventRecord(e->ev_stop, e->stream);
        if (c == cudaSuccess) c = cudaEventSynchronize(e->ev_stop);
        if (c == cudaSuccess) c = cudaEventElapsedTime(&f, e->ev_start, e->ev_stop);
        if (k >= WARM) t[k - WARM] = f;
    }
    if (c != cudaSuccess) return c;
    qsort(t, REPS, sizeof t[0], rs_cmp_double);
    *ms = t[REPS / 2];
    return cudaSuccess;
}

/* The best of a few shapes: whole SMs of 1024, 512 and 256 threads. */
static cudaError_t best_read(rs_engine *e, void *buf, size_t bytes, unsigned long long *sink,
                             double *gbps)
{
    static const shape shapes[] = {{2, 1024}, {4, 512}, {8, 256}};
    *gbps = 0.0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        double ms = 0.0;
        const cudaError_t c = median_ms(e, buf, bytes, shapes[i], 0, sink, &ms);
        if (c != cudaSuccess) return c;
        const double g = ms > 0.0 ? (double)bytes / (ms * 1e-3) / 1e9 : 0.0;
        if (g > *gbps) *gbps = g;
    }
    return cudaSuccess;
}

static cudaError_t floors(rs_engine *e, void *buf, unsigned long long *sink)
{
    double ms = 0.0;
    /* after an L2 flush, as every timing here: the GPU is busy when the start
     * event is recorded, so the host's launch latency is not counted */
    cudaError_t c = median_ms(e, NULL, 0, (shape){1, 32}, 1, sink, &ms);
    if (c != cudaSuccess) return c;
    e->info.floor_empty_us = ms * 1e3;
    const size_t small = ((size_t)1 << 16) * 4; /* 2^16 int32: one vector per thread */
    const shape one = {(unsigned)(small / 16 / 256 / sms(e)) + 1, 256};
    c = median_ms(e, buf, small, one, 1, sink, &ms);
    if (c == cudaSuccess) e->info.floor_launch_us = ms * 1e3;
    return c;
}

rs_status rs_engine_measure_peak(rs_engine *e, double *gbps, rs_error *err)
{
    rs_status st;
    if ((st = rs_engine_gpu(e, err)) != RS_OK || (st = rs_engine_recover(e, err)) != RS_OK)
        return st;
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
    double g = 0.0;
    if (c == cudaSuccess) c = best_read(e, buf, bytes, sink, &g);
    if (c == cudaSuccess && floors(e, buf, sink) != cudaSuccess) {
        cudaGetLastError(); /* the floors are extras: unmeasured, the limit stands */
        e->info.floor_empty_us = e->info.floor_launch_us = 0.0;
    }
    cudaFree(buf);
    cudaFree(sink);
    if (c != cudaSuccess) return rs_cuda_fail(e, err, c, "measuring the streaming-read bandwidth");
    e->info.measured_gbps = g;
    *gbps = g;
    return RS_OK;
}
