/* The explorer's Counters panel: the counters of the selected result with
 * their change against its baseline, scrolled where the panel is short. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"
#include "lecture/why.h"

static double scale_of(const rs_metric_def *d, double v)
{
    if (strcmp(d->unit, "%") == 0) return v / 100.0;
    if (strcmp(d->unit, "lanes") == 0) return v / 32.0;
    return -1.0;
}

/* The variant's own counters first, then time and bandwidth, then the rest:
 * a small panel still shows what the step is about. */
static int metric_order(rs_variant v, rs_metric_id *order)
{
    rs_metric_id first[8];
    int n = rs_why_key_metrics(v, first, 6), count = 0;
    first[n++] = RS_M_DURATION;
    first[n++] = RS_M_DRAM_PCT;
    rs_metric_mask seen = 0;
    for (int i = 0; i < n; i++)
        if (!(seen & RS_METRIC_BIT(first[i]))) {
            order[count++] = first[i];
            seen |= RS_METRIC_BIT(first[i]);
        }
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (!(seen & RS_METRIC_BIT(i))) order[count++] = (rs_metric_id)i;
    return count;
}

/* A counter's change against its base, in the one notation
 * (rs_fmt_change): "=", "▼99.2%", "▲×2.31", "▲ from 0". */
static ui_role change_marker(double from, double to, char *buf, size_t len)
{
    const int way = rs_fmt_change(from, to, 1, buf, len);
    return way < 0 ? R_GOOD : way > 0 && from > 0 ? R_WARN : R_DIM;
}

/* Metric rows with a bar where there is a scale and the change against base. */
int ui_draw_metric_rows(const rs_result *cur, const rs_result *base, ui_rect r, int first)
{
    const rs_metrics *m = &cur->metrics;
    int row = 0, shown = 0;
    const int x = r.x, w = r.w;
    const int utf8 = ui_theme_utf8();
    rs_metric_id order[RS_METRIC_COUNT];
    const int count = metric_order(cur->req.variant, order);
    for (int k = 0; k < count; k++) {
        const int i = order[k];
        if (!((m->requested | m->valid) & RS_METRIC_BIT(i))) continue;
        if (shown++ < first || row >= r.h) continue;
        const rs_metric_def *d = &rs_metric_defs[i];
        const int y = r.y + row++;
        /* label | value (10, 14 where wide, right-aligned) | bar (wide panels) | change (8) */
        const int vw = w >= 60 ? 14 : 10;
        int lw = w - vw - 1 - 8;
        if (lw > 27) lw = 27;
        ui_put(y, x, lw - 1, R_NORMAL, d->label);
        if (!(m->valid & RS_METRIC_BIT(i))) {
            ui_put(y, x + lw, w - lw, R_DIM, "n/a");
            continue;
        }
        char v[48], pv[64];
        rs_fmt_metric(m->value[i], d->unit, utf8, v, sizeof v);
        if ((int)strlen(v) > vw && strcmp(d->unit, "count") == 0) /* 1.2 G, not "…" */
            rs_fmt_si(m->value[i], v, sizeof v);
        ui_put(y, x + lw, vw, R_NORMAL, ui_pad(v, vw, pv, sizeof pv));
        const double s = scale_of(d, m->value[i]);
        int col = x + lw + vw + 1;
        if (s >= 0.0 && w - lw - vw - 1 >= 10 + 1 + 8) {
            ui_bar(y, col, 10, s, R_BAR);
            col += 11;
        }
        if (base && (base->metrics.valid & RS_METRIC_BIT(i)) && col < x + w) {
            char c[48];
            const ui_role role = change_marker(base->metrics.value[i], m->value[i], c, sizeof c);
            ui_put(y, col, x + w - col, role, c);
        }
    }
    return shown;
}

void ui_draw_counters(const ui_app *a, ui_rect r, const rs_result *res)
{
    char title[128] = "Counters", label[64];
    const rs_result *base = res ? ui_comparison(a, res, label, sizeof label) : NULL;
    if (base) snprintf(title, sizeof title, "Counters (vs %s)", label);
    ui_box(r, title, R_TITLE);
    const ui_rect in = {r.y + 1, r.x + 2, r.h - 2, r.w - 4};
    if (!res) {
        ui_put(in.y, in.x, in.w, R_DIM, "No result yet.");
        return;
    }
    if (res->req.variant == RS_V_CPU) {
        ui_put(in.y, in.x, in.w, R_DIM, "The CPU row runs on the host: it has no GPU counters.");
        return;
    }
    const rs_metrics *m = &res->metrics;
    char msg[600];
    ui_role role = R_DIM;
    if (!m->requested && a->replay) {
        snprintf(msg, sizeof msg,
                 "Recorded without counters: a replay shows what was measured. Record with "
                 "--metrics on a GPU to see them here.");
    } else if (!m->requested) {
        const int why = !a->replay && !a->gpu.counters_ok && a->gpu.counters_why[0];
        char cost[96] = ""; /* the pass counts the worker measured, when it did */
        if (a->gpu.passes_default > 0 && a->gpu.passes_full > 0)
            snprintf(cost, sizeof cost, " (default costs %d replay pass%s, full %d)",
                     a->gpu.passes_default, a->gpu.passes_default == 1 ? "" : "es",
                     a->gpu.passes_full);
        snprintf(msg, sizeof msg,
                 "Counters were off for this run: m picks a set%s, then Enter.%s%s", cost,
                 why ? " Unavailable here: " : "", why ? a->gpu.counters_why : "");
    } else if (!m->valid) {
        const char *reason = m->reason;
        if (strncmp(reason, "not collected: ", 15) == 0) reason += 15;
        snprintf(msg, sizeof msg, "Counters not collected: %s. The times are still measured.",
                 reason[0] ? reason : "no reason given");
        role = R_WARN;
    } else {
        const ui_rect none = {in.y, in.x, 0, in.w}; /* counts, draws nothing */
        const int total = ui_draw_metric_rows(res, base, none, 0);
        const int first = ui_scroll_first(a->counters_scroll, total, in.h); /* as the Why's */
        ui_draw_metric_rows(res, base, in, first);
        if (total > in.h)
            ui_putf(r.y + r.h - 1, r.x + r.w - 26, 24, R_DIM, " %d-%d/%d %s more { } ", first + 1,
                    first + in.h, total, first + in.h < total ? "v" : "^");
        return;
    }
    char lines[8][256];
    const int k = ui_wrap(msg, in.w, lines, in.h < 8 ? in.h : 8);
    for (int i = 0; i < k; i++) ui_put(in.y + i, in.x, in.w, role, lines[i]);
}

/* The Counters panel a page at a time, to its last row. */
void ui_scroll_counters(ui_app *a, int d)
{
    ui_layout l;
    ui_layout_compute(LINES, COLS, UI_SCREEN_EXPLORER, &l);
    const rs_result *res = ui_result_for(a, a->sel);
    const int rows = l.counters.h - 2;
    const ui_rect none = {0, 0, 0, 0};
    const int total = res ? ui_draw_metric_rows(res, NULL, none, 0) : 0;
    if (rows < 1 || total <= rows) {
        ui_status(a, R_DIM, "every counter is shown");
        return;
    }
    const int page = rows > 2 ? rows - 1 : 1;
    const int first = ui_scroll_first(a->counters_scroll, total, rows);
    a->counters_scroll = ui_scroll_first(first + d * page, total, rows);
}
