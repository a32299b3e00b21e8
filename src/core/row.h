/* One row of a list (run, ladder, sweep): a result, or why that request
 * did not run. The vocabulary every command, screen and file format shares. */
#ifndef RS_ROW_H
#define RS_ROW_H

#include "error.h"
#include "result.h"

typedef struct rs_row {
    rs_status status;
    char error[512];
    rs_result result;
} rs_row;

/* What a replay answers for a request its recording lacks: the error
 * begins so, and the row is "not recorded" rather than refused. */
#define RS_NOT_RECORDED "not in the recording"
int rs_row_not_recorded(const rs_row *row);

/* The ceiling the rows that ran share (RS_CEIL_NONE: none ran, or they
 * differ, or none was measured); *first (first may be NULL): the first
 * such row's result. */
rs_ceiling rs_rows_ceiling(const rs_row *rows, int count, const rs_result **first);

#endif
