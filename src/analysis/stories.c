#include "stories.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/row.h"

/* The sentence after each step's figure ("Shared bank conflicts 79.9 k ->
 * 0"); the figure's name and unit are the metric table's. */
const rs_story rs_stories[] = {
    {RS_V_INTERLEAVED_STRIDED, RS_M_SHLD_CONFLICTS, RS_M_SHST_CONFLICTS, +1,
     ": thread t now works on word 2*s*t, so a warp's accesses fall on few of the 32 banks and are "
     "served one after another."},
    {RS_V_INTERLEAVED_STRIDED, RS_M_WARP_INST, RS_M_WARP_INST, -1,
     ": the working threads are now the first ones, so whole warps retire early, and the modulo is "
     "gone."},
    {RS_V_SEQUENTIAL, RS_M_SHLD_CONFLICTS, RS_M_SHST_CONFLICTS, -1,
     ": sequential addressing puts a warp's 32 threads on 32 different banks."},
    {RS_V_FIRST_ADD, RS_M_WARP_INST, RS_M_WARP_INST, -1,
     ": half the blocks read the same bytes, with no idle first step."},
    {RS_V_FIRST_ADD, RS_M_DRAM_READ, RS_M_DRAM_READ, 0,
     ": the same bytes as before, read by half as many blocks."},
    {RS_V_UNROLL_WARP_VOLATILE, RS_M_WARP_INST, RS_M_WARP_INST, -1,
     ": the last six levels run without loop and __syncthreads()."},
    {RS_V_UNROLL_WARP, RS_M_WARP_INST, RS_M_WARP_INST, 0,
     ": __syncwarp() makes the unrolled warp correct for almost nothing."},
    {RS_V_UNROLLED, RS_M_WARP_INST, RS_M_WARP_INST, -1,
     ": with the block size known at compile time, no loop counter or compare is left."},
    {RS_V_MULTI_ELEMENT, RS_M_DRAM_PCT, RS_M_DRAM_PCT, +1,
     " of the peak the DRAM sustains (its own counter): each thread keeps many loads in flight and "
     "the tree runs once per "
     "block."},
    {RS_V_WARP_SHUFFLE, RS_M_SHLD_WAVEFRONTS, RS_M_SHST_WAVEFRONTS, -1,
     ": values move between registers with shuffles; shared memory holds one value per warp."},
    {RS_V_COOPERATIVE_GROUPS, RS_M_WARP_INST, RS_M_WARP_INST, 0,
     ": cg::reduce does the same exchange as hand-written shuffles."},
    {RS_V_VECTORIZED, RS_M_DRAM_PCT, RS_M_DRAM_PCT, +1,
     " of the peak the DRAM sustains (its own counter): 16-byte loads, four in flight per thread, "
     "one launch."},
    {RS_V_THRUST, RS_M_DURATION, RS_M_DURATION, 0,
     ": its kernels are CUB's and run about as long; the time it adds is its own work around "
     "them."},
};
const int rs_story_count = (int)(sizeof rs_stories / sizeof rs_stories[0]);

const rs_story *rs_story_of(rs_variant v)
{
    for (int i = 0; i < rs_story_count; i++)
        if (rs_stories[i].v == v) return &rs_stories[i];
    return NULL;
}

static double pair_value(const rs_result *r, rs_metric_id a, rs_metric_id b, int *ok)
{
    const rs_metric_mask need = RS_METRIC_BIT(a) | RS_METRIC_BIT(b);
    *ok = (r->metrics.valid & need) == need;
    return *ok ? r->metrics.value[a] + (a != b ? r->metrics.value[b] : 0.0) : 0.0;
}

int rs_story_dram_moot(const rs_result *r, rs_metric_id m)
{
    const int dram =
        m == RS_M_DRAM_PCT || m == RS_M_DRAM_READ || m == RS_M_DRAM_WRITE || m == RS_M_DRAM_GBPS;
    return dram && r->req.cache == RS_CACHE_WARM && rs_result_fits_l2(r);
}

static void explaining(const rs_result *r, rs_metric_id *a, rs_metric_id *b, const char **name,
                       const char **brief)
{
    const rs_variant v = r->req.variant;
    const rs_story *st = rs_story_of(v);
    *a = *b = v == RS_V_INTERLEAVED ? RS_M_WARP_INST : RS_M_DRAM_PCT;
    if (st) *a = st->a, *b = st->b;
    if (rs_story_dram_moot(r, *a)) *a = *b = RS_M_DURATION; /* warm: the DRAM is idle */
    *name = rs_metric_pair_label(*a, *b);
    *brief = rs_metric_pair_title(*a, *b);
}

int rs_story_cell(const rs_row *rows, int i, int brief, char *buf, size_t len)
{
    rs_metric_id m1, m2;
    const char *name, *shortname;
    const rs_result *res = &rows[i].result;
    explaining(res, &m1, &m2, &name, &shortname);
    int ok, ok_prev = 0;
    const double v = pair_value(res, m1, m2, &ok);
    int k = i - 1; /* the row above; your kernel: sequential, as its step column */
    for (int j = 0; res->req.variant == RS_V_KERNEL && j < i; j++)
        if (rows[j].status == RS_OK &&
            rs_variant_has(rows[j].result.req.variant, RS_VF_KERNEL_BASE))
            k = j;
    const double prev =
        k >= 0 && rows[k].status == RS_OK ? pair_value(&rows[k].result, m1, m2, &ok_prev) : 0.0;
    if (!ok || rows[i].status != RS_OK) {
        snprintf(buf, len, "-");
        return 0;
    }
    char val[32], move[32] = "";
    if (strcmp(rs_metric_defs[m1].unit, "%") == 0 && !isfinite(v))
        snprintf(val, sizeof val, "-"); /* as rs_fmt_si writes a count that is no number */
    else if (strcmp(rs_metric_defs[m1].unit, "%") == 0)
        snprintf(val, sizeof val, "%.0f%%", v);
    else if (strcmp(rs_metric_defs[m1].unit, "ns") == 0) /* a time reads as one */
        rs_fmt_time(v / 1e6, rs_notation_utf8(), val, sizeof val);
    else
        rs_fmt_si(v, val, sizeof val);
    if (ok_prev && prev > 0.0) rs_fmt_change(prev, v, 0, move, sizeof move);
    const int n = brief ? snprintf(buf, len, "%s %s", shortname, move[0] ? move : val)
                        : snprintf(buf, len, "%s %s%s%s", name, val, move[0] ? " " : "", move);
    if (n >= (int)len && len > 0) buf[len - 1] = '\0';
    return move[0] != '\0';
}
