/* Markdown: a heading, pipe tables of the columns people read, prose as
 * paragraphs (a lead in bold), sections as level-2 headings, a report as a
 * fenced block; each cell and sentence through the document's escape
 * (formats/doc.c). */
#include <string.h>

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

static void open(rs_writer *w)
{
    const rs_doc d = {w->f, 0};
    if (!w->title[0]) return;
    fputs("# ", w->f);
    rs_doc_text(&d, w->title);
    fputs("\n\n", w->f);
}

static void table(rs_writer *w)
{
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

static void table_end(rs_writer *w)
{
    fputc('\n', w->f);
}

static void heading(rs_writer *w, const char *text)
{
    const rs_doc d = {w->f, 0};
    fputs("## ", w->f);
    rs_doc_text(&d, text);
    fputs("\n\n", w->f);
}

static void say(rs_writer *w, const char *lead, const char *text)
{
    const rs_doc d = {w->f, 0};
    if (lead) {
        fputs("**", w->f);
        rs_doc_text(&d, lead);
        fputs("** ", w->f);
    }
    rs_doc_text(&d, text);
    fputs("\n\n", w->f);
}

/* A fence longer than any run of backticks inside (CommonMark). */
static void pre(rs_writer *w, const char *text)
{
    static const char ticks[] = "`````````````````````````````````````````````````````````````";
    size_t most = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > most) most = run;
    }
    const int fence = most < 3 ? 3 : most > 59 ? 60 : (int)most + 1;
    fprintf(w->f, "%.*stext\n%s", fence, ticks, text);
    if (text[0] && text[strlen(text) - 1] != '\n') fputc('\n', w->f);
    fprintf(w->f, "%.*s\n\n", fence, ticks);
}

const rs_writer_ops rs_write_md = {.name = "md",
                                   .people = 1,
                                   .utf8 = 1,
                                   .open = open,
                                   .table = table,
                                   .row = row,
                                   .table_end = table_end,
                                   .heading = heading,
                                   .say = say,
                                   .pre = pre};
