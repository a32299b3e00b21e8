/* The SASS of a source line, on request, with nvdisasm (the CUDA toolkit's
 * disassembler) when it is on PATH: the instructions of the sampled kernel
 * that the stall view shows on that line, each with its samples. Works
 * from a recording when the kernel's cubin is on this machine (the one
 * recorded, or a built-in kernel's in this build). */
#ifndef RS_SASS_VIEW_H
#define RS_SASS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "../core/stalls.h"

typedef struct rs_sass_insn {
    uint64_t offset;
    uint64_t samples; /* 0: none (or not kept) */
    char text[112];   /* "LDG.E R0, desc[UR4][R2.64]" */
} rs_sass_insn;

/* Whether a file (a path or a name) is one of the kernel's own sources. */
typedef int (*rs_own_file)(const void *ctx, const char *file);

/* nvdisasm's path (PATH, then $CUDA_HOME/bin, /usr/local/cuda/bin); 0 when
 * there is none. */
int rs_nvdisasm_path(char *buf, size_t len);

/* The instructions of s->kernel shown on file:line (file as the view names
 * it), in order; returns how many (at most max), or -1 with *why saying
 * what is missing (nvdisasm, the cubin, the kernel in it). */
int rs_sass_of_line(const rs_stalls *s, const char *file, unsigned line, rs_own_file own,
                    const void *own_ctx, rs_sass_insn *out, int max, char *why, size_t why_len);

#endif
