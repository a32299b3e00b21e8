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

typedef struct canvas {
    int w, h;            /* cells */
    unsigned char *dots; /* braille bits per cell */
    signed char *owner;  /* series drawn last in the cell, -1 none */
    char *letter;        /* ASCII mode: a letter per point */
} canvas;

static int canvas_init(canvas *c, int w, int h)
{
    c->w = w;
    c->h = h;
    c->dots = calloc((size_t)(w * h), 1);
    c->owner = malloc((size_t)(w * h));
    c->letter = calloc((size_t)(w * h), 1);
    if (!c->dots || !c->owner || !c->letter) return 0;
    memset(c->owner, -1, (size_t)(w * h));
    return 1;
}

static void canvas_free(canvas *c)
{
    free(c->dots);
    free(c->owner);
    free(c->letter);
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

static int x_of(const rs_sweep *s, int i, int dots_w)
{
    const double lo = log2((double)s->sizes.n[0]);
    const double hi = log2((double)s->sizes.n[s->sizes.count - 1]);
    if (hi <= lo) return dots_w / 2;
    return (int)lround((log2((double)s->sizes.n[i]) - lo) / (hi - lo) * (dots_w - 1));
}

static void value_range(const rs_sweep *s, rs_chart_quantity q, const rs_device_info *d, double *lo,
                        double *hi)
{
    *lo = INFINITY;
    *hi = 0.0;
    for (int k = 0; k < rs_sweep_series_count(s); k++)
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, q);
            if (v > 0.0) *lo = fmin(*lo, v), *hi = fmax(*hi, v);
        }
    if (q == RS_CHART_GBPS && d->peak_gbps > 0) *hi = fmax(*hi, d->peak_gbps);
    if (!(*hi > 0.0)) *lo = 1.0, *hi = 10.0;
}

static void axis_label(double v, rs_chart_quantity q, char *buf, size_t len)
{
    if (q == RS_CHART_TIME)
        rs_fmt_time(v, ui_theme_utf8(), buf, len);
    else
        snprintf(buf, len, "%g", v);
}

static void draw_chart(ui_app *a, ui_rect r)
{
    const rs_sweep *s = &a->sweep;
    const int left = 10, cw = r.w - left, ch = r.h - 1;
    if (cw < 10 || ch < 3) return;
    double lo, hi;
    value_range(s, a->sweep_q, &a->dev, &lo, &hi);
    const rs_axis ax = rs_log_axis(lo, hi);
    canvas c;
    if (!canvas_init(&c, cw, ch)) {
        canvas_free(&c);
        return;
    }
    const int utf8 = ui_theme_utf8(), dw = cw * 2, dh = ch * 4;
    /* the peaks as dotted lines in the GB/s view */
    const double peaks[2] = {a->dev.peak_gbps, a->dev.measured_gbps};
    for (int p = 0; a->sweep_q == RS_CHART_GBPS && p < 2; p++) {
        if (!(peaks[p] > 0)) continue;
        const int y = dh - 1 - rs_log_pos(ax, peaks[p], dh);
        for (int x = 0; x < dw; x += 3) dot(&c, x, y, 6 + p);
    }
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        int px = -1, py = -1;
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, a->sweep_q);
            if (!(v > 0.0)) {
                px = -1;
                continue;
            }
            const int x = x_of(s, i, dw), y = dh - 1 - rs_log_pos(ax, v, dh);
            if (utf8 && px >= 0)
                line(&c, px, py, x, y, k);
            else
                dot(&c, x, y, k);
            c.letter[(y / 4) * cw + x / 2] = (char)('a' + k);
            px = x, py = y;
        }
    }
    for (int cy = 0; cy < ch; cy++)
        for (int cx = 0; cx < cw; cx++) {
            const int cell = cy * cw + cx;
            if (!c.dots[cell]) continue;
            const int o = c.owner[cell];
            const ui_role role = o >= 6 ? R_DIM : (ui_role)(R_SERIES0 + o % 6);
            if (utf8) {
                put_braille(r.y + cy, r.x + left + cx, c.dots[cell], role);
            } else {
                const char t[2] = {c.letter[cell] ? c.letter[cell] : (o >= 6 ? '-' : '.'), 0};
                ui_put(r.y + cy, r.x + left + cx, 1, role, t);
            }
        }
    canvas_free(&c);
    /* y axis: the decades */
    for (double v = ax.lo; v <= ax.hi * 1.0001; v *= 10.0) {
        char t[24];
        axis_label(v, a->sweep_q, t, sizeof t);
        const int y = r.y + ch - 1 - rs_log_pos(ax, v, ch);
        ui_putf(y, r.x, left - 1, R_DIM, "%8s", t);
    }
    /* x axis: n at a few sizes, the cursor's highlighted */
    int next_free = 0;
    for (int i = 0; i < s->sizes.count; i++) {
        char t[24];
        rs_format_size(s->sizes.n[i], t, sizeof t);
        const int x = left + x_of(s, i, dw) / 2;
        const int sel = i == a->sweep_cursor;
        if (x < next_free && !sel) continue;
        ui_put(r.y + ch, r.x + x, ui_width(t), sel ? R_SELECTED : R_DIM, t);
        next_free = x + ui_width(t) + 1;
    }
}

static void draw_legend(ui_app *a, int y, int x, int w)
{
    const rs_sweep *s = &a->sweep;
    int used = 0;
    for (int k = 0; k < rs_sweep_series_count(s) && used < w; k++) {
        char item[64];
        snprintf(item, sizeof item, "%c %s  ", 'a' + k, rs_sweep_series_name(s, k));
        used += ui_put(y, x + used, w - used, (ui_role)(R_SERIES0 + k % 6), item);
    }
    if (a->sweep_q == RS_CHART_GBPS && used < w)
        ui_putf(y, x + used, w - used, R_DIM, "dotted: peak %.0f / measured %.0f GB/s",
                a->dev.peak_gbps, a->dev.measured_gbps);
}

static void draw_cursor_values(ui_app *a, int y, int x, int w)
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
        used += snprintf(line_text + used, sizeof line_text - (size_t)used, "  %c %s", 'a' + k, t);
        if (used >= (int)sizeof line_text - 40) break;
    }
    ui_put(y, x, w, R_NORMAL, line_text);
}

void ui_draw_sweep(ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[256], vars[160];
    rs_request tmp;
    rs_request_defaults(&tmp);
    tmp.variants = a->sweep_vars;
    rs_field_format(&tmp, rs_field_by_key("run", "variants"), vars, sizeof vars);
    /* what the chart shows: the sweep's own configuration once it has rows */
    const rs_request *shown = &a->cfg;
    for (int i = 0; a->sweep_ready && i < a->sweep.done; i++)
        if (a->sweep.rows[i].status == RS_OK) {
            shown = &a->sweep.rows[i].result.req;
            break;
        }
    snprintf(title, sizeof title, "Sweep %s %s %s %s block %u %s %s", ui_glyph(G_SEP),
             rs_dtype_name(shown->type), rs_op_name(shown->op), ui_glyph(G_SEP), shown->block,
             ui_glyph(G_SEP), a->sweep_q == RS_CHART_TIME ? "time" : "GB/s");
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    ui_putf(r.y + 1, x, w, R_NORMAL, "v variants %s   g range %s", vars, a->sweep_range);
    if (!a->sweep_ready) {
        ui_put(r.y + 3, x, w, R_DIM,
               "Enter runs the sweep: every variant at every n. y "
               "switches time and GB/s; Left/Right reads values.");
        return;
    }
    const ui_rect chart = {r.y + 2, x, r.h - 7, w};
    draw_chart(a, chart);
    draw_legend(a, r.y + r.h - 4, x, w);
    char cross[512];
    rs_sweep_crossovers(&a->sweep, cross, sizeof cross);
    ui_putf(r.y + r.h - 3, x, w, R_ACCENT, "%s",
            cross[0] ? cross : "crossovers appear as sizes finish");
    draw_cursor_values(a, r.y + r.h - 2, x, w);
}
