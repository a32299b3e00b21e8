/* The Compare screen: two variants, or a result and the pinned one, every
 * figure side by side with its ratio. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "against.h"
#include "compare.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "formats/stalls_io.h"
#include "draw.h"

static const rs_result *compare_side(const ui_app *a, int which, char *label, size_t len)
{
    if (which == UI_CMP_AGAINST) { /* the held recording's run of the left side */
        char name[RS_NOTE_MAX];
        const rs_result *left = a->cmp->a >= 0 ? ui_result_for(a, (rs_variant)a->cmp->a) : NULL;
        const rs_result *b = left ? ui_against_result(a, &left->req) : NULL;
        snprintf(label, len, "%s in %s%s",
                 ui_variant_label(a, (rs_variant)a->cmp->a, name, sizeof name),
                 rs_stall_base(a->ag->path), b || !left ? "" : " (not in it)");
        return b;
    }
    if (which < 0) {
        if (!a->has_pin) {
            snprintf(label, len, "(nothing pinned)");
            return NULL;
        }
        rs_request shown; /* the other side: the configuration's */
        ui_request_for(a, a->pinned.result.req.variant, &shown);
        ui_pinned_label(a, &shown, label, len);
        return &a->pinned.result;
    }
    char name[RS_NOTE_MAX];
    snprintf(label, len, "%s", ui_variant_label(a, (rs_variant)which, name, sizeof name));
    return ui_result_for(a, (rs_variant)which);
}

/* Compare columns: a label, then a, b and a/b right-aligned. */
#define CMP_LABEL 26
#define CMP_RATIO 10

static void compare_cells(int y, int x, int w, ui_role role, const char *name, const char *a,
                          const char *b, const char *ratio)
{
    char pa[96], pb[96], pr[64], ca[96], cb[96];
    int value_w = (w - CMP_LABEL - CMP_RATIO - 3) / 2;
    if (value_w > 36) value_w = 36; /* "pinned vectorized on 2 GPUs, host" whole */
    ui_put(y, x, CMP_LABEL, role, name);
    /* a side's name longer than its column: cut with an ellipsis, not by the other's */
    ui_put(y, x + CMP_LABEL + 1, w - CMP_LABEL - 1, role,
           ui_pad(rs_fmt_cut(a, value_w, ca, sizeof ca), value_w, pa, sizeof pa));
    ui_put(y, x + CMP_LABEL + value_w + 2, w - CMP_LABEL - value_w - 2, role,
           ui_pad(rs_fmt_cut(b, value_w, cb, sizeof cb), value_w, pb, sizeof pb));
    ui_put(y, x + CMP_LABEL + 2 * value_w + 3, w - CMP_LABEL - 2 * value_w - 3, role,
           ui_pad(ratio, CMP_RATIO, pr, sizeof pr));
}

static void compare_line(int y, int x, int w, const char *name, double va, double vb,
                         const char *unit, int have_a, int have_b)
{
    char sa[48] = "-", sb[48] = "-", ratio[32] = "";
    const int utf8 = ui_theme_utf8();
    const double v[2] = {va, vb};
    char *out[2] = {sa, sb};
    for (int i = 0; i < 2; i++) {
        if (!(i ? have_b : have_a)) continue;
        if (strcmp(unit, "ratio") == 0)
            rs_fmt_ratio(v[i], utf8, out[i], sizeof sa);
        else if (strcmp(unit, "J") == 0)
            rs_fmt_energy(v[i], utf8, out[i], sizeof sa);
        else if (strcmp(unit, "J/GB") == 0)
            rs_fmt_j_per_gb(v[i], out[i], sizeof sa);
        else
            rs_fmt_metric(v[i], unit, utf8, out[i], sizeof sa);
    }
    if (have_a && have_b && vb != 0.0) rs_fmt_ratio(va / vb, utf8, ratio, sizeof ratio);
    compare_cells(y, x, w, R_NORMAL, name, sa, sb, ratio);
}

/* The rows a comparison has: the run's figures, then every counter either
 * side read. Row k of them, drawn at y; returns the count when y < 0. */
static int compare_row(const rs_result *A, const rs_result *B, int ha, int hb, int k, int y, int x,
                       int w)
{
    /* each side's speedup is against its own CPU time: both shown */
    static const char *const names[] = {"time (median)",  "time (min)", "time (max)",
                                        "bandwidth",      "% of peak",  "CPU time (its own)",
                                        "speedup vs CPU", "launches",   "correct"};
    const double va[] = {A->t_median_ms * 1e6, A->t_min_ms * 1e6, A->t_max_ms * 1e6, A->gbps,
                         A->pct_peak,          A->cpu_ms * 1e6,   A->speedup_cpu,    A->launches};
    const double vb[] = {B->t_median_ms * 1e6, B->t_min_ms * 1e6, B->t_max_ms * 1e6, B->gbps,
                         B->pct_peak,          B->cpu_ms * 1e6,   B->speedup_cpu,    B->launches};
    static const char *const units[] = {"ns", "ns", "ns", "GB/s", "%", "ns", "ratio", "count"};
    int n = 0;
    for (int i = 0; i < 9; i++, n++) {
        if (y < 0 || n != k) continue;
        if (i == 8)
            compare_cells(y, x, w, R_NORMAL, names[i],
                          !ha          ? "-"
                          : A->correct ? "yes"
                                       : "WRONG",
                          !hb          ? "-"
                          : B->correct ? "yes"
                                       : "WRONG",
                          "");
        else
            compare_line(y, x, w, names[i], va[i], vb[i], units[i],
                         ha && (i != 5 || A->cpu_ms > 0.0), hb && (i != 5 || B->cpu_ms > 0.0));
    }
    if (A->energy.valid || B->energy.valid) { /* energy per reduction and per GB */
        const int ea = A->energy.valid, eb = B->energy.valid;
        if (y >= 0 && n == k)
            compare_line(y, x, w, "energy", A->energy.joules, B->energy.joules, "J", ea, eb);
        if (y >= 0 && n + 1 == k)
            compare_line(y, x, w, "J/GB", A->energy.j_per_gb, B->energy.j_per_gb, "J/GB", ea, eb);
        n += 2;
    }
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const int ma = (A->metrics.valid >> i) & 1, mb = (B->metrics.valid >> i) & 1;
        if (!ma && !mb) continue;
        if (y >= 0 && n == k)
            compare_line(y, x, w, rs_metric_defs[i].label, A->metrics.value[i], B->metrics.value[i],
                         rs_metric_defs[i].unit, ma, mb);
        n++;
    }
    return n;
}

/* The first row shown: the scroll, clamped to the rows there are. */
static int compare_first(const ui_app *a, int total, int rows)
{
    return ui_scroll_first(a->cmp_scroll, total, rows);
}

void ui_draw_compare(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char la[64], lb[64];
    const rs_result *A = compare_side(a, a->cmp->a, la, sizeof la);
    const rs_result *B = compare_side(a, a->cmp->b, lb, sizeof lb);
    char title[256];
    ui_settings_title(&a->cfg, "Compare", r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    compare_cells(r.y + 1, x, w, R_TITLE, "", la, lb, "a/b");
    /* a side with no result is shown empty beside the other, and why */
    static const char *const missing[] = {
        [UI_ENTER_RUNS] =
            "An empty side has not run here: Enter in the explorer runs it, p pins one.",
        [UI_ENTER_RECORDED] = "An empty side is not in the recording here (R lists what is); a "
                              "and z pick others.",
        [UI_ENTER_COMPILES] = "No GPU: only the CPU baseline runs here; R replays a recording.",
    };
    const int ha = A != NULL, hb = B != NULL;
    if (!ha && !hb) {
        ui_put(r.y + 3, x, w, R_DIM, missing[ui_enter_does(a)]);
        return;
    }
    static const rs_result none;
    if (!ha) A = &none;
    if (!hb) B = &none;
    const int rows = r.h - 3 - (ha && hb ? 0 : 1), total = compare_row(A, B, ha, hb, -1, -1, x, w);
    const int first = compare_first(a, total, rows);
    for (int i = 0; i < rows && first + i < total; i++)
        compare_row(A, B, ha, hb, first + i, r.y + 2 + i, x, w);
    if (!ha || !hb) ui_put(r.y + r.h - 2, x, w, R_DIM, missing[ui_enter_does(a)]);
    if (total > rows)
        ui_putf(r.y + r.h - 1, r.x + r.w - 26, 24, R_DIM, " %d-%d/%d %s more [ ] ", first + 1,
                first + rows, total, first + rows < total ? "v" : "^");
}

/* What a and z changed, said on the status line. */
static void say_sides(ui_app *a, const char *which)
{
    char la[64], lb[64];
    compare_side(a, a->cmp->a, la, sizeof la);
    compare_side(a, a->cmp->b, lb, sizeof lb);
    ui_status(a, R_DIM, "%s: now %s against %s", which, la, lb);
}

/* On the selected result against the pinned one, else the step before. */
int ui_open_compare(ui_app *a)
{
    a->cmp->a = a->sel;
    a->cmp->b = a->has_pin ? -1 : ui_previous_step(a, (rs_variant)a->sel);
    if (a->cmp->b == -1 && !a->has_pin) a->cmp->b = a->sel > 0 ? a->sel - 1 : 1;
    return 1;
}

int ui_key_compare(ui_app *a, ui_action act)
{
    if (act == UI_ACT_PICK_A) {
        a->cmp->a = (a->cmp->a + 1) % RS_VARIANT_COUNT;
        say_sides(a, "left (a)");
        return 1;
    }
    if (act == UI_ACT_PICK_B) { /* the variants, the pinned result, the held recording's */
        const int pin = a->has_pin ? UI_CMP_PINNED : -9, held = a->ag->has ? UI_CMP_AGAINST : -9;
        if (a->cmp->b >= 0 && a->cmp->b + 1 < RS_VARIANT_COUNT)
            a->cmp->b++;
        else if (a->cmp->b >= 0 && pin != -9)
            a->cmp->b = pin;
        else if (a->cmp->b != UI_CMP_AGAINST && held != -9)
            a->cmp->b = held;
        else
            a->cmp->b = 0;
        say_sides(a, "right (z)");
        return 1;
    }
    if (act == UI_ACT_SCROLL_UP || act == UI_ACT_SCROLL_DOWN) {
        ui_layout l;
        char la[64], lb[64];
        ui_layout_compute(LINES, COLS, UI_SCREEN_COMPARE, &l);
        const rs_result *A = compare_side(a, a->cmp->a, la, sizeof la);
        const rs_result *B = compare_side(a, a->cmp->b, lb, sizeof lb);
        static const rs_result none;
        const int rows = l.main.h - 3, total = A || B
                                                   ? compare_row(A ? A : &none, B ? B : &none,
                                                                 A != NULL, B != NULL, -1, -1, 0, 0)
                                                   : 0;
        const int page = rows > 2 ? rows - 1 : 1;
        a->cmp_scroll = compare_first(a, total, rows) + (act == UI_ACT_SCROLL_UP ? -page : page);
        a->cmp_scroll = compare_first(a, total, rows); /* clamped where it is kept, too */
        if (total <= rows) ui_status(a, R_DIM, "every row of the comparison is shown");
        return 1;
    }
    return 0;
}
