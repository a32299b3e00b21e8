/* The Source screen (W): where the selected result's warps waited, line by
 * line, from its stall view (PC sampling): each line's share of the
 * samples as a bar, its top reason and its source text; the hottest lines
 * stand out; the cursor's line shows every reason, what its waits stand on
 * and the code inlined inside it. A pinned result with a view stands
 * beside it on a wide terminal; d compares two views line by line
 * (source_diff.c). A cut list or detail says so and scrolls (Up/Down,
 * PgDn/PgUp). Enter runs the selected variant with PC sampling. Works
 * from a recording exactly as from the GPU. */
#include <curses.h>
#include <stdarg.h>
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

/* The detail under the lines, as rows of text: the cursor's line told in
 * full and the samples by function after it, or its SASS. The rows are
 * made once, then drawn whole where they fit, else scrolled ([ ]) with
 * a mark saying what is hidden: nothing is cut silently. */
#define SRC_ROWS (16 + RS_STALL_KINDS + RS_STALL_FUNCS + UI_SASS_MAX)

typedef struct {
    int n, nr; /* rows; the first nr the line's (or its SASS), the rest its functions */
    ui_role role[SRC_ROWS];
    char text[SRC_ROWS][256];
} src_detail;

static void add_row(src_detail *d, ui_role role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_row(src_detail *d, ui_role role, const char *fmt, ...)
{
    if (d->n >= SRC_ROWS) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->text[d->n], sizeof d->text[0], fmt, ap);
    va_end(ap);
    d->role[d->n++] = role;
}

/* A sentence over as many rows as width asks. */
static void add_wrapped(src_detail *d, ui_role role, int width, const char *text)
{
    char lines[6][256];
    const int n = ui_wrap(text, width, lines, 6);
    for (int i = 0; i < n; i++) add_row(d, role, "%s", lines[i]);
}

/* What the cursor's line leads to: its waits' instructions, then the
 * code inside it. */
static void add_links(src_detail *d, const rs_stalls *s, const rs_stall_line *l)
{
    int k[2];
    const int nw = rs_stalls_links_of(s, l, RS_LINK_WAITS, k, 2);
    for (int j = 0; j < nw; j++) {
        const rs_stall_link *w = &s->link[k[j]];
        char what[64];
        rs_sass_what(w->name, what, sizeof what); /* its instruction: the SASS panel (s) */
        add_row(d, R_ACCENT, "%5.1f%%  wait for the %s on %s:%u: %s", pct(w->samples, l->samples),
                what, w->to_file, w->to_line, w->text);
    }
    if (rs_stalls_links_of(s, l, RS_LINK_INSIDE, k, 1) == 1)
        add_row(d, R_DIM, "%5.1f%%  inside %s", pct(s->link[k[0]].samples, l->samples),
                s->link[k[0]].name);
}

/* Every reason of the cursor's line, most samples first, after what its
 * waits stand on and the code inlined inside it. */
static void add_reasons(src_detail *d, const rs_stalls *s, int i, int width)
{
    if (i < 0 || i >= s->nlines) return;
    const rs_stall_line *l = &s->line[i];
    int kinds[RS_STALL_KINDS];
    uint64_t n[RS_STALL_KINDS];
    const int c = rs_stalls_top(s, l, RS_STALL_KINDS, kinds, n);
    char count[32], why[320];
    rs_fmt_count((double)l->samples, count, sizeof count);
    add_row(d, R_TITLE, "%s:%u, %s sample%s:", l->file, l->line, count, l->samples == 1 ? "" : "s");
    add_links(d, s, l);
    if (!s->causes && s->causes_why[0]) {
        snprintf(why, sizeof why, "waits not traced: %s", s->causes_why);
        add_wrapped(d, R_DIM, width, why);
    }
    for (int k = 0; k < c; k++) {
        char words[128];
        rs_stall_kind_words(kinds[k], words, sizeof words);
        add_row(d, R_NORMAL, "%5.1f%%  %s", pct(n[k], l->samples), words);
    }
}

/* The samples by function (library code under the call on the line). */
static void add_funcs(src_detail *d, const rs_stalls *s)
{
    int order[RS_STALL_FUNCS];
    const int nf = rs_stalls_funcs_sorted(s, order);
    add_row(d, R_TITLE, "%s", nf ? "by function:" : "by function: not recorded");
    for (int k = 0; k < nf; k++) {
        const rs_stall_func *f = &s->func[order[k]];
        int kind[1];
        uint64_t n[1];
        char why[48] = "";
        if (rs_stalls_top_func(f, 1, kind, n) == 1) {
            const rs_stall_def *def = rs_stall_kind_def(kind[0]);
            rs_stall_name(def, why, sizeof why);
        }
        add_row(d, R_NORMAL, "%5.1f%%  %-28.28s %s", pct(f->samples, s->total), f->name, why);
    }
}

/* The SASS of the cursor's line (s), each instruction with its samples. */
static void add_sass(src_detail *d, const ui_app *a, const rs_stalls *s, int width)
{
    const int cur = a->src->cur;
    if (cur < 0 || cur >= s->nlines) return;
    char why[320];
    if (a->src->nsass == UI_SASS_WAIT) {
        add_row(d, R_DIM, "SASS of %s:%u: nvdisasm is reading the kernel %s", s->line[cur].file,
                s->line[cur].line, ui_spinner(a->tick));
        return;
    }
    if (a->src->nsass < 0) {
        snprintf(why, sizeof why, "SASS: %s", a->src->why);
        add_wrapped(d, R_WARN, width, why);
        return;
    }
    add_row(d, R_TITLE, "SASS of %s:%u (%d instructions; s hides it):", s->line[cur].file,
            s->line[cur].line, a->src->nsass);
    for (int k = 0; k < a->src->nsass; k++) {
        const rs_sass_insn *in = &a->src->insn[k];
        add_row(d, in->samples ? R_NORMAL : R_DIM, "%04llx %6.1f%%  %s",
                (unsigned long long)in->offset, pct(in->samples, s->line[cur].samples), in->text);
    }
}

static void detail_fill(const ui_app *a, const rs_stalls *s, int cur, int width, src_detail *d)
{
    d->n = 0;
    if (cur >= 0 && a->src->sass) {
        add_sass(d, a, s, width);
        d->nr = d->n;
        return;
    }
    add_reasons(d, s, cur, width);
    d->nr = d->n;
    add_funcs(d, s);
}

/* The rows of the detail in one column, the functions a blank row under
 * the line's. */
static int detail_total(const src_detail *d)
{
    return d->n > d->nr ? d->n + 1 : d->n;
}

/* Whether the detail in r is one column scrolled: neither whole in a
 * column nor, on a wide screen, whole side by side. */
static int detail_scrolls(const src_detail *d, ui_rect r)
{
    const int funcs = d->n - d->nr;
    if (detail_total(d) <= r.h) return 0;
    return !(funcs && r.w >= 110 && d->nr <= r.h && funcs <= r.h);
}

static void put_rows(const src_detail *d, int from, int to, ui_rect r)
{
    for (int k = 0; k < r.h && from + k < to; k++)
        ui_put(r.y + k, r.x, r.w, d->role[from + k], d->text[from + k]);
}

/* Below the lines: the detail's rows whole, the functions at the foot;
 * else the line's beside its functions (wide); else one column from the
 * scrolled row, its mark on the frame under it. */
static void draw_detail(const ui_app *a, const src_detail *d, ui_rect r)
{
    const int funcs = d->n - d->nr, total = detail_total(d);
    if (total <= r.h) {
        put_rows(d, 0, d->nr, r);
        put_rows(d, d->nr, d->n, (ui_rect){r.y + r.h - funcs, r.x, funcs, r.w});
        return;
    }
    if (!detail_scrolls(d, r)) {
        put_rows(d, 0, d->nr, (ui_rect){r.y, r.x, r.h, r.w / 2 - 1});
        put_rows(d, d->nr, d->n, (ui_rect){r.y, r.x + r.w / 2 + 1, r.h, r.w - r.w / 2 - 1});
        return;
    }
    const int first = ui_scroll_first(a->src->scroll, total, r.h);
    for (int k = 0; k < r.h && first + k < total; k++) {
        const int i = first + k < d->nr ? first + k : first + k - 1; /* past the blank row */
        if (first + k != d->nr) ui_put(r.y + k, r.x, r.w, d->role[i], d->text[i]);
    }
    char mark[64];
    const int mw = ui_more_text(first, r.h, total, "[ ]", mark, sizeof mark);
    ui_put(r.y + r.h, r.x + r.w - mw, mw, R_DIM, mark);
}

/* Rows the detail takes under the lines of a view of h rows, the blank
 * row between counted: half for the SASS; else 8, or what the lines
 * leave free up to what it holds (at least 20); on a short view, what
 * they leave free or none. */
static int detail_rows(const ui_app *a, const rs_stalls *s, int h, const src_detail *d)
{
    if (a->src->cur >= 0 && a->src->sass) return h / 2;
    const int free_rows = h - 1 - s->nlines, want = detail_total(d) + 1;
    if (h < 16) return free_rows >= 4 ? free_rows : 0;
    const int cap = want > 20 ? want : 20;
    return free_rows > 8 ? (free_rows < cap ? free_rows : cap) : 8;
}

/* The detail of the view in `in` (filled in d) and its rectangle under
 * the lines, a blank row between (h 0: none); the frame's row under it
 * holds its mark. */
static ui_rect detail_rect(const ui_app *a, const rs_stalls *s, ui_rect in, src_detail *d)
{
    detail_fill(a, s, a->src->cur, in.w, d);
    const int below = detail_rows(a, s, in.h, d);
    return (ui_rect){in.y + in.h - below + 1, in.x, below > 1 ? below - 1 : 0, in.w};
}

/* The lines of a view in rows from y, scrolled to the cursor; a cut list
 * says which lines show on the row under them (sep: a blank row there,
 * else its last row is the mark's). */
static void draw_lines(const rs_stalls *s, int cur, int y, int rows, int sep, ui_rect r)
{
    if (s->nlines > rows && !sep) rows--;
    if (rows < 1) return;
    const int first = ui_list_first(cur, rows);
    int k = 0;
    for (; k < rows && first + k < s->nlines; k++)
        draw_line(s, first + k, y + k, r.x, r.w, first + k == cur);
    if (s->nlines > rows) {
        char mark[64];
        ui_more_text(first, k, s->nlines, cur >= 0 ? "(Up/Down)" : "", mark, sizeof mark);
        ui_put(y + rows, r.x, r.w, R_DIM, mark);
    }
}

/* One result's view in rectangle r: its lines (scrolled to the cursor),
 * and below them, where detail is set and there is room, the cursor's
 * line told in full. sep: a blank row follows r. Returns 0 where it has
 * no view. */
static int draw_view(const ui_app *a, const rs_result *res, const char *label, ui_rect r, int cur,
                     int detail, int sep)
{
    const rs_stalls *s = rs_result_stalls(res);
    if (!s->valid) {
        char why[512];
        snprintf(why, sizeof why, "%s: %s", label,
                 res->req.variant == RS_V_CPU
                     ? "no stall view: the CPU baseline runs on a host thread, not on the GPU"
                 : s->requested ? s->why
                 : a->replay    ? "no stall view: the recording holds no PC samples of it"
                 : ui_enter_does(a) == UI_ENTER_COMPILES
                     ? "no stall view: PC sampling needs an NVIDIA GPU (R replays a recording)"
                     : "no stall view: Enter runs it with PC sampling");
        ui_put_wrapped(r, R_WARN, why);
        return 0;
    }
    char taken[32], dropped[32];
    rs_fmt_count((double)s->total, taken, sizeof taken);
    rs_fmt_count((double)s->dropped, dropped, sizeof dropped);
    char runs[32] = "";
    if (s->runs > 1) snprintf(runs, sizeof runs, " over %d runs", s->runs);
    ui_putf(r.y, r.x, r.w, R_TITLE, "%s: %s sample%s%s, %s dropped, every 2^%d cycles", label,
            taken, s->total == 1 ? "" : "s", runs, dropped, 5 + s->period);
    static src_detail dt;
    const ui_rect d = detail ? detail_rect(a, s, r, &dt) : (ui_rect){0, 0, 0, 0};
    const int rows = d.h ? d.y - 1 - (r.y + 1) : r.h - 1;
    draw_lines(s, cur, r.y + 1, rows, d.h || sep, r);
    if (d.h) draw_detail(a, &dt, d);
    return 1;
}

/* The pinned view beside the shown one, where the screen is wide enough:
 * both lists side by side, the cursor's line in full across the width. */
#define SIDE_BY_SIDE 150

static void draw_beside(const ui_app *a, const rs_result *res, const rs_result *pin,
                        const char *label, ui_rect in)
{
    const int half = (in.w - 2) / 2;
    static src_detail dt;
    const ui_rect d = detail_rect(a, rs_result_stalls(res), in, &dt);
    const int h = d.h ? d.y - 1 - in.y : in.h;
    char plabel[160];
    ui_pinned_label(a, &res->req, plabel, sizeof plabel);
    if (draw_view(a, res, label, (ui_rect){in.y, in.x, h, half}, a->src->cur, 0, d.h > 0) && d.h)
        draw_detail(a, &dt, d);
    draw_view(a, pin, plabel, (ui_rect){in.y, in.x + half + 2, h, half}, -1, 0, d.h > 0);
}

/* Where the pinned view stands, said on the box's border: its right end
 * is left to the detail's mark. */
static void pin_note(ui_rect r)
{
    char note[128];
    const int room = r.w - 4 - 24;
    snprintf(note, sizeof note,
             " the pinned view stands beside this from %d columns; d compares "
             "line by line ",
             SIDE_BY_SIDE + 4);
    if (ui_width(note) > room)
        snprintf(note, sizeof note, " pinned view beside from %d columns; d compares ",
                 SIDE_BY_SIDE + 4);
    ui_put(r.y + r.h - 1, r.x + 2, room, R_DIM, note);
}

void ui_draw_source(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[256], label[96], text[512];
    ui_settings_title(&a->cfg, "Source: where warps wait", r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const rs_result *res = ui_result_for(a, (rs_variant)a->sel);
    const rs_result *pin =
        a->has_pin && rs_result_stalls(&a->pinned.result)->valid ? &a->pinned.result : NULL;
    char name[RS_NOTE_MAX];
    snprintf(label, sizeof label, "%s", ui_variant_label(a, (rs_variant)a->sel, name, sizeof name));
    const ui_rect in = {r.y + 1, r.x + 2, r.h - 2, r.w - 4};
    if (!res) {
        snprintf(text, sizeof text, "%s has no result for these settings: %s", label,
                 a->replay ? "Enter shows its recorded samples, if there are any."
                 : ui_enter_does(a) == UI_ENTER_COMPILES
                     ? "PC sampling needs an NVIDIA GPU; R replays a recording."
                     : "Enter runs it with PC sampling.");
        ui_put_wrapped(in, R_DIM, text);
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
    if (pin && pin != res) pin_note(r);
    draw_view(a, res, label, in, a->src->cur, 1, 0);
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

/* [ ]: the detail a page up or down, where it is cut; kept within its
 * rows, so the first key back moves it at once. */
static void scroll_detail(ui_app *a, const rs_result *res, int dir)
{
    const rs_stalls *s = res ? rs_result_stalls(res) : NULL;
    if (!s || !s->valid || a->src->diff) {
        ui_status(a, R_DIM, "nothing to scroll here: Up/Down move along the lines");
        return;
    }
    ui_layout l;
    ui_layout_compute(LINES, COLS, UI_SCREEN_SOURCE, &l);
    const ui_rect in = {l.main.y + 1, l.main.x + 2, l.main.h - 2, l.main.w - 4};
    static src_detail d;
    const ui_rect r = detail_rect(a, s, in, &d);
    if (!r.h || !detail_scrolls(&d, r)) {
        a->src->scroll = 0;
        ui_status(a, R_DIM, "%s: Up/Down move along the lines",
                  r.h ? "the cursor's line is shown whole" : "no room for the cursor's line here");
        return;
    }
    const int total = detail_total(&d), page = r.h > 2 ? r.h - 1 : 1;
    a->src->scroll = ui_scroll_first(a->src->scroll, total, r.h) + dir * page;
    a->src->scroll = ui_scroll_first(a->src->scroll, total, r.h);
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
    if (act != UI_ACT_SCROLL_UP && act != UI_ACT_SCROLL_DOWN) a->src->scroll = 0;
    switch (act) {
    case UI_ACT_DIFF: toggle_diff(a, res); return 1;
    case UI_ACT_SCROLL_UP:
    case UI_ACT_SCROLL_DOWN: scroll_detail(a, res, act == UI_ACT_SCROLL_UP ? -1 : 1); return 1;
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
    a->src->scroll = 0;
    return 1;
}
