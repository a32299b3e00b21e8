/* The Help screen: every key, from the same table as the footer. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"

void ui_draw_help(const ui_app *a, const ui_layout *l)
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
    int first = a->help_scroll; /* clamped here, not stored: drawing changes nothing */
    if (first > n - rows) first = n - rows > 0 ? n - rows : 0;
    for (int i = 0; i < rows && first + i < n; i++)
        ui_put(r.y + 1 + i, x, w, role[first + i], lines[first + i]);
}

int ui_key_help(ui_app *a, ui_action act)
{
    if (act != UI_ACT_UP && act != UI_ACT_DOWN) return 0;
    a->help_scroll += act == UI_ACT_UP ? -1 : 1;
    if (a->help_scroll < 0) a->help_scroll = 0;
    if (a->help_scroll > 160) a->help_scroll = 160;
    return 1;
}
