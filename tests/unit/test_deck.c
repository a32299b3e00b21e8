/* The lecture's deck (lecture/deck.h) from the shipped H200 recording: its
 * slides in order, a step built part by part with its code change, the
 * racy step's caveat from the recorded racecheck, bars within their scale,
 * and decks of nothing, of rows that did not run and of a NaN kept whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/format.h"
#include "formats/record.h"
#include "lecture/deck.h"

static int has(const rs_slide *s, const char *part, rs_deck_kind kind, const char *needle)
{
    for (int p = 0; p < s->nparts; p++)
        for (int i = 0; i < s->part[p].count; i++)
            if ((!part || strcmp(s->part[p].name, part) == 0) && s->part[p].item[i].kind == kind &&
                (!needle || strstr(s->part[p].item[i].text, needle)))
                return 1;
    return 0;
}

static int part_at(const rs_slide *s, const char *name)
{
    for (int p = 0; p < s->nparts; p++)
        if (strcmp(s->part[p].name, name) == 0) return p;
    return -1;
}

static void demo(const rs_recording *rec, rs_slide *s)
{
    rs_rec_config c[16];
    const int nc = rs_recording_configs(rec, c, 16);
    CHECK(nc >= 2);
    rs_deck d;
    rs_deck_init(&d, rec->rows + c[0].first, c[0].count, rec->checks, rec->check_count, "test");
    CHECK_MSG(rs_deck_count(&d) == 16, "%d slides", rs_deck_count(&d)); /* 14 steps, cpu out */
    rs_deck_slide(&d, 0, s);
    CHECK(strcmp(s->title, "The reduction ladder on NVIDIA H200") == 0 && s->row < 0);
    CHECK(has(s, NULL, RS_DK_BIG, "GB/s") && strstr(s->notes[0], "Ask first"));
    rs_deck_slide(&d, 4, s); /* sequential: its parts in the order a key builds them */
    CHECK_MSG(strncmp(s->title, "4. sequential:", 14) == 0, "%s", s->title);
    const int idea = part_at(s, "The idea"), q = part_at(s, "The question"),
              ans = part_at(s, "The answer"), st = part_at(s, "Where warps wait"),
              bars = part_at(s, "The ladder so far");
    CHECK(idea == 0 && q == 1 && ans == 2 && st == 3 && bars == 4);
    CHECK(has(s, "The idea", RS_DK_ADD, "tid < stride") && has(s, "The idea", RS_DK_DEL, NULL));
    CHECK(has(s, "The answer", RS_DK_BIG, "87.5") &&
          has(s, "The answer", RS_DK_SAY, "bank conflicts"));
    CHECK(has(s, "Where warps wait", RS_DK_SAY, "classic.cu:69"));
    int nbars = 0;
    for (int i = 0; bars >= 0 && i < s->part[bars].count; i++) {
        const rs_deck_item *it = &s->part[bars].item[i];
        nbars += it->kind == RS_DK_BAR;
        CHECK(it->frac >= 0.0 && it->frac <= 1.0);
    }
    CHECK_MSG(nbars == 4, "the ladder so far: %d bars", nbars);
    int next = 0, asks = 0;
    for (int i = 0; i < s->nnotes; i++) {
        next |= strncmp(s->notes[i], "Next: 5. first_add", 18) == 0;
        asks |= strncmp(s->notes[i], "Ask the room", 12) == 0;
    }
    CHECK(next && asks);
    rs_deck_slide(&d, 6, s); /* the racy step: racecheck's finding, at the ladder's n */
    CHECK(has(s, "Caveats", RS_DK_WARN, "as racecheck found it (int32, n 2^24)"));
    rs_deck_slide(&d, 7, s); /* its fix carries no race */
    CHECK(!has(s, "Caveats", RS_DK_WARN, "data race"));
    rs_deck_slide(&d, 15, s);
    CHECK(strcmp(s->title, "The whole ladder against the wall") == 0);
    CHECK(has(s, NULL, RS_DK_BIG, "19.4") && has(s, "The biggest steps", RS_DK_SAY, NULL));
}

/* Rows that did not run: a deck of their slides that says so; a NaN time
 * or bandwidth draws no bar out of its scale; no rows, no deck. */
static void odd_rows(const rs_recording *rec, rs_slide *s)
{
    rs_deck d;
    rs_deck_init(&d, NULL, 0, NULL, 0, NULL);
    CHECK(rs_deck_count(&d) == 0);
    rs_row rows[3];
    memcpy(rows, rec->rows, sizeof rows);
    for (int i = 0; i < 3; i++) {
        rows[i].status = RS_E_USAGE;
        snprintf(rows[i].error, sizeof rows[i].error, "not run yet");
    }
    rs_deck_init(&d, rows, 3, NULL, 0, "live");
    CHECK(rs_deck_count(&d) == 5);
    rs_deck_slide(&d, 1, s);
    CHECK(has(s, "It did not run", RS_DK_BAD, "not run yet"));
    rs_deck_slide(&d, 4, s);
    CHECK(part_at(s, "Nothing has run yet") == 0);
    memcpy(rows, rec->rows, sizeof rows);
    rows[1].result.gbps = NAN;
    rows[2].result.gbps = INFINITY;
    rs_deck_init(&d, rows, 3, NULL, 0, "odd");
    rs_deck_slide(&d, 3, s);
    const int bars = part_at(s, "The ladder so far");
    for (int i = 0; bars >= 0 && i < s->part[bars].count; i++)
        CHECK(isfinite(s->part[bars].item[i].frac) && s->part[bars].item[i].frac <= 1.0);
}

int main(int argc, char **argv)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(argc > 1 && rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_deck");
    rs_notation_set(1);
    rs_slide *s = malloc(sizeof *s);
    demo(&rec, s);
    odd_rows(&rec, s);
    free(s);
    rs_recording_free(&rec);
    return check_report("test_deck");
}
