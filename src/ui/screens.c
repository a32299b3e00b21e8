/* The screen table, made from UI_SCREENS (screens.h), and opening one. */
#include "app.h"

#define UI_SCREEN_FNS(id, stem, name, about)                                                       \
    int ui_open_##stem(ui_app *a);                                                                 \
    void ui_draw_##stem(const ui_app *a, const ui_layout *l);                                      \
    int ui_key_##stem(ui_app *a, ui_action act);
UI_SCREENS(UI_SCREEN_FNS)
#undef UI_SCREEN_FNS

#define UI_SCREEN_ROW(id, stem, name, about)                                                       \
    [UI_SCREEN_##                                                                                  \
        id] = {name, about, UI_ACT_OPEN_##id, ui_open_##stem, ui_draw_##stem, ui_key_##stem},
const ui_screen_def ui_screens[UI_SCREEN_COUNT] = {UI_SCREENS(UI_SCREEN_ROW)};
#undef UI_SCREEN_ROW

int ui_screen_open(ui_app *a, ui_screen s)
{
    if ((unsigned)s >= UI_SCREEN_COUNT || !ui_screens[s].open(a)) return 0;
    a->screen = s;
    return 1;
}

int ui_screen_opens(ui_app *a, ui_action act)
{
    for (int s = 0; s < UI_SCREEN_COUNT; s++)
        if (ui_screens[s].opens == act) {
            ui_screen_open(a, (ui_screen)s);
            return 1;
        }
    return 0;
}
