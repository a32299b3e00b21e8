/* Your own kernel: a .cu file with one extern "C" __global__ entry point
 * that reduces its part of the input into one result per block. This part
 * is pure C (no CUDA): reading the file, its "// redscope:" header, what it
 * accepts, the header redscope pre-includes (types, operation, identity,
 * finish), and NVRTC's log made readable. Compiling is in compile.h. */
#ifndef RS_UKERNEL_H
#define RS_UKERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "catalogue.h"
#include "error.h"
#include "request.h"

#define RS_UKERNEL_MAX_BYTES (1u << 20) /* a kernel file of 1 MiB is not a kernel */
#define RS_UKERNEL_MAX_FILES 8          /* --kernel given several times */

/* What a file's header asks for ("// redscope: KEY VALUE" lines). */
typedef struct rs_ukernel_spec {
    enum { RS_UB_ANY, RS_UB_POW2, RS_UB_WARP, RS_UB_EXACT } block_rule;
    unsigned block_exact;
    unsigned ept;     /* elements per thread; 0: grid-stride (the grid is redscope's) */
    unsigned ops;     /* bit per rs_op it accepts */
    unsigned types;   /* bit per rs_dtype it accepts */
    rs_finish finish; /* its default finish */
} rs_ukernel_spec;

/* The file's text (NUL-terminated, malloc'd) after the checks a user needs
 * said plainly: missing, a directory, empty, binary, too large. */
rs_status rs_ukernel_read(const char *path, char **text, size_t *len, rs_error *err);

/* The header's directives; an unknown or malformed one is an error naming
 * its line. */
rs_status rs_ukernel_parse(const char *path, const char *text, rs_ukernel_spec *spec,
                           rs_error *err);

/* Would this file run r? On refusal, err says why (the file's own rule). */
rs_status rs_ukernel_check(const char *path, const rs_ukernel_spec *spec, const rs_request *r,
                           rs_error *err);

/* The variant description the plan and the views use for this file:
 * name (the file's name), flags from its header, finish and elements. */
void rs_ukernel_info(const char *path, const rs_ukernel_spec *spec, rs_variant_info *vi,
                     char *name_buf, size_t name_len);

/* The file's name without its folders ("my_reduce.cu"). */
const char *rs_ukernel_basename(const char *path);

/* 64-bit FNV-1a of the text: which version of a file a result ran. */
uint64_t rs_ukernel_hash(const char *text, size_t len);
/* 1 when the file at path reads as another version than hash (a replay:
 * the file here changed since it was recorded); 0 when it is that version
 * or cannot be read. */
int rs_ukernel_changed(const char *path, uint64_t hash);

/* NVRTC's log in the form editors jump to: "path(12): error: x" becomes
 * "path:12: error: x" (source lines and carets kept). */
void rs_ukernel_format_log(const char *log, char *out, size_t len);

/* From ptxas's -v lines in the log: entry functions (names separated by
 * ' '), registers, static shared memory, spill stores and loads (-1 when
 * the log has no such line), stack. */
typedef struct rs_kernel_build {
    char entry[96];
    int entries;
    int regs, smem, spill_st, spill_ld, stack;
} rs_kernel_build;
void rs_ukernel_ptxas(const char *log, rs_kernel_build *b);

/* "no spills", "spills 8 B stored, 8 B loaded", or, where ptxas did not
 * report them (-1), the local memory per thread the loaded kernel uses. */
void rs_ukernel_spills(int spill_st, int spill_ld, int local, char *buf, size_t len);

/* Where identifier `word` is first in the code of text (not in a comment,
 * a string or a character literal, not part of a longer name): its line,
 * from 1; 0 where it is not. */
int rs_ukernel_word(const char *text, const char *word);

#endif
