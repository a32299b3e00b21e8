/* Linked into sanitizer builds only (RS_SANITIZE). CUPTI opens
 * libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer refuses (the
 * library would bypass its malloc); the process then dies before the first
 * metric is listed. This dlopen, found before libc's and the sanitizer's
 * because the executable comes first in symbol lookup, drops that one flag
 * and hands the call on. Release builds never contain it. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int mode)
{
    static void *(*next)(const char *, int);
    if (!next) next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return next(file, mode & ~RTLD_DEEPBIND);
}
