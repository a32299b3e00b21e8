#define _POSIX_C_SOURCE 200809L /* nanosleep, fileno */
#include "rendezvous.h"

#include <errno.h>
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

/* Why the file at path is no rendezvous, after a wait that found none. */
static rs_status not_found(const char *path, size_t n, time_t not_before, double timeout_s,
                           rs_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return rs_fail(err, RS_E_IO,
                       "no rendezvous in %s after %g s: is rank 0 running, and does every rank "
                       "see this path?",
                       path, timeout_s);
    if (!S_ISREG(st.st_mode))
        return rs_fail(err, RS_E_IO,
                       "%s is no file (a folder?): --rendezvous names a file rank 0 "
                       "writes",
                       path);
    if (st.st_mtime < not_before)
        return rs_fail(err, RS_E_IO,
                       "%s is older than this rank (a past job's): waited %g s for rank 0 to "
                       "write it anew; remove it, or is rank 0 running?",
                       path, timeout_s);
    if ((size_t)st.st_size != n)
        return rs_fail(err, RS_E_IO,
                       "%s holds %lld bytes, not the %zu of NCCL's id that rank 0 writes: another "
                       "program's file? (waited %g s)",
                       path, (long long)st.st_size, n, timeout_s);
    FILE *f = fopen(path, "rb"); /* the right file, fresh: why could it not be read? */
    const int e = f ? 0 : errno;
    if (f) fclose(f);
    return rs_fail(err, RS_E_IO, "cannot read the rendezvous file %s: %s", path,
                   e ? strerror(e) : "it came as the wait ended; start this rank again");
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
    return not_found(path, n, not_before, timeout_s, err);
}

rs_status rs_rendezvous_timeout(double *seconds, rs_error *err)
{
    *seconds = 120.0;
    const char *s = getenv("REDSCOPE_RENDEZVOUS_TIMEOUT");
    if (!s) return RS_OK;
    char *end = NULL;
    const double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v <= 0.0 || v > 86400.0)
        return rs_fail(err, RS_E_USAGE,
                       "REDSCOPE_RENDEZVOUS_TIMEOUT='%.40s': seconds a rank waits for rank 0, "
                       "more than 0 and at most 86400 (unset: 120)",
                       s);
    *seconds = v;
    return RS_OK;
}
