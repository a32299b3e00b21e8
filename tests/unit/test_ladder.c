/* A ladder's figures from its rows (analysis/ladder.c): a step's speedup is
 * over the nearest earlier row that ran and was timed, spread over the GPUs
 * the same way (a failed or untimed row gives 0 and is passed over); your
 * kernel is held against sequential; a row over several GPUs against its
 * variant on one GPU; the cumulative speedup against the first row on one
 * GPU; the limit is the streaming read of the first row that ran with one. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "analysis/ladder.h"

static rs_row row(rs_variant v, double median_ms)
{
    rs_row r;
    memset(&r, 0, sizeof r);
    r.status = RS_OK;
    rs_request_defaults(&r.result.req);
    r.result.req.variant = v;
    r.result.reps = 20;
    r.result.t_median_ms = r.result.t_min_ms = r.result.t_max_ms = median_ms;
    r.result.correct = 1;
    return r;
}

static rs_row spread(rs_variant v, double median_ms, unsigned gpus, rs_cross cross)
{
    rs_row r = row(v, median_ms);
    r.result.req.gpus = gpus;
    r.result.req.cross = cross;
    return r;
}

static int near(double got, double want)
{
    return fabs(got - want) < 1e-9;
}

static void step_over_the_nearest(void)
{
    rs_row rows[3] = {row(RS_V_ATOMIC, 8.0), row(RS_V_INTERLEAVED, 4.0), row(RS_V_SEQUENTIAL, 1.0)};
    CHECK_MSG(rs_ladder_step_speedup(rows, 0) == 0.0, "the first row has nothing before it: %g",
              rs_ladder_step_speedup(rows, 0));
    CHECK(near(rs_ladder_step_speedup(rows, 1), 2.0));
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 2), 4.0), "over the row just before: %g, not 4",
              rs_ladder_step_speedup(rows, 2));
    rows[2].result.t_median_ms = 8.0; /* slower than the step before: under 1 */
    CHECK(near(rs_ladder_step_speedup(rows, 2), 0.5));
}

static void failed_and_untimed(void)
{
    rs_row rows[5] = {row(RS_V_ATOMIC, 8.0), row(RS_V_INTERLEAVED, 1.0),
                      row(RS_V_INTERLEAVED_STRIDED, 0.0), row(RS_V_SEQUENTIAL, 2.0),
                      row(RS_V_FIRST_ADD, 1.0)};
    rows[1].status = RS_E_CUDA; /* its figures are not a time */
    rows[4].status = RS_E_MISMATCH;
    CHECK(rs_ladder_step_speedup(rows, 1) == 0.0 && rs_ladder_cumulative_speedup(rows, 1) == 0.0);
    CHECK(rs_ladder_step_speedup(rows, 2) == 0.0 && rs_ladder_cumulative_speedup(rows, 2) == 0.0);
    CHECK(rs_ladder_step_speedup(rows, 4) == 0.0 && rs_ladder_cumulative_speedup(rows, 4) == 0.0);
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 3), 4.0),
              "the failed and untimed rows passed over: %g, not 8 / 2 = 4",
              rs_ladder_step_speedup(rows, 3));
    rows[2].status = RS_E_KERNEL; /* a failed run's time, just before: passed over too */
    rows[2].result.t_median_ms = 0.5;
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 3), 4.0), "over a failed row: %g, not 4",
              rs_ladder_step_speedup(rows, 3));
    rows[0].status = RS_E_NOMEM; /* no row before it ran */
    CHECK(rs_ladder_step_speedup(rows, 3) == 0.0);
    CHECK_MSG(near(rs_ladder_cumulative_speedup(rows, 3), 1.0), "its own first: %g",
              rs_ladder_cumulative_speedup(rows, 3));
}

static void kernel_against_sequential(void)
{
    rs_row rows[4] = {row(RS_V_ATOMIC, 8.0), row(RS_V_SEQUENTIAL, 4.0), row(RS_V_VECTORIZED, 1.0),
                      row(RS_V_KERNEL, 2.0)};
    snprintf(rows[3].result.req.kernel, sizeof rows[3].result.req.kernel, "mine.cu");
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 3), 2.0), "over sequential: %g, not 4 / 2",
              rs_ladder_step_speedup(rows, 3));
    CHECK(near(rs_ladder_cumulative_speedup(rows, 3), 4.0));
    rows[1].status = RS_E_CUDA; /* no sequential that ran: the nearest before */
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 3), 0.5), "over vectorized: %g",
              rs_ladder_step_speedup(rows, 3));
    rows[1] = row(RS_V_SEQUENTIAL, 4.0);
    rows[3].result.req.variant = RS_V_CUB; /* only a kernel skips to sequential */
    CHECK(near(rs_ladder_step_speedup(rows, 3), 0.5));
}

static void several_gpus(void)
{
    rs_row rows[5] = {row(RS_V_VECTORIZED, 2.0), row(RS_V_CUB, 1.6),
                      spread(RS_V_VECTORIZED, 1.0, 2, RS_CROSS_HOST),
                      spread(RS_V_MULTI_ELEMENT, 0.5, 2, RS_CROSS_P2P),
                      spread(RS_V_CUB, 0.4, 2, RS_CROSS_HOST)};
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 2), 2.0), "over vectorized on one GPU: %g",
              rs_ladder_step_speedup(rows, 2));
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 4), 4.0), "over cub on one GPU: %g",
              rs_ladder_step_speedup(rows, 4));
    CHECK_MSG(rs_ladder_step_speedup(rows, 3) == 0.0,
              "no multi_element on one GPU, nothing before on 2 GPUs with p2p: %g",
              rs_ladder_step_speedup(rows, 3));
    rows[1].status = RS_E_CUDA; /* no cub on one GPU that ran: the nearest spread alike */
    CHECK_MSG(near(rs_ladder_step_speedup(rows, 4), 2.5), "over vectorized on 2 GPUs, host: %g",
              rs_ladder_step_speedup(rows, 4));
    CHECK(near(rs_ladder_cumulative_speedup(rows, 4), 5.0));
    /* a row on one GPU is not held against rows over several */
    rs_row after[3] = {row(RS_V_VECTORIZED, 2.0), spread(RS_V_VECTORIZED, 1.0, 2, RS_CROSS_HOST),
                       row(RS_V_CUB, 0.5)};
    CHECK(near(rs_ladder_step_speedup(after, 2), 4.0));
}

static void cumulative(void)
{
    rs_row rows[4] = {row(RS_V_ATOMIC, 8.0), row(RS_V_INTERLEAVED, 4.0), row(RS_V_SEQUENTIAL, 2.0),
                      spread(RS_V_VECTORIZED, 0.5, 2, RS_CROSS_NCCL)};
    rows[0].status = RS_E_CUDA;
    CHECK_MSG(near(rs_ladder_cumulative_speedup(rows, 2), 2.0),
              "over the first one-GPU row that ran: %g", rs_ladder_cumulative_speedup(rows, 2));
    CHECK(near(rs_ladder_cumulative_speedup(rows, 1), 1.0));
    CHECK(near(rs_ladder_cumulative_speedup(rows, 3), 8.0));
    rows[0].status = RS_OK;
    CHECK(near(rs_ladder_cumulative_speedup(rows, 2), 4.0));
    /* no row on one GPU: the first spread the same way */
    rs_row multi[3] = {spread(RS_V_VECTORIZED, 4.0, 2, RS_CROSS_P2P),
                       spread(RS_V_VECTORIZED, 2.0, 2, RS_CROSS_HOST),
                       spread(RS_V_CUB, 1.0, 2, RS_CROSS_HOST)};
    CHECK_MSG(near(rs_ladder_cumulative_speedup(multi, 2), 2.0), "over the host finish: %g",
              rs_ladder_cumulative_speedup(multi, 2));
    CHECK(near(rs_ladder_cumulative_speedup(multi, 0), 1.0));
}

static void limit(void)
{
    rs_row rows[4] = {row(RS_V_ATOMIC, 8.0), row(RS_V_SEQUENTIAL, 4.0), row(RS_V_VECTORIZED, 1.0),
                      row(RS_V_CUB, 1.0)};
    rows[0].status = RS_E_CUDA;
    rows[0].result.device.measured_gbps = 9000.0; /* a failed run's figure is not read */
    rows[2].result.device.measured_gbps = 4100.0;
    rows[3].result.device.measured_gbps = 4300.0;
    CHECK_MSG(rs_rows_limit(rows, 4) == 4100.0, "the first measured: %g", rs_rows_limit(rows, 4));
    CHECK_MSG(rs_rows_limit(rows, 2) == 0.0, "none of the first two measured it: %g",
              rs_rows_limit(rows, 2));
    CHECK(rs_rows_limit(rows, 0) == 0.0);
    rows[1].result.device.measured_gbps = 3900.0;
    CHECK(rs_rows_limit(rows, 4) == 3900.0);
}

int main(void)
{
    step_over_the_nearest();
    failed_and_untimed();
    kernel_against_sequential();
    several_gpus();
    cumulative();
    limit();
    return check_report("test_ladder");
}
