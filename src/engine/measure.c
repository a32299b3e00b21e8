/* The device's limits, measured in this process: the streaming-read
 * bandwidth from DRAM (the best of a few launch shapes of the read kernel
 * over 1 GiB), the L2's read bandwidth (the same kernel and shapes over
 * inputs of an eighth to three quarters of the L2, each read just before),
 * the event-timing floor (an empty kernel) and the one-launch floor (one
 * launch that reads 2^16 int32 from DRAM, the L2 flushed before it). */
#include <stdlib.h>

#include "internal.h"

typedef struct shape {
    unsigned blocks_per_sm, block;
} shape;

static unsigned sms(const rs_engine *e)
{
    return e->info.sm_count > 0 ? (unsigned)e->info.sm_count : 1u;
}

/* What runs untimed before each timed launch: nothing, an L2 flush (the
 * GPU busy as the start event is recorded, the L2 cold), or the same read
 * (busy, and the buffer warm in the L2). */
enum { BEFORE_NONE, BEFORE_FLUSH, BEFORE_READ };

/* Milliseconds of 15 timed launches (after 3 untimed) of what `shape`
 * says, a read of `bytes` at buf or an empty kernel (buf NULL): their
 * median, or their best where before is BEFORE_READ (the L2's ceiling: what
 * it can give, where a launch of a microsecond or two varies by a fifth from
 * one to the next). */
static cudaError_t median_ms(rs_engine *e, const void *buf, size_t bytes, shape s, int before,
                             unsigned long long *sink, double *ms)
{
    enum { WARM = 3, REPS = 15 };
    double t[REPS];
    const unsigned grid = sms(e) * s.blocks_per_sm;
    cudaError_t c = cudaSuccess;
    for (int k = 0; k < WARM + REPS && c == cudaSuccess; k++) {
        rs_error ignored;
        if (before == BEFORE_FLUSH && rs_engine_flush_l2(e, &ignored) != RS_OK) {
            const cudaError_t why = cudaGetLastError(); /* the flush buffer's, as a rule */
            return why != cudaSuccess ? why : cudaErrorMemoryAllocation;
        }
        if (before == BEFORE_READ && buf)
            c = rs_stream_read(buf, bytes, sms(e) * s.blocks_per_sm, s.block, sink, e->stream);
        float f = 0.0f;
        if (c == cudaSuccess) c = cudaEventRecord(e->ev_start, e->stream);
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
    *ms = t[before == BEFORE_READ ? 0 : REPS / 2];
    return cudaSuccess;
}

/* The best of a few shapes: whole SMs of 1024, 512 and 256 threads. */
static cudaError_t best_read(rs_engine *e, void *buf, size_t bytes, int before,
                             unsigned long long *sink, double *gbps)
{
    static const shape shapes[] = {{2, 1024}, {4, 512}, {8, 256}};
    *gbps = 0.0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        double ms = 0.0;
        const cudaError_t c = median_ms(e, buf, bytes, shapes[i], before, sink, &ms);
        if (c != cudaSuccess) return c;
        const double g = ms > 0.0 ? (double)bytes / (ms * 1e-3) / 1e9 : 0.0;
        if (g > *gbps) *gbps = g;
    }
    return cudaSuccess;
}

/* The L2's ceiling: the best over sizes the L2 holds (an eighth to three
 * quarters: small ones pay the launch, large ones meet misses), each read
 * timed right after the same read, as a warm run is (run.c). */
static cudaError_t best_l2_read(rs_engine *e, void *buf, size_t cap, unsigned long long *sink,
                                double *gbps)
{
    const size_t l2 = e->info.l2_bytes;
    *gbps = 0.0;
    for (size_t eighths = 1; l2 >= (1u << 20) && eighths <= 6; eighths++) {
        const size_t bytes = (l2 / 8 * eighths) & ~(size_t)4095;
        double g = 0.0;
        if (bytes > cap) break;
        const cudaError_t c = best_read(e, buf, bytes, BEFORE_READ, sink, &g);
        if (c != cudaSuccess) return c;
        if (g > *gbps) *gbps = g;
    }
    return cudaSuccess;
}

static cudaError_t floors(rs_engine *e, void *buf, unsigned long long *sink)
{
    double ms = 0.0;
    /* after an L2 flush, as every timing here: the GPU is busy when the start
     * event is recorded, so the host's launch latency is not counted */
    cudaError_t c = median_ms(e, NULL, 0, (shape){1, 32}, BEFORE_FLUSH, sink, &ms);
    if (c != cudaSuccess) return c;
    e->info.floor_empty_us = ms * 1e3;
    const size_t small = ((size_t)1 << 16) * 4; /* 2^16 int32: one vector per thread */
    const shape one = {(unsigned)(small / 16 / 256 / sms(e)) + 1, 256};
    c = median_ms(e, buf, small, one, BEFORE_FLUSH, sink, &ms);
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
    if (c == cudaSuccess) c = best_read(e, buf, bytes, BEFORE_NONE, sink, &g);
    if (c == cudaSuccess && best_l2_read(e, buf, bytes, sink, &e->info.l2_gbps) != cudaSuccess) {
        cudaGetLastError(); /* an extra, as the floors: unmeasured, the DRAM limit stands */
        e->info.l2_gbps = 0.0;
    }
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
