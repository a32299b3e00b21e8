/* Where warm stops gaining on cold: the L2's edge as a sweep of both
 * states measures it (the bend of the curves, told by their ratio: the
 * GB/s of a warm run past the L2 is DRAM's, which may be close to the
 * L2's read, so a warm curve alone need not fall there). */
#include <math.h>
#include <string.h>

#include "sweep.h"

int rs_edge_index(const double *cold, const double *warm, int count, double *best_ratio)
{
    int best = -1;
    double r[RS_SWEEP_MAX_SIZES];
    *best_ratio = 0.0;
    for (int i = 0; i < count && i < RS_SWEEP_MAX_SIZES; i++) {
        const int ok = cold[i] > 0.0 && warm[i] > 0.0 && isfinite(cold[i]) && isfinite(warm[i]);
        r[i] = ok ? cold[i] / warm[i] : 0.0;
        if (ok && (best < 0 || r[i] > r[best])) best = i;
    }
    if (best < 0 || r[best] < RS_EDGE_GAIN) return -1; /* warm never gained: no edge to tell */
    *best_ratio = r[best];
    for (int i = best + 1; i < count && i < RS_SWEEP_MAX_SIZES; i++)
        if (r[i] > 0.0 && r[i] <= RS_EDGE_SAME) return i;
    return -1;
}

int rs_sweep_warm_edge(const rs_sweep *s, int series, double *best_ratio)
{
    *best_ratio = 0.0;
    if (series < 0 || series >= s->nvar || s->cache[series] != RS_CACHE_WARM) return -1;
    int twin = -1;
    for (int k = 0; k < s->nvar && twin < 0; k++)
        if (k != series && s->var[k] == s->var[series] && s->cache[k] == RS_CACHE_COLD &&
            strcmp(rs_sweep_series_name(s, k), rs_sweep_series_name(s, series)) == 0)
            twin = k;
    if (twin < 0) return -1;
    double cold[RS_SWEEP_MAX_SIZES], warm[RS_SWEEP_MAX_SIZES];
    const int n = s->sizes.count < RS_SWEEP_MAX_SIZES ? s->sizes.count : RS_SWEEP_MAX_SIZES;
    for (int i = 0; i < n; i++) {
        cold[i] = rs_sweep_value(s, i, twin, RS_CHART_TIME);
        warm[i] = rs_sweep_value(s, i, series, RS_CHART_TIME);
    }
    return rs_edge_index(cold, warm, n, best_ratio);
}
