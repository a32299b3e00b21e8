/* Whose code a sampled instruction is: the line the stall view shows a
 * sample on is the step's own (the innermost frame of its inline chain in
 * the step's key lines, the lines its Why panel quotes, or in the user's
 * kernel file), else the kernel's own line; helpers every step shares
 * (the operator, load helpers, the finish) get a line of their own only
 * where the step has no frame in the chain. The instruction a wait stands
 * on is named by its innermost line in any of the kernel's sources. */
#ifndef RS_STALL_OWNER_H
#define RS_STALL_OWNER_H

#include "rs_types.h"

#define RS_FRAMES_MAX 24 /* inline depth kept; deeper callers are left out */

typedef struct rs_src_frame {
    char file[256];       /* the directory and name joined */
    unsigned line;        /* 1-based */
    const char *function; /* mangled: the inlined function's, or the kernel's own; held by
                           * the table (valid until it is freed) */
} rs_src_frame;

typedef struct rs_stall_owner {
    rs_variant variant;    /* the step sampled (RS_V_KERNEL: the user's) */
    const char *user_file; /* the user's kernel file (a path or a name), or NULL */
} rs_stall_owner;

/* The frame of f[0..n) a sample is shown on (n > 0). */
int rs_stall_shown(const rs_src_frame *f, int n, const rs_stall_owner *o);

/* The frame that says where an instruction is: the innermost in one of
 * redscope's kernel sources or the user's file, else the last. */
int rs_stall_source(const rs_src_frame *f, int n, const rs_stall_owner *o);

#endif
