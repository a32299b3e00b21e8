/* A sweep out (formats/sweep_out.c): the table, CSV or JSON, and a
 * chart's data for gnuplot. */
#ifndef RS_SWEEP_OUT_H
#define RS_SWEEP_OUT_H

#include <stdio.h>

#include "export.h"
#include "analysis/sweep.h"

/* A series' key in the chart's data: its variant (the CPU's "cpu"), and in
 * a sweep of both states the state too ("vectorized_warm"); into buf. */
const char *rs_sweep_series_key(const rs_sweep *s, int series, char *buf, size_t len);

/* Write the CSV the plot uses: n, one column per series. */
rs_status rs_sweep_write_csv(const rs_sweep *s, rs_chart_quantity q, const char *path,
                             rs_error *err);

/* Table (n by variant), CSV or JSON on f. */
void rs_print_sweep(FILE *f, const rs_sweep *s, rs_format fmt);

/* Below the table (sweep_limits.c): the ceilings measured and where the
 * input outgrows the L2, where curves bend, each variant's bounds; and the
 * same as JSON members ("ceilings", "bends", "bounds") of j. */
void rs_print_sweep_limits(FILE *f, const rs_sweep *s);
void rs_sweep_limits_json(const rs_sweep *s, cJSON *j);

#endif
