#include "theme.h"

#include "core/format.h"

#include <curses.h>

static int use_color, use_utf8;

/* role: foreground, background, attributes with color, attributes without */
static const struct {
    short fg, bg;
    int attr_color, attr_mono;
} roles[R_ROLE_COUNT] = {
    [R_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
    [R_HEADER] = {COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE},
    [R_TITLE] = {COLOR_CYAN, -1, A_BOLD, A_BOLD},
    [R_SELECTED] = {COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_REVERSE},
    [R_GOOD] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
    [R_BAD] = {COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [R_WARN] = {COLOR_YELLOW, -1, A_BOLD, A_UNDERLINE},
    [R_DIM] = {-1, -1, A_DIM, A_DIM},
    [R_ACCENT] = {COLOR_MAGENTA, -1, A_BOLD, A_BOLD},
    [R_KEY] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE},
    [R_BAR] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
    [R_CODE] = {COLOR_YELLOW, -1, A_NORMAL, A_DIM},
    [R_SERIES0] = {COLOR_CYAN, -1, A_BOLD, A_NORMAL},
    [R_SERIES1] = {COLOR_YELLOW, -1, A_BOLD, A_NORMAL},
    [R_SERIES2] = {COLOR_GREEN, -1, A_BOLD, A_NORMAL},
    [R_SERIES3] = {COLOR_MAGENTA, -1, A_BOLD, A_NORMAL},
    [R_SERIES4] = {COLOR_RED, -1, A_BOLD, A_NORMAL},
    [R_SERIES5] = {COLOR_WHITE, -1, A_BOLD, A_NORMAL},
};

/* High contrast, for a projector: bright colours on black, bold text,
 * nothing dimmed (a dim line is lost on a washed-out screen). */
static const struct {
    short fg, bg;
    int attr;
} contrast[R_ROLE_COUNT] = {
    [R_NORMAL] = {COLOR_WHITE, COLOR_BLACK, A_BOLD},
    [R_HEADER] = {COLOR_BLACK, COLOR_WHITE, A_BOLD},
    [R_TITLE] = {COLOR_YELLOW, COLOR_BLACK, A_BOLD},
    [R_SELECTED] = {COLOR_BLACK, COLOR_YELLOW, A_BOLD},
    [R_GOOD] = {COLOR_GREEN, COLOR_BLACK, A_BOLD},
    [R_BAD] = {COLOR_RED, COLOR_BLACK, A_BOLD | A_UNDERLINE},
    [R_WARN] = {COLOR_YELLOW, COLOR_BLACK, A_BOLD | A_UNDERLINE},
    [R_DIM] = {COLOR_WHITE, COLOR_BLACK, A_NORMAL},
    [R_ACCENT] = {COLOR_CYAN, COLOR_BLACK, A_BOLD},
    [R_KEY] = {COLOR_BLACK, COLOR_WHITE, A_BOLD},
    [R_BAR] = {COLOR_GREEN, COLOR_BLACK, A_BOLD},
    [R_CODE] = {COLOR_WHITE, COLOR_BLACK, A_BOLD},
    [R_SERIES0] = {COLOR_CYAN, COLOR_BLACK, A_BOLD},
    [R_SERIES1] = {COLOR_YELLOW, COLOR_BLACK, A_BOLD},
    [R_SERIES2] = {COLOR_GREEN, COLOR_BLACK, A_BOLD},
    [R_SERIES3] = {COLOR_MAGENTA, COLOR_BLACK, A_BOLD},
    [R_SERIES4] = {COLOR_RED, COLOR_BLACK, A_BOLD},
    [R_SERIES5] = {COLOR_WHITE, COLOR_BLACK, A_BOLD},
};
static int use_contrast;

static const char *const glyphs[G_GLYPH_COUNT][2] = {
    [G_SELECT] = {">", "\xe2\x96\xb6"}, /* ▶ */
    [G_OK] = {"ok", "\xe2\x9c\x93"},    /* ✓ */
    [G_WRONG] = {"XX", "\xe2\x9c\x97"}, /* ✗ */
    [G_DOWN] = {"v", "\xe2\x96\xbc"},   /* ▼ */
    [G_UP] = {"^", "\xe2\x96\xb2"},     /* ▲ */
    [G_SAME] = {"=", "="},
    [G_SEP] = {"|", "\xc2\xb7"},        /* · */
    [G_TIMES] = {"x", "\xc3\x97"},      /* × */
    [G_ARROW] = {"->", "\xe2\x86\x92"}, /* → */
    [G_EMPTY] = {".", "\xe2\x96\x91"},  /* ░ */
    [G_DASH] = {"-", "\xe2\x80\x93"},   /* – */
    [G_RACE] = {"!", "\xe2\x9a\xa0"},   /* ⚠ */
};

void ui_theme_init(int color, int utf8, int high_contrast)
{
    use_utf8 = utf8;
    rs_notation_set(utf8);
    use_color = color && has_colors();
    use_contrast = use_color && high_contrast;
    if (!use_color) return;
    start_color();
    use_default_colors();
    for (int r = use_contrast ? 0 : 1; r < R_ROLE_COUNT; r++)
        if (use_contrast && r)
            init_pair((short)r, contrast[r].fg, contrast[r].bg);
        else if (!use_contrast)
            init_pair((short)r, roles[r].fg, roles[r].bg);
    if (use_contrast) { /* pair 0 cannot be set: the screen's own background is */
        init_pair((short)R_ROLE_COUNT, COLOR_WHITE, COLOR_BLACK);
        bkgd((chtype)COLOR_PAIR(R_ROLE_COUNT));
    }
}

int ui_theme_utf8(void)
{
    return use_utf8;
}

int ui_attr(ui_role r)
{
    if ((unsigned)r >= R_ROLE_COUNT) r = R_NORMAL;
    if (!use_color) return roles[r].attr_mono;
    if (use_contrast) return (int)(contrast[r].attr | COLOR_PAIR(r ? r : R_ROLE_COUNT));
    return (int)(roles[r].attr_color | (r ? COLOR_PAIR(r) : 0));
}

const char *ui_glyph(ui_glyph_id g)
{
    return glyphs[g][use_utf8 ? 1 : 0];
}

const char *ui_spinner(unsigned t)
{
    static const char *const braille[] = {
        "\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8", "\xe2\xa0\xbc",
        "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7", "\xe2\xa0\x87", "\xe2\xa0\x8f"};
    static const char *const ascii[] = {"|", "/", "-", "\\"};
    return use_utf8 ? braille[t % 10] : ascii[t % 4];
}
