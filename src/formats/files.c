#define _GNU_SOURCE /* fopencookie */
#include "files.h"

#include "core/format.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/text.h"

/* What a file that is not a regular one is, for a message. */
static const char *kind_of(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISLNK(m)) return "a symbolic link";
    return "not a file";
}

/* A stream read through a bound: at most `left` bytes more, by `deadline`
 * (CLOCK_MONOTONIC seconds), never waiting on a file that would block
 * (/proc/kmsg), whatever the file said of its size (/proc/self/pagemap
 * says 0 and never ends). Why it stopped is kept for the reader's message
 * (rs_file_stopped), per thread: a stream is read on one. */
typedef struct bounded {
    int fd;
    size_t left, max;
    double deadline;
} bounded;

static _Thread_local char stopped_why[160];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static ssize_t bounded_read(void *cookie, char *buf, size_t size)
{
    bounded *b = cookie;
    if (now_s() > b->deadline) {
        char t[32];
        snprintf(t, sizeof t, "%.0f s", RS_READ_SECONDS);
        snprintf(stopped_why, sizeof stopped_why, "still reading after %s: not a file that ends",
                 t);
        errno = ETIMEDOUT;
        return -1;
    }
    ssize_t n; /* what fits, and past the bound is over it */
    do n = read(b->fd, buf, size);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        snprintf(stopped_why, sizeof stopped_why, "reading it would wait: not a file that ends");
        return -1;
    }
    if (n < 0) {
        snprintf(stopped_why, sizeof stopped_why, "%s", strerror(errno));
        return -1;
    }
    if ((size_t)n > b->left) {
        char most[32];
        rs_fmt_bytes((double)b->max, most, sizeof most);
        snprintf(stopped_why, sizeof stopped_why, "it goes on past %s, whatever its size says",
                 most);
        errno = EFBIG;
        return -1;
    }
    b->left -= (size_t)n;
    return n;
}

static int bounded_close(void *cookie)
{
    bounded *b = cookie;
    const int rc = close(b->fd);
    free(b);
    return rc;
}

const char *rs_file_stopped(void)
{
    return stopped_why[0] ? stopped_why : NULL;
}

/* A stream of fd bounded to max bytes and RS_READ_SECONDS; NULL (fd closed)
 * when out of memory. */
static FILE *bounded_stream(int fd, size_t max)
{
    bounded *b = malloc(sizeof *b);
    FILE *f = NULL;
    if (b) {
        *b = (bounded){fd, max, max, now_s() + RS_READ_SECONDS};
        f = fopencookie(b, "r", (cookie_io_functions_t){bounded_read, NULL, NULL, bounded_close});
    }
    if (!f) {
        free(b);
        close(fd);
    }
    return f;
}

rs_status rs_file_open(const char *path, const char *what, size_t max, FILE **out, rs_error *err)
{
    *out = NULL;
    stopped_why[0] = '\0';
    if (!path || !*path) return rs_fail(err, RS_E_USAGE, "%s: an empty file name", what);
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return rs_fail(err, RS_E_IO, "cannot open %s '%s': %s", what, path, strerror(errno));
    struct stat st;
    rs_status bad = RS_OK;
    char have[32], most[32];
    if (fstat(fd, &st) != 0)
        bad = rs_fail(err, RS_E_IO, "cannot read %s '%s': %s", what, path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        bad = rs_fail(err, RS_E_IO, "'%s' is a directory: give a %s file", path, what);
    else if (!S_ISREG(st.st_mode))
        bad = rs_fail(err, RS_E_IO, "'%s' is %s, not a regular file: give a %s file", path,
                      kind_of(st.st_mode), what);
    else if ((unsigned long long)st.st_size > max) {
        rs_fmt_bytes((double)st.st_size, have, sizeof have);
        rs_fmt_bytes((double)max, most, sizeof most);
        bad = rs_fail(err, RS_E_IO, "'%s' is %s, over the %s a %s may be", path, have, most, what);
    }
    if (bad != RS_OK) {
        close(fd);
        return bad;
    }
    /* O_NONBLOCK stays: a regular file never waits, one that would is refused */
    *out = bounded_stream(fd, max);
    return *out ? RS_OK : rs_fail(err, RS_E_NOMEM, "out of host memory");
}

rs_status rs_file_failed(const char *path, const char *what, rs_error *err)
{
    const char *why = rs_file_stopped();
    return rs_fail(err, RS_E_IO, "cannot read %s '%s'%s%s", what, path, why ? ": " : "",
                   why ? why : "");
}

rs_status rs_file_read(const char *path, const char *what, size_t max, char **out, size_t *len,
                       rs_error *err)
{
    *out = NULL;
    *len = 0;
    FILE *f = NULL;
    rs_status st = rs_file_open(path, what, max, &f, err);
    if (st != RS_OK) return st;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    for (size_t got = 1; b && got > 0 && n <= max;) {
        if (n == cap) {
            char *more = realloc(b, 2 * cap + 1);
            if (!more) break;
            b = more;
            cap *= 2;
        }
        got = fread(b + n, 1, cap - n, f);
        n += got;
    }
    const int failed = ferror(f);
    fclose(f);
    if (!b || failed || n > max) {
        free(b);
        return !b       ? rs_fail(err, RS_E_NOMEM, "out of host memory")
               : failed ? rs_file_failed(path, what, err)
                        : rs_fail(err, RS_E_IO, "'%s' grew past the size a %s may be", path, what);
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return RS_OK;
}

/* The directory of path, for a temporary file beside it. */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (slash == path)
        snprintf(dir, len, "/");
    else if (slash)
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, len, ".");
}

/* The existing target: a regular file, not the one being read, replaced
 * only with force. */
int rs_same_file(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev &&
           x.st_ino == y.st_ino;
}

static rs_status check_existing(const char *what, const char *path, const struct stat *st,
                                int force, const char *reading, rs_error *err)
{
    struct stat rd;
    if (S_ISLNK(st->st_mode))
        return rs_fail(err, RS_E_USAGE,
                       "%s '%s' is a symbolic link: give the file itself (redscope does not "
                       "write through links)",
                       what, path);
    if (S_ISDIR(st->st_mode))
        return rs_fail(err, RS_E_USAGE, "%s '%s' is a directory: give a file name", what, path);
    if (!S_ISREG(st->st_mode))
        return rs_fail(err, RS_E_USAGE, "%s '%s' is %s: redscope writes regular files only", what,
                       path, kind_of(st->st_mode));
    if (reading && stat(reading, &rd) == 0 && rd.st_dev == st->st_dev && rd.st_ino == st->st_ino)
        return rs_fail(err, RS_E_USAGE, "%s '%s' is the file being read: give another name", what,
                       path);
    if (!force)
        return rs_fail(err, RS_E_USAGE, "%s '%s' exists: add --force to replace it", what, path);
    if (access(path, W_OK) != 0)
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", what, path, strerror(EACCES));
    return RS_OK;
}

rs_status rs_out_check(const char *what, const char *path, int force, const char *reading,
                       rs_error *err)
{
    if (!path || !*path) return rs_fail(err, RS_E_USAGE, "%s: an empty file name", what);
    char safe[600];
    if (!rs_text_plain(path))
        return rs_fail(err, RS_E_USAGE,
                       "the %s's name '%s' holds a control character: give plain text", what,
                       rs_text_safe(path, 0, safe, sizeof safe));
    struct stat st;
    if (lstat(path, &st) == 0) {
        const rs_status s = check_existing(what, path, &st, force, reading, err);
        if (s != RS_OK) return s;
    } else if (errno != ENOENT) { /* a name too long, a path through a file */
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    }
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': the directory '%s' does not exist",
                       what, path, dir);
    if (access(dir, W_OK) != 0)
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", what, path, strerror(EACCES));
    return RS_OK;
}

rs_status rs_out_open(rs_outfile *o, const char *what, const char *path, rs_error *err)
{
    memset(o, 0, sizeof *o);
    snprintf(o->path, sizeof o->path, "%s", path);
    snprintf(o->what, sizeof o->what, "%s", what);
    char dir[4096];
    dir_of(path, dir, sizeof dir);
    const char *slash = strrchr(path, '/');
    const int w =
        snprintf(o->tmp, sizeof o->tmp, "%.4000s/.%.200s.XXXXXX", dir, slash ? slash + 1 : path);
    const int fd = w > 0 && (size_t)w < sizeof o->tmp ? mkstemp(o->tmp) : -1;
    if (fd < 0) {
        o->tmp[0] = '\0';
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    }
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* mkstemp's 0600 would hide it from others */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        close(fd);
        rs_out_abort(o);
        return rs_fail(err, RS_E_NOMEM, "out of host memory");
    }
    return RS_OK;
}

rs_status rs_out_commit(rs_outfile *o, rs_error *err)
{
    int bad = 0;
    if (o->f) { /* on the disk before the name points at it */
        bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
        bad |= fclose(o->f) != 0;
        o->f = NULL;
    }
    if (bad) {
        rs_out_abort(o);
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", o->what, o->path,
                       strerror(errno ? errno : EIO));
    }
    struct stat st; /* a link or a special file put there since the check stays */
    if (lstat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) {
        rs_out_abort(o);
        return rs_fail(err, RS_E_IO, "%s '%s' is %s now: nothing written", o->what, o->path,
                       kind_of(st.st_mode));
    }
    /* a file replaced (--force) keeps its mode: a 0600 recording holds kernel sources */
    if (lstat(o->path, &st) == 0 && chmod(o->tmp, st.st_mode & 07777) != 0) {
        const int e = errno;
        rs_out_abort(o);
        return rs_fail(err, RS_E_IO, "cannot keep the mode of %s '%s': %s", o->what, o->path,
                       strerror(e));
    }
    if (rename(o->tmp, o->path) != 0) {
        const int e = errno;
        rs_out_abort(o);
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", o->what, o->path, strerror(e));
    }
    o->tmp[0] = '\0';
    return RS_OK;
}

void rs_out_abort(rs_outfile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = '\0';
}

rs_status rs_out_write(const char *what, const char *path, const void *data, size_t len,
                       rs_error *err)
{
    rs_outfile o;
    rs_status st = rs_out_open(&o, what, path, err);
    if (st != RS_OK) return st;
    if (len && fwrite(data, 1, len, o.f) != len) {
        const int e = errno;
        rs_out_abort(&o);
        return rs_fail(err, RS_E_IO, "cannot write %s '%s': %s", what, path, strerror(e));
    }
    return rs_out_commit(&o, err);
}

int rs_fd_put(int fd, const void *p, size_t n)
{
    for (const char *c = p; n;) {
        const ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w, n -= (size_t)w;
    }
    return 0;
}

int rs_fd_get(int fd, void *p, size_t n, double deadline)
{
    for (char *c = p; n;) {
        if (deadline > 0) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            const double left = deadline - (double)t.tv_sec - 1e-9 * (double)t.tv_nsec;
            if (left <= 0) return -2;
            struct pollfd q = {fd, POLLIN, 0};
            const int ready = poll(&q, 1, (int)(left * 1000.0) + 1);
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) continue;
        }
        const ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c += r, n -= (size_t)r;
    }
    return 0;
}

void rs_file_in(const char *set, const char *name, char *path, size_t len)
{
    struct stat st;
    if (stat(set, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(path, len, "%s/%s", set, name);
    else
        snprintf(path, len, "%s", set);
}
