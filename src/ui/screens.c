/* The ladder, compare and help screens. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"

/* ---- ladder ------------------------------------------------------------------------------- */

static double metric_or(const rs_result *r, rs_metric_id a, rs_metric_id b, int *ok)
{
    const rs_metric_mask need = RS_METRIC_BIT(a) | RS_METRIC_BIT(b);
    *ok = (r->metrics.valid & need) == need;
    return *ok ? r->metrics.value[a] + (a != b ? r->metrics.value[b] : 0.0) : 0.0;
}

/* The ladder on screen answers the configuration (or is being run on it). */
static int ladder_current(const ui_app *a)
{
    if (a->ladder_done == 0) return 1;
    for (int i = 0; i < a->ladder_done; i++) {
        rs_request want;
        ui_request_for(a, a->ladder[i].result.req.variant, &want);
        if (!rs_request_same_run(&a->ladder[i].result.req, &want)) return 0;
    }
    return 1;
}

void ui_draw_ladder(ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[320];
    ui_settings_title(&a->cfg, "Ladder", r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    if (!a->ladder_count || !ladder_current(a)) {
        ui_put(r.y + 2, x, w, R_DIM,
               "Enter runs every variant of the ladder on this "
               "configuration (t o n b f m change it; P loads a preset).");
        if (a->ladder_count)
            ui_put(r.y + 3, x, w, R_DIM,
                   "The last ladder was measured with other settings: Enter to run this one.");
        return;
    }
    const int wide = w >= 100;
    if (wide)
        ui_putf(r.y + 1, x, w, R_TITLE, "%3s %-20s %9s %7s %7s %7s %6s %9s %9s %2s  %s", "#",
                "variant", "time", "step", "cumul", "GB/s", "%peak", "bank conf", "warp inst", "ok",
                "bandwidth");
    else
        ui_putf(r.y + 1, x, w, R_TITLE, "%2s %-20s %8s %5s %5s %5s %5s %6s %6s %2s", "#", "variant",
                "time", "step", "cumul", "GB/s", "%pk", "banks", "inst", "ok");
    double best = 0.0;
    for (int i = 0; i < a->ladder_done; i++)
        if (a->ladder[i].status == RS_OK && a->ladder[i].result.gbps > best)
            best = a->ladder[i].result.gbps;
    for (int i = 0; i < a->ladder_count && i + 2 < r.h - 1; i++) {
        const int y = r.y + 2 + i;
        const rs_variant v = a->ladder_vars[i];
        const int sel = i == a->ladder_sel;
        if (sel) ui_blank(y, x, w, R_SELECTED);
        if (i >= a->ladder_done) {
            ui_putf(y, x, w, sel ? R_SELECTED : R_DIM, "%3d %-20s %9s", rs_catalogue_get(v)->step,
                    rs_variant_name(v), i == a->ladder_done ? ui_spinner(a->tick) : "");
            continue;
        }
        const rs_row *row = &a->ladder[i];
        if (row->status != RS_OK) {
            ui_putf(y, x, w, sel ? R_SELECTED : R_WARN, "%3d %-20s %s", rs_catalogue_get(v)->step,
                    rs_variant_name(v), row->error);
            continue;
        }
        const rs_result *res = &row->result;
        char t[32], st[32], cu[32], bc[32] = "-", wi[32] = "-";
        rs_fmt_time(res->t_median_ms, a->utf8, t, sizeof t);
        rs_fmt_ratio(rs_ladder_step_speedup(a->ladder, i), a->utf8, st, sizeof st);
        rs_fmt_ratio(rs_ladder_cumulative_speedup(a->ladder, i), a->utf8, cu, sizeof cu);
        int ok;
        const double conf = metric_or(res, RS_M_SHLD_CONFLICTS, RS_M_SHST_CONFLICTS, &ok);
        if (ok) rs_fmt_si(conf, bc, sizeof bc);
        const double inst = metric_or(res, RS_M_WARP_INST, RS_M_WARP_INST, &ok);
        if (ok) rs_fmt_si(inst, wi, sizeof wi);
        const ui_role role = sel ? R_SELECTED : R_NORMAL;
        const int step = rs_catalogue_get(v)->step;
        const int used =
            wide ? ui_putf(y, x, w, role, "%3d %-20s %9s %7s %7s %7.0f %5.1f%% %9s %9s ", step,
                           rs_variant_name(v), t, st, cu, res->gbps, res->pct_peak, bc, wi)
                 : ui_putf(y, x, w, role, "%2d %-20s %8s %5s %5s %5.0f %4.0f%% %6s %6s ", step,
                           rs_variant_name(v), t, st, cu, res->gbps, res->pct_peak, bc, wi);
        ui_put(y, x + used, 2,
               sel            ? R_SELECTED
               : res->correct ? R_GOOD
                              : R_BAD,
               res->correct ? ui_glyph(G_OK) : ui_glyph(G_WRONG));
        const int barx = x + used + 3, barw = x + w - barx;
        if (barw > 1 && best > 0) ui_bar(y, barx, barw, res->gbps / best, R_BAR);
    }
}

/* ---- compare ------------------------------------------------------------------------------ */

static const rs_result *compare_side(ui_app *a, int which, char *label, size_t len)
{
    if (which < 0) {
        if (!a->has_pin) {
            snprintf(label, len, "(nothing pinned)");
            return NULL;
        }
        snprintf(label, len, "pinned %s", rs_variant_name(a->pinned.result.req.variant));
        return &a->pinned.result;
    }
    snprintf(label, len, "%s", rs_variant_name(which));
    return ui_result_for(a, which);
}

/* Compare columns: a label, then a, b and a/b right-aligned. */
#define CMP_LABEL 26
#define CMP_RATIO 10

static void compare_cells(int y, int x, int w, ui_role role, const char *name, const char *a,
                          const char *b, const char *ratio)
{
    char pa[96], pb[96], pr[64];
    int value_w = (w - CMP_LABEL - CMP_RATIO - 3) / 2;
    if (value_w > 24) value_w = 24;
    ui_put(y, x, CMP_LABEL, role, name);
    ui_put(y, x + CMP_LABEL + 1, w - CMP_LABEL - 1, role, ui_pad(a, value_w, pa, sizeof pa));
    ui_put(y, x + CMP_LABEL + value_w + 2, w - CMP_LABEL - value_w - 2, role,
           ui_pad(b, value_w, pb, sizeof pb));
    ui_put(y, x + CMP_LABEL + 2 * value_w + 3, w - CMP_LABEL - 2 * value_w - 3, role,
           ui_pad(ratio, CMP_RATIO, pr, sizeof pr));
}

static void compare_line(int y, int x, int w, const char *name, double va, double vb,
                         const char *unit, int have_a, int have_b)
{
    char sa[48] = "-", sb[48] = "-", ratio[32] = "";
    const int utf8 = ui_theme_utf8();
    const int ratio_unit = strcmp(unit, "ratio") == 0;
    if (have_a && ratio_unit) rs_fmt_ratio(va, utf8, sa, sizeof sa);
    if (have_b && ratio_unit) rs_fmt_ratio(vb, utf8, sb, sizeof sb);
    if (have_a && !ratio_unit) rs_fmt_metric(va, unit, utf8, sa, sizeof sa);
    if (have_b && !ratio_unit) rs_fmt_metric(vb, unit, utf8, sb, sizeof sb);
    if (have_a && have_b && vb != 0.0) rs_fmt_ratio(va / vb, utf8, ratio, sizeof ratio);
    compare_cells(y, x, w, R_NORMAL, name, sa, sb, ratio);
}

void ui_draw_compare(ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char la[64], lb[64];
    const rs_result *A = compare_side(a, a->cmp_a, la, sizeof la);
    const rs_result *B = compare_side(a, a->cmp_b, lb, sizeof lb);
    char title[256];
    ui_settings_title(&a->cfg, "Compare", r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    compare_cells(r.y + 1, x, w, R_TITLE, "", la, lb, "a/b");
    if (!A || !B) {
        ui_put(r.y + 3, x, w, R_DIM,
               "Run both sides first (Enter in the explorer or the "
               "ladder), or pin a result with p.");
        return;
    }
    int y = r.y + 2;
    compare_line(y++, x, w, "time (median)", A->t_median_ms * 1e6, B->t_median_ms * 1e6, "ns", 1,
                 1);
    compare_line(y++, x, w, "time (min)", A->t_min_ms * 1e6, B->t_min_ms * 1e6, "ns", 1, 1);
    compare_line(y++, x, w, "time (max)", A->t_max_ms * 1e6, B->t_max_ms * 1e6, "ns", 1, 1);
    compare_line(y++, x, w, "bandwidth", A->gbps, B->gbps, "GB/s", 1, 1);
    compare_line(y++, x, w, "% of peak", A->pct_peak, B->pct_peak, "%", 1, 1);
    compare_line(y++, x, w, "speedup vs CPU", A->speedup_cpu, B->speedup_cpu, "ratio", 1, 1);
    compare_line(y++, x, w, "launches", A->launches, B->launches, "count", 1, 1);
    compare_cells(y++, x, w, R_NORMAL, "correct", A->correct ? "yes" : "WRONG",
                  B->correct ? "yes" : "WRONG", "");
    for (int i = 0; i < RS_METRIC_COUNT && y < r.y + r.h - 1; i++) {
        const int ha = (A->metrics.valid >> i) & 1, hb = (B->metrics.valid >> i) & 1;
        if (!ha && !hb) continue;
        compare_line(y++, x, w, rs_metric_defs[i].label, A->metrics.value[i], B->metrics.value[i],
                     rs_metric_defs[i].unit, ha, hb);
    }
}

/* ---- help ---------------------------------------------------------------------------------- */

void ui_draw_help(ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    ui_box(r, "Help: every key (Up/Down scroll, Esc goes back)", R_TITLE);
    const int x = r.x + 2, w = r.w - 4, rows = r.h - 2;
    static char lines[160][256];
    ui_role role[160];
    int n = 0;
    snprintf(lines[n], 256,
             "redscope runs CUDA reductions live and shows why each step is "
             "faster, with the GPU's own counters.");
    role[n++] = R_ACCENT;
    for (int s = 0; s < UI_SCREEN_COUNT && n < 150; s++) {
        if (s == UI_SCREEN_HELP) continue;
        snprintf(lines[n], 256, "%s", ui_screen_name(s));
        role[n++] = R_TITLE;
        for (int i = 0; i < ui_binding_count && n < 158; i++) {
            const ui_binding *b = &ui_bindings[i];
            /* keys the explorer has are listed there once */
            if (!(b->screens & UI_ON(s)) || (s != UI_SCREEN_EXPLORER && (b->screens & UI_ON(0))))
                continue;
            snprintf(lines[n], 256, "  %-8s %s", b->label, b->help);
            role[n++] = R_NORMAL;
        }
    }
    if (a->help_scroll > n - rows) a->help_scroll = n - rows > 0 ? n - rows : 0;
    for (int i = 0; i < rows && a->help_scroll + i < n; i++)
        ui_put(r.y + 1 + i, x, w, role[a->help_scroll + i], lines[a->help_scroll + i]);
}
