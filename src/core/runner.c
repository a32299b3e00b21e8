#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "cpu_time.h"
#include "metric_table.h"
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
    const int ar = rn->ask.kind == RS_ASK_ALLREDUCE;
    snprintf(label, sizeof label, "%s%s n=%s", ar ? "all-reduce " : "",
             ar ? rs_ar_algo_name(r->ar_algo) : rs_request_name(r), n);
    row_ctx c = {rn, index, total, label};
    rs_hooks hooks = {on_progress, &c, rn->cancel, on_stage};
    rs_ask ask = rn->ask;
    ask.hooks = &hooks;
    rs_error err;
    memset(row, 0, sizeof *row);
    if (rn->progress) rn->progress(rn->ctx, index, total, 0.0, label);
    row->status = rn->src->run(rn->src, r, &ask, &row->result, &err);
    if (row->status != RS_OK) {
        row->result.req = *r;
        snprintf(row->error, sizeof row->error, "%s", err.msg);
    }
}

/* Record row i and hand it on. */
static rs_status keep_row(const rs_runner *rn, rs_row *rows, int i, rs_error *err)
{
    if (rn->record && rn->record->row(rn->record->ctx, &rows[i], rn->ask.command, err) != RS_OK)
        return RS_E_IO;
    if (rn->row) rn->row(rn->ctx, i, &rows[i]);
    return RS_OK;
}

/* Whether row stops the list: a fatal status, or any failure where the
 * list stops at its first; err says why. */
static int stops(const rs_runner *rn, const rs_row *row, rs_error *err)
{
    if (rs_runner_fatal(row->status)) {
        rs_fail(err, row->status, "%s", row->error);
        return 1;
    }
    if (!rn->stop_on_failure || row->status == RS_OK) return 0;
    rs_fail(err, row->status,
            "stopped at the first failed point: with one process per GPU, every rank's "
            "collectives must stay in step");
    return 1;
}

static rs_status run_list(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows,
                          int *done, rs_error *err)
{
    *done = 0;
    for (int i = 0; i < n; i++) {
        if (rn->cancel && *rn->cancel)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        if (rn->record && rn->record->before) rn->record->before(rn->record->ctx, &reqs[i]);
        make_row(rn, &reqs[i], i, n, &rows[i]);
        if (rows[i].status == RS_E_CANCELLED)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        *done = i + 1;
        if (keep_row(rn, rows, i, err) != RS_OK) return RS_E_IO;
        if (stops(rn, &rows[i], err)) return err->code;
    }
    return RS_OK;
}

/* ---- counters after every timing (counters_last) ---------------------------------- */

/* Whether a row's counters are read after the list's timings: a GPU
 * kernel on one GPU that asks for some. */
static int counters_later(const rs_request *r)
{
    rs_metric_mask m = 0;
    return r->variant != RS_V_CPU && r->gpus == 1 &&
           rs_metric_parse_set(r->metrics, &m, NULL) == RS_OK && m != 0;
}

/* Every row timed, its counters left for later (and said so until read). */
static rs_status time_rows(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows,
                           int *done, rs_error *err)
{
    for (int i = 0; i < n; i++) {
        if (rn->cancel && *rn->cancel)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        rs_request r = reqs[i];
        const int later = counters_later(&r);
        if (later) snprintf(r.metrics, sizeof r.metrics, "none");
        if (rn->record && rn->record->before) rn->record->before(rn->record->ctx, &reqs[i]);
        make_row(rn, &r, i, n, &rows[i]);
        if (rows[i].status == RS_E_CANCELLED)
            return rs_fail(err, RS_E_CANCELLED, "interrupted: %d of %d runs kept", i, n);
        *done = i + 1;
        memcpy(rows[i].result.req.metrics, reqs[i].metrics, sizeof r.metrics);
        if (later && rows[i].status == RS_OK) {
            rs_metrics *m = &rows[i].result.metrics;
            rs_metric_parse_set(reqs[i].metrics, &m->requested, NULL);
            snprintf(m->reason, sizeof m->reason, "not read: the list stopped before its counters");
        }
        if (stops(rn, &rows[i], err)) return err->code;
    }
    return RS_OK;
}

/* One part of every timed row's counters (RS_ASK_COUNTERS_ONE, _MORE). A
 * request the source will not read alone is run again whole. */
static rs_status read_part(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows,
                           rs_ask_kind part, rs_result *tmp, rs_error *err)
{
    const int first = part == RS_ASK_COUNTERS_ONE;
    for (int i = 0; i < n; i++) {
        if (rows[i].status != RS_OK || !counters_later(&reqs[i])) continue;
        if (rn->cancel && *rn->cancel)
            return rs_fail(err, RS_E_CANCELLED, "interrupted before the counters of run %d of %d",
                           i + 1, n);
        char label[96], size[32];
        rs_format_size(reqs[i].n, size, sizeof size);
        snprintf(label, sizeof label, "counters of %s n=%s", rs_request_name(&reqs[i]), size);
        row_ctx c = {rn, i, n, label};
        rs_hooks hooks = {on_progress, &c, rn->cancel, on_stage};
        if (rn->progress) rn->progress(rn->ctx, i, n, 0.0, label);
        rs_error e;
        rs_request r = reqs[i];
        r.energy = 0; /* measured with its timings */
        r.stalls = 0; /* sampled with its timings; a GPU process that samples after counters
                       * starts afresh (source_child.c), which counters alone need not */
        const rs_ask ask = {part, rn->ask.command, NULL, &hooks};
        const rs_status st = rn->src->run(rn->src, &r, &ask, tmp, &e);
        rs_metrics *m = &rows[i].result.metrics;
        if (st == RS_E_USAGE) {
            if (first) make_row(rn, &reqs[i], i, n, &rows[i]); /* whole, counters and all */
        } else if (rs_runner_fatal(st)) {
            return rs_fail(err, st, "%s", e.msg);
        } else if (st != RS_OK) {
            snprintf(m->reason, sizeof m->reason, "%.239s", e.msg);
        } else if (first || (!m->valid && m->nlaunch == 0)) {
            *m = tmp->metrics;
        } else {
            rs_metrics_merge(m, &tmp->metrics);
            rs_metrics_aggregate(m);
        }
    }
    return RS_OK;
}

static rs_status counters_last(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows,
                               int *done, rs_error *err)
{
    *done = 0;
    rs_status st = time_rows(rn, reqs, n, rows, done, err);
    rs_result *tmp = st == RS_OK ? malloc(sizeof *tmp) : NULL;
    if (st == RS_OK && !tmp) st = rs_fail(err, RS_E_NOMEM, "out of host memory");
    if (st == RS_OK) st = read_part(rn, reqs, *done, rows, RS_ASK_COUNTERS_ONE, tmp, err);
    if (st == RS_OK) st = read_part(rn, reqs, *done, rows, RS_ASK_COUNTERS_MORE, tmp, err);
    free(tmp);
    rs_error werr;
    for (int i = 0; i < *done; i++)
        if (keep_row(rn, rows, i, &werr) != RS_OK) {
            *err = werr;
            return RS_E_IO;
        }
    return st;
}

rs_status rs_runner_run(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows, int *done,
                        rs_error *err)
{
    int sampled = 0; /* lists with stall views keep each row's order, as measured on a GPU */
    for (int i = 0; i < n; i++) sampled |= reqs[i].stalls != 0;
    const rs_status st = rn->counters_last && n > 1 && !sampled
                             ? counters_last(rn, reqs, n, rows, done, err)
                             : run_list(rn, reqs, n, rows, done, err);
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
