/* A cubin's SASS line table, read without CUPTI or a GPU: the DWARF line
 * program in .debug_line (nvcc -lineinfo), relocated to its kernels, with
 * NVIDIA's extended opcode 0x90 that gives each row an inline context.
 * Context c (1-based) names the row of the same sequence that holds the
 * call site; with the function name (a .debug_str offset) of the inlined
 * code, a PC yields its whole inline chain, the way nvdisasm -gi prints it.
 * Samples on inlined library code (cooperative groups, CUB, intrinsics)
 * can then go to the caller's line, and also be counted by function. */
#ifndef RS_CUBIN_LINES_H
#define RS_CUBIN_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/stall_owner.h" /* rs_src_frame */

typedef struct rs_line_table rs_line_table;

/* The rows of `function` (its name in the cubin) from the cubin's line
 * table. NULL with a reason when it is not a 64-bit ELF, has no line table
 * (built without -lineinfo), lacks the function, or is malformed. */
rs_line_table *rs_line_table_load(const void *cubin, size_t size, const char *function,
                                  rs_error *err);

/* The inline chain of the instruction at pc_offset: frames[0] is its own
 * line, each next frame the line that called the one before, the last the
 * kernel's own line. Returns how many frames were filled (at most max), 0
 * when the offset has no line. */
int rs_line_table_chain(const rs_line_table *t, uint64_t pc_offset, rs_src_frame *frames, int max);

/* The frame a sample is shown on: the innermost whose file `own` accepts
 * (the kernel's own sources); without one, the last (the kernel's line). */
int rs_frames_pick(const rs_src_frame *frames, int n, int (*own)(const void *ctx, const char *file),
                   const void *ctx);

/* The kernel's size in bytes as its line table covers it. */
uint64_t rs_line_table_end(const rs_line_table *t);

void rs_line_table_free(rs_line_table *t);

/* The symbol-table index of a function (nvdisasm -fun takes it); -1 when
 * the cubin lacks it. */
long rs_cubin_symbol_index(const void *cubin, size_t size, const char *function);

#endif
