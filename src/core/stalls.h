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
#define RS_STALL_FUNCS 24  /* functions kept; the rest count as "other functions" */
#define RS_STALL_NAME  64  /* a function's short name */
#define RS_STALL_PCS   256 /* instructions kept with their samples (the SASS view) */

typedef struct rs_stall_line {
    char file[RS_STALL_FILE]; /* the source file's name, without its directory */
    uint32_t line;
    uint64_t samples; /* every reason, "selected" included */
    uint64_t inlined; /* of them, on library code inlined at this line */
    uint64_t by_reason[RS_STALL_KINDS];
} rs_stall_line;

/* The samples of one function: the innermost of a PC's inline chain (an
 * inlined helper, cooperative groups' reduce, an intrinsic) or the kernel's
 * own body. */
typedef struct rs_stall_func {
    char name[RS_STALL_NAME]; /* demangled, without template arguments or parameters */
    uint64_t samples;
    uint64_t by_reason[RS_STALL_KINDS];
} rs_stall_func;

/* One instruction's samples (offset in its kernel), for the SASS view. */
typedef struct rs_stall_pc {
    uint64_t offset;
    uint64_t samples; /* every reason */
} rs_stall_pc;

/* Where a sample lies: the line it is shown on (the innermost of its inline
 * chain in a file of the kernel's own), its innermost function, and whether
 * it is library code inlined at that line. */
typedef struct rs_stall_at {
    const char *file;
    uint32_t line;
    const char *function;
    int inlined;
} rs_stall_at;

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
    int nfuncs;
    uint64_t other_funcs; /* samples of functions past RS_STALL_FUNCS */
    rs_stall_func func[RS_STALL_FUNCS];
    char kernel[256]; /* the sampled kernel's cubin name (mangled), for its SASS */
    char cubin[512];  /* where its cubin was when sampled ("": unknown) */
    int sm;           /* built for sm_XX */
    int npcs;
    rs_stall_pc pc[RS_STALL_PCS]; /* the kernel's instructions with samples, by offset */
} rs_stalls;

/* The reason index of a CUPTI stall name: its place in the stall table, or
 * the last kind for a name the table lacks. */
int rs_stall_kind(const char *cupti_name);
/* The table entry of a kind (NULL for the unknown kind). */
const rs_stall_def *rs_stall_kind_def(int kind);

/* Count `samples` of reason `kind` on file:line (file may carry a
 * directory; line 0 or no file: unmapped). */
void rs_stalls_add(rs_stalls *s, const char *file, uint32_t line, int kind, uint64_t samples);

/* rs_stalls_add, and the sample's function and inlined share too. */
void rs_stalls_add_at(rs_stalls *s, const rs_stall_at *at, int kind, uint64_t samples);

/* Count samples of a function alone (a recording's function table). */
void rs_stalls_add_func(rs_stalls *s, const char *name, int kind, uint64_t samples);

/* Count samples on an instruction of s->kernel (kept while there is room). */
void rs_stalls_add_pc(rs_stalls *s, uint64_t offset, uint64_t samples);

/* The samples kept for the instruction at an offset (0: none). */
uint64_t rs_stalls_pc(const rs_stalls *s, uint64_t offset);

/* The functions by samples, most first: their indices into order[] (room
 * for RS_STALL_FUNCS); returns how many. */
int rs_stalls_funcs_sorted(const rs_stalls *s, int *order);

/* The line with the most samples (-1: none). */
int rs_stalls_hottest(const rs_stalls *s);

/* The top reasons of a function, as rs_stalls_top. */
int rs_stalls_top_func(const rs_stall_func *f, int max, int *kinds, uint64_t *n);

/* The top reasons of a line (or of the whole run with line NULL), most
 * samples first: up to `max` kinds into kinds[], their samples into n[];
 * returns how many. Reasons with no sample are left out. */
int rs_stalls_top(const rs_stalls *s, const rs_stall_line *line, int max, int *kinds, uint64_t *n);

/* "waiting for shared memory (short scoreboard)" for a kind. */
void rs_stall_kind_words(int kind, char *buf, size_t len);

#endif
