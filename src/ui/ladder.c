/* The Ladder screen: every variant on the configuration, with speedups,
 * counters and a bar per row; Enter runs (or looks up) the ladder. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "against.h"
#include "ladder.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "formats/stalls_io.h"
#include "analysis/stories.h"
#include "draw.h"
#include "analysis/ladder.h"

/* The ladder on screen answers the configuration (or is being run on it). */
static int ladder_current(const ui_app *a)
{
    if (a->lad->done == 0) return 1;
    rs_variant vars[RS_VARIANT_COUNT]; /* live: your kernel set or cleared since */
    const int n = rs_request_variant_list(&a->cfg, vars, RS_VARIANT_COUNT);
    if (!a->replay && a->lad->done == a->lad->count &&
        (n != a->lad->count || memcmp(vars, a->lad->vars, sizeof *vars * (size_t)n) != 0))
        return 0;
    for (int i = 0; i < a->lad->done; i++) {
        const rs_request *q = &a->lad->rows[i].result.req;
        rs_request want;
        ui_request_for(a, q->variant, &want);
        if (a->replay && q->variant == RS_V_KERNEL) /* each recorded file its own row */
            snprintf(want.kernel, sizeof want.kernel, "%s", q->kernel);
        if (!rs_request_same_run(q, &want)) return 0;
    }
    return 1;
}

/* The ok column: right or wrong, and the race mark of a racy step after
 * it (the result may be right, the code is not: Why says). */
static void draw_verdict(int y, int x, int sel, int correct, rs_variant v)
{
    const int used = ui_put(y, x, 2,
                            sel       ? R_SELECTED
                            : correct ? R_GOOD
                                      : R_BAD,
                            correct ? ui_glyph(G_OK) : ui_glyph(G_WRONG));
    if (rs_catalogue_get(v)->flags & RS_VF_RACY)
        ui_put(y, x + used, 1, sel ? R_SELECTED : R_WARN, ui_glyph(G_RACE));
}

/* A count in at most 4 columns for the narrow table: 1279, 852k, 114M. */
static void fmt_short(double v, char *buf, size_t len)
{
    static const char *const unit[] = {"", "k", "M", "G", "T"};
    int u = 0;
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (fabs(v) >= 9999.5)
        while (fabs(v) >= 999.5 && u < 4) v /= 1e3, u++;
    snprintf(buf, len, u && fabs(v) < 9.95 ? "%.1f%s" : "%.0f%s", v, unit[u]);
}

/* A ratio in at most w columns: x0.0045 where it fits, else x12 or x12k
 * above 1, x.045 down to 0.01, and below that its inverse (/222, /2.3k). */
static void fmt_ratio_fit(double v, int utf8, int w, char *buf, size_t len)
{
    rs_fmt_ratio(v, utf8, buf, len);
    if (ui_width(buf) <= w || !(v > 0.0) || !isfinite(v)) return;
    char n[24];
    const char *x = utf8 ? "\xc3\x97" : "x";
    if (v >= 1.0) {
        fmt_short(v, n, sizeof n);
        snprintf(buf, len, "%s%s", x, n);
    } else if (v >= 0.01) {
        snprintf(buf, len, "%s.%03.0f", x, v * 1000.0);
    } else {
        fmt_short(1.0 / v, n, sizeof n);
        snprintf(buf, len, "%s%s", utf8 ? "\xc3\xb7" : "/", n);
    }
}

/* The table's columns, wide and narrow: widths in display columns (a
 * micro sign or a times sign is one column and two bytes). */
enum { C_STEP, C_NAME, C_TIME, C_SPEED, C_CUMUL, C_VSB, C_GBPS, C_PCT, C_JGB, C_WHY, C_COUNT };
static const int col_w[2][C_COUNT] = {{2, 20, 7, 5, 5, 5, 5, 4, 5, 14},
                                      {3, 20, 9, 7, 7, 7, 7, 6, 6, 34}};

/* What the table shows beyond its own columns: energy (--energy, E) and
 * a recording held against (--against); from bit 8, the width explains
 * keeps where the box is narrower than every column wants (X_WHY). */
enum { X_ENERGY = 1, X_AGAINST = 2 };
#define X_WHY(extra) ((extra) >> 8)

/* A column's width; 0: not shown. J/GB only where a row measured energy,
 * vs A only with a recording held against; under 100 columns they take
 * the room of %rd (the bar shows the same share) and of cumul; at 100 and
 * more, explains gives up what the box lacks. */
static int col_width(int wide, int extra, int c)
{
    if (c == C_WHY && X_WHY(extra)) return X_WHY(extra);
    if (c == C_JGB) return extra & X_ENERGY ? col_w[wide][c] : 0;
    if (c == C_VSB) return extra & X_AGAINST ? col_w[wide][c] : 0;
    if (c == C_PCT && (extra & X_ENERGY) && !wide) return 0;
    if (c == C_CUMUL && (extra & X_AGAINST) && !wide) return 0;
    return col_w[wide][c];
}

static int extras(const ui_app *a, int wide, int w)
{
    int x = a->ag->has ? X_AGAINST : 0;
    for (int i = 0; i < a->lad->done; i++)
        if (a->lad->rows[i].status == RS_OK && a->lad->rows[i].result.energy.requested)
            x |= X_ENERGY;
    int need = 3 + 3; /* "ok" and its race mark, a blank, and a bar of two */
    for (int c = 0; c < C_COUNT; c++)
        if (c != C_WHY && col_width(wide, x, c)) need += col_width(wide, x, c) + 1;
    const int why = w - need - 1, full = col_w[wide][C_WHY];
    return x | (why < full ? (why > 10 ? why : 10) : full) << 8;
}

/* s left-aligned in w display columns, cut there as every row is cut
 * (ui_cut: a character is never split). */
static const char *left_cell(const char *s, int w, char *buf, size_t len)
{
    int cols = 0, cut = 0;
    const size_t bytes = ui_cut(s, w, &cols, &cut);
    snprintf(buf, len, "%.*s%*s", (int)bytes, s, w > cols ? w - cols : 0, "");
    return buf;
}

/* One row of cells, each right-aligned in its column but the name. */
static int put_cells(int y, int x, int w, ui_role role, int wide, int extra, char cell[C_COUNT][48])
{
    char line[512] = "", pad[96];
    size_t off = 0;
    for (int c = 0; c < C_COUNT && off < sizeof line; c++) {
        const int cw = col_width(wide, extra, c);
        if (!cw) continue;
        char name[96];
        if (c == C_NAME || c == C_WHY) /* left-aligned, cut to its column */
            left_cell(cell[c], cw, name, sizeof name);
        off += (size_t)snprintf(line + off, sizeof line - off, "%s ",
                                c == C_NAME || c == C_WHY ? name
                                                          : ui_pad(cell[c], cw, pad, sizeof pad));
    }
    return ui_put(y, x, w, role, line);
}

/* The column names; % reads against the measured limit where there is one. */
static void draw_head(int y, int x, int w, int wide, int extra, int limited)
{
    char head[C_COUNT][48] = {"#",    "variant", "time", "step", "cumul.",
                              "vs A", "GB/s",    "",     "J/GB", ""};
    snprintf(head[C_PCT], 48, "%s", wide ? (limited ? "%read" : "%peak") : limited ? "%rd" : "%pk");
    snprintf(head[C_WHY], 48, "%s", wide ? "explains it (vs the row above)" : "explains");
    const int hx = x + put_cells(y, x, w, R_TITLE, wide, extra, head);
    ui_put(y, hx, x + w - hx, R_TITLE, wide ? "ok   bandwidth" : "ok");
}

/* No ladder for this configuration yet: what Enter does, and your kernel. */
static void draw_intro(const ui_app *a, ui_rect r)
{
    const int x = r.x + 2, w = r.w - 4;
    const ui_enter e = ui_enter_does(a);
    ui_put(r.y + 2, x, w, R_DIM,
           e == UI_ENTER_RECORDED
               ? "Enter shows every variant the recording holds at this configuration (t o n b "
                 "f m l change it; R lists what was recorded)."
           : e == UI_ENTER_COMPILES
               ? "No GPU: a ladder needs one. R replays a recording of one (t o n b f m l change "
                 "the configuration)."
               : "Enter runs every variant of the ladder on this configuration (t o n b f m l "
                 "change it; P loads a preset).");
    if (a->lad->count && e != UI_ENTER_COMPILES)
        ui_put(r.y + 3, x, w, R_DIM,
               e == UI_ENTER_RECORDED
                   ? "The last ladder shown had other settings: Enter shows this one's "
                     "recorded rows."
                   : "The last ladder was measured with other settings: Enter to run this one.");
    char name[RS_NOTE_MAX];
    if (a->cfg.kernel[0])
        ui_putf(r.y + 5, x, w, R_ACCENT, "Your kernel, %s, is its last row (%d).",
                ui_variant_label(a, RS_V_KERNEL, name, sizeof name),
                rs_catalogue_get(RS_V_KERNEL)->step);
    else if (!a->replay)
        ui_put(r.y + 5, x, w, R_DIM, "K adds your own kernel (a .cu file) as its last row.");
}

/* A row's bar: GB/s on a scale that holds the limit and the fastest row,
 * the limit marked where it falls. */
/* A row's bar on a scale shared by the rows; the mark at the row's own
 * limit (G times the streaming read for a row over G GPUs). */
static void draw_bar(int y, int x, int w, double gbps, double limit, double scale)
{
    if (w < 2 || !(scale > 0.0)) return;
    ui_bar(y, x, w - 1, gbps / scale, R_BAR);
    if (limit > 0.0) {
        const int at = x + (int)((w - 1) * (limit / scale) + 0.5);
        ui_put(y, at < x + w ? at : x + w - 1, 1, R_ACCENT, ui_theme_utf8() ? "\xe2\x94\x82" : "|");
    }
}

/* Under the rows: what the % column and the mark are, wrapped over the
 * rows there are. */
static void draw_limit_note(const ui_app *a, int y, int x, int w, int rows, double limit,
                            const char *col, int energy)
{
    char text[640], lines[5][256];
    int o = 0;
    const rs_ceiling c = rs_rows_ceiling(a->lad->rows, a->lad->done, NULL);
    if (limit > 0.0)
        o = snprintf(text, sizeof text,
                     "%s %s: %.0f GB/s, measured with these runs%s; %s is each "
                     "row's share of it (above 100%%: the step read faster), or of G times it "
                     "over G GPUs (theoretical peak %.0f).",
                     ui_theme_utf8() ? "\xe2\x94\x82" : "|", rs_ceiling_phrase(c), limit,
                     c == RS_CEIL_L2 ? " (warm: the input in the L2)" : "", col ? col : "the bar",
                     a->dev.peak_gbps);
    else
        o = snprintf(text, sizeof text,
                     "%s: each row's share of the theoretical peak, %.0f GB/s (no measured limit "
                     "with these runs).",
                     col ? col : "the bar", a->dev.peak_gbps);
    if (energy && o > 0 && (size_t)o < sizeof text)
        snprintf(text + o, sizeof text - (size_t)o,
                 " J/GB: the board's energy (NVML) per GB read.");
    const int k = ui_wrap(text, w, lines, rows < 5 ? rows : 5);
    for (int i = 0; i < k; i++) ui_put(y + i, x, w, R_DIM, lines[i]);
}

/* What vs A is against, and its steps the ladder lacks; the rows it took. */
static int draw_against_note(const ui_app *a, int y, int x, int w, int rows)
{
    char text[1024], only[512], lines[3][256];
    ui_against_only(a, only, sizeof only);
    const rs_device_info *d = a->ag->rec.has_device ? &a->ag->rec.device : NULL;
    snprintf(text, sizeof text,
             "vs A: the time in %s%s%s%s, the recording held against, over the time here "
             "(above %s1: faster here; -: not in A).%s%s",
             rs_stall_base(a->ag->path), d ? " (" : "", d ? d->name : "", d ? ")" : "",
             ui_glyph(G_TIMES), only[0] ? " " : "", only);
    const int k = ui_wrap(text, w, lines, rows < 3 ? rows : 3);
    for (int i = 0; i < k; i++) ui_put(y + i, x, w, R_DIM, lines[i]);
    return k;
}

/* The title: the settings the rows shown were measured with (repetitions
 * and counters may not be the configuration's: 1, and other says so). */
static int ladder_title(const ui_app *a, int shown, int width, char *title, size_t len, char *other,
                        size_t olen)
{
    rs_request as = a->cfg;
    if (shown && a->lad->done) {
        as.reps = a->lad->rows[0].result.req.reps;
        snprintf(as.metrics, sizeof as.metrics, "%s", a->lad->rows[0].result.req.metrics);
    }
    const int differ = ui_other_settings(&as, &a->cfg, other, olen);
    ui_settings_title(&as, differ ? "Ladder (other settings)" : "Ladder", width, title, len);
    return differ;
}

/* The GPUs a row ran on: its limit is that many times one GPU's. */
static int row_gpus(const rs_result *res)
{
    return res->multi.gpus > 1 ? res->multi.gpus : 1;
}

/* The cells of ladder row i, which ran; % against the limit (0: the peak). */
static void row_cells(const ui_app *a, int i, int wide, double limit, char cell[C_COUNT][48])
{
    const rs_result *res = &a->lad->rows[i].result;
    for (int c = 0; c < C_COUNT; c++) snprintf(cell[c], 48, "%s", c == C_VSB ? "-" : "");
    const rs_result *b = ui_against_result(a, &res->req);
    if (b && res->t_median_ms > 0.0)
        fmt_ratio_fit(b->t_median_ms / res->t_median_ms, a->utf8, col_w[wide][C_VSB], cell[C_VSB],
                      48);
    rs_fmt_j_per_gb(res->energy.valid ? res->energy.j_per_gb : 0.0, cell[C_JGB], 48);
    snprintf(cell[C_STEP], 48, "%d", rs_catalogue_get(res->req.variant)->step);
    snprintf(cell[C_NAME], 48, "%s", rs_request_name(&res->req)); /* your kernel: its file */
    rs_fmt_time(res->t_median_ms, a->utf8, cell[C_TIME], 48);
    fmt_ratio_fit(rs_ladder_step_speedup(a->lad->rows, i), a->utf8, col_w[wide][C_SPEED],
                  cell[C_SPEED], 48);
    fmt_ratio_fit(rs_ladder_cumulative_speedup(a->lad->rows, i), a->utf8, col_w[wide][C_CUMUL],
                  cell[C_CUMUL], 48);
    snprintf(cell[C_WHY], 48, "-");
    rs_story_cell(a->lad->rows, i, !wide, cell[C_WHY], 48); /* cut to its column */
    const double pct = limit > 0 ? 100.0 * res->gbps / (row_gpus(res) * limit) : res->pct_peak;
    snprintf(cell[C_GBPS], 48, "%.0f", res->gbps);
    snprintf(cell[C_PCT], 48, wide ? "%.1f%%" : "%.0f%%", pct);
}

/* Ladder row i at y: a step not yet run (its spinner), one that failed
 * (the first line of why), or its cells, verdict and bar. */
static void draw_row(const ui_app *a, int i, int y, int x, int w, int wide, int extra, double limit,
                     double scale)
{
    const int sw = col_w[wide][C_STEP];
    const rs_variant v = a->lad->vars[i];
    const int sel = i == a->lad->sel;
    if (sel) ui_blank(y, x, w, R_SELECTED);
    char label[RS_NOTE_MAX];
    if (i >= a->lad->done) {
        ui_putf(y, x, w, sel ? R_SELECTED : R_DIM, "%*d %-20s %*s", sw, rs_catalogue_get(v)->step,
                ui_variant_label(a, v, label, sizeof label), col_w[wide][C_TIME],
                i == a->lad->done ? ui_spinner(a->tick) : "");
        return;
    }
    const rs_row *row = &a->lad->rows[i];
    const char *name = rs_request_name(&row->result.req); /* your kernel: its file */
    if (row->status != RS_OK) { /* the first line: a compile error goes on below it */
        ui_putf(y, x, w, sel ? R_SELECTED : R_WARN, "%*d %-20s %.*s", sw, rs_catalogue_get(v)->step,
                name, (int)strcspn(row->error, "\n"), row->error);
        return;
    }
    const rs_result *res = &row->result;
    char cell[C_COUNT][48];
    row_cells(a, i, wide, limit, cell);
    const ui_role role = sel ? R_SELECTED : R_NORMAL;
    const int used = put_cells(y, x, w, role, wide, extra, cell);
    draw_verdict(y, x + used, sel, res->correct, v);
    const int barx = x + used + (a->utf8 ? 3 : 4); /* "ok!" and a blank */
    draw_bar(y, barx, x + w - barx, res->gbps, limit * row_gpus(res), scale);
}

void ui_draw_ladder(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[320];
    const int shown = a->lad->count && ladder_current(a);
    char other[256] = "";
    const int differ = ladder_title(a, shown, r.w - 6, title, sizeof title, other, sizeof other);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    if (!shown) {
        draw_intro(a, r);
        return;
    }
    const int wide = w >= 100;
    /* the bars and the % column read against it; unmeasured: the peak */
    const double limit = rs_rows_limit(a->lad->rows, a->lad->done);
    const int extra = extras(a, wide, w), energy = extra & X_ENERGY;
    draw_head(r.y + 1, x, w, wide, extra, limit > 0);
    double scale = 0.0; /* the fastest row, or the highest mark */
    for (int i = 0; i < a->lad->done; i++) {
        const rs_result *res = &a->lad->rows[i].result;
        if (a->lad->rows[i].status != RS_OK) continue;
        scale = fmax(scale, fmax(res->gbps, limit * row_gpus(res)));
    }
    /* the rows that fit, scrolled to the cursor; a cut list says so */
    const int fit = r.h - 3 > 0 ? r.h - 3 : 0;
    const int first = a->lad->count > fit ? ui_list_first(a->lad->sel, fit) : 0;
    int i = 0;
    for (; first + i < a->lad->count && i < fit; i++)
        draw_row(a, first + i, r.y + 2 + i, x, w, wide, extra, limit, scale);
    if (a->lad->count > fit && r.w > 30)
        ui_putf(r.y + r.h - 1, r.x + 2, r.w - 4, R_DIM, " %d-%d/%d %s more (Up/Down) ", first + 1,
                first + i, a->lad->count, first + i < a->lad->count ? "v" : "^");
    int room = r.h - 1 - (i + 3) - (differ ? 1 : 0);                /* rows left under the table */
    const char *pct = wide        ? (limit > 0 ? "%read" : "%peak") /* as draw_head names it */
                      : energy    ? NULL                            /* not shown */
                      : limit > 0 ? "%rd"
                                  : "%pk";
    const int said = room > 0 && a->ag->has ? draw_against_note(a, r.y + 3 + i, x, w, room) : 0;
    room -= said;
    if (room > 0) draw_limit_note(a, r.y + 3 + i + said, x, w, room, limit, pct, energy);
    if (differ && i + 4 < r.h - 1)
        ui_putf(r.y + r.h - 2, x, w, R_WARN, "These rows were %s.", other);
}

int ui_open_ladder(ui_app *a)
{
    (void)a;
    return 1;
}

int ui_key_ladder(ui_app *a, ui_action act)
{
    const int n = a->lad->count ? a->lad->count : 1;
    switch (act) {
    case UI_ACT_UP:
    case UI_ACT_DOWN:
        a->lad->sel = ui_list_step(a->lad->sel, act == UI_ACT_UP ? -1 : 1, n, 1);
        if (a->lad->count) a->sel = (int)a->lad->vars[a->lad->sel];
        if (a->lad->count && a->sel == RS_V_KERNEL && a->replay) /* that file's row */
            ui_kernel_show_recorded(a, a->lad->at[a->lad->sel]);
        return 1;
    case UI_ACT_RUN: ui_run_ladder(a); return 1;
    default: return 0;
    }
}
