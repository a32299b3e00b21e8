/* Every file redscope reads or writes for a user goes through here.
 *
 * Reading: a regular file only, opened without blocking (a FIFO or a device
 * is refused, never waited on) and read through a bound on bytes and time
 * whatever its size says (/dev/zero, a huge file or /proc/self/pagemap is
 * refused, never read to the end; /proc/kmsg is never waited on).
 *
 * Writing (recordings, charts and their data, all-reduce files, presets),
 * as `ncu -o` and `nsys` do: a regular file only (a device, a FIFO, a
 * directory or a symbolic link is refused: redscope does not write through
 * links); an existing file only with --force; never the file being read
 * (a replay); no control characters in the name; a temporary file beside
 * the target, renamed into place when complete, and removed on failure. */
#ifndef RS_FILES_H
#define RS_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

#define RS_READ_RECORDING (1024u << 20) /* a recording, at most */
#define RS_READ_TEXT      (16u << 20)   /* a preset, a kernel, a tool's log */
#define RS_READ_LINE      (64u << 20)   /* a recording's line (a kernel's source in it) */
#define RS_READ_SECONDS   120.0         /* a file read to its end, at most (1 GiB parsed) */

/* path's bytes, NUL-terminated, into *out (malloc'd) and *len. `what` names
 * the file in messages ("recording", "preset"). RS_E_IO with the reason. */
rs_status rs_file_read(const char *path, const char *what, size_t max, char **out, size_t *len,
                       rs_error *err);

/* The same checks, then a stream to read it line by line, bounded: it
 * fails (ferror) past max bytes, past RS_READ_SECONDS, or where a read
 * would wait, whatever the file says of its size. */
rs_status rs_file_open(const char *path, const char *what, size_t max, FILE **out, rs_error *err);
/* Why the last bounded stream of this thread stopped early (NULL: it did
 * not), and RS_E_IO saying so for a read of path that failed. */
const char *rs_file_stopped(void);
rs_status rs_file_failed(const char *path, const char *what, rs_error *err);

/* Whether `path` may be written as `what` ("recording", "chart"): the rules
 * above; `reading` (may be NULL) is the file being read, which it must not
 * be. RS_E_USAGE or RS_E_IO with the reason (naming --force where it
 * helps). */
rs_status rs_out_check(const char *what, const char *path, int force, const char *reading,
                       rs_error *err);

/* What a setting names: the file itself, or `name` in it when it is a
 * folder (REDSCOPE_NCCL, --nccl-tests). */
void rs_file_in(const char *set, const char *name, char *path, size_t len);

/* Whether a and b both exist and are one file (a link, ./x, a hard link). */
int rs_same_file(const char *a, const char *b);

typedef struct rs_outfile {
    char path[4096];
    char tmp[4096 + 256];
    char what[32];
    FILE *f; /* the temporary file, to write to */
} rs_outfile;

/* A temporary file beside path, to write (o->f) or to hand to a tool that
 * writes it itself (o->tmp; close o->f first). */
rs_status rs_out_open(rs_outfile *o, const char *what, const char *path, rs_error *err);

/* Written: closed (a write error is said) and renamed over path, if path
 * is still not a link or a special file; else removed. */
rs_status rs_out_commit(rs_outfile *o, rs_error *err);

/* Abandoned: closed and removed. */
void rs_out_abort(rs_outfile *o);

/* A whole buffer written to path through a temporary file. */
rs_status rs_out_write(const char *what, const char *path, const void *data, size_t len,
                       rs_error *err);

/* n bytes to a pipe or socket fd, through EINTR and short writes: 0, or -1
 * (closed or failed). */
int rs_fd_put(int fd, const void *p, size_t n);
/* n bytes from fd by `deadline` (CLOCK_MONOTONIC seconds; 0: no bound): 0,
 * -1 (closed or failed) or -2 (late). */
int rs_fd_get(int fd, void *p, size_t n, double deadline);

#endif
