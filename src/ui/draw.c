#define _XOPEN_SOURCE 700
#include "draw.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/text.h"

/* Bytes of the longest prefix of s that fits in w columns (cols gets them). */
static size_t fit(const char *s, int w, int *cols)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t off = 0, len = strlen(s);
    int used = 0;
    while (off < len) {
        wchar_t wc;
        size_t n = mbrtowc(&wc, s + off, len - off, &st);
        if (n == (size_t)-1 || n == (size_t)-2) { /* not valid here: one byte, one column */
            memset(&st, 0, sizeof st);
            n = 1;
            wc = '?';
        }
        if (n == 0) break;
        int cw = wcwidth(wc);
        if (cw < 0) cw = 1;
        if (used + cw > w) break;
        used += cw;
        off += n;
    }
    if (cols) *cols = used;
    return off;
}

int ui_width(const char *s)
{
    int cols = 0;
    fit(s, 1 << 30, &cols);
    return cols;
}

/* Part of a number: a cut here would change what it says. */
static int in_number(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == ',' || c == '%' || c == '^';
}

size_t ui_cut(const char *s, int w, int *cols, int *cut)
{
    const size_t len = strlen(s);
    size_t bytes = fit(s, w, cols);
    *cut = bytes < len;
    if (!*cut || w < 2) return bytes;
    bytes = fit(s, w - 1, cols); /* room for the ellipsis */
    /* never cut a number, nor a word holding one ("1.0/thread"): drop it all */
    size_t start = bytes;
    int digit = 0;
    while (start > 0 && s[start - 1] != ' ') digit |= in_number(s[--start]) && s[start] != '.';
    for (size_t k = bytes; s[k] && s[k] != ' '; k++) digit |= s[k] >= '0' && s[k] <= '9';
    if (digit && s[bytes] != ' ') bytes = start;
    while (bytes > 0 && s[bytes - 1] == ' ') bytes--;
    char head[1024];
    const size_t n = bytes < sizeof head - 1 ? bytes : sizeof head - 1;
    memcpy(head, s, n);
    head[n] = '\0';
    *cols = ui_width(head);
    return n;
}

int ui_row_text(const char **s, char *line, size_t len)
{
    const unsigned char *p = (const unsigned char *)*s;
    size_t n = 0;
    while (p[n] && (p[n] >= 0x20 || p[n] == '\t') && p[n] != 0x7f) n++;
    char row[1024];
    const size_t k = n < sizeof row ? n : sizeof row - 1;
    for (size_t i = 0; i < k; i++) row[i] = p[i] == '\t' ? ' ' : (char)p[i];
    row[k] = '\0';
    /* C1 and bidirectional controls, and bytes that are not UTF-8, shown as escapes */
    rs_text_safe(row, 0, line, len);
    if (!p[n] && strcmp(line, *s) == 0) return 0; /* the common case: as it is */
    const unsigned char *rest = p + n;
    while (*rest && (*rest <= 0x20 || *rest == 0x7f)) rest++; /* a final newline hides nothing */
    *s = line;
    return *rest != '\0';
}

int ui_put(int y, int x, int w, ui_role role, const char *s)
{
    if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS) return 0;
    if (x + w > COLS) w = COLS - x;
    char line[1024];
    const int more = ui_row_text(&s, line, sizeof line);
    int cols = 0, cut = 0;
    const size_t bytes = ui_cut(s, w, &cols, &cut);
    cut |= more;
    attrset(ui_attr(role));
    mvaddnstr(y, x, s, (int)bytes);
    if (cut && cols < w) {
        mvaddstr(y, x + cols, ui_theme_utf8() ? "\xe2\x80\xa6" : "~"); /* … */
        cols++;
    }
    attrset(A_NORMAL);
    return cols;
}

const char *ui_pad(const char *s, int width, char *buf, size_t len)
{
    const int fill = width - ui_width(s);
    snprintf(buf, len, "%*s%s", fill > 0 ? fill : 0, "", s);
    return buf;
}

int ui_putf(int y, int x, int w, ui_role role, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ui_put(y, x, w, role, buf);
}

const char *ui_fit_middle(const char *s, int w, char *buf, size_t len)
{
    const size_t n = strlen(s);
    int ascii = 1;
    for (size_t i = 0; i < n; i++) ascii &= (unsigned char)s[i] < 0x80;
    if (!ascii || w < 5 || (int)n <= w || len < (size_t)w + 4) {
        snprintf(buf, len, "%s", s);
        return buf;
    }
    const int head = (w - 1) / 2 - (w > 8), tail = w - 1 - head; /* the end tells more */
    snprintf(buf, len, "%.*s%s%s", head, s, ui_theme_utf8() ? "\xe2\x80\xa6" : "~",
             s + n - (size_t)tail);
    return buf;
}

void ui_blank(int y, int x, int w, ui_role role)
{
    if (w <= 0 || y < 0 || y >= LINES) return;
    if (x + w > COLS) w = COLS - x;
    attrset(ui_attr(role));
    mvhline(y, x, ' ', w);
    attrset(A_NORMAL);
}

void ui_box(ui_rect r, const char *title, ui_role title_role)
{
    if (r.h < 2 || r.w < 2) return;
    /* UTF-8 line drawing written as text (a terminal's alternate character
     * set is not always to be trusted); plain ASCII otherwise. */
    const int utf8 = ui_theme_utf8();
    const char *h = utf8 ? "\xe2\x94\x80" : "-", *v = utf8 ? "\xe2\x94\x82" : "|";
    const char *ul = utf8 ? "\xe2\x94\x8c" : "+", *ur = utf8 ? "\xe2\x94\x90" : "+";
    const char *ll = utf8 ? "\xe2\x94\x94" : "+", *lr = utf8 ? "\xe2\x94\x98" : "+";
    for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
        ui_put(r.y, x, 1, R_DIM, h);
        ui_put(r.y + r.h - 1, x, 1, R_DIM, h);
    }
    for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
        ui_put(y, r.x, 1, R_DIM, v);
        ui_put(y, r.x + r.w - 1, 1, R_DIM, v);
    }
    ui_put(r.y, r.x, 1, R_DIM, ul);
    ui_put(r.y, r.x + r.w - 1, 1, R_DIM, ur);
    ui_put(r.y + r.h - 1, r.x, 1, R_DIM, ll);
    ui_put(r.y + r.h - 1, r.x + r.w - 1, 1, R_DIM, lr);
    attrset(A_NORMAL);
    if (title && *title && r.w > 6) {
        char t[256];
        snprintf(t, sizeof t, " %s ", title);
        ui_put(r.y, r.x + 2, r.w - 4, title_role, t);
    }
}

void ui_bar(int y, int x, int w, double frac, ui_role role)
{
    static const char *const eighths[] = {"",
                                          "\xe2\x96\x8f",
                                          "\xe2\x96\x8e",
                                          "\xe2\x96\x8d",
                                          "\xe2\x96\x8c",
                                          "\xe2\x96\x8b",
                                          "\xe2\x96\x8a",
                                          "\xe2\x96\x89"};
    if (w <= 0) return;
    if (!(frac > 0.0)) frac = 0.0;
    if (frac > 1.0) frac = 1.0;
    const int units = (int)(frac * w * 8.0 + 0.5);
    char buf[1024] = "";
    size_t used = 0;
    const int utf8 = ui_theme_utf8();
    int cells = 0;
    for (; cells < units / 8 && used + 4 < sizeof buf; cells++) {
        const char *full = utf8 ? "\xe2\x96\x88" : "#";
        memcpy(buf + used, full, strlen(full));
        used += strlen(full);
    }
    if (utf8 && units % 8 && cells < w) {
        memcpy(buf + used, eighths[units % 8], 3);
        used += 3;
        cells++;
    }
    buf[used] = '\0';
    ui_put(y, x, w, role, buf);
    for (int k = cells; k < w; k++) ui_put(y, x + k, 1, R_DIM, ui_glyph(G_EMPTY));
}

/* The last line kept of a text cut short ends in an ellipsis, within
 * width. */
static void mark_cut(char *line, int width)
{
    const int utf8 = ui_theme_utf8();
    const char *dots = utf8 ? "\xe2\x80\xa6" : "...";
    const int dw = utf8 ? 1 : 3;
    size_t len = strlen(line);
    while (len && ui_width(line) + dw > width) {
        do len--; /* a whole character: its continuation bytes with it */
        while (len && ((unsigned char)line[len] & 0xc0) == 0x80);
        line[len] = '\0';
    }
    while (len && line[len - 1] == ' ') line[--len] = '\0';
    if (len + strlen(dots) < 256) strcat(line, dots);
}

int ui_wrap(const char *text, int width, char (*lines)[256], int max)
{
    int n = 0;
    if (width < 4) width = 4;
    if (width > 255) width = 255;
    const char *p = text;
    while (*p && n < max) {
        while (*p == ' ') p++;
        if (*p == '\n') {
            lines[n++][0] = '\0';
            p++;
            continue;
        }
        /* take words while they fit */
        const char *start = p, *cut = NULL;
        int cols = 0;
        while (*p && *p != '\n') {
            const char *word_end = p;
            while (*word_end && *word_end != ' ' && *word_end != '\n') word_end++;
            char word[256];
            const size_t wl =
                (size_t)(word_end - p) < sizeof word - 1 ? (size_t)(word_end - p) : sizeof word - 1;
            memcpy(word, p, wl);
            word[wl] = '\0';
            const int ww = ui_width(word);
            if (cols + (cols ? 1 : 0) + ww > width) {
                if (cols == 0) { /* one word too long: cut it */
                    int c;
                    cut = p + fit(p, width, &c);
                    p = cut;
                }
                break;
            }
            cols += (cols ? 1 : 0) + ww;
            p = word_end;
            cut = p;
            if (*p == ' ') p++;
        }
        size_t len = cut ? (size_t)(cut - start) : 0;
        if (len > 255) len = 255;
        memcpy(lines[n], start, len);
        lines[n][len] = '\0';
        n++;
        if (*p == '\n') p++;
    }
    while (*p == ' ' || *p == '\n') p++;
    if (*p && n > 0) mark_cut(lines[n - 1], width); /* more than max lines: say it is cut */
    return n;
}

int ui_more_text(int first, int shown, int total, const char *keys, char *buf, size_t len)
{
    snprintf(buf, len, " %d-%d/%d %s more%s%s ", first + 1, first + shown, total,
             first + shown < total ? "v" : "^", keys[0] ? " " : "", keys);
    return ui_width(buf);
}

int ui_put_wrapped(ui_rect r, ui_role role, const char *text)
{
    char lines[8][256];
    const int n = ui_wrap(text, r.w, lines, r.h < 8 ? r.h : 8);
    for (int i = 0; i < n; i++) ui_put(r.y + i, r.x, r.w, role, lines[i]);
    return n;
}
