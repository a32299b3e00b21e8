/* Results out (table, CSV, JSON) and back in (JSON, for recordings). */
#ifndef RS_EXPORT_H
#define RS_EXPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "core/error.h"
#include "core/result.h"
#include "core/row.h"

/* The output formats, one writer each (formats/write_NAME.c): the build
 * lists the writers it finds (formats/writer_list.h, made by CMake). */
#include "formats/writer_list.h"
typedef enum {
#define RS_FMT_VALUE(name, NAME) RS_FMT_##NAME,
    RS_WRITER_LIST(RS_FMT_VALUE)
#undef RS_FMT_VALUE
        RS_FMT_COUNT
} rs_format;

int rs_format_from_name(const char *s); /* -1 when unknown (writer.c) */
/* The format names, "table, csv, json, md or html". */
const char *rs_format_names(void);

cJSON *rs_request_to_json(const rs_request *r);
rs_status rs_request_from_json(const cJSON *j, rs_request *r, rs_error *err);
cJSON *rs_device_to_json(const rs_device_info *d);
void rs_device_from_json(const cJSON *j, rs_device_info *d);
/* A recorded device's figures, each of its type and in range (a GPU's
 * peak of 1e308 GB/s or -1 is refused, field named). */
rs_status rs_device_check(const cJSON *j, rs_error *err);
cJSON *rs_result_to_json(const rs_result *r);
rs_status rs_result_from_json(const cJSON *j, rs_result *r, rs_error *err);
/* One CSV text field, quoted, with quotes doubled: every CSV writer's text
 * goes through this (a note with '"' or ',' stays one field). */
void rs_csv_field(FILE *f, const char *s);
/* CSV numbers, one rule (docs/formats.md): a whole quantity (a count,
 * bytes, ns) in full, every other figure with up to 6 significant digits
 * (%.6g); nothing where a figure is not finite. */
void rs_csv_whole(FILE *f, double v);
void rs_csv_num(FILE *f, double v);
/* The cells of a header line: its commas, and one. */
int rs_csv_cells(const char *header);

/* Every string in j and below it made safe for a terminal (rs_text_safe:
 * control characters, C1 and bidirectional controls escaped), one line
 * each but a kernel's "source": a recording is text anyone may edit. */
void rs_json_scrub(cJSON *j);
/* A JSON document as a command writes it (cJSON_Print's text, malloc'd):
 * a figure that is exactly a float (a cudaEvent time, a float32 result) is
 * written as the shortest decimal that reads back to that float (0.087456,
 * not 0.08745600283145905: the float's, not noise of its widening); any
 * other number as cJSON writes a double. */
char *rs_json_print(cJSON *j);

/* A number a recording holds, checked: of its type and in range. Absent
 * (or null) is fine unless required; else "PREFIXKEY is VALUE: expected
 * EXPECT". lo is excluded where open_lo, whole asks for an integer. */
typedef struct rs_figure {
    const char *key;
    double lo, hi;
    int open_lo, whole, required;
    const char *expect;
} rs_figure;
rs_status rs_figure_check(const cJSON *o, const char *prefix, const rs_figure *f, rs_error *err);
/* The figures a measured row must hold (time_ms, correct and the rest). */
rs_status rs_row_figures_check(const cJSON *j, rs_error *err);
/* A row's "ceiling" and "pct_ceiling" as written against those its request
 * and figures give (r read but for them); absent both: written before them. */
rs_status rs_row_ceiling_check(const cJSON *j, const rs_result *r, rs_error *err);
/* A user kernel's build figures (registers, shared and local bytes, spills,
 * the architecture), each in the range the hardware allows. */
rs_status rs_kernel_build_check(const cJSON *j, rs_error *err);
/* A measured result's figures against each other, as read: GB/s from n and
 * the median, % of peak from GB/s and the peak, min <= median <= max, the
 * verdict from its misses, result and reference, errors and tolerance. */
rs_status rs_result_consistent(const rs_result *r, rs_error *err);
/* A JSON value as written, cut to fit a message. */
void rs_json_shown(const cJSON *v, char *buf, size_t len);

cJSON *rs_row_to_json(const rs_row *row);
rs_status rs_row_from_json(const cJSON *j, rs_row *row, rs_error *err);

/* `redscope run`: one result, every figure. */
void rs_print_run(FILE *f, const rs_row *row, rs_format fmt);

/* `redscope ladder`: the classic table, step and cumulative speedups. With
 * metric columns when any row has counters. */
/* The ladder: its table fits 120 columns (each step's explaining counter,
 * analysis/stories.h) unless wide (every counter of the set); CSV and JSON whole. */
void rs_print_ladder(FILE *f, const rs_row *rows, int count, rs_format fmt, int wide);

/* The rows of a ladder as CSV (formats/csv.c): counter columns where any row
 * has counters, its hottest line where any has a stall view. */
void rs_print_rows_csv(FILE *f, const rs_row *rows, int count);

/* `redscope devices` */
void rs_print_devices(FILE *f, const rs_device_info *d, int count, rs_format fmt);

#endif
