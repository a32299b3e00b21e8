/* A kernel's SASS as nvdisasm prints it (-c), read as instructions with the
 * registers each writes and reads, and the question the stall view asks
 * of it: which instruction does a stalled warp wait for? A sampled PC is
 * the instruction that could not issue; for a scoreboard wait the cause is
 * the earlier variable-latency instruction (a global load, a shared load,
 * a shuffle) whose result register it reads, for a barrier wait the
 * barrier just before it (the warp stands on the next instruction while
 * it waits there). Pure text work: no GPU, no nvdisasm (the engine runs
 * it; tests read a listing kept in tests/data). */
#ifndef RS_SASS_DEPS_H
#define RS_SASS_DEPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/sass_op.h"

typedef struct rs_sass_op {
    uint64_t offset;
    char opcode[40]; /* "LDG.E.128.CONSTANT" */
    int predicated;  /* guarded by a predicate (@P0, @!P1) */
    uint64_t dst[4]; /* general registers written, R0..R255 as bits */
    uint64_t src[4]; /* general registers read */
    int cls;         /* the class of wait its result makes (RS_WAIT_*), 0 for fixed latency */
} rs_sass_op;

/* The instructions of one function in nvdisasm's text, in order (its
 * first function when the text holds several): a malloc'd array, *n its
 * length; NULL (and *n 0) when there is none. */
rs_sass_op *rs_sass_parse(const char *text, int *n);

/* The part of a whole cubin's nvdisasm text that is function fn's code
 * (from its label to the next function's header); NULL when absent. */
const char *rs_sass_function(const char *text, const char *fn, size_t *len);

/* The index of the instruction that the one at `offset` waits for in a
 * wait of class cls, or -1 (no such instruction before it, or the offset
 * is not an instruction). */
int rs_sass_cause(const rs_sass_op *ops, int n, uint64_t offset, int cls);

#endif
