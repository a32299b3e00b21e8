/* The Presets screen: shipped and saved presets with their notes; Enter
 * loads one into the configuration. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "sweep_screen.h"
#include "presets.h"
#include "draw.h"

int ui_open_presets(ui_app *a)
{
    ui_presets_load(a);
    return 1;
}

void ui_presets_load(ui_app *a)
{
    free(a->pre->list);
    a->pre->list = rs_preset_list(&a->pre->n);
    if (a->pre->sel >= a->pre->n) a->pre->sel = 0;
}

void ui_presets_apply(ui_app *a)
{
    if (a->pre->sel >= a->pre->n) return;
    const rs_preset_info *p = &a->pre->list[a->pre->sel];
    rs_request r;
    rs_error err;
    if (rs_preset_read_file(p->path, &r, &err) != RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return;
    }
    a->cfg = r;
    a->sel = (int)r.variant;
    a->preset_cfg = r;
    a->has_preset = 1;
    snprintf(a->preset_name, sizeof a->preset_name, "%s", p->name);
    snprintf(a->sweep->range, sizeof a->sweep->range, "%s", r.sweep);
    if (r.variants) a->sweep->vars = r.variants;
    a->screen = r.variants ? UI_SCREEN_LADDER : UI_SCREEN_EXPLORER;
    ui_status(a, R_GOOD, "preset %s: %s", p->name, r.note[0] ? r.note : "loaded");
}

void ui_draw_presets(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    ui_box(r, "Presets (Enter loads, s saves the current configuration)", R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    if (!a->pre->n) {
        ui_put(r.y + 2, x, w, R_DIM, "No presets found.");
        return;
    }
    /* the selected preset's note (or why it does not load), whole, below */
    const rs_preset_info *cur = &a->pre->list[a->pre->sel];
    char note[8][256];
    int k = ui_wrap(cur->valid ? cur->note : cur->error, w, note, 8);
    if (r.h - 2 - (k + 2) < 3) k = r.h - 2 - 2 - 3 > 0 ? r.h - 2 - 2 - 3 : 0; /* the list keeps 3 */
    const int rows = r.h - 2 - (k ? k + 2 : 0);
    if (k) {
        const int y0 = r.y + 1 + rows + 1;
        ui_putf(y0, x, w, R_TITLE, "%s:", cur->name);
        for (int i = 0; i < k; i++)
            ui_put(y0 + 1 + i, x, w, cur->valid ? R_NORMAL : R_BAD, note[i]);
    }
    const int first = ui_list_first(a->pre->sel, rows);
    for (int i = 0; i < rows && first + i < a->pre->n; i++) {
        const rs_preset_info *p = &a->pre->list[first + i];
        const int sel = first + i == a->pre->sel, y = r.y + 1 + i;
        const ui_role role = sel ? R_SELECTED : p->valid ? R_NORMAL : R_BAD;
        if (sel) ui_blank(y, x, w, R_SELECTED);
        const int used = ui_putf(y, x, w, role, "%s %-22s %-8s ", sel ? ui_glyph(G_SELECT) : " ",
                                 p->name, p->shipped ? "shipped" : "user");
        ui_put(y, x + used, w - used, role, p->valid ? p->note : p->error);
    }
}

int ui_key_presets(ui_app *a, ui_action act)
{
    if (act == UI_ACT_UP || act == UI_ACT_DOWN) {
        const int d = act == UI_ACT_UP ? -1 : 1;
        a->pre->sel = ui_list_step(a->pre->sel, d, a->pre->n, 1);
        return 1;
    }
    if (act == UI_ACT_RUN) {
        ui_presets_apply(a);
        return 1;
    }
    return 0;
}
