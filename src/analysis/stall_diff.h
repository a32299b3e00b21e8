/* Two stall views line by line: the pinned result and the shown one, the
 * previous step and this one, the previous version of a user kernel and
 * this one. "The barrier line fell from 41% to 6%". */
#ifndef RS_STALL_DIFF_H
#define RS_STALL_DIFF_H

#include "core/stalls.h"

#define RS_STALL_DELTAS (2 * RS_STALL_LINES)

typedef struct rs_stall_delta {
    char file[RS_STALL_FILE];
    uint32_t line;        /* in the second view (0: the line is in the first only) */
    uint32_t line_before; /* in the first view (0: in the second only) */
    char text[RS_STALL_TEXT];
    double before, after; /* each view's share of its own samples, in % */
} rs_stall_delta;

/* The lines of both views, matched in one file by their role first (the
 * call inlined at them: two kernels' loads of load_one whatever their
 * text), then by source text (a line that moved in an edited file still
 * matches; never a line of punctuation, "}"), or by number where a view
 * has no text; of several, the nearest number. The biggest changes of
 * them all, the biggest first. Returns how many (at most max). */
int rs_stalls_diff(const rs_stalls *before, const rs_stalls *after, rs_stall_delta *out, int max);

/* after - before in points, to the 0.1 shown: never "-0.0". */
double rs_stall_delta_change(const rs_stall_delta *d);

/* "classic.cu:60 (__syncthreads();) fell from 41% to 6% of the samples",
 * "rose", "stayed at", "is new, with", "is gone (it held ...)". */
void rs_stall_delta_words(const rs_stall_delta *d, char *buf, size_t len);

/* Where a row of the comparison is: "classic.cu:60", or where its two
 * lines differ (the same text on other lines: a __syncthreads() of each
 * kernel) both, "classic.cu:47->60", the other view's first. */
const char *rs_stall_delta_where(const rs_stall_delta *d, char *buf, size_t len);

#endif
