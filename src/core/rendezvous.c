#define _POSIX_C_SOURCE 200809L /* nanosleep, fileno */
#include "rendezvous.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

rs_status rs_rendezvous_publish(const char *path, const void *bytes, size_t n, rs_error *err)
{
    char tmp[4096];
    const int w = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path ? path : "", (long)getpid());
    if (!path || !*path || w < 0 || (size_t)w >= sizeof tmp)
        return rs_fail(err, RS_E_USAGE, "no usable --rendezvous path");
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(bytes, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        remove(tmp);
        return rs_fail(err, RS_E_IO, "cannot write the rendezvous file %s", path);
    }
    return RS_OK;
}

static int ready(const char *path, size_t n, time_t not_before)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == n &&
           st.st_mtime >= not_before;
}

rs_status rs_rendezvous_wait(const char *path, void *bytes, size_t n, time_t not_before,
                             double timeout_s, rs_error *err)
{
    if (!path || !*path) return rs_fail(err, RS_E_USAGE, "no usable --rendezvous path");
    const struct timespec nap = {0, 50 * 1000 * 1000};
    const double tries = isfinite(timeout_s) && timeout_s > 0 ? timeout_s * 20.0 : 0.0;
    for (double i = 0; i <= tries; i++) {
        if (ready(path, n, not_before)) {
            FILE *f = fopen(path, "rb");
            const int ok = f && fread(bytes, 1, n, f) == n;
            if (f) fclose(f);
            if (ok) return RS_OK;
        }
        nanosleep(&nap, NULL);
    }
    return rs_fail(err, RS_E_IO,
                   "no rendezvous in %s after %.0f s: is rank 0 running, and does every rank see "
                   "this path?",
                   path, timeout_s);
}

double rs_rendezvous_timeout(void)
{
    const char *s = getenv("REDSCOPE_RENDEZVOUS_TIMEOUT");
    char *end = NULL;
    const double v = s ? strtod(s, &end) : 0.0;
    return s && end != s && !*end && isfinite(v) && v > 0.0 && v < 86400.0 ? v : 120.0;
}
