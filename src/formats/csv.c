/* CSV for scripts: the rows of run and ladder, and run --stalls as one
 * table. Every column and its unit is in docs/formats.md, which
 * tests/cli/test_formats.py holds the output to. */
#include <math.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "energy.h"
#include "export.h"
#include "stalls_io.h"
#include "analysis/ladder.h"

/* The cells of one line, comma-separated as they come. */
typedef struct line {
    FILE *f;
    int cells;
} line;

static FILE *cell(line *l)
{
    if (l->cells++) fputc(',', l->f);
    return l->f;
}

static void word(line *l, const char *s) /* a name of the program's: never quoted */
{
    fputs(s, cell(l));
}

static void text(line *l, const char *s) /* free text: quoted */
{
    rs_csv_field(cell(l), s);
}

static void num(line *l, double v)
{
    rs_csv_num(cell(l), v);
}

static void whole(line *l, double v)
{
    rs_csv_whole(cell(l), v);
}

static void empty(line *l, int n)
{
    while (n-- > 0) cell(l);
}

/* The columns of a row, in docs/formats.md's order ("CSV: run, ladder"). */
static const char run_columns[] =
    "step,variant,type,op,n,block,cache,finish,grid,launch_block,elements_per_thread,launches,reps,"
    "time_median_ms,time_min_ms,time_max_ms,step_speedup,cumulative_speedup,gbps,pct_peak,"
    "pct_measured,ceiling,pct_ceiling,cpu_ms,"
    "speedup_cpu,cpu_from,correct,result,expected,rel_err,tol,gpus,cross_finish,finish_ms,status,"
    "error";

/* What the rows hold beyond their figures: counters, stall views. */
typedef struct extras {
    rs_metric_mask metrics;
    int stalls;
    int energy;
} extras;

static extras extras_of(const rs_row *rows, int count)
{
    extras x = {0, 0, 0};
    for (int i = 0; i < count; i++) {
        x.metrics |= rows[i].result.metrics.requested;
        x.stalls |= rs_result_stalls(&rows[i].result)->requested;
        x.energy |= rows[i].result.energy.requested;
    }
    return x;
}

static int columns(extras x)
{
    int n = rs_csv_cells(run_columns) + (x.stalls ? RS_STALLS_HOT_COLUMNS : 0) +
            (x.energy ? rs_csv_cells(rs_energy_csv_columns) : 0);
    for (int i = 0; i < RS_METRIC_COUNT; i++) n += (x.metrics & RS_METRIC_BIT(i)) != 0;
    return n + (x.metrics ? 2 : 0);
}

static void header(FILE *f, extras x, int table)
{
    line l = {f, 0};
    if (table) word(&l, "table");
    word(&l, run_columns);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        char name[64];
        if (x.metrics & RS_METRIC_BIT(i))
            word(&l, rs_metric_column(&rs_metric_defs[i], name, sizeof name));
    }
    if (x.metrics) word(&l, "metric_passes"), word(&l, "metric_note");
    if (x.energy) word(&l, rs_energy_csv_columns);
    if (x.stalls) rs_stalls_csv_hot_header(f);
    if (table) rs_stalls_csv_header(f);
    fputc('\n', f);
}

/* The figures of a row that ran, from grid to finish_ms. */
static void figures(line *l, const rs_row *rows, int i)
{
    const rs_result *r = &rows[i].result;
    char got[64], exp[64];
    rs_value_format(&r->got, got, sizeof got);
    rs_value_format(&r->expected, exp, sizeof exp);
    const double sp = rs_ladder_step_speedup(rows, i), cu = rs_ladder_cumulative_speedup(rows, i);
    if (r->grid > 0) { /* a library's launches are its own, unseen: empty */
        whole(l, r->grid);
        whole(l, rs_result_block(r));
        num(l, r->ept);
        whole(l, r->launches);
    } else {
        empty(l, 4);
    }
    whole(l, r->reps);
    num(l, r->t_median_ms);
    num(l, r->t_min_ms);
    num(l, r->t_max_ms);
    sp > 0.0 ? num(l, sp) : empty(l, 1); /* empty where there is nothing to step from */
    cu > 0.0 ? num(l, cu) : empty(l, 1);
    num(l, r->gbps);
    num(l, r->pct_peak);
    num(l, r->pct_measured);
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &ceil);
    word(l, rs_ceiling_key(c));
    c != RS_CEIL_NONE ? num(l, rs_result_pct_ceiling(r)) : empty(l, 1);
    num(l, r->cpu_ms);
    num(l, r->speedup_cpu);
    word(l, r->cpu_ms > 0.0 ? rs_cpu_from_name(rs_cpu_from_of(r)) : "");
    word(l, r->correct ? "yes" : "no");
    word(l, got);
    word(l, exp);
    num(l, r->rel_err);
    num(l, r->tol);
    whole(l, r->multi.gpus > 1 ? r->multi.gpus : 1);
    word(l, r->multi.gpus > 1 ? rs_cross_name(r->multi.cross) : "");
    num(l, r->multi.finish_ms);
}

static void metric_cells(line *l, const rs_row *row, rs_metric_mask m)
{
    const rs_metrics *mt = &row->result.metrics;
    for (int k = 0; k < RS_METRIC_COUNT; k++) {
        if (!(m & RS_METRIC_BIT(k))) continue;
        if (row->status != RS_OK || !(mt->valid & RS_METRIC_BIT(k)))
            empty(l, 1);
        else if (rs_metric_whole(&rs_metric_defs[k]))
            whole(l, mt->value[k]); /* counts exact, as in the JSON */
        else
            num(l, mt->value[k]);
    }
    if (!m) return;
    if (row->status != RS_OK) {
        empty(l, 2);
        return;
    }
    whole(l, mt->passes);
    text(l, mt->reason);
}

void rs_energy_csv(FILE *f, const rs_energy *en, int ran)
{
    for (int i = 0; i < RS_ENERGY_FIGURES; i++) {
        int w = 0;
        const double v = rs_energy_figure(en, i, &w);
        fputc(',', f);
        if (ran && en->valid) w ? rs_csv_whole(f, v) : rs_csv_num(f, v);
    }
    fputc(',', f);
    if (ran && en->requested && !en->valid) rs_csv_field(f, en->note);
}

/* Row i of a run or a ladder; `table` puts "run" in the first column. */
static void row_line(FILE *f, const rs_row *rows, int i, extras x, int table)
{
    const rs_result *r = &rows[i].result;
    line l = {f, 0};
    if (table) word(&l, "run");
    whole(&l, rs_catalogue_get(r->req.variant)->step);
    if (r->req.variant == RS_V_KERNEL) /* a file's name: free text, quoted as diff's */
        text(&l, rs_request_name(&r->req));
    else
        word(&l, rs_request_name(&r->req));
    word(&l, rs_dtype_name(r->req.type));
    word(&l, rs_op_name(r->req.op));
    whole(&l, (double)r->req.n);
    whole(&l, r->req.block);
    word(&l, rs_cache_name(r->req.cache));
    word(&l, rs_finish_name(r->finish));
    if (rows[i].status != RS_OK) {
        empty(&l, 23); /* grid to tol */
        whole(&l, r->req.gpus);
        word(&l, r->req.gpus == 1 ? "" : rs_cross_name(r->req.cross));
        empty(&l, 1);
        whole(&l, rows[i].status);
        text(&l, rows[i].error);
    } else {
        figures(&l, rows, i);
        whole(&l, 0);
        empty(&l, 1);
    }
    metric_cells(&l, &rows[i], x.metrics);
    if (x.energy) rs_energy_csv(f, &r->energy, rows[i].status == RS_OK);
    if (x.stalls) rs_stalls_csv_hot(f, rs_result_stalls(r), rows[i].status == RS_OK);
    if (table) rs_stalls_csv_empty(f);
    fputc('\n', f);
}

void rs_print_rows_csv(FILE *f, const rs_row *rows, int count)
{
    const extras x = extras_of(rows, count);
    header(f, x, 0);
    for (int i = 0; i < count; i++) row_line(f, rows, i, x, 0);
}

void rs_print_run_csv(FILE *f, const rs_row *row, const char *against, const rs_stall_delta *d,
                      int n)
{
    const extras x = extras_of(row, 1);
    header(f, x, x.stalls);
    row_line(f, row, 0, x, x.stalls);
    if (!x.stalls || row->status != RS_OK) return;
    rs_stalls_csv_rows(f, rs_result_stalls(&row->result), columns(x));
    if (against) rs_stall_diff_csv_rows(f, against, d, n, columns(x));
}
