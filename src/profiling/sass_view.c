#define _POSIX_C_SOURCE 200809L /* posix_spawn, waitpid */
#include "sass_view.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/cubin_lines.h"
#include "builtin_cubins.h"

#define OUT_MAX (8u << 20) /* nvdisasm's text of one kernel */

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

/* nvdisasm -c -fun INDEX CUBIN's standard output (NULL on failure). */
static char *disassemble(const char *tool, const char *cubin, long index)
{
    int fd[2];
    if (pipe(fd) != 0) return NULL;
    char idx[32];
    snprintf(idx, sizeof idx, "%ld", index);
    char *argv[] = {(char *)tool, "-c", "-fun", idx, (char *)cubin, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    const int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    char *out = rc == 0 ? malloc(OUT_MAX + 1) : NULL;
    size_t used = 0;
    ssize_t got = 0;
    while (out && used < OUT_MAX && (got = read(fd[0], out + used, OUT_MAX - used)) > 0)
        used += (size_t)got;
    close(fd[0]);
    int status = 0;
    if (rc == 0) waitpid(pid, &status, 0);
    if (out && (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || used == 0)) {
        free(out);
        return NULL;
    }
    if (out) out[used] = '\0';
    return out;
}

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0)
        b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (f) fclose(f);
    *size = b ? (size_t)n : 0;
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
static int parse_insn(const char *l, size_t n, uint64_t *off, char *text, size_t len)
{
    const char *open = strstr(l, "/*");
    if (!open || open >= l + n) return 0;
    char *end = NULL;
    *off = strtoull(open + 2, &end, 16);
    if (!end || end == open + 2 || strncmp(end, "*/", 2) != 0) return 0;
    const char *t = end + 2;
    while (t < l + n && (*t == ' ' || *t == '\t')) t++;
    size_t k = (size_t)(l + n - t);
    while (k && (t[k - 1] == ' ' || t[k - 1] == ';' || t[k - 1] == '\r')) k--;
    if (!k) return 0;
    snprintf(text, len, "%.*s", (int)k, t);
    return 1;
}

/* Is the instruction at off shown on file:line? */
static int on_line(const rs_line_table *t, uint64_t off, const char *file, unsigned line,
                   rs_own_file own, const void *ctx)
{
    rs_src_frame f[RS_FRAMES_MAX];
    const int n = rs_line_table_chain(t, off, f, RS_FRAMES_MAX);
    if (!n) return 0;
    const int pick = rs_frames_pick(f, n, own, ctx);
    return f[pick].line == line && strcmp(base_of(f[pick].file), base_of(file)) == 0;
}

static int fail(char *why, size_t len, const char *msg, const char *arg)
{
    snprintf(why, len, "%s%s", msg, arg);
    return -1;
}

int rs_sass_of_line(const rs_stalls *s, const char *file, unsigned line, rs_own_file own,
                    const void *own_ctx, rs_sass_insn *out, int max, char *why, size_t why_len)
{
    char tool[4096], path[4096];
    if (!rs_nvdisasm_path(tool, sizeof tool))
        return fail(why, why_len, "nvdisasm is not on PATH (it comes with the CUDA toolkit)", "");
    if (!s->kernel[0])
        return fail(why, why_len, "this stall view names no kernel (recorded before they did)", "");
    size_t size = 0;
    char *cubin = find_cubin(s, &size, path, sizeof path);
    if (!cubin) return fail(why, why_len, "no cubin on this machine holds ", s->kernel);
    const long index = rs_cubin_symbol_index(cubin, size, s->kernel);
    rs_error err;
    rs_line_table *t = index >= 0 ? rs_line_table_load(cubin, size, s->kernel, &err) : NULL;
    free(cubin);
    char *text = t ? disassemble(tool, path, index) : NULL;
    if (!text) {
        rs_line_table_free(t);
        return fail(why, why_len, "nvdisasm could not disassemble ", path);
    }
    int n = 0;
    for (const char *l = text; *l && n < max;) {
        const size_t len = strcspn(l, "\n");
        uint64_t off;
        char insn[sizeof out->text];
        if (parse_insn(l, len, &off, insn, sizeof insn) &&
            on_line(t, off, file, line, own, own_ctx)) {
            out[n].offset = off;
            out[n].samples = rs_stalls_pc(s, off);
            snprintf(out[n].text, sizeof out[n].text, "%s", insn);
            n++;
        }
        l += len + (l[len] == '\n');
    }
    free(text);
    rs_line_table_free(t);
    if (!n) snprintf(why, why_len, "no instruction of the kernel is on %s:%u", file, line);
    return n;
}
