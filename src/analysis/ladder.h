/* A ladder's figures from its rows (analysis/ladder.c). */
#ifndef RS_LADDER_H
#define RS_LADDER_H

#include "core/row.h"

/* Step speedup of row i over the nearest earlier row that ran spread the
 * same way (one GPU, or as many GPUs with the same finish); a row over
 * several GPUs: over its variant's row on one GPU where there is one. 0 if
 * none. */
double rs_ladder_step_speedup(const rs_row *rows, int i);
/* Speedup of row i over the first row on one GPU that ran (without one,
 * the first spread the same way). */
double rs_ladder_cumulative_speedup(const rs_row *rows, int i);
/* The limit rows read against, one GPU's: the ceiling of the first row
 * that ran with one (rs_result_ceiling: the DRAM read, or warm within the
 * L2 the L2 read; 0: none measured). */
double rs_rows_limit(const rs_row *rows, int count);

#endif
