/* Writers: one column model, and one writer per output format behind one
 * interface (ncdu's dir_output: begin, a row at a time, end). A command
 * names its columns once and hands each row's cells to the writer its
 * --format asks for; a new format is one file (write_*.c) and its row in
 * rs_writers. */
#ifndef RS_WRITER_H
#define RS_WRITER_H

#include <stdio.h>

#include "export.h"

typedef enum { RS_CELL_TEXT, RS_CELL_INT, RS_CELL_NUM, RS_CELL_BOOL } rs_cell_kind;

/* How a column is shown. */
enum {
    RS_COL_DATA_ONLY = 1, /* in CSV and JSON, not in the tables people read */
    RS_COL_JSON_ONLY = 2, /* in JSON alone (a long sentence, a second name) */
    RS_COL_FREE = 4,      /* free text: quoted in CSV, the last column of a table */
    RS_COL_RIGHT = 8,     /* right-aligned in a table (a number) */
};

typedef struct rs_column {
    const char *key;   /* CSV header and JSON key (docs/formats.md) */
    const char *title; /* a table's header; NULL: the key */
    rs_cell_kind kind;
    int width; /* the table's width for it (0: as wide as its text) */
    unsigned flags;
} rs_column;

/* One cell: text (RS_CELL_TEXT, "" for none), i (INT, BOOL) or num (NUM). */
typedef struct rs_cell {
    const char *text;
    long long i;
    double num;
} rs_cell;

typedef enum {
    RS_OUT_TABLE,
    RS_OUT_CSV,
    RS_OUT_JSON,
    RS_OUT_MD,
    RS_OUT_HTML,
    RS_OUT_COUNT
} rs_out_format;

typedef struct rs_writer rs_writer;
typedef struct rs_writer_ops {
    const char *name; /* as --format names it */
    void (*begin)(rs_writer *w);
    void (*row)(rs_writer *w, const rs_cell *cells);
    void (*end)(rs_writer *w);
} rs_writer_ops;

struct rs_writer {
    const rs_writer_ops *ops;
    FILE *f;
    const char *title; /* a document's heading (md, html) */
    const rs_column *cols;
    int ncols;
    int rows;
    void *state; /* the writer's own (JSON: the array being built) */
};

/* Every writer, each in its file. */
extern const rs_writer_ops rs_write_table, rs_write_csv, rs_write_json, rs_write_md, rs_write_html;
/* and by rs_out_format */
extern const rs_writer_ops *const rs_writers[RS_OUT_COUNT];

/* The format --format asked for: the data formats, or a document (doc 1:
 * md, 2: html). */
rs_out_format rs_out_format_of(rs_format fmt, int doc);

/* Begin a table of ncols columns on f; each row's cells in column order. */
void rs_writer_begin(rs_writer *w, FILE *f, rs_out_format fmt, const char *title,
                     const rs_column *cols, int ncols);
void rs_writer_row(rs_writer *w, const rs_cell *cells);
void rs_writer_end(rs_writer *w);

/* What the writers share: whether column c is shown in a table people
 * read, and a cell as text ("yes", "12", "0.5"; buf for numbers). */
int rs_col_in_table(const rs_column *c);
/* The columns a table people read shows, in its order (free text last):
 * their indices into order[] (room for ncols); how many. */
int rs_table_order(const rs_writer *w, int *order);
const char *rs_cell_text(const rs_column *c, const rs_cell *v, char *buf, size_t len);

#endif
