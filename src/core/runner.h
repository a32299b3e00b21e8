/* The runner: a list of requests into rows through a source, with one
 * policy for every caller (run, ladder, sweep, the explorer's worker):
 *
 * - a refused request (RS_E_USAGE), a size that does not fit (RS_E_NOMEM)
 *   or a failed run (RS_E_CUDA, ...) is a row, and the list goes on;
 * - no driver, no device, a recording that cannot be written, or a cancel
 *   stops it: the rows so far are kept;
 * - every row is recorded as it is made (a stopped run keeps what it
 *   measured), and handed to `row` as it is made;
 * - the rows returned take one CPU time per input (core/cpu_time.h), so
 *   every "vs CPU" of a list is against the same figure;
 * - with counters_last (a live GPU's list without stall views: the order
 *   with sampling is the one measured on a GPU), every row is timed first and
 *   its counters read after all the timings, the one-pass set of every row
 *   and then the rest: the range profiler stays enabled across a set's
 *   collections (0.15 s each to enable on an H100) and never beside a
 *   timed run. Rows are then recorded and handed to `row` in order. */
#ifndef RS_RUNNER_H
#define RS_RUNNER_H

#include "row.h"
#include "source.h"

/* Where rows are kept as they are made (formats/record.h makes one for a
 * recording): before(ctx, request) ahead of each run, row(...) after it;
 * a row that cannot be kept stops the list (RS_E_IO). */
typedef struct rs_runner_record {
    void (*before)(void *ctx, const rs_request *r);
    rs_status (*row)(void *ctx, const rs_row *row, const char *command, rs_error *err);
    void *ctx;
} rs_runner_record;

typedef struct rs_runner {
    rs_source *src;
    /* what each row asks of the source: its kind, the command recorded
     * with each row ("run", "ladder", "sweep"), the all-reduce's job; the
     * runner gives each row its own hooks */
    rs_ask ask;
    const rs_runner_record *record; /* NULL: not recorded */
    const volatile int *cancel;     /* set from any thread: stop between launches */
    /* row `index` of `total` is `done` (0..1) through; label names it */
    void (*progress)(void *ctx, int index, int total, double done, const char *label);
    void (*stage)(void *ctx, const char *what);
    void (*row)(void *ctx, int index, const rs_row *row);
    void *ctx;
    int counters_last;
    /* the first failed row stops the list too (the all-reduce's ranks:
     * every rank's collectives must stay in step) */
    int stop_on_failure;
} rs_runner;

/* Run reqs[0..n) into rows[0..n); *done rows were made. RS_OK, or the status
 * that stopped the list (err says why). */
rs_status rs_runner_run(const rs_runner *rn, const rs_request *reqs, int n, rs_row *rows, int *done,
                        rs_error *err);

/* 1 when a row's status stops a list. */
int rs_runner_fatal(rs_status st);

/* The exit status a list of rows earns: the first failed run's status
 * (refusals never; sizes that did not fit when nomem_fails), else
 * RS_E_MISMATCH for a wrong result, else 0. */
int rs_runner_exit(const rs_row *rows, int n, int nomem_fails);

/* Whether any of rows[0..n) ran (something to draw or write). */
int rs_runner_any_ok(const rs_row *rows, int n);

#endif
