/* Recordings as the explorer lists them: the configurations a recording
 * holds, grouped from its rows, on the shipped recording of a real H200 and
 * on a recording made without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "formats/record.h"
#include "core/text.h"

static void shipped(const char *path)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(rs_recording_load(path, &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return;
    rs_rec_config c[32];
    const int n = rs_recording_configs(&rec, c, 32);
    CHECK_MSG(n == 6, "%d configurations", n);
    char text[512];
    for (int k = 0; k < n; k++) {
        rs_rec_config_describe(&c[k], "|", text, sizeof text);
        printf("  %s\n", text);
    }
    /* the first: the int32 ladder at 2^24 with the full counter set and
     * stall views, then the float32 one with the default set */
    CHECK(strcmp(c[0].command, "ladder") == 0 && c[0].req.type == RS_INT32 &&
          c[0].req.n == (1u << 24) && strcmp(c[0].req.metrics, "full") == 0 && c[0].count == 14 &&
          c[0].req.stalls);
    CHECK(c[1].req.type == RS_FLOAT32 && c[1].req.n == (1u << 24) && c[1].req.stalls &&
          strcmp(c[1].req.metrics, "default") == 0 && c[1].count == 14);
    /* the sweep: finish atomic and 5 repetitions, as it was run, over 2^10..2^28 */
    const int s = n - 1;
    CHECK(strcmp(c[s].command, "sweep") == 0);
    CHECK_MSG(c[s].req.finish == RS_FINISH_ATOMIC, "sweep finish %d", c[s].req.finish);
    CHECK(c[s].req.reps == 5 && c[s].n_lo == 1024 && c[s].n_hi == (1u << 28));
    rs_rec_config_describe(&c[s], "|", text, sizeof text);
    CHECK_MSG(strstr(text, "finish atomic") && strstr(text, "5 reps") && strstr(text, "2^10..2^28"),
              "%s", text);
    /* every row belongs to exactly one configuration */
    int rows = 0;
    for (int k = 0; k < n; k++) rows += c[k].count;
    CHECK_MSG(rows == rec.count, "%d of %d rows", rows, rec.count);
    /* the sweep is found by its settings, and only by them */
    rs_request want = c[s].req;
    CHECK(rs_recording_find_sweep(c, n, &want) == s);
    want.finish = RS_FINISH_AUTO;
    CHECK(rs_recording_find_sweep(c, n, &want) == -1);
    want = c[s].req;
    want.type = RS_FLOAT32;
    CHECK(rs_recording_find_sweep(c, n, &want) == -1);
    rs_recording_free(&rec);
}

/* A user's own `run --variant cpu --record`, made where no GPU is. */
static void cpu_only(const char *exe, const char *dir)
{
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/test_record_cpu.jsonl", dir);
    snprintf(cmd, sizeof cmd, "%s run --variant cpu --n 2^16 --reps 3 --record %s >/dev/null", exe,
             path);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    rs_recording rec;
    rs_error err;
    const rs_status st = rs_recording_load(path, &rec, &err);
    CHECK_MSG(st == RS_OK, "%s", err.msg);
    if (st != RS_OK) return;
    rs_rec_config c[4];
    CHECK(rs_recording_configs(&rec, c, 4) == 1);
    CHECK(c[0].req.variants == (1u << RS_V_CPU) && c[0].req.n == 65536 && c[0].req.reps == 3);
    rs_recording_free(&rec);
    remove(path);
}

static void directory(const char *dir)
{
    rs_recording rec;
    rs_error err;
    CHECK(rs_recording_load(dir, &rec, &err) != RS_OK);
    CHECK_MSG(strstr(err.msg, "is a directory") != NULL, "%s", err.msg);
}

/* A ladder with several --kernel files is one configuration; each file's
 * source is kept by its hash. */
static void kernels(const char *path)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(rs_recording_load(path, &rec, &err) == RS_OK, "%s", err.msg);
    rs_rec_config c[8];
    const int n = rs_recording_configs(&rec, c, 8);
    CHECK_MSG(n == 3 && c[0].count == 18 && (c[0].req.variants & (1u << RS_V_KERNEL)),
              "%d configurations, the first of %d rows", n, n ? c[0].count : 0);
    CHECK(rec.kernel_count == 5); /* four files, lab-tail.cu again in the second recording */
    for (int i = 0; i < rec.count; i++) {
        const rs_result *r = &rec.rows[i].result;
        if (rec.rows[i].status != RS_OK || r->req.variant != RS_V_KERNEL) continue;
        const char *src = rs_recording_kernel_source(&rec, r->uk.hash);
        CHECK_MSG(src && strstr(src, "rs_block_result"), "no source for %s", r->req.kernel);
    }
    rs_recording_free(&rec);
}

/* The configurations of path's rows, each row's command replaced by `as`
 * ("" keeps it): how many, the first in *c. */
static int configs_as(const char *path, const char *as, const char *dir, rs_rec_config *c)
{
    char copy[512], line[1 << 16];
    snprintf(copy, sizeof copy, "%s/test_record_as.jsonl", dir);
    FILE *in = fopen(path, "r"), *out = fopen(copy, "w");
    while (in && out && fgets(line, sizeof line, in)) {
        char *k = strstr(line, "\"command\":\"ladder\"");
        if (k && *as) {
            *k = '\0';
            fprintf(out, "%s\"command\":\"%s\"%s", line, as, k + strlen("\"command\":\"ladder\""));
        } else
            fputs(line, out);
    }
    if (in) fclose(in);
    if (out) fclose(out);
    rs_recording rec;
    rs_error err;
    int n = -1;
    if (rs_recording_load(copy, &rec, &err) == RS_OK) {
        n = rs_recording_configs(&rec, c, 16);
        rs_recording_free(&rec);
    }
    remove(copy);
    return n;
}

/* A ladder over GPUs (each variant on one GPU, then per finish) is one
 * configuration; runs of those rows, one per spread. */
static void over_gpus(const char *path, const char *dir)
{
    rs_rec_config c[16];
    int n = configs_as(path, "", dir, c);
    const uint32_t both = (1u << RS_V_VECTORIZED) | (1u << RS_V_CUB);
    CHECK_MSG(n == 1 && c[0].count == 8 && c[0].gpus == 0 && c[0].req.gpus == 1 &&
                  c[0].seen[0] == both && c[0].seen[1 + RS_CROSS_P2P] == both,
              "%d configurations", n);
    n = configs_as(path, "run", dir, c);
    CHECK_MSG(n == 8, "runs: %d configurations, not 8", n);
}

/* Text from outside reaches a terminal escaped, not obeyed: control
 * characters, C1 and bidirectional controls and bytes that are not UTF-8
 * are written out ("\\x1b", "\\u202e"); UTF-8 whose continuation bytes lie in
 * 0x80..0x9f stays; a CRLF is a newline; one field is one line. */
static void scrub(void)
{
    char out[256];
    rs_text_safe("a\x1b[2J\xc2\x9b\x7f \xc2\xb5s \xc3\x97 \xc4\x80 \xe2\x80\xa6\tx\r\ny\rz\n", 1,
                 out, sizeof out);
    CHECK_MSG(
        strcmp(out,
               "a\\x1b[2J\\u009b\\x7f \xc2\xb5s \xc3\x97 \xc4\x80 \xe2\x80\xa6\tx\ny\\x0dz\n") == 0,
        "%s", out);
    rs_text_safe("H200\nx\ty", 0, out, sizeof out);
    CHECK_MSG(strcmp(out, "H200\\nx\\ty") == 0, "%s", out);
    rs_text_safe("left \xe2\x80\xae right \xe2\x81\xa6 \xd8\x9c \xe2\x80\x8f", 0, out, sizeof out);
    CHECK_MSG(strcmp(out, "left \\u202e right \\u2066 \\u061c \\u200f") == 0, "%s", out);
    rs_text_safe("\xc2 \xff\xfe", 1, out, sizeof out); /* not UTF-8 */
    CHECK_MSG(strcmp(out, "\\xc2 \\xff\\xfe") == 0, "%s", out);
    rs_text_safe("ab\x1b", 0, out, 6); /* cut: never inside an escape */
    CHECK_MSG(strcmp(out, "ab") == 0, "%s", out);
    rs_text_safe("\xc3\x97\xc3\x97\xc3\x97", 0, out, 6); /* nor inside a character */
    CHECK_MSG(strcmp(out, "\xc3\x97\xc3\x97") == 0, "%s", out);
    char in_place[] = "H200\x1b[2J";
    rs_text_scrub(in_place, 0); /* as much as fits in its own room */
    CHECK_MSG(strcmp(in_place, "H200") == 0 || strncmp(in_place, "H200\\x1b", 8) == 0, "%s",
              in_place);
    CHECK(!strchr(in_place, '\x1b'));
}

int main(int argc, char **argv)
{
    scrub();
    CHECK(argc > 5);
    if (argc > 5) {
        shipped(argv[1]);
        cpu_only(argv[2], argv[3]);
        directory(argv[3]);
        kernels(argv[4]);
        over_gpus(argv[5], argv[3]);
    }
    return check_report("test_record");
}
