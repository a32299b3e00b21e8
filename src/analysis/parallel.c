#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

typedef struct slice_job {
    void *ctx;
    void (*fn)(void *, int, uint64_t, uint64_t);
    int slice;
    uint64_t lo, hi;
} slice_job;

static void *run_slice(void *p)
{
    const slice_job *j = p;
    j->fn(j->ctx, j->slice, j->lo, j->hi);
    return NULL;
}

static int slice_count(uint64_t n, uint64_t min_per_slice)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t s = cpus > 1 ? (uint64_t)cpus : 1;
    if (s > RS_PARALLEL_MAX) s = RS_PARALLEL_MAX;
    if (min_per_slice < 1) min_per_slice = 1;
    const uint64_t fit = n / min_per_slice;
    if (s > fit) s = fit;
    return s < 1 ? 1 : (int)s;
}

int rs_parallel(uint64_t n, uint64_t min_per_slice, void *ctx,
                void (*fn)(void *ctx, int slice, uint64_t lo, uint64_t hi))
{
    const int s = slice_count(n, min_per_slice);
    slice_job job[RS_PARALLEL_MAX];
    pthread_t th[RS_PARALLEL_MAX];
    int started[RS_PARALLEL_MAX] = {0};
    for (int k = 0; k < s; k++) {
        /* n * k / s without overflow: n < 2^64, s <= 16 */
        const uint64_t lo =
            n / (uint64_t)s * (uint64_t)k + n % (uint64_t)s * (uint64_t)k / (uint64_t)s;
        const uint64_t hi = k + 1 == s ? n
                                       : n / (uint64_t)s * (uint64_t)(k + 1) +
                                             n % (uint64_t)s * (uint64_t)(k + 1) / (uint64_t)s;
        job[k] = (slice_job){ctx, fn, k, lo, hi};
    }
    for (int k = 1; k < s; k++) started[k] = pthread_create(&th[k], NULL, run_slice, &job[k]) == 0;
    run_slice(&job[0]);
    for (int k = 1; k < s; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            run_slice(&job[k]);
    }
    return s;
}
