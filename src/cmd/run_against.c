/* run --stalls --against VARIANT|FILE: the run's stall view beside
 * another's, line by line (analysis/stall_diff.c): another step on the same
 * settings, the user's other kernel file, or the same configuration as a
 * recording holds it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/source_recording.h"
#include "core/catalogue.h"
#include "formats/files.h"
#include "formats/stalls_io.h"

/* --against names a recording (not a variant or a .cu file). */
static int opened_file(const rs_cli *cli)
{
    const size_t n = strlen(cli->against);
    const int v = rs_variant_from_name(cli->against);
    return !(v >= 0 && v != RS_V_KERNEL) && !(n > 3 && strcmp(cli->against + n - 3, ".cu") == 0);
}

/* The request --against names, the source that answers it (a recording
 * it opens: *opened) and its name for the table. */
static int against_request(const rs_cli *cli, rs_request *r, rs_source **opened, char *name,
                           size_t len)
{
    const char *a = cli->against;
    const size_t n = strlen(a);
    const int v = rs_variant_from_name(a);
    *opened = NULL;
    if (v >= 0 && v != RS_V_KERNEL) {
        rs_request_for_variant(&cli->req, (rs_variant)v, r);
        snprintf(name, len, "%s, same settings", rs_variant_name((rs_variant)v));
    } else if (n > 3 && strcmp(a + n - 3, ".cu") == 0) {
        *r = cli->req;
        r->variant = RS_V_KERNEL;
        snprintf(r->kernel, sizeof r->kernel, "%s", a);
        snprintf(name, len, "%s, same settings", rs_stall_base(a));
    } else {
        rs_error err;
        if (rs_source_recording_open(a, opened, &err) != RS_OK) {
            rs_cli_error("--against %s: not a variant, a .cu kernel or a recording: %s", a,
                         err.msg);
            return err.code;
        }
        *r = cli->req;
        snprintf(name, len, "%s as recorded in %s", rs_request_name(r), rs_stall_base(a));
    }
    r->stalls = 1;
    return 0;
}

/* What --against names can be had, before any work: a variant, a .cu
 * file that can be read, a recording that loads. */
static int against_ready(const rs_cli *cli)
{
    const char *a = cli->against;
    const size_t n = strlen(a);
    const int v = rs_variant_from_name(a);
    if (v >= 0 && v != RS_V_KERNEL) return 0;
    rs_error err;
    if (n > 3 && strcmp(a + n - 3, ".cu") == 0) {
        FILE *f = NULL;
        if (rs_file_open(a, "kernel", RS_READ_TEXT, &f, &err) == RS_OK) {
            fclose(f);
            return 0;
        }
        rs_cli_error("--against %s: %s", a, err.msg);
        return err.code;
    }
    rs_source *s = NULL;
    if (rs_source_recording_open(a, &s, &err) == RS_OK) {
        rs_source_close(s);
        return 0;
    }
    rs_cli_error("--against %s: not a variant, a .cu kernel or a recording: %s", a, err.msg);
    return err.code;
}

int rs_run_against_check(const rs_cli *cli)
{
    if (!cli->against) return 0;
    if (!*cli->against) {
        rs_cli_error("--against needs a variant, a .cu kernel or a recording");
        return RS_E_USAGE;
    }
    if (cli->req.stalls) return against_ready(cli);
    if (!opened_file(cli)) {
        rs_cli_error("--against %s compares stall views line by line: add --stalls (without "
                     "it, --against takes a recording: the run's time beside it)",
                     cli->against);
        return RS_E_USAGE;
    }
    const int rc = rs_cli_against_table(cli, "run");
    return rc ? rc : rs_cli_rows_against(cli, "run", 0, NULL, 0); /* B read first */
}

/* The other run, its stall view checked. */
static int against_run(const rs_cli *cli, rs_source *src, rs_row *out, char *name, size_t len)
{
    rs_request r;
    rs_source *opened = NULL;
    int rc = against_request(cli, &r, &opened, name, len);
    if (rc) return rc;
    rs_cli quiet = *cli;
    quiet.record = NULL; /* --record keeps the run asked for, not what it is held against */
    int done = 0;
    rc = rs_cli_run_list(&quiet, opened ? opened : src, &(rs_ask){RS_ASK_RUN, "run", NULL, NULL},
                         &r, 1, out, &done);
    if (opened) rs_source_close(opened);
    if (!rc && out->status != RS_OK) {
        rs_cli_error("--against %s: %s", cli->against, out->error);
        rc = (int)out->status;
    } else if (!rc && !rs_result_stalls(&out->result)->valid) {
        rs_cli_error("--against %s: no stall view: %s", cli->against,
                     rs_result_stalls(&out->result)->why[0] ? rs_result_stalls(&out->result)->why
                     : opened_file(cli) ? "the recording holds this run without --stalls"
                                        : "not sampled");
        rc = RS_E_USAGE;
    }
    return rc;
}

int rs_run_print_against(const rs_cli *cli, rs_source *src, const rs_row *row)
{
    rs_row *other = calloc(1, sizeof *other);
    rs_stall_delta *d = calloc(RS_STALL_DELTAS, sizeof *d);
    char name[RS_NOTE_MAX + 64];
    int rc = other && d ? 0 : RS_E_NOMEM;
    if (!rc && !rs_result_stalls(&row->result)->valid) {
        rs_print_run(rs_cli_out(cli), row,
                     rs_cli_text_format(cli)); /* the run stands; its view is missing */
        rs_cli_error("no stall view to compare: %s",
                     rs_result_stalls(&row->result)->why[0] ? rs_result_stalls(&row->result)->why
                     : cli->replay ? "this run was recorded without --stalls"
                                   : "this run was not sampled");
        rc = RS_E_USAGE;
    } else if (!rc && (rc = against_run(cli, src, other, name, sizeof name)) != 0) {
        rs_print_run(rs_cli_out(cli), row, rs_cli_text_format(cli));
    }
    if (!rc) {
        const int n = rs_stalls_diff(rs_result_stalls(&other->result),
                                     rs_result_stalls(&row->result), d, RS_STALL_DELTAS);
        FILE *out = rs_cli_out(cli);
        if (rs_cli_text_format(cli) == RS_FMT_JSON) {
            cJSON *j = rs_row_to_json(row);
            cJSON_AddItemToObject(j, "against", rs_stall_diff_to_json(name, d, n));
            char *text = rs_json_print(j);
            if (text) fprintf(out, "%s\n", text);
            cJSON_free(text);
            cJSON_Delete(j);
        } else if (rs_cli_text_format(cli) ==
                   RS_FMT_CSV) { /* one table: the run's, then the lines */
            rs_print_run_csv(out, row, name, d, n);
        } else {
            rs_print_run(out, row, rs_cli_text_format(cli));
            fprintf(out, "\n");
            rs_print_stall_diff(out, name, d, n, rs_cli_text_format(cli));
        }
    }
    free(other);
    free(d);
    return rc;
}
