/* JSON (docs/formats.md): a table is an array of one object per row, keyed
 * by the columns' keys; the document is that array, or an object of the
 * members a command put (rs_writer_json), printed whole at the end. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "writer.h"

static void table(rs_writer *w)
{
    w->array = cJSON_CreateArray();
}

static void row(rs_writer *w, const rs_cell *cells)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < w->ncols; k++) {
        const rs_column *c = &w->cols[k];
        switch (c->kind) {
        case RS_CELL_INT: cJSON_AddNumberToObject(o, c->key, (double)cells[k].i); break;
        case RS_CELL_NUM: cJSON_AddNumberToObject(o, c->key, cells[k].num); break;
        case RS_CELL_BOOL: cJSON_AddBoolToObject(o, c->key, cells[k].i != 0); break;
        default: cJSON_AddStringToObject(o, c->key, cells[k].text ? cells[k].text : ""); break;
        }
    }
    if (w->array)
        cJSON_AddItemToArray(w->array, o);
    else
        cJSON_Delete(o);
}

static void table_end(rs_writer *w)
{
    cJSON *a = w->array;
    w->array = NULL;
    if (w->table_key || w->json)
        rs_writer_json(w, w->table_key ? w->table_key : "rows", a);
    else
        w->json = a;
}

static void close_doc(rs_writer *w)
{
    char *s = w->json ? rs_json_print(w->json) : NULL;
    if (s) fprintf(w->f, "%s\n", s);
    free(s);
}

const rs_writer_ops rs_write_json = {
    .name = "json", .table = table, .row = row, .table_end = table_end, .close = close_doc};
