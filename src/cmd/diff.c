/* `redscope diff A B`: two recordings side by side (formats/run_diff.h): per
 * configuration B's time against A's with a verdict from both runs' spread,
 * the counters and the stall line that moved most; configurations on one
 * side only named. `--fail-slower PCT` makes it a gate (exit 10). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/run_diff.h"

typedef struct diff_own {
    int fail_slower; /* --fail-slower PCT; -1: not given */
} diff_own;
static const diff_own diff_init = {-1};

static rs_status set_fail_slower(void *own, const char *v, rs_error *err)
{
    return rs_cli_whole_number(v, "--fail-slower", 0, 100000, &((diff_own *)own)->fail_slower, err);
}

static const rs_cmd_option diff_options[] = {
    {"fail-slower", "PCT",
     "diff as a gate: exit 10 when a configuration of B is slower than A's beyond both runs' "
     "min..max and by more than PCT percent, or wrong, failed or missing in B (each row of B "
     "checked)",
     set_fail_slower},
    {NULL, NULL, NULL, NULL}};

const rs_command rs_diff_entry = {
    .name = "diff",
    .usage = "A.jsonl B.jsonl [--fail-slower PCT]",
    .summary = "two recordings side by side: each configuration's time ratio, a verdict from both "
               "runs' spread, the counters and the stall line that moved most",
    .extras = RS_X_FORMAT,
    .words = {{-1, RS_X_REPLAY, 0}, {-1, RS_X_AGAINST, 0}}, /* A as --replay, B as --against */
    .options = diff_options,
    .own_size = sizeof(diff_own),
    .own_init = &diff_init,
    .fn = rs_cmd_diff,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_NOMEM) | RS_EXIT(RS_E_IO) |
             RS_EXIT(RS_E_SLOWER),
};

/* What a gate finds against A's row of a pair in one row of B (a
 * configuration B holds twice is checked twice), said on stderr: 1 when
 * it fails. */
static int gate_row(const rs_cli *cli, const rs_row *a, const rs_row *b)
{
    char label[160];
    rs_diff_config_label(a, label, sizeof label);
    if (a->status == RS_OK && b->status != RS_OK) { /* B did not run what A ran */
        rs_cli_error("failed in B: %s (%s)", label, b->error);
        return 1;
    }
    if (rs_diff_wrong(b) && !rs_diff_wrong(a)) {
        char got[64], want[64];
        rs_value_format(&b->result.got, got, sizeof got);
        rs_value_format(&b->result.expected, want, sizeof want);
        rs_cli_error("WRONG in B: %s gave %s, expected %s", label, got, want);
        return 1;
    }
    rs_diff_pair one = {0};
    rs_diff_recordings_pair(a, b, &one);
    const int pct = RS_CLI_OWN(cli, diff_own)->fail_slower;
    if (!rs_diff_fails(&one, pct)) return 0;
    rs_cli_error("slower in B beyond both runs' min..max and %d%%: %s, %+.1f%%", pct, label,
                 one.change_pct);
    return 1;
}

/* The gate: every row of B held against its configuration's row of A
 * (slower beyond the spread and pct, wrong, failed), and every row of A
 * that B lost; on stderr. */
static int gate(const rs_cli *cli, const rs_diff_pair *p, int n, const rs_recording *b)
{
    if (RS_CLI_OWN(cli, diff_own)->fail_slower < 0) return 0;
    int failed = 0, both = 0;
    for (int i = 0; i < n; i++) both += p[i].a && p[i].b;
    if (!both) {
        rs_cli_error("--fail-slower: no configuration is in both recordings: nothing compared");
        return RS_E_USAGE;
    }
    enum { NAMED = 5 }; /* rows missing in B named one a line; the rest counted */
    int missing = 0;
    for (int i = 0; i < n; i++) {
        if (p[i].a && !p[i].b && p[i].a->status == RS_OK) {
            char label[160];
            rs_diff_config_label(p[i].a, label, sizeof label);
            if (missing++ < NAMED) rs_cli_error("missing in B: %s (A ran it)", label);
            failed++;
        }
        if (!p[i].a || !p[i].b) continue;
        for (int j = 0; j < b->count; j++)
            if (rs_request_same_run(&b->rows[j].result.req, &p[i].b->result.req))
                failed += gate_row(cli, p[i].a, &b->rows[j]);
    }
    if (missing > NAMED)
        rs_cli_error("missing in B: %d more rows A ran (the table lists them as only in A)",
                     missing - NAMED);
    return failed ? RS_E_SLOWER : 0;
}

typedef struct reading {
    const char *path;
    rs_recording rec;
    rs_error err;
    rs_status st;
} reading;

static void *read_one(void *arg)
{
    reading *r = arg;
    r->st = rs_recording_load(r->path, &r->rec, &r->err);
    return NULL;
}

/* A and B read at once, B on a thread of its own (two files of 100,000
 * rows: the time of one); 0, or the exit status with the first error said. */
static int load_both(const char *pa, const char *pb, rs_recording *a, rs_recording *b)
{
    reading ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    ra.path = pa;
    rb.path = pb;
    pthread_t t;
    const int threaded = pthread_create(&t, NULL, read_one, &rb) == 0;
    read_one(&ra);
    if (threaded)
        pthread_join(t, NULL);
    else
        read_one(&rb);
    const reading *bad = ra.st != RS_OK ? &ra : rb.st != RS_OK ? &rb : NULL;
    if (bad) {
        rs_cli_error("%s", bad->err.msg);
        if (ra.st == RS_OK) rs_recording_free(&ra.rec);
        if (rb.st == RS_OK) rs_recording_free(&rb.rec);
        return bad->err.code;
    }
    *a = ra.rec;
    *b = rb.rec;
    return 0;
}

int rs_cmd_diff(rs_cli *cli)
{
    if (!cli->replay || !*cli->replay || !cli->against || !*cli->against) {
        rs_cli_error("diff needs two recordings: redscope diff A.jsonl B.jsonl");
        return RS_E_USAGE;
    }
    rs_recording a, b;
    int rc = load_both(cli->replay, cli->against, &a, &b);
    if (rc) return rc;
    const int max = a.count + b.count + 1;
    rs_diff_pair *p = calloc((size_t)max, sizeof *p);
    char across[512] = "";
    const int n = p ? rs_diff_recordings_across(&a, &b, p, max, across, sizeof across) : 0;
    if (across[0]) /* said before the table, where a script's data stays clean */
        fprintf(stderr, "redscope: paired step by step across their settings: %s\n", across);
    if (!p) {
        rs_cli_error("out of host memory");
        rc = RS_E_NOMEM;
    } else if (rs_cli_text_format(cli) == RS_FMT_TABLE) {
        rs_diff_print_table(rs_cli_out(cli), cli->replay, cli->against, &a, &b, p, n);
    } else {
        rs_diff_print_data(rs_cli_out(cli), rs_cli_text_format(cli), p, n);
    }
    if (!rc) rc = gate(cli, p, n, &b);
    if (!rc && fflush(stdout) != 0) rc = RS_E_IO;
    free(p);
    rs_recording_free(&a);
    rs_recording_free(&b);
    return rc;
}
