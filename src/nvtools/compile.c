/* NVRTC, loaded at run time. The functions are declared here with NVRTC's
 * C types (an opaque program handle, an int result) so the library's header
 * is not needed to build. */
#define _GNU_SOURCE /* dladdr */
#include "compile.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/files.h"
#include "core/text.h"
#include "formats/preset.h"
#include "cubin.h"

#ifndef RS_CUDA_INCLUDE_DIR
#define RS_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif
#ifndef RS_CUDA_LIB_DIR
#define RS_CUDA_LIB_DIR "/usr/local/cuda/lib64"
#endif

typedef struct nvrtc_prog *nvrtc_program;
static struct {
    int (*create)(nvrtc_program *, const char *, const char *, int, const char *const *,
                  const char *const *);
    int (*destroy)(nvrtc_program *);
    int (*compile)(nvrtc_program, int, const char *const *);
    int (*log_size)(nvrtc_program, size_t *);
    int (*log)(nvrtc_program, char *);
    int (*cubin_size)(nvrtc_program, size_t *);
    int (*cubin)(nvrtc_program, char *);
    int (*ptx_size)(nvrtc_program, size_t *);
    int (*ptx)(nvrtc_program, char *);
    int (*version)(int *, int *);
    const char *(*error_string)(int);
} nv;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[240];

static void load(void)
{
    const char *cands[] = {"libnvrtc.so.13", RS_CUDA_LIB_DIR "/libnvrtc.so.13",
                           "/usr/local/cuda/lib64/libnvrtc.so.13", "libnvrtc.so"};
    void *h = NULL;
    for (size_t i = 0; !h && i < sizeof cands / sizeof cands[0]; i++)
        h = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error,
                 "NVRTC is not installed (libnvrtc.so.13 not found): it ships with the CUDA "
                 "toolkit; add its lib64 folder to LD_LIBRARY_PATH");
        return;
    }
    struct {
        void **slot;
        const char *name;
    } syms[] = {{(void **)&nv.create, "nvrtcCreateProgram"},
                {(void **)&nv.destroy, "nvrtcDestroyProgram"},
                {(void **)&nv.compile, "nvrtcCompileProgram"},
                {(void **)&nv.log_size, "nvrtcGetProgramLogSize"},
                {(void **)&nv.log, "nvrtcGetProgramLog"},
                {(void **)&nv.cubin_size, "nvrtcGetCUBINSize"},
                {(void **)&nv.cubin, "nvrtcGetCUBIN"},
                {(void **)&nv.ptx_size, "nvrtcGetPTXSize"},
                {(void **)&nv.ptx, "nvrtcGetPTX"},
                {(void **)&nv.version, "nvrtcVersion"},
                {(void **)&nv.error_string, "nvrtcGetErrorString"}};
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (!(*syms[i].slot = dlsym(h, syms[i].name))) {
            snprintf(load_error, sizeof load_error, "NVRTC is too old: it lacks %s", syms[i].name);
            return;
        }
}

static const char *loaded(void)
{
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

void rs_nvrtc_lib(char *buf, size_t len)
{
    buf[0] = '\0';
    Dl_info info;
    if (!loaded() && dladdr((void *)nv.version, &info) && info.dli_fname)
        snprintf(buf, len, "%s", info.dli_fname);
}

const char *rs_nvrtc_version(rs_error *err)
{
    static char v[16];
    int major = 0, minor = 0;
    if (loaded()) return rs_fail(err, RS_E_IO, "%s", load_error), NULL;
    nv.version(&major, &minor);
    snprintf(v, sizeof v, "%d.%d", major, minor);
    return v;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The toolkit's headers (cuda_fp16.h) for the half types. */
static const char *include_dir(void)
{
    static char dir[512];
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(dir, sizeof dir, "%s/include", home);
        return dir;
    }
    return RS_CUDA_INCLUDE_DIR;
}

/* The first diagnostic of the log: its line, the source line and the caret. */
static void first_error(const char *log, char *out, size_t len)
{
    const char *e = strstr(log, ": error: ");
    if (!e) e = strstr(log, ": catastrophic error: ");
    const char *start = e ? e : log;
    while (start > log && start[-1] != '\n') start--;
    size_t n = 0;
    for (int lines = 0; start[n] && lines < 3; n++)
        if (start[n] == '\n') lines++;
    snprintf(out, len, "%.*s", (int)n, start);
    n = strlen(out);
    while (n > 0 && out[n - 1] == '\n') out[--n] = '\0';
}

static rs_status check_entry(const char *path, const rs_kernel_build *b, rs_error *err)
{
    const char *name = path;
    if (b->entries == 0)
        return rs_fail(err, RS_E_USAGE,
                       "%s: no extern \"C\" __global__ function: the file needs one entry point, "
                       "e.g. extern \"C\" __global__ void reduce(const RS_T *in, RS_ACC *out, "
                       "unsigned long long n)",
                       name);
    if (b->entries > 1)
        return rs_fail(err, RS_E_USAGE, "%s: %d __global__ functions (%s): keep one entry point",
                       name, b->entries, b->entry);
    if (strlen(b->entry) >= sizeof b->entry - 1)
        return rs_fail(err, RS_E_USAGE, "%s: the kernel's name is over %zu characters: shorten it",
                       name, sizeof b->entry - 2);
    if (strncmp(b->entry, "_Z", 2) == 0)
        return rs_fail(err, RS_E_USAGE,
                       "%s: the __global__ function is not extern \"C\" (its name is mangled: "
                       "%s); declare it extern \"C\" __global__",
                       name, b->entry);
    return RS_OK;
}

static rs_status run_nvrtc(nvrtc_program prog, const char *path, int arch, rs_compiled *out,
                           rs_error *err)
{
    char arch_opt[48], inc_opt[560];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=sm_%d", arch);
    snprintf(inc_opt, sizeof inc_opt, "--include-path=%s", include_dir());
    const char *opts[] = {
        arch_opt, "-lineinfo", "-std=c++17", "--ptxas-options=-v", "--pre-include=redscope.h",
        inc_opt};
    const int rc = nv.compile(prog, (int)(sizeof opts / sizeof opts[0]), opts);
    size_t n = 0;
    nv.log_size(prog, &n);
    char *raw = calloc(n + 1, 1);
    out->log = calloc(2 * n + 64, 1);
    if (!raw || !out->log) {
        free(raw);
        return rs_fail(err, RS_E_NOMEM, "out of host memory");
    }
    nv.log(prog, raw);
    rs_ukernel_format_log(raw, out->log, 2 * n + 64);
    free(raw);
    /* the log quotes the kernel's bytes: made safe once, for every place it is shown */
    char *safe = rs_text_safe_dup(out->log, 1);
    if (safe) {
        free(out->log);
        out->log = safe;
    }
    if (rc != 0) {
        char first[400];
        first_error(out->log, first, sizeof first);
        return rs_fail(err, RS_E_USAGE, "%s", first[0] ? first : nv.error_string(rc));
    }
    rs_ukernel_ptxas(out->log, &out->build);
    nv.cubin_size(prog, &out->cubin_len);
    out->cubin = malloc(out->cubin_len ? out->cubin_len : 1);
    if (!out->cubin) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    nv.cubin(prog, out->cubin);
    /* the entry points from the cubin's symbols: ptxas's -v lines are not
     * always in the log */
    const int n_entries =
        rs_cubin_entries(out->cubin, out->cubin_len, out->build.entry, sizeof out->build.entry);
    if (n_entries >= 0) out->build.entries = n_entries;
    return check_entry(path, &out->build, err);
}

/* Whether `word` is in the code of text or of a file it #includes "so"
 * (beside path, three deep): a helper in a .cuh may call rs_block_result. */
static int in_code(const char *path, const char *text, const char *word, int depth)
{
    if (rs_ukernel_word(text, word)) return 1;
    if (depth >= 3) return 0;
    const char *slash = strrchr(path, '/');
    for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
        const char *p = l + strspn(l, " \t");
        if (*p++ != '#') continue;
        p += strspn(p, " \t");
        if (strncmp(p, "include", 7) != 0) continue;
        p += 7 + strspn(p + 7, " \t");
        if (*p++ != '"') continue;
        const size_t n = strcspn(p, "\"\n");
        char inc[4096], *got = NULL;
        size_t len = 0;
        rs_error ignored;
        snprintf(inc, sizeof inc, "%.*s%.*s", p[0] == '/' || !slash ? 0 : (int)(slash - path + 1),
                 path, (int)n, p);
        if (rs_file_read(inc, "included file", 16u << 20, &got, &len, &ignored) != RS_OK) continue;
        const int found = in_code(inc, got, word, depth + 1);
        free(got);
        if (found) return 1;
    }
    return 0;
}

/* What the contract asks that the compiler does not check: the entry's
 * three parameters (in, out, n) as the cubin holds them, and a call of
 * rs_block_result, without which no block's result is written. */
static rs_status check_contract(const char *path, const char *text, const rs_compiled *c,
                                rs_error *err)
{
    const char *name = path;
    int sizes[8] = {0};
    const int np = rs_cubin_params(c->cubin, c->cubin_len, c->build.entry, sizes, 8);
    if (np >= 0 && (np != 3 || sizes[0] != 8 || sizes[1] != 8 || sizes[2] != 8)) {
        char list[64] = "";
        for (int i = 0, at = 0; i < np && i < 8 && at < (int)sizeof list; i++)
            at += snprintf(list + at, sizeof list - (size_t)at, "%s%d", i ? ", " : "", sizes[i]);
        return rs_fail(err, RS_E_USAGE,
                       "%s: %s takes %d parameter%s (%s%s): the contract is (const RS_T *in, "
                       "RS_ACC *out, unsigned long long n), 8 bytes each",
                       name, c->build.entry, np, np == 1 ? "" : "s", np ? list : "none",
                       np ? " bytes" : "");
    }
    if (!in_code(path, text, "rs_block_result", 0))
        return rs_fail(err, RS_E_USAGE,
                       "%s: %s never calls rs_block_result(out, v): every thread of a block "
                       "calls it once, at the end, so the block's result is written "
                       "(%s)",
                       name, c->build.entry, rs_template_path());
    return RS_OK;
}

/* The entry's parameters as C++ types, which the cubin's sizes cannot tell
 * (double n, const int *n, in and out swapped): the file compiled once
 * more with a static_assert on the entry's type after it. in may be const
 * or not, n unsigned long long or unsigned long (size_t). */
static rs_status check_signature(const char *path, const char *text, const char *prelude, int arch,
                                 const char *entry, rs_error *err)
{
    static const char check[] =
        "\ntemplate <class A, class B> struct rs_same_ { enum { value = 0 }; };\n"
        "template <class A> struct rs_same_<A, A> { enum { value = 1 }; };\n"
        "template <class F> struct rs_contract_ { enum { value =\n"
        "  rs_same_<F, void (*)(const rs_elem *, rs_acc *, unsigned long long)>::value ||\n"
        "  rs_same_<F, void (*)(rs_elem *, rs_acc *, unsigned long long)>::value ||\n"
        "  rs_same_<F, void (*)(const rs_elem *, rs_acc *, unsigned long)>::value ||\n"
        "  rs_same_<F, void (*)(rs_elem *, rs_acc *, unsigned long)>::value }; };\n"
        "static_assert(rs_contract_<decltype(&%s)>::value, \"rs_contract\");\n";
    const size_t len = strlen(text) + sizeof check + strlen(entry) + 1;
    char *src = malloc(len);
    if (!src) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    snprintf(src, len, "%s", text);
    snprintf(src + strlen(text), len - strlen(text), check, entry);
    /* the marker rs_block_result leaves in this pass alone (the build that
     * runs has none): in the PTX only where a call of it survives */
    const size_t plen = strlen(prelude) + 64;
    char *marked = malloc(plen);
    if (!marked) {
        free(src);
        return rs_fail(err, RS_E_NOMEM, "out of host memory");
    }
    snprintf(marked, plen, "#define RS_CONTRACT_PASS 1\n%s", prelude);
    const char *hdr[] = {marked}, *names[] = {"redscope.h"};
    nvrtc_program prog = NULL;
    int rc = nv.create(&prog, src, path, 1, hdr, names);
    free(src);
    free(marked);
    if (rc != 0) return rs_fail(err, RS_E_NOMEM, "NVRTC could not take the program");
    char arch_opt[48], inc_opt[560];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=compute_%d", arch);
    snprintf(inc_opt, sizeof inc_opt, "--include-path=%s", include_dir());
    const char *opts[] = {arch_opt, "-std=c++17", "--pre-include=redscope.h", inc_opt};
    rc = nv.compile(prog, (int)(sizeof opts / sizeof opts[0]), opts);
    int broke = 0, reached = -1; /* the assertion's own failure, not another of this pass */
    size_t n = 0;
    if (rc == 0 && nv.ptx_size(prog, &n) == 0 && n < (64u << 20)) {
        char *ptx = calloc(n + 1, 1);
        if (ptx && nv.ptx(prog, ptx) == 0) reached = strstr(ptx, "rs_block_result reached") != NULL;
        free(ptx);
    }
    if (rc != 0 && nv.log_size(prog, &n) == 0 && n < (64u << 20)) {
        char *log = calloc(n + 1, 1);
        if (log && nv.log(prog, log) == 0) broke = strstr(log, "rs_contract") != NULL;
        free(log);
    }
    nv.destroy(&prog);
    /* file:line: error: as the compiler's own, so editors and the explorer
     * go to the line (the dropped call where it is written, else the entry) */
    const int at = rs_ukernel_word(text, entry);
    const int call = rs_ukernel_word(text, "rs_block_result");
    if (reached == 0)
        return rs_fail(err, RS_E_USAGE,
                       "%s:%d: error: %s never reaches rs_block_result(out, v): the compiler "
                       "dropped every call of it (under #if 0, if (0), or in a helper nothing "
                       "calls); every thread of a block calls it once, at the end "
                       "(%s)",
                       path,
                       call ? call
                       : at ? at
                            : 1,
                       entry, rs_template_path());
    if (!broke) return RS_OK;
    return rs_fail(err, RS_E_USAGE,
                   "%s:%d: error: %s's parameters are not the contract's (const RS_T *in, RS_ACC "
                   "*out, unsigned long long n), in that order: an 8-byte n of another type or "
                   "in and out swapped compile, and read the wrong bytes",
                   path, at ? at : 1, entry);
}

rs_status rs_compile(const char *path, const char *text, rs_dtype t, rs_op op, int kfinish,
                     int arch, rs_compiled *out, rs_error *err)
{
    memset(out, 0, sizeof *out);
    out->arch = arch;
    if (loaded()) {
        out->log = calloc(1, 1);
        return rs_fail(err, RS_E_IO, "%s", load_error);
    }
    if (!in_code(path, text, "__global__", 0)) { /* a README, not a kernel: no 100 errors */
        out->log = calloc(1, 1);
        return rs_fail(err, RS_E_USAGE,
                       "%s: no extern \"C\" __global__ function at all: not a CUDA kernel "
                       "(start from %s)",
                       path, rs_template_path());
    }
    char prelude[8192];
    rs_ukernel_prelude(t, op, kfinish, prelude, sizeof prelude);
    const char *hdr[] = {prelude}, *names[] = {"redscope.h"};
    const double t0 = now_ms();
    nvrtc_program prog = NULL;
    int rc = nv.create(&prog, text, path, 1, hdr, names);
    if (rc != 0) {
        out->log = calloc(1, 1);
        return rs_fail(err, RS_E_NOMEM, "NVRTC could not take the program: %s",
                       nv.error_string(rc));
    }
    rs_status st = run_nvrtc(prog, path, arch, out, err);
    nv.destroy(&prog);
    if (st == RS_OK) st = check_contract(path, text, out, err);
    if (st == RS_OK) st = check_signature(path, text, prelude, arch, out->build.entry, err);
    out->ms = now_ms() - t0;
    if (!out->log) out->log = calloc(1, 1);
    return st;
}

void rs_compiled_free(rs_compiled *c)
{
    free(c->cubin);
    free(c->log);
    memset(c, 0, sizeof *c);
}
