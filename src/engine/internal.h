/* The engine's parts share this: the engine's state and the helpers each
 * part offers the others. Not a public header: views see engine.h. */
#ifndef RS_ENGINE_INTERNAL_H
#define RS_ENGINE_INTERNAL_H

#include <cuda_runtime_api.h>

#include "nvtools/cubin_lines.h"
#include "analysis/reference.h"
#include "engine.h"
#include "kernels/rs_kernels.h"
#include "plan.h"
#include "profiling/profiler.h"

#include <pthread.h>

typedef struct rs_ukernels rs_ukernels;
typedef struct rs_shards rs_shards;
typedef struct rs_nvml rs_nvml;

typedef struct input_key {
    int valid;
    rs_dtype type;
    int product; /* product inputs differ from the others */
    rs_dist dist;
    uint64_t seed, n;
} input_key;

struct rs_engine {
    int device; /* CUDA's number for it in this process */
    int shown;  /* the number it is known by (rs_engine_show_as) */
    rs_status gpu_status;
    char gpu_msg[sizeof(((rs_error *)0)->msg)];
    rs_device_info info;
    int broken;        /* a sticky CUDA error: the context must be rebuilt */
    unsigned gpu_runs; /* GPU runs so far, for the test-only fault */
    unsigned fault_at; /* REDSCOPE_TEST_FAULT: that GPU run faults; 0: none */
    int fault_gpu;     /* "N@G": on GPU G of a split run (split.c); -1: "N" */
    int fault_pending; /* 1 + the GPU the current split run faults on; 0: none */
    int split_one;     /* REDSCOPE_TEST_SPLIT: a one-GPU run goes through split.c */
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
    pthread_t prof_thread; /* the profiler's start, while a run makes its input */
    int prof_starting;
    rs_prof *prof_next;
    rs_ukernels *uk;  /* user kernels: the file, its compiled modules */
    rs_shards *split; /* runs over several GPUs (split.c) */
    rs_nvml *nvml;    /* the energy counter (energy.c), opened on first use */
    /* the other GPUs' engines, opened by a run over several and kept while
     * this one lives (their profilers too: CUPTI's is one per process) */
    rs_engine *peer[RS_GPUS_MAX];
};

/* cuda_error.c: a CUDA error as a status (a sticky one marks the context
 * for rebuilding); device.c rebuilds the context after one
 * (rs_engine_recover). */
rs_status rs_cuda_fail(rs_engine *e, rs_error *err, cudaError_t c, const char *what);
/* 1 for an error that leaves the context unusable (an illegal address, ...). */
int rs_cuda_sticky(cudaError_t c);
rs_status rs_engine_recover(rs_engine *e, rs_error *err);

#define CUDA_TRY(e, err, call, what)                                                               \
    do {                                                                                           \
        cudaError_t c_ = (call);                                                                   \
        if (c_ != cudaSuccess) return rs_cuda_fail((e), (err), c_, (what));                        \
    } while (0)

/* buffers.c: a device buffer of at least bytes (cap: its size); the input
 * and its reference for r, checked to fit with extra device bytes; the
 * buffers plan p needs; all freed. */
rs_status rs_engine_buffer(rs_engine *e, void **p, size_t *cap, size_t bytes, const char *what,
                           rs_error *err);
rs_status rs_engine_input(rs_engine *e, const rs_request *r, int on_gpu, size_t extra,
                          rs_error *err);
rs_status rs_engine_work(rs_engine *e, const rs_request *r, const rs_plan *p, rs_error *err);
void rs_engine_free_buffers(rs_engine *e);

/* exec.c: one issue of the plan's launches (for timing, counters, energy,
 * PC sampling and the split), the L2 evicted, the buffers poisoned. */
typedef struct rs_exec {
    rs_engine *e;
    const rs_plan *p;
    const volatile int *cancel;
    int host_value; /* the result arrived in host memory */
    unsigned char host_bytes[16];
} rs_exec;
rs_status rs_engine_exec(void *exec, rs_error *err);
/* The plan of r on this engine's GPU (its occupancy asked where needed). */
rs_status rs_engine_plan(rs_engine *e, const rs_request *r, rs_plan *p, rs_error *err);
/* One repetition's result v checked against ref into res (the worst kept). */
void rs_engine_check(rs_result *res, const rs_reference *ref, const rs_value *v, const rs_plan *p,
                     int first);
rs_status rs_engine_flush_l2(rs_engine *e, rs_error *err);
/* The L2 as p->cache asks before an issue of p over input `in`: flushed
 * (cold), or flushed and then `in` read into it (warm). */
rs_status rs_engine_cache_prep(rs_engine *e, const rs_plan *p, const void *in, rs_error *err);
/* The launches rs_engine_cache_prep issues (1 cold, 2 warm). */
int rs_engine_cache_launches(const rs_plan *p, const void *in);
/* Whether a cancel was asked (c set from any thread; NULL: never). */
int rs_engine_cancelled(const volatile int *c);
/* The result one issue left (on the GPU, or on the host for thrust). */
rs_status rs_engine_read_result(rs_exec *x, rs_value *v, rs_error *err);
rs_status rs_engine_poison(rs_engine *e, const rs_plan *p, int pattern, rs_error *err);
double rs_now_ms(void);
int rs_cmp_double(const void *a, const void *b);

/* counters.c: the counters the request asks for, read in their own runs;
 * the profiler started on a thread of its own where r will need it (joined
 * before its first use: rs_engine_prof_join). */
rs_status rs_engine_counters(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                             const rs_hooks *hooks, rs_error *err);
/* One part of them: the one-pass set, or the rest (engine.h). */
rs_status rs_engine_counters_part(rs_engine *e, const rs_request *r, const rs_plan *p,
                                  rs_counters_part part, rs_result *res, const rs_hooks *hooks,
                                  rs_error *err);
void rs_engine_prof_start(rs_engine *e, const rs_request *r);

/* stalls_run.c: the stall view the request asks for (PC sampling of the
 * plan's launches in a run of their own), into res->stalls (a kept view). */
rs_status rs_engine_stalls(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                           const rs_hooks *hooks, rs_error *err);
void rs_engine_prof_join(rs_engine *e);

/* energy.c: the energy per reduction the request asks for (NVML's
 * counter over a loop of its own) into res->energy (p NULL: a run over
 * several GPUs, not measured); NVML closed. A missing NVML or counter is a
 * note in res->energy, not an error. */
rs_status rs_engine_energy(rs_engine *e, const rs_request *r, const rs_plan *p, rs_result *res,
                           const rs_hooks *hooks, rs_error *err);
void rs_engine_energy_free(rs_engine *e);

/* split.c: a run over several GPUs (r->gpus != 1): how many (0: every
 * one; a reason when the machine has fewer), the run itself on GPUs
 * 0..gpus-1 with e as the first, and the other GPUs' engines freed. */
rs_status rs_split_gpus(const rs_request *r, int *gpus, rs_error *err);
rs_status rs_engine_run_split(rs_engine *e, const rs_request *r, int gpus, const rs_hooks *hooks,
                              rs_result *res, rs_error *err);
void rs_split_free(rs_shards *s);

/* ukernel.c: the user's file read and checked (its variant description in
 * *vi), the modules of the plan compiled (the build in res->uk), launches,
 * occupancy; freed with the engine. */
rs_status rs_uk_prepare(rs_engine *e, const rs_request *r, const rs_variant_info **vi,
                        rs_error *err);
rs_status rs_uk_blocks_per_sm(rs_engine *e, const rs_request *r, rs_kfinish fin, int *blocks,
                              rs_error *err);
rs_status rs_uk_compile_plan(rs_engine *e, const rs_plan *p, rs_result *res, rs_error *err);
cudaError_t rs_uk_launch(rs_engine *e, const rs_launch *l);
/* The inline chain of a PC of the user's kernel (function: its cubin
 * name), from NVRTC's cubin (nvtools/cubin_lines.h): the frames filled, 0
 * with a reason. rs_uk_path: the user's kernel file (NULL: none). */
int rs_uk_chain(rs_engine *e, const char *function, uint64_t pc, rs_src_frame *frames, int max,
                rs_error *err);
const char *rs_uk_path(const rs_engine *e);
/* The user's kernel file as compiled (NULL: none). */
const char *rs_uk_text(const rs_engine *e);
/* The user kernel's cubin written to the cache folder (for its SASS on
 * request, later); 1 with its path, 0 when it is not a user kernel. */
int rs_uk_save_cubin(rs_engine *e, const char *function, char *path, size_t len);
void rs_uk_free(rs_ukernels *u);

#endif
