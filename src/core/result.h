/* What the engine returns and views read: device facts, times, the
 * correctness verdict and hardware counters, each with a validity bit. */
#ifndef RS_RESULT_H
#define RS_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "metric_table.h"
#include "value.h"
#include "request.h"
#include "stalls.h"

#define RS_MAX_LAUNCHES 16

typedef struct rs_device_info {
    int index; /* -1: no CUDA device */
    char name[128];
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_sm;
    uint64_t total_mem;
    uint64_t free_mem;
    int mem_clock_khz;
    int bus_width_bits;
    double peak_gbps;       /* theoretical: memory clock x bus width x 2 */
    double measured_gbps;   /* streaming read kernel from DRAM; 0 until measured */
    double l2_gbps;         /* the same kernel over inputs the L2 holds, warm; 0 until measured */
    uint64_t l2_bytes;      /* the L2's size (0: unknown) */
    double floor_empty_us;  /* event time of an empty kernel: timing's floor */
    double floor_launch_us; /* one launch reading 2^16 int32 from DRAM (L2 flushed) */
    int driver_version;     /* 13000 = 13.0 */
    int runtime_version;
} rs_device_info;

typedef struct rs_launch_metrics {
    char name[48];
    unsigned grid, block;
    double value[RS_METRIC_COUNT];
} rs_launch_metrics;

/* The launches' counters while they are collected, named and derived
 * (the profiler, the engine, a reader); a result keeps them (rs_keep). */
typedef struct rs_launches {
    int n;
    rs_launch_metrics at[RS_MAX_LAUNCHES];
} rs_launches;

typedef struct rs_metrics {
    rs_metric_mask requested;      /* what the user asked for */
    rs_metric_mask valid;          /* what was read; others carry `reason` */
    int passes;                    /* replay passes the set costs */
    char reason[240];              /* why counters are missing ("" when all valid) */
    double value[RS_METRIC_COUNT]; /* summed or weighted over all launches */
    int nlaunch;
    /* nlaunch of them, kept (rs_keep): never changed once kept, so copies
     * of a result share them; a row holds only the launches it has */
    const rs_launch_metrics *launch;
    double wall_ms; /* wall time the profiling runs took */
} rs_metrics;

/* Energy per reduction (--energy): the board's energy counter (NVML, in
 * mJ) read at two of its updates, `window_ms` apart, while the GPU ran the
 * reduction back to back `reps` times (no L2 flush between them). */
typedef struct rs_energy {
    int requested;      /* the request asked for it */
    int valid;          /* measured; else `note` says why not */
    char note[200];     /* why not (valid 0) */
    double joules;      /* per reduction: watts x rep_ms */
    double watts;       /* average board power over the window */
    double j_per_gb;    /* joules per GB of input read */
    double rep_ms;      /* one reduction's time in the loop (cudaEvents over it) */
    double window_ms;   /* from one update of the counter to another */
    double interval_ms; /* how often the counter updates, measured */
    unsigned reps;      /* reductions the loop ran */
    double idle_watts;  /* the board idle, measured with the interval */
    double limit_watts; /* the board's enforced power limit */
} rs_energy;

/* A user kernel's build, as it ran (RS_V_KERNEL). */
typedef struct rs_ukernel_result {
    uint64_t hash; /* which version of the file (FNV-1a of its text) */
    char entry[96];
    int regs, smem, spill_st, spill_ld; /* spills -1: ptxas did not say */
    int local;         /* local memory per thread of the loaded kernel (stack and spills) */
    int arch;          /* 90: sm_90 */
    double compile_ms; /* NVRTC, the slowest of the run's modules (0: cached) */
    int changed;       /* a replay: the file here is not the version recorded (never stored) */
} rs_ukernel_result;

/* One GPU's part of a run over several (req.gpus != 1). */
typedef struct rs_gpu_share {
    int device;
    char name[64];
    uint64_t offset, count; /* its elements of the input */
    double ms;              /* median event time of its own reduction */
    rs_metric_mask valid;   /* its counters read (--metrics), summed over its launches */
    double value[RS_METRIC_COUNT];
} rs_gpu_share;

/* A run over several GPUs: each GPU's share, and the cross-GPU finish. */
typedef struct rs_multi_result {
    int gpus; /* 0: a run on one GPU */
    rs_cross cross;
    double shard_ms;           /* median time of the slowest GPU's own reduction */
    double finish_ms;          /* median of (whole time - the slowest GPU's), the finish's cost */
    char links[160];           /* how the GPUs are linked (rs_links_describe) */
    const rs_gpu_share *share; /* gpus of them, kept (rs_keep) as launches are */
} rs_multi_result;

/* One all-reduce size of one algorithm (command "allreduce"), as measured
 * (engine/allreduce.c) or recorded (formats/allreduce_file.c). */
typedef struct rs_ar_point {
    uint64_t n, bytes; /* elements per GPU, and their bytes */
    rs_ar_algo algo;
    double us;             /* one all-reduce: the mean over the timed repetitions */
    double algbw, busbw;   /* GB/s, as nccl-tests defines them */
    uint64_t wrong;        /* elements that differ from the exact result, over every GPU */
    double nt_us;          /* nccl-tests' time at this size (--nccl-tests); 0: not run */
    double nt_busbw;       /* and its busbw (0 on one GPU, as for us) */
    int nvl_valid;         /* NVLink's counters were read (rs_nvlink_read) */
    double nvl_tx, nvl_rx; /* NVLink bytes one GPU sent and received per all-reduce */
} rs_ar_point;

/* An all-reduce's answer: its point, and what ran it (the GPUs, how they
 * are linked and the device are in multi and device). */
typedef struct rs_ar_result {
    rs_ar_point point;
    int nccl_version; /* 22809: 2.28.9; 0 for the peer ring */
} rs_ar_result;

/* Where a result's cpu_ms comes from (core/cpu_time.h): not yet shared (a
 * GPU run's own time beside it, or the cpu step's own), the best of the
 * times measured beside GPU runs, or the cpu step's median. */
typedef enum rs_cpu_from { RS_CPU_UNSHARED = 0, RS_CPU_BESIDE, RS_CPU_STEP } rs_cpu_from;

typedef struct rs_result {
    rs_request req;    /* the request answered */
    rs_finish finish;  /* resolved finish (AUTO: the variant has none) */
    unsigned grid;     /* blocks of the first pass (0: library or host) */
    unsigned block;    /* its blockDim, where the variant chose it (0: the request's) */
    double ept;        /* elements per thread in the first pass */
    unsigned launches; /* kernel launches per reduction */
    rs_device_info device;

    /* times of one whole reduction, all passes and the finish */
    unsigned reps;
    double t_median_ms, t_min_ms, t_max_ms;
    double gbps;         /* input bytes / median time */
    double pct_peak;     /* of the theoretical peak */
    double pct_measured; /* of the measured streaming-read peak (0: not measured) */
    double cpu_ms;       /* one host thread, same input */
    double speedup_cpu;
    rs_cpu_from cpu_from;

    /* correctness, checked on every timed repetition */
    int correct;
    unsigned bad_reps; /* repetitions whose result missed the reference */
    rs_value got;      /* the worst repetition's result */
    rs_value expected;
    double abs_err, rel_err, tol;

    rs_metrics metrics;
    rs_ukernel_result uk;
    /* where warps waited, by source line (PC sampling): a kept view
     * (rs_stalls_keep), never changed once kept, so results share it by
     * pointer; NULL where none was asked for (rs_result_stalls reads it) */
    const rs_stalls *stalls;
    rs_energy energy; /* joules per reduction (NVML) */
    rs_multi_result multi;
    rs_ar_result ar; /* command "allreduce" alone */
} rs_result;

/* A copy of n bytes kept to the end of the process (NULL for none): the
 * parts of a result shared by its copies (launches, GPUs, the stall view:
 * rs_stalls_keep), never changed once kept. Thread-safe. */
const void *rs_keep(const void *p, size_t n);
/* The launches collected in l, kept into m (nlaunch and launch). */
void rs_metrics_keep_launches(rs_metrics *m, const rs_launches *l);
/* m's launches as a set to change (name, derive, merge) and keep again. */
void rs_metrics_launches(const rs_metrics *m, rs_launches *out);

/* The stall view a result holds, or an empty one (requested 0). */
const rs_stalls *rs_result_stalls(const rs_result *r);

/* Helpers views share. */
double rs_result_input_bytes(const rs_result *r);

/* The measured limit a result is held against, by the cache state it ran
 * in: cold, the DRAM read; warm with each GPU's share within the L2, the
 * L2 read; warm and larger, the DRAM read again. */
typedef enum { RS_CEIL_NONE, RS_CEIL_DRAM, RS_CEIL_L2 } rs_ceiling;
/* r's ceiling and its bandwidth in *gbps (of all its GPUs; 0 for NONE:
 * not measured, or a cpu row). */
rs_ceiling rs_result_ceiling(const rs_result *r, double *gbps);
/* "dram_read", "l2_read" or "" (NONE): its name in CSV and JSON. */
const char *rs_ceiling_key(rs_ceiling c);
/* "DRAM", "L2" or "": its name on screens and in tables. */
const char *rs_ceiling_label(rs_ceiling c);
/* Its name in a sentence: "the streaming read" (DRAM) or "the L2 read". */
const char *rs_ceiling_phrase(rs_ceiling c);
/* r's GB/s as a share of its ceiling in percent (0 without one). */
double rs_result_pct_ceiling(const rs_result *r);
/* 1 when each GPU's share of r's input fits in the L2 it ran on. */
int rs_result_fits_l2(const rs_result *r);
/* r's ceiling in words: "the DRAM read, 4327 GB/s (cold: the L2 flushed
 * before each run)", "the L2 read, ..." ("" without one). */
void rs_ceiling_words(const rs_result *r, char *buf, size_t len);
/* The first pass's blockDim: the variant's own choice, or the request's. */
unsigned rs_result_block(const rs_result *r);
/* 1 where the variant launched with another blockDim than the request's. */
int rs_result_chose_block(const rs_result *r);

/* Totals and derived values from per-launch values (pure; unit-tested):
 * the engine calls it once per result, after every collection is merged. */
void rs_metrics_aggregate(rs_metrics *m);
/* A second collection's metrics into the first (per launch; aggregate after). */
void rs_metrics_merge(rs_metrics *into, const rs_metrics *from);

#endif
