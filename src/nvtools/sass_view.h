/* The SASS of a source line, on request, with nvdisasm (the CUDA toolkit's
 * disassembler) when it is on PATH: the instructions of the sampled kernel
 * that the stall view shows on that line, each with its samples. Works
 * from a recording when the kernel's cubin is on this machine (the one
 * recorded, or a built-in kernel's in this build). */
#ifndef RS_SASS_VIEW_H
#define RS_SASS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/stall_owner.h"
#include "core/stalls.h"

typedef struct rs_sass_insn {
    uint64_t offset;
    uint64_t samples; /* 0: none (or not kept) */
    char text[112];   /* "LDG.E R0, desc[UR4][R2.64]" */
} rs_sass_insn;

/* nvdisasm's path (PATH, then $CUDA_HOME/bin, /usr/local/cuda/bin); 0 when
 * there is none. */
int rs_nvdisasm_path(char *buf, size_t len);

/* The instructions of s->kernel shown on file:line (file as the view names
 * it, the step o's rule of core/stall_owner.h), in order; returns how many
 * (at most max), or -1 with *why saying what is missing (nvdisasm, the
 * cubin, the kernel in it). */
int rs_sass_of_line(const rs_stalls *s, const char *file, unsigned line, const rs_stall_owner *o,
                    rs_sass_insn *out, int max, char *why, size_t why_len);

/* nvdisasm's text of one function of a cubin (-c -fun), from the cache
 * folder (core/cache.h, keyed by the cubin's bytes and the name) or made
 * now (at most 30 s) and kept there; malloc'd. NULL with *why saying what
 * is missing: the cubin, the function in it, nvdisasm. */
char *rs_sass_text(const char *cubin_path, const char *function, char *why, size_t why_len);

/* Start disassembling a whole cubin into the cache, in a job of its own
 * (nvdisasm takes a third of a second to start and a second or more for a
 * big cubin): later rs_sass_text calls for any of its functions read it
 * there. Nothing when it is cached already or there is no nvdisasm. */
void rs_sass_prefetch(const char *cubin_path);

#endif
