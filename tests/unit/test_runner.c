/* The runner over a recording source, the one path every command and the
 * explorer take: rows in order, progress, recording as rows are made, a
 * refusal as a row, a fatal status that stops the list, and a cancel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/catalogue.h"
#include "formats/source_recording.h"
#include "core/runner.h"

typedef struct seen {
    int progress_calls, rows, last_index;
    double last_done;
    volatile int cancel;
    int cancel_after; /* rows; 0: never */
} seen;

static void on_progress(void *ctx, int index, int total, double done, const char *label)
{
    seen *s = ctx;
    s->progress_calls++;
    s->last_index = index;
    s->last_done = done;
    (void)total, (void)label;
}

static void on_row(void *ctx, int index, const rs_row *row)
{
    seen *s = ctx;
    s->rows++;
    (void)index, (void)row;
    if (s->cancel_after && s->rows == s->cancel_after) s->cancel = 1;
}

/* The first ladder of the shipped recording, as requests. */
static int ladder_requests(const rs_recording *rec, rs_request *reqs)
{
    rs_rec_config c[16];
    const int n = rs_recording_configs(rec, c, 16);
    CHECK(n > 0 && strcmp(c[0].command, "ladder") == 0);
    int k = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if (c[0].req.variants & (1u << v))
            rs_request_for_variant(&c[0].req, (rs_variant)v, &reqs[k++]);
    return k;
}

int main(int argc, char **argv)
{
    CHECK(argc > 2);
    if (argc < 3) return check_report("test_runner");
    rs_error err;
    rs_recording rec;
    CHECK_MSG(rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    rs_source *src;
    CHECK(rs_source_recording_borrow(&rec, &src, &err) == RS_OK);
    CHECK(strcmp(src->device(src)->name, "NVIDIA H200") == 0);
    rs_request reqs[RS_VARIANT_COUNT + 1];
    int n = ladder_requests(&rec, reqs);
    CHECK(n == 14);
    /* a request the recording does not hold: a refused row, the list goes on */
    reqs[n] = reqs[0];
    reqs[n].type = RS_FLOAT16;
    n++;

    /* rows in order, progress, and every row recorded as it is made */
    char path[512];
    snprintf(path, sizeof path, "%s/test_runner.jsonl", argv[2]);
    rs_recorder recorder;
    CHECK(rs_record_open(&recorder, path, src->device(src), &err) == RS_OK);
    seen s = {0};
    const rs_runner_record keep = rs_recorder_hook(&recorder);
    rs_runner rn = {
        src, {RS_ASK_RUN, "ladder", NULL, NULL}, &keep, &s.cancel, on_progress, NULL, on_row, &s};
    rs_row rows[RS_VARIANT_COUNT + 1];
    int done = 0;
    CHECK(rs_runner_run(&rn, reqs, n, rows, &done, &err) == RS_OK);
    CHECK(rs_record_close(&recorder, &err) == RS_OK);
    CHECK(done == n && s.rows == n);
    CHECK(s.progress_calls >= 2 * n && s.last_index == n - 1 && s.last_done == 1.0);
    CHECK(rows[3].status == RS_OK && rows[3].result.req.variant == RS_V_SEQUENTIAL);
    CHECK(rows[n - 1].status == RS_E_USAGE && strstr(rows[n - 1].error, "not in the recording"));
    CHECK(rs_runner_exit(rows, done, 1) == 0); /* a refusal fails nothing */
    rs_recording again;
    /* every row that ran; the replay's "not in the recording" is no run */
    CHECK_MSG(rs_recording_load(path, &again, &err) == RS_OK && again.count == n - 1, "%s",
              err.msg);
    CHECK(again.count == n - 1 && strcmp(again.command[0], "ladder") == 0);
    rs_recording_free(&again);

    /* a wrong result and a failed run earn their exit statuses */
    rows[2].result.correct = 0;
    CHECK(rs_runner_exit(rows, done, 1) == RS_E_MISMATCH);
    rows[4].status = RS_E_CUDA;
    CHECK(rs_runner_exit(rows, done, 1) == RS_E_CUDA);
    rows[4].status = RS_E_NOMEM;
    CHECK(rs_runner_exit(rows, done, 0) == RS_E_MISMATCH && rs_runner_exit(rows, done, 1) == 5);

    /* cancel between rows: what was made is kept */
    memset(&s, 0, sizeof s);
    s.cancel_after = 3;
    rn.record = NULL;
    CHECK(rs_runner_run(&rn, reqs, n, rows, &done, &err) == RS_E_CANCELLED);
    CHECK_MSG(done == 3 && strstr(err.msg, "3 of 15"), "%d: %s", done, err.msg);

    /* a fatal row (recorded where no device was) stops the list */
    rs_row *fatal = &rec.rows[5];
    const rs_status kept = fatal->status;
    fatal->status = RS_E_NODEVICE;
    snprintf(fatal->error, sizeof fatal->error, "no CUDA device is visible");
    memset(&s, 0, sizeof s);
    const rs_request *at = &fatal->result.req;
    int stop = -1;
    for (int i = 0; i < n && stop < 0; i++)
        if (reqs[i].variant == at->variant) stop = i;
    CHECK(rs_runner_run(&rn, reqs, n, rows, &done, &err) == RS_E_NODEVICE);
    CHECK_MSG(done == stop + 1 && strstr(err.msg, "no CUDA device"), "%d %d %s", done, stop,
              err.msg);
    fatal->status = kept;

    /* a list that stops at its first failure (the all-reduce's ranks): the
     * refused last row stops it, the rows before it kept */
    memset(&s, 0, sizeof s);
    rn.stop_on_failure = 1;
    reqs[4].type = RS_FLOAT16; /* not in the recording: refused */
    CHECK(rs_runner_run(&rn, reqs, n, rows, &done, &err) == RS_E_USAGE);
    CHECK_MSG(done == 5 && rows[4].status == RS_E_USAGE && strstr(err.msg, "first failed point"),
              "%d %s", done, err.msg);
    rn.counters_last = 1; /* the live path stops the same way */
    CHECK(rs_runner_run(&rn, reqs, n, rows, &done, &err) == RS_E_USAGE && done == 5);

    rs_source_close(src);
    rs_recording_free(&rec);
    remove(path);
    return check_report("test_runner");
}
