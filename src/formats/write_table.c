/* The table people read in a terminal: a header of titles, a row per line,
 * columns two spaces apart, free text last and whole; prose as it is said,
 * and a report straight to the terminal (rs_writer_stream). */
#include "writer.h"

/* Columns of the table in the order shown: the fixed ones, then free text. */
static void each(const rs_writer *w, const rs_cell *cells)
{
    int order[64];
    const int n = w->ncols <= 64 ? rs_table_order(w, order) : 0;
    for (int i = 0; i < n; i++) {
        const rs_column *c = &w->cols[order[i]];
        char buf[64];
        const char *t = cells      ? rs_cell_text(c, &cells[order[i]], buf, sizeof buf)
                        : c->title ? c->title
                                   : c->key;
        if (i) fputs("  ", w->f);
        if ((c->flags & RS_COL_FREE) || !c->width)
            fputs(t, w->f);
        else
            fprintf(w->f, c->flags & RS_COL_RIGHT ? "%*s" : "%-*s", c->width, t);
    }
    fputc('\n', w->f);
}

static void table(rs_writer *w)
{
    each(w, NULL);
}

static void row(rs_writer *w, const rs_cell *cells)
{
    each(w, cells);
}

static void heading(rs_writer *w, const char *text)
{
    fprintf(w->f, "\n%s\n", text);
}

static void say(rs_writer *w, const char *lead, const char *line)
{
    fprintf(w->f, "%s%s%s\n", lead ? lead : "", lead ? " " : "", line);
}

static void pre(rs_writer *w, const char *text)
{
    fputs(text, w->f);
}

const rs_writer_ops rs_write_table = {.name = "table",
                                      .people = 1,
                                      .table = table,
                                      .row = row,
                                      .heading = heading,
                                      .say = say,
                                      .pre = pre};
