/* One CPU time per input. A GPU run times its input on one host thread
 * beside it (the best of up to 3 runs), and the cpu step times it with its
 * own repetitions (a median, a min and a max). Every "vs CPU" of a list of
 * rows (a ladder, a sweep, the explorer's results) is taken against one
 * figure per input: the cpu step's median where it ran, else the best of
 * the times measured beside the GPU runs. Pure: rows in, rows out. */
#ifndef RS_CPU_TIME_H
#define RS_CPU_TIME_H

#include "row.h"

/* Give every row of rows[0..n) (NULL entries skipped) the CPU time of its
 * input: cpu_ms, speedup_cpu and cpu_from. */
void rs_cpu_share(rs_row *const *rows, int n);
/* The same over a plain array. */
void rs_cpu_share_rows(rs_row *rows, int n);

/* Where a result's CPU time comes from: its cpu_from, or, for a row not
 * yet shared, what the row itself measured. */
rs_cpu_from rs_cpu_from_of(const rs_result *r);
/* "beside" or "cpu_step": the name in CSV and JSON; NULL for other values. */
const char *rs_cpu_from_name(rs_cpu_from f);
/* -1 for an unknown name. */
int rs_cpu_from_parse(const char *name);
/* Words for a reader: "the cpu step's median" or "the best of the host
 * runs timed beside the GPU runs, up to 3 each". */
const char *rs_cpu_from_words(rs_cpu_from f);

/* The cpu step of request r answered from the CPU times rows[0..n) carry
 * for the same input (a recording that holds GPU runs but no run of the
 * cpu step): one figure, the best of them, with no spread. 1 and *out
 * filled where one was found, else 0. */
int rs_cpu_from_rows(const rs_row *rows, int n, const rs_request *r, rs_result *out);

#endif
