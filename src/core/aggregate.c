/* Combining per-launch counter values into totals, and the derived metrics.
 * Pure arithmetic: tested without a GPU. */
#include <stdio.h>

#include "result.h"

static void derive(const double *v, double *out, rs_metric_mask valid, rs_metric_mask *derived)
{
    const rs_metric_mask dram = RS_METRIC_BIT(RS_M_DRAM_READ) | RS_METRIC_BIT(RS_M_DRAM_WRITE) |
                                RS_METRIC_BIT(RS_M_DURATION);
    if ((valid & dram) == dram && v[RS_M_DURATION] > 0.0) {
        /* bytes per nanosecond are GB/s */
        out[RS_M_DRAM_GBPS] = (v[RS_M_DRAM_READ] + v[RS_M_DRAM_WRITE]) / v[RS_M_DURATION];
        *derived |= RS_METRIC_BIT(RS_M_DRAM_GBPS);
    }
    const rs_metric_mask pred =
        RS_METRIC_BIT(RS_M_THREAD_INST_PRED_ON) | RS_METRIC_BIT(RS_M_WARP_INST);
    if ((valid & pred) == pred && v[RS_M_WARP_INST] > 0.0) {
        out[RS_M_LANES_PRED_ON] = v[RS_M_THREAD_INST_PRED_ON] / v[RS_M_WARP_INST];
        *derived |= RS_METRIC_BIT(RS_M_LANES_PRED_ON);
    }
    const rs_metric_mask l2 = RS_METRIC_BIT(RS_M_L2_READ) | RS_METRIC_BIT(RS_M_L2_READ_HIT);
    if ((valid & l2) == l2 && v[RS_M_L2_READ] > 0.0) {
        out[RS_M_L2_HIT_RATE] = 100.0 * v[RS_M_L2_READ_HIT] / v[RS_M_L2_READ];
        *derived |= RS_METRIC_BIT(RS_M_L2_HIT_RATE);
    }
    const rs_metric_mask act = RS_METRIC_BIT(RS_M_THREAD_INST) | RS_METRIC_BIT(RS_M_WARP_INST);
    if ((valid & act) == act && v[RS_M_WARP_INST] > 0.0) {
        out[RS_M_LANES_ACTIVE] = v[RS_M_THREAD_INST] / v[RS_M_WARP_INST];
        *derived |= RS_METRIC_BIT(RS_M_LANES_ACTIVE);
    }
}

void rs_metrics_aggregate(rs_metrics *m)
{
    rs_metric_mask derived = 0;
    static _Thread_local rs_launches l; /* kept again once derived */
    rs_metrics_launches(m, &l);
    for (int i = 0; i < RS_METRIC_COUNT; i++) m->value[i] = 0.0;
    double total_time = 0.0;
    for (int k = 0; k < l.n; k++) total_time += l.at[k].value[RS_M_DURATION];
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (!(m->valid & RS_METRIC_BIT(i)) || d->agg == RS_AGG_DERIVED) continue;
        double acc = 0.0;
        for (int k = 0; k < l.n; k++) {
            const double v = l.at[k].value[i];
            if (d->agg == RS_AGG_SUM)
                acc += v;
            else if (total_time > 0.0)
                acc += v * l.at[k].value[RS_M_DURATION] / total_time;
            else
                acc += v / l.n;
        }
        m->value[i] = acc;
    }
    for (int k = 0; k < l.n; k++) {
        rs_metric_mask unused = 0;
        derive(l.at[k].value, l.at[k].value, m->valid, &unused);
    }
    if (l.n) rs_metrics_keep_launches(m, &l);
    derive(m->value, m->value, m->valid, &derived);
    m->valid |= derived;
}

void rs_metrics_merge(rs_metrics *into, const rs_metrics *from)
{
    const rs_metric_mask add = from->valid & ~into->valid;
    into->passes += from->passes;
    into->wall_ms += from->wall_ms;
    if (!from->valid && from->reason[0] && !into->reason[0])
        snprintf(into->reason, sizeof into->reason, "%s", from->reason);
    if (!add || into->nlaunch != from->nlaunch) return;
    static _Thread_local rs_launches l; /* kept again with the values added */
    rs_metrics_launches(into, &l);
    for (int k = 0; k < l.n && from->launch; k++)
        for (int i = 0; i < RS_METRIC_COUNT; i++)
            if (add & RS_METRIC_BIT(i)) l.at[k].value[i] = from->launch[k].value[i];
    if (l.n) rs_metrics_keep_launches(into, &l);
    into->valid |= add;
}
