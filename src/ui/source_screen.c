/* The Source screen (W): where the selected result's warps waited, line by
 * line, from its stall view (PC sampling): each line's share of the
 * samples as a bar, its top reason and its source text; the hottest lines
 * stand out; the cursor's line shows every reason, what its waits stand on
 * and the code inlined inside it. A pinned result with a view stands
 * beside it on a wide terminal; d compares two views line by line
 * (source_diff.c). Enter runs the selected variant with PC sampling. Works
 * from a recording exactly as from the GPU. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "source_screen.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "core/snippets.h"
#include "core/sass_op.h"
#include "analysis/stall_diff.h"
#include "core/stalls.h"
#include "draw.h"

#define SRC_HOT 3 /* lines drawn as hot */

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Is line i among the SRC_HOT lines with the most samples? */
static int is_hot(const rs_stalls *s, int i)
{
    int above = 0;
    for (int k = 0; k < s->nlines; k++)
        if (s->line[k].samples > s->line[i].samples) above++;
    return above < SRC_HOT && s->line[i].samples > 0;
}

/* The widest file:line of the view (at most 24 columns). */
static int where_width(const rs_stalls *s, int w_panel)
{
    const int cap = w_panel >= 110 ? 24 : w_panel >= 90 ? 20 : 16; /* the code keeps its room */
    int w = 8;
    for (int i = 0; i < s->nlines; i++) {
        char where[64];
        const int n = snprintf(where, sizeof where, "%s:%u", s->line[i].file, s->line[i].line);
        if (n > w) w = n;
    }
    return w < cap ? w : cap;
}

/* file:line in ww columns: where it is longer, its end (the line) stays. */
static void fit_where(char *where, size_t len, int ww)
{
    const int n = (int)strlen(where);
    if (n <= ww || ww < 4) return;
    char tail[64];
    snprintf(tail, sizeof tail, "%s%s", ui_theme_utf8() ? "\xe2\x80\xa6" : "~",
             where + n - (ww - 1));
    snprintf(where, len, "%s", tail);
}

static void draw_line(const rs_stalls *s, int i, int y, int x, int w, int cur)
{
    const rs_stall_line *l = &s->line[i];
    int kind[1];
    uint64_t n[1];
    char where[64], why[96] = "";
    snprintf(where, sizeof where, "%s:%u", l->file, l->line);
    if (rs_stalls_top(s, l, 1, kind, n) == 1) {
        const rs_stall_def *d = rs_stall_kind_def(kind[0]);
        rs_stall_name(d, why, sizeof why);
    }
    const ui_role role = cur ? R_SELECTED : is_hot(s, i) ? R_ACCENT : R_NORMAL;
    const double share = pct(l->samples, s->total);
    const int ww = where_width(s, w), bar = w > 90 ? 10 : 0, reason = w > 70 ? 18 : 0;
    fit_where(where, sizeof where, ww);
    const int fill = ww - ui_width(where);
    if (cur) ui_blank(y, x, w, R_SELECTED);
    ui_putf(y, x, w, role, "%c%s%*s %5.1f%%", is_hot(s, i) ? '>' : ' ', where, fill > 0 ? fill : 0,
            "", share);
    int tx = x + ww + 9;
    if (bar) ui_bar(y, tx, bar, share / 100.0, cur ? R_SELECTED : R_BAR);
    tx += bar ? bar + 1 : 0;
    ui_putf(y, tx, x + w - tx, role, "%-*.*s%s%s", reason, reason, why, reason ? " " : "", l->text);
}

/* What the cursor's line leads to: its waits' instructions, then the
 * code inside it; returns the rows drawn. */
static int draw_links(const rs_stalls *s, const rs_stall_line *l, int y, ui_rect r)
{
    int k[2], rows = 0;
    const int nw = rs_stalls_links_of(s, l, RS_LINK_WAITS, k, 2);
    for (int j = 0; j < nw && y + rows < r.y + r.h; j++, rows++) {
        const rs_stall_link *w = &s->link[k[j]];
        char what[64];
        rs_sass_what(w->name, what, sizeof what); /* its instruction: the SASS panel (s) */
        ui_putf(y + rows, r.x, r.w, R_ACCENT, "%5.1f%%  wait for the %s on %s:%u: %s",
                pct(w->samples, l->samples), what, w->to_file, w->to_line, w->text);
    }
    if (rs_stalls_links_of(s, l, RS_LINK_INSIDE, k, 1) == 1 && y + rows < r.y + r.h)
        ui_putf(y + rows++, r.x, r.w, R_DIM, "%5.1f%%  inside %s",
                pct(s->link[k[0]].samples, l->samples), s->link[k[0]].name);
    return rows;
}

/* Every reason of the cursor's line, most samples first, after what its
 * waits stand on and the code inlined inside it. */
static void draw_reasons(const rs_stalls *s, int i, ui_rect r)
{
    if (i < 0 || i >= s->nlines) return;
    const rs_stall_line *l = &s->line[i];
    int kinds[RS_STALL_KINDS];
    uint64_t n[RS_STALL_KINDS];
    const int c = rs_stalls_top(s, l, RS_STALL_KINDS, kinds, n);
    char count[32];
    rs_fmt_count((double)l->samples, count, sizeof count);
    ui_putf(r.y, r.x, r.w, R_TITLE, "%s:%u, %s sample%s:", l->file, l->line, count,
            l->samples == 1 ? "" : "s");
    int used = 1 + draw_links(s, l, r.y + 1, r);
    if (!s->causes && s->causes_why[0] && used < r.h)
        ui_putf(r.y + used++, r.x, r.w, R_DIM, "waits not traced: %s", s->causes_why);
    for (int k = 0; k < c && k + used < r.h; k++) {
        char words[128];
        rs_stall_kind_words(kinds[k], words, sizeof words);
        ui_putf(r.y + used + k, r.x, r.w, R_NORMAL, "%5.1f%%  %s", pct(n[k], l->samples), words);
    }
}

/* The samples by function (library code under the call on the line). */
static void draw_funcs(const rs_stalls *s, ui_rect r)
{
    int order[RS_STALL_FUNCS];
    const int nf = rs_stalls_funcs_sorted(s, order);
    ui_putf(r.y, r.x, r.w, R_TITLE, "%s", nf ? "by function:" : "by function: not recorded");
    for (int k = 0; k < nf && k + 1 < r.h; k++) {
        const rs_stall_func *f = &s->func[order[k]];
        int kind[1];
        uint64_t n[1];
        char why[48] = "";
        if (rs_stalls_top_func(f, 1, kind, n) == 1) {
            const rs_stall_def *d = rs_stall_kind_def(kind[0]);
            rs_stall_name(d, why, sizeof why);
        }
        ui_putf(r.y + 1 + k, r.x, r.w, R_NORMAL, "%5.1f%%  %-28.28s %s", pct(f->samples, s->total),
                f->name, why);
    }
}

/* The SASS of the cursor's line (s), each instruction with its samples. */
static void draw_sass(const ui_app *a, const rs_stalls *s, ui_rect r)
{
    const int cur = a->src->cur;
    if (cur < 0 || cur >= s->nlines) return;
    if (a->src->nsass == UI_SASS_WAIT) {
        ui_putf(r.y, r.x, r.w, R_DIM, "SASS of %s:%u: nvdisasm is reading the kernel %s",
                s->line[cur].file, s->line[cur].line, ui_spinner(a->tick));
        return;
    }
    if (a->src->nsass < 0) {
        ui_putf(r.y, r.x, r.w, R_WARN, "SASS: %s", a->src->why);
        return;
    }
    ui_putf(r.y, r.x, r.w, R_TITLE,
            "SASS of %s:%u (%d instructions; s hides it):", s->line[cur].file, s->line[cur].line,
            a->src->nsass);
    for (int k = 0; k < a->src->nsass && k + 1 < r.h; k++) {
        const rs_sass_insn *in = &a->src->insn[k];
        ui_putf(r.y + 1 + k, r.x, r.w, in->samples ? R_NORMAL : R_DIM, "%04llx %6.1f%%  %s",
                (unsigned long long)in->offset, pct(in->samples, s->line[cur].samples), in->text);
    }
}

/* Below the lines: the SASS of the cursor's line, or its reasons and the
 * samples by function, under each other at full width where the rows
 * allow, else side by side (wide) or the reasons alone. */
static void draw_detail(const ui_app *a, const rs_stalls *s, int cur, ui_rect d)
{
    const int funcs = s->nfuncs ? s->nfuncs + 1 : 0;
    if (cur >= 0 && a->src->sass) {
        draw_sass(a, s, d);
    } else if (funcs && d.h - funcs >= 8) { /* the reasons' lines whole, the functions under */
        draw_reasons(s, cur, (ui_rect){d.y, d.x, d.h - funcs - 1, d.w});
        draw_funcs(s, (ui_rect){d.y + d.h - funcs, d.x, funcs, d.w});
    } else if (d.w >= 110) { /* the line's reasons beside the functions */
        draw_reasons(s, cur, (ui_rect){d.y, d.x, d.h, d.w / 2 - 1});
        draw_funcs(s, (ui_rect){d.y, d.x + d.w / 2 + 1, d.h, d.w - d.w / 2 - 1});
    } else {
        draw_reasons(s, cur, d);
    }
}

/* Rows the detail takes in a view of h rows: half for the SASS; else 8,
 * or what the lines leave free up to 20. */
static int detail_rows(const ui_app *a, const rs_stalls *s, int cur, int h)
{
    if (cur >= 0 && a->src->sass) return h / 2;
    if (h < 16) return 0;
    const int free_rows = h - 1 - s->nlines - 1;
    return free_rows > 8 ? (free_rows < 20 ? free_rows : 20) : 8;
}

/* One result's view in rectangle r: its lines (scrolled to the cursor),
 * and below them, where detail is set and there is room, the cursor's
 * line told in full. Returns 0 where it has no view. */
static int draw_view(const ui_app *a, const rs_result *res, const char *label, ui_rect r, int cur,
                     int detail)
{
    const rs_stalls *s = rs_result_stalls(res);
    if (!s->valid) {
        ui_putf(r.y, r.x, r.w, R_WARN, "%s: %s", label,
                res->req.variant == RS_V_CPU
                    ? "no stall view: the CPU baseline runs on a host thread, not on the GPU"
                : s->requested ? s->why
                : a->replay    ? "no stall view: the recording holds no PC samples of it"
                : ui_enter_does(a) == UI_ENTER_COMPILES
                    ? "no stall view: PC sampling needs an NVIDIA GPU (R replays a recording)"
                    : "no stall view: Enter runs it with PC sampling");
        return 0;
    }
    char taken[32], dropped[32];
    rs_fmt_count((double)s->total, taken, sizeof taken);
    rs_fmt_count((double)s->dropped, dropped, sizeof dropped);
    char runs[32] = "";
    if (s->runs > 1) snprintf(runs, sizeof runs, " over %d runs", s->runs);
    ui_putf(r.y, r.x, r.w, R_TITLE, "%s: %s sample%s%s, %s dropped, every 2^%d cycles", label,
            taken, s->total == 1 ? "" : "s", runs, dropped, 5 + s->period);
    const int below = detail ? detail_rows(a, s, cur, r.h) : 0;
    const int rows = r.h - 1 - below;
    int first = ui_list_first(cur, rows);
    for (int k = 0; k < rows && first + k < s->nlines; k++)
        draw_line(s, first + k, r.y + 1 + k, r.x, r.w, first + k == cur);
    if (below) draw_detail(a, s, cur, (ui_rect){r.y + r.h - below + 1, r.x, below - 1, r.w});
    return 1;
}

/* The pinned view beside the shown one, where the screen is wide enough:
 * both lists side by side, the cursor's line in full across the width. */
#define SIDE_BY_SIDE 150

static void draw_beside(const ui_app *a, const rs_result *res, const rs_result *pin,
                        const char *label, ui_rect in)
{
    const int half = (in.w - 2) / 2,
              below = detail_rows(a, rs_result_stalls(res), a->src->cur, in.h);
    char plabel[160];
    ui_pinned_label(a, &res->req, plabel, sizeof plabel);
    const int h = in.h - below;
    if (draw_view(a, res, label, (ui_rect){in.y, in.x, h, half}, a->src->cur, 0) && below)
        draw_detail(a, rs_result_stalls(res), a->src->cur,
                    (ui_rect){in.y + h + 1, in.x, below - 1, in.w});
    draw_view(a, pin, plabel, (ui_rect){in.y, in.x + half + 2, h, half}, -1, 0);
}

void ui_draw_source(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[256], label[96];
    ui_settings_title(&a->cfg, "Source: where warps wait", r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const rs_result *res = ui_result_for(a, (rs_variant)a->sel);
    const rs_result *pin =
        a->has_pin && rs_result_stalls(&a->pinned.result)->valid ? &a->pinned.result : NULL;
    char name[RS_NOTE_MAX];
    snprintf(label, sizeof label, "%s", ui_variant_label(a, (rs_variant)a->sel, name, sizeof name));
    const ui_rect in = {r.y + 1, r.x + 2, r.h - 2, r.w - 4};
    if (!res) {
        ui_putf(in.y, in.x, in.w, R_DIM, "%s has no result for these settings: %s", label,
                a->replay ? "Enter shows its recorded samples, if there are any."
                : ui_enter_does(a) == UI_ENTER_COMPILES
                    ? "PC sampling needs an NVIDIA GPU; R replays a recording."
                    : "Enter runs it with PC sampling.");
        return;
    }
    if (a->src->diff) {
        ui_draw_source_diff(a, res, in);
        return;
    }
    if (pin && pin != res && in.w >= SIDE_BY_SIDE) {
        draw_beside(a, res, pin, label, in);
        return;
    }
    if (pin && pin != res) /* said where it is not shown: on the box's border */
        ui_putf(r.y + r.h - 1, r.x + 2, r.w - 4, R_DIM,
                " the pinned view stands beside this from %d columns; d compares line by line ",
                SIDE_BY_SIDE + 4);
    draw_view(a, res, label, in, a->src->cur, 1);
}

/* The SASS panel's instructions for the cursor's line: asked of the
 * worker (nvdisasm takes a while), now or once it is idle; the answer to
 * the latest request alone is kept (ui_source_take_sass). */
static void load_sass(ui_app *a, const rs_stalls *s)
{
    a->src->nsass = -1;
    a->src->sass_queued = 0;
    a->src->sass_tag++;
    if (a->src->cur < 0 || a->src->cur >= s->nlines) {
        snprintf(a->src->why, sizeof a->src->why, "no line under the cursor");
        return;
    }
    if (!a->worker) {
        snprintf(a->src->why, sizeof a->src->why, "no worker thread to run nvdisasm on");
        return;
    }
    a->src->nsass = UI_SASS_WAIT;
    a->src->sass_queued = 1;
    ui_source_sass_retry(a);
}

void ui_source_sass_retry(ui_app *a)
{
    if (!a->src->sass_queued || !a->src->sass || a->screen != UI_SCREEN_SOURCE) return;
    const rs_result *res = ui_result_for(a, (rs_variant)a->sel);
    const rs_stalls *s = res && rs_result_stalls(res)->valid ? rs_result_stalls(res) : NULL;
    if (!s || a->src->cur < 0 || a->src->cur >= s->nlines) {
        a->src->sass_queued = 0;
        return;
    }
    const rs_stall_line *l = &s->line[a->src->cur];
    const rs_stall_owner o = {res->req.variant, a->cfg.kernel};
    if (ui_worker_submit_sass(a->worker, s, l->file, l->line, &o, a->src->sass_tag))
        a->src->sass_queued = 0;
}

void ui_source_take_sass(ui_app *a, const ui_event *ev)
{
    if (ev->index == a->src->sass_tag && a->src->nsass == UI_SASS_WAIT) {
        const int n = ev->nsass > 0 && ev->nsass <= UI_SASS_MAX ? ev->nsass : 0;
        if (n) memcpy(a->src->insn, ev->insn, sizeof *ev->insn * (size_t)n);
        snprintf(a->src->why, sizeof a->src->why, "%.255s", ev->msg);
        a->src->nsass = n ? n : -1; /* the why says no instruction is there, or what is missing */
        if (!n) ui_status(a, R_WARN, "SASS: %.255s", ev->msg); /* said where s was pressed, too */
    }
}

/* Enter in replay: the recorded samples of the selected variant, or why
 * there are none. */
static void replay_samples(ui_app *a)
{
    rs_request r;
    ui_request_for(a, (rs_variant)a->sel, &r);
    r.stalls = 1;
    const rs_row *row = rs_recording_find(&a->rec, &r, NULL);
    if (row && row->status == RS_OK && rs_result_stalls(&row->result)->valid) {
        a->cfg.stalls = 1;
        a->src->sass = 0;
        ui_run_variant(a);
        return;
    }
    char name[RS_NOTE_MAX];
    ui_status(a, R_WARN,
              "not recorded: this recording holds no PC samples of %s with these settings (R "
              "lists what it holds)",
              ui_variant_label(a, (rs_variant)a->sel, name, sizeof name));
}

/* d: the comparison on or off; the cursor goes to its first row. */
static void toggle_diff(ui_app *a, const rs_result *res)
{
    char name[RS_NOTE_MAX + 48];
    if (!a->src->diff && (!res || !rs_result_stalls(res)->valid)) {
        ui_status(a, R_WARN, "no stall view here to compare: Enter samples first");
        return;
    }
    a->src->diff = !a->src->diff;
    a->src->sass = 0;
    a->src->cur = 0;
    if (a->src->diff && !ui_source_against(a, res, name, sizeof name))
        ui_status(a, R_WARN,
                  "nothing to compare with: pin a result (p), or sample the previous "
                  "step");
    else if (a->src->diff)
        ui_status(a, R_NORMAL, "line by line against %s (d: back to the lines)", name);
    else
        ui_status(a, R_NORMAL, "the lines again (d compares two views)");
}

/* The shown view's line a comparison's row stands for (its cursor kept
 * when s leaves the comparison for the lines); 0 where it has none. */
static int line_of(const rs_stalls *s, const rs_stall_delta *d)
{
    for (int i = 0; d && d->line && i < s->nlines; i++)
        if (s->line[i].line == d->line && strcmp(s->line[i].file, d->file) == 0) return i;
    return 0;
}

int ui_key_source(ui_app *a, ui_action act)
{
    const rs_result *res = ui_result_for(a, (rs_variant)a->sel);
    const int nlines = res && rs_result_stalls(res)->valid ? rs_result_stalls(res)->nlines : 0;
    int n = nlines;
    static rs_stall_delta d[RS_STALL_DELTAS];
    if (a->src->diff && n) {
        char name[RS_NOTE_MAX + 48];
        n = ui_source_diff(a, res, d, RS_STALL_DELTAS, name, sizeof name);
    }
    switch (act) {
    case UI_ACT_DIFF: toggle_diff(a, res); return 1;
    case UI_ACT_UP:
        a->src->cur = ui_list_step(a->src->cur, -1, n, 0);
        if (a->src->sass && n) load_sass(a, rs_result_stalls(res));
        return 1;
    case UI_ACT_DOWN:
        a->src->cur = ui_list_step(a->src->cur, 1, n, 0);
        if (a->src->sass && n) load_sass(a, rs_result_stalls(res));
        return 1;
    case UI_ACT_SASS:
        if (a->src->diff) { /* back to the lines, on the one the cursor stood for */
            a->src->cur =
                nlines ? line_of(rs_result_stalls(res), a->src->cur < n ? &d[a->src->cur] : NULL)
                       : 0;
            a->src->diff = 0;
            ui_status(a, R_NORMAL, "the lines again (d compares two views, s shows SASS)");
            return 1; /* back to the lines: SASS is s again from there */
        }
        a->src->sass = !a->src->sass && n;
        if (a->src->sass) load_sass(a, rs_result_stalls(res));
        if (!n) ui_status(a, R_WARN, "no stall view here: Enter samples first");
        return 1;
    case UI_ACT_RUN:
        if (a->replay) {
            replay_samples(a);
            return 1;
        }
        if (!a->cfg.stalls) ui_status(a, R_NORMAL, "PC sampling on (w turns it off)");
        a->cfg.stalls = 1; /* this screen is the stall view's: sample from now on */
        a->src->sass = 0;  /* the new run's instructions differ */
        ui_run_variant(a);
        return 1;
    default: return 0;
    }
}

/* Open on the hottest line of the selected result. */
int ui_open_source(ui_app *a)
{
    const rs_result *res = ui_result_for(a, (rs_variant)a->sel);
    a->src->cur =
        res && rs_result_stalls(res)->valid ? rs_stalls_hottest(rs_result_stalls(res)) : 0;
    if (a->src->cur < 0) a->src->cur = 0;
    a->src->sass = 0;
    a->src->diff = 0;
    return 1;
}
