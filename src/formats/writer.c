/* The writers' one interface (writer.h) and what they share. */
#include "writer.h"

#include "core/format.h"

const rs_writer_ops *const rs_writers[RS_OUT_COUNT] = {
    [RS_OUT_TABLE] = &rs_write_table, [RS_OUT_CSV] = &rs_write_csv,
    [RS_OUT_JSON] = &rs_write_json,   [RS_OUT_MD] = &rs_write_md,
    [RS_OUT_HTML] = &rs_write_html,
};

rs_out_format rs_out_format_of(rs_format fmt, int doc)
{
    if (doc) return doc == 2 ? RS_OUT_HTML : RS_OUT_MD;
    return fmt == RS_FMT_CSV ? RS_OUT_CSV : fmt == RS_FMT_JSON ? RS_OUT_JSON : RS_OUT_TABLE;
}

void rs_writer_begin(rs_writer *w, FILE *f, rs_out_format fmt, const char *title,
                     const rs_column *cols, int ncols)
{
    *w = (rs_writer){rs_writers[(unsigned)fmt < RS_OUT_COUNT ? fmt : RS_OUT_TABLE],
                     f,
                     title,
                     cols,
                     ncols,
                     0,
                     NULL};
    w->ops->begin(w);
}

void rs_writer_row(rs_writer *w, const rs_cell *cells)
{
    w->ops->row(w, cells);
    w->rows++;
}

void rs_writer_end(rs_writer *w)
{
    w->ops->end(w);
}

int rs_col_in_table(const rs_column *c)
{
    return !(c->flags & (RS_COL_DATA_ONLY | RS_COL_JSON_ONLY));
}

int rs_table_order(const rs_writer *w, int *order)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < w->ncols; k++)
            if (rs_col_in_table(&w->cols[k]) && ((w->cols[k].flags & RS_COL_FREE) != 0) == pass)
                order[n++] = k;
    return n;
}

const char *rs_cell_text(const rs_column *c, const rs_cell *v, char *buf, size_t len)
{
    switch (c->kind) {
    case RS_CELL_INT: snprintf(buf, len, "%lld", v->i); return buf;
    case RS_CELL_BOOL: return v->i ? "yes" : "no";
    case RS_CELL_NUM: snprintf(buf, len, "%.6g", v->num); return buf;
    default: return v->text ? v->text : "";
    }
}
