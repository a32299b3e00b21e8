/* HTML: one file that stands alone, a heading, tables of the columns people
 * read, prose as paragraphs and a report as preformatted text, each cell
 * and sentence through the document's escape (formats/doc.c). */
#include "doc.h"
#include "writer.h"

static void cells_of(rs_writer *w, const rs_cell *cells, const char *tag)
{
    const rs_doc d = {w->f, 1};
    fputs("<tr>", w->f);
    int order[64];
    const int n = w->ncols <= 64 ? rs_table_order(w, order) : 0;
    for (int i = 0; i < n; i++) {
        const rs_column *c = &w->cols[order[i]];
        char buf[64];
        fprintf(w->f, "<%s%s>", tag, c->flags & RS_COL_RIGHT ? " class=\"num\"" : "");
        rs_doc_text(&d, cells      ? rs_cell_text(c, &cells[order[i]], buf, sizeof buf)
                        : c->title ? c->title
                                   : c->key);
        fprintf(w->f, "</%s>", tag);
    }
    fputs("</tr>\n", w->f);
}

static void open(rs_writer *w)
{
    const rs_doc d = {w->f, 1};
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", w->f);
    rs_doc_text(&d, w->title[0] ? w->title : "redscope");
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;"
          "line-height:1.4}table{border-collapse:collapse}td,th{border:1px solid #bbb;"
          "padding:.2em .5em;text-align:left}.num{text-align:right}pre{background:#f6f6f6;"
          "padding:.5em;overflow-x:auto}</style>\n</head>\n<body>\n",
          w->f);
    if (w->title[0]) {
        fputs("<h1>", w->f);
        rs_doc_text(&d, w->title);
        fputs("</h1>\n", w->f);
    }
}

static void table(rs_writer *w)
{
    fputs("<table>\n", w->f);
    cells_of(w, NULL, "th");
}

static void row(rs_writer *w, const rs_cell *cells)
{
    cells_of(w, cells, "td");
}

static void table_end(rs_writer *w)
{
    fputs("</table>\n", w->f);
}

static void heading(rs_writer *w, const char *text)
{
    const rs_doc d = {w->f, 1};
    fputs("<h2>", w->f);
    rs_doc_text(&d, text);
    fputs("</h2>\n", w->f);
}

static void say(rs_writer *w, const char *lead, const char *text)
{
    const rs_doc d = {w->f, 1};
    fputs("<p>", w->f);
    if (lead) {
        fputs("<b>", w->f);
        rs_doc_text(&d, lead);
        fputs("</b> ", w->f);
    }
    rs_doc_text(&d, text);
    fputs("</p>\n", w->f);
}

/* Preformatted: lines kept, the three characters HTML reads escaped. */
static void pre(rs_writer *w, const char *text)
{
    fputs("<pre>", w->f);
    for (const char *p = text; *p; p++) {
        if (*p == '<')
            fputs("&lt;", w->f);
        else if (*p == '>')
            fputs("&gt;", w->f);
        else if (*p == '&')
            fputs("&amp;", w->f);
        else
            fputc(*p, w->f);
    }
    fputs("</pre>\n", w->f);
}

static void close_doc(rs_writer *w)
{
    fputs("</body>\n</html>\n", w->f);
}

const rs_writer_ops rs_write_html = {.name = "html",
                                     .people = 1,
                                     .utf8 = 1,
                                     .open = open,
                                     .table = table,
                                     .row = row,
                                     .table_end = table_end,
                                     .heading = heading,
                                     .say = say,
                                     .pre = pre,
                                     .close = close_doc};
