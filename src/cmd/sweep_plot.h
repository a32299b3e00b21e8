/* `sweep --plot` (sweep_plot.c): the sweep's GB/s against n through
 * gnuplot, with the ceilings measured, where the input outgrows the L2
 * and where curves bend. */
#ifndef RS_CMD_SWEEP_PLOT_H
#define RS_CMD_SWEEP_PLOT_H

#include <stddef.h>

#include "analysis/sweep.h"
#include "core/request.h"

/* gnuplot's script for s, reading csv (the chart's data): into buf. */
void rs_sweep_plot_script(const rs_sweep *s, const rs_request *req, const char *csv, char *buf,
                          size_t len);

/* FILE.svg or FILE.png, from the data written beside it (FILE.csv); 0, or
 * the exit status with the error said. */
int rs_sweep_plot(const rs_sweep *s, const char *file, const rs_request *req);

#endif
