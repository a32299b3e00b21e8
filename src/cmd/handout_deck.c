/* The deck in print (lecture/deck.h): every slide after the title as a
 * section of the handout, its parts in the order the presenter builds
 * them. A part's first sentence carries its name in bold; big figures
 * are bold; a code change is a block with + and - lines; the closing
 * slide's bars are an inline SVG in HTML and a text chart in Markdown.
 * The step slides' "ladder so far" is left out: the closing chart and
 * the table above hold every bar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "formats/doc.h"
#include "formats/record.h"
#include "handout.h"
#include "lecture/deck.h"

static int is_code(rs_deck_kind k)
{
    return k == RS_DK_CODE || k == RS_DK_ADD || k == RS_DK_DEL;
}

/* Consecutive code lines from item i as one block; the next item's index. */
static int code_block(rs_writer *w, const rs_deck_part *p, int i)
{
    FILE *f = rs_writer_stream(w);
    for (; i < p->count && is_code(p->item[i].kind); i++)
        fprintf(f, "%s %s\n",
                p->item[i].kind == RS_DK_ADD   ? "+"
                : p->item[i].kind == RS_DK_DEL ? "-"
                                               : " ",
                p->item[i].text);
    return i;
}

static void bars_svg(FILE *f, const rs_deck_part *p)
{
    const rs_doc d = {f, 1};
    enum { BAR = 30, LEFT = 200, LEN = 380 };
    int shown = 0;
    for (int i = 0; i < p->count; i++) shown += p->item[i].kind == RS_DK_BAR;
    const int h = shown * BAR + 44;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n",
            LEFT + LEN + 70, h);
    for (int i = 0, k = 0; i < p->count; i++) {
        const rs_deck_item *it = &p->item[i];
        if (it->kind == RS_DK_BAR) {
            const int y = 10 + k++ * BAR;
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 14);
            rs_doc_text(&d, it->label);
            fprintf(f,
                    "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                    "fill=\"#4a7ab5\"/><text x=\"%.1f\" y=\"%d\">%.0f</text>\n",
                    LEFT, y, LEN * it->frac, BAR - 8, LEFT + LEN * it->frac + 4, y + 14, it->value);
        } else if (it->kind == RS_DK_LIMIT) {
            const double x = LEFT + LEN * it->frac;
            fprintf(f,
                    "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c33\" "
                    "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#c33\" "
                    "text-anchor=\"end\">",
                    x, x, h - 22, x, h - 6);
            rs_doc_text(&d, it->text);
            fputs("</text>\n", f);
        }
    }
    fputs("</svg>\n", f);
}

/* Markdown: one line a bar, 40 columns for the scale. */
static void bars_text(rs_writer *w, const rs_deck_part *p)
{
    FILE *f = rs_writer_stream(w);
    for (int i = 0; i < p->count; i++) {
        const rs_deck_item *it = &p->item[i];
        const int len = (int)(40.0 * (it->frac > 0.0 && it->frac <= 1.0 ? it->frac : 0.0) + 0.5);
        if (it->kind == RS_DK_BAR) {
            char name[128];
            rs_fmt_cut(it->label, 24, name, sizeof name);
            const int cells = rs_text_cols(name);
            fprintf(f, "%s%*s ", name, 24 - cells, "");
            for (int c = 0; c < len; c++) fputs("#", f);
            fprintf(f, "%*s %s\n", 40 - len, "", it->text);
        } else if (it->kind == RS_DK_LIMIT) {
            fprintf(f, "%-24s %*s| %s\n", "", len > 0 ? len - 1 : 0, "", it->text);
        }
    }
}

static void part(rs_writer *w, const rs_deck_part *p)
{
    char lead[64];
    snprintf(lead, sizeof lead, "%s:", p->name);
    int led = 0;
    for (int i = 0; i < p->count;) {
        const rs_deck_item *it = &p->item[i];
        if (is_code(it->kind)) {
            i = code_block(w, p, i);
            continue;
        }
        if (it->kind == RS_DK_BAR || it->kind == RS_DK_LIMIT) {
            FILE *svg = rs_writer_raw(w, RS_FMT_HTML);
            if (svg)
                bars_svg(svg, p);
            else
                bars_text(w, p);
            return;
        }
        if (it->kind == RS_DK_BIG) {
            char big[RS_DECK_TEXT + 8];
            snprintf(big, sizeof big, "%s%s%s", led ? "" : lead, led ? "" : " ", it->text);
            rs_writer_lead(w, big, it->label);
        } else {
            rs_writer_lead(w, led ? NULL : lead, it->text);
        }
        led = 1;
        i++;
    }
}

int rs_handout_deck(rs_writer *w, const rs_row *rows, int n, const rs_recorded_check *checks,
                    int nchecks, const char *from)
{
    rs_deck *d = malloc(sizeof *d);
    rs_slide *s = malloc(sizeof *s);
    if (!d || !s) {
        free(d);
        free(s);
        return RS_E_NOMEM;
    }
    rs_deck_init(d, rows, n, checks, nchecks, from);
    const int count = rs_deck_count(d);
    for (int k = 1; k < count; k++) {
        rs_deck_slide(d, k, s);
        rs_writer_heading(w, s->title);
        for (int j = 0; j < s->nparts; j++)
            if (k == count - 1 || strcmp(s->part[j].name, "The ladder so far") != 0)
                part(w, &s->part[j]);
    }
    free(d);
    free(s);
    return 0;
}
