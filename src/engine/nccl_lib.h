/* NCCL, loaded at run time (dlopen), for reductions over several GPUs:
 * without it every single-GPU feature works and the multi-GPU ones say
 * what is missing. */
#ifndef RS_NCCL_LIB_H
#define RS_NCCL_LIB_H

#include <stddef.h>

/* libnccl.so.2 from REDSCOPE_NCCL (the library, or the folder holding it:
 * a distribution's, or a Python wheel's nvidia/nccl/lib), else the CUDA
 * toolkit's lib folder, else the system's search path. Its handle and
 * version (22703: 2.27.3), or NULL with why in `why`. */
void *rs_nccl_lib(int *version, char *why, size_t len);

#endif
