/* Colors by role, with a monochrome column, and glyphs with an ASCII
 * fallback. One table each. */
#ifndef UI_THEME_H
#define UI_THEME_H

typedef enum {
    R_NORMAL,
    R_HEADER,
    R_TITLE,
    R_SELECTED,
    R_GOOD,
    R_BAD,
    R_WARN,
    R_DIM,
    R_ACCENT,
    R_KEY,
    R_BAR,
    R_CODE,
    R_SERIES0, /* chart series 0..5 */
    R_SERIES1,
    R_SERIES2,
    R_SERIES3,
    R_SERIES4,
    R_SERIES5,
    R_ROLE_COUNT
} ui_role;

typedef enum {
    G_SELECT,
    G_OK,
    G_WRONG,
    G_DOWN,
    G_UP,
    G_SAME,
    G_SEP,
    G_TIMES,
    G_ARROW,
    G_EMPTY,
    G_DASH,
    G_RACE, /* a step with a data race */
    G_GLYPH_COUNT
} ui_glyph_id;

/* color: 1 to use colors (not under NO_COLOR / --no-color); utf8: the locale
 * speaks UTF-8; high_contrast: bright on black, nothing dimmed (a projector:
 * present --contrast, REDSCOPE_THEME=contrast). */
void ui_theme_init(int color, int utf8, int high_contrast);
int ui_theme_utf8(void);
int ui_attr(ui_role r); /* attr_t, as int to keep curses out of callers' headers */
const char *ui_glyph(ui_glyph_id g);
/* A spinner frame for tick t. */
const char *ui_spinner(unsigned t);

#endif
