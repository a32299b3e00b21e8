/* The stall view's causes and texts (stalls_cause.c), for stalls_run.c. */
#ifndef RS_STALLS_CAUSE_H
#define RS_STALLS_CAUSE_H

#include "core/stall_owner.h"
#include "core/stalls.h"
#include "engine.h"

#define RS_WAIT_KERNELS 4 /* kernels whose waits are traced */

/* One sampled PC's samples of one waiting reason, and the line the view
 * shows them on. */
typedef struct rs_wait_pc {
    uint64_t pc;
    int kind;
    char file[RS_STALL_FILE];
    uint32_t line;
    uint64_t samples;
} rs_wait_pc;

typedef struct rs_wait_kernel {
    char fn[256]; /* the kernel's name in its cubin */
    int n, cap;
    rs_wait_pc *w; /* heap */
} rs_wait_kernel;

typedef struct rs_waits {
    int nk;
    rs_wait_kernel k[RS_WAIT_KERNELS];
} rs_waits;

void rs_waits_add(rs_waits *w, const char *fn, uint64_t pc, int kind, const char *file,
                  uint32_t line, uint64_t samples);
void rs_waits_clear(rs_waits *w);

/* Each kernel's waits traced through its SASS into the view's links
 * (s->causes set, or s->causes_why saying what was missing). */
void rs_engine_causes(rs_engine *e, int sm, const rs_stall_owner *o, const rs_waits *w,
                      rs_stalls *s);

/* The source text of every line the view names (lines and link targets). */
void rs_engine_stall_texts(rs_engine *e, rs_stalls *s);

#endif
