/* PCs to source lines through a cubin's line information, as the stall
 * view maps PC samples (CUPTI reads the cubin alone: no GPU needed). The
 * cubin is tests/data/pcs_tree.cu, built with -lineinfo. */
#include <cupti.h>
#include <stdlib.h>

#include <dirent.h>

#include "check.h"
#include "cubin_files.h"
#include "core/ukernel.h"
#include "nvtools/cubin.h"
#include "nvtools/builtin_cubins.h"
#include "read_file.h"
#include "profiling/pc_sampling.h"
#include "profiling/sass_lines.h"

/* The first and last line of the function whose definition line holds
 * `needle` in a source file: from that line to the next "}" in column 0. */
static void body_lines(const char *path, const char *needle, unsigned *first, unsigned *last)
{
    FILE *f = fopen(path, "r");
    char buf[512];
    unsigned n = 0;
    *first = *last = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        n++;
        if (!*first && strstr(buf, needle)) *first = n;
        if (*first && !*last && buf[0] == '}') *last = n;
    }
    if (f) fclose(f);
}

/* Every PC of one int32-sum kernel of modern.cu (its mangled name holds
 * `mangled`, its definition line `def`) maps to its body there, to the shared
 * device code it inlines (common.cuh) or to CUDA's own headers. */
static void kernel_lines(const char *dir, int sm, const char *cubin, size_t size,
                         const char *modern, const char *mangled, const char *def)
{
    static char names[1 << 20];
    CHECK(rs_cubin_entries(cubin, size, names, sizeof names) > 10);
    char fn[512] = "";
    for (char *t = strtok(names, " "); t; t = strtok(NULL, " "))
        if (strstr(t, mangled) && strstr(t, "SumOpIi")) snprintf(fn, sizeof fn, "%s", t);
    const uint64_t code = rs_cubin_entry_size(cubin, size, fn);
    CHECK_MSG(fn[0] && code >= 256, "%s int32 sum: '%s', %llu bytes", def, fn,
              (unsigned long long)code);
    unsigned first, last;
    body_lines(modern, def, &first, &last);
    CHECK(first > 0 && last > first);
    int in_body = 0, stray = 0;
    char file[512];
    unsigned line;
    rs_error err;
    for (uint64_t pc = 0; pc < code; pc += 16) {
        if (rs_builtin_line(dir, sm, fn, pc, file, sizeof file, &line, &err) != RS_OK) continue;
        if (strstr(file, "src/kernels/modern.cu") && line >= first && line <= last)
            in_body++;
        else if (!strstr(file, "src/kernels/common.cuh") && !strstr(file, "/include/"))
            stray++,
                fprintf(stderr, "stray: pc %llu at %s:%u\n", (unsigned long long)pc, file, line);
    }
    CHECK_MSG(in_body >= 10, "%d PCs in %s's body (lines %u-%u)", in_body, def, first, last);
    CHECK(stray == 0);
    CHECK(rs_builtin_line(dir, 1, fn, 0, file, sizeof file, &line, &err) == RS_E_IO);
}

/* vectorized's kernels (large n and one block), from the cubin nvcc kept at
 * build time. */
static void builtin(const char *dir, const char *src)
{
    char path[4096], modern[4096]; /* modern.sm_90.cubin, or modern.compute_90.sm_90.cubin */
    int sm = 0;
    const char *at = cubin_path(dir, "modern.", path) ? strstr(path, ".sm_") : NULL;
    if (at) sscanf(at, ".sm_%d.cubin", &sm);
    CHECK_MSG(sm > 0, "no modern.sm_XX.cubin in %s (nvcc --keep, cmake/copy_cubins.cmake)", dir);
    if (sm <= 0) return;
    snprintf(modern, sizeof modern, "%s/src/kernels/modern.cu", src);
    size_t size = 0;
    char *cubin = read_file(path, &size);
    CHECK(cubin != NULL);
    if (!cubin) return;
    kernel_lines(dir, sm, cubin, size, modern, "12k_vectorizedI", "__global__ void k_vectorized(");
    kernel_lines(dir, sm, cubin, size, modern, "16k_vectorized_oneI",
                 "__global__ void k_vectorized_one(");
    char file[512];
    unsigned line;
    rs_error err;
    CHECK(rs_builtin_line(dir, sm, "k_nothere", 0, file, sizeof file, &line, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "k_nothere is in none of the sm_");
    free(cubin);
}

/* The sampling period follows the kernel's length: at least 9 (faster
 * loses samples unsaid, the loads' the most), about `target` samples,
 * never undefined input. A short kernel gets its samples from runs. */
static void periods(void)
{
    const double nan = 0.0 / 0.0, inf = 1.0 / 0.0;
    CHECK(rs_pcs_period(0.0885, 132, 1980000, 2e5) == 9); /* sequential 2^24, measured */
    CHECK(rs_pcs_period(1.4, 132, 1980000, 2e5) == 11);   /* 2^28: 16x longer */
    CHECK(rs_pcs_period(1e-4, 132, 1980000, 2e5) == RS_PCS_PERIOD_MIN);
    CHECK(rs_pcs_period(1e9, 132, 1980000, 2e5) == 31);
    const double bad[] = {0.0, -1.0, nan, inf};
    for (int i = 0; i < 4; i++) CHECK(rs_pcs_period(bad[i], 132, 1980000, 2e5) == 10);
    CHECK(rs_pcs_period(1.0, 0, 1980000, 2e5) == 10);
    CHECK(rs_pcs_period(1.0, 132, 0, 2e5) == 10);
    CHECK(rs_pcs_period(1.0, 132, 1980000, nan) == 10);
    CHECK(rs_pcs_period(1.0, 132, 1980000, inf) == 10);
    for (double ms = 0.01; ms < 100.0; ms *= 1.7)
        CHECK(rs_pcs_period(ms, 132, 1980000, 2e5) <= rs_pcs_period(ms * 1.7, 132, 1980000, 2e5));
    /* runs: sequential 2^24 takes ~45,000 samples a run at 9 (40,771
     * measured on an H200), vectorized ~14,000, a launch-bound 0.1 us
     * kernel 51: capped */
    CHECK(rs_pcs_runs(0.0885, 132, 1980000, 9, 5e4) == 2);
    CHECK(rs_pcs_runs(0.027, 132, 1980000, 9, 5e4) == 4);
    CHECK(rs_pcs_runs(1e-4, 132, 1980000, 9, 5e4) == RS_PCS_RUNS_MAX);
    CHECK(rs_pcs_runs(1.4, 132, 1980000, 11, 5e4) == 1);
    for (int i = 0; i < 4; i++) CHECK(rs_pcs_runs(bad[i], 132, 1980000, 9, 5e4) == 1);
    CHECK(rs_pcs_runs(1.0, 0, 1980000, 9, 5e4) == 1);
    CHECK(rs_pcs_runs(1.0, 132, 1980000, 40, 5e4) == 1);
    CHECK(rs_pcs_runs(1.0, 132, 1980000, -1, 5e4) == 1);
    CHECK(rs_pcs_runs(1.0, 132, 1980000, 9, nan) == 1);
    for (double ms = 0.001; ms < 10.0; ms *= 1.7) {
        const int p = rs_pcs_period(ms, 132, 1980000, 2e5);
        CHECK(rs_pcs_runs(ms, 132, 1980000, p, 5e4) >= 1);
        CHECK(rs_pcs_runs(ms, 132, 1980000, p, 5e4) >= rs_pcs_runs(ms * 1.7, 132, 1980000, p, 5e4));
    }
}

/* Each way CUPTI says no, in words a user can act on. */
static void refusals(void)
{
    char why[256];
    rs_pcs_explain(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "enabling", why, sizeof why);
    CHECK_STR_EQ(why, "PC sampling needs permission to profile (run as root, or set "
                      "NVreg_RestrictProfilingToAdminUsers=0)");
    rs_pcs_explain(CUPTI_ERROR_NOT_SUPPORTED, "enabling", why, sizeof why);
    CHECK_STR_EQ(why, "PC sampling is not supported on this device or system");
    rs_pcs_explain(CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, "enabling", why, sizeof why);
    CHECK_STR_EQ(why, "PC sampling is not supported on this virtualized GPU");
    rs_pcs_explain(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "enabling", why, sizeof why);
    CHECK_STR_CONTAINS(why, "(is another profiler attached?)");
    rs_pcs_explain(CUPTI_ERROR_INVALID_PARAMETER, "configuring", why, sizeof why);
    CHECK_STR_CONTAINS(why, "PC sampling failed configuring: ");
}

int main(int argc, char **argv)
{
    periods();
    refusals();
    CHECK_MSG(argc > 3, "usage: test_sass_lines CUBIN CUBIN_DIR SOURCE_DIR");
    if (argc <= 3) return check_report("test_sass_lines");
    char src[4096];
    snprintf(src, sizeof src, "%s/tests/data/pcs_tree.cu", argv[3]);
    const unsigned load = line_with(src, "@load"), nocode = line_with(src, "@nocode"),
                   sync = line_with(src, "@sync"), sync2 = line_with(src, "@sync2"),
                   add = line_with(src, "@add"), brace = line_with(src, "@brace"),
                   store = line_with(src, "@store"), first = line_with(src, "k_tree("),
                   end = line_with(src, "@end");
    CHECK(load && nocode && sync && sync2 && add && brace && store && first && end < 32);
    size_t size = 0;
    char *cubin = argc > 1 ? read_file(argv[1], &size) : NULL;
    CHECK_MSG(cubin && size > 0, "cannot read %s", argc > 1 ? argv[1] : "(no path given)");
    if (!cubin) return check_report("test_sass_lines");
    char file[512];
    unsigned line = 0, seen[32] = {0};
    rs_error err;
    int mapped = 0, outside = 0;
    /* every instruction (16 bytes on sm_90) until the function ends */
    for (uint64_t pc = 0; pc < 64 * 1024; pc += 16) {
        if (rs_sass_line(cubin, size, "k_tree", pc, file, sizeof file, &line, &err) != RS_OK) break;
        mapped++;
        CHECK_MSG(strstr(file, "pcs_tree.cu") != NULL, "pc %llu in %s", (unsigned long long)pc,
                  file);
        if (line < 32) seen[line]++;
        if (line < first || line > end) outside++;
    }
    CHECK_MSG(mapped >= 20, "%d PCs mapped", mapped);
    CHECK_MSG(outside == 0, "%d PCs on lines outside the kernel", outside);
    CHECK_MSG(seen[load] > 0, "no PC on the global load (line %u)", load);
    CHECK_MSG(seen[add] > 0, "no PC on the shared add (line %u)", add);
    CHECK_MSG(seen[sync] > 0 || seen[sync2] > 0, "no PC on a __syncthreads (lines %u, %u)", sync,
              sync2);
    CHECK_MSG(seen[store] > 0, "no PC on the block's store (line %u)", store);
    CHECK(seen[brace] == 0 && seen[nocode] == 0 && seen[2] == 0); /* a brace, ':', a comment */

    /* clear refusals */
    CHECK(rs_sass_line(cubin, size, "k_nothere", 0, file, sizeof file, &line, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "k_nothere");
    CHECK(rs_sass_line("not a cubin at all", 18, "k_tree", 0, file, sizeof file, &line, &err) ==
          RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "not a cubin");
    CHECK(rs_sass_line(NULL, 0, "k_tree", 0, file, sizeof file, &line, &err) == RS_E_IO);
    CHECK(rs_sass_line(cubin, size, "", 0, file, sizeof file, &line, &err) == RS_E_IO);
    free(cubin);
    builtin(argv[2], argv[3]);
    return check_report("test_sass_lines");
}
