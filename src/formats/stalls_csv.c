/* The stall view as CSV (docs/formats.md): a row's hottest line in the
 * columns of run and ladder, and run --stalls's line, function and
 * --against rows after the run's, in one table. */
#include <string.h>

#include "stalls_io.h"

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void num(FILE *f, double v)
{
    fputc(',', f);
    rs_csv_num(f, v);
}

static void count(FILE *f, double v)
{
    fputc(',', f);
    rs_csv_whole(f, v);
}

static void text(FILE *f, const char *s)
{
    fputc(',', f);
    rs_csv_field(f, s);
}

static void word(FILE *f, const char *s)
{
    fprintf(f, ",%s", s);
}

static void empty(FILE *f, int n)
{
    while (n-- > 0) fputc(',', f);
}

/* ---- a row's hottest line (run, ladder) -------------------------------------------- */

static const char hot_columns[] = "stall_samples,hot_file,hot_line,hot_text,hot_share_pct,"
                                  "hot_reason,hot_reason_share_pct,stall_note";

void rs_stalls_csv_hot_header(FILE *f)
{
    word(f, hot_columns);
}

void rs_stalls_csv_hot(FILE *f, const rs_stalls *s, int ran)
{
    const int hot = ran && s->valid ? rs_stalls_hottest(s) : -1;
    if (hot < 0) {
        empty(f, RS_STALLS_HOT_COLUMNS - 1);
        text(f, ran && s->requested ? s->why : "");
        return;
    }
    const rs_stall_line *l = &s->line[hot];
    int kind[1];
    uint64_t n[1];
    const int c = rs_stalls_top(s, l, 1, kind, n);
    const rs_stall_def *d = c ? rs_stall_kind_def(kind[0]) : NULL;
    count(f, (double)s->total);
    text(f, l->file);
    count(f, l->line);
    text(f, l->text);
    num(f, share(l->samples, s->total));
    word(f, c ? (d ? d->key : "unknown") : "");
    if (c)
        num(f, share(n[0], l->samples));
    else
        empty(f, 1);
    text(f, "");
}

/* ---- run --stalls: the view's own rows ---------------------------------------------- */

static const char view_columns[] =
    "file,line,text,function,samples,share_pct,reason1,reason1_share_pct,reason2,"
    "reason2_share_pct,reason3,reason3_share_pct,inlined_share_pct,waits_for_file,waits_for_line,"
    "waits_for_text,waits_for_instruction,waits_for_share_pct,compared_with,line_before,"
    "share_before_pct,share_after_pct,change_pct";

_Static_assert(RS_STALL_TOP == 3, "reason1..reason3");

void rs_stalls_csv_header(FILE *f)
{
    word(f, view_columns);
}

void rs_stalls_csv_empty(FILE *f)
{
    empty(f, rs_csv_cells(view_columns));
}

/* A row of the table: its name, then the run's columns empty. */
static void lead(FILE *f, const char *table, int run_columns)
{
    fputs(table, f);
    empty(f, run_columns);
}

/* The top reasons' columns: key and share each, empty where there is none. */
static void reasons(FILE *f, const int *kinds, const uint64_t *n, int c, uint64_t all)
{
    for (int k = 0; k < RS_STALL_TOP; k++) {
        const rs_stall_def *d = k < c ? rs_stall_kind_def(kinds[k]) : NULL;
        if (k < c) {
            word(f, d ? d->key : "unknown");
            num(f, share(n[k], all));
        } else {
            empty(f, 2);
        }
    }
}

/* The line's biggest wait link (empty without one). */
static void waits_for(FILE *f, const rs_stalls *s, const rs_stall_line *l)
{
    int top[1];
    if (rs_stalls_links_of(s, l, RS_LINK_WAITS, top, 1) < 1) {
        empty(f, 5);
        return;
    }
    const rs_stall_link *k = &s->link[top[0]];
    text(f, k->to_file);
    count(f, k->to_line);
    text(f, k->text);
    text(f, k->name);
    num(f, share(k->samples, l->samples));
}

static void line_rows(FILE *f, const rs_stalls *s, int run_columns)
{
    for (int i = 0; i < s->nlines; i++) {
        const rs_stall_line *l = &s->line[i];
        lead(f, "line", run_columns);
        text(f, l->file);
        count(f, l->line);
        text(f, l->text);
        empty(f, 1);
        count(f, (double)l->samples);
        num(f, share(l->samples, s->total));
        int kinds[RS_STALL_TOP];
        uint64_t n[RS_STALL_TOP];
        reasons(f, kinds, n, rs_stalls_top(s, l, RS_STALL_TOP, kinds, n), l->samples);
        num(f, share(l->inlined, l->samples));
        waits_for(f, s, l);
        empty(f, 5);
        fputc('\n', f);
    }
}

static void function_rows(FILE *f, const rs_stalls *s, int run_columns)
{
    int order[RS_STALL_FUNCS];
    const int nf = rs_stalls_funcs_sorted(s, order);
    for (int i = 0; i < nf; i++) {
        const rs_stall_func *fn = &s->func[order[i]];
        lead(f, "function", run_columns);
        empty(f, 3);
        text(f, fn->name);
        count(f, (double)fn->samples);
        num(f, share(fn->samples, s->total));
        int kinds[RS_STALL_TOP];
        uint64_t n[RS_STALL_TOP];
        reasons(f, kinds, n, rs_stalls_top_func(fn, RS_STALL_TOP, kinds, n), fn->samples);
        empty(f, 11);
        fputc('\n', f);
    }
}

void rs_stalls_csv_rows(FILE *f, const rs_stalls *s, int run_columns)
{
    if (!s->valid) return;
    line_rows(f, s, run_columns);
    function_rows(f, s, run_columns);
}

void rs_stall_diff_csv_rows(FILE *f, const char *against, const rs_stall_delta *d, int n,
                            int run_columns)
{
    for (int i = 0; i < n; i++) {
        lead(f, "against", run_columns);
        text(f, d[i].file);
        if (d[i].line)
            count(f, d[i].line);
        else
            empty(f, 1);
        text(f, d[i].text);
        empty(f, 15);
        text(f, against);
        if (d[i].line_before)
            count(f, d[i].line_before);
        else
            empty(f, 1);
        num(f, d[i].before);
        num(f, d[i].after);
        num(f, rs_stall_delta_change(&d[i]));
        fputc('\n', f);
    }
}
