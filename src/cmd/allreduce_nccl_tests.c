/* allreduce --nccl-tests PATH: nccl-tests' all_reduce_perf run on the same
 * GPUs, type, operation and sizes as the algorithm just measured (NCCL_ALGO
 * as its communicators were made, NCCL_NVLS_ENABLE=0), its out-of-place
 * bus bandwidth put beside each point. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmd.h"
#include "nvtools/nccl_tests.h"
#include "formats/files.h"

extern char **environ;

/* The program: PATH itself, or all_reduce_perf in the folder PATH. */
static int program(const char *path, char *exe, size_t len)
{
    struct stat st;
    rs_file_in(path, "all_reduce_perf", exe, len);
    return stat(exe, &st) == 0 && S_ISREG(st.st_mode) && access(exe, X_OK) == 0;
}

/* The folder of REDSCOPE_NCCL's library (set: a folder, or a file's), or
 * "" where it is unset or a bare name (the loader's search, as redscope's
 * own). */
static void nccl_folder(char *folder, size_t len)
{
    const char *set = getenv("REDSCOPE_NCCL");
    struct stat st;
    const char *slash = set ? strrchr(set, '/') : NULL;
    folder[0] = '\0';
    if (set && *set && stat(set, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(folder, len, "%s", set);
    else if (set && *set && slash)
        snprintf(folder, len, "%.*s", (int)(slash - set), set);
}

/* Its environment (malloc'd; the strings in vars): ours, with REDSCOPE_NCCL's
 * folder first on the library path, so it runs the NCCL redscope loads,
 * NVLink multicast off, and NCCL_ALGO as the GPU process set it for the
 * algorithm (ring, tree; nccl: the user's, if any). */
typedef struct nt_vars {
    char path[PATH_MAX + 4096], algo[32];
} nt_vars;

static char **nccl_env(rs_ar_algo algo, nt_vars *v)
{
    char folder[PATH_MAX];
    nccl_folder(folder, sizeof folder);
    const char *old = getenv("LD_LIBRARY_PATH");
    snprintf(v->path, sizeof v->path, "LD_LIBRARY_PATH=%s%s%s", folder,
             old && *old && folder[0] ? ":" : "", old ? old : "");
    snprintf(v->algo, sizeof v->algo, "NCCL_ALGO=%s", algo == RS_AR_TREE ? "Tree" : "Ring");
    const int forced = algo == RS_AR_RING || algo == RS_AR_TREE;
    size_t n = 0;
    while (environ[n]) n++;
    char **env = malloc(sizeof *env * (n + 4));
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!(folder[0] && strncmp(environ[i], "LD_LIBRARY_PATH=", 16) == 0) &&
            !(forced && strncmp(environ[i], "NCCL_ALGO=", 10) == 0) &&
            strncmp(environ[i], "NCCL_NVLS_ENABLE=", 17) != 0)
            env[k++] = environ[i];
    if (folder[0]) env[k++] = v->path;
    if (forced) env[k++] = v->algo;
    env[k++] = "NCCL_NVLS_ENABLE=0";
    env[k] = NULL;
    return env;
}

/* Run it with its output in dir/out.txt (its JSON goes to dir/out.json),
 * for up to `limit` seconds: 0, or an errno value (ETIMEDOUT: killed). */
static int spawn_wait(char *const argv[], rs_ar_algo algo, const char *dir, int limit, int *status)
{
    char out[PATH_MAX + 16];
    nt_vars vars;
    snprintf(out, sizeof out, "%s/out.txt", dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char **env = nccl_env(algo, &vars);
    pid_t pid;
    const int rc = env ? posix_spawn(&pid, argv[0], &fa, NULL, argv, env) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    if (rc != 0) return rc;
    for (long waited_ms = 0;; waited_ms += 50) {
        const pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid) return 0;
        if (w < 0 && errno != EINTR) return errno;
        if (waited_ms >= 1000L * limit) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) continue;
            return ETIMEDOUT;
        }
        usleep(50000);
    }
}

/* A file's text (up to 64 MiB), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    const size_t cap = (size_t)64 << 20;
    char *buf = malloc(cap + 1);
    const size_t n = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

/* Its last line of output, for a failure's message. */
static void last_line(const char *dir, char *buf, size_t len)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    char *t = slurp(path);
    buf[0] = '\0';
    if (!t) return;
    size_t end = strlen(t);
    while (end && (t[end - 1] == '\n' || t[end - 1] == '\r')) t[--end] = '\0';
    const char *nl = strrchr(t, '\n');
    snprintf(buf, len, "%s", nl ? nl + 1 : t);
    free(t);
}

static void clean(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/out.json", dir);
    remove(path);
    rmdir(dir);
}

/* nccl-tests over the sizes of pts[0..count) (one algorithm's), beside
 * each: 0, or an error said. */
static rs_status measure_range(const char *exe, const char *dir, const rs_nt_args *a, uint64_t lo,
                               uint64_t hi, rs_ar_point *pts, int count, rs_error *err)
{
    char b[32], e[32], g[16], n[16], w[16], json[PATH_MAX + 16];
    snprintf(b, sizeof b, "%llu", (unsigned long long)lo);
    snprintf(e, sizeof e, "%llu", (unsigned long long)hi);
    snprintf(g, sizeof g, "%d", a->gpus);
    snprintf(n, sizeof n, "%u", a->reps);
    snprintf(w, sizeof w, "%u", a->warmup);
    snprintf(json, sizeof json, "%s/out.json", dir);
    char *argv[] = {(char *)exe,
                    "-b",
                    b,
                    "-e",
                    e,
                    "-f",
                    "2",
                    "-g",
                    g,
                    "-d",
                    (char *)rs_nt_type(a->type),
                    "-o",
                    (char *)rs_nt_op(a->op),
                    "-n",
                    n,
                    "-w",
                    w,
                    "-c",
                    "0",
                    "-J",
                    json,
                    NULL};
    int status = 0;
    remove(json); /* it opens its file exclusively: another name if this one is there */
    const int rc = spawn_wait(argv, a->algo, dir, 900, &status);
    if (rc == ETIMEDOUT) return rs_fail(err, RS_E_IO, "%s ran past 900 s and was stopped", exe);
    if (rc) return rs_fail(err, RS_E_IO, "cannot run %s: %s", exe, strerror(rc));
    char why[512];
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        last_line(dir, why, sizeof why);
        return rs_fail(err, RS_E_CUDA, "%s failed: %s", exe, why[0] ? why : "no output");
    }
    char *text = slurp(json);
    enum { MAX = 256 };
    rs_nt_point *nt = malloc(sizeof *nt * MAX);
    const int got = nt ? rs_nt_parse(text, nt, MAX, why, sizeof why) : -1;
    free(text);
    if (got < 0) {
        free(nt);
        return rs_fail(err, RS_E_IO, "%s wrote no results: %s", exe, nt ? why : "out of memory");
    }
    for (int i = 0; i < count; i++)
        for (int k = 0; k < got; k++)
            if (nt[k].bytes == pts[i].bytes && nt[k].us > 0) {
                pts[i].nt_us = nt[k].us;
                pts[i].nt_busbw = nt[k].busbw;
            }
    free(nt);
    return RS_OK;
}

/* all_reduce_perf steps its sizes by doubling: one run from the smallest
 * to the largest where every size is the smallest times a power of two,
 * else one run per size. */
static rs_status measure_beside(const char *exe, const char *dir, const rs_nt_args *a,
                                rs_ar_point *pts, int count, rs_error *err)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < count; i++) {
        lo = pts[i].bytes < lo ? pts[i].bytes : lo;
        hi = pts[i].bytes > hi ? pts[i].bytes : hi;
    }
    int doubling = 1;
    for (int i = 0; i < count && doubling; i++) {
        const uint64_t q = pts[i].bytes / lo;
        doubling = pts[i].bytes % lo == 0 && (q & (q - 1)) == 0;
    }
    if (doubling) return measure_range(exe, dir, a, lo, hi, pts, count, err);
    for (int i = 0; i < count; i++) {
        const rs_status st =
            measure_range(exe, dir, a, pts[i].bytes, pts[i].bytes, &pts[i], 1, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

rs_status rs_nt_find(const char *path, rs_error *err)
{
    char exe[PATH_MAX];
    if (program(path, exe, sizeof exe)) return RS_OK;
    return rs_fail(err, RS_E_USAGE,
                   "--nccl-tests %s: no all_reduce_perf there (scripts/build-nccl-tests.sh builds "
                   "it)",
                   path);
}

rs_status rs_nt_beside(const rs_nt_args *a, rs_ar_point *pts, int count, rs_error *err)
{
    char exe[PATH_MAX];
    if (!program(a->path, exe, sizeof exe)) return rs_nt_find(a->path, err);
    if (count < 1) return RS_OK;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/redscope-nt-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return rs_fail(err, RS_E_IO, "cannot make a folder for nccl-tests' output: %s",
                       strerror(errno));
    const rs_status st = measure_beside(exe, dir, a, pts, count, err);
    clean(dir);
    return st;
}
