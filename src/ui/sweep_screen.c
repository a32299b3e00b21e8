/* The sweep screen: time or GB/s against n on log scales, one series per
 * variant and the CPU, drawn with braille lines (dots in ASCII) and a mark
 * of its own at every data point, the crossovers named below and a cursor
 * line that reads exact values. Everything is laid out to fit: text wraps
 * or takes a shorter form, labels that would touch are left out. */
#include <curses.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "sweep_screen.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"
#include "analysis/ladder.h"

/* Marks at the data points, one per series, so series stay apart without
 * color and in ASCII; '*' where several share a cell. In pairs, filled and
 * hollow: a sweep of both cache states gives a variant one pair (warm
 * filled, cold hollow) and one colour. */
#define MARKS 16
static const char *const marks_utf8[MARKS] = {
    "\xe2\x97\x8f", "\xe2\x97\x8b", "\xe2\x96\xa0", "\xe2\x96\xa1", /* ● ○ ■ □ */
    "\xe2\x96\xb2", "\xe2\x96\xb3", "\xe2\x97\x86", "\xe2\x97\x87", /* ▲ △ ◆ ◇ */
    "\xe2\x96\xbc", "\xe2\x96\xbd", "\xe2\x98\x85", "\xe2\x98\x86", /* ▼ ▽ ★ ☆ */
    "\xe2\x97\x80", "\xe2\x97\x81", "\xe2\x96\xb6", "\xe2\x96\xb7", /* ◀ ◁ ▶ ▷ */
};
static const char marks_ascii[MARKS + 1] = "oxs+adwv#@%&=ezk";
#define MARK_MANY  (-2)
#define PEAK_OWNER 100 /* the peaks' dotted lines in the canvas */
#define ITEMS      (RS_SWEEP_MAX_SERIES + 3)

/* Series k's place among the marks: its own, or in a sweep of both states
 * its variant's pair (the CPU's series after every variant's). */
static int mark_slot(const rs_sweep *s, int k)
{
    if (!s->both) return k;
    const int place = rs_sweep_variant_place(s, k);
    int variants = 0;
    for (int j = 0; j < s->nvar; j++) variants += rs_sweep_variant_place(s, j) == variants;
    if (place < 0) return 2 * variants;
    return 2 * place + (s->cache[k] == RS_CACHE_COLD && s->var[k] != RS_V_CPU);
}

static const char *series_mark(const rs_sweep *s, int k, char *buf)
{
    if (k == MARK_MANY) return "*";
    const int slot = mark_slot(s, k) % MARKS;
    if (ui_theme_utf8()) return marks_utf8[slot];
    buf[0] = marks_ascii[slot];
    buf[1] = '\0';
    return buf;
}

static ui_role series_role(const rs_sweep *s, int k)
{
    return (ui_role)(R_SERIES0 + (s->both ? mark_slot(s, k) / 2 : k) % 6);
}

typedef struct canvas {
    int w, h;            /* cells */
    unsigned char *dots; /* braille bits per cell */
    signed char *owner;  /* series drawn last in the cell, -1 none, PEAK_OWNER */
    signed char *mark;   /* series with a data point in the cell, -1 none, MARK_MANY */
} canvas;

static int canvas_init(canvas *c, int w, int h)
{
    c->w = w;
    c->h = h;
    c->dots = calloc((size_t)(w * h), 1);
    c->owner = malloc((size_t)(w * h));
    c->mark = malloc((size_t)(w * h));
    if (!c->dots || !c->owner || !c->mark) return 0;
    memset(c->owner, -1, (size_t)(w * h));
    memset(c->mark, -1, (size_t)(w * h));
    return 1;
}

static void canvas_free(canvas *c)
{
    free(c->dots);
    free(c->owner);
    free(c->mark);
}

static void dot(canvas *c, int dx, int dy, int owner)
{
    static const unsigned char bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    if (dx < 0 || dy < 0 || dx >= c->w * 2 || dy >= c->h * 4) return;
    const int cell = (dy / 4) * c->w + dx / 2;
    c->dots[cell] |= bit[dy % 4][dx % 2];
    c->owner[cell] = (signed char)owner;
}

/* Bresenham; every step moves x or y, so dx + dy steps end it whatever the
 * ends are. */
static void line(canvas *c, int x0, int y0, int x1, int y1, int series)
{
    const int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    const int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (int step = 0; step <= dx - dy; step++) {
        dot(c, x0, y0, series);
        if (x0 == x1 && y0 == y1) break;
        const int e2 = 2 * err;
        if (e2 >= dy) err += dy, x0 += sx;
        if (e2 <= dx) err += dx, y0 += sy;
    }
}

static void put_braille(int y, int x, unsigned char bits, ui_role role)
{
    char u[4] = {(char)0xe2, (char)(0xa0 | (bits >> 6)), (char)(0x80 | (bits & 0x3f)), 0};
    ui_put(y, x, 1, role, u);
}

/* A series' mark in cell (cx, cy): '*' where another series has one there
 * too (the marks stay where the values are; the cursor line reads them). */
static void put_mark(canvas *c, int cx, int cy, int k)
{
    signed char *m = &c->mark[cy * c->w + cx];
    *m = *m == -1 || *m == k ? (signed char)k : MARK_MANY;
}

/* Data: lines in braille (dots in ASCII) and a mark at every point. */
static void plot_series(const ui_app *a, canvas *c, rs_axis ax)
{
    const rs_sweep *s = &a->sweep->data;
    const int dw = c->w * 2, dh = c->h * 4;
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        int px = -1, py = -1;
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, a->sweep->q);
            if (!(v > 0.0) || !isfinite(v)) {
                px = -1;
                continue;
            }
            const int x = rs_chart_x(s, i, dw), y = dh - 1 - rs_log_pos(ax, v, dh);
            if (px >= 0)
                line(c, px, py, x, y, k);
            else
                dot(c, x, y, k);
            put_mark(c, x / 2, y / 4, k);
            px = x, py = y;
        }
    }
}

/* The limit: the streaming read measured with the sweep's runs (a replay
 * carries it in every row), else the one measured by this explorer. */
static double sweep_limit(const ui_app *a)
{
    const double rows = rs_rows_limit(a->sweep->data.rows, a->sweep->data.done);
    return rows > 0.0 ? rows : a->dev.measured_gbps;
}

/* The L2's read measured with a sweep that holds warm runs (0: none). */
static double sweep_l2(const ui_app *a)
{
    const rs_sweep *s = &a->sweep->data;
    int warm = 0;
    for (int k = 0; k < s->nvar; k++) warm |= s->cache[k] == RS_CACHE_WARM;
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(s, &c);
    return warm ? c.l2_gbps : 0.0;
}

/* The peaks as dotted lines in the GB/s view (the L2's read too, warm). */
static void plot_peaks(const ui_app *a, canvas *c, rs_axis ax)
{
    const double peaks[3] = {a->dev.peak_gbps, sweep_limit(a), sweep_l2(a)};
    for (int p = 0; a->sweep->q == RS_CHART_GBPS && p < 3; p++) {
        if (!(peaks[p] > 0) || !isfinite(peaks[p])) continue;
        const int y = c->h * 4 - 1 - rs_log_pos(ax, peaks[p], c->h * 4);
        for (int x = 0; x < c->w * 2; x += 3) dot(c, x, y, PEAK_OWNER);
    }
}

static void paint_cell(const rs_sweep *s, const canvas *c, int cell, int y, int x, int on_cursor)
{
    const int utf8 = ui_theme_utf8(), o = c->owner[cell], m = c->mark[cell];
    char buf[4];
    if (m != -1) {
        ui_put(y, x, 1, m == MARK_MANY ? R_NORMAL : series_role(s, m), series_mark(s, m, buf));
    } else if (c->dots[cell]) {
        const ui_role role = o == PEAK_OWNER ? R_DIM : series_role(s, o);
        if (utf8)
            put_braille(y, x, c->dots[cell], role);
        else
            ui_put(y, x, 1, role, o == PEAK_OWNER ? "-" : ".");
    } else if (on_cursor) { /* the cursor, under the data */
        ui_put(y, x, 1, R_ACCENT, utf8 ? "\xe2\x94\x82" : "|");
    }
}

static void paint(const rs_sweep *s, const canvas *c, ui_rect at, int cursor_col)
{
    for (int cy = 0; cy < c->h; cy++)
        for (int cx = 0; cx < c->w; cx++)
            paint_cell(s, c, cy * c->w + cx, at.y + cy, at.x + cx, cx == cursor_col);
}

/* A decade as a label: 100 ns, 1 µs, 10 µs, 1 ms (one style, no 1.00 ms). */
static void axis_label(double v, rs_chart_quantity q, char *buf, size_t len)
{
    if (q != RS_CHART_TIME)
        snprintf(buf, len, "%g", v);
    else if (v < 1e-3)
        snprintf(buf, len, "%g ns", v * 1e6);
    else if (v < 1.0)
        snprintf(buf, len, "%g %s", v * 1e3, ui_theme_utf8() ? "\xc2\xb5s" : "us");
    else if (v < 1000.0)
        snprintf(buf, len, "%g ms", v);
    else
        snprintf(buf, len, "%g s", v / 1e3);
}

/* The decades, right-aligned in the margin, one label a row at most. */
static void draw_y_labels(const ui_app *a, rs_axis ax, int y0, int x, int w, int rows)
{
    double dec[64];
    const int nd = rs_log_decades(ax, dec, 64);
    int center[64], width[64], start[64];
    char text[64][24];
    for (int k = 0; k < nd; k++) {
        axis_label(dec[k], a->sweep->q, text[k], sizeof text[k]);
        center[k] = rows - 1 - rs_log_pos(ax, dec[k], rows);
        width[k] = 1;
    }
    rs_place_labels(center, width, nd, -1, rows, 0, start);
    for (int k = 0; k < nd; k++)
        if (start[k] >= 0 && ui_width(text[k]) <= w)
            ui_put(y0 + start[k], x + w - ui_width(text[k]), w, R_DIM, text[k]);
}

/* n under the plot: the cursor's label first (highlighted), the others only
 * where they stay inside and a column away from their neighbours. */
static void draw_x_labels(const ui_app *a, int y, int x0, int cw)
{
    const rs_sweep *s = &a->sweep->data;
    const int n = s->sizes.count;
    int center[RS_SWEEP_MAX_SIZES], width[RS_SWEEP_MAX_SIZES], start[RS_SWEEP_MAX_SIZES];
    char text[RS_SWEEP_MAX_SIZES][24];
    for (int i = 0; i < n; i++) {
        rs_format_size(s->sizes.n[i], text[i], sizeof text[i]);
        center[i] = rs_chart_x(s, i, cw * 2) / 2;
        width[i] = ui_width(text[i]);
    }
    rs_place_labels(center, width, n, a->sweep->cursor, cw, 1, start);
    for (int i = 0; i < n; i++)
        if (start[i] >= 0)
            ui_put(y, x0 + start[i], width[i], i == a->sweep->cursor ? R_SELECTED : R_DIM, text[i]);
}

/* The chart in r: plot rows, then the row of n. */
static void draw_chart(const ui_app *a, ui_rect r)
{
    const rs_sweep *s = &a->sweep->data;
    const int left = 10, cw = r.w - left, ch = r.h - 1;
    if (cw < 10 || ch < 3) {
        if (r.h > 0) ui_put(r.y, r.x, r.w, R_DIM, "(the window is too small for the chart)");
        return;
    }
    const rs_axis ax = rs_chart_axis(s, a->sweep->q, fmax(a->dev.peak_gbps, sweep_l2(a)));
    canvas c;
    if (!canvas_init(&c, cw, ch)) {
        canvas_free(&c);
        return;
    }
    plot_peaks(a, &c, ax);
    plot_series(a, &c, ax);
    const int cursor = s->sizes.count ? rs_chart_x(s, a->sweep->cursor, cw * 2) / 2 : -1;
    paint(s, &c, (ui_rect){r.y, r.x + left, ch, cw}, cursor);
    canvas_free(&c);
    draw_y_labels(a, ax, r.y, r.x, left - 2, ch);
    draw_x_labels(a, r.y + ch, r.x + left, cw);
}

/* Items in rows of w columns, gap apart: an item that does not fit after
 * the last starts a row (so none is cut unless wider than w). Draws from
 * row y when y >= 0; returns the rows used. */
static int flow(char (*item)[64], const ui_role *role, int count, int gap, int y, int x, int w)
{
    int row = 0, col = 0;
    for (int i = 0; i < count; i++) {
        const int iw = ui_width(item[i]);
        if (col > 0 && col + gap + iw > w)
            row++, col = 0;
        else if (col > 0)
            col += gap;
        if (y >= 0) ui_put(y + row, x + col, w - col, role[i], item[i]);
        col += iw;
    }
    return count ? row + 1 : 0;
}

/* The legend: every series with its mark, '*', and the peaks' lines; the
 * CPU baseline just "cpu" when short names are asked for. */
static int legend_items(const ui_app *a, int short_cpu, char (*item)[64], ui_role *role)
{
    const rs_sweep *s = &a->sweep->data;
    int order[RS_SWEEP_MAX_SERIES]; /* a variant's states side by side */
    const int ns = rs_sweep_series_order(s, order);
    int n = 0;
    for (int j = 0; j < ns; j++, n++) {
        const int k = order[j];
        char buf[4], label[128];
        const char *name = short_cpu && k >= s->nvar
                               ? rs_variant_name(RS_V_CPU)
                               : rs_sweep_series_label(s, k, label, sizeof label);
        snprintf(item[n], sizeof item[n], "%s %s", series_mark(s, k, buf), name);
        role[n] = series_role(s, k);
    }
    if (ns > 1) snprintf(item[n], sizeof item[n], "* several"), role[n++] = R_DIM;
    const double peak = a->dev.peak_gbps, meas = sweep_limit(a);
    if (a->sweep->q != RS_CHART_GBPS || !(peak > 0 || meas > 0)) return n;
    const char *how = ui_theme_utf8() ? "dotted" : "dashed";
    const double l2 = sweep_l2(a);
    if (peak > 0 && meas > 0 && l2 > 0)
        snprintf(item[n], sizeof item[n], "%s: peak %.0f, DRAM read %.0f, L2 read %.0f GB/s", how,
                 peak, meas, l2);
    else if (peak > 0 && meas > 0)
        snprintf(item[n], sizeof item[n], "%s: peak %.0f, streaming read %.0f GB/s (measured)", how,
                 peak, meas);
    else
        snprintf(item[n], sizeof item[n], "%s: %s %.0f GB/s", how,
                 peak > 0 ? "peak" : "streaming read", peak > 0 ? peak : meas);
    role[n++] = R_DIM;
    return n;
}

/* The legend's items, rows and gap: "cpu" for the CPU baseline, then one
 * column between items, where that saves a row. */
static int legend_layout(const ui_app *a, int w, char (*item)[64], ui_role *role, int *rows,
                         int *gap)
{
    char alt[ITEMS][64];
    ui_role alt_role[ITEMS];
    const int n = legend_items(a, 0, item, role), m = legend_items(a, 1, alt, alt_role);
    *gap = 2;
    *rows = flow(item, role, n, 2, -1, 0, w);
    const int short_rows = flow(alt, alt_role, m, 2, -1, 0, w);
    const int tight_rows = flow(alt, alt_role, m, 1, -1, 0, w);
    if (short_rows >= *rows && tight_rows >= *rows) return n;
    memcpy(item, alt, sizeof alt);
    memcpy(role, alt_role, sizeof alt_role);
    *gap = short_rows < *rows ? 2 : 1;
    *rows = short_rows < *rows ? short_rows : tight_rows;
    return m;
}

static void value_text(const ui_app *a, int k, char *t, size_t len)
{
    const rs_sweep *s = &a->sweep->data;
    const int i = a->sweep->cursor;
    const double v = rs_sweep_value(s, i, k, a->sweep->q);
    double l2 = 0.0; /* a warm run within the L2: held against the L2's read */
    if (v > 0 && k < s->nvar && s->cache[k] == RS_CACHE_WARM &&
        rs_result_ceiling(&rs_sweep_row(s, i, k)->result, &l2) != RS_CEIL_L2)
        l2 = 0.0;
    if (v > 0 && a->sweep->q == RS_CHART_TIME)
        rs_fmt_time(v, ui_theme_utf8(), t, len);
    else if (v > 0 && l2 > 0)
        snprintf(t, len, "%.0f GB/s %.0f%% L2", v, 100.0 * v / l2);
    else if (v > 0 && sweep_limit(a) > 0)
        snprintf(t, len, "%.0f GB/s %.0f%%", v, 100.0 * v / sweep_limit(a));
    else if (v > 0)
        snprintf(t, len, "%.0f GB/s", v);
    else if (k < s->nvar && rs_sweep_index(s, i, k) < s->done &&
             rs_sweep_row(s, i, k)->status == RS_E_NOMEM)
        snprintf(t, len, "skipped");
    else
        snprintf(t, len, "-");
}

/* The values at the cursor's n, one item per series. */
static int cursor_items(const ui_app *a, char (*item)[64], ui_role *role)
{
    const rs_sweep *s = &a->sweep->data;
    if (a->sweep->cursor < 0 || a->sweep->cursor >= s->sizes.count) return 0;
    char n[32];
    rs_format_size(s->sizes.n[a->sweep->cursor], n, sizeof n);
    snprintf(item[0], sizeof item[0], "n = %s:", n);
    role[0] = R_NORMAL;
    int count = 1, order[RS_SWEEP_MAX_SERIES];
    const int ns = rs_sweep_series_order(s, order);
    for (int j = 0; j < ns; j++, count++) {
        const int k = order[j];
        char t[32], buf[4];
        value_text(a, k, t, sizeof t);
        snprintf(item[count], sizeof item[count], "%s %s", series_mark(s, k, buf), t);
        role[count] = R_NORMAL;
    }
    return count;
}

static int count_set(rs_variant_set m)
{
    int n = 0;
    for (int b = 0; b < RS_VARIANT_COUNT; b++) n += (m & RS_VARIANT_BIT(b)) != 0;
    return n;
}

/* Live, the range and variants typed since the sweep ran are not the ones
 * charted (in replay, Enter looks up settings and brings their own). */
static int range_differs(const ui_app *a)
{
    const rs_sweep *s = &a->sweep->data;
    rs_sweep_sizes want;
    rs_error err;
    if (a->replay || rs_sweep_parse(a->sweep->range, &want, &err) != RS_OK) return 0;
    rs_variant_set mask = 0;
    for (int v = 0; v < s->nvar; v++) mask |= RS_VARIANT_BIT(s->var[v]);
    if (mask != a->sweep->vars || want.count != s->sizes.count) return 1;
    for (int i = 0; i < want.count; i++)
        if (want.n[i] != s->sizes.n[i]) return 1;
    return 0;
}

/* The settings the chart on screen was measured with, when they are not
 * the current ones (after t, say): said, so no one reads it as an answer. */
static int chart_note(const ui_app *a, char *buf, size_t len)
{
    const rs_request *c = &a->sweep->cfg, *now = &a->cfg;
    const int settings = c->type != now->type || c->op != now->op || c->block != now->block ||
                         c->finish != now->finish || c->reps != now->reps || c->dist != now->dist ||
                         c->grid != now->grid || c->ept != now->ept ||
                         strcmp(c->metrics, now->metrics) != 0;
    const int range = a->sweep->data.sizes.count > 0 && range_differs(a);
    if (!settings && !range) return 0;
    rs_request shown = *c;
    shown.n = 0;
    char set[256], over[96] = "", lo[32], hi[32];
    ui_settings_title(&shown, NULL, 1000, set, sizeof set);
    if (range) {
        rs_format_size(a->sweep->data.sizes.n[0], lo, sizeof lo);
        rs_format_size(a->sweep->data.sizes.n[a->sweep->data.sizes.count - 1], hi, sizeof hi);
        snprintf(over, sizeof over, " over %s..%s, %d variant%s", lo, hi, a->sweep->data.nvar,
                 a->sweep->data.nvar == 1 ? "" : "s");
    }
    snprintf(buf, len, "chart measured with %s%s; Enter %s the current configuration", set, over,
             a->replay ? "looks up" : "runs");
    return 1;
}

/* g range and v variants, in the longest form that fits; the counters set
 * too when the title had no room for it. */
static void draw_range_line(const ui_app *a, int y, int x, int w, int counters)
{
    char vars[160], cnt[64] = "", line_text[320];
    rs_request tmp;
    rs_request_defaults(&tmp);
    tmp.variants = a->sweep->vars;
    rs_field_format(&tmp, rs_field_by_key("run", "variants"), vars, sizeof vars);
    if (counters) snprintf(cnt, sizeof cnt, "   counters %.40s", a->cfg.metrics);
    const int nv = count_set(a->sweep->vars);
    for (int form = 0; form < 3; form++) {
        if (form == 0)
            snprintf(line_text, sizeof line_text, "g range %s   v variants %s%s", a->sweep->range,
                     vars, cnt);
        else
            snprintf(line_text, sizeof line_text, "%s %s   v %d variant%s%s",
                     form == 1 ? "g range" : "g", a->sweep->range, nv, nv == 1 ? "" : "s", cnt);
        if (ui_width(line_text) <= w) break;
    }
    ui_put(y, x, w, R_NORMAL, line_text);
}

/* Lines of text wrapped to w from row y; returns the rows. */
static int put_wrapped(const char *text, int max, int y, int x, int w, ui_role role)
{
    char lines[4][256];
    const int n = ui_wrap(text, w, lines, max < 4 ? max : 4);
    for (int i = 0; y >= 0 && i < n; i++) ui_put(y + i, x, w, role, lines[i]);
    return n;
}

/* The title: the current configuration; 1 when the counters set did not
 * fit in it (the range line then says it). */
static int draw_title(const ui_app *a, ui_rect r)
{
    char title[256], lead[32];
    snprintf(lead, sizeof lead, "Sweep %s %s", ui_glyph(G_SEP),
             a->sweep->q == RS_CHART_TIME ? "time" : "GB/s");
    rs_request cur = a->cfg;
    cur.n = 0; /* the range, not one n */
    ui_settings_title(&cur, lead, 1000, title, sizeof title);
    const int whole = ui_width(title) <= r.w - 6;
    if (!whole) ui_settings_title(&cur, lead, r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    return !whole;
}

static void draw_empty(const ui_app *a, int y, int x, int w)
{
    put_wrapped(a->replay ? "Enter shows the sweep recorded with these settings, if there is one "
                            "(R lists what the recording holds)."
                : ui_enter_does(a) == UI_ENTER_COMPILES
                    ? "No GPU: a sweep needs one. R replays a recording that holds a sweep."
                    : "Enter runs the sweep: every variant at every n. y switches time and "
                      "GB/s; Left/Right reads values.",
                3, y, x, w, R_DIM);
}

void ui_draw_sweep(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    const int x = r.x + 2, w = r.w - 4;
    draw_range_line(a, r.y + 1, x, w, draw_title(a, r));
    if (!a->sweep->ready) {
        draw_empty(a, r.y + 3, x, w);
        return;
    }
    char note[512], cross[560], legend[ITEMS][64], values[ITEMS][64];
    ui_role legend_role[ITEMS], value_role[ITEMS];
    const int has_note = chart_note(a, note, sizeof note);
    char leads[480];
    rs_sweep_crossovers(&a->sweep->data, leads, sizeof leads);
    if (leads[0]) /* as the table says it: the lead needs more than 5% to change */
        snprintf(cross, sizeof cross, "%s (a lead changes where another is >%.0f%% faster)", leads,
                 100.0 * (RS_LEAD_MARGIN - 1.0));
    else
        snprintf(cross, sizeof cross, "crossovers appear as sizes finish");
    int legend_rows, gap;
    const int nl = legend_layout(a, w, legend, legend_role, &legend_rows, &gap);
    const int nv = cursor_items(a, values, value_role);
    const int note_rows = has_note ? put_wrapped(note, 2, -1, x, w, R_WARN) : 0;
    const int cross_rows = put_wrapped(cross, 3, -1, x, w, R_ACCENT);
    const int value_rows = flow(values, value_role, nv, 2, -1, x, w);
    const int bottom = legend_rows + cross_rows + value_rows;
    int chart_h = r.h - 3 - note_rows - bottom;
    const int spacer = chart_h >= 13; /* a blank row above the legend when there is room */
    chart_h = chart_h - spacer < 0 ? 0 : chart_h - spacer;
    const int last = r.y + r.h - 2; /* nothing below it: the frame */
    int y = r.y + 2;
    if (has_note) y += put_wrapped(note, 2, y, x, w, R_WARN);
    draw_chart(a, (ui_rect){y, x, chart_h, w});
    y += chart_h + spacer;
    if (y + legend_rows - 1 <= last) y += flow(legend, legend_role, nl, gap, y, x, w);
    if (y + cross_rows - 1 <= last) y += put_wrapped(cross, 3, y, x, w, R_ACCENT);
    if (y + value_rows - 1 <= last) flow(values, value_role, nv, 2, y, x, w);
}

int ui_open_sweep(ui_app *a)
{
    (void)a;
    return 1;
}

int ui_key_sweep(ui_app *a, ui_action act)
{
    switch (act) {
    case UI_ACT_LEFT:
        a->sweep->cursor = ui_list_step(a->sweep->cursor, -1, a->sweep->data.sizes.count, 0);
        return 1;
    case UI_ACT_RIGHT:
        a->sweep->cursor =
            ui_list_step(a->sweep->cursor, 1, a->sweep->ready ? a->sweep->data.sizes.count : 0, 0);
        return 1;
    case UI_ACT_RUN:
        if (a->replay)
            ui_replay_sweep(a);
        else
            ui_run_sweep(a);
        return 1;
    case UI_ACT_TOGGLE_Y:
        a->sweep->q = a->sweep->q == RS_CHART_TIME ? RS_CHART_GBPS : RS_CHART_TIME;
        return 1;
    default: return 0;
    }
}
