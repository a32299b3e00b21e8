#include "metric_table.h"

#include <stdio.h>
#include <string.h>

/* Names checked against the GH100 metric list through the CUPTI host API
 * and against Nsight Compute on an H200. */
const rs_metric_def rs_metric_defs[RS_METRIC_COUNT] = {
    {RS_M_DURATION, "duration", "gpu__time_duration.sum", "kernel time", "kernel", "ns",
     "time the kernels ran on the GPU, summed over the reduction's launches", RS_AGG_SUM, 1},
    {RS_M_DRAM_READ, "dram_read", "dram__bytes_read.sum", "DRAM read", "DRAM rd", "bytes",
     "bytes read from device memory (HBM)", RS_AGG_SUM, 1},
    {RS_M_DRAM_WRITE, "dram_write", "dram__bytes_write.sum", "DRAM written", "DRAM wr", "bytes",
     "bytes written to device memory", RS_AGG_SUM, 1},
    {RS_M_DRAM_GBPS, "dram_gbps", NULL, "DRAM bandwidth", "DRAM GB/s", "GB/s",
     "achieved DRAM bandwidth: bytes read and written over kernel time", RS_AGG_DERIVED, 1},
    {RS_M_DRAM_PCT, "dram_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
     "DRAM throughput", "DRAM %", "%",
     "DRAM throughput as a share of the peak the DRAM sustains (its own counter)", RS_AGG_WEIGHTED,
     1},
    {RS_M_SHLD_CONFLICTS, "bank_ld", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "shared ld bank conflicts", "bank ld", "count",
     "extra shared-memory cycles because loads of one warp hit the same bank", RS_AGG_SUM, 1},
    {RS_M_SHST_CONFLICTS, "bank_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "shared st bank conflicts", "bank st", "count",
     "extra shared-memory cycles because stores of one warp hit the same bank", RS_AGG_SUM, 1},
    {RS_M_SHLD_WAVEFRONTS, "wavefronts_ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     "shared ld wavefronts", "wavefr ld", "count",
     "shared-memory load passes; one per conflict-free warp load", RS_AGG_SUM, 1},
    {RS_M_SHST_WAVEFRONTS, "wavefronts_st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "shared st wavefronts", "wavefr st", "count",
     "shared-memory store passes; one per conflict-free warp store", RS_AGG_SUM, 1},
    {RS_M_WARP_INST, "warp_inst", "smsp__inst_executed.sum", "warp instructions", "warp inst",
     "count", "instructions issued, counted once per warp", RS_AGG_SUM, 1},
    {RS_M_THREAD_INST_PRED_ON, "thread_inst_pred_on", "smsp__thread_inst_executed_pred_on.sum",
     "thread inst (pred on)", "thr on", "count",
     "instructions counted per thread whose predicate was true", RS_AGG_SUM, 1},
    {RS_M_LANES_PRED_ON, "lanes_pred_on", NULL, "lanes / warp inst", "lanes", "lanes",
     "threads doing useful work per warp instruction, of 32 (predicated on)", RS_AGG_DERIVED, 1},
    {RS_M_THREAD_INST, "thread_inst", "smsp__thread_inst_executed.sum", "thread inst (all)",
     "thr all", "count", "instructions counted per active thread, predicated off included",
     RS_AGG_SUM, 0},
    {RS_M_LANES_ACTIVE, "lanes_active", NULL, "active lanes / warp inst", "active", "lanes",
     "active threads per warp instruction, of 32 (predicated off included)", RS_AGG_DERIVED, 0},
    {RS_M_OCCUPANCY, "occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active",
     "achieved occupancy", "occup.", "%", "resident warps as a share of the SM's maximum",
     RS_AGG_WEIGHTED, 0},
    {RS_M_BARRIER_STALL, "barrier_stall", "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
     "barrier stalls", "barrier", "%", "share of warp cycles spent waiting at __syncthreads()",
     RS_AGG_WEIGHTED, 0},
    {RS_M_DIVERGENT_BRANCHES, "divergent_branches",
     "smsp__sass_branch_targets_threads_divergent.sum", "divergent branches", "diverg.", "count",
     "branches where the threads of a warp went different ways (instrumented pass)", RS_AGG_SUM, 0},
    {RS_M_BRANCH_UNIFORMITY, "branch_uniformity",
     "smsp__sass_average_branch_targets_threads_uniform.pct", "branch uniformity", "uniform", "%",
     "share of branches all active threads of a warp took the same way (instrumented pass)",
     RS_AGG_WEIGHTED, 0},
};

const rs_metric_def *rs_metric_by_key(const char *key)
{
    for (int i = 0; key && i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (strcmp(d->key, key) == 0 || (d->cupti && strcmp(d->cupti, key) == 0)) return d;
    }
    return NULL;
}

rs_metric_mask rs_metric_set_default(void)
{
    rs_metric_mask m = 0;
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (rs_metric_defs[i].in_default) m |= RS_METRIC_BIT(i);
    return m;
}

rs_metric_mask rs_metric_set_full(void)
{
    return (RS_METRIC_BIT(RS_METRIC_COUNT) - 1u);
}

rs_metric_mask rs_metric_closure(rs_metric_mask m)
{
    if (m & RS_METRIC_BIT(RS_M_DRAM_GBPS))
        m |= RS_METRIC_BIT(RS_M_DRAM_READ) | RS_METRIC_BIT(RS_M_DRAM_WRITE) |
             RS_METRIC_BIT(RS_M_DURATION);
    if (m & RS_METRIC_BIT(RS_M_LANES_PRED_ON))
        m |= RS_METRIC_BIT(RS_M_THREAD_INST_PRED_ON) | RS_METRIC_BIT(RS_M_WARP_INST);
    if (m & RS_METRIC_BIT(RS_M_LANES_ACTIVE))
        m |= RS_METRIC_BIT(RS_M_THREAD_INST) | RS_METRIC_BIT(RS_M_WARP_INST);
    /* Ratios are weighted by kernel time across launches. */
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if ((m & RS_METRIC_BIT(i)) && rs_metric_defs[i].agg == RS_AGG_WEIGHTED)
            m |= RS_METRIC_BIT(RS_M_DURATION);
    return m;
}

rs_status rs_metric_parse_set(const char *text, rs_metric_mask *out, rs_error *err)
{
    if (!text || !*text || strcmp(text, "none") == 0 || strcmp(text, "off") == 0) {
        *out = 0;
        return RS_OK;
    }
    if (strcmp(text, "default") == 0) {
        *out = rs_metric_set_default();
        return RS_OK;
    }
    if (strcmp(text, "full") == 0 || strcmp(text, "all") == 0) {
        *out = rs_metric_set_full();
        return RS_OK;
    }
    rs_metric_mask m = 0;
    const char *p = text;
    while (*p) {
        char key[96];
        size_t len = strcspn(p, ",");
        while (len > 0 && (*p == ' ')) p++, len--;
        if (len == 0 || len >= sizeof key)
            return rs_fail(err, RS_E_USAGE, "empty or overlong metric name in '%s'", text);
        memcpy(key, p, len);
        key[len] = '\0';
        for (size_t k = len; k > 0 && key[k - 1] == ' '; k--) key[k - 1] = '\0';
        const rs_metric_def *d = rs_metric_by_key(key);
        if (!d && (strcmp(key, "none") == 0 || strcmp(key, "default") == 0 ||
                   strcmp(key, "full") == 0 || strcmp(key, "all") == 0 || strcmp(key, "off") == 0))
            return rs_fail(err, RS_E_USAGE,
                           "'%s' is a set, given alone (--metrics=%s); in a list, metric keys "
                           "from 'redscope metrics'",
                           key, key);
        if (!d)
            return rs_fail(err, RS_E_USAGE,
                           "unknown metric '%s' (expected none, default, full or keys from "
                           "'redscope metrics')",
                           key);
        m |= RS_METRIC_BIT(d->id);
        p += len;
        if (*p == ',') p++;
    }
    *out = m;
    return RS_OK;
}

int rs_metric_cupti_names(rs_metric_mask m, const char **names, int max)
{
    int count = 0;
    m = rs_metric_closure(m);
    for (int i = 0; i < RS_METRIC_COUNT && count < max; i++)
        if ((m & RS_METRIC_BIT(i)) && rs_metric_defs[i].cupti)
            names[count++] = rs_metric_defs[i].cupti;
    return count;
}

/* The CSV suffix of a unit ("" for a count). */
static const char *unit_suffix(const char *unit)
{
    static const char *const map[][2] = {{"ns", "ns"}, {"bytes", "bytes"}, {"GB/s", "gbps"},
                                         {"%", "pct"}, {"lanes", "lanes"}, {"count", ""}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(unit, map[i][0]) == 0) return map[i][1];
    return "";
}

const char *rs_metric_column(const rs_metric_def *d, char *buf, size_t len)
{
    const char *suffix = unit_suffix(d->unit);
    int named = !*suffix; /* the key's words: "lanes_pred_on" holds "lanes" */
    for (const char *w = d->key; *w && !named; w += strcspn(w, "_"), w += *w == '_') {
        const size_t n = strcspn(w, "_");
        named = n == strlen(suffix) && strncmp(w, suffix, n) == 0;
    }
    snprintf(buf, len, named ? "%s" : "%s_%s", d->key, suffix);
    return buf;
}

int rs_metric_whole(const rs_metric_def *d)
{
    return strcmp(d->unit, "count") == 0 || strcmp(d->unit, "bytes") == 0 ||
           strcmp(d->unit, "ns") == 0;
}

const char *rs_metric_pair_label(rs_metric_id a, rs_metric_id b)
{
    if (a != b && a == RS_M_SHLD_CONFLICTS) return "bank conflicts";
    if (a != b && a == RS_M_SHLD_WAVEFRONTS) return "shared wavefronts";
    return rs_metric_defs[a].label;
}

const char *rs_metric_pair_title(rs_metric_id a, rs_metric_id b)
{
    if (a != b && a == RS_M_SHLD_CONFLICTS) return "conflicts";
    if (a != b && a == RS_M_SHLD_WAVEFRONTS) return "wavefr";
    return rs_metric_defs[a].title;
}
