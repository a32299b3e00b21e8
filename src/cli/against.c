/* --against FILE on run, ladder and sweep: the command's rows held against
 * a recording's (A, the baseline; the rows are B), as `redscope diff A B`
 * prints two recordings (formats/run_diff.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "formats/writer.h"
#include "formats/record.h"
#include "formats/run_diff.h"

static int load(const char *path, rs_recording *rec)
{
    rs_error err;
    if (rs_recording_load(path, rec, &err) == RS_OK) return 0;
    rs_cli_error("%s", err.msg);
    return err.code;
}

/* A row of B that only B holds belongs beside these rows where it has their
 * type, operation, block and input, one of their sizes, and (run, sweep)
 * one of their variants: a ladder names B's other steps, a run does not. */
static int belongs(const rs_request *r, const rs_row *rows, int n, int any_variant)
{
    int size = 0, variant = any_variant;
    for (int i = 0; i < n; i++) {
        const rs_request *q = &rows[i].result.req;
        if (r->type != q->type || r->op != q->op || r->block != q->block || r->dist != q->dist)
            continue;
        size |= r->n == q->n;
        variant |= r->variant == q->variant &&
                   (r->variant != RS_V_KERNEL || strcmp(r->kernel, q->kernel) == 0);
    }
    return size && variant;
}

int rs_cli_against_table(const rs_cli *cli, const char *command)
{
    if (rs_cli_text_format(cli) == RS_FMT_TABLE) return 0; /* md, html: in the report */
    const char *fmt = rs_writers[cli->format]->name;
    rs_cli_error("--against sets a table beside the %s's; for %s: redscope diff %s %s "
                 "--format %s",
                 command, fmt, cli->replay ? cli->replay : "A.jsonl (--record A.jsonl)",
                 cli->against, fmt);
    return RS_E_USAGE;
}

int rs_cli_rows_against(const rs_cli *cli, const char *command, int list, const rs_row *rows, int n)
{
    rs_recording base, mine = {0}; /* A: the recording held against; B: these rows */
    int rc = load(cli->against, &base);
    if (rc) return rc;
    if (n < 1) { /* only checked, before the rows run */
        rs_recording_free(&base);
        return 0;
    }
    char(*cmd)[16] = calloc((size_t)n, sizeof *cmd);
    const int max = n + base.count + 1;
    rs_diff_pair *p = cmd ? calloc((size_t)max, sizeof *p) : NULL;
    if (!p) {
        rs_cli_error("out of host memory");
        rc = RS_E_NOMEM;
    } else {
        for (int i = 0; i < n; i++) snprintf(cmd[i], sizeof cmd[i], "%s", command);
        mine.rows = (rs_row *)rows; /* read only: the pairs point at them */
        mine.count = n;
        mine.command = cmd;
        for (int i = 0; i < n && !mine.has_device; i++)
            if (rows[i].status == RS_OK) mine.device = rows[i].result.device, mine.has_device = 1;
        char now[64];
        snprintf(now, sizeof now, "this %s, measured now", command);
        /* as `redscope diff FILE THESE` prints them */
        int m = 0;
        const int all = rs_diff_recordings(&base, &mine, p, max);
        const int ladder = list;
        for (int i = 0; i < all; i++) {
            if (p[i].b && rs_row_not_recorded(p[i].b)) p[i].b = NULL; /* asked, not replayed */
            if (!p[i].a && !p[i].b) continue;
            if (p[i].b || belongs(&p[i].a->result.req, rows, n, ladder)) p[m++] = p[i];
        }
        fprintf(rs_cli_out(cli), "\n");
        rs_diff_print_table(rs_cli_out(cli), cli->against, cli->replay ? cli->replay : now, &base,
                            &mine, p, m);
    }
    free(p);
    free(cmd);
    rs_recording_free(&base);
    return rc;
}
