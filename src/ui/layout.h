/* Where each panel goes: a pure function of the terminal size and the
 * screen. No ncurses here, so it is tested over hundreds of sizes. */
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

typedef enum {
    UI_SCREEN_EXPLORER,
    UI_SCREEN_LADDER,
    UI_SCREEN_COMPARE,
    UI_SCREEN_SWEEP,
    UI_SCREEN_HELP,
    UI_SCREEN_PRESETS,
    UI_SCREEN_RECORDING,
    UI_SCREEN_SOURCE,
    UI_SCREEN_COUNT
} ui_screen;

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
