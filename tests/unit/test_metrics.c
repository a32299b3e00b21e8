/* The metric table, metric sets, aggregation over launches, and what the
 * CUPTI host API says about names and passes on GH100 (no GPU needed). */
#include <math.h>

#include "check.h"
#include "core/result.h"
#include "profiling/profiler.h"

static void sets(void)
{
    rs_metric_mask m;
    rs_error err;
    CHECK(rs_metric_parse_set("none", &m, &err) == RS_OK && m == 0);
    CHECK(rs_metric_parse_set("default", &m, &err) == RS_OK && m == rs_metric_set_default());
    CHECK(rs_metric_parse_set("full", &m, &err) == RS_OK && m == rs_metric_set_full());
    CHECK(rs_metric_parse_set("bank_ld, warp_inst", &m, &err) == RS_OK);
    CHECK(m == (RS_METRIC_BIT(RS_M_SHLD_CONFLICTS) | RS_METRIC_BIT(RS_M_WARP_INST)));
    CHECK(rs_metric_parse_set("smsp__inst_executed.sum", &m, &err) == RS_OK &&
          m == RS_METRIC_BIT(RS_M_WARP_INST));
    CHECK(rs_metric_parse_set("bank_ld,nope", &m, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "unknown metric 'nope'");
    /* Derived metrics pull in what they are computed from. */
    const rs_metric_mask c = rs_metric_closure(RS_METRIC_BIT(RS_M_LANES_PRED_ON));
    CHECK(c & RS_METRIC_BIT(RS_M_WARP_INST) && c & RS_METRIC_BIT(RS_M_THREAD_INST_PRED_ON));
    const char *names[RS_METRIC_COUNT];
    CHECK(rs_metric_cupti_names(RS_METRIC_BIT(RS_M_DRAM_GBPS), names, RS_METRIC_COUNT) == 3);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        CHECK(rs_metric_defs[i].id == (rs_metric_id)i);
        CHECK((rs_metric_defs[i].cupti == NULL) == (rs_metric_defs[i].agg == RS_AGG_DERIVED));
    }
}

static void aggregation(void)
{
    rs_metrics m;
    memset(&m, 0, sizeof m);
    m.valid =
        rs_metric_set_full() & ~(RS_METRIC_BIT(RS_M_DRAM_GBPS) | RS_METRIC_BIT(RS_M_LANES_PRED_ON) |
                                 RS_METRIC_BIT(RS_M_LANES_ACTIVE));
    static rs_launches l; /* collected, then kept into m: a row holds what it has */
    l.n = 2;
    l.at[0].value[RS_M_DURATION] = 3000; /* ns */
    l.at[1].value[RS_M_DURATION] = 1000;
    l.at[0].value[RS_M_DRAM_READ] = 3e6;
    l.at[1].value[RS_M_DRAM_READ] = 1e6;
    l.at[0].value[RS_M_WARP_INST] = 100;
    l.at[1].value[RS_M_WARP_INST] = 300;
    l.at[0].value[RS_M_THREAD_INST_PRED_ON] = 3200;
    l.at[1].value[RS_M_THREAD_INST_PRED_ON] = 3200;
    l.at[0].value[RS_M_OCCUPANCY] = 80;
    l.at[1].value[RS_M_OCCUPANCY] = 40;
    rs_metrics_keep_launches(&m, &l);
    const rs_launch_metrics *collected = m.launch;
    rs_metrics_aggregate(&m);
    CHECK(m.nlaunch == 2 && m.launch != collected);       /* derived into a new kept copy */
    CHECK(collected[0].value[RS_M_LANES_PRED_ON] == 0.0); /* the one shared is never changed */
    CHECK(m.value[RS_M_DURATION] == 4000 && m.value[RS_M_DRAM_READ] == 4e6);
    CHECK(fabs(m.value[RS_M_OCCUPANCY] - 70.0) < 1e-9);   /* weighted by time */
    CHECK(fabs(m.value[RS_M_DRAM_GBPS] - 1000.0) < 1e-9); /* 4 MB in 4 us */
    CHECK(fabs(m.value[RS_M_LANES_PRED_ON] - 16.0) < 1e-9);
    CHECK(m.valid & RS_METRIC_BIT(RS_M_DRAM_GBPS));
    CHECK(fabs(m.launch[0].value[RS_M_LANES_PRED_ON] - 32.0) < 1e-9);
}

static void host_api(void)
{
    rs_prof *p = NULL;
    rs_error err;
    CHECK(rs_prof_init(&p, -1, "GH100", &err) == RS_OK);
    char why[256];
    CHECK(!rs_prof_available(p, why, sizeof why));
    int passes = 0;
    rs_metric_mask missing = 0;
    /* the engine reads the L2's hits in a collection of their own
     * (counters.c): beside the rest they take a second pass, and CUPTI's
     * replay of a pass finds a warm input cold */
    const rs_metric_mask hits = RS_METRIC_BIT(RS_M_L2_READ_HIT) | RS_METRIC_BIT(RS_M_L2_HIT_RATE);
    const rs_status st =
        rs_prof_passes(p, rs_metric_set_default() & ~hits, &passes, &missing, &err);
    if (st != RS_OK && strstr(err.msg, "not installed")) {
        printf("CUPTI is not installed here: %s\n", err.msg);
        rs_prof_shutdown(p);
        return;
    }
    CHECK_MSG(st == RS_OK, "%s", err.msg);
    CHECK_MSG(passes == 1, "the default set should cost one pass, not %d", passes);
    int l2_passes = 0;
    CHECK(rs_prof_passes(p, RS_METRIC_BIT(RS_M_L2_READ_HIT), &l2_passes, &missing, &err) == RS_OK);
    CHECK_MSG(l2_passes == 1, "the L2's hits should cost one pass alone, not %d", l2_passes);
    CHECK(missing == 0);
    CHECK(rs_prof_passes(p, rs_metric_set_full(), &passes, &missing, &err) == RS_OK);
    CHECK_MSG(passes == 3, "the full set should cost 3 passes, not %d", passes);
    CHECK(missing == 0);
    /* The instrumented branch metrics cost a pass of their own. */
    CHECK(rs_prof_passes(p, RS_METRIC_BIT(RS_M_DIVERGENT_BRANCHES), &passes, NULL, &err) == RS_OK);
    CHECK(passes >= 1);
    rs_prof_shutdown(p);
    /* A chip CUPTI does not know: refused with a message, never a crash. */
    CHECK(rs_prof_init(&p, -1, "NOTACHIP", &err) == RS_OK);
    CHECK(rs_prof_passes(p, rs_metric_set_default(), &passes, NULL, &err) != RS_OK);
    CHECK(strlen(err.msg) > 0);
    rs_prof_shutdown(p);
}

int main(void)
{
    sets();
    aggregation();
    host_api();
    return check_report("test_metrics");
}
