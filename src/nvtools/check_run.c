/* --check: redscope itself, run once under compute-sanitizer in a child
 * process (its own process group, so a cancel stops the whole tree), the
 * sanitizer's log read back by check.c. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "formats/check.h"
#include "core/request.h"

int rs_check_find_sanitizer(char *path, size_t len)
{
    const char *env_path = getenv("PATH"), *cuda = getenv("CUDA_HOME");
    char dirs[8192];
    /* CUDA_HOME, when set, replaces the usual /usr/local/cuda */
    snprintf(dirs, sizeof dirs, "%s:%s/bin", env_path ? env_path : "",
             cuda && *cuda ? cuda : "/usr/local/cuda");
    for (const char *p = dirs; *p;) {
        const size_t n = strcspn(p, ":");
        if (n) {
            snprintf(path, len, "%.*s/compute-sanitizer", (int)n, p);
            if (access(path, X_OK) == 0) return 1;
        }
        p += n;
        if (*p == ':') p++;
    }
    path[0] = '\0';
    return 0;
}

/* argv for: SANITIZER --tool T ... --log-file LOG EXE run --FIELD=VALUE ... */
static int child_argv(const char *san, const char *tool, const char *log, const char *exe,
                      const rs_request *req, char **argv, char (*store)[160], int max)
{
    int n = 0, k = 0;
    const char *fixed[] = {san, "--tool", tool, "--print-limit", "10000", "--log-file", log};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) argv[n++] = (char *)fixed[i];
    if (strcmp(tool, "racecheck") == 0) {
        argv[n++] = "--racecheck-report";
        argv[n++] = "analysis";
    }
    argv[n++] = (char *)exe;
    argv[n++] = "run";
    static const rs_field_id keep[] = {RS_F_variant, RS_F_type, RS_F_op,    RS_F_n,
                                       RS_F_block,   RS_F_grid, RS_F_ept,   RS_F_finish,
                                       RS_F_dist,    RS_F_seed, RS_F_device};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0] && n < max - 8; i++) {
        const rs_field *f = &rs_fields[keep[i]];
        char value[128];
        rs_field_format(req, f, value, sizeof value);
        snprintf(store[k], sizeof store[k], "--%s=%s", f->flag, value);
        argv[n++] = store[k++];
    }
    if (req->variant == RS_V_KERNEL) { /* the user's file, whole (a path outgrows store) */
        argv[n++] = "--kernel";
        argv[n++] = (char *)req->kernel;
    }
    /* once, no counters: the sanitizer replaces CUPTI's view of the kernels */
    const char *tail[] = {"--reps=1", "--warmup=0", "--metrics=none", "--format=json"};
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) argv[n++] = (char *)tail[i];
    argv[n] = NULL;
    return n;
}

/* Run argv with stdout and stderr to /dev/null; its exit status, -1 when it
 * could not start, -2 when cancelled. */
static int run_child(char **argv, volatile int *cancel)
{
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0); /* only async-signal-safe calls until exec */
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    int status = 0;
    for (;;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) return -1;
        if (cancel && *cancel) {
            kill(-pid, SIGTERM);
            waitpid(pid, &status, 0);
            return -2;
        }
        const struct timespec tick = {0, 20 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = cap < ((size_t)64 << 20) ? realloc(buf, cap *= 2) : NULL;
            if (!nb) break; /* a log past 64 MiB: read what fits */
            buf = nb;
        }
    }
    if (buf) buf[len] = '\0';
    fclose(f);
    return buf;
}

/* One tool over the configuration; what it found added to r. */
static rs_status one_tool(const char *san, const char *tool, const char *exe, const rs_request *req,
                          rs_check_report *r, volatile int *cancel, rs_error *err)
{
    char log[64] = "/tmp/redscope-check-XXXXXX";
    const int fd = mkstemp(log);
    if (fd < 0) return rs_fail(err, RS_E_IO, "cannot create a log file: %s", strerror(errno));
    close(fd);
    char *argv[64], store[16][160];
    child_argv(san, tool, log, exe, req, argv, store, 64);
    const int rc = run_child(argv, cancel);
    char *text = read_all(log);
    unlink(log);
    const int summary = text && rs_check_parse_log(r, text);
    free(text);
    if (rc == -2) return rs_fail(err, RS_E_CANCELLED, "check cancelled");
    /* a run that faults still leaves the tool's report: that is the finding */
    if (rc == 0 || rc == RS_E_MISMATCH)
        r->correct = r->correct != 0 && rc == 0;
    else
        r->correct = 0;
    if (!summary)
        return rs_fail(err, RS_E_CUDA, "%s did not finish (exit %d)%s", tool, rc,
                       rc == 127 ? ": cannot start compute-sanitizer" : "");
    return RS_OK;
}

rs_status rs_check_run(const rs_request *req, rs_check_kind kind, const char *exe,
                       rs_check_report *r, volatile int *cancel, rs_error *err)
{
    rs_check_report_init(r, kind);
    char san[4096];
    if (!rs_check_find_sanitizer(san, sizeof san)) {
        snprintf(r->note, sizeof r->note, "compute-sanitizer not found");
        return rs_fail(err, RS_E_USAGE,
                       "--check needs compute-sanitizer, which comes with the CUDA toolkit: add "
                       "its bin folder (/usr/local/cuda/bin) to PATH or set CUDA_HOME");
    }
    static const char *const race_tools[] = {"racecheck", NULL};
    static const char *const memory_tools[] = {"memcheck", "initcheck", NULL};
    const char *const *tools = kind == RS_CHECK_RACE ? race_tools : memory_tools;
    for (int i = 0; tools[i]; i++) {
        const rs_status st = one_tool(san, tools[i], exe, req, r, cancel, err);
        if (st != RS_OK) {
            snprintf(r->note, sizeof r->note, "%.159s", err->msg);
            return st;
        }
    }
    r->ran = 1;
    return RS_OK;
}
