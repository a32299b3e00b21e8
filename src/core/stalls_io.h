/* The stall view out (table, CSV, JSON) and back in (JSON, for
 * recordings). */
#ifndef RS_STALLS_IO_H
#define RS_STALLS_IO_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "export.h"
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

#endif
