#include "runner.h"

#include <string.h>

#include "catalogue.h"
#include "cpu_time.h"
#include "request.h"

int rs_runner_fatal(rs_status st)
{
    return st == RS_E_NODRIVER || st == RS_E_NODEVICE || st == RS_E_CANCELLED;
}

typedef struct row_ctx {
    const rs_runner *rn;
    int index, total;
    const char *label;
} row_ctx;

static void on_progress(void *ctx, double done)
{
    const row_ctx *c = ctx;
    if (c->rn->progress) c->rn->progress(c->rn->ctx, c->index, c->total, done, c->label);
}

static void on_stage(void *ctx, const char *what)
{
    const row_ctx *c = ctx;
    if (c->rn->stage) c->rn->stage(c->rn->ctx, what);
}

/* One request into one row: its result, or its status and why. */
static void make_row(const rs_runner *rn, const rs_request *r, int index, int total, rs_row *row)
{
    char label[96], n[32];
    rs_format_size(r->n, n, sizeof n);
    snprintf(label, sizeof label, "%s n=%s", rs_request_name(r), n);
    row_ctx c = {rn, index, total, label};
    rs_hooks hooks = {on_progress, &c, rn->cancel, on_stage};
    rs_error err;
    memset(row, 0, sizeof *row);
    if (rn->progress) rn->progress(rn->ctx, index, total, 0.0, label);
    row->status = rn->src->run(rn->src, r, rn->command, &hooks, &row->result, &err);
    if (row->status != RS_OK) {
        row->result.req = *r;
        snprintf(row->error, sizeof row->error, "%s", err.msg);
    }
}

static rs_status run_list(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows,
                          int *done, rs_error *err)
{
    *done = 0;
    for (int i = 0; i < n; i++) {
        if (rn->cancel && *rn->cancel)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        if (rn->record) rs_record_kernel_before(rn->record, &reqs[i]);
        make_row(rn, &reqs[i], i, n, &rows[i]);
        if (rows[i].status == RS_E_CANCELLED)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        *done = i + 1;
        if (rn->record && rs_record_row(rn->record, &rows[i], rn->command, err) != RS_OK)
            return RS_E_IO;
        if (rn->row) rn->row(rn->ctx, i, &rows[i]);
        if (rs_runner_fatal(rows[i].status))
            return rs_fail(err, rows[i].status, "%s", rows[i].error);
    }
    return RS_OK;
}

rs_status rs_runner_run(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows, int *done,
                        rs_error *err)
{
    const rs_status st = run_list(rn, reqs, n, rows, done, err);
    rs_cpu_share_rows(rows, *done); /* one CPU time per input (recorded as measured) */
    return st;
}

int rs_runner_exit(const rs_row *rows, int n, int nomem_fails)
{
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        const rs_status st = rows[i].status;
        if (st == RS_OK) {
            wrong |= !rows[i].result.correct;
            continue;
        }
        if (st == RS_E_USAGE || (st == RS_E_NOMEM && !nomem_fails)) continue;
        return (int)st;
    }
    return wrong ? RS_E_MISMATCH : 0;
}

int rs_runner_any_ok(const rs_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK) return 1;
    return 0;
}
