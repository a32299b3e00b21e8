/* A user kernel compiled at run time with NVRTC (libnvrtc loaded with
 * dlopen: redscope starts without it). No GPU is needed to compile, so
 * `redscope compile` works anywhere the toolkit is. */
#ifndef RS_COMPILE_H
#define RS_COMPILE_H

#include <stddef.h>

#include "core/error.h"
#include "core/rs_types.h"
#include "core/ukernel.h"

typedef struct rs_compiled {
    void *cubin;
    size_t cubin_len;
    char *log;             /* NVRTC's log, file:line form (never NULL after rs_compile) */
    rs_kernel_build build; /* entry point, registers, shared memory, spills */
    double ms;             /* wall time of the compile */
    int arch;              /* 90 for sm_90 */
} rs_compiled;

/* Compile text (the file at path) for element type t, operation op, the
 * block-result finish kfinish (0 store, 1 atomic, 2 single pass) and
 * sm_<arch>, with line information. A compile error is RS_E_USAGE with the
 * first error (file:line, the line and a caret) in err and the whole log in
 * out->log; no NVRTC is RS_E_IO. A file without exactly one extern "C"
 * __global__ function is RS_E_USAGE. */
rs_status rs_compile(const char *path, const char *text, rs_dtype t, rs_op op, int kfinish,
                     int arch, rs_compiled *out, rs_error *err);
void rs_compiled_free(rs_compiled *c);

/* rs_compile in a process of its own (compile_bound.c): at most 60 s
 * (REDSCOPE_COMPILE_SECONDS) and 8 GiB of address space past the child's
 * start, so an #include of a FIFO or a macro that expands without end
 * stops with the bound it hit (RS_E_USAGE) instead of hanging the caller. */
rs_status rs_compile_bounded(const char *path, const char *text, rs_dtype t, rs_op op, int kfinish,
                             int arch, rs_compiled *out, rs_error *err);
/* The child's side: `redscope RS_COMPILE_PROCESS_ARG`; its exit status. */
#define RS_COMPILE_PROCESS_ARG "--compile-process"
int rs_compile_serve(void);

/* NVRTC's version ("13.0"), or NULL with why in err. */
const char *rs_nvrtc_version(rs_error *err);
/* The file NVRTC was loaded from ("" where it was not). */
void rs_nvrtc_lib(char *buf, size_t len);

/* The header redscope pre-includes, for element type t, operation op and
 * the finish a block result takes (RS_KFIN_* of rs_kernels.h: 0 store,
 * 1 atomic, 2 single pass). Returns the bytes written (truncated: < len). */
size_t rs_ukernel_prelude(rs_dtype t, rs_op op, int kfinish, char *buf, size_t len);

#endif
