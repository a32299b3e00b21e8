/* Where each panel goes: a pure function of the terminal size and the
 * screen. No ncurses here, so it is tested over hundreds of sizes. */
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

#include "screens.h"

#define UI_SCREEN_ID(id, stem, name, about) UI_SCREEN_##id,
typedef enum { UI_SCREENS(UI_SCREEN_ID) UI_SCREEN_COUNT } ui_screen;
#undef UI_SCREEN_ID

typedef struct ui_rect {
    int y, x, h, w;
} ui_rect;

#define UI_MIN_ROWS 20
#define UI_MIN_COLS 80

typedef struct ui_layout {
    int rows, cols;
    int too_small;
    ui_rect header, status, footer;
    /* explorer */
    ui_rect list, config, results, counters, why;
    /* every other screen draws in main */
    ui_rect main;
} ui_layout;

void ui_layout_compute(int rows, int cols, ui_screen screen, ui_layout *out);

/* The rectangles a screen uses (for tests); returns the count. */
int ui_layout_rects(const ui_layout *l, ui_screen screen, ui_rect *out, int max);

#endif
