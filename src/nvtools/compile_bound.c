/* A compile in a process of its own, under a time and a memory bound: NVRTC
 * reads what a kernel includes itself (an #include of a FIFO never ends) and
 * a macro can expand without end, so neither the GPU process nor the command
 * line waits on it. The same binary, exec'd as `redscope --compile-process`,
 * reads the request on its stdin and writes the result on its stdout. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "core/env.h"
#include "formats/files.h"

extern char **environ;

#define COMPILE_SECONDS 60           /* the time bound (REDSCOPE_COMPILE_SECONDS) */
#define COMPILE_MEMORY  (8ull << 30) /* the memory bound: address space past the start */
#define MSG_BYTES       1024

typedef struct request {
    int32_t type, op, kfinish, arch;
    uint64_t path_len, text_len;
} request;

typedef struct reply {
    int32_t status, arch;
    char msg[MSG_BYTES];
    rs_kernel_build build;
    double ms;
    uint64_t log_len, cubin_len;
} reply;

/* Bound the address space to what this process holds now plus
 * COMPILE_MEMORY. Counted from the start, not from zero: a sanitizer build
 * reserves terabytes of shadow before main, and a bound below that makes
 * every later mapping (dlopen of NVRTC first) fail. */
static void bound_memory(void)
{
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1) pages = 0;
        fclose(f);
    }
    const long page = sysconf(_SC_PAGESIZE);
    const rlim_t held = (rlim_t)pages * (rlim_t)(page > 0 ? page : 4096);
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) != 0) return;
    const rlim_t want = held + COMPILE_MEMORY;
    if (as.rlim_max != RLIM_INFINITY && want > as.rlim_max) return; /* already lower */
    as.rlim_cur = want;
    setrlimit(RLIMIT_AS, &as);
}

int rs_compile_serve(void)
{
    bound_memory();
    /* the child ends with its parent (an explorer quit mid-compile) and at
     * its own bound: a compile left alone never outlives either */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    double bound = COMPILE_SECONDS;
    rs_error ignored;
    rs_env_seconds("REDSCOPE_COMPILE_SECONDS", 3600.0, COMPILE_SECONDS, &bound, &ignored);
    alarm((unsigned)bound + 5);
    request q;
    if (rs_fd_get(0, &q, sizeof q, 0) != 0 || q.path_len > 4096 || q.text_len > (64u << 20))
        return 2;
    char *path = calloc(q.path_len + 1, 1), *text = calloc(q.text_len + 1, 1);
    if (!path || !text || rs_fd_get(0, path, q.path_len, 0) != 0 ||
        rs_fd_get(0, text, q.text_len, 0) != 0)
        return 2;
    rs_compiled c;
    rs_error err = {RS_OK, ""};
    reply r;
    memset(&r, 0, sizeof r);
    r.status = rs_compile(path, text, (rs_dtype)q.type, (rs_op)q.op, q.kfinish, q.arch, &c, &err);
    snprintf(r.msg, sizeof r.msg, "%s", err.msg);
    r.build = c.build;
    r.ms = c.ms;
    r.arch = c.arch;
    r.log_len = c.log ? strlen(c.log) : 0;
    r.cubin_len = c.cubin ? c.cubin_len : 0;
    const int bad = rs_fd_put(1, &r, sizeof r) || rs_fd_put(1, c.log, r.log_len) ||
                    rs_fd_put(1, c.cubin, r.cubin_len);
    rs_compiled_free(&c);
    free(path);
    free(text);
    return bad ? 2 : 0;
}

/* The child: `redscope --compile-process`, stdin and stdout on pipes. */
static pid_t spawn(int *down, int *up)
{
    char exe[4096];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int to[2], from[2];
    if (len <= 0 || pipe2(to, O_CLOEXEC) != 0) return -1;
    if (pipe2(from, O_CLOEXEC) != 0) {
        close(to[0]), close(to[1]);
        return -1;
    }
    exe[len] = '\0';
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from[1], 1);
    char *argv[] = {"redscope", RS_COMPILE_PROCESS_ARG, NULL};
    pid_t pid;
    const int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(to[0]), close(from[1]);
    if (rc != 0) {
        close(to[1]), close(from[0]);
        return -1;
    }
    *down = to[1], *up = from[0];
    return pid;
}

/* The reply and what follows it into out; 0, or -1 / -2 as get. */
static int receive(int up, double deadline, reply *r, rs_compiled *out)
{
    int g = rs_fd_get(up, r, sizeof *r, deadline);
    if (g) return g;
    if (r->log_len > (64u << 20) || r->cubin_len > (1u << 30)) return -1;
    out->log = calloc(r->log_len + 1, 1);
    out->cubin = r->cubin_len ? malloc(r->cubin_len) : NULL;
    if (!out->log || (r->cubin_len && !out->cubin)) return -1;
    if ((g = rs_fd_get(up, out->log, r->log_len, deadline)) != 0) return g;
    if (r->cubin_len && (g = rs_fd_get(up, out->cubin, r->cubin_len, deadline)) != 0) return g;
    out->cubin_len = r->cubin_len;
    out->build = r->build;
    out->ms = r->ms;
    out->arch = r->arch;
    return 0;
}

rs_status rs_compile_bounded(const char *path, const char *text, rs_dtype t, rs_op op, int kfinish,
                             int arch, rs_compiled *out, rs_error *err)
{
    memset(out, 0, sizeof *out);
    double bound = COMPILE_SECONDS; /* tests make it short */
    const rs_status bst =
        rs_env_seconds("REDSCOPE_COMPILE_SECONDS", 3600.0, COMPILE_SECONDS, &bound, err);
    if (bst != RS_OK) return bst;
    int down = -1, up = -1;
    const pid_t pid = spawn(&down, &up);
    if (pid < 0)
        return rs_fail(err, RS_E_IO, "cannot start a process to compile in: %s", strerror(errno));
    const request q = {(int32_t)t, (int32_t)op, kfinish, arch, strlen(path), strlen(text)};
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double deadline = (double)now.tv_sec + 1e-9 * (double)now.tv_nsec + bound;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    const int sent = !rs_fd_put(down, &q, sizeof q) && !rs_fd_put(down, path, q.path_len) &&
                     !rs_fd_put(down, text, q.text_len);
    close(down);
    reply r;
    memset(&r, 0, sizeof r);
    const int got = sent ? receive(up, deadline, &r, out) : -1;
    close(up);
    if (got == -2) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    signal(SIGPIPE, old);
    if (!out->log) out->log = calloc(1, 1);
    if (got == -2)
        return rs_fail(err, RS_E_USAGE,
                       "%s: the compile ran past %g s and was stopped (does it include a file "
                       "that never ends, such as a FIFO, or a macro that expands without end?)",
                       path, bound);
    if (got != 0)
        return rs_fail(err, RS_E_USAGE,
                       "%s: the compile stopped (%s): past %llu GiB of memory? (a macro that "
                       "expands without end)",
                       path,
                       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no result came back",
                       COMPILE_MEMORY >> 30);
    if (r.status != RS_OK) return rs_fail(err, (rs_status)r.status, "%s", r.msg);
    return RS_OK;
}
