/* Lists and scrolled panels (ui/list.c), one rule for every screen: a
 * cursor goes round a list or stops at its ends and never leaves an empty
 * one; the list scrolls only once the cursor passes its last visible row;
 * a panel scrolls no further than its last row shows, and never above its
 * top, whatever the screen's size. */
#include <limits.h>

#include "check.h"
#include "ui/list.h"

static void step(void)
{
    /* round: the variant list, the ladder, presets, the recording's list */
    CHECK(ui_list_step(0, -1, 16, 1) == 15);
    CHECK(ui_list_step(15, 1, 16, 1) == 0);
    CHECK(ui_list_step(4, 1, 16, 1) == 5 && ui_list_step(4, -1, 16, 1) == 3);
    CHECK(ui_list_step(0, 1, 1, 1) == 0 && ui_list_step(0, -1, 1, 1) == 0);
    CHECK(ui_list_step(2, -20, 16, 1) == 14); /* a page up goes round too */
    /* stopping: the Source screen's lines, the sweep's sizes */
    CHECK(ui_list_step(0, -1, 5, 0) == 0);
    CHECK(ui_list_step(4, 1, 5, 0) == 4);
    CHECK(ui_list_step(2, 1, 5, 0) == 3 && ui_list_step(2, -1, 5, 0) == 1);
    CHECK(ui_list_step(9, -1, 5, 0) == 4); /* past the end (a shorter view): back in */
    /* an empty list: the cursor stays */
    CHECK(ui_list_step(3, 1, 0, 1) == 3 && ui_list_step(3, -1, 0, 0) == 3);
    CHECK(ui_list_step(3, 1, -2, 1) == 3);
}

static void first(void)
{
    CHECK(ui_list_first(0, 10) == 0);
    CHECK(ui_list_first(9, 10) == 0);  /* the last visible row */
    CHECK(ui_list_first(10, 10) == 1); /* one past: one row scrolled */
    CHECK(ui_list_first(15, 10) == 6);
    CHECK(ui_list_first(3, 1) == 3); /* one row: the cursor's own */
    CHECK(ui_list_first(-1, 10) == 0);
}

static void scroll(void)
{
    CHECK(ui_scroll_first(0, 100, 20) == 0);
    CHECK(ui_scroll_first(50, 100, 20) == 50);
    CHECK(ui_scroll_first(90, 100, 20) == 80); /* no further than the last row shows */
    CHECK(ui_scroll_first(-5, 100, 20) == 0);  /* never above the top */
    CHECK(ui_scroll_first(7, 10, 20) == 0);    /* everything fits: no scroll */
    CHECK(ui_scroll_first(7, 0, 20) == 0);
    CHECK(ui_scroll_first(INT_MAX - 1, 100, 20) == 80);
    CHECK(ui_scroll_first(3, 100, 0) == 3);
}

int main(void)
{
    step();
    first();
    scroll();
    return check_report("test_list");
}
