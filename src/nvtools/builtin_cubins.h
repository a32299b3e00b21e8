/* The cubins of redscope's own kernels, kept by nvcc at build time and put
 * beside the program (cubins/NAME.sm_XX.cubin): PC samples of a built-in
 * kernel map to its source line through them, as a user kernel's map
 * through the cubin NVRTC made. */
#ifndef RS_BUILTIN_CUBINS_H
#define RS_BUILTIN_CUBINS_H

#include <stddef.h>
#include <stdint.h>

#include "nvtools/cubin_lines.h"
#include "core/error.h"

/* The inline chain of `pc_offset` in `function` (see nvtools/cubin_lines.h)
 * from the cubin's own line table, kernels found as for rs_builtin_line.
 * Returns the frames filled, 0 with a reason when there is none. The
 * frames' function names are valid until the next call. */
int rs_builtin_chain(const char *dir, int sm, const char *function, uint64_t pc_offset,
                     rs_src_frame *frames, int max, rs_error *err);

/* The path of the cubin that holds `function`, found as for
 * rs_builtin_line; 0 when none does. */
int rs_builtin_cubin_path(const char *dir, int sm, const char *function, char *path, size_t len);

/* The path of the i-th built-in cubin for sm (0 past the last). */
int rs_builtin_cubin_nth(const char *dir, int sm, int i, char *path, size_t len);

/* File and line of `pc_offset` in `function` (its cubin name) of the
 * kernels built for sm `sm` (90: sm_90) found in `dir` (NULL: "cubins"
 * beside the program, else the installed ones), through CUPTI's SASS-to-
 * source correlation (the innermost line). RS_E_IO with a reason when
 * there is no such cubin, function or line. */
rs_status rs_builtin_line(const char *dir, int sm, const char *function, uint64_t pc_offset,
                          char *file, size_t file_len, unsigned *line, rs_error *err);

#endif
