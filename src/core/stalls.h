/* The stall view of one run: PC samples gathered by source line, each line
 * with its samples by stall reason (the reasons of stall_table.h), for all
 * the launches of the reduction. Pure host code: the profiler fills it
 * through rs_stalls_add, recordings carry it (JSON), the views read it. */
#ifndef RS_STALLS_H
#define RS_STALLS_H

#include <stddef.h>
#include <stdint.h>

#include "stall_table.h"

#define RS_STALL_LINES 64 /* source lines kept; the rest count as "other lines" */
#define RS_STALL_KINDS (RS_STALL_TABLE_SIZE + 1) /* the table's reasons, then "unknown" */
#define RS_STALL_FILE  48
#define RS_STALL_TOP   3

typedef struct rs_stall_line {
    char file[RS_STALL_FILE]; /* the source file's name, without its directory */
    uint32_t line;
    uint64_t samples; /* every reason, "selected" included */
    uint64_t by_reason[RS_STALL_KINDS];
} rs_stall_line;

typedef struct rs_stalls {
    int requested, valid;
    char why[200];        /* why there is no view (valid 0, requested 1) */
    uint64_t total;       /* samples kept, on lines or not */
    uint64_t dropped;     /* samples the hardware dropped (buffer full) */
    uint64_t unmapped;    /* samples whose PC had no source line */
    uint64_t other_lines; /* samples on lines past RS_STALL_LINES */
    int period;           /* sampling every 2^(5 + period) cycles */
    int nlines;
    rs_stall_line line[RS_STALL_LINES]; /* by file, then line */
    uint64_t by_reason[RS_STALL_KINDS]; /* the whole run */
} rs_stalls;

/* The reason index of a CUPTI stall name: its place in the stall table, or
 * the last kind for a name the table lacks. */
int rs_stall_kind(const char *cupti_name);
/* The table entry of a kind (NULL for the unknown kind). */
const rs_stall_def *rs_stall_kind_def(int kind);

/* Count `samples` of reason `kind` on file:line (file may carry a
 * directory; line 0 or no file: unmapped). */
void rs_stalls_add(rs_stalls *s, const char *file, uint32_t line, int kind, uint64_t samples);

/* The line with the most samples (-1: none). */
int rs_stalls_hottest(const rs_stalls *s);

/* The top reasons of a line (or of the whole run with line NULL), most
 * samples first: up to `max` kinds into kinds[], their samples into n[];
 * returns how many. Reasons with no sample are left out. */
int rs_stalls_top(const rs_stalls *s, const rs_stall_line *line, int max, int *kinds, uint64_t *n);

/* "waiting for shared memory (short scoreboard)" for a kind. */
void rs_stall_kind_words(int kind, char *buf, size_t len);

#endif
