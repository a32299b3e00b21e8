/* Lists with a cursor and panels that scroll: one rule for every screen
 * (pure; tests/unit/test_list.c). */
#ifndef RS_UI_LIST_H
#define RS_UI_LIST_H

/* The cursor moved by d over count rows: round the list (wrap) or
 * stopping at its ends; unchanged where the list is empty. */
int ui_list_step(int cur, int d, int count, int wrap);

/* The first row shown of a list of `rows` visible rows whose cursor stays
 * in view: 0 until the cursor passes the last visible row. */
int ui_list_first(int cur, int rows);

/* A scrolled panel's first row: scrolled no further than its last row
 * shows, and never above its top. */
int ui_scroll_first(int first, int total, int rows);

#endif
