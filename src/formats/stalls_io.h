/* The stall view out (table, CSV, JSON) and back in (JSON, for
 * recordings). */
#ifndef RS_STALLS_IO_H
#define RS_STALLS_IO_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "export.h"
#include "analysis/stall_diff.h"
#include "core/stalls.h"

cJSON *rs_stalls_to_json(const rs_stalls *s);
/* A recording is a file anyone may write: counts out of range, unknown
 * reasons and too many lines are dropped, never trusted. */
void rs_stalls_from_json(const cJSON *j, rs_stalls *s);
/* The view j holds, kept (rs_stalls_keep) into *out; *out NULL where j is
 * no object. RS_E_NOMEM when memory runs out. */
rs_status rs_stalls_keep_json(const cJSON *j, const rs_stalls **out, rs_error *err);

/* Per line: samples, share, the top reasons in words and Nsight Compute's
 * names; then the run's totals by reason (a table, or JSON; CSV is below). */
void rs_print_stalls(FILE *f, const rs_stalls *s, rs_format fmt);

/* ---- CSV (formats/stalls_csv.c; docs/formats.md names every column) ---- */

/* A row's hottest line, in the columns of run and ladder: the view's
 * samples, the line's file, number, text and share, its top reason and
 * why there is no view. Each cell written after a comma. */
#define RS_STALLS_HOT_COLUMNS 8
void rs_stalls_csv_hot_header(FILE *f);
void rs_stalls_csv_hot(FILE *f, const rs_stalls *s, int ran);

/* run --stalls: one table whose first column, `table`, says what a row is:
 * "run" (the run's columns, then these empty), "line" and "function" (the
 * view's), "against" (--against's lines). The view's columns after the
 * run's: their names, and as many empty cells. */
void rs_stalls_csv_header(FILE *f);
void rs_stalls_csv_empty(FILE *f);
/* The view's line and function rows, each its table's name and run_columns
 * empty cells first. */
void rs_stalls_csv_rows(FILE *f, const rs_stalls *s, int run_columns);
/* The lines of two views (--against: `against` is the other's name). */
void rs_stall_diff_csv_rows(FILE *f, const char *against, const rs_stall_delta *d, int n,
                            int run_columns);

/* run's CSV (formats/csv.c): its row; with --stalls, as the one table above,
 * with --against's lines where against is not NULL. */
void rs_print_run_csv(FILE *f, const rs_row *row, const char *against, const rs_stall_delta *d,
                      int n);

/* "classic.cu:28 holds 41% of the samples, 90% waiting for shared memory
 * (short scoreboard)": the hottest line and its top reason; "" without a
 * view. */
void rs_stalls_hot_words(const rs_stalls *s, char *buf, size_t len);

/* Two views line by line (analysis/stall_diff.h), against `against` (the
 * first view's name): a table, the biggest change in words last. */
void rs_print_stall_diff(FILE *f, const char *against, const rs_stall_delta *d, int n,
                         rs_format fmt);
/* The same as JSON: {"name", "lines": [...], "biggest_change"}. */
cJSON *rs_stall_diff_to_json(const char *against, const rs_stall_delta *d, int n);

#endif
