/* The hardware counters redscope knows: user-facing key, CUPTI metric name,
 * meaning, and how values of several kernel launches combine. Pure data, no
 * CUPTI: the request parser and the views use it where no GPU is. */
#ifndef RS_METRIC_TABLE_H
#define RS_METRIC_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum {
    RS_AGG_SUM,      /* counts add up over launches */
    RS_AGG_WEIGHTED, /* ratios: average weighted by each launch's duration */
    RS_AGG_DERIVED,  /* computed from other metrics after summing */
} rs_metric_agg;

/* The counters, one row each: X(ID, key, CUPTI name (NULL: derived), label,
 * title, unit, meaning, aggregation, in the default set). A new counter is
 * its row here and its line in docs/formats.md (tests/cli/test_formats.py
 * reads it); derived ones add their formula to aggregate.c. */
#define RS_METRICS(X)                                                                              \
    X(DURATION, "duration", "gpu__time_duration.sum", "kernel time", "kernel", "ns",               \
      "time the kernels ran on the GPU, summed over the reduction's launches", RS_AGG_SUM, 1)      \
    X(DRAM_READ, "dram_read", "dram__bytes_read.sum", "DRAM read", "DRAM rd", "bytes",             \
      "bytes read from device memory (HBM)", RS_AGG_SUM, 1)                                        \
    X(DRAM_WRITE, "dram_write", "dram__bytes_write.sum", "DRAM written", "DRAM wr", "bytes",       \
      "bytes written to device memory", RS_AGG_SUM, 1)                                             \
    X(DRAM_GBPS, "dram_gbps", NULL, "DRAM bandwidth", "DRAM GB/s", "GB/s",                         \
      "achieved DRAM bandwidth: bytes read and written over kernel time", RS_AGG_DERIVED, 1)       \
    X(DRAM_PCT, "dram_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed",                  \
      "DRAM throughput", "DRAM %", "%",                                                            \
      "DRAM throughput as a share of the peak the DRAM sustains (its own counter)",                \
      RS_AGG_WEIGHTED, 1)                                                                          \
    X(L2_READ, "l2_read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum", "L2 sectors read",     \
      "L2 sect", "count", "32-byte sectors the SMs read through the L2, hits and misses",          \
      RS_AGG_SUM, 1)                                                                               \
    X(L2_READ_HIT, "l2_read_hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",            \
      "L2 read hits", "L2 hits", "count", "of the sectors read, those the L2 held (hits)",         \
      RS_AGG_SUM, 1)                                                                               \
    X(L2_HIT_RATE, "l2_hit_rate", NULL, "L2 hit rate", "L2 hit", "%",                              \
      "share of the sectors read that the SM's L2 partition held: near 0 cold, most warm (one in " \
      "the other partition misses here, yet is no DRAM read: see dram_read)",                      \
      RS_AGG_DERIVED, 1)                                                                           \
    X(SHLD_CONFLICTS, "bank_ld", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",       \
      "shared ld bank conflicts", "bank ld", "count",                                              \
      "extra shared-memory cycles because loads of one warp hit the same bank", RS_AGG_SUM, 1)     \
    X(SHST_CONFLICTS, "bank_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",       \
      "shared st bank conflicts", "bank st", "count",                                              \
      "extra shared-memory cycles because stores of one warp hit the same bank", RS_AGG_SUM, 1)    \
    X(SHLD_WAVEFRONTS, "wavefronts_ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",    \
      "shared ld wavefronts", "wavefr ld", "count",                                                \
      "shared-memory load passes; one per conflict-free warp load", RS_AGG_SUM, 1)                 \
    X(SHST_WAVEFRONTS, "wavefronts_st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",    \
      "shared st wavefronts", "wavefr st", "count",                                                \
      "shared-memory store passes; one per conflict-free warp store", RS_AGG_SUM, 1)               \
    X(WARP_INST, "warp_inst", "smsp__inst_executed.sum", "warp instructions", "warp inst",         \
      "count", "instructions issued, counted once per warp", RS_AGG_SUM, 1)                        \
    X(THREAD_INST_PRED_ON, "thread_inst_pred_on", "smsp__thread_inst_executed_pred_on.sum",        \
      "thread inst (pred on)", "thr on", "count",                                                  \
      "instructions counted per thread whose predicate was true", RS_AGG_SUM, 1)                   \
    X(LANES_PRED_ON, "lanes_pred_on", NULL, "lanes / warp inst", "lanes", "lanes",                 \
      "threads doing useful work per warp instruction, of 32 (predicated on)", RS_AGG_DERIVED, 1)  \
    X(THREAD_INST, "thread_inst", "smsp__thread_inst_executed.sum", "thread inst (all)",           \
      "thr all", "count", "instructions counted per active thread, predicated off included",       \
      RS_AGG_SUM, 0)                                                                               \
    X(LANES_ACTIVE, "lanes_active", NULL, "active lanes / warp inst", "active", "lanes",           \
      "active threads per warp instruction, of 32 (predicated off included)", RS_AGG_DERIVED, 0)   \
    X(OCCUPANCY, "occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active",                 \
      "achieved occupancy", "occup.", "%", "resident warps as a share of the SM's maximum",        \
      RS_AGG_WEIGHTED, 0)                                                                          \
    X(BARRIER_STALL, "barrier_stall", "smsp__warp_issue_stalled_barrier_per_warp_active.pct",      \
      "barrier stalls", "barrier", "%", "share of warp cycles spent waiting at __syncthreads()",   \
      RS_AGG_WEIGHTED, 0)                                                                          \
    X(DIVERGENT_BRANCHES, "divergent_branches", "smsp__sass_branch_targets_threads_divergent.sum", \
      "divergent branches", "diverg.", "count",                                                    \
      "branches where the threads of a warp went different ways (instrumented pass)", RS_AGG_SUM,  \
      0)                                                                                           \
    X(BRANCH_UNIFORMITY, "branch_uniformity",                                                      \
      "smsp__sass_average_branch_targets_threads_uniform.pct", "branch uniformity", "uniform",     \
      "%", "share of branches all active threads of a warp took the same way (instrumented pass)", \
      RS_AGG_WEIGHTED, 0)

typedef enum {
#define RS_X_METRIC_ID(id, ...) RS_M_##id,
    RS_METRICS(RS_X_METRIC_ID)
#undef RS_X_METRIC_ID
        RS_METRIC_COUNT
} rs_metric_id;

typedef struct rs_metric_def {
    rs_metric_id id;
    const char *key;   /* what users type: --metrics=bank_ld,warp_inst */
    const char *cupti; /* CUPTI / Nsight Compute name; NULL for derived */
    const char *label; /* its name in screens, sentences and tables */
    const char *title; /* the same, cut for a narrow column ("warp inst") */
    const char *unit;  /* ns, bytes, GB/s, %, count, lanes */
    const char *meaning;
    rs_metric_agg agg;
    int in_default; /* the cheap one-pass set */
} rs_metric_def;

extern const rs_metric_def rs_metric_defs[RS_METRIC_COUNT];

/* Metric by key or by CUPTI name; NULL when unknown. */
const rs_metric_def *rs_metric_by_key(const char *key);

/* A metric set as a bit mask of rs_metric_id. */
typedef uint32_t rs_metric_mask;
/* a negative array size fails the build when the counters outgrow the mask */
typedef char rs_metric_mask_fits[RS_METRIC_COUNT <= 32 ? 1 : -1];
#define RS_METRIC_BIT(id) ((rs_metric_mask)1u << (id))

rs_metric_mask rs_metric_set_default(void);
rs_metric_mask rs_metric_set_full(void);

/* 1 when a row recorded with the set named `recorded` holds the set named
 * `asked` as it was then: the same name, or "full" for "default" (counters
 * added to a set since are not in old recordings, and not missing there). */
int rs_metric_set_covers(const char *recorded, const char *asked);

/* "none"/"" -> 0, "default", "full", or keys separated by commas. */
rs_status rs_metric_parse_set(const char *text, rs_metric_mask *out, rs_error *err);

/* A counter's CSV column: its key and its unit ("duration_ns",
 * "dram_read_bytes", "occupancy_pct"); a count bare, and a key whose words
 * already name its unit as it is ("dram_gbps", "lanes_pred_on"). */
const char *rs_metric_column(const rs_metric_def *d, char *buf, size_t len);

/* Whether a counter's values are whole numbers (counts, bytes, ns): CSV
 * writes them in full, as the JSON does. */
int rs_metric_whole(const rs_metric_def *d);

/* The name of figure a, or of a + b where b differs (a pair of ld and st
 * counters: "bank conflicts", of loads and stores), and its column title
 * ("conflicts"). */
const char *rs_metric_pair_label(rs_metric_id a, rs_metric_id b);
const char *rs_metric_pair_title(rs_metric_id a, rs_metric_id b);

/* Add what derived metrics are computed from. */
rs_metric_mask rs_metric_closure(rs_metric_mask m);

/* The CUPTI names a mask needs, in table order; returns the count. */
int rs_metric_cupti_names(rs_metric_mask m, const char **names, int max);

#endif
