/* `redscope sweep`: variants over a range of n, a table, and a chart drawn
 * by gnuplot when asked. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"
#include "core/runner.h"
#include "formats/preset.h"
#include "formats/record.h"
#include "analysis/sweep.h"
#include "formats/sweep_out.h"
#include "sweep_plot.h"

/* The sweep's own options: --cache both, a word of the cache field that
 * no request holds (a request runs in one state): every size cold, then
 * every size warm, in one table and one chart. */
typedef struct sweep_own {
    int both;
} sweep_own;

static const sweep_own sweep_defaults = {0};

static const rs_field_word sweep_words[] = {
    {RS_F_cache, "both", offsetof(sweep_own, both)},
    {0, NULL, 0},
};

static const rs_option_help sweep_help[] = {
    {-1, RS_X_AGAINST,
     "a recording to hold the sweep against (A, the baseline; the sweep is B): each size and "
     "variant's time ratio and verdict (as redscope diff)",
     "FILE", 0},
    {RS_F_cache, 0,
     "the input's cache state before each timed run: cold (the L2 flushed: read from DRAM), "
     "warm (the input read just before: in the L2 where it fits), or both (every size cold, "
     "then every size warm, in one table and chart; a preset holds cold or warm)",
     NULL, 0},
    RS_HELP_END};

const rs_command rs_sweep_entry = {
    .name = "sweep",
    .usage = "[--variants LIST] [--range RANGE] [options]",
    .summary = "time variants over a range of n",
    .fields = RS_ALL_FIELDS & ~(RS_FIELD(variant) | RS_FIELD(stalls)),
    .extras = RS_RUNS | RS_X_PLOT | RS_X_AGAINST,
    .field_words = sweep_words,
    .own_size = sizeof(sweep_own),
    .own_init = &sweep_defaults,
    .fn = rs_cmd_sweep,
    .exits = RS_EXITS_RUN | RS_EXIT(RS_E_KERNEL),
    .help = sweep_help,
};

/* Every variant at every size in each state: the sweep's row order. */
static rs_request *sweep_requests(const rs_request *base, const rs_sweep *s, int *need_gpu)
{
    const int n = s->sizes.count * s->nvar;
    rs_request *reqs = calloc((size_t)n + 1, sizeof *reqs);
    *need_gpu = 0;
    for (int i = 0; reqs && i < n; i++) {
        rs_sweep_request(s, i, base, &reqs[i]);
        *need_gpu |= reqs[i].variant != RS_V_CPU;
    }
    return reqs;
}

/* sweep --replay without a preset: settings not given are the recorded
 * sweep's (the last one that holds those given), as the explorer opens a
 * recording, so `sweep --replay FILE` shows the sweep FILE holds. */
static void adopt_recorded_sweep(rs_cli *cli, int *both)
{
    static const rs_field_id match[] = {RS_F_type, RS_F_op,   RS_F_block,  RS_F_finish,  RS_F_dist,
                                        RS_F_seed, RS_F_reps, RS_F_warmup, RS_F_metrics, RS_F_grid,
                                        RS_F_ept,  RS_F_gpus, RS_F_cache};
    static const rs_field_id more[] = {RS_F_variants, RS_F_sweep, RS_F_cross};
    rs_cli_adopt_recorded(cli, "sweep", match, sizeof match / sizeof *match, more,
                          sizeof more / sizeof *more, 1, both);
}

int rs_cmd_sweep(rs_cli *cli)
{
    rs_error err;
    rs_sweep_sizes sizes;
    int both = ((sweep_own *)cli->own)->both;
    adopt_recorded_sweep(cli, &both);
    if (both && cli->save_preset) {
        rs_cli_error("--save-preset: a preset holds one cache state, cold or warm; give "
                     "--cache both when you run it");
        return RS_E_USAGE;
    }
    if (rs_sweep_parse(cli->req.sweep, &sizes, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return RS_E_USAGE;
    }
    if (cli->nkernels > 1) {
        rs_cli_error("sweep takes one --kernel (its series sits beside the built-in steps); "
                     "compare several files with ladder");
        return RS_E_USAGE;
    }
    int rc = rs_cli_check_kernels(cli);
    if (rc || (rc = rs_cli_check_outputs(cli)) || (rc = rs_cli_save_preset(cli))) return rc;
    if (cli->against && ((rc = rs_cli_against_table(cli, "sweep")) ||
                         (rc = rs_cli_rows_against(cli, "sweep", 0, NULL, 0))))
        return rc; /* B read first */
    rs_variant vars[RS_VARIANT_COUNT];
    const int nvar = rs_request_variant_list(&cli->req, vars, RS_VARIANT_COUNT);
    rs_sweep s;
    const unsigned states = both ? RS_CACHE_BOTH : RS_CACHE_BIT(cli->req.cache);
    if (rs_sweep_init(&s, &sizes, vars, nvar, states, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    int need_gpu = 0;
    rs_request *reqs = sweep_requests(&cli->req, &s, &need_gpu);
    rs_source *src = NULL;
    if (!reqs) {
        rs_cli_error("out of host memory");
        rc = RS_E_NOMEM;
    } else if (!(rc = rs_cli_open_source(cli, need_gpu, &src))) {
        rc = rs_cli_run_list(cli, src, &(rs_ask){RS_ASK_RUN, "sweep", NULL, NULL}, reqs,
                             sizes.count * s.nvar, s.rows, &s.done);
        rs_print_sweep(rs_cli_out(cli), &s, rs_cli_text_format(cli));
        if (!rc) rc = rs_cli_nothing_recorded(cli, src, "sweep", s.rows, s.done);
        const int no_energy = rs_cli_energy_missing(cli, s.rows, s.done);
        if (!rc) rc = no_energy;
        if (cli->against && rs_runner_any_ok(s.rows, s.done)) {
            const int ag = rs_cli_rows_against(cli, "sweep", 0, s.rows, s.done);
            if (!rc) rc = ag;
        }
        if (!rc) rc = rs_runner_exit(s.rows, s.done, 0);
        if (cli->plot && rs_runner_any_ok(s.rows, s.done)) { /* nothing to draw: no file */
            const int prc = rs_sweep_plot(&s, cli->plot, &cli->req);
            if (prc && !rc) rc = prc;
        }
    }
    free(reqs);
    rs_sweep_free(&s);
    rs_source_close(src);
    return rc;
}
