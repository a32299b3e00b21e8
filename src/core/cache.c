#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int rs_cache_dir(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w = -1;
    if (xdg && *xdg == '/')
        w = snprintf(buf, len, "%s/redscope", xdg);
    else if (home && *home) {
        w = snprintf(buf, len, "%s/.cache", home);
        if (w > 0 && (size_t)w < len) mkdir(buf, 0755);
        w = snprintf(buf, len, "%s/.cache/redscope", home);
    }
    if (w < 0 || (size_t)w >= len) return 0;
    mkdir(buf, 0755);
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
}
