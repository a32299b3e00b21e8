/* A ladder's figures from its rows: each step's speedups and the limit
 * they are read against. */
#include "ladder.h"

#include "core/catalogue.h"

static double ratio(const rs_row *rows, int k, int i)
{
    return rows[k].result.t_median_ms / rows[i].result.t_median_ms;
}

static int timed(const rs_row *row)
{
    return row->status == RS_OK && row->result.t_median_ms > 0.0;
}

/* Over several GPUs: against its variant on one GPU where the ladder has
 * it; else against the nearest earlier row spread the same way. */
double rs_ladder_step_speedup(const rs_row *rows, int i)
{
    if (!timed(&rows[i])) return 0.0;
    const rs_request *r = &rows[i].result.req;
    /* your kernel: against sequential, the tree it starts from, not thrust */
    for (int k = 0; r->variant == RS_V_KERNEL && k < i; k++)
        if (timed(&rows[k]) && rs_variant_has(rows[k].result.req.variant, RS_VF_KERNEL_BASE) &&
            rs_request_same_spread(&rows[k].result.req, r))
            return ratio(rows, k, i);
    for (int k = i - 1; r->gpus != 1 && k >= 0; k--)
        if (timed(&rows[k]) && rows[k].result.req.gpus == 1 &&
            rows[k].result.req.variant == r->variant)
            return ratio(rows, k, i);
    for (int k = i - 1; k >= 0; k--)
        if (timed(&rows[k]) && rs_request_same_spread(&rows[k].result.req, r))
            return ratio(rows, k, i);
    return 0.0;
}

/* Against the first row on one GPU; without one, the first spread the same way. */
double rs_ladder_cumulative_speedup(const rs_row *rows, int i)
{
    if (!timed(&rows[i])) return 0.0;
    for (int k = 0; k <= i; k++)
        if (timed(&rows[k]) && rows[k].result.req.gpus == 1) return ratio(rows, k, i);
    for (int k = 0; k <= i; k++)
        if (timed(&rows[k]) && rs_request_same_spread(&rows[k].result.req, &rows[i].result.req))
            return ratio(rows, k, i);
    return 0.0;
}

double rs_rows_limit(const rs_row *rows, int count)
{
    for (int i = 0; i < count; i++) {
        const rs_result *r = &rows[i].result;
        double gbps = 0.0;
        if (rows[i].status != RS_OK || rs_result_ceiling(r, &gbps) == RS_CEIL_NONE) continue;
        return gbps / (r->multi.gpus > 1 ? r->multi.gpus : 1); /* one GPU's */
    }
    return 0.0;
}
