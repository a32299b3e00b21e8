/* `redscope run`: one variant on one configuration, every figure; with
 * --check under compute-sanitizer (check.c), with --stalls --against beside
 * another view (against.c), with --against FILE beside a recording's run
 * (diff.c). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/check.h"
#include "core/catalogue.h"
#include "core/trace.h"

static rs_status set_check(void *own, const char *v, rs_error *err)
{
    rs_run_own *o = own;
    o->check = rs_check_from_name(v);
    if (o->check < 0)
        return rs_fail(err, RS_E_USAGE, "bad --check '%s': expected race or memory", v);
    return RS_OK;
}

static const rs_cmd_option run_options[] = {
    {"check", "KIND",
     "run it under compute-sanitizer instead: race (racecheck) or memory (memcheck, initcheck)",
     set_check},
    {NULL, NULL, NULL, NULL}};

const rs_command rs_run_entry = {
    .name = "run",
    .usage = "--variant ID [options]",
    .summary = "run one variant and print every figure",
    .fields = RS_ALL_FIELDS & ~(RS_FIELD(variants) | RS_FIELD(sweep)),
    .extras = RS_RUNS | RS_X_AGAINST,
    .options = run_options,
    .own_size = sizeof(rs_run_own),
    .fn = rs_cmd_run,
    .exits = RS_EXITS_RUN | RS_EXIT(RS_E_KERNEL) | RS_EXIT(RS_E_FOUND),
};

/* --kernel on run: the variant is the file's kernel; one file at a time. */
static int run_kernel_args(rs_cli *cli)
{
    if (cli->nkernels > 1) {
        rs_cli_error("run takes one --kernel; compare several with: redscope ladder --kernel A.cu "
                     "--kernel B.cu");
        return RS_E_USAGE;
    }
    if (!cli->set[RS_F_kernel]) return 0;
    if (cli->set[RS_F_variant] && cli->req.variant != RS_V_KERNEL) {
        rs_cli_error("give --variant or --kernel, not both: --kernel runs your file");
        return RS_E_USAGE;
    }
    cli->req.variant = RS_V_KERNEL;
    return 0;
}

int rs_cmd_run(rs_cli *cli)
{
    rs_error err;
    int rc0 = run_kernel_args(cli);
    if (rc0 || (rc0 = rs_cli_check_kernels(cli))) return rc0;
    if (RS_CLI_OWN(cli, rs_run_own)->check) return rs_run_check(cli);
    int rc = rs_run_against_check(cli);
    if (rc || (rc = rs_cli_check_outputs(cli)) || (rc = rs_cli_save_preset(cli))) return rc;
    /* Refuse a bad configuration before touching the GPU. */
    if (rs_catalogue_check(&cli->req, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return (int)err.code;
    }
    rs_source *src = NULL;
    if ((rc = rs_cli_open_source(cli, cli->req.variant != RS_V_CPU, &src))) return rc;
    rs_row *row = calloc(1, sizeof *row);
    if (!row) {
        rs_source_close(src);
        rs_cli_error("out of host memory");
        return RS_E_NOMEM;
    }
    int done = 0;
    rc = rs_cli_run_list(cli, src, &(rs_ask){RS_ASK_RUN, "run", NULL, NULL}, &cli->req, 1, row,
                         &done);
    if (!rc && row->status != RS_OK) {
        rs_cli_error("%s", row->error);
        rc = (int)row->status;
    } else if (!rc) {
        if (cli->against && cli->req.stalls)
            rc = rs_run_print_against(cli, src, row);
        else
            rs_print_run(rs_cli_out(cli), row, rs_cli_text_format(cli));
        if (cli->against && !cli->req.stalls) rc = rs_cli_rows_against(cli, "run", 0, row, 1);
        const int missing = rc ? 0 : rs_cli_stalls_missing(cli, row, 1); /* --against said it */
        const int no_energy = rs_cli_energy_missing(cli, row, 1);
        const int lacking = rs_cli_metrics_missing(cli, row, 1);
        rs_trace("run: printed");
        if (!rc && !row->result.correct) { /* a wrong result before counters not recorded */
            rs_cli_error("%s gave a WRONG result (see above)", rs_request_name(&cli->req));
            rc = RS_E_MISMATCH;
        }
        if (!rc) rc = missing ? missing : no_energy ? no_energy : lacking;
    }
    free(row);
    rs_source_close(src);
    return rc;
}
