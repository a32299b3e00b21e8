/* --check's reading of compute-sanitizer: real logs of an H100 (racecheck in
 * analysis mode on unroll_warp_volatile and unroll_warp, n 1,000,003), the
 * findings grouped by source line, the sentence, and JSON both ways. */
#include <stdlib.h>

#include "check.h"
#include "formats/check.h"
#include "core/snippets.h"

static char *slurp(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void racy(const char *dir)
{
    rs_check_report r;
    rs_check_report_init(&r, RS_CHECK_RACE);
    const char *log = slurp(dir, "racecheck-unroll_warp_volatile-h100.log");
    CHECK(log != NULL);
    if (!log) return;
    CHECK(rs_check_parse_log(&r, log) == 1);
    r.ran = 1;
    r.correct = 1;
    /* 15 reports in the log, five pairs of lines: each step writes what the
     * next step's other threads read */
    CHECK_MSG(r.total == 1010844, "total %llu", (unsigned long long)r.total);
    CHECK_MSG(r.count == 5, "%d groups", r.count);
    for (int i = 0; i < r.count; i++) {
        const rs_finding *f = &r.findings[i];
        CHECK(strcmp(f->file, "classic.cu") == 0 && f->line2 == f->line + 1);
        CHECK(strcmp(f->what, "Write / Read") == 0);
        CHECK_MSG(strcmp(f->kernel, "k_unroll_warp_volatile") == 0, "%s", f->kernel);
        CHECK(f->line >= 107 && f->line <= 111);
        const char *text = rs_kernel_line(f->file, f->line);
        CHECK_MSG(text && strstr(text, "vs[tid] = op(vs[tid], vs[tid + "), "line %d: %s", f->line,
                  text ? text : "(none)");
    }
    CHECK(r.findings[0].count + r.findings[1].count > 0);
    char s[512];
    rs_check_sentence(&r, s, sizeof s);
    CHECK_MSG(strstr(s, "The result is right on this GPU, but threads of one warp read shared "
                        "memory that others of the warp write without synchronisation: "
                        "1,010,844 hazards on lines 107") &&
                  strstr(s, "112 of classic.cu"),
              "%s", s);
    /* JSON and back: a recording replays the same report */
    cJSON *j = rs_check_to_json(&r);
    rs_check_report back;
    rs_error err;
    CHECK(rs_check_from_json(j, &back, &err) == RS_OK);
    cJSON_Delete(j);
    CHECK(back.total == r.total && back.count == r.count && back.ran && back.correct == 1);
    CHECK(back.findings[4].line == r.findings[4].line &&
          back.findings[4].count == r.findings[4].count);
}

static void clean(const char *dir)
{
    rs_check_report r;
    rs_check_report_init(&r, RS_CHECK_RACE);
    const char *log = slurp(dir, "racecheck-unroll_warp-h100.log");
    CHECK(log && rs_check_parse_log(&r, log) == 1);
    CHECK(r.total == 0 && r.count == 0);
    r.ran = 1;
    char s[512];
    rs_check_sentence(&r, s, sizeof s);
    CHECK_MSG(strncmp(s, "No shared-memory hazard", 23) == 0, "%s", s);
}

static void broken_logs(void)
{
    /* cut short, garbage, a race line without its partner, no summary */
    const char *logs[] = {"",
                          "=========",
                          "========= Warning: Race reported between Write access at",
                          "========= Warning: Race reported between Write access at k+0x1 in "
                          "a.cu:3\n",
                          "========= Invalid __global__ read of size 4 bytes\n",
                          "========= Invalid __global__ read of size 4 bytes\n=========     at "
                          "void k<int>(int*)+0x10 in /x/y/modern.cu:42\n"
                          "========= ERROR SUMMARY: 1 error\n",
                          "\n\n\n========= RACECHECK SUMMARY: 0 hazards displayed"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        rs_check_report r;
        rs_check_report_init(&r, i == 4 || i == 5 ? RS_CHECK_MEMORY : RS_CHECK_RACE);
        const int summary = rs_check_parse_log(&r, logs[i]);
        CHECK(summary == (i >= 5));
        if (i == 5)
            CHECK(r.total == 1 && r.count == 1 && r.findings[0].line == 42 &&
                  strcmp(r.findings[0].file, "modern.cu") == 0 &&
                  strcmp(r.findings[0].kernel, "k") == 0);
    }
    rs_check_report r;
    rs_check_report_init(&r, RS_CHECK_MEMORY);
    char s[512];
    rs_check_sentence(&r, s, sizeof s);
    CHECK_MSG(strncmp(s, "not checked", 11) == 0, "%s", s);
}

/* The kernel sources built into the program are the files, byte for byte
 * (quotes, backslashes, '?' and all). */
static void whole_sources(const char *data_dir)
{
    static const char *const files[] = {"classic.cu",   "unrolled.cu", "modern.cu", "library.cu",
                                        "bandwidth.cu", "dispatch.cu", "common.cuh"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/../../src/kernels/%s", data_dir, files[i]);
        FILE *f = fopen(path, "r");
        static char text[1 << 20];
        const size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        text[n] = '\0';
        const char *built = rs_kernel_source(files[i]);
        CHECK_MSG(n > 0 && built && strcmp(built, text) == 0, "%s differs from %s", files[i], path);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data";
    racy(dir);
    clean(dir);
    broken_logs();
    whole_sources(dir);
    printf("test_check: %d checks, %d failed\n", check_count, check_failures);
    return check_failures ? 1 : 0;
}
