/* The Help screen: every key, from the same table as the footer. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"

#define HELP_MAX 400 /* lines once wrapped: every binding over a few lines at 80 columns */

/* text wrapped to w columns into lines from *n, each after indent. */
static void help_add(char (*lines)[256], ui_role *role, int *n, const char *indent,
                     const char *text, int w, ui_role r)
{
    char wrapped[16][256];
    const int iw = ui_width(indent), k = ui_wrap(text, w - iw, wrapped, 16);
    for (int i = 0; i < k && *n < HELP_MAX; i++) {
        snprintf(lines[*n], 256, "%.15s%.240s", indent, wrapped[i]);
        role[(*n)++] = r;
    }
}

/* A back-step another key's text names already ("t next element type
 * (T: previous)"): listed with that key, not on a line of its own. */
static int folded(const ui_binding *b)
{
    char a[24], c[24];
    snprintf(a, sizeof a, "(%s: ", b->label);
    snprintf(c, sizeof c, "; %s: ", b->label);
    for (int i = 0; i < ui_binding_count; i++)
        if (&ui_bindings[i] != b && (b->screens & ui_bindings[i].screens) &&
            (strstr(ui_bindings[i].help, a) || strstr(ui_bindings[i].help, c)))
            return 1;
    return 0;
}

/* Screen s's keys, each once; on the screen help came from (`own`) every
 * key it takes, on the others those the explorer does not list. */
static void screen_keys(int s, int own, int w, char (*lines)[256], ui_role *role, int *n)
{
    const int head = *n;
    snprintf(lines[*n], 256, "%s%s", ui_screen_name(s), own ? " (this screen)" : "");
    role[(*n)++] = R_TITLE;
    help_add(lines, role, n, "  ", ui_screens[s].about, w, R_NORMAL); /* what it shows */
    const int keys = *n;
    for (int i = 0; i < ui_binding_count && *n < HELP_MAX; i++) {
        const ui_binding *b = &ui_bindings[i];
        if (!(b->screens & UI_ON(s)) || folded(b)) continue;
        const unsigned elsewhere = UI_ON(UI_SCREEN_EXPLORER) | UI_ON(UI_SCREEN_HELP);
        const int everywhere = (b->screens | elsewhere) == (unsigned)UI_ON_ALL; /* Esc, ?, q */
        if (!own && s != UI_SCREEN_EXPLORER && ((b->screens & UI_ON(0)) || everywhere)) continue;
        int seen = 0; /* one line per key on a screen (Esc has two bindings) */
        for (int k = 0; k < i && !seen; k++)
            seen = (ui_bindings[k].screens & UI_ON(s)) && !strcmp(ui_bindings[k].label, b->label);
        if (seen) continue;
        const int first = *n;
        help_add(lines, role, n, "           ", b->help, w, R_NORMAL);
        if (*n > first) { /* the key over the first line's indent */
            char key[16];
            snprintf(key, sizeof key, "  %-8s ", b->label);
            memcpy(lines[first], key, strlen(key));
        }
    }
    if (*n == keys && !own) *n = head; /* nothing of its own beyond the explorer's */
}

/* The help's lines at width w: the screen it was opened from first, with
 * every key it takes, then the others; each key's words wrap under it. */
static int help_lines(int w, int from, char (*lines)[256], ui_role *role)
{
    int n = 0;
    help_add(lines, role, &n, "",
             "redscope runs CUDA reductions live and shows why each step is faster, with the "
             "GPU's own counters.",
             w, R_ACCENT);
    if (from >= 0 && from < UI_SCREEN_COUNT && from != UI_SCREEN_HELP)
        screen_keys(from, 1, w, lines, role, &n);
    for (int s = 0; s < UI_SCREEN_COUNT && n < HELP_MAX; s++)
        if (s != UI_SCREEN_HELP && s != from) screen_keys(s, 0, w, lines, role, &n);
    return n;
}

void ui_draw_help(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    const int x = r.x + 2, w = r.w - 4, rows = r.h - 2;
    static char lines[HELP_MAX][256];
    static ui_role role[HELP_MAX];
    const int n = help_lines(w, (int)a->back, lines, role);
    const int first =
        ui_scroll_first(a->help_scroll, n, rows); /* not stored: drawing changes nothing */
    char title[128];
    snprintf(title, sizeof title, "Help: every key (Up/Down, PgUp/PgDn scroll; Esc goes back)%s",
             first + rows < n ? " v more" : "");
    ui_box(r, title, R_TITLE);
    for (int i = 0; i < rows && first + i < n; i++)
        ui_put(r.y + 1 + i, x, w, role[first + i], lines[first + i]);
}

int ui_open_help(ui_app *a)
{
    a->help_scroll = 0;
    if (a->screen != UI_SCREEN_HELP) a->back = a->screen; /* Esc goes back there */
    return 1;
}

int ui_key_help(ui_app *a, ui_action act)
{
    const int page = act == UI_ACT_SCROLL_UP || act == UI_ACT_SCROLL_DOWN;
    if (act != UI_ACT_UP && act != UI_ACT_DOWN && !page) return 0;
    ui_layout l; /* scrolled no further than the last line shows */
    ui_layout_compute(LINES, COLS, UI_SCREEN_HELP, &l);
    static char lines[HELP_MAX][256];
    static ui_role role[HELP_MAX];
    const int n = help_lines(l.main.w - 4, (int)a->back, lines, role);
    const int step = page ? (l.main.h - 3 > 1 ? l.main.h - 3 : 1) : 1;
    a->help_scroll = ui_scroll_first(
        a->help_scroll + (act == UI_ACT_UP || act == UI_ACT_SCROLL_UP ? -step : step), n,
        l.main.h - 2);
    return 1;
}
