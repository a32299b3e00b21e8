/* What crosses the boundaries (core/result.c, core/stalls.c's kept views,
 * the explorer's events): a result and an event stay small, since rows are
 * kept by the hundred thousand and events queue between threads; a stall
 * view lives out of line, kept once and shared by pointer, and a result
 * without one reads as "none asked". */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/result.h"
#include "core/row.h"
#include "ui/worker.h"

static void sizes(void)
{
    /* a row holds what it has: per-launch counters, the GPUs' shares and
     * the stall view are kept beside it (rs_keep), not inline (issue 41:
     * 100,000 sweep rows took 1 GB at 10 KB a row) */
    CHECK_MSG(sizeof(rs_result) < 3 * 1024, "rs_result is %zu bytes", sizeof(rs_result));
    CHECK_MSG(sizeof(rs_row) < 4 * 1024, "rs_row is %zu bytes", sizeof(rs_row));
    CHECK_MSG(sizeof(ui_event) < 4 * 1024, "ui_event is %zu bytes", sizeof(ui_event));
    CHECK_MSG(sizeof(rs_request) < 2 * 1024, "rs_request is %zu bytes", sizeof(rs_request));
}

static void kept_views(void)
{
    rs_result r;
    memset(&r, 0, sizeof r);
    CHECK(rs_result_stalls(&r) && !rs_result_stalls(&r)->requested);
    CHECK(!rs_result_stalls(NULL)->requested);
    static rs_stalls s;
    s.requested = s.valid = 1;
    rs_stalls_add(&s, "classic.cu", 40, rs_stall_kind("short_scoreboard"), 7);
    const rs_stalls *k = rs_stalls_keep(&s);
    CHECK(k && k != &s && k->valid && k->nlines == 1 && k->total == 7);
    s.total = 99; /* the kept copy is its own */
    CHECK(k && k->total == 7);
    r.stalls = k;
    rs_result copy = r; /* copies share it */
    CHECK(rs_result_stalls(&copy) == k);
    CHECK(rs_stalls_keep(NULL) == NULL);
}

/* Views kept from several threads at once (the worker and the screen). */
static void *keep_many(void *arg)
{
    static rs_stalls s;
    const rs_stalls **out = arg;
    for (int i = 0; i < 64; i++) out[i] = rs_stalls_keep(&s);
    return NULL;
}

static void threads(void)
{
    const rs_stalls *got[4][64];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, keep_many, got[i]);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    int distinct = 1;
    for (int i = 0; i < 4 * 64; i++)
        for (int j = 0; j < i && distinct; j++)
            distinct = got[i / 64][i % 64] && got[i / 64][i % 64] != got[j / 64][j % 64];
    CHECK_MSG(distinct, "two kept views share one place");
}

int main(void)
{
    sizes();
    kept_views();
    threads();
    return check_report("test_result");
}
