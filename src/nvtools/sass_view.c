#define _GNU_SOURCE /* pipe2 */
#include "sass_view.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/cache.h"
#include "nvtools/cubin_lines.h"
#include "nvtools/sass_deps.h"
#include "core/stall_owner.h"
#include "nvtools/builtin_cubins.h"

#define OUT_MAX          (8u << 20)   /* nvdisasm's text of one kernel */
#define CUBIN_MAX        (256u << 20) /* a cubin read for its kernel */
#define NVDISASM_SECONDS 30           /* one kernel's disassembly, at most */

extern char **environ;

static int executable(const char *dir, const char *name, char *buf, size_t len)
{
    const int w = snprintf(buf, len, "%s/%s", dir, name);
    return w > 0 && (size_t)w < len && access(buf, X_OK) == 0;
}

int rs_nvdisasm_path(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    char dir[4096];
    for (const char *p = path ? path : ""; *p;) {
        const size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        if (n && executable(dir, "nvdisasm", buf, len)) return 1;
        p += n + (p[n] == ':');
    }
    const char *cuda = getenv("CUDA_HOME");
    if (cuda && *cuda) {
        snprintf(dir, sizeof dir, "%s/bin", cuda);
        if (executable(dir, "nvdisasm", buf, len)) return 1;
    }
    return executable("/usr/local/cuda/bin", "nvdisasm", buf, len);
}

/* nvdisasm -c -fun INDEX CUBIN's standard output (NULL on failure, or
 * after NVDISASM_SECONDS, when the tool is killed). */
static char *disassemble(const char *tool, const char *cubin, long index)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) return NULL;
    char idx[32];
    snprintf(idx, sizeof idx, "%ld", index);
    char *argv[] = {(char *)tool, "-c", "-fun", idx, (char *)cubin, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    char *out = rc == 0 ? malloc(OUT_MAX + 1) : NULL;
    size_t used = 0;
    int late = 0;
    const time_t deadline = time(NULL) + NVDISASM_SECONDS;
    for (ssize_t got = 1; out && used < OUT_MAX && got != 0;) { /* a resize's signal: again */
        struct pollfd p = {fd[0], POLLIN, 0};
        const int ready = poll(&p, 1, 250);
        if (ready == 0 && time(NULL) > deadline) {
            late = 1;
            break;
        }
        if (ready <= 0) continue;
        got = read(fd[0], out + used, OUT_MAX - used);
        if (got > 0) used += (size_t)got;
        if (got < 0 && errno != EINTR) break;
    }
    close(fd[0]);
    if (rc == 0 && late) kill(pid, SIGKILL);
    int status = -1;
    while (rc == 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (out && (late || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !used)) {
        free(out);
        return NULL;
    }
    if (out) out[used] = '\0';
    return out;
}

/* A regular file's bytes (a FIFO or a device is refused, never waited on). */
static char *slurp(const char *path, size_t *size)
{
    *size = 0;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return NULL;
    char *b = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= CUBIN_MAX)
        b = malloc((size_t)st.st_size);
    size_t got = 0;
    while (b && got < (size_t)st.st_size) {
        const ssize_t n = read(fd, b + got, (size_t)st.st_size - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fd);
    if (b && got != (size_t)st.st_size) {
        free(b);
        b = NULL;
    }
    *size = b ? got : 0;
    return b;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The cubin that holds s->kernel: the one recorded, else this build's. */
static char *find_cubin(const rs_stalls *s, size_t *size, char *path, size_t len)
{
    struct stat st;
    if (s->cubin[0] && stat(s->cubin, &st) == 0) {
        snprintf(path, len, "%s", s->cubin);
        char *c = slurp(path, size);
        if (c && rs_cubin_symbol_index(c, *size, s->kernel) >= 0) return c;
        free(c);
    }
    if (!rs_builtin_cubin_path(NULL, s->sm, s->kernel, path, len)) return NULL;
    return slurp(path, size);
}

/* An instruction line of nvdisasm ("/" "*0090*" "/  FFMA R7, R0, 1.5, R7 ;"):
 * 1 with its offset and text. */
static int parse_insn(const char *whole, size_t n, uint64_t *off, char *text, size_t len)
{
    char l[512]; /* the line alone: nothing below reads past it */
    if (n >= sizeof l) return 0;
    memcpy(l, whole, n);
    l[n] = '\0';
    const char *open = strstr(l, "/*");
    if (!open) return 0;
    char *end = NULL;
    *off = strtoull(open + 2, &end, 16);
    if (!end || end == open + 2 || strncmp(end, "*/", 2) != 0) return 0;
    const char *t = end + 2;
    while (*t == ' ' || *t == '\t') t++;
    size_t k = strlen(t);
    while (k && (t[k - 1] == ' ' || t[k - 1] == ';' || t[k - 1] == '\r')) k--;
    if (!k) return 0;
    snprintf(text, len, "%.*s", (int)k, t);
    return 1;
}

/* Is the instruction at off shown on file:line? */
static int on_line(const rs_line_table *t, uint64_t off, const char *file, unsigned line,
                   const rs_stall_owner *o)
{
    rs_src_frame f[RS_FRAMES_MAX];
    const int n = rs_line_table_chain(t, off, f, RS_FRAMES_MAX);
    if (!n) return 0;
    const int pick = rs_stall_shown(f, n, o);
    return f[pick].line == line && strcmp(base_of(f[pick].file), base_of(file)) == 0;
}

/* why = msg and arg; -1 (rs_sass_of_line's failure). */
static int fail(char *why, size_t len, const char *msg, const char *arg)
{
    snprintf(why, len, "%s%s", msg, arg);
    return -1;
}

/* The same for a helper that gives 0 on failure. */
static int no(char *why, size_t len, const char *msg, const char *arg)
{
    fail(why, len, msg, arg);
    return 0;
}

/* The last kernel's line table (moving the cursor asks again and again). */
static struct {
    char path[4096], kernel[512];
    rs_line_table *t;
} last;

/* s->kernel's line table, from the cache or read now; 0 with why. */
static int line_table(const rs_stalls *s, const char *path, const rs_line_table **t, char *why,
                      size_t why_len)
{
    if (last.t && strcmp(last.path, path) == 0 && strcmp(last.kernel, s->kernel) == 0) {
        *t = last.t;
        return 1;
    }
    size_t size = 0;
    char *cubin = slurp(path, &size);
    rs_error err;
    rs_line_table *table = cubin ? rs_line_table_load(cubin, size, s->kernel, &err) : NULL;
    free(cubin);
    if (!table) return no(why, why_len, "its line table: ", cubin ? err.msg : path);
    rs_line_table_free(last.t);
    snprintf(last.path, sizeof last.path, "%s", path);
    snprintf(last.kernel, sizeof last.kernel, "%s", s->kernel);
    *t = last.t = table;
    return 1;
}

int rs_sass_of_line(const rs_stalls *s, const char *file, unsigned line, const rs_stall_owner *o,
                    rs_sass_insn *out, int max, char *why, size_t why_len)
{
    if (!s->kernel[0])
        return fail(why, why_len, "this stall view names no kernel (recorded before they did)", "");
    char path[4096];
    size_t size = 0;
    char *cubin = find_cubin(s, &size, path, sizeof path);
    if (!cubin) return fail(why, why_len, "no cubin on this machine holds ", s->kernel);
    free(cubin);
    const rs_line_table *t = NULL;
    if (!line_table(s, path, &t, why, why_len)) return -1;
    char *text = rs_sass_text(path, s->kernel, why, why_len);
    if (!text) return -1;
    int n = 0;
    for (const char *l = text; *l && n < max;) {
        const size_t len = strcspn(l, "\n");
        uint64_t off;
        char insn[sizeof out->text];
        if (parse_insn(l, len, &off, insn, sizeof insn) && on_line(t, off, file, line, o)) {
            out[n].offset = off;
            out[n].samples = rs_stalls_pc(s, off);
            snprintf(out[n].text, sizeof out[n].text, "%s", insn);
            n++;
        }
        l += len + (l[len] == '\n');
    }
    free(text);
    if (!n) snprintf(why, why_len, "no instruction of the kernel is on %s:%u", file, line);
    return n;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The cache file of a function of a cubin (NULL function: the whole
 * cubin): its bytes and the name hashed. */
static int cache_path(const char *cubin, size_t size, const char *function, char *buf, size_t len)
{
    char dir[4096];
    if (!rs_cache_dir(dir, sizeof dir)) return 0;
    const size_t used = strlen(dir);
    snprintf(dir + used, sizeof dir - used, "/sass");
    mkdir(dir, 0755);
    uint64_t h = fnv(0xcbf29ce484222325ull, cubin, size);
    if (function) h = fnv(h, function, strlen(function));
    const int w =
        snprintf(buf, len, "%s/%016llx%s.sass", dir, (unsigned long long)h, function ? "" : "-all");
    return w > 0 && (size_t)w < len;
}

static void cache_put(const char *path, const char *text)
{
    char tmp[4096 + 128];
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (f && !ok) remove(tmp);
}

/* A file's text, NUL-terminated (NULL: none). */
static char *text_of(const char *path)
{
    size_t size = 0;
    char *b = slurp(path, &size);
    char *t = b ? realloc(b, size + 1) : NULL;
    if (!t) {
        free(b);
        return NULL;
    }
    t[size] = '\0';
    return t;
}

/* Whole cubins' texts read in this process (a ladder asks one many times). */
static struct {
    pthread_mutex_t lock;
    char path[8][4096 + 64];
    char *text[8];
    int n;
} whole = {PTHREAD_MUTEX_INITIALIZER, {""}, {NULL}, 0};

/* fn's part of the whole cubin's disassembly in the cache, copied; NULL
 * when that is not there (yet). */
static char *from_whole(const char *cached, const char *fn)
{
    pthread_mutex_lock(&whole.lock);
    int i = 0;
    while (i < whole.n && strcmp(whole.path[i], cached) != 0) i++;
    if (i == whole.n && i < 8 && (whole.text[i] = text_of(cached)) != NULL) {
        snprintf(whole.path[i], sizeof whole.path[i], "%s", cached);
        whole.n++;
    }
    size_t len = 0;
    const char *part = i < whole.n ? rs_sass_function(whole.text[i], fn, &len) : NULL;
    char *out = part ? malloc(len + 1) : NULL;
    if (out) {
        memcpy(out, part, len);
        out[len] = '\0';
    }
    pthread_mutex_unlock(&whole.lock);
    return out;
}

void rs_sass_prefetch(const char *cubin_path)
{
    char tool[4096], cached[4096 + 64];
    size_t size = 0;
    char *cubin = rs_nvdisasm_path(tool, sizeof tool) ? slurp(cubin_path, &size) : NULL;
    const int ok = cubin && cache_path(cubin, size, NULL, cached, sizeof cached);
    free(cubin);
    struct stat st;
    if (!ok || stat(cached, &st) == 0) return;
    /* a job of its own that outlives this process: the cache fills even
     * when a short run ends first (its shell is waited for at once) */
    char *argv[] = {"sh",
                    "-c",
                    "(\"$0\" -c \"$1\" > \"$2.$$\" && mv -f \"$2.$$\" \"$2\" || rm -f \"$2.$$\")"
                    " < /dev/null > /dev/null 2>&1 &",
                    tool,
                    (char *)cubin_path,
                    cached,
                    NULL};
    pid_t pid;
    if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0) return;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

char *rs_sass_text(const char *cubin_path, const char *function, char *why, size_t why_len)
{
    size_t size = 0;
    char *cubin = slurp(cubin_path, &size);
    if (!cubin) {
        no(why, why_len, "cannot read the cubin ", cubin_path);
        return NULL;
    }
    const long index = rs_cubin_symbol_index(cubin, size, function);
    char cached[4096 + 64], all[4096 + 64];
    const int can_cache = index >= 0 && cache_path(cubin, size, function, cached, sizeof cached) &&
                          cache_path(cubin, size, NULL, all, sizeof all);
    free(cubin);
    if (index < 0) {
        no(why, why_len, "the cubin lacks ", function);
        return NULL;
    }
    char *text = can_cache ? from_whole(all, function) : NULL;
    if (!text && can_cache) text = text_of(cached);
    if (text) return text;
    char tool[4096];
    if (!rs_nvdisasm_path(tool, sizeof tool)) {
        snprintf(why, why_len,
                 "nvdisasm is not on PATH (the CUDA toolkit's cuda-nvdisasm; add its bin to PATH)");
        return NULL;
    }
    if (!(text = disassemble(tool, cubin_path, index)))
        no(why, why_len, "nvdisasm could not disassemble ", function);
    if (text && can_cache) cache_put(cached, text);
    return text;
}
