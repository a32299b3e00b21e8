/* A sweep out (formats/sweep_out.c): the table, CSV or JSON, and a
 * chart's data for gnuplot. */
#ifndef RS_SWEEP_OUT_H
#define RS_SWEEP_OUT_H

#include <stdio.h>

#include "export.h"
#include "analysis/sweep.h"

/* Write the CSV the plot uses: n, one column per series. */
rs_status rs_sweep_write_csv(const rs_sweep *s, rs_chart_quantity q, const char *path,
                             rs_error *err);

/* Table (n by variant), CSV or JSON on f. */
void rs_print_sweep(FILE *f, const rs_sweep *s, rs_format fmt);

#endif
