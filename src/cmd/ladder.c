/* `redscope ladder`: the steps on one configuration, one row each (over
 * several GPUs with --gpus). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"
#include "analysis/multi.h"
#include "core/runner.h"

typedef struct ladder_own {
    int wide; /* --wide: every column */
} ladder_own;

static rs_status set_wide(void *own, const char *v, rs_error *err)
{
    (void)v, (void)err;
    ((ladder_own *)own)->wide = 1;
    return RS_OK;
}

static const rs_cmd_option ladder_options[] = {
    {"wide", NULL,
     "the table with every column: each counter of the set (the default fits 120 columns, with "
     "the counter that explains each step)",
     set_wide},
    {NULL, NULL, NULL, NULL}};

static const rs_option_help ladder_help[] = {
    {-1, RS_X_FORMAT,
     "output: table (default), csv, json, or md or html: the lecture handout (each step's table "
     "row, why, counter and stall line)",
     NULL, 0},
    {-1, RS_X_AGAINST,
     "a recording to hold the ladder against (A, the baseline; the ladder is B): each step's "
     "time ratio, a verdict from both runs' spread and the counters that moved (as redscope "
     "diff)",
     "FILE", 0},
    RS_HELP_END};

const rs_command rs_ladder_entry = {
    .name = "ladder",
    .usage = "[options]",
    .summary = "run the ladder of variants on one configuration",
    .fields = RS_ALL_FIELDS & ~(RS_FIELD(variant) | RS_FIELD(sweep)),
    .extras = RS_RUNS | RS_X_AGAINST,
    .options = ladder_options,
    .own_size = sizeof(ladder_own),
    .fn = rs_cmd_ladder,
    .exits = RS_EXITS_RUN | RS_EXIT(RS_E_KERNEL),
    .help = ladder_help,
};

/* What is refused before any work: --against's file and format, and
 * --stalls over several GPUs; 0 or the exit status. */
static int refused(const rs_cli *cli)
{
    int rc = rs_cli_check_kernels(cli);
    if (rc || (rc = rs_cli_check_outputs(cli)) || (rc = rs_cli_save_preset(cli))) return rc;
    if (cli->against && (cli->format == RS_FMT_MD || cli->format == RS_FMT_HTML)) {
        rs_cli_error("--against sets a table beside the ladder's table; the handout (--format "
                     "%s) has none: leave one of them out",
                     rs_writers[cli->format]->name);
        return RS_E_USAGE;
    }
    if (cli->against && (rc = rs_cli_against_table(cli, "ladder"))) return rc;
    if (cli->against && (rc = rs_cli_rows_against(cli, "ladder", 1, NULL, 0)))
        return rc;                               /* B first */
    if (cli->req.gpus != 1 && cli->req.stalls) { /* as run says it, live or replayed */
        rs_cli_error("PC sampling watches one GPU: drop --stalls or --gpus");
        return RS_E_USAGE;
    }
    return 0;
}

/* ladder --replay without a preset: settings not given are the first
 * recorded ladder's that holds those given, its kernels among its rows. */
static void adopt_recorded_ladder(rs_cli *cli)
{
    static const rs_field_id match[] = {RS_F_type, RS_F_op,   RS_F_n,    RS_F_block,  RS_F_finish,
                                        RS_F_dist, RS_F_seed, RS_F_reps, RS_F_warmup, RS_F_metrics,
                                        RS_F_grid, RS_F_ept,  RS_F_gpus, RS_F_cache};
    static const rs_field_id more[] = {RS_F_variants, RS_F_cross};
    rs_cli_adopt_recorded(cli, "ladder", match, sizeof match / sizeof *match, more,
                          sizeof more / sizeof *more, 0, NULL);
}

int rs_cmd_ladder(rs_cli *cli)
{
    adopt_recorded_ladder(cli);
    int rc = refused(cli);
    if (rc) return rc;
    enum { MAX_ROWS = (1 + RS_CROSS_COUNT) * RS_VARIANT_COUNT + RS_UKERNEL_MAX_FILES };
    rs_variant vars[RS_VARIANT_COUNT];
    rs_request reqs[MAX_ROWS];
    rs_row *rows = calloc(MAX_ROWS, sizeof *rows);
    if (!rows) {
        rs_cli_error("out of host memory");
        return RS_E_NOMEM;
    }
    int nvars = cli->req.gpus != 1 ? 0 : rs_request_variant_list(&cli->req, vars, RS_VARIANT_COUNT);
    int need_gpu = cli->req.gpus != 1;
    for (int i = 0; i < nvars; i++) {
        need_gpu |= vars[i] != RS_V_CPU;
        rs_request_for_variant(&cli->req, vars[i], &reqs[i]);
    }
    /* over several GPUs: each variant on one GPU, then per finish; every
     * --kernel file a row on one GPU. Else every further file a row of its
     * own after the first's. */
    if (cli->req.gpus != 1)
        nvars = rs_multi_ladder(&cli->req, cli->set[RS_F_cross], reqs, MAX_ROWS);
    for (int k = cli->req.gpus != 1 ? 0 : 1; k < cli->nkernels; k++) {
        rs_request_for_variant(&cli->req, RS_V_KERNEL, &reqs[nvars]);
        reqs[nvars].gpus = 1;
        snprintf(reqs[nvars++].kernel, sizeof reqs[0].kernel, "%s", cli->kernels[k]);
    }
    rs_source *src = NULL;
    if ((rc = rs_cli_open_source(cli, need_gpu, &src))) {
        free(rows);
        return rc;
    }
    int done = 0;
    rc = rs_cli_run_list(cli, src, &(rs_ask){RS_ASK_RUN, "ladder", NULL, NULL}, reqs, nvars, rows,
                         &done);
    /* counters asked for by name (--metrics dram_read,bank_ld): their columns */
    const char *m = cli->req.metrics;
    const int named = cli->set[RS_F_metrics] && strcmp(m, "none") != 0 &&
                      strcmp(m, "default") != 0 && strcmp(m, "full") != 0;
    int doc = 0; /* the handout's own status: nothing ran to write one of */
    const int handout = cli->format == RS_FMT_MD || cli->format == RS_FMT_HTML;
    if (handout && rs_runner_any_ok(rows, done))
        doc = rs_print_handout(cli, rows, done);
    else if (done > 0 && !handout)
        rs_print_ladder(rs_cli_out(cli), rows, done, rs_cli_text_format(cli),
                        RS_CLI_OWN(cli, ladder_own)->wide || named);
    const int missing = rs_cli_stalls_missing(cli, rows, done);
    const int no_energy = rs_cli_energy_missing(cli, rows, done);
    const int lacking = rs_cli_metrics_missing(cli, rows, done);
    if (!rc) rc = rs_cli_nothing_recorded(cli, src, "ladder", rows, done);
    if (!rc) rc = doc;
    if (cli->against && rs_runner_any_ok(rows, done)) {
        const int ag = rs_cli_rows_against(cli, "ladder", 1, rows, done);
        if (!rc) rc = ag;
    }
    if (!rc) { /* a wrong result before counters or views not recorded */
        const int ran = rs_runner_exit(rows, done, 1);
        rc = ran == RS_E_MISMATCH ? ran
             : missing            ? missing
             : no_energy          ? no_energy
             : lacking            ? lacking
                                  : ran;
    }
    if (rc == RS_E_MISMATCH) rs_cli_error("a variant gave a WRONG result (see above)");
    free(rows);
    rs_source_close(src);
    return rc;
}
