#include "nccl_lib.h"

#include "formats/files.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef RS_CUDA_LIB_DIR
#define RS_CUDA_LIB_DIR "/usr/local/cuda/lib64"
#endif

void *rs_nccl_lib(int *version, char *why, size_t len)
{
    *version = 0;
    if (len) why[0] = '\0';
    const char *set = getenv("REDSCOPE_NCCL");
    char path[4096];
    void *h = NULL;
    if (set && *set) {
        rs_file_in(set, "libnccl.so.2", path, sizeof path);
        if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
            snprintf(why, len, "NCCL not found at %s (REDSCOPE_NCCL): %s", path, dlerror());
            return NULL;
        }
    } else {
        snprintf(path, sizeof path, "%s/libnccl.so.2", RS_CUDA_LIB_DIR);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(why, len,
                     "NCCL is not installed (libnccl.so.2 is neither in %s nor on the library "
                     "path): install NCCL, or set REDSCOPE_NCCL to the library or its folder",
                     RS_CUDA_LIB_DIR);
            return NULL;
        }
    }
    int (*get)(int *) = (int (*)(int *))dlsym(h, "ncclGetVersion");
    if (!get || get(version) != 0 || *version <= 0) {
        snprintf(why, len, "%s is not a usable NCCL (no ncclGetVersion)",
                 set ? path : "libnccl.so.2");
        dlclose(h);
        *version = 0;
        return NULL;
    }
    return h;
}
