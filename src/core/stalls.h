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
#define RS_STALL_TEXT  96  /* a line's source text, cut */
#define RS_STALL_LINKS 64  /* what lines lead to (below); the rest count as other_links */
#define RS_STALL_CHAIN 160 /* an inline chain in words */

typedef struct rs_stall_line {
    char file[RS_STALL_FILE]; /* the source file's name, without its directory */
    uint32_t line;
    uint64_t samples; /* every reason, "selected" included */
    uint64_t inlined; /* of them, on library code inlined at this line */
    uint64_t by_reason[RS_STALL_KINDS];
    char text[RS_STALL_TEXT]; /* its source text, trimmed ("": not known) */
} rs_stall_line;

/* What a shown line's samples lead to. */
enum rs_link_what {
    /* code inlined at the line (the operator, a load helper): to_* is the
     * innermost frame, name the calls inside the line, outermost first */
    RS_LINK_INSIDE = 1,
    /* the instruction a scoreboard, barrier or fence wait stands on: to_*
     * is its line (in any of the kernel's sources), name its opcode */
    RS_LINK_WAITS = 2,
};

typedef struct rs_stall_link {
    char file[RS_STALL_FILE]; /* the line the samples are shown on */
    uint32_t line;
    int what; /* enum rs_link_what */
    int kind; /* RS_LINK_WAITS: the reason waited for (the stall table's index) */
    char to_file[RS_STALL_FILE];
    uint32_t to_line;
    char name[RS_STALL_CHAIN];
    char text[RS_STALL_TEXT]; /* to_line's source text */
    uint64_t samples;
} rs_stall_link;

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
    int runs;             /* reductions sampled back to back (0: one, not recorded) */
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
    int nlinks;
    uint64_t other_links; /* samples of links past RS_STALL_LINKS */
    rs_stall_link link[RS_STALL_LINKS];
    int causes;           /* 1: waits were traced to the instructions they wait for */
    char causes_why[160]; /* why not (causes 0, valid 1) */
} rs_stalls;

/* A view kept out of line for the process's life: a copy of s that no one
 * changes or frees, so results, rows and events share it by pointer and a
 * row without a view costs a pointer. NULL when memory runs out. Safe from
 * any thread. */
const rs_stalls *rs_stalls_keep(const rs_stalls *s);

/* A file's name without its directory, as the view keeps it. */
const char *rs_stall_base(const char *path);

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

/* The class of wait a kind is (enum rs_wait_class of core/sass_op.h):
 * long and short scoreboard, barrier, membar; 0 for every other kind. */
int rs_stall_wait_class(int kind);

/* Count a link's samples (merged with the same link; past the table they
 * count as other_links). */
void rs_stalls_link(rs_stalls *s, const rs_stall_link *l);

/* The links of a line of one kind (RS_LINK_*), most samples first: their
 * indices into order[] (at most max); returns how many. */
int rs_stalls_links_of(const rs_stalls *s, const rs_stall_line *l, int what, int *order, int max);

/* The source text of a line of the view (or of a link's target): "" when
 * not known. */
const char *rs_stalls_text(const rs_stalls *s, const char *file, uint32_t line);

/* "the 16-byte global load (LDG.E.128.CONSTANT) on modern.cu:102" for a
 * RS_LINK_WAITS link. */
void rs_stall_link_words(const rs_stall_link *k, char *buf, size_t len);

/* Where the view's waits go, for a sentence: "85% of the samples wait for
 * the 16-byte global loads on modern.cu:102-103"; "" when no wait was
 * traced. */
void rs_stalls_wait_words(const rs_stalls *s, char *buf, size_t len);

#endif
