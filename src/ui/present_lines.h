/* A slide as lines to draw (present_draw.c), for the Present screen. */
#ifndef RS_UI_PRESENT_LINES_H
#define RS_UI_PRESENT_LINES_H

#include "lecture/deck.h"
#include "theme.h"

enum { UI_PLINES = 400, UI_BIG_ROWS = 5 };

typedef struct ui_lines {
    int n, cut; /* cut: lines past UI_PLINES were left out */
    ui_role role[UI_PLINES];
    char text[UI_PLINES][512];
} ui_lines;

/* text ("87.5 µs", "×1.24") in block digits five rows tall, its unit on
 * the last row; '#' for a filled cell without UTF-8. Returns its width in
 * cells. */
int ui_big_text(const char *text, int utf8, char rows[UI_BIG_ROWS][256]);

/* The first `parts` parts of s as lines of width w; starts[k], where
 * given, is the line part k begins on. */
void ui_slide_lines(const rs_slide *s, int parts, int w, int utf8, ui_lines *o, int *starts);

#endif
