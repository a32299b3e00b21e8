/* The textbook's stories (analysis/stories.c) told from rows recorded on
 * real GPUs: each step's explaining counter with its change against the
 * step above, as the CLI ladder, the Ladder screen and the handout show it
 * (an H200's ladders; an H100's with user kernels, held against
 * sequential); what each story expects of its counter, against every
 * recorded ladder; rows that failed, rows without counters, a base of 0,
 * small buffers: "-" or the value alone, never a NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/stories.h"
#include "core/format.h"
#include "core/row.h"
#include "formats/record.h"

static char cell[200];

static int told(const rs_row *rows, int i, int brief)
{
    memset(cell, 'x', sizeof cell);
    const int moved = rs_story_cell(rows, i, brief, cell, sizeof cell);
    CHECK_FINITE_TEXT(cell);
    return moved;
}

/* The table: a story for every step from interleaved_strided to
 * vectorized, and thrust's (its kernel time: issue 40), in ladder order, of
 * a counter or a ld/st pair of one unit. */
static void table(void)
{
    CHECK(rs_story_count == 13);
    for (int i = 0; i < rs_story_count; i++) {
        const rs_story *s = &rs_stories[i];
        CHECK((s->v >= RS_V_INTERLEAVED_STRIDED && s->v <= RS_V_VECTORIZED) ||
              (s->v == RS_V_THRUST && s->a == RS_M_DURATION));
        CHECK(i == 0 || rs_stories[i - 1].v <= s->v);
        CHECK(s->a < RS_METRIC_COUNT && s->b < RS_METRIC_COUNT);
        CHECK(s->a == s->b || (s->a == RS_M_SHLD_CONFLICTS && s->b == RS_M_SHST_CONFLICTS) ||
              (s->a == RS_M_SHLD_WAVEFRONTS && s->b == RS_M_SHST_WAVEFRONTS));
        CHECK(strcmp(rs_metric_defs[s->a].unit, rs_metric_defs[s->b].unit) == 0);
        CHECK(s->direction >= -1 && s->direction <= 1);
        CHECK(s->after && strlen(s->after) > 20 && (s->after[0] == ':' || s->after[0] == ' '));
    }
    for (int v = RS_V_INTERLEAVED_STRIDED; v <= RS_V_VECTORIZED; v++) {
        const rs_story *s = rs_story_of((rs_variant)v);
        CHECK_MSG(s && s->v == (rs_variant)v, "no story for %s", rs_variant_name((rs_variant)v));
    }
    const rs_variant none[] = {RS_V_ATOMIC, RS_V_INTERLEAVED, RS_V_CUB, RS_V_CPU, RS_V_KERNEL};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) CHECK(rs_story_of(none[i]) == NULL);
    /* the first of a step's stories explains it: the bank conflicts */
    CHECK(rs_story_of(RS_V_INTERLEAVED_STRIDED) == &rs_stories[0]);
    CHECK(rs_story_of(RS_V_INTERLEAVED_STRIDED)->a == RS_M_SHLD_CONFLICTS);
    CHECK(rs_story_of(RS_V_FIRST_ADD)->a == RS_M_WARP_INST);
}

/* The H200's int32 ladder, 2^24: every step's cell, whole and brief. */
static void h200_ladder(const rs_row *rows, int n)
{
    static const char *const want[][2] = {
        {"DRAM throughput 4%", "DRAM % 4%"},
        {"warp instructions 140.3 M ^x11", "warp inst ^x11"},
        {"bank conflicts 7.1 M ^x75", "conflicts ^x75"},
        {"bank conflicts 80.0 k v99%", "conflicts v99%"},
        {"warp instructions 33.0 M v46%", "warp inst v46%"},
        {"warp instructions 20.1 M v39%", "warp inst v39%"},
        {"warp instructions 20.4 M ^1%", "warp inst ^1%"},
        {"warp instructions 15.9 M v22%", "warp inst v22%"},
        {"DRAM throughput 57% ^49%", "DRAM % ^49%"},
        {"shared wavefronts 9726 v78%", "wavefr v78%"},
        {"warp instructions 3.9 M v5%", "warp inst v5%"},
        {"DRAM throughput 70% ^10%", "DRAM % ^10%"},
        {"DRAM throughput 69% v2%", "DRAM % v2%"},
        {"kernel time 21.1 us ^3%", "kernel ^3%"}, /* thrust: its kernels, not its DRAM */
    };
    CHECK(n == 14);
    for (int i = 0; i < n && i < 14; i++) {
        CHECK(rows[i].result.req.variant == (rs_variant)i);
        const int moved = told(rows, i, 0);
        CHECK_STR_EQ(cell, want[i][0]);
        CHECK_MSG(moved == (i > 0), "%s: %d", want[i][0], moved); /* the first: nothing above */
        CHECK(told(rows, i, 1) == moved);
        CHECK_STR_EQ(cell, want[i][1]);
    }
    /* the figure is the pair's sum: loads' and stores' conflicts */
    const rs_metrics *m = &rows[3].result.metrics;
    CHECK(m->value[RS_M_SHLD_CONFLICTS] + m->value[RS_M_SHST_CONFLICTS] == 80006.0);
    rs_notation_set(1);
    told(rows, 3, 0);
    CHECK_STR_EQ(cell, "bank conflicts 80.0 k ▼99%");
    told(rows, 2, 1);
    CHECK_STR_EQ(cell, "conflicts ▲×75");
    rs_notation_set(0);
}

/* A pair's figure of a row, as the cell sums it. */
static double figure(const rs_row *r, rs_metric_id a, rs_metric_id b)
{
    return r->result.metrics.value[a] + (a != b ? r->result.metrics.value[b] : 0.0);
}

/* What each story expects, on every recorded ladder that holds its step
 * and the one above: a fall falls, a rise rises (the cell's arrow says so
 * for the step's first story), "about the same" within 10% (DRAM read of
 * first_add within 0.5%: "="). */
static void expected_moves(const rs_recording *rec, int *ladders)
{
    rs_rec_config c[16];
    const int nc = rs_recording_configs(rec, c, 16);
    for (int k = 0; k < nc; k++) {
        const rs_row *rows = rec->rows + c[k].first;
        if (strcmp(c[k].command, "ladder") != 0 || !rows[0].result.metrics.valid) continue;
        ++*ladders;
        for (int i = 1; i < c[k].count; i++)
            for (int s = 0; s < rs_story_count; s++) {
                const rs_story *st = &rs_stories[s];
                if (st->v != rows[i].result.req.variant) continue;
                const double now = figure(&rows[i], st->a, st->b);
                const double was = figure(&rows[i - 1], st->a, st->b);
                char move[32];
                const int dir = rs_fmt_change(was, now, 0, move, sizeof move);
                if (st->direction)
                    CHECK_MSG(dir == st->direction, "%s: %s", rs_variant_name(st->v), move);
                else
                    CHECK_MSG(fabs(now / was - 1.0) < (st->a == RS_M_DRAM_READ ? 0.005 : 0.1),
                              "%s: %s", rs_variant_name(st->v), move);
                if (st != rs_story_of(st->v)) continue;
                rs_notation_set(1);
                told(rows, i, 1);
                rs_notation_set(0);
                const char *arrow = st->direction > 0 ? "▲" : "▼";
                CHECK_MSG(!st->direction || strstr(cell, arrow), "%s: %s", rs_variant_name(st->v),
                          cell);
            }
    }
}

/* Your kernel is held against sequential, not the row above: the H100's
 * template (sequential's code) is "=", fast.cu three times its DRAM
 * throughput; run alone, no counters; a kernel that faulted, "-". */
static void kernel_rows(const rs_recording *k)
{
    CHECK(k->count >= 20);
    if (k->count < 20) return;
    const rs_row *rows = k->rows;
    CHECK(rows[3].result.req.variant == RS_V_SEQUENTIAL &&
          rows[13].result.req.variant == RS_V_THRUST);
    for (int i = 14; i < 18; i++) CHECK(rows[i].result.req.variant == RS_V_KERNEL);
    CHECK(told(rows, 14, 0) == 1);
    CHECK_STR_EQ(cell, "DRAM throughput 23% =");
    CHECK(told(rows, 15, 0) == 1);
    CHECK_STR_EQ(cell, "DRAM throughput 70% ^x3");
    CHECK(told(rows, 16, 1) == 1);
    CHECK_STR_EQ(cell, "DRAM % ^5%");
    CHECK(told(rows, 17, 0) == 1);
    CHECK_STR_EQ(cell, "DRAM throughput 39% ^70%");
    CHECK(told(rows, 18, 0) == 0 && strcmp(cell, "-") == 0); /* a run without counters */
    CHECK(rows[19].status != RS_OK);
    CHECK(told(rows, 19, 0) == 0 && strcmp(cell, "-") == 0);
    /* no sequential above it: the row above (thrust, 71%) */
    static rs_row two[2];
    two[0] = rows[13];
    two[1] = rows[14];
    CHECK(told(two, 1, 0) == 1);
    CHECK_STR_EQ(cell, "DRAM throughput 23% v67%");
    two[0] = rows[3]; /* a sequential that failed: no base at all */
    two[0].status = RS_E_CUDA;
    CHECK(told(two, 1, 0) == 0);
    CHECK_STR_EQ(cell, "DRAM throughput 23%");
}

/* A row that failed or lacks its counter: "-"; a row above that failed,
 * lacks half the pair or counted 0: the value alone, no change; a figure
 * fallen to 0; buffers too small: cut, never past their length. */
static void missing(const rs_row *ladder, const rs_row *sweep)
{
    static rs_row two[2];
    CHECK(!sweep->result.metrics.valid); /* the recorded sweep: times only */
    CHECK(told(sweep, 0, 0) == 0);
    CHECK_STR_EQ(cell, "-");
    two[0] = ladder[2]; /* interleaved_strided, then sequential */
    two[1] = ladder[3];
    CHECK(told(two, 1, 0) == 1);
    CHECK_STR_EQ(cell, "bank conflicts 80.0 k v99%");
    two[0].status = RS_E_CUDA;
    CHECK(told(two, 1, 0) == 0);
    CHECK_STR_EQ(cell, "bank conflicts 80.0 k");
    two[0] = ladder[2];
    two[0].result.metrics.valid &= ~RS_METRIC_BIT(RS_M_SHST_CONFLICTS);
    CHECK(told(two, 1, 1) == 0);
    CHECK_STR_EQ(cell, "conflicts 80.0 k");
    two[0] = ladder[0]; /* atomic: no shared memory, 0 conflicts */
    CHECK(told(two, 1, 0) == 0);
    CHECK_STR_EQ(cell, "bank conflicts 80.0 k");
    two[0] = ladder[2];
    two[1].result.metrics.value[RS_M_SHLD_CONFLICTS] = 0.0;
    two[1].result.metrics.value[RS_M_SHST_CONFLICTS] = 0.0;
    CHECK(told(two, 1, 0) == 1);
    CHECK_STR_EQ(cell, "bank conflicts 0 v100%");
    two[1] = ladder[3];
    two[1].status = RS_E_MISMATCH; /* a wrong result's counters are not told */
    CHECK(told(two, 1, 0) == 0);
    CHECK_STR_EQ(cell, "-");
    two[1] = ladder[3];
    two[1].result.metrics.valid &= ~RS_METRIC_BIT(RS_M_SHLD_CONFLICTS);
    CHECK(told(two, 1, 0) == 0);
    CHECK_STR_EQ(cell, "-");
    /* a % counter that is no number reads as one that is missing: "-" */
    static rs_row eight[9];
    int me = -1;
    for (int i = 0; i < 16 && me < 0; i++)
        if (ladder[i].result.req.variant == RS_V_MULTI_ELEMENT) me = i;
    CHECK(me > 0 && me < 9);
    if (me > 0 && me < 9) {
        memcpy(eight, ladder, sizeof eight[0] * (size_t)(me + 1));
        eight[me].result.metrics.value[RS_M_DRAM_PCT] = NAN;
        told(eight, me, 0);
        CHECK_STR_EQ(cell, "DRAM throughput -");
        eight[me].result.metrics.value[RS_M_DRAM_PCT] = INFINITY;
        told(eight, me, 0);
        CHECK_STR_EQ(cell, "DRAM throughput -");
    }
    char small[12];
    memset(small, 'x', sizeof small);
    CHECK(rs_story_cell(ladder, 3, 0, small, 8) == 1);
    CHECK_STR_EQ(small, "bank co");
    CHECK(small[8] == 'x');
    small[0] = 'x';
    rs_story_cell(ladder, 3, 0, small, 0);
    CHECK(small[0] == 'x');
    rs_story_cell(ladder, 0, 1, small, 1);
    CHECK_STR_EQ(small, "");
}

int main(int argc, char **argv)
{
    rs_recording rec, kern;
    rs_error err;
    CHECK_MSG(argc > 2 && rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_stories");
    CHECK_MSG(rs_recording_load(argv[2], &kern, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_stories");
    rs_notation_set(0);
    table();
    rs_rec_config c[16];
    CHECK(rs_recording_configs(&rec, c, 16) > 5 && strcmp(c[0].command, "ladder") == 0);
    h200_ladder(rec.rows + c[0].first, c[0].count);
    missing(rec.rows + c[0].first, rec.rows + c[5].first);
    int ladders = 0;
    expected_moves(&rec, &ladders);
    expected_moves(&kern, &ladders);
    CHECK(ladders == 6);
    kernel_rows(&kern);
    rs_recording_free(&kern);
    rs_recording_free(&rec);
    return check_report("test_stories");
}
