/* HTML: one file that stands alone, a heading and a table of the columns
 * people read, each cell through the document's escape (formats/doc.c). */
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

static void begin(rs_writer *w)
{
    const rs_doc d = {w->f, 1};
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", w->f);
    rs_doc_text(&d, w->title ? w->title : "redscope");
    fputs("</title>\n<style>body{font-family:sans-serif}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
          ".num{text-align:right}</style></head>\n<body>\n",
          w->f);
    if (w->title) {
        fputs("<h1>", w->f);
        rs_doc_text(&d, w->title);
        fputs("</h1>\n", w->f);
    }
    fputs("<table>\n", w->f);
    cells_of(w, NULL, "th");
}

static void row(rs_writer *w, const rs_cell *cells)
{
    cells_of(w, cells, "td");
}

static void end(rs_writer *w)
{
    fputs("</table>\n</body></html>\n", w->f);
}

const rs_writer_ops rs_write_html = {"html", begin, row, end};
