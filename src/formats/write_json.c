/* JSON (docs/formats.md): an array of one object per row, keyed by the
 * columns' keys, printed whole at the end. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "writer.h"

static void begin(rs_writer *w)
{
    w->state = cJSON_CreateArray();
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
    if (w->state)
        cJSON_AddItemToArray(w->state, o);
    else
        cJSON_Delete(o);
}

static void end(rs_writer *w)
{
    char *s = w->state ? cJSON_Print(w->state) : NULL;
    if (s) fprintf(w->f, "%s\n", s);
    free(s);
    cJSON_Delete(w->state);
    w->state = NULL;
}

const rs_writer_ops rs_write_json = {"json", begin, row, end};
