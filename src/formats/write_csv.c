/* CSV (docs/formats.md): a header of keys, a line per row; free text
 * quoted through rs_csv_field, numbers as rs_csv_num writes them (never
 * the figure as people read it). */
#include "writer.h"

static void table(rs_writer *w)
{
    int first = 1;
    for (int k = 0; k < w->ncols; k++) {
        if (w->cols[k].flags & RS_COL_JSON_ONLY) continue;
        fprintf(w->f, "%s%s", first ? "" : ",", w->cols[k].key);
        first = 0;
    }
    fputc('\n', w->f);
}

static void row(rs_writer *w, const rs_cell *cells)
{
    int first = 1;
    for (int k = 0; k < w->ncols; k++) {
        const rs_column *c = &w->cols[k];
        if (c->flags & RS_COL_JSON_ONLY) continue;
        if (!first) fputc(',', w->f);
        first = 0;
        char buf[64];
        rs_cell v = cells[k];
        v.shown = NULL;
        if (c->kind == RS_CELL_NUM)
            rs_csv_num(w->f, v.num);
        else if (c->flags & RS_COL_FREE)
            rs_csv_field(w->f, rs_cell_text(c, &v, buf, sizeof buf));
        else
            fputs(rs_cell_text(c, &v, buf, sizeof buf), w->f);
    }
    fputc('\n', w->f);
}

const rs_writer_ops rs_write_csv = {.name = "csv", .table = table, .row = row};
