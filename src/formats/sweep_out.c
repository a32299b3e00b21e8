/* A sweep out: the table and its grids, CSV and JSON (rs_print_sweep), and
 * one quantity's chart data as CSV for gnuplot (rs_sweep_write_csv). */
#include "sweep_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "energy.h"
#include "files.h"
#include "core/format.h"

const char *rs_sweep_series_key(const rs_sweep *s, int series, char *buf, size_t len)
{
    if (series >= s->nvar || !s->both || s->var[series] == RS_V_CPU)
        snprintf(buf, len, "%s",
                 series >= s->nvar ? rs_variant_name(RS_V_CPU) : rs_sweep_series_name(s, series));
    else
        snprintf(buf, len, "%s_%s", rs_sweep_series_name(s, series),
                 rs_cache_name(s->cache[series]));
    return buf;
}

rs_status rs_sweep_write_csv(const rs_sweep *s, rs_chart_quantity q, const char *path,
                             rs_error *err)
{
    rs_outfile out;
    const rs_status st = rs_out_open(&out, "chart's data", path, err);
    if (st != RS_OK) return st;
    FILE *f = out.f;
    int order[RS_SWEEP_MAX_SERIES]; /* a variant's states side by side */
    const int ns = rs_sweep_series_order(s, order);
    fprintf(f, "n");
    for (int j = 0; j < ns; j++) {
        char key[128];
        fprintf(f, ",%s", rs_sweep_series_key(s, order[j], key, sizeof key));
    }
    fprintf(f, "\n");
    for (int i = 0; i < s->sizes.count; i++) {
        fprintf(f, "%llu", (unsigned long long)s->sizes.n[i]);
        for (int j = 0; j < ns; j++) {
            const double v = rs_sweep_value(s, i, order[j], q);
            if (v > 0.0)
                fprintf(f, ",%.6g", v);
            else
                fprintf(f, ",");
        }
        fprintf(f, "\n");
    }
    return rs_out_commit(&out, err);
}

/* What a cell without a time says: why its row has none. */
static const char *cell_word(const rs_row *r)
{
    if (r->status == RS_E_NOMEM) return "skip";
    if (r->status == RS_OK) return "WRONG";
    return rs_row_not_recorded(r) ? "not recorded" : "refused";
}

/* One line for what the recording lacks: every variant with such a cell;
 * one for a cpu column answered from the CPU times recorded beside. */
static void say_not_recorded(FILE *f, const rs_sweep *s)
{
    char names[320] = "";
    size_t len = 0;
    int beside = 0; /* a cpu cell from the times beside GPU runs */
    for (int v = 0; v < s->nvar; v++) {
        int lacks = 0;
        for (int i = 0; i < s->sizes.count && rs_sweep_index(s, i, v) < s->done; i++) {
            const rs_row *r = rs_sweep_row(s, i, v);
            lacks |= rs_row_not_recorded(r);
            beside |=
                r->status == RS_OK && s->var[v] == RS_V_CPU && r->result.cpu_from == RS_CPU_BESIDE;
        }
        char label[128];
        if (lacks && len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                                    rs_sweep_series_label(s, v, label, sizeof label));
    }
    if (len)
        fprintf(f,
                "not recorded: %s, at the sizes so marked: the recording holds no run of them "
                "at those sizes with these settings (type, op, block, finish and input)\n",
                names);
    if (beside)
        fprintf(f, "cpu: where the cpu step was not recorded, the CPU time recorded beside the "
                   "GPU runs of that size (one thread, the best of up to 3 runs)\n");
}

static int sweep_energy(const rs_sweep *s)
{
    for (int i = 0; i < s->done; i++)
        if (s->rows[i].status == RS_OK && s->rows[i].result.energy.requested) return 1;
    return 0;
}

/* One cell: the median time (or J/GB), else what happened to the run. */
static void grid_cell(const rs_sweep *s, int i, int k, int energy, char *cell, size_t len)
{
    const double t = rs_sweep_value(s, i, k, RS_CHART_TIME);
    const rs_row *r =
        k < s->nvar && rs_sweep_index(s, i, k) < s->done ? rs_sweep_row(s, i, k) : NULL;
    if (t > 0.0 && !energy)
        rs_fmt_time(t, rs_notation_utf8(), cell, len);
    else if (t > 0.0 && r && r->result.energy.valid)
        rs_fmt_j_per_gb(r->result.energy.j_per_gb, cell, len);
    else if (t > 0.0 || !r)
        snprintf(cell, len, "-");
    else
        snprintf(cell, len, "%s", cell_word(r));
}

/* The grid of sizes by variants: times, or (energy) J per GB. */
static void print_grid(FILE *f, const rs_sweep *s, int cw, int energy)
{
    int order[RS_SWEEP_MAX_SERIES];
    int ns = rs_sweep_series_order(s, order);
    if (energy) ns = s->nvar; /* the cpu: no GPU energy; its baseline is last */
    fprintf(f, "%12s", "n");
    for (int j = 0; j < ns; j++) {
        char label[128];
        const int k = order[j];
        fprintf(f, " %*.*s", cw, cw,
                k < s->nvar ? rs_sweep_series_label(s, k, label, sizeof label)
                            : rs_variant_name(RS_V_CPU));
    }
    fprintf(f, "\n");
    for (int i = 0; i < s->sizes.count; i++) {
        char n[32];
        rs_sweep_size_name(s, s->sizes.n[i], n, sizeof n);
        fprintf(f, "%12s", n);
        for (int j = 0; j < ns; j++) {
            char cell[32], padded[48];
            grid_cell(s, i, order[j], energy, cell, sizeof cell);
            fprintf(f, " %s", rs_pad(cell, cw, 1, padded, sizeof padded));
        }
        fprintf(f, "\n");
    }
}

static void print_sweep_table(FILE *f, const rs_sweep *s)
{
    const rs_result *first = NULL; /* the settings: of the first row that ran, else asked */
    for (int i = 0; i < s->done && !first; i++)
        if (s->rows[i].status == RS_OK) first = &s->rows[i].result;
    if (!first && s->done > 0) first = &s->rows[0].result;
    const rs_request *r0 = first ? &first->req : NULL;
    rs_finish fin = r0 ? r0->finish : RS_FINISH_AUTO; /* of a variant that takes one */
    for (int i = 0; i < s->done; i++)
        if (s->rows[i].status == RS_OK &&
            (rs_catalogue_get(s->rows[i].result.req.variant)->flags & RS_VF_FINISH)) {
            fin = s->rows[i].result.req.finish;
            break;
        }
    if (r0)
        fprintf(f, "%s %s, block %u, finish %s, %u reps, input %s, cache %s%s%s\n",
                rs_dtype_name(r0->type), rs_op_name(r0->op), r0->block, rs_finish_name(fin),
                r0->reps, rs_dist_name(r0->dist),
                s->both ? "cold, then warm" : rs_cache_name(r0->cache),
                first->device.name[0] ? " on " : "", first->device.name);
    if (r0 && r0->gpus != 1)
        fprintf(f,
                r0->gpus ? "over %u GPUs, partials combined by %s: "
                         : "over every GPU%.0u, partials combined by %s: ",
                r0->gpus, rs_cross_name(r0->cross));
    fprintf(f, "time of one reduction (median); '-' not run, 'skip' does not fit, 'WRONG' failed, "
               "'refused' and 'not recorded' said below\n");
    int cw = 12; /* every column as wide as the longest name, up to 24 (and its state) */
    for (int k = 0; k < s->nvar; k++) {
        char label[128];
        const int l = (int)strlen(rs_sweep_series_label(s, k, label, sizeof label)), most = 24;
        cw = l > cw ? (l < most + 7 * s->both ? l : most + 7 * s->both) : cw;
    }
    print_grid(f, s, cw, 0);
    if (sweep_energy(s)) {
        fprintf(f, "energy per GB read (J/GB; the board's, NVML, the reductions back to back)\n");
        print_grid(f, s, cw, 1);
    }
    char cross[1024];
    rs_sweep_crossovers(s, cross, sizeof cross);
    if (cross[0]) /* the lead needs more than 5% to change: say so beside it */
        fprintf(f, "crossovers (a lead changes where another is >%.0f%% faster): %s\n",
                100.0 * (RS_LEAD_MARGIN - 1.0), cross);
    rs_print_sweep_limits(f, s);
    const char *said[2] = {"skip", "refused"}; /* the first reason of each */
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < s->done; i++)
            if (s->rows[i].status != RS_OK && strcmp(cell_word(&s->rows[i]), said[w]) == 0) {
                fprintf(f, "%s: %s\n", w ? said[w] : "skipped", s->rows[i].error);
                break;
            }
    say_not_recorded(f, s);
    if (s->sizes_left_out)
        fprintf(f,
                "left out: %d more sizes the recording holds (a sweep shows %d, the first "
                "recorded)\n",
                s->sizes_left_out, RS_SWEEP_MAX_SIZES);
}

static const char *cpu_from_csv(const rs_result *r)
{
    return r->cpu_ms > 0.0 ? rs_cpu_from_name(rs_cpu_from_of(r)) : "";
}

/* A series in the sweep's data: as its rows name it; the CPU's "cpu". */
static const char *series_id(const rs_sweep *s, int series)
{
    return series >= s->nvar ? rs_variant_name(RS_V_CPU) : rs_sweep_series_name(s, series);
}

/* The crossovers as data: "leads", the fastest series size range by size
 * range, and "crossings", where one overtakes the one before; each state's
 * in a sweep of both (the CPU's series is in each). */
static void leads_json(const rs_sweep *s, cJSON *j)
{
    cJSON *leads = cJSON_AddArrayToObject(j, "leads");
    cJSON *crossings = cJSON_AddArrayToObject(j, "crossings");
    for (int state = 0; state < RS_CACHE_COUNT; state++) {
        int any = 0; /* a state the sweep has a column of */
        for (int k = 0; k < s->nvar; k++) any |= (int)s->cache[k] == state;
        if (!any) continue;
        rs_sweep_lead seg[RS_SWEEP_MAX_SIZES];
        const int n = rs_sweep_leads(s, s->both ? state : -1, seg, RS_SWEEP_MAX_SIZES);
        const char *cache = rs_cache_name((rs_cache)state);
        for (int k = 0; k < n; k++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "variant", series_id(s, seg[k].series));
            cJSON_AddStringToObject(o, "cache", cache);
            cJSON_AddNumberToObject(o, "n_from", (double)s->sizes.n[seg[k].first]);
            cJSON_AddNumberToObject(o, "n_to", (double)s->sizes.n[seg[k].last]);
            cJSON_AddItemToArray(leads, o);
            if (k == 0) continue;
            cJSON *c = cJSON_CreateObject();
            cJSON_AddStringToObject(c, "from", series_id(s, seg[k - 1].series));
            cJSON_AddStringToObject(c, "to", series_id(s, seg[k].series));
            cJSON_AddStringToObject(c, "cache", cache);
            cJSON_AddNumberToObject(c, "n_last_before", (double)s->sizes.n[seg[k - 1].last]);
            cJSON_AddNumberToObject(c, "n", (double)s->sizes.n[seg[k].first]);
            cJSON_AddItemToArray(crossings, c);
        }
        if (!s->both) break; /* one state: every series once */
    }
}

static void print_csv(FILE *f, const rs_sweep *s)
{
    const int en = sweep_energy(s);
    fprintf(f,
            "n,variant,cache,status,time_median_ms,gbps,pct_peak,pct_measured,ceiling,"
            "pct_ceiling,bound,cpu_ms,cpu_from,correct,error%s%s\n",
            en ? "," : "", en ? rs_energy_csv_columns : "");
    for (int i = 0; i < s->done; i++) {
        const rs_row *r = &s->rows[i];
        const rs_result *x = &r->result;
        char label[96];
        fprintf(f, "%llu,%s,%s,%d,", (unsigned long long)x->req.n,
                rs_request_label(&x->req, label, sizeof label), rs_cache_name(x->req.cache),
                r->status);
        if (r->status == RS_OK) {
            double ceil = 0.0;
            const rs_ceiling c = rs_result_ceiling(x, &ceil);
            const double figs[] = {x->t_median_ms, x->gbps, x->pct_peak, x->pct_measured};
            for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
                rs_csv_num(f, figs[k]);
                fputc(',', f);
            }
            fprintf(f, "%s,", rs_ceiling_key(c));
            if (c != RS_CEIL_NONE) rs_csv_num(f, rs_result_pct_ceiling(x));
            fprintf(f, ",%s,", rs_bound_key(x->correct ? rs_result_bound(x) : RS_BOUND_NONE));
            rs_csv_num(f, x->cpu_ms);
            fprintf(f, ",%s,%s,", cpu_from_csv(x), x->correct ? "yes" : "no");
        } else {
            fprintf(f, ",,,,,,,,,,");
            rs_csv_field(f, r->error);
        }
        if (en) rs_energy_csv(f, &r->result.energy, r->status == RS_OK);
        fprintf(f, "\n");
    }
}

static void print_json(FILE *f, const rs_sweep *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *sizes = cJSON_AddArrayToObject(j, "sizes");
    for (int i = 0; i < s->sizes.count; i++)
        cJSON_AddItemToArray(sizes, cJSON_CreateNumber((double)s->sizes.n[i]));
    cJSON *vars = cJSON_AddArrayToObject(j, "variants");
    cJSON *caches = cJSON_AddArrayToObject(j, "caches");
    for (int v = 0; v < s->nvar; v++) {
        int seen = 0, state_seen = 0;
        for (int k = 0; k < v; k++) {
            seen |= s->var[k] == s->var[v];
            state_seen |= s->cache[k] == s->cache[v];
        }
        if (!seen) cJSON_AddItemToArray(vars, cJSON_CreateString(rs_sweep_series_name(s, v)));
        if (!state_seen)
            cJSON_AddItemToArray(caches, cJSON_CreateString(rs_cache_name(s->cache[v])));
    }
    char cross[1024];
    rs_sweep_crossovers(s, cross, sizeof cross);
    cJSON_AddStringToObject(j, "crossovers", cross);
    cJSON_AddNumberToObject(j, "sizes_left_out", s->sizes_left_out);
    leads_json(s, j);
    rs_sweep_limits_json(s, j);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    for (int i = 0; i < s->done; i++) cJSON_AddItemToArray(rows, rs_row_to_json(&s->rows[i]));
    char *text = rs_json_print(j);
    if (text) fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(j);
}

void rs_print_sweep(FILE *f, const rs_sweep *s, rs_format fmt)
{
    if (fmt == RS_FMT_TABLE)
        print_sweep_table(f, s);
    else if (fmt == RS_FMT_CSV)
        print_csv(f, s);
    else
        print_json(f, s);
}
