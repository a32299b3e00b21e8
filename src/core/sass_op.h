/* SASS opcodes in words, the vocabulary the stall view shares: the class
 * of wait an instruction's result makes, its base name, and what it is in
 * a student's words. Parsing nvdisasm's text is nvtools/sass_deps.c. */
#ifndef RS_SASS_OP_H
#define RS_SASS_OP_H

#include <stddef.h>

/* What an instruction waits on or makes others wait for. */
enum rs_wait_class {
    RS_WAIT_NONE = 0,
    RS_WAIT_MEMORY,  /* long scoreboard: global, local or texture memory */
    RS_WAIT_MIO,     /* short scoreboard: shared memory, shuffles, special functions */
    RS_WAIT_BARRIER, /* a CTA barrier (__syncthreads) */
    RS_WAIT_FENCE,   /* a memory fence (__threadfence) */
};

/* The opcode without its modifiers: "LDG" of "LDG.E.128.CONSTANT". */
void rs_sass_base(const char *opcode, char *buf, size_t len);

/* An instruction in a student's words: "16-byte global load", "shared-memory
 * load", "shuffle", "barrier", "memory fence". */
void rs_sass_what(const char *opcode, char *buf, size_t len);

#endif
