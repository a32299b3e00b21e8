/* The stall view out (table, CSV, JSON) and back in (JSON, for
 * recordings). */
#ifndef RS_STALLS_IO_H
#define RS_STALLS_IO_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "export.h"
#include "stall_diff.h"
#include "stalls.h"

cJSON *rs_stalls_to_json(const rs_stalls *s);
/* A recording is a file anyone may write: counts out of range, unknown
 * reasons and too many lines are dropped, never trusted. */
void rs_stalls_from_json(const cJSON *j, rs_stalls *s);

/* Per line: samples, share, the top reasons in words and Nsight Compute's
 * names; then the run's totals by reason. */
void rs_print_stalls(FILE *f, const rs_stalls *s, rs_format fmt);

/* "classic.cu:28 holds 41% of the samples, 90% waiting for shared memory
 * (short scoreboard)": the hottest line and its top reason; "" without a
 * view. */
void rs_stalls_hot_words(const rs_stalls *s, char *buf, size_t len);

/* Two views line by line (core/stall_diff.h), against `against` (the
 * first view's name): a table (the biggest change in words last) or CSV. */
void rs_print_stall_diff(FILE *f, const char *against, const rs_stall_delta *d, int n,
                         rs_format fmt);
/* The same as JSON: {"name", "lines": [...], "biggest_change"}. */
cJSON *rs_stall_diff_to_json(const char *against, const rs_stall_delta *d, int n);

#endif
