/* The stall reasons of CUPTI's PC sampling (names like
 * smsp__pcsamp_warps_issue_stalled_long_scoreboard), in plain words and in
 * Nsight Compute's words. Pure data, no CUPTI: the views and replay use it
 * where no GPU is. */
#ifndef RS_STALL_TABLE_H
#define RS_STALL_TABLE_H

#include <stddef.h>

#define RS_STALL_TABLE_SIZE 19 /* the reasons below, in stall_table.c */

typedef struct rs_stall_def {
    const char *key;   /* CUPTI's name without its prefix: "long_scoreboard" */
    const char *ncu;   /* Nsight Compute's: "Stall Long Scoreboard" */
    const char *words; /* what it means for a reduction, in a few words */
    int waiting;       /* 0: the warp issued (selected), not a stall */
} rs_stall_def;

/* The reason a CUPTI stall name stands for: the full name, the key alone,
 * either with "_not_issued"; *not_issued says whether the sample was on an
 * instruction that did not issue. An unknown name gets NULL. */
const rs_stall_def *rs_stall_find(const char *cupti_name, int *not_issued);

/* A reason's name where screens and tables name it: Nsight Compute's in
 * lower case ("long scoreboard"; "unknown" for NULL). The key
 * ("long_scoreboard") is for CSV and JSON. Returns buf. */
const char *rs_stall_name(const rs_stall_def *d, char *buf, size_t len);

/* "waiting for global memory (long scoreboard)" into buf, from a CUPTI name
 * or key; an unknown one is written as it came, without the prefix. */
void rs_stall_describe(const char *cupti_name, char *buf, size_t len);

/* Every known reason, for help and tests. */
const rs_stall_def *rs_stall_table(size_t *count);

#endif
