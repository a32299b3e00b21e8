/* The key lines of each variant's kernel, extracted from the .cu sources at
 * build time (tools/extract_snippets.c writes snippets.c): plain data, so
 * the explorer shows what runs without including a kernel header. */
#ifndef RS_SNIPPETS_H
#define RS_SNIPPETS_H

#include "rs_types.h"

/* The lines of v, newline-separated; "" for none. */
const char *rs_kernel_snippet(rs_variant v);

/* The text of a key line by its source file's name ("classic.cu") and line
 * number; NULL for a line outside every snippet. */
const char *rs_kernel_line(const char *file, int line);

/* Whether file:line (the file's name, "classic.cu") lies in one of v's key
 * regions: the lines its Why panel quotes, which the stall view counts as
 * the step's own code. */
int rs_kernel_key(rs_variant v, const char *file, int line);

/* The whole text of a kernel source by its file name ("modern.cu",
 * "common.cuh"), as built; NULL for a file that is not one. */
const char *rs_kernel_source(const char *file);

#endif
