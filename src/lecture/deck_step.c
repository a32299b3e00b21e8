/* A step's slide, in the order a key builds it: the idea and its code
 * against the step before, the question, the answer, where warps wait,
 * the ladder so far, the caveats; and the speaker's notes for it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ladder.h"
#include "analysis/stories.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "core/size.h"
#include "core/snippets.h"
#include "deck.h"
#include "formats/check.h"
#include "why.h"

enum { LINES = 64 };

/* A snippet's lines (trimmed of their trailing blanks): their count. */
static int split(const char *code, char lines[LINES][RS_DECK_TEXT])
{
    int n = 0;
    while (code && *code && n < LINES) {
        size_t len = strcspn(code, "\n");
        size_t keep = len;
        while (keep > 0 && (code[keep - 1] == ' ' || code[keep - 1] == '\t')) keep--;
        snprintf(lines[n++], RS_DECK_TEXT, "%.*s", (int)(keep < 300 ? keep : 300), code);
        code += len;
        if (*code == '\n') code++;
    }
    return n;
}

/* The key lines of v against those of base, as a diff (a longest common
 * run of lines kept, the rest dropped or added), into p. */
static void code_change(rs_variant base, rs_variant v, rs_deck_part *p)
{
    static char a[LINES][RS_DECK_TEXT], b[LINES][RS_DECK_TEXT];
    static unsigned char lcs[LINES + 1][LINES + 1];
    const int na = (int)base >= 0 ? split(rs_kernel_snippet(base), a) : 0;
    const int nb = split(rs_kernel_snippet(v), b);
    for (int i = na; i >= 0; i--)
        for (int j = nb; j >= 0; j--)
            lcs[i][j] = i == na || j == nb ? 0
                        : strcmp(a[i], b[j]) == 0
                            ? (unsigned char)(lcs[i + 1][j + 1] + 1)
                            : (lcs[i + 1][j] > lcs[i][j + 1] ? lcs[i + 1][j] : lcs[i][j + 1]);
    int i = 0, j = 0, room = RS_DECK_ITEMS - p->count - 1, left = 0;
    while (i < na || j < nb) {
        rs_deck_kind k;
        const char *text;
        if (i < na && j < nb && strcmp(a[i], b[j]) == 0)
            k = RS_DK_CODE, text = b[j], i++, j++;
        else if (i < na && (j == nb || lcs[i + 1][j] >= lcs[i][j + 1]))
            k = RS_DK_DEL, text = a[i++];
        else
            k = RS_DK_ADD, text = b[j++];
        if (room-- > 0)
            rs_deck_add(p, k, text);
        else
            left++;
    }
    if (left) {
        char more[80];
        snprintf(more, sizeof more, "(%d more key lines: W on the explorer shows the whole source)",
                 left);
        rs_deck_add(p, RS_DK_SAY, more);
    }
}

static void idea_part(const rs_result *r, const rs_result *base, rs_slide *s)
{
    const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
    rs_deck_part *p = rs_deck_part_new(s, "The idea"); /* the title says it in one line */
    rs_deck_add(p, RS_DK_SAY, vi->change);
    if (r->req.variant == RS_V_KERNEL) return;
    const int from = base && base->req.variant != RS_V_KERNEL ? (int)base->req.variant : -1;
    if (from >= 0) {
        char line[700];
        snprintf(line, sizeof line, "Its key lines against %s's (+ added, - dropped):",
                 rs_variant_name(base->req.variant));
        rs_deck_add(p, RS_DK_SAY, line);
    }
    code_change((rs_variant)from, r->req.variant, p);
}

/* The counter a step's story watches, named; "" for none. */
static const char *story_counter(rs_variant v)
{
    const rs_story *e = rs_story_of(v);
    return e ? rs_metric_pair_label(e->a, e->b) : "";
}

static void question_part(const rs_result *r, const rs_result *base, const char *blabel,
                          rs_slide *s)
{
    if (!base) return;
    char t[32], line[700];
    rs_fmt_time(base->t_median_ms, rs_notation_utf8(), t, sizeof t);
    rs_deck_part *p = rs_deck_part_new(s, "The question");
    snprintf(line, sizeof line, "%s took %s. Will %s be faster or slower, and by how much?", blabel,
             t, rs_request_name(&r->req));
    rs_deck_add(p, RS_DK_SAY, line);
    const rs_story *e = rs_story_of(r->req.variant);
    if (e) {
        snprintf(line, sizeof line, "Which counter moves, and which way? Watch %s.",
                 story_counter(r->req.variant));
        rs_deck_add(p, RS_DK_SAY, line);
        rs_deck_note(s, "The textbook: %s should %s at this step.", story_counter(r->req.variant),
                     e->direction < 0   ? "fall"
                     : e->direction > 0 ? "rise"
                                        : "stay the same");
    }
    rs_deck_note(s, "Ask the room: %s", p->item[0].text);
}

static void answer_part(const rs_deck *d, int row, const rs_result *base, const char *blabel,
                        rs_slide *s)
{
    const rs_result *r = &d->rows[row].result;
    const int utf8 = rs_notation_utf8();
    rs_deck_part *p = rs_deck_part_new(s, "The answer");
    char t[32], x[32], line[700];
    rs_fmt_time(r->t_median_ms, utf8, t, sizeof t);
    rs_deck_item *it = rs_deck_add(p, RS_DK_BIG, t);
    if (it) snprintf(it->label, sizeof it->label, "median time");
    const double sp = base ? rs_ladder_step_speedup(d->rows, row) : 0.0;
    if (sp > 0.0 && isfinite(sp)) {
        rs_fmt_ratio(sp, utf8, x, sizeof x);
        it = rs_deck_add(p, RS_DK_BIG, x);
        if (it) snprintf(it->label, sizeof it->label, "against %s", blabel);
    }
    char bw[32];
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &ceil);
    if (c != RS_CEIL_NONE)
        snprintf(line, sizeof line, "%s GB/s, %.0f%% of %s (%.0f%% of peak).",
                 rs_fmt_gbps(r->gbps, bw, sizeof bw), rs_result_pct_ceiling(r),
                 rs_ceiling_phrase(c), r->pct_peak);
    else
        snprintf(line, sizeof line, "%s GB/s, %.1f%% of peak.", rs_fmt_gbps(r->gbps, bw, sizeof bw),
                 r->pct_peak);
    rs_deck_add(p, RS_DK_SAY, line);
    char cell[160] = "";
    const int moved = rs_story_cell(d->rows, row, 0, cell, sizeof cell);
    if (strcmp(cell, "-") != 0) {
        snprintf(line, sizeof line, "The counter that explains it: %s%s", cell,
                 moved ? " against the step above." : ".");
        rs_deck_add(p, RS_DK_SAY, line);
    }
    char said[12][256];
    const int n = rs_why_some(r, base, blabel, "--metrics on a GPU collects them",
                              RS_WHY_STORY | RS_WHY_ENERGY, said, 12);
    for (int k = 0; k < n; k++) rs_deck_add(p, RS_DK_SAY, said[k]);
    snprintf(line, sizeof line, "Numbers: %s", t);
    if (sp > 0.0 && isfinite(sp)) {
        size_t at = strlen(line);
        snprintf(line + at, sizeof line - at, ", %s against %s", x, blabel);
    }
    rs_deck_note(s, "%s; %s GB/s%s%s.", line, bw, cell[0] && strcmp(cell, "-") ? "; " : "",
                 strcmp(cell, "-") ? cell : "");
}

static void stalls_part(const rs_result *r, rs_slide *s)
{
    char said[4][256];
    const int n = rs_why_some(r, NULL, NULL, NULL, RS_WHY_STALLS, said, 4);
    if (!n) return;
    rs_deck_part *p = rs_deck_part_new(s, "Where warps wait");
    for (int k = 0; k < n; k++) rs_deck_add(p, RS_DK_SAY, said[k]);
}

/* The race of a racy step: racecheck's count where held (its n named
 * where it is not the step's), else how to see it. */
static void race(const rs_deck *d, const rs_result *r, rs_deck_part *p, rs_slide *s)
{
    if (!rs_variant_has(r->req.variant, RS_VF_RACY)) return;
    const rs_recorded_check *best = NULL;
    for (int i = 0; i < d->nchecks; i++) {
        const rs_recorded_check *c = &d->checks[i];
        if (c->req.variant != r->req.variant || c->report.kind != RS_CHECK_RACE || !c->report.ran)
            continue;
        const int score = (c->req.type == r->req.type) * 2 + (c->req.n == r->req.n);
        const int had = best ? (best->req.type == r->req.type) * 2 + (best->req.n == r->req.n) : -1;
        if (score > had) best = c;
    }
    char line[700];
    if (best && best->report.total) {
        char n[32], sent[400];
        rs_format_size(best->req.n, n, sizeof n);
        rs_check_sentence(&best->report, sent, sizeof sent);
        snprintf(line, sizeof line, "A data race, as racecheck found it (%s, n %s): %s",
                 rs_dtype_name(best->req.type), n, sent);
    } else {
        snprintf(line, sizeof line,
                 "A data race: its last warp relies on threads running in lockstep, which Volta "
                 "and later GPUs no longer promise; a right result here does not make the code "
                 "right (run --variant %s --check race shows it on a GPU).",
                 rs_variant_name(r->req.variant));
    }
    rs_deck_add(p, RS_DK_WARN, line);
    rs_deck_note(s, "This GPU: %s", line);
}

static void caveats_part(const rs_deck *d, int row, const rs_result *base, const char *blabel,
                         rs_slide *s)
{
    const rs_result *r = &d->rows[row].result;
    rs_deck_part p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "Caveats");
    race(d, r, &p, s);
    char said[8][256];
    const int n = rs_why_some(r, base, blabel, NULL, RS_WHY_CAVEAT, said, 8);
    for (int k = 0; k < n; k++) {
        rs_deck_add(&p, r->correct ? RS_DK_WARN : RS_DK_BAD, said[k]);
        rs_deck_note(s, "This GPU: %s", said[k]);
    }
    const double sp = base ? rs_ladder_step_speedup(d->rows, row) : 0.0;
    if (sp > 0.0 && sp < 0.95 && !rs_variant_has(r->req.variant, RS_VF_EACH_ATOMIC)) {
        char x[32], line[700];
        rs_fmt_ratio(sp, rs_notation_utf8(), x, sizeof x);
        snprintf(line, sizeof line,
                 "Slower than %s here (%s): the textbook's gain does not show on this GPU at "
                 "this configuration.",
                 blabel, x);
        rs_deck_add(&p, RS_DK_WARN, line);
    }
    if (p.count) {
        rs_deck_part *q = rs_deck_part_new(s, "Caveats");
        if (q) *q = p;
    }
}

void rs_deck_step_slide(const rs_deck *d, int k, rs_slide *s)
{
    const int row = d->step[k];
    const rs_row *rw = &d->rows[row];
    const rs_result *r = &rw->result;
    rs_deck_title(d, k + 1, s->title, sizeof s->title);
    const rs_row *b = rs_deck_base(d, row);
    const rs_result *base = b ? &b->result : NULL;
    char blabel[96] = "";
    if (base) rs_request_label(&base->req, blabel, sizeof blabel);
    idea_part(r, base, s);
    if (rw->status != RS_OK) {
        rs_deck_part *p = rs_deck_part_new(s, "It did not run");
        rs_deck_add(p, RS_DK_BAD, rw->error);
        rs_deck_note(s, "This step did not run: %s", rw->error);
        return;
    }
    question_part(r, base, blabel, s);
    answer_part(d, row, base, blabel, s);
    stalls_part(r, s);
    rs_deck_bars(d, k, rs_deck_part_new(s, "The ladder so far"));
    caveats_part(d, row, base, blabel, s);
}
