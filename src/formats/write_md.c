/* Markdown: a heading, then a pipe table of the columns people read, each
 * cell through the document's escape (formats/doc.c). */
#include "doc.h"
#include "writer.h"

static void line(rs_writer *w, const rs_cell *cells)
{
    const rs_doc d = {w->f, 0};
    int order[64];
    const int n = w->ncols <= 64 ? rs_table_order(w, order) : 0;
    for (int i = 0; i < n; i++) {
        const rs_column *c = &w->cols[order[i]];
        char buf[64];
        fputs("| ", w->f);
        rs_doc_text(&d, cells      ? rs_cell_text(c, &cells[order[i]], buf, sizeof buf)
                        : c->title ? c->title
                                   : c->key);
        fputc(' ', w->f);
    }
    fputs("|\n", w->f);
}

static void begin(rs_writer *w)
{
    const rs_doc d = {w->f, 0};
    if (w->title) {
        fputs("# ", w->f);
        rs_doc_text(&d, w->title);
        fputs("\n\n", w->f);
    }
    line(w, NULL);
    int order[64];
    const int n = w->ncols <= 64 ? rs_table_order(w, order) : 0;
    for (int i = 0; i < n; i++)
        fputs(w->cols[order[i]].flags & RS_COL_RIGHT ? "|--:" : "|---", w->f);
    fputs("|\n", w->f);
}

static void row(rs_writer *w, const rs_cell *cells)
{
    line(w, cells);
}

static void end(rs_writer *w)
{
    (void)w;
}

const rs_writer_ops rs_write_md = {"md", begin, row, end};
