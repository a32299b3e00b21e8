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

typedef enum {
    RS_M_DURATION,
    RS_M_DRAM_READ,
    RS_M_DRAM_WRITE,
    RS_M_DRAM_GBPS,
    RS_M_DRAM_PCT,
    RS_M_SHLD_CONFLICTS,
    RS_M_SHST_CONFLICTS,
    RS_M_SHLD_WAVEFRONTS,
    RS_M_SHST_WAVEFRONTS,
    RS_M_WARP_INST,
    RS_M_THREAD_INST_PRED_ON,
    RS_M_LANES_PRED_ON,
    RS_M_THREAD_INST,
    RS_M_LANES_ACTIVE,
    RS_M_OCCUPANCY,
    RS_M_BARRIER_STALL,
    RS_M_DIVERGENT_BRANCHES,
    RS_M_BRANCH_UNIFORMITY,
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
#define RS_METRIC_BIT(id) ((rs_metric_mask)1u << (id))

rs_metric_mask rs_metric_set_default(void);
rs_metric_mask rs_metric_set_full(void);

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
