/* Two runs side by side: the rows of two recordings matched by
 * configuration, each pair with the time ratio, a verdict measured from
 * the recorded spread (each side's min..max of its timed repetitions), the
 * counters that moved most and the stall line that moved most; rows on
 * one side only are kept and named. Pure: `redscope diff` prints it. */
#ifndef RS_RUN_DIFF_H
#define RS_RUN_DIFF_H

#include "core/metric_table.h"
#include "export.h"
#include "record.h"
#include "analysis/stall_diff.h"

#define RS_DIFF_TOP 2 /* counters told per pair */

typedef enum { RS_DIFF_SLOWER = -1, RS_DIFF_SAME = 0, RS_DIFF_FASTER = 1 } rs_diff_verdict;

typedef struct rs_diff_pair {
    const rs_row *a, *b; /* NULL: the configuration is on the other side only */
    double speedup;      /* a's median time / b's: above 1, B is faster */
    double change_pct;   /* b's time against a's, in %: +25 is 25% slower */
    rs_diff_verdict verdict;
    int ntop;                      /* counters that changed by 5% or more, biggest first */
    rs_metric_id top[RS_DIFF_TOP]; /* of those */
    double top_ratio[RS_DIFF_TOP]; /* b's value / a's (0: to zero; inf: from zero) */
    double top_a[RS_DIFF_TOP], top_b[RS_DIFF_TOP]; /* the values */
    int has_stall; /* both sides sampled: the line that moved most */
    rs_stall_delta stall;
} rs_diff_pair;

/* The pairs of a against b, in a's order, then a's rows not in b, then b's rows
 * not in a (a second row of a configuration paired is not one). Rows of
 * a that failed are paired too (no verdict). Returns how many (at most
 * max; a and b's rows together always fit max = a->count + b->count). */
int rs_diff_recordings(const rs_recording *a, const rs_recording *b, rs_diff_pair *out, int max);
/* The same, and where the rows left unpaired are one configuration on each
 * side that differ in some settings alone (block 256 against 64), each
 * step paired with its own across them: those settings said in across
 * ("block 256 in A, 64 in B"; "" where none were). */
int rs_diff_recordings_across(const rs_recording *a, const rs_recording *b, rs_diff_pair *out,
                              int max, char *across, size_t len);

/* "faster", "slower", "same" (within both runs' min..max). */
const char *rs_diff_verdict_name(rs_diff_verdict v);

/* One pair: a's row against b's (either NULL: one side only). */
void rs_diff_recordings_pair(const rs_row *a, const rs_row *b, rs_diff_pair *p);
/* A row that ran and gave a wrong result. */
int rs_diff_wrong(const rs_row *r);
/* Whether a pair fails a gate of pct: slower beyond the spread and by
 * more than pct percent. */
int rs_diff_fails(const rs_diff_pair *p, double pct);

/* "sequential int32 sum 2^24 b256": a row's configuration in a line. */
void rs_diff_config_label(const rs_row *r, char *buf, size_t len);

/* run_diff_out.c: the table of pairs (A and B named as given; each
 * recording's device beside), then what one side alone holds; or their
 * CSV or JSON. On stdout. */
void rs_diff_print_table(FILE *f, const char *name_a, const char *name_b, const rs_recording *a,
                         const rs_recording *b, const rs_diff_pair *p, int n);
void rs_diff_print_data(FILE *f, rs_format fmt, const rs_diff_pair *p, int n);

#endif
