/* The sweep screen: time or GB/s against n on log scales, one series per
 * variant, drawn with braille dots (letters in ASCII), the crossovers named
 * below and a cursor that reads exact values. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"

/* Marks at the data points, one per series, so series stay apart without
 * color; '*' where several share a cell. */
static const char *const marks_utf8[] = {"\xe2\x97\x8f", "\xe2\x97\x8b", "\xe2\x96\xa0",
                                         "\xe2\x96\xa1", "\xe2\x96\xb2", "\xe2\x96\xb3",
                                         "\xe2\x97\x86", "\xe2\x97\x87"}; /* ● ○ ■ □ ▲ △ ◆ ◇ */
static const char marks_ascii[] = "oxs+adwv";
#define NMARKS    8
#define MARK_MANY (-2)

static const char *series_mark(int k, char *buf)
{
    if (k == MARK_MANY) return "*";
    if (ui_theme_utf8()) return marks_utf8[k % NMARKS];
    buf[0] = marks_ascii[k % NMARKS];
    buf[1] = '\0';
    return buf;
}

typedef struct canvas {
    int w, h;            /* cells */
    unsigned char *dots; /* braille bits per cell */
    signed char *owner;  /* series drawn last in the cell, -1 none */
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

static void dot(canvas *c, int dx, int dy, int series)
{
    static const unsigned char bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    if (dx < 0 || dy < 0 || dx >= c->w * 2 || dy >= c->h * 4) return;
    const int cell = (dy / 4) * c->w + dx / 2;
    c->dots[cell] |= bit[dy % 4][dx % 2];
    c->owner[cell] = (signed char)series;
}

static void line(canvas *c, int x0, int y0, int x1, int y1, int series)
{
    const int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    const int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
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

static void axis_label(double v, rs_chart_quantity q, char *buf, size_t len)
{
    if (q == RS_CHART_TIME)
        rs_fmt_time(v, ui_theme_utf8(), buf, len);
    else
        snprintf(buf, len, "%g", v);
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
    const rs_sweep *s = &a->sweep;
    const int dw = c->w * 2, dh = c->h * 4;
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        int px = -1, py = -1;
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, a->sweep_q);
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

static void paint(const canvas *c, ui_rect at, int cursor_col)
{
    const int utf8 = ui_theme_utf8();
    char buf[4];
    for (int cy = 0; cy < c->h; cy++)
        for (int cx = 0; cx < c->w; cx++) {
            const int cell = cy * c->w + cx, o = c->owner[cell], m = c->mark[cell];
            const int y = at.y + cy, x = at.x + cx;
            if (m != -1) {
                const ui_role role = m == MARK_MANY ? R_NORMAL : (ui_role)(R_SERIES0 + m % 6);
                ui_put(y, x, 1, role, series_mark(m, buf));
            } else if (c->dots[cell]) {
                const ui_role role = o >= 6 ? R_DIM : (ui_role)(R_SERIES0 + o % 6);
                if (utf8)
                    put_braille(y, x, c->dots[cell], role);
                else
                    ui_put(y, x, 1, role, o >= 6 ? "-" : ".");
            } else if (cx == cursor_col) { /* the cursor, under the data */
                ui_put(y, x, 1, R_ACCENT, utf8 ? "\xe2\x94\x82" : "|");
            }
        }
}

static void draw_x_labels(const ui_app *a, int y, int x0, int cw)
{
    const rs_sweep *s = &a->sweep;
    const int n = s->sizes.count;
    int center[RS_SWEEP_MAX_SIZES], width[RS_SWEEP_MAX_SIZES], start[RS_SWEEP_MAX_SIZES];
    char text[RS_SWEEP_MAX_SIZES][24];
    for (int i = 0; i < n; i++) {
        rs_format_size(s->sizes.n[i], text[i], sizeof text[i]);
        center[i] = rs_chart_x(s, i, cw * 2) / 2;
        width[i] = ui_width(text[i]);
    }
    rs_place_labels(center, width, n, a->sweep_cursor, cw, start);
    for (int i = 0; i < n; i++)
        if (start[i] >= 0)
            ui_put(y, x0 + start[i], width[i], i == a->sweep_cursor ? R_SELECTED : R_DIM, text[i]);
}

static void draw_chart(const ui_app *a, ui_rect r)
{
    const rs_sweep *s = &a->sweep;
    const int left = 10, cw = r.w - left, ch = r.h - 1;
    if (cw < 10 || ch < 3) return;
    const rs_axis ax = rs_chart_axis(s, a->sweep_q, a->dev.peak_gbps);
    canvas c;
    if (!canvas_init(&c, cw, ch)) {
        canvas_free(&c);
        return;
    }
    const int dw = cw * 2, dh = ch * 4;
    /* the peaks as dotted lines in the GB/s view */
    const double peaks[2] = {a->dev.peak_gbps, a->dev.measured_gbps};
    for (int p = 0; a->sweep_q == RS_CHART_GBPS && p < 2; p++) {
        if (!(peaks[p] > 0) || !isfinite(peaks[p])) continue;
        const int y = dh - 1 - rs_log_pos(ax, peaks[p], dh);
        for (int x = 0; x < dw; x += 3) dot(&c, x, y, 6 + p);
    }
    plot_series(a, &c, ax);
    const int cursor = s->sizes.count ? rs_chart_x(s, a->sweep_cursor, dw) / 2 : -1;
    paint(&c, (ui_rect){r.y, r.x + left, ch, cw}, cursor);
    canvas_free(&c);
    double dec[64];
    const int nd = rs_log_decades(ax, dec, 64);
    for (int k = 0; k < nd; k++) { /* y axis: the decades */
        char t[24];
        axis_label(dec[k], a->sweep_q, t, sizeof t);
        ui_putf(r.y + ch - 1 - rs_log_pos(ax, dec[k], ch), r.x, left - 1, R_DIM, "%8s", t);
    }
    draw_x_labels(a, r.y + ch, r.x + left, cw);
}

/* One legend item; compact: one space after it and "cpu" for the CPU. */
static int legend_item(const rs_sweep *s, int k, int compact, char *item, size_t len)
{
    char buf[4];
    const char *name = compact && k >= s->nvar ? "cpu" : rs_sweep_series_name(s, k);
    return snprintf(item, len, "%s %s%s", series_mark(k, buf), name, compact ? " " : "  ");
}

static void draw_legend(const ui_app *a, int y, int x, int w)
{
    const rs_sweep *s = &a->sweep;
    static const char several[] = "* several";
    char item[64];
    int full = ui_width(several);
    for (int k = 0; k < rs_sweep_series_count(s); k++)
        full += ui_width((legend_item(s, k, 0, item, sizeof item), item));
    const int compact = full > w; /* every mark must be explained, '*' too */
    int used = 0;
    for (int k = 0; k < rs_sweep_series_count(s) && used < w; k++) {
        legend_item(s, k, compact, item, sizeof item);
        used += ui_put(y, x + used, w - used, (ui_role)(R_SERIES0 + k % 6), item);
    }
    if (used < w) used += ui_put(y, x + used, w - used, R_DIM, several);
    char peaks[96];
    snprintf(peaks, sizeof peaks, "dotted: peak %.0f / measured %.0f GB/s", a->dev.peak_gbps,
             a->dev.measured_gbps);
    if (a->sweep_q == RS_CHART_GBPS && used + 2 + ui_width(peaks) <= w) /* whole, or not */
        ui_put(y, x + used + 2, w - used - 2, R_DIM, peaks);
}

static void draw_cursor_values(const ui_app *a, int y, int x, int w)
{
    const rs_sweep *s = &a->sweep;
    if (a->sweep_cursor >= s->sizes.count) return;
    char n[32], line_text[1024];
    rs_format_size(s->sizes.n[a->sweep_cursor], n, sizeof n);
    int used = snprintf(line_text, sizeof line_text, "n = %s:", n);
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        const double v = rs_sweep_value(s, a->sweep_cursor, k, a->sweep_q);
        char t[32];
        if (v > 0 && a->sweep_q == RS_CHART_TIME)
            rs_fmt_time(v, ui_theme_utf8(), t, sizeof t);
        else if (v > 0)
            snprintf(t, sizeof t, "%.0f GB/s", v);
        else if (k < s->nvar && a->sweep_cursor * s->nvar + k < s->done &&
                 rs_sweep_row(s, a->sweep_cursor, k)->status == RS_E_NOMEM)
            snprintf(t, sizeof t, "skipped");
        else
            snprintf(t, sizeof t, "-");
        char buf[4];
        used += snprintf(line_text + used, sizeof line_text - (size_t)used, "  %s %s",
                         series_mark(k, buf), t);
        if (used >= (int)sizeof line_text - 40) break;
    }
    ui_put(y, x, w, R_NORMAL, line_text);
}

/* The settings the chart on screen was measured with, when they are not
 * the current ones (after t, say): said, so no one reads it as an answer. */
static int chart_settings_differ(const ui_app *a, char *buf, size_t len)
{
    const rs_request *c = &a->sweep_cfg, *now = &a->cfg;
    if (c->type == now->type && c->op == now->op && c->block == now->block &&
        c->finish == now->finish && c->reps == now->reps && c->dist == now->dist &&
        c->grid == now->grid && c->ept == now->ept)
        return 0;
    rs_request shown = *c;
    shown.n = 0;
    ui_settings_title(&shown, NULL, 200, buf, len);
    return 1;
}

void ui_draw_sweep(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[256], vars[160], lead[32];
    rs_request tmp;
    rs_request_defaults(&tmp);
    tmp.variants = a->sweep_vars;
    rs_field_format(&tmp, rs_field_by_key("run", "variants"), vars, sizeof vars);
    snprintf(lead, sizeof lead, "Sweep %s %s", ui_glyph(G_SEP),
             a->sweep_q == RS_CHART_TIME ? "time" : "GB/s");
    rs_request cur = a->cfg;
    cur.n = 0; /* the range, not one n */
    ui_settings_title(&cur, lead, r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    ui_putf(r.y + 1, x, w, R_NORMAL, "g range %s   v variants %s", a->sweep_range, vars);
    if (!a->sweep_ready) {
        ui_put(r.y + 3, x, w, R_DIM,
               a->replay ? "Enter shows the sweep recorded with these settings, if there is one "
                           "(R lists what the recording holds)."
                         : "Enter runs the sweep: every variant at every n. y switches time and "
                           "GB/s; Left/Right reads values.");
        return;
    }
    char other[256];
    const int differ = chart_settings_differ(a, other, sizeof other);
    if (differ)
        ui_putf(r.y + 2, x, w, R_WARN, "chart measured with %s: Enter %s these settings", other,
                a->replay ? "looks up" : "runs");
    const ui_rect chart = {r.y + 2 + differ, x, r.h - 7 - differ, w};
    draw_chart(a, chart);
    draw_legend(a, r.y + r.h - 4, x, w);
    char cross[512];
    rs_sweep_crossovers(&a->sweep, cross, sizeof cross);
    ui_putf(r.y + r.h - 3, x, w, R_ACCENT, "%s",
            cross[0] ? cross : "crossovers appear as sizes finish");
    draw_cursor_values(a, r.y + r.h - 2, x, w);
}

int ui_key_sweep(ui_app *a, ui_action act)
{
    switch (act) {
    case UI_ACT_LEFT:
        if (a->sweep_cursor > 0) a->sweep_cursor--;
        return 1;
    case UI_ACT_RIGHT:
        if (a->sweep_ready && a->sweep_cursor + 1 < a->sweep.sizes.count) a->sweep_cursor++;
        return 1;
    case UI_ACT_RUN:
        if (a->replay)
            ui_replay_sweep(a);
        else
            ui_run_sweep(a);
        return 1;
    case UI_ACT_TOGGLE_Y:
        a->sweep_q = a->sweep_q == RS_CHART_TIME ? RS_CHART_GBPS : RS_CHART_TIME;
        return 1;
    default: return 0;
    }
}
