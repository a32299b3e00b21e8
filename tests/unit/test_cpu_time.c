/* One CPU time per input (core/cpu_time.c): the cpu step's median where it
 * ran, else the best of the times measured beside GPU runs; inputs apart
 * stay apart; failed rows give nothing; the cpu step answered from the
 * times beside, one figure with no spread. */
#include <string.h>

#include "check.h"
#include "core/cpu_time.h"

static rs_row row(rs_variant v, uint64_t n, double median_ms, double cpu_ms)
{
    rs_row r;
    memset(&r, 0, sizeof r);
    r.status = RS_OK;
    rs_request_defaults(&r.result.req);
    r.result.req.variant = v;
    r.result.req.n = n;
    r.result.reps = 20;
    r.result.t_median_ms = r.result.t_min_ms = r.result.t_max_ms = median_ms;
    r.result.cpu_ms = cpu_ms;
    r.result.speedup_cpu = cpu_ms / median_ms;
    r.result.correct = 1;
    return r;
}

static void beside_only(void)
{
    rs_row rows[4] = {row(RS_V_ATOMIC, 1 << 24, 0.4, 6.9), row(RS_V_SEQUENTIAL, 1 << 24, 0.1, 4.3),
                      row(RS_V_VECTORIZED, 1 << 24, 0.02, 7.5),
                      row(RS_V_VECTORIZED, 1 << 20, 0.01, 0.3)};
    rs_cpu_share_rows(rows, 4);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(rows[i].result.cpu_ms == 4.3, "row %d: %g, not the best beside, 4.3", i,
                  rows[i].result.cpu_ms);
        CHECK(rows[i].result.cpu_from == RS_CPU_BESIDE);
        CHECK(rows[i].result.speedup_cpu == 4.3 / rows[i].result.t_median_ms);
    }
    CHECK_MSG(rows[3].result.cpu_ms == 0.3, "another n keeps its own: %g", rows[3].result.cpu_ms);
    CHECK_STR_EQ(rs_cpu_from_name(rs_cpu_from_of(&rows[0].result)), "beside");
}

static void the_cpu_step_wins(void)
{
    rs_row rows[3] = {row(RS_V_ATOMIC, 1000, 0.4, 6.9), row(RS_V_CPU, 1000, 5.0, 4.8),
                      row(RS_V_SEQUENTIAL, 1000, 0.1, 4.3)};
    rows[1].result.t_min_ms = 4.8;
    rs_cpu_share_rows(rows, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(rows[i].result.cpu_ms == 5.0, "row %d: %g, not the cpu step's median, 5.0", i,
                  rows[i].result.cpu_ms);
        CHECK(rows[i].result.cpu_from == RS_CPU_STEP);
    }
    CHECK(rows[1].result.speedup_cpu == 1.0);
    CHECK_STR_EQ(rs_cpu_from_words(RS_CPU_STEP), "the cpu step's median");
}

static void failures_and_gaps(void)
{
    rs_row rows[3] = {row(RS_V_ATOMIC, 1000, 0.4, 1.0), row(RS_V_SEQUENTIAL, 1000, 0.1, 9.0),
                      row(RS_V_CPU, 1000, 0.5, 0.5)};
    rows[0].status = RS_E_CUDA; /* a failed run's figures are not a CPU time */
    rows[2].status = RS_E_USAGE;
    rs_row *p[4] = {&rows[0], NULL, &rows[1], &rows[2]};
    rs_cpu_share(p, 4);
    CHECK(rows[1].result.cpu_ms == 9.0 && rows[1].result.cpu_from == RS_CPU_BESIDE);
    CHECK(rows[0].result.cpu_ms == 1.0 && rows[0].result.cpu_from == RS_CPU_UNSHARED);
    rs_cpu_share(p, 0); /* nothing to share */
    rs_cpu_share_rows(rows, 0);
    rs_row other = row(RS_V_SEQUENTIAL, 1000, 0.1, 3.0);
    other.result.req.seed = 7; /* another input */
    rs_row two[2] = {rows[1], other};
    rs_cpu_share_rows(two, 2);
    CHECK(two[0].result.cpu_ms == 9.0 && two[1].result.cpu_ms == 3.0);
}

/* Two inputs' rows interleaved: each takes its own input's time, the
 * last cpu step of it where there are two. */
static void inputs_interleaved(void)
{
    rs_row rows[5] = {row(RS_V_ATOMIC, 1000, 0.4, 6.0), row(RS_V_ATOMIC, 1000, 0.4, 2.0),
                      row(RS_V_CPU, 1000, 5.0, 5.0), row(RS_V_SEQUENTIAL, 1000, 0.1, 1.5),
                      row(RS_V_CPU, 1000, 7.0, 7.0)};
    rows[1].result.req.seed = rows[3].result.req.seed = 9;
    rows[4].result.req.seed = 9;
    rs_cpu_share_rows(rows, 5);
    CHECK(rows[0].result.cpu_ms == 5.0 && rows[2].result.cpu_ms == 5.0);
    CHECK_MSG(rows[1].result.cpu_ms == 7.0 && rows[3].result.cpu_ms == 7.0, "%g %g",
              rows[1].result.cpu_ms, rows[3].result.cpu_ms);
    CHECK(rows[3].result.speedup_cpu == 70.0);
}

static void cpu_step_from_beside(void)
{
    rs_row rows[3] = {row(RS_V_ATOMIC, 1 << 24, 0.4, 6.9), row(RS_V_SEQUENTIAL, 1 << 24, 0.1, 4.3),
                      row(RS_V_SEQUENTIAL, 1 << 20, 0.1, 0.2)};
    rs_request want = rows[0].result.req;
    want.variant = RS_V_CPU;
    rs_result got;
    CHECK(rs_cpu_from_rows(rows, 3, &want, &got));
    CHECK(got.req.variant == RS_V_CPU && got.t_median_ms == 4.3 && got.t_min_ms == 4.3 &&
          got.t_max_ms == 4.3 && got.cpu_ms == 4.3 && got.cpu_from == RS_CPU_BESIDE);
    CHECK(got.correct && got.reps == 1 && got.gbps > 0.0);
    /* shared with the rows it came from, it stays the figure they share */
    rs_row all[3] = {rows[0], rows[1], {RS_OK, "", got}};
    rs_cpu_share_rows(all, 3);
    CHECK(all[0].result.cpu_ms == 4.3 && all[2].result.cpu_from == RS_CPU_BESIDE);
    want.n = 12345; /* no GPU run of this input */
    CHECK(!rs_cpu_from_rows(rows, 3, &want, &got));
    CHECK(rs_cpu_from_parse("beside") == RS_CPU_BESIDE &&
          rs_cpu_from_parse("cpu_step") == RS_CPU_STEP);
    CHECK(rs_cpu_from_parse("fast") < 0 && rs_cpu_from_parse(NULL) < 0);
}

int main(void)
{
    beside_only();
    the_cpu_step_wins();
    failures_and_gaps();
    inputs_interleaved();
    cpu_step_from_beside();
    return check_report("test_cpu_time");
}
