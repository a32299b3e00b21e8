/* libcupti, opened once at run time (dlopen): redscope starts and times
 * without it. The counters (cupti_profiler.c) and the line mapping of PC
 * samples (sass_lines.c) take their functions from this handle. */
#ifndef RS_CUPTI_LIB_H
#define RS_CUPTI_LIB_H

/* The library's handle, or NULL with *why saying what is missing. */
void *rs_cupti_lib(const char **why);

#endif
