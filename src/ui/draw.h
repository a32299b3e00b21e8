/* Drawing helpers over ncurses: clipped UTF-8 text, boxes with titles, bars. */
#ifndef UI_DRAW_H
#define UI_DRAW_H

#include "layout.h"
#include <stddef.h>

#include "theme.h"

/* Display width of UTF-8 text. */
int ui_width(const char *s);
/* Bytes of s to show in w columns; *cut is 1 when s does not fit, and then
 * the bytes leave a column for an ellipsis, drop trailing blanks and never
 * split a number ("block 25" for "block 256" would lie). */
size_t ui_cut(const char *s, int w, int *cols, int *cut);
/* s right-aligned in width display columns (printf counts bytes). */
const char *ui_pad(const char *s, int width, char *buf, size_t len);
/* Put s at (y, x), at most w columns, ending in an ellipsis when cut;
 * returns the columns used. */
/* The text of *s ui_put draws on one row: a tab is a blank, and the text
 * ends at any other control character (a newline would wrap it over the
 * next row, an escape would reach the terminal). *s is left, or pointed at
 * line holding that text; 1 when visible text was left out. */
int ui_row_text(const char **s, char *line, size_t len);
int ui_put(int y, int x, int w, ui_role role, const char *s);
int ui_putf(int y, int x, int w, ui_role role, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* s in w columns: itself where it fits, else its start and its end around
 * an ellipsis ("unrol…olatile"); text other than ASCII is left to ui_put. */
const char *ui_fit_middle(const char *s, int w, char *buf, size_t len);
/* Blank w columns. */
void ui_blank(int y, int x, int w, ui_role role);
/* A frame around r with a title in its top edge. */
void ui_box(ui_rect r, const char *title, ui_role title_role);
/* A horizontal bar of w cells filled to frac (0..1), eighth-cells in UTF-8. */
void ui_bar(int y, int x, int w, double frac, ui_role role);
/* Word-wrap text into lines of at most width columns; returns the count. */
int ui_wrap(const char *text, int width, char (*lines)[256], int max);
/* text wrapped over the rows of r (at most 8); returns the rows used. */
int ui_put_wrapped(ui_rect r, ui_role role, const char *text);
/* The mark of a list cut to the rows from first, shown of total: " a-b/N v
 * more KEYS " (^ once its last row shows; keys may be ""), as every
 * screen says it; returns its width. */
int ui_more_text(int first, int shown, int total, const char *keys, char *buf, size_t len);

#endif
