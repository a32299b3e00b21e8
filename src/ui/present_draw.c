/* A slide as the lines the Present screen draws (present.c): each part
 * built so far under its name, sentences wrapped, big figures in block
 * digits five rows tall (# where the terminal has no UTF-8), a code change
 * with + and - lines, the ladder so far as bars against the limit. Pure
 * but for the theme's glyph choice; drawn by present.c. */
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "draw.h"
#include "present_lines.h"

/* Five rows of three columns a character; '#' is a filled cell. */
static const struct {
    char c;
    const char *rows[5];
} font[] = {
    {'0', {"###", "# #", "# #", "# #", "###"}}, {'1', {" # ", "## ", " # ", " # ", "###"}},
    {'2', {"###", "  #", "###", "#  ", "###"}}, {'3', {"###", "  #", " ##", "  #", "###"}},
    {'4', {"# #", "# #", "###", "  #", "  #"}}, {'5', {"###", "#  ", "###", "  #", "###"}},
    {'6', {"###", "#  ", "###", "# #", "###"}}, {'7', {"###", "  #", "  #", "  #", "  #"}},
    {'8', {"###", "# #", "###", "# #", "###"}}, {'9', {"###", "# #", "###", "  #", "###"}},
    {'.', {" ", " ", " ", " ", "#"}},           {',', {" ", " ", " ", " ", "#"}},
    {'x', {"   ", "# #", " # ", "# #", "   "}}, {'-', {"   ", "   ", "###", "   ", "   "}},
    {'%', {"# #", "  #", " # ", "#  ", "# #"}}, {'/', {"  #", "  #", " # ", "#  ", "#  "}},
};

static int glyph(char c)
{
    for (size_t i = 0; i < sizeof font / sizeof *font; i++)
        if (font[i].c == c) return (int)i;
    return -1;
}

/* Append s to line (bytes used at *at, len its size); cells drawn. */
static void add(char *line, size_t len, size_t *at, const char *s)
{
    const size_t n = strlen(s);
    if (*at + n + 1 > len) return;
    memcpy(line + *at, s, n + 1);
    *at += n;
}

int ui_big_text(const char *text, int utf8, char rows[UI_BIG_ROWS][256])
{
    size_t at[UI_BIG_ROWS] = {0};
    for (int r = 0; r < UI_BIG_ROWS; r++) rows[r][0] = '\0';
    const char *fill = utf8 ? "\xe2\x96\x88" : "#";
    int cols = 0;
    const char *p = text;
    while (*p && *p != ' ') {
        const int times = strncmp(p, "\xc3\x97", 2) == 0;  /* × */
        const int divide = strncmp(p, "\xc3\xb7", 2) == 0; /* ÷: ten times slower and more */
        const int g = glyph(times ? 'x' : divide ? '/' : *p);
        if (g < 0) break;
        p += times || divide ? 2 : 1;
        for (int r = 0; r < UI_BIG_ROWS; r++) {
            for (const char *c = font[g].rows[r]; *c; c++)
                add(rows[r], 256, &at[r], *c == '#' ? fill : " ");
            add(rows[r], 256, &at[r], " ");
        }
        cols += (int)strlen(font[g].rows[0]) + 1;
    }
    if (*p) { /* the unit, on the last row */
        add(rows[UI_BIG_ROWS - 1], 256, &at[UI_BIG_ROWS - 1], p);
        for (const char *c = p; *c; c++)
            if ((*c & 0xc0) != 0x80) {
                cols++;
                for (int r = 0; r < UI_BIG_ROWS - 1; r++) add(rows[r], 256, &at[r], " ");
            }
    }
    return cols;
}

static void line(ui_lines *o, ui_role role, const char *text)
{
    if (o->n >= UI_PLINES) {
        o->cut = 1;
        return;
    }
    o->role[o->n] = role;
    size_t n = strnlen(text, sizeof o->text[0] - 1);
    while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80) n--; /* not inside a character */
    memcpy(o->text[o->n], text, n);
    o->text[o->n++][n] = '\0';
}

static void wrapped(ui_lines *o, ui_role role, const char *lead, const char *text, int w)
{
    static char lines[48][256];
    char whole[RS_DECK_TEXT + 16];
    snprintf(whole, sizeof whole, "%s%s", lead, text);
    const int k = ui_wrap(whole, w, lines, 48);
    for (int i = 0; i < k; i++) line(o, role, lines[i]);
}

/* A key line as written, its indentation kept and never wrapped (a
 * wrapped tail would read as a line of its own): a long one is cut where
 * it is drawn, with its ellipsis. */
static void code(ui_lines *o, ui_role role, const char *mark, const char *text)
{
    char whole[RS_DECK_TEXT + 8];
    snprintf(whole, sizeof whole, "%s%s", mark, text);
    line(o, role, whole);
}

/* Consecutive big figures side by side, each with its label below. */
static int bigs(const rs_deck_part *p, int i, int w, int utf8, ui_lines *o)
{
    char band[UI_BIG_ROWS][256] = {{0}}, labels[256] = "";
    int used = 0;
    for (; i < p->count && p->item[i].kind == RS_DK_BIG; i++) {
        char rows[UI_BIG_ROWS][256];
        const int cols = ui_big_text(p->item[i].text, utf8, rows);
        const int lw = (int)strlen(p->item[i].label);
        const int width = (cols > lw ? cols : lw) + 4;
        if (used && used + width > w) break; /* the next band */
        for (int r = 0; r < UI_BIG_ROWS; r++) {
            size_t at = strlen(band[r]);
            snprintf(band[r] + at, sizeof band[r] - at, "%s%*s", rows[r], width - cols, "");
        }
        size_t at = strlen(labels);
        snprintf(labels + at, sizeof labels - at, "%-*s", width, p->item[i].label);
        used += width;
    }
    for (int r = 0; r < UI_BIG_ROWS; r++) line(o, R_ACCENT, band[r]);
    line(o, R_DIM, labels);
    return i;
}

static void bar(const rs_deck_item *it, const rs_deck_part *p, int w, int utf8, ui_lines *o)
{
    enum { NAME = 22 };
    const int room = w - NAME - 14, len = room > 100 ? 100 : room > 10 ? room : 10;
    double lim = -1.0;
    for (int i = 0; i < p->count; i++)
        if (p->item[i].kind == RS_DK_LIMIT) lim = p->item[i].frac;
    char s[1024];
    char name[128];
    rs_fmt_cut(it->label, NAME, name, sizeof name);
    const int cells = rs_text_cols(name);
    size_t at = (size_t)snprintf(s, sizeof s, "%s%*s ", name, NAME - cells, "");
    const int fill = (int)(len * (it->frac > 0.0 && it->frac <= 1.0 ? it->frac : 0.0) + 0.5);
    const int mark = lim > 0.0 && lim <= 1.0 ? (int)(len * lim + 0.5) - 1 : -1;
    for (int c = 0; c < len; c++)
        add(s, sizeof s, &at, c < fill ? (utf8 ? "\xe2\x96\x88" : "#") : c == mark ? "|" : " ");
    at += (size_t)snprintf(s + at, sizeof s - at, " %s", it->text);
    line(o, it->current ? R_ACCENT : R_BAR, s);
}

static void part(const rs_deck_part *p, int w, int utf8, ui_lines *o)
{
    line(o, R_TITLE, p->name);
    for (int i = 0; i < p->count;) {
        const rs_deck_item *it = &p->item[i];
        switch (it->kind) {
        case RS_DK_BIG: i = bigs(p, i, w, utf8, o); continue;
        case RS_DK_CODE: code(o, R_CODE, "  ", it->text); break;
        case RS_DK_ADD: code(o, R_GOOD, "+ ", it->text); break;
        case RS_DK_DEL: code(o, R_BAD, "- ", it->text); break;
        case RS_DK_BAR: bar(it, p, w, utf8, o); break;
        case RS_DK_LIMIT: {
            char s[400];
            snprintf(s, sizeof s, "%22s (| marks %s)", "", it->text);
            line(o, R_DIM, s);
            break;
        }
        case RS_DK_WARN: wrapped(o, R_WARN, utf8 ? "\xe2\x9a\xa0 " : "! ", it->text, w); break;
        case RS_DK_BAD: wrapped(o, R_BAD, "", it->text, w); break;
        default: wrapped(o, R_NORMAL, "", it->text, w); break;
        }
        i++;
    }
}

void ui_slide_lines(const rs_slide *s, int parts, int w, int utf8, ui_lines *o, int *starts)
{
    o->n = 0;
    o->cut = 0;
    for (int k = 0; k < s->nparts && k < parts; k++) {
        if (k) line(o, R_NORMAL, "");
        if (starts) starts[k] = o->n;
        part(&s->part[k], w, utf8, o);
    }
}
