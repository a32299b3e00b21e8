/* Output formats, recordings and JSON round trips, on real results of the
 * engine's cpu variant (which needs no GPU). */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"
#include "formats/export.h"
#include "formats/record.h"
#include "analysis/ladder.h"

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, arg);
    fclose(f);
    return buf;
}

static const rs_row *g_rows;
static int g_count;
static rs_format g_fmt;

static void print_ladder(FILE *f, const void *unused)
{
    (void)unused;
    rs_print_ladder(f, g_rows, g_count, g_fmt, 1);
}

static void print_run(FILE *f, const void *row)
{
    rs_print_run(f, row, g_fmt);
}

static int count_char(const char *s, char c, const char *end)
{
    int n = 0;
    int quoted = 0;
    for (; *s && s != end; s++) {
        if (*s == '"') quoted = !quoted;
        if (*s == c && !quoted) n++;
    }
    return n;
}

int main(void)
{
    rs_engine *e = NULL;
    rs_error err;
    CHECK(rs_engine_open(&e, 0, &err) == RS_OK);
    rs_row rows[3];
    memset(rows, 0, sizeof rows);
    rs_request r;
    rs_request_defaults(&r);
    r.variant = RS_V_CPU;
    r.n = 100003;
    r.reps = 3;
    r.warmup = 1;
    r.type = RS_FLOAT32;
    rows[0].status = rs_engine_run(e, &r, NULL, &rows[0].result, &err);
    CHECK_MSG(rows[0].status == RS_OK, "%s", err.msg);
    CHECK(rows[0].result.correct && rows[0].result.t_median_ms > 0.0);
    CHECK(rows[0].result.t_min_ms <= rows[0].result.t_median_ms &&
          rows[0].result.t_median_ms <= rows[0].result.t_max_ms);
    /* A refused row, and a row that is wrong. */
    rows[1].status = RS_E_USAGE;
    rows[1].result.req = r;
    rows[1].result.req.variant = RS_V_SEQUENTIAL;
    snprintf(rows[1].error, sizeof rows[1].error, "needs a \"power-of-two\" blockDim");
    rows[2] = rows[0];
    rows[2].result.correct = 0;
    rows[2].result.bad_reps = 2;
    rows[2].result.t_median_ms = rows[0].result.t_median_ms / 2.0; /* twice as fast, */
    rows[2].result.t_min_ms = rows[0].result.t_min_ms / 2.0;       /* every figure so */
    rows[2].result.t_max_ms = rows[0].result.t_max_ms / 2.0;
    rows[2].result.gbps = rows[0].result.gbps * 2.0;
    rows[2].result.pct_peak = rows[0].result.pct_peak * 2.0;

    /* JSON round trip keeps every figure. */
    cJSON *j = rs_result_to_json(&rows[0].result);
    rs_result back;
    CHECK(rs_result_from_json(j, &back, &err) == RS_OK);
    CHECK(rs_request_equal(&back.req, &rows[0].result.req));
    CHECK(back.t_median_ms == rows[0].result.t_median_ms && back.correct);
    CHECK(back.got.f == rows[0].result.got.f && back.expected.f == rows[0].result.expected.f);
    CHECK(back.block == rs_result_block(&rows[0].result) && !rs_result_chose_block(&back));
    cJSON_Delete(j);
    /* a variant's own blockDim travels, and the device's floors */
    rs_result chose = rows[0].result;
    chose.block = 1024;
    chose.device.floor_empty_us = 2.5;
    chose.device.floor_launch_us = 3.9;
    j = rs_result_to_json(&chose);
    CHECK(rs_result_from_json(j, &back, &err) == RS_OK);
    CHECK(back.block == 1024 && rs_result_chose_block(&back) == (chose.req.block != 1024));
    CHECK(back.device.floor_empty_us == 2.5 && back.device.floor_launch_us == 3.9);
    CHECK(!rs_result_stalls(&back)->requested && !cJSON_GetObjectItemCaseSensitive(j, "stalls"));
    cJSON_Delete(j);
    /* a stall view travels with its result; none is written where none was asked */
    static rs_stalls view;
    view.requested = view.valid = 1;
    rs_stalls_add(&view, "classic.cu", 40, rs_stall_kind("short_scoreboard"), 7);
    chose.stalls = &view;
    j = rs_result_to_json(&chose);
    CHECK(rs_result_from_json(j, &back, &err) == RS_OK);
    const rs_stalls *got = rs_result_stalls(&back);
    CHECK(got != &view && got->valid && got->nlines == 1 && got->line[0].line == 40);
    CHECK(got->total == 7);
    cJSON_Delete(j);

    g_rows = rows;
    g_count = 3;
    g_fmt = RS_FMT_TABLE;
    char *t = capture(print_ladder, NULL);
    CHECK_STR_CONTAINS(t, "cpu");
    CHECK_STR_CONTAINS(t, "refused: needs a");
    CHECK_STR_CONTAINS(t, "WRONG");
    CHECK_STR_CONTAINS(t, "x2.00"); /* row 3 is twice as fast as row 1 */
    free(t);
    CHECK(rs_ladder_step_speedup(rows, 2) > 1.99 && rs_ladder_step_speedup(rows, 2) < 2.01);
    CHECK(rs_ladder_cumulative_speedup(rows, 0) == 1.0);
    CHECK(rs_ladder_step_speedup(rows, 1) == 0.0);

    g_fmt = RS_FMT_CSV;
    t = capture(print_ladder, NULL);
    const char *nl = strchr(t, '\n');
    const int header_commas = count_char(t, ',', nl);
    for (const char *line = nl + 1; *line;) {
        const char *end = strchr(line, '\n');
        CHECK_MSG(count_char(line, ',', end) == header_commas, "CSV row with other columns: %.*s",
                  (int)(end - line), line);
        line = end + 1;
    }
    free(t);

    g_fmt = RS_FMT_JSON;
    t = capture(print_ladder, NULL);
    cJSON *parsed = cJSON_Parse(t);
    CHECK(parsed && cJSON_GetArraySize(cJSON_GetObjectItem(parsed, "rows")) == 3);
    cJSON_Delete(parsed);
    free(t);

    g_fmt = RS_FMT_TABLE;
    t = capture(print_run, &rows[2]);
    CHECK_STR_CONTAINS(t, "WRONG: got");
    CHECK_STR_CONTAINS(t, "in 2 of 3 repetitions");
    free(t);

    /* A recording reads back row for row, and finds a run by its request. */
    char path[] = "/tmp/rs_test_recXXXXXX";
    const int fd = mkstemp(path);
    close(fd);
    rs_recorder rec;
    CHECK(rs_record_open(&rec, path, rs_engine_device(e), &err) == RS_OK);
    for (int i = 0; i < 3; i++) CHECK(rs_record_row(&rec, &rows[i], "ladder", &err) == RS_OK);
    CHECK(rs_record_close(&rec, &err) == RS_OK);
    rs_recording loaded;
    CHECK_MSG(rs_recording_load(path, &loaded, &err) == RS_OK, "%s", err.msg);
    CHECK(loaded.count == 3 && loaded.has_device);
    CHECK(loaded.rows[1].status == RS_E_USAGE && strstr(loaded.rows[1].error, "power-of-two"));
    const rs_row *found = rs_recording_find(&loaded, &r, "ladder");
    CHECK(found == &loaded.rows[2]); /* the last matching row */
    rs_request other = r;
    other.n = 5;
    CHECK(rs_recording_find(&loaded, &other, NULL) == NULL);
    rs_recording_free(&loaded);
    FILE *f = fopen(path, "a");
    fputs("{not json\n", f);
    fclose(f);
    CHECK(rs_recording_load(path, &loaded, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, ":5: not a JSON line");
    unlink(path);
    rs_engine_close(e);
    return check_report("test_export");
}
