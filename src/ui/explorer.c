/* The explorer screen: the ladder, the configuration, the last result, its
 * counters, and why. Also the header every screen shares. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"
#include "kernels/rs_kernels.h"
#include "why.h"

void ui_draw_header(ui_app *a, const ui_layout *l)
{
    char text[768];
    const char *sep = ui_glyph(G_SEP);
    const rs_device_info *d = &a->dev;
    ui_blank(0, 0, l->cols, R_HEADER);
    if (!a->dev_ready) {
        snprintf(text, sizeof text, " redscope  starting CUDA %s", ui_spinner(a->tick));
    } else if (a->replay || a->gpu_status == RS_OK) {
        char meas[48] = "";
        if (d->measured_gbps > 0) snprintf(meas, sizeof meas, " (meas. %.0f)", d->measured_gbps);
        snprintf(text, sizeof text,
                 " redscope %s %s %s %d SMs %s %.0f GB %s peak %.0f GB/s%s %s driver %d.%d CUDA "
                 "%d.%d %s counters %s",
                 a->replay ? " REPLAY " : "", d->name, sep, d->sm_count, sep, d->total_mem / 1e9,
                 sep, d->peak_gbps, meas, sep, d->driver_version / 1000,
                 d->driver_version % 1000 / 10, d->runtime_version / 1000,
                 d->runtime_version % 1000 / 10, sep,
                 a->replay        ? "recorded"
                 : a->counters_ok ? "on"
                                  : "off");
    } else {
        snprintf(text, sizeof text,
                 " redscope  no CUDA device %s R replays the shipped H200 "
                 "recording",
                 sep);
    }
    ui_put(0, 0, l->cols, R_HEADER, text);
}

static void draw_list(ui_app *a, ui_rect r)
{
    ui_box(r, a->replay ? "Ladder (replay)" : "Ladder", R_TITLE);
    const int rows = r.h - 2;
    int first = a->sel - rows + 1;
    if (first < 0) first = 0;
    for (int i = 0; i < rows && first + i < RS_VARIANT_COUNT; i++) {
        const int v = first + i;
        const rs_variant_info *vi = rs_catalogue_get(v);
        const int y = r.y + 1 + i, sel = v == a->sel;
        const ui_role role = sel ? R_SELECTED : R_NORMAL;
        ui_blank(y, r.x + 1, r.w - 2, role);
        ui_putf(y, r.x + 1, r.w - 2, role, "%s%2d %s", sel ? ui_glyph(G_SELECT) : " ", vi->step,
                vi->name);
        const rs_result *res = ui_result_for(a, v);
        if (res) {
            char t[32];
            rs_fmt_time(res->t_median_ms, a->utf8, t, sizeof t);
            const int w = ui_width(t) + 3;
            if (5 + (int)strlen(vi->name) + w < r.w - 2)
                ui_put(y, r.x + r.w - 1 - w, w, sel ? R_SELECTED : R_DIM, t);
            ui_put(y, r.x + r.w - 3, 2,
                   sel            ? R_SELECTED
                   : res->correct ? R_GOOD
                                  : R_BAD,
                   res->correct ? ui_glyph(G_OK) : ui_glyph(G_WRONG));
        }
    }
}

static void draw_config(ui_app *a, ui_rect r)
{
    char title[96] = "Configuration";
    if (a->has_preset) {
        rs_request x = a->cfg, y = a->preset_cfg;
        x.variant = y.variant;
        snprintf(title, sizeof title, "preset %s%s", a->preset_name,
                 rs_request_equal(&x, &y) ? "" : " (changed)");
    }
    ui_box(r, title, R_TITLE);
    char n[32], ept[24], block[24], reps[24], seed[40];
    rs_format_size(a->cfg.n, n, sizeof n);
    if (a->cfg.ept)
        snprintf(ept, sizeof ept, "%u/thread", a->cfg.ept);
    else
        snprintf(ept, sizeof ept, "ept auto");
    snprintf(block, sizeof block, "block %u", a->cfg.block);
    snprintf(reps, sizeof reps, "%u reps", a->cfg.reps);
    snprintf(seed, sizeof seed, "seed %llu", (unsigned long long)a->cfg.seed);
    const int w = r.w - 2, x = r.x + 1, half = w / 2;
    const struct {
        const char *key, *value;
    } cells[10] = {
        {"t", rs_dtype_name(a->cfg.type)},
        {"o", rs_op_name(a->cfg.op)},
        {"n", n},
        {"b", block},
        {"e", ept},
        {"f", rs_finish_name(a->cfg.finish)},
        {"r", reps},
        {"m", a->cfg.metrics},
        {"i", rs_dist_name(a->cfg.dist)},
        {"", seed},
    };
    for (int k = 0; k < 10; k++) {
        const int y = r.y + 1 + k / 2, cx = x + (k % 2 ? half : 0), cw = k % 2 ? w - half : half;
        int used = 1;
        if (cells[k].key[0]) used += ui_putf(y, cx + 1, cw - 1, R_KEY, "%s", cells[k].key) + 1;
        ui_put(y, cx + used, cw - used, R_NORMAL, cells[k].value);
    }
}

static const rs_result *comparison(ui_app *a, const rs_result *cur, char *label, size_t len)
{
    if (a->has_pin && a->pinned.result.req.variant != cur->req.variant) {
        snprintf(label, len, "pinned %s", rs_variant_name(a->pinned.result.req.variant));
        return &a->pinned.result;
    }
    const int prev = ui_previous_step(a, cur->req.variant);
    if (prev < 0) return NULL;
    snprintf(label, len, "%s", rs_variant_name(prev));
    return ui_result_for(a, prev);
}

/* min-max in the median's unit: "90.5-91.7 us" */
static void time_range(const rs_result *res, int utf8, char *buf, size_t len)
{
    const double ms = res->t_median_ms;
    const double k = ms < 1.0 ? 1e3 : ms < 1000.0 ? 1.0 : 1e-3;
    const char *unit = ms < 1.0 ? (utf8 ? "\xc2\xb5s" : "us") : ms < 1000.0 ? "ms" : "s";
    snprintf(buf, len, "%.3g%s%.3g %s", res->t_min_ms * k, ui_glyph(G_DASH), res->t_max_ms * k,
             unit);
}

static void draw_results(ui_app *a, ui_rect r, const rs_result *res)
{
    char title[160], n[32];
    const char *sep = ui_glyph(G_SEP);
    rs_format_size(a->cfg.n, n, sizeof n);
    snprintf(title, sizeof title, "%s %s %s %s %s n %s %s block %u", rs_variant_name(a->sel), sep,
             rs_dtype_name(a->cfg.type), rs_op_name(a->cfg.op), sep, n, sep, a->cfg.block);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    if (!res) {
        rs_request want;
        rs_error err;
        ui_request_for(a, a->sel, &want);
        if (rs_catalogue_check(&want, &err) != RS_OK)
            ui_put(r.y + 1, x, w, R_WARN, err.msg);
        else
            ui_putf(r.y + 1, x, w, R_DIM, "Not run with this configuration: Enter %s.",
                    a->replay ? "looks it up in the recording" : "runs it");
        if (a->have[a->sel] && a->last[a->sel].status != RS_OK)
            ui_put(r.y + 2, x, w, R_BAD, a->last[a->sel].error);
        return;
    }
    char t[32], range[64], verdict[128];
    rs_fmt_time(res->t_median_ms, a->utf8, t, sizeof t);
    time_range(res, a->utf8, range, sizeof range);
    if (res->correct && res->tol == 0.0)
        snprintf(verdict, sizeof verdict, "%s exact", ui_glyph(G_OK));
    else if (res->correct)
        snprintf(verdict, sizeof verdict, "%s err %.1e (tol %.0e)", ui_glyph(G_OK), res->rel_err,
                 res->tol);
    else
        snprintf(verdict, sizeof verdict, "%s WRONG %u/%u", ui_glyph(G_WRONG), res->bad_reps,
                 res->reps);
    const int used = ui_putf(r.y + 1, x, w, R_NORMAL, "time %9s  (%s)", t, range);
    ui_put(r.y + 1, x + used + 2, w - used - 2, res->correct ? R_GOOD : R_BAD, verdict);
    const int label = ui_putf(r.y + 2, x, w, R_NORMAL, "GB/s %9.0f  ", res->gbps);
    char pct[48];
    snprintf(pct, sizeof pct, " %.1f%% of %.0f", res->pct_peak, res->device.peak_gbps);
    const int barw = w - label - ui_width(pct);
    if (barw > 3) ui_bar(r.y + 2, x + label, barw, res->pct_peak / 100.0, R_BAR);
    ui_put(r.y + 2, x + label + (barw > 3 ? barw : 0), w - label, R_NORMAL, pct);
    char cmp[64];
    const rs_result *base = comparison(a, res, cmp, sizeof cmp);
    char speed[160], vs_cpu[32];
    snprintf(vs_cpu, sizeof vs_cpu, "%s%.3g", ui_glyph(G_TIMES), res->speedup_cpu);
    if (base && base->t_median_ms > 0)
        snprintf(speed, sizeof speed, "%s%.2f vs %s     %s vs CPU", ui_glyph(G_TIMES),
                 base->t_median_ms / res->t_median_ms, cmp, vs_cpu);
    else
        snprintf(speed, sizeof speed, "%s vs CPU (one thread)", vs_cpu);
    ui_put(r.y + 3, x, w, R_ACCENT, speed);
    if (res->grid)
        ui_putf(r.y + 4, x, w, R_DIM, "%s %s %u launch%s %s grid %u%s%u %s %.1f/thread",
                rs_finish_name(res->finish), sep, res->launches, res->launches == 1 ? "" : "es",
                sep, res->grid, ui_glyph(G_TIMES), res->req.block, sep, res->ept);
}

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
    int n = ui_why_key_metrics(v, first, 6), count = 0;
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

/* Metric rows with a bar where there is a scale and the change against base. */
void ui_draw_metric_rows(const rs_result *cur, const rs_result *base, ui_rect r, int first)
{
    const rs_metrics *m = &cur->metrics;
    int row = 0, shown = 0;
    const int x = r.x, w = r.w;
    const int utf8 = ui_theme_utf8();
    rs_metric_id order[RS_METRIC_COUNT];
    const int count = metric_order(cur->req.variant, order);
    for (int k = 0; k < count && row < r.h; k++) {
        const int i = order[k];
        if (!((m->requested | m->valid) & RS_METRIC_BIT(i))) continue;
        if (shown++ < first) continue;
        const rs_metric_def *d = &rs_metric_defs[i];
        const int y = r.y + row++;
        ui_put(y, x, 24, R_NORMAL, d->label);
        if (!(m->valid & RS_METRIC_BIT(i))) {
            ui_put(y, x + 25, w - 25, R_DIM, "n/a");
            continue;
        }
        char v[48];
        rs_fmt_metric(m->value[i], d->unit, utf8, v, sizeof v);
        ui_putf(y, x + 24, 14, R_NORMAL, "%13s", v);
        const double s = scale_of(d, m->value[i]);
        int col = x + 39;
        if (s >= 0.0 && w > 60) {
            ui_bar(y, col, 10, s, R_BAR);
            col += 11;
        }
        if (base && (base->metrics.valid & RS_METRIC_BIT(i)) && col < x + w) {
            const double from = base->metrics.value[i], to = m->value[i];
            char c[48];
            ui_role role = R_DIM;
            if (from == to || (from > 0 && fabs(to / from - 1.0) < 0.005)) {
                snprintf(c, sizeof c, "%s", ui_glyph(G_SAME));
            } else if (from > 0 && to / from >= 2.0) {
                snprintf(c, sizeof c, "%s x%.1f", ui_glyph(G_UP), to / from);
                role = R_WARN;
            } else if (from > 0) {
                const double pct = 100.0 * (to / from - 1.0);
                snprintf(c, sizeof c, "%s %.1f%%", pct < 0 ? ui_glyph(G_DOWN) : ui_glyph(G_UP),
                         fabs(pct));
                role = pct < 0 ? R_GOOD : R_WARN;
            } else {
                snprintf(c, sizeof c, "%s from 0", ui_glyph(G_UP));
            }
            ui_put(y, col, x + w - col, role, c);
        }
    }
}

static void draw_counters(ui_app *a, ui_rect r, const rs_result *res)
{
    char title[128] = "Counters", label[64];
    const rs_result *base = res ? comparison(a, res, label, sizeof label) : NULL;
    if (base) snprintf(title, sizeof title, "Counters (vs %s)", label);
    ui_box(r, title, R_TITLE);
    const ui_rect in = {r.y + 1, r.x + 2, r.h - 2, r.w - 4};
    if (!res) {
        ui_put(in.y, in.x, in.w, R_DIM, "No result yet.");
        return;
    }
    const rs_metrics *m = &res->metrics;
    char msg[600];
    ui_role role = R_DIM;
    if (!m->requested) {
        snprintf(msg, sizeof msg,
                 "Counters were off for this run: m picks a set (default costs "
                 "1 replay pass, full 3), then Enter.%s%s",
                 !a->replay && !a->counters_ok ? " Unavailable here: " : "",
                 !a->replay && !a->counters_ok ? a->counters_why : "");
    } else if (!m->valid) {
        snprintf(msg, sizeof msg, "Counters not collected: %s. The times are still measured.",
                 m->reason);
        role = R_WARN;
    } else {
        ui_draw_metric_rows(res, base, in, 0);
        return;
    }
    char lines[8][256];
    const int k = ui_wrap(msg, in.w, lines, in.h < 8 ? in.h : 8);
    for (int i = 0; i < k; i++) ui_put(in.y + i, in.x, in.w, role, lines[i]);
}

static void draw_why(ui_app *a, ui_rect r, const rs_result *res)
{
    ui_box(r, "Why", R_TITLE);
    const int w = r.w - 4, x = r.x + 2;
    static char lines[96][256];
    static const ui_role roles_for[3] = {R_NORMAL, R_ACCENT, R_CODE};
    ui_role role[96];
    int n = 0;
    const rs_variant_info *vi = rs_catalogue_get(a->sel);
    snprintf(lines[n], 256, "%d %s: %s", vi->step, vi->name, vi->idea);
    role[n++] = R_TITLE;
    const int k = ui_wrap(vi->change, w, &lines[n], 96 - n);
    for (int i = 0; i < k; i++) role[n + i] = roles_for[0];
    n += k;
    if (res) {
        char said[12][256], label[64];
        const rs_result *base = comparison(a, res, label, sizeof label);
        const int ns = ui_why_measured(res, base, label, said, 12);
        for (int s = 0; s < ns && n < 96; s++) {
            const int m = ui_wrap(said[s], w, &lines[n], 96 - n);
            for (int i = 0; i < m; i++) role[n + i] = res->correct ? roles_for[1] : R_BAD;
            n += m;
        }
    }
    const char *code = rs_kernel_snippet(a->sel);
    while (*code && n < 96) {
        const size_t len = strcspn(code, "\n");
        snprintf(lines[n], 256, "  %.*s", (int)(len < 250 ? len : 250), code);
        role[n++] = R_CODE;
        code += len;
        if (*code == '\n') code++;
    }
    const int rows = r.h - 2;
    if (a->why_scroll > n - rows) a->why_scroll = n - rows > 0 ? n - rows : 0;
    for (int i = 0; i < rows && a->why_scroll + i < n; i++)
        ui_put(r.y + 1 + i, x, w, role[a->why_scroll + i], lines[a->why_scroll + i]);
    if (n > rows)
        ui_putf(r.y + r.h - 1, r.x + r.w - 16, 14, R_DIM, " %s more [ ] ",
                a->why_scroll + rows < n ? "v" : "^");
}

void ui_draw_explorer(ui_app *a, const ui_layout *l)
{
    const rs_result *res = ui_result_for(a, a->sel);
    draw_list(a, l->list);
    draw_config(a, l->config);
    draw_results(a, l->results, res);
    draw_counters(a, l->counters, res);
    draw_why(a, l->why, res);
}
