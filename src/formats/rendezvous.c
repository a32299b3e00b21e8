#define _POSIX_C_SOURCE 200809L /* nanosleep, fileno */
#include "rendezvous.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/env.h"
#include "files.h"
#include "core/text.h"

/* Through the one writer (files.c): a past job's file is replaced (no
 * --force here), a folder, a FIFO, a device or a link is refused; the id
 * appears whole or not at all (a temporary file renamed into place). */
rs_status rs_rendezvous_publish(const char *path, const void *bytes, size_t n, rs_error *err)
{
    if (!path || !*path || strlen(path) >= 4000)
        return rs_fail(err, RS_E_USAGE, "no usable --rendezvous path");
    const rs_status st = rs_out_check("rendezvous file", path, 1, NULL, err);
    return st != RS_OK ? st : rs_out_write("rendezvous file", path, bytes, n, err);
}

static int ready(const char *path, size_t n, time_t not_before)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == n &&
           st.st_mtime >= not_before;
}

static rs_status not_a_file(const char *path, mode_t m, rs_error *err)
{
    return rs_fail(err, RS_E_IO,
                   "%s is %s, not a file: rank 0 writes NCCL's id there (the --rendezvous path "
                   "and the algorithm's name)",
                   path,
                   S_ISDIR(m)   ? "a folder"
                   : S_ISLNK(m) ? "a symbolic link (rank 0 does not write through links)"
                                : "a FIFO, a device or a socket");
}

rs_status rs_rendezvous_check(const char *path, int rank, rs_error *err)
{
    if (!path || !*path)
        return rs_fail(err, RS_E_USAGE, "--rendezvous FILE: a path every rank can see");
    if (strlen(path) >= 4000) return rs_fail(err, RS_E_USAGE, "no usable --rendezvous path");
    if (rank == 0) return rs_out_check("rendezvous file", path, 1, NULL, err);
    char safe[600];
    if (!rs_text_plain(path))
        return rs_fail(err, RS_E_USAGE,
                       "the rendezvous file's name '%s' holds a control "
                       "character: give plain text",
                       rs_text_safe(path, 0, safe, sizeof safe));
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) return not_a_file(path, st.st_mode, err);
    return RS_OK;
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
    if (!S_ISREG(st.st_mode)) return not_a_file(path, st.st_mode, err);
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
        if (ready(path, n, not_before)) { /* read without blocking, at most n bytes */
            char *got = NULL;
            size_t len = 0;
            rs_error ignored;
            const int ok =
                rs_file_read(path, "rendezvous file", n, &got, &len, &ignored) == RS_OK && len == n;
            if (ok) memcpy(bytes, got, n);
            free(got);
            if (ok) return RS_OK;
        }
        nanosleep(&nap, NULL);
    }
    return not_found(path, n, not_before, timeout_s, err);
}

rs_status rs_rendezvous_timeout(double *seconds, rs_error *err)
{
    return rs_env_seconds("REDSCOPE_RENDEZVOUS_TIMEOUT", 86400.0, 120.0, seconds, err);
}
