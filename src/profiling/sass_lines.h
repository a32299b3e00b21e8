/* The source line of a kernel PC, from a cubin's line information (CUPTI's
 * SASS-to-source correlation, which reads the cubin alone: no GPU needed).
 * PC samples name a function and an offset in it; this turns them into
 * file:line for the stall view. */
#ifndef RS_SASS_LINES_H
#define RS_SASS_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "../core/error.h"

/* File (directory and name joined) and line of `pc_offset` in `function`
 * (its name as in the cubin, mangled for C++) of the cubin. RS_E_IO with a
 * reason when CUPTI is missing, the cubin is not one, the function is not
 * in it or the offset has no line. */
rs_status rs_sass_line(const void *cubin, size_t size, const char *function, uint64_t pc_offset,
                       char *file, size_t file_len, unsigned *line, rs_error *err);

#endif
