/* The layout over every terminal size from too small to 300x100: panels
 * never overlap and never leave the screen. And the key table: the footer
 * fits, and no key means two things on one screen. */
#include "check.h"
#include "ui/keys.h"
#include "ui/layout.h"

static int overlap(ui_rect a, ui_rect b)
{
    if (!a.h || !a.w || !b.h || !b.w) return 0;
    return a.y < b.y + b.h && b.y < a.y + a.h && a.x < b.x + b.w && b.x < a.x + a.w;
}

static void layouts(void)
{
    int checked = 0;
    for (int rows = 1; rows <= 100; rows++)
        for (int cols = 1; cols <= 300; cols += (cols < 90 ? 1 : 7))
            for (int s = 0; s < UI_SCREEN_COUNT; s++) {
                ui_layout l;
                ui_layout_compute(rows, cols, s, &l);
                const int small = rows < UI_MIN_ROWS || cols < UI_MIN_COLS;
                CHECK(l.too_small == small);
                ui_rect r[16];
                const int n = ui_layout_rects(&l, s, r, 16);
                CHECK(small ? n == 0 : n >= 4);
                for (int i = 0; i < n; i++) {
                    CHECK_MSG(r[i].y >= 0 && r[i].x >= 0 && r[i].y + r[i].h <= rows &&
                                  r[i].x + r[i].w <= cols,
                              "%dx%d screen %d rect %d outside", cols, rows, s, i);
                    CHECK_MSG(r[i].h > 0 && r[i].w > 0, "%dx%d screen %d rect %d empty", cols, rows,
                              s, i);
                    for (int k = i + 1; k < n; k++)
                        CHECK_MSG(!overlap(r[i], r[k]), "%dx%d screen %d: rects %d and %d overlap",
                                  cols, rows, s, i, k);
                }
                if (!small && s == UI_SCREEN_EXPLORER) {
                    /* room for what each panel must show */
                    CHECK(l.list.h >= 6 && l.config.h >= 7 && l.results.h >= 6);
                    CHECK(l.counters.h >= 6 && l.why.h >= 5 && l.results.w >= 48);
                    CHECK(l.list.h + l.config.h == rows - 3);
                }
                checked++;
            }
    CHECK(checked > 10000);
}

static void keys(void)
{
    for (int s = 0; s < UI_SCREEN_COUNT; s++) {
        for (int i = 0; i < ui_binding_count; i++) {
            const ui_binding *a = &ui_bindings[i];
            CHECK(a->help && strlen(a->help) > 3 && a->action != UI_ACT_NONE);
            if (!(a->screens & UI_ON(s))) continue;
            for (int k = i + 1; k < ui_binding_count; k++) {
                const ui_binding *b = &ui_bindings[k];
                if (!(b->screens & UI_ON(s))) continue;
                const int clash = a->key == b->key || (a->key2 && a->key2 == b->key) ||
                                  (b->key2 && b->key2 == a->key) || (a->key2 && a->key2 == b->key2);
                CHECK_MSG(!clash || a->action == b->action, "%s: '%s' and '%s' share a key",
                          ui_screen_name(s), a->label, b->label);
            }
        }
        char footer[512];
        for (int w = UI_MIN_COLS; w <= 300; w += 23) {
            static const char *const runs[] = {NULL, "show", "compile", ""};
            for (int k = 0; k < 4; k++) { /* Enter named by the source, or left out */
                memset(footer, 'x', sizeof footer);
                ui_footer_text(s, w, runs[k], footer, sizeof footer);
                CHECK_MSG(memchr(footer, 0, sizeof footer) && (int)strlen(footer) < w,
                          "footer of %s wider than %d", ui_screen_name(s), w);
                CHECK_STR_CONTAINS(footer, "quit");
                if (k == 3 && s == UI_SCREEN_EXPLORER) CHECK(!strstr(footer, "Enter"));
            }
        }
        CHECK(ui_key_action(s, 'q') == UI_ACT_QUIT);
    }
    CHECK(ui_key_action(UI_SCREEN_EXPLORER, '\r') == UI_ACT_RUN);
    CHECK(ui_key_action(UI_SCREEN_EXPLORER, 'L') == UI_ACT_OPEN_LADDER);
    CHECK(ui_key_action(UI_SCREEN_SWEEP, 'y') == UI_ACT_TOGGLE_Y);
    CHECK(ui_key_action(UI_SCREEN_EXPLORER, 'y') == UI_ACT_NONE);
}

int main(void)
{
    layouts();
    keys();
    return check_report("test_layout");
}
