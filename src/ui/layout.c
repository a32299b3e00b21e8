#include "layout.h"

#include <string.h>

static ui_rect rect(int y, int x, int h, int w)
{
    ui_rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};
    return r;
}

/* Explorer: the ladder and configuration on the left, the results,
 * counters and explanation stacked on the right; extra width goes right. */
static void explorer(ui_layout *l, int top, int height)
{
    const int left = l->cols >= 120 ? 40 : l->cols >= 110 ? 34 : 31; /* ids and times whole */
    const int right = l->cols - left;
    const int config_h = 7; /* 5 lines of settings inside a box */
    l->config = rect(top + height - config_h, 0, config_h, left);
    l->list = rect(top, 0, height - config_h, left);
    const int results_h = 6;
    int rest = height - results_h;
    int counters_h = rest * 11 / 20;
    if (counters_h > 22) counters_h = 22;
    if (counters_h < 6) counters_h = 6;
    l->results = rect(top, left, results_h, right);
    l->counters = rect(top + results_h, left, counters_h, right);
    l->why = rect(top + results_h + counters_h, left, rest - counters_h, right);
}

void ui_layout_compute(int rows, int cols, ui_screen screen, ui_layout *l)
{
    memset(l, 0, sizeof *l);
    l->rows = rows;
    l->cols = cols;
    if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
        l->too_small = 1;
        return;
    }
    l->header = rect(0, 0, 1, cols);
    l->status = rect(rows - 2, 0, 1, cols);
    l->footer = rect(rows - 1, 0, 1, cols);
    const int top = 1, height = rows - 3;
    l->main = rect(top, 0, height, cols);
    if (screen == UI_SCREEN_EXPLORER) explorer(l, top, height);
}

int ui_layout_rects(const ui_layout *l, ui_screen screen, ui_rect *out, int max)
{
    int n = 0;
    if (l->too_small || max < 8) return 0;
    out[n++] = l->header;
    out[n++] = l->status;
    out[n++] = l->footer;
    if (screen == UI_SCREEN_EXPLORER) {
        out[n++] = l->list;
        out[n++] = l->config;
        out[n++] = l->results;
        out[n++] = l->counters;
        out[n++] = l->why;
    } else {
        out[n++] = l->main;
    }
    return n;
}
