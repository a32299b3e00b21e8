/* The Present screen: the ladder as a lecture (lecture/deck.h), one slide
 * a step built up a part a key, the title and closing slides around them.
 * `redscope present` opens on it; V on the explorer and the Ladder screen
 * opens it at the selected step. Live, a step runs when its slide opens
 * (r runs it again) and the settings' keys work on it; in a replay the
 * recorded ladder is shown. The notes on a second terminal follow it
 * (notes.c). */
#include "present.h"

#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "core/format.h"
#include "draw.h"
#include "present_lines.h"

/* The deck's rows, made from the state on every use: the ladder's rows
 * where they answer the configuration, else each step's last result, else
 * a row that says it has not run. */
static rs_row deck_rows[UI_LADDER_ROWS];
static rs_recorded_check deck_checks[64 + RS_VARIANT_COUNT];

static int has_row(const rs_row *r, const rs_request *want)
{
    const int ran = r->status == RS_OK ? r->result.t_median_ms > 0.0 : r->error[0] != '\0';
    return ran && !rs_row_not_recorded(r) && rs_request_same_run(&r->result.req, want);
}

static int rows_for(const ui_app *a)
{
    int n = 0;
    for (int k = 0; k < a->lad->count && n < UI_LADDER_ROWS; k++) {
        const rs_variant v = a->lad->vars[k];
        rs_request want;
        ui_request_for(a, v, &want);
        if (v == RS_V_KERNEL)
            snprintf(want.kernel, sizeof want.kernel, "%s", a->lad->rows[k].result.req.kernel);
        rs_row *row = &deck_rows[n];
        const rs_result *res = ui_result_for(a, v);
        if (k < a->lad->done && has_row(&a->lad->rows[k], &want)) {
            *row = a->lad->rows[k];
        } else if (res && v != RS_V_KERNEL) {
            memset(row, 0, sizeof *row);
            row->result = *res;
        } else if (v != RS_V_KERNEL && a->has_failed[v] && has_row(&a->failed[v], &want)) {
            *row = a->failed[v];
        } else if (v == RS_V_KERNEL) {
            continue; /* your kernel: in the deck where the ladder ran it */
        } else {
            memset(row, 0, sizeof *row);
            row->status = RS_E_USAGE;
            row->result.req = want;
            const int no_gpu = !a->replay && a->dev_ready && a->gpu_status != RS_OK;
            snprintf(row->error, sizeof row->error, "%s%s%s",
                     a->replay ? "not in the recording at these settings"
                     : no_gpu  ? "no GPU here ("
                               : "not run yet: it runs when its slide opens (r runs it again)",
                     no_gpu ? rs_status_name(a->gpu_status) : "",
                     no_gpu ? "): nothing runs; R replays a recording of one" : "");
        }
        n++;
    }
    return n;
}

static int checks_for(const ui_app *a)
{
    int n = 0;
    for (int i = 0; a->replay && i < a->rec.check_count && n < 64; i++)
        deck_checks[n++] = a->rec.checks[i];
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if (a->checks[v].ran) {
            ui_request_for(a, (rs_variant)v, &deck_checks[n].req);
            deck_checks[n].req.n = a->check_n[v];
            deck_checks[n].req.type = a->check_type[v];
            deck_checks[n++].report = a->checks[v];
        }
    return n;
}

/* The deck of the current configuration (d and its rows static). */
static rs_deck *deck(const ui_app *a)
{
    static rs_deck d;
    char from[300];
    if (a->replay) {
        char path[256]; /* 60 cells of at most 4 bytes */
        snprintf(from, sizeof from, "As recorded in %s.",
                 rs_fmt_cut(a->replay_path, 60, path, sizeof path));
    } else
        snprintf(from, sizeof from, "Measured live, each step as its slide opens.");
    const int n = rows_for(a);
    rs_deck_init(&d, deck_rows, n, deck_checks, checks_for(a), from);
    if (a->dev_ready && a->gpu_status == RS_OK && !d.dev.name[0]) d.dev = a->dev;
    return &d;
}

static rs_slide *slide_of(const ui_app *a, int k)
{
    static rs_slide s;
    rs_deck_slide(deck(a), k, &s);
    return &s;
}

static int count(const ui_app *a)
{
    return rs_deck_count(deck(a));
}

/* Slide k fully built (going back) or its first part (going on). */
static void go(ui_app *a, int k, int built)
{
    ui_present_state *p = a->pres;
    const int n = count(a);
    p->slide = k < 0 ? 0 : k >= n ? (n ? n - 1 : 0) : k;
    p->part = built ? RS_DECK_PARTS : 1;
    p->scroll = built ? 1 << 20 : 0;
    const rs_slide *s = slide_of(a, p->slide);
    if (s->row >= 0) a->sel = (int)deck_rows[s->row].result.req.variant;
    ui_status(a, R_NORMAL, "%s", ""); /* what it said was of the slide before */
}

void ui_present_begin(ui_app *a, int quits)
{
    ui_present_state *p = a->pres;
    const int at_start = quits; /* `redscope present`: its title slide first */
    p->quits |= quits;
    if (!p->started) p->started = (long)time(NULL);
    /* live: the ladder's steps at this configuration, each run as its slide opens */
    if (!a->replay && (a->lad->count == 0 || !a->lad->done)) {
        a->lad->count = rs_request_variant_list(&a->cfg, a->lad->vars, RS_VARIANT_COUNT);
        a->lad->done = 0;
    }
    rs_deck *d = deck(a);
    int k = 0;
    for (int i = 0; i < d->nsteps && !at_start; i++)
        if ((int)d->rows[d->step[i]].result.req.variant == a->sel) k = i + 1;
    go(a, k, 0);
}

int ui_open_present(ui_app *a)
{
    if (a->screen != UI_SCREEN_PRESENT) ui_present_begin(a, 0); /* at the selected step */
    if (!count(a)) {
        ui_status(a, R_WARN, "no ladder to present at these settings%s",
                  a->replay ? ": R lists what the recording holds" : "");
        return a->pres->quits; /* `present` stays, to say so */
    }
    return 1;
}

/* The status of the slide: where it is, what the next key shows. */
static void foot(const ui_app *a, const rs_slide *s, int n, int y, int x, int w)
{
    const ui_present_state *p = a->pres;
    char t[256];
    if (p->typed[0])
        snprintf(t, sizeof t, "go to slide %s: Enter", p->typed);
    else if (p->part < s->nparts)
        snprintf(t, sizeof t, "Right/Space: %s", s->part[p->part].name);
    else if (p->slide + 1 < n)
        snprintf(t, sizeof t, "Right/Space: the next slide");
    else
        snprintf(t, sizeof t, "the last slide");
    ui_put(y, x, w, R_DIM, t);
}

/* The rows a slide's body has on this terminal: the main panel less the
 * title (one or two lines, as drawn), the settings and the foot. */
static int body_rows(const rs_slide *s, int count_, const ui_rect *r, int slide)
{
    static char title[2][256];
    char head[300];
    snprintf(head, sizeof head, "%d/%d  %.200s", slide, count_ - 1, s->title);
    const int rows = r->h - ui_wrap(head, r->w - 2, title, 2) - 2;
    return rows > 1 ? rows : 1;
}

void ui_draw_present(const ui_app *a, const ui_layout *l)
{
    const ui_present_state *p = a->pres;
    const ui_rect r = l->main;
    const int n = count(a);
    if (!n) {
        char set[256];
        ui_settings_title(&a->cfg, a->replay ? "replay" : "live", r.w - 2, set, sizeof set);
        ui_put(r.y, 1, r.w - 2, R_DIM, set);
        ui_put(r.y + 1, 1, r.w - 2, R_WARN,
               a->replay ? "No ladder in the recording at these settings: R lists what it holds."
                         : "No ladder to present at these settings.");
        return;
    }
    const rs_slide *s = slide_of(a, p->slide);
    static char title[2][256];
    char head[300];
    snprintf(head, sizeof head, "%d/%d  %.200s", p->slide, n - 1, s->title);
    const int tl = ui_wrap(head, r.w - 2, title, 2);
    const int rows = body_rows(s, n, &r, p->slide);
    for (int i = 0; i < tl; i++) ui_put(r.y + i, 1, r.w - 2, R_TITLE, title[i]);
    char set[256];
    ui_settings_title(&a->cfg, a->replay ? "replay" : "live", r.w - 2, set, sizeof set);
    ui_put(r.y + tl, 1, r.w - 2, R_DIM, set);
    static ui_lines body;
    ui_slide_lines(s, p->part, r.w - 2, a->utf8, &body, NULL);
    const int top = r.y + tl + 1;
    const int first = ui_scroll_first(p->scroll, body.n, rows);
    for (int i = 0; i < rows && first + i < body.n; i++)
        ui_put(top + i, 1, r.w - 2, body.role[first + i], body.text[first + i]);
    const int more_below = first + rows < body.n;
    char mark[64] = "";
    if (first > 0 || more_below)
        snprintf(mark, sizeof mark, " %s %d-%d/%d more: %s ", more_below ? "v" : "^", first + 1,
                 first + rows < body.n ? first + rows : body.n, body.n,
                 more_below ? "Down/j" : "Up/k");
    const int mw = (int)strlen(mark);
    foot(a, s, n, r.y + r.h - 1, 1, r.w - 2 - mw);
    if (mw) ui_put(r.y + r.h - 1, r.w - 1 - mw, mw, R_WARN, mark);
}

/* Down/Up: a screen's rows at a time within a cut slide. */
static void scroll_by(ui_app *a, int d)
{
    ui_layout l;
    ui_layout_compute(LINES, COLS, UI_SCREEN_PRESENT, &l);
    static ui_lines body;
    const rs_slide *s = slide_of(a, a->pres->slide);
    ui_slide_lines(s, a->pres->part, l.main.w - 2, a->utf8, &body, NULL);
    const int rows = body_rows(s, count(a), &l.main, a->pres->slide);
    const int first = ui_scroll_first(a->pres->scroll, body.n, rows);
    a->pres->scroll = ui_scroll_first(first + d * (rows > 2 ? rows - 2 : 1), body.n, rows);
}

/* Right: the next part, or the next slide once this one is built. */
static void next(ui_app *a)
{
    ui_present_state *p = a->pres;
    const rs_slide *s = slide_of(a, p->slide);
    if (p->part < s->nparts) {
        ui_layout l;
        ui_layout_compute(LINES, COLS, UI_SCREEN_PRESENT, &l);
        static ui_lines body;
        int starts[RS_DECK_PARTS] = {0};
        ui_slide_lines(s, ++p->part, l.main.w - 2, a->utf8, &body, starts);
        const int rows = body_rows(s, count(a), &l.main, p->slide);
        const int tail = body.n - rows > 0 ? body.n - rows : 0; /* the new part in sight */
        p->scroll = starts[p->part - 1] < tail ? starts[p->part - 1] : tail;
    } else if (p->slide + 1 < count(a)) {
        go(a, p->slide + 1, 0);
    } else {
        ui_status(a, R_NORMAL, "the last slide: Home goes to the first, q ends");
    }
}

static void jump(ui_app *a)
{
    ui_present_state *p = a->pres;
    const int k = atoi(p->typed), n = count(a);
    p->typed[0] = '\0';
    if (k < 0 || k >= n) {
        ui_status(a, R_WARN, "no slide %d: the deck has 0 to %d", k, n - 1);
        return;
    }
    go(a, k, 0);
}

void ui_present_digit(ui_app *a, int ch)
{
    ui_present_state *p = a->pres;
    const size_t at = strlen(p->typed);
    if (isdigit(ch) && at + 1 < sizeof p->typed) p->typed[at] = (char)ch, p->typed[at + 1] = '\0';
}

/* r: the slide's step again (live), or what the recording holds of it. */
static void rerun(ui_app *a)
{
    const rs_slide *s = slide_of(a, a->pres->slide);
    if (s->row < 0) {
        ui_status(a, R_NORMAL, "r runs a step's slide again; this one has no step");
        return;
    }
    if (ui_refuse_busy(a)) return;
    const rs_variant v = deck_rows[s->row].result.req.variant;
    ui_request_for(a, v, &a->pres->asked);
    a->pres->has_asked = 1;
    ui_run_one(a, v);
}

int ui_key_present(ui_app *a, ui_action act)
{
    ui_present_state *p = a->pres;
    if (act != UI_ACT_DIGIT && act != UI_ACT_RUN && act != UI_ACT_CANCEL && p->typed[0])
        p->typed[0] = '\0';
    switch (act) {
    case UI_ACT_NEXT: next(a); return 1;
    case UI_ACT_PREV: go(a, p->slide - 1, 1); return 1;
    case UI_ACT_FIRST: go(a, 0, 0); return 1;
    case UI_ACT_LAST: go(a, count(a) - 1, 0); return 1;
    case UI_ACT_DOWN: scroll_by(a, 1); return 1;
    case UI_ACT_UP: scroll_by(a, -1); return 1;
    case UI_ACT_DIGIT: return 1; /* taken by ui_present_digit */
    case UI_ACT_RUN:
        if (p->typed[0])
            jump(a);
        else
            next(a);
        return 1;
    case UI_ACT_RERUN: rerun(a); return 1;
    case UI_ACT_CANCEL: /* Backspace takes back a digit typed; Esc stops a run, then leaves */
        if (p->typed[0]) {
            p->typed[strlen(p->typed) - 1] = '\0';
            return 1;
        }
        if (p->quits && !ui_busy(a)) { /* `redscope present`: the deck is the program */
            ui_status(a, R_NORMAL, "q ends the deck");
            return 1;
        }
        return 0; /* a run stopped; from the explorer (V), back to it */
    default: return 0;
    }
}

/* Every loop: live, the slide's step runs once when its slide opens at
 * these settings; the notes hear of every change. */
/* A replay whose settings changed on the deck (t, b, n...): the ladder
 * the recording holds at them, asked once per settings. */
static void replay_ladder(ui_app *a)
{
    ui_present_state *p = a->pres;
    const rs_request *now = &a->cfg, *was = &p->replayed; /* the settings a ladder takes */
    if (p->has_replayed && now->type == was->type && now->op == was->op && now->n == was->n &&
        now->block == was->block && now->finish == was->finish && now->dist == was->dist &&
        now->reps == was->reps && now->gpus == was->gpus && strcmp(now->metrics, was->metrics) == 0)
        return;
    int matches = 0;
    for (int k = 0; k < a->lad->done && !matches; k++) {
        rs_request want;
        ui_request_for(a, a->lad->vars[k], &want);
        matches = !rs_row_not_recorded(&a->lad->rows[k]) &&
                  rs_request_same_run(&a->lad->rows[k].result.req, &want);
    }
    p->replayed = *now;
    p->has_replayed = 1;
    if (!matches) ui_run_ladder(a);
}

void ui_present_tick(ui_app *a)
{
    if (a->screen != UI_SCREEN_PRESENT && a->pres->notes_up != 1) return; /* notes served on */
    const rs_slide *s = slide_of(a, a->pres->slide);
    if (a->screen != UI_SCREEN_PRESENT) {
        ui_notes_serve(a, s, count(a));
        return;
    }
    if (a->replay && !ui_busy(a)) replay_ladder(a);
    if (s->row >= 0 && !a->replay && a->dev_ready && a->gpu_status == RS_OK && !ui_busy(a) &&
        deck_rows[s->row].status != RS_OK) {
        const rs_variant v = deck_rows[s->row].result.req.variant;
        rs_request want;
        ui_request_for(a, v, &want);
        if (!a->pres->has_asked || !rs_request_same_run(&want, &a->pres->asked)) {
            a->pres->asked = want;
            a->pres->has_asked = 1;
            ui_run_one(a, v);
        }
    }
    ui_notes_serve(a, s, count(a));
}
