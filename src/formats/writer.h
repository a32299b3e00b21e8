/* Writers: one column model, and one writer per output format behind one
 * interface (ncdu's dir_output: begin, a row at a time, end). A command
 * opens a document, and puts in it what it has to say: tables (columns
 * named once, then rows of cells), prose for people, a report as the
 * terminal shows it, and members of the JSON document; each writer shows
 * what its format holds. A new format is one file, write_NAME.c, that
 * defines rs_write_NAME: the build finds it and lists it (RS_WRITER_LIST);
 * --format takes the names of that list and no other. */
#ifndef RS_WRITER_H
#define RS_WRITER_H

#include <cjson/cJSON.h>
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

/* One cell: text (RS_CELL_TEXT, "" for none), i (INT, BOOL) or num (NUM);
 * shown, where set, is how people read a number (the JSON keeps num). */
typedef struct rs_cell {
    const char *text;
    long long i;
    double num;
    const char *shown;
} rs_cell;

typedef struct rs_writer rs_writer;
typedef struct rs_writer_ops {
    const char *name; /* as --format names it */
    int people;       /* a format people read: prose and reports are shown */
    int utf8;         /* a document: µs and × in UTF-8, whatever the terminal */
    void (*open)(rs_writer *w);
    void (*table)(rs_writer *w); /* a table's header (w->cols) */
    void (*row)(rs_writer *w, const rs_cell *cells);
    void (*table_end)(rs_writer *w);
    void (*heading)(rs_writer *w, const char *text);               /* a section's */
    void (*say)(rs_writer *w, const char *lead, const char *line); /* prose; lead in bold */
    void (*pre)(rs_writer *w, const char *text); /* a report, as the terminal shows it */
    void (*close)(rs_writer *w);
} rs_writer_ops;

struct rs_writer {
    const rs_writer_ops *ops;
    FILE *f;
    char title[256]; /* a document's heading (md, html) */
    const rs_column *cols;
    int ncols;
    int rows;
    int opened; /* the document has begun (its first content) */
    int in_table;
    const char *table_key; /* the JSON member the table's array goes in */
    cJSON *json;           /* the JSON document being built */
    cJSON *array;          /* the table being built, in JSON */
    FILE *report;          /* a report being written (rs_writer_stream) */
    char *report_buf;
    size_t report_len;
};

/* Every writer, each in its file (write_NAME.c defines rs_write_NAME), and
 * by rs_format. */
#define RS_WRITER_DECL(name, NAME) extern const rs_writer_ops rs_write_##name;
RS_WRITER_LIST(RS_WRITER_DECL)
#undef RS_WRITER_DECL
extern const rs_writer_ops *const rs_writers[RS_FMT_COUNT];

/* A document on f in format fmt, with a title (a document's heading). */
void rs_writer_open(rs_writer *w, FILE *f, rs_format fmt, const char *title);
/* A table of ncols columns; its rows' cells in column order; in JSON an
 * array, the document itself or its member json_key. */
void rs_writer_table(rs_writer *w, const rs_column *cols, int ncols, const char *json_key);
void rs_writer_row(rs_writer *w, const rs_cell *cells);
void rs_writer_table_end(rs_writer *w);
/* A line of prose for people (not in CSV or JSON); with a lead in bold
 * (NULL: none); a section's heading. */
void rs_writer_say(rs_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rs_writer_lead(rs_writer *w, const char *lead, const char *text);
void rs_writer_heading(rs_writer *w, const char *text);
/* The document's title, until its first content. */
void rs_writer_title(rs_writer *w, const char *title);
/* Markup of one format written as it is (an HTML document's SVG chart):
 * the output where the writer is fmt, else NULL. */
FILE *rs_writer_raw(rs_writer *w, rs_format fmt);
/* Where a command writes what it has as text, in rs_writer_text_format:
 * a report as the terminal shows it (the terminal itself for a table, a
 * block of the document in md and html), CSV or JSON straight out. */
FILE *rs_writer_stream(rs_writer *w);
/* The format of that text: the table's for the formats people read, else
 * the data format itself. */
rs_format rs_writer_text_format(const rs_writer *w);
/* The text a report gives for format fmt: the table's for the formats people
 * read, CSV and JSON as themselves, RS_FMT_COUNT for any other (a report in
 * text cannot give it; only the column model can). */
rs_format rs_format_text(rs_format fmt);
/* Whether the document is written in UTF-8 whatever the terminal. */
int rs_writer_utf8(const rs_writer *w);
/* A member of the JSON document (owned from here; freed where the format
 * is not JSON); key NULL: item is the whole document. */
void rs_writer_json(rs_writer *w, const char *key, cJSON *item);
/* Whether the format shows prose and reports, and whether it is fmt. */
int rs_writer_people(const rs_writer *w);
int rs_writer_is(const rs_writer *w, rs_format fmt);
void rs_writer_close(rs_writer *w);

/* The common case: a document of one table, and its end. */
void rs_writer_begin(rs_writer *w, FILE *f, rs_format fmt, const char *title, const rs_column *cols,
                     int ncols);
void rs_writer_end(rs_writer *w);

/* What the writers share: whether column c is shown in a table people
 * read, and a cell as text ("yes", "12", "0.5"; buf for numbers). */
int rs_col_in_table(const rs_column *c);
/* The columns a table people read shows, in its order (free text last):
 * their indices into order[] (room for ncols); how many. */
int rs_table_order(const rs_writer *w, int *order);
const char *rs_cell_text(const rs_column *c, const rs_cell *v, char *buf, size_t len);

#endif
