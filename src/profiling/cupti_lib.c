#include "cupti_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#ifndef RS_CUPTI_DIR
#define RS_CUPTI_DIR "/usr/local/cuda/lib64"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *handle;

static void open_cupti(void)
{
    const char *candidates[] = {"libcupti.so.13", RS_CUPTI_DIR "/libcupti.so.13",
                                "/usr/local/cuda/lib64/libcupti.so.13",
                                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "libcupti.so"};
    for (size_t i = 0; !handle && i < sizeof candidates / sizeof candidates[0]; i++)
        handle = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
}

void *rs_cupti_lib(const char **why)
{
    pthread_once(&once, open_cupti);
    if (!handle && why)
        *why = "CUPTI is not installed (libcupti.so.13 not found; it ships with the CUDA "
               "toolkit, add its lib64 folder to LD_LIBRARY_PATH)";
    return handle;
}
