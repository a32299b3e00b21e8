/* The writers' one interface (writer.h) and what they share. */
#include "writer.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"

#define RS_WRITER_ROW(name, NAME) [RS_FMT_##NAME] = &rs_write_##name,
const rs_writer_ops *const rs_writers[RS_FMT_COUNT] = {RS_WRITER_LIST(RS_WRITER_ROW)};
#undef RS_WRITER_ROW

int rs_format_from_name(const char *s)
{
    for (int k = 0; s && k < RS_FMT_COUNT; k++)
        if (strcmp(s, rs_writers[k]->name) == 0) return k;
    return -1;
}

const char *rs_format_names(void)
{
    static char names[128];
    if (!names[0])
        for (int k = 0, at = 0; k < RS_FMT_COUNT && at < (int)sizeof names; k++)
            at += snprintf(names + at, sizeof names - (size_t)at, "%s%s",
                           k == 0                  ? ""
                           : k == RS_FMT_COUNT - 1 ? " or "
                                                   : ", ",
                           rs_writers[k]->name);
    return names;
}

/* A report written so far goes into the document before anything else. */
static void flush_report(rs_writer *w)
{
    if (!w->report) return;
    fclose(w->report);
    w->report = NULL;
    if (w->report_len && w->ops->people && w->ops->pre) w->ops->pre(w, w->report_buf);
    free(w->report_buf);
    w->report_buf = NULL;
    w->report_len = 0;
}

void rs_writer_open(rs_writer *w, FILE *f, rs_format fmt, const char *title)
{
    memset(w, 0, sizeof *w);
    w->ops = rs_writers[(unsigned)fmt < RS_FMT_COUNT ? fmt : RS_FMT_TABLE];
    w->f = f;
    rs_writer_title(w, title);
}

void rs_writer_title(rs_writer *w, const char *title)
{
    if (!w->opened) snprintf(w->title, sizeof w->title, "%s", title ? title : "");
}

/* The document starts with the first thing put in it: a command that
 * fails before it has anything to say writes nothing. */
static void started(rs_writer *w)
{
    if (w->opened) return;
    w->opened = 1;
    if (w->ops->open) w->ops->open(w);
}

void rs_writer_table(rs_writer *w, const rs_column *cols, int ncols, const char *json_key)
{
    started(w);
    flush_report(w);
    rs_writer_table_end(w);
    w->cols = cols;
    w->ncols = ncols;
    w->rows = 0;
    w->table_key = json_key;
    w->in_table = 1;
    w->ops->table(w);
}

void rs_writer_row(rs_writer *w, const rs_cell *cells)
{
    if (!w->in_table) return;
    w->ops->row(w, cells);
    w->rows++;
}

void rs_writer_table_end(rs_writer *w)
{
    if (!w->in_table) return;
    w->in_table = 0;
    if (w->ops->table_end) w->ops->table_end(w);
}

void rs_writer_say(rs_writer *w, const char *fmt, ...)
{
    if (!w->ops->people) return;
    started(w);
    flush_report(w);
    rs_writer_table_end(w);
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    w->ops->say(w, NULL, line);
}

void rs_writer_lead(rs_writer *w, const char *lead, const char *text)
{
    if (!w->ops->people) return;
    started(w);
    flush_report(w);
    rs_writer_table_end(w);
    w->ops->say(w, lead, text);
}

void rs_writer_heading(rs_writer *w, const char *text)
{
    if (!w->ops->people) return;
    started(w);
    flush_report(w);
    rs_writer_table_end(w);
    w->ops->heading(w, text);
}

FILE *rs_writer_raw(rs_writer *w, rs_format fmt)
{
    if (!rs_writer_is(w, fmt)) return NULL;
    started(w);
    flush_report(w);
    rs_writer_table_end(w);
    return w->f;
}

FILE *rs_writer_stream(rs_writer *w)
{
    started(w);
    rs_writer_table_end(w);
    if (!w->ops->people || !w->ops->pre || w->ops == &rs_write_table) return w->f;
    if (!w->report) w->report = open_memstream(&w->report_buf, &w->report_len);
    return w->report ? w->report : w->f;
}

void rs_writer_json(rs_writer *w, const char *key, cJSON *item)
{
    if (!item) return;
    started(w);
    if (w->ops != &rs_write_json) {
        cJSON_Delete(item);
        return;
    }
    if (!key) {
        cJSON_Delete(w->json);
        w->json = item;
        return;
    }
    if (!w->json) w->json = cJSON_CreateObject();
    cJSON_AddItemToObject(w->json, key, item);
}

int rs_writer_people(const rs_writer *w)
{
    return w->ops->people;
}

int rs_writer_is(const rs_writer *w, rs_format fmt)
{
    return (unsigned)fmt < RS_FMT_COUNT && w->ops == rs_writers[fmt];
}

rs_format rs_format_text(rs_format fmt)
{
    if ((unsigned)fmt >= RS_FMT_COUNT) return RS_FMT_COUNT;
    if (rs_writers[fmt]->people) return RS_FMT_TABLE;
    return fmt == RS_FMT_CSV || fmt == RS_FMT_JSON ? fmt : RS_FMT_COUNT;
}

rs_format rs_writer_text_format(const rs_writer *w)
{
    for (int k = 0; k < RS_FMT_COUNT; k++)
        if (w->ops == rs_writers[k]) {
            const rs_format t = rs_format_text((rs_format)k);
            return t == RS_FMT_COUNT ? RS_FMT_TABLE : t;
        }
    return RS_FMT_TABLE;
}

int rs_writer_utf8(const rs_writer *w)
{
    return w->ops->utf8;
}

void rs_writer_close(rs_writer *w)
{
    if (!w->opened) return;
    flush_report(w);
    rs_writer_table_end(w);
    if (w->ops->close) w->ops->close(w);
    w->opened = 0;
    cJSON_Delete(w->json);
    w->json = NULL;
}

void rs_writer_begin(rs_writer *w, FILE *f, rs_format fmt, const char *title, const rs_column *cols,
                     int ncols)
{
    rs_writer_open(w, f, fmt, title);
    rs_writer_table(w, cols, ncols, NULL);
}

void rs_writer_end(rs_writer *w)
{
    rs_writer_close(w);
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
    if (v->shown) return v->shown;
    switch (c->kind) {
    case RS_CELL_INT: snprintf(buf, len, "%lld", v->i); return buf;
    case RS_CELL_BOOL: return v->i ? "yes" : "no";
    case RS_CELL_NUM: snprintf(buf, len, "%.6g", v->num); return buf;
    default: return v->text ? v->text : "";
    }
}
