#include "export.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "format.h"

double rs_result_input_bytes(const rs_result *r)
{
    return (double)r->req.n * (double)rs_dtype_size(r->req.type);
}

int rs_format_from_name(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "table") == 0) return RS_FMT_TABLE;
    if (strcmp(s, "csv") == 0) return RS_FMT_CSV;
    if (strcmp(s, "json") == 0) return RS_FMT_JSON;
    return -1;
}

/* ---- JSON ----------------------------------------------------------------------- */

cJSON *rs_request_to_json(const rs_request *r)
{
    cJSON *j = cJSON_CreateObject();
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        char buf[512];
        switch (f->kind) {
        case RS_FK_SIZE:
            cJSON_AddNumberToObject(j, f->key,
                                    (double)*(const uint64_t *)((const char *)r + f->offset));
            break;
        case RS_FK_UINT:
            cJSON_AddNumberToObject(j, f->key, *(const uint32_t *)((const char *)r + f->offset));
            break;
        default: /* seeds above 2^53 would not survive a JSON number */
            rs_field_format(r, f, buf, sizeof buf);
            cJSON_AddStringToObject(j, f->key, buf);
            break;
        }
    }
    return j;
}

rs_status rs_request_from_json(const cJSON *j, rs_request *r, rs_error *err)
{
    rs_request_defaults(r);
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "request is not a JSON object");
    for (const cJSON *it = j->child; it; it = it->next) {
        const rs_field *f = NULL;
        for (int i = 0; i < RS_FIELD_COUNT && !f; i++)
            if (strcmp(rs_fields[i].key, it->string) == 0) f = &rs_fields[i];
        if (!f) return rs_fail(err, RS_E_USAGE, "unknown request key '%s'", it->string);
        char buf[512];
        if (cJSON_IsNumber(it))
            snprintf(buf, sizeof buf, "%.0f", it->valuedouble);
        else if (cJSON_IsString(it))
            snprintf(buf, sizeof buf, "%s", it->valuestring);
        else
            return rs_fail(err, RS_E_USAGE, "request key '%s' is neither number nor text",
                           it->string);
        rs_status st = rs_field_set(r, f, buf, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

cJSON *rs_device_to_json(const rs_device_info *d)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "index", d->index);
    cJSON_AddStringToObject(j, "name", d->name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddStringToObject(j, "compute_capability", cc);
    cJSON_AddNumberToObject(j, "sm_count", d->sm_count);
    cJSON_AddNumberToObject(j, "max_threads_per_sm", d->max_threads_per_sm);
    cJSON_AddNumberToObject(j, "total_mem", (double)d->total_mem);
    cJSON_AddNumberToObject(j, "free_mem", (double)d->free_mem);
    cJSON_AddNumberToObject(j, "mem_clock_khz", d->mem_clock_khz);
    cJSON_AddNumberToObject(j, "bus_width_bits", d->bus_width_bits);
    cJSON_AddNumberToObject(j, "peak_gbps", d->peak_gbps);
    cJSON_AddNumberToObject(j, "measured_gbps", d->measured_gbps);
    cJSON_AddNumberToObject(j, "driver_version", d->driver_version);
    cJSON_AddNumberToObject(j, "runtime_version", d->runtime_version);
    return j;
}

static double num(const cJSON *j, const char *key, double def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static const char *str(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

void rs_device_from_json(const cJSON *j, rs_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = (int)num(j, "index", -1);
    snprintf(d->name, sizeof d->name, "%s", str(j, "name") ? str(j, "name") : "?");
    if (str(j, "compute_capability"))
        sscanf(str(j, "compute_capability"), "%d.%d", &d->cc_major, &d->cc_minor);
    d->sm_count = (int)num(j, "sm_count", 0);
    d->max_threads_per_sm = (int)num(j, "max_threads_per_sm", 0);
    d->total_mem = (uint64_t)num(j, "total_mem", 0);
    d->free_mem = (uint64_t)num(j, "free_mem", 0);
    d->mem_clock_khz = (int)num(j, "mem_clock_khz", 0);
    d->bus_width_bits = (int)num(j, "bus_width_bits", 0);
    d->peak_gbps = num(j, "peak_gbps", 0);
    d->measured_gbps = num(j, "measured_gbps", 0);
    d->driver_version = (int)num(j, "driver_version", 0);
    d->runtime_version = (int)num(j, "runtime_version", 0);
}

/* Exact text: int64 beyond 2^53 and the double reference survive. */
static cJSON *value_json(const rs_value *v)
{
    char buf[64];
    if (rs_dtype_is_float(v->acc))
        snprintf(buf, sizeof buf, "%.17g", v->f);
    else
        rs_value_format(v, buf, sizeof buf);
    return cJSON_CreateString(buf);
}

static rs_value value_from(const cJSON *j, rs_dtype acc)
{
    rs_value v = {acc, 0, 0.0};
    const char *s = cJSON_IsString(j) ? j->valuestring : "0";
    if (rs_dtype_is_float(acc)) {
        v.f = strtod(s, NULL);
    } else {
        v.i = strtoll(s, NULL, 10);
        v.f = (double)v.i;
    }
    return v;
}

static cJSON *metrics_json(const rs_metrics *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *req = cJSON_AddArrayToObject(j, "requested");
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (m->requested & RS_METRIC_BIT(i))
            cJSON_AddItemToArray(req, cJSON_CreateString(rs_metric_defs[i].key));
    cJSON_AddNumberToObject(j, "passes", m->passes);
    cJSON_AddStringToObject(j, "reason", m->reason);
    cJSON_AddNumberToObject(j, "wall_ms", m->wall_ms);
    cJSON *vals = cJSON_AddObjectToObject(j, "values");
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        if (!((m->requested | m->valid) & RS_METRIC_BIT(i))) continue;
        cJSON *o = cJSON_AddObjectToObject(vals, rs_metric_defs[i].key);
        const int ok = (m->valid & RS_METRIC_BIT(i)) != 0;
        cJSON_AddBoolToObject(o, "valid", ok);
        if (ok)
            cJSON_AddNumberToObject(o, "value", m->value[i]);
        else
            cJSON_AddStringToObject(o, "reason", m->reason[0] ? m->reason : "not collected");
        cJSON_AddStringToObject(o, "unit", rs_metric_defs[i].unit);
    }
    cJSON *launches = cJSON_AddArrayToObject(j, "launches");
    for (int k = 0; k < m->nlaunch; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->launch[k].name);
        cJSON *lv = cJSON_AddObjectToObject(o, "values");
        for (int i = 0; i < RS_METRIC_COUNT; i++)
            if (m->valid & RS_METRIC_BIT(i))
                cJSON_AddNumberToObject(lv, rs_metric_defs[i].key, m->launch[k].value[i]);
        cJSON_AddItemToArray(launches, o);
    }
    return j;
}

static void metrics_from(const cJSON *j, rs_metrics *m)
{
    memset(m, 0, sizeof *m);
    if (!cJSON_IsObject(j)) return;
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "requested"))
    {
        const rs_metric_def *d = cJSON_IsString(it) ? rs_metric_by_key(it->valuestring) : NULL;
        if (d) m->requested |= RS_METRIC_BIT(d->id);
    }
    m->passes = (int)num(j, "passes", 0);
    m->wall_ms = num(j, "wall_ms", 0);
    snprintf(m->reason, sizeof m->reason, "%s", str(j, "reason") ? str(j, "reason") : "");
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "values"))
    {
        const rs_metric_def *d = rs_metric_by_key(it->string);
        if (!d || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "valid"))) continue;
        m->valid |= RS_METRIC_BIT(d->id);
        m->value[d->id] = num(it, "value", 0);
    }
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "launches"))
    {
        if (m->nlaunch == RS_MAX_LAUNCHES) break;
        rs_launch_metrics *l = &m->launch[m->nlaunch++];
        snprintf(l->name, sizeof l->name, "%s", str(it, "name") ? str(it, "name") : "?");
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(it, "values"))
        {
            const rs_metric_def *d = rs_metric_by_key(v->string);
            if (d && cJSON_IsNumber(v)) l->value[d->id] = v->valuedouble;
        }
    }
}

cJSON *rs_result_to_json(const rs_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "request", rs_request_to_json(&r->req));
    cJSON_AddItemToObject(j, "device", rs_device_to_json(&r->device));
    cJSON_AddStringToObject(j, "finish", rs_finish_name(r->finish));
    cJSON_AddNumberToObject(j, "grid", r->grid);
    cJSON_AddNumberToObject(j, "elements_per_thread", r->ept);
    cJSON_AddNumberToObject(j, "launches", r->launches);
    cJSON *t = cJSON_AddObjectToObject(j, "time_ms");
    cJSON_AddNumberToObject(t, "median", r->t_median_ms);
    cJSON_AddNumberToObject(t, "min", r->t_min_ms);
    cJSON_AddNumberToObject(t, "max", r->t_max_ms);
    cJSON_AddNumberToObject(t, "reps", r->reps);
    cJSON_AddNumberToObject(j, "gbps", r->gbps);
    cJSON_AddNumberToObject(j, "pct_peak", r->pct_peak);
    cJSON_AddNumberToObject(j, "pct_measured", r->pct_measured);
    cJSON_AddNumberToObject(j, "cpu_ms", r->cpu_ms);
    cJSON_AddNumberToObject(j, "speedup_cpu", r->speedup_cpu);
    cJSON_AddBoolToObject(j, "correct", r->correct);
    cJSON_AddNumberToObject(j, "bad_reps", r->bad_reps);
    cJSON_AddItemToObject(j, "result", value_json(&r->got));
    cJSON_AddItemToObject(j, "expected", value_json(&r->expected));
    cJSON_AddNumberToObject(j, "abs_err", isfinite(r->abs_err) ? r->abs_err : -1);
    cJSON_AddNumberToObject(j, "rel_err", isfinite(r->rel_err) ? r->rel_err : -1);
    cJSON_AddNumberToObject(j, "tol", r->tol);
    cJSON_AddItemToObject(j, "metrics", metrics_json(&r->metrics));
    return j;
}

rs_status rs_result_from_json(const cJSON *j, rs_result *r, rs_error *err)
{
    memset(r, 0, sizeof *r);
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "result is not a JSON object");
    rs_status st =
        rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"), &r->req, err);
    if (st != RS_OK) return st;
    rs_device_from_json(cJSON_GetObjectItemCaseSensitive(j, "device"), &r->device);
    const int fin = rs_finish_from_name(str(j, "finish"));
    r->finish = fin < 0 ? RS_FINISH_AUTO : (rs_finish)fin;
    r->grid = (unsigned)num(j, "grid", 0);
    r->ept = num(j, "elements_per_thread", 0);
    r->launches = (unsigned)num(j, "launches", 0);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "time_ms");
    r->t_median_ms = num(t, "median", 0);
    r->t_min_ms = num(t, "min", 0);
    r->t_max_ms = num(t, "max", 0);
    r->reps = (unsigned)num(t, "reps", 0);
    r->gbps = num(j, "gbps", 0);
    r->pct_peak = num(j, "pct_peak", 0);
    r->pct_measured = num(j, "pct_measured", 0);
    r->cpu_ms = num(j, "cpu_ms", 0);
    r->speedup_cpu = num(j, "speedup_cpu", 0);
    r->correct = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "correct"));
    r->bad_reps = (unsigned)num(j, "bad_reps", 0);
    const rs_dtype acc = rs_dtype_acc(r->req.type);
    r->got = value_from(cJSON_GetObjectItemCaseSensitive(j, "result"), acc);
    r->expected = value_from(cJSON_GetObjectItemCaseSensitive(j, "expected"), acc);
    r->abs_err = num(j, "abs_err", 0);
    r->rel_err = num(j, "rel_err", 0);
    if (r->abs_err < 0) r->abs_err = INFINITY;
    if (r->rel_err < 0) r->rel_err = INFINITY;
    r->tol = num(j, "tol", 0);
    metrics_from(cJSON_GetObjectItemCaseSensitive(j, "metrics"), &r->metrics);
    return RS_OK;
}

cJSON *rs_row_to_json(const rs_row *row)
{
    if (row->status == RS_OK) return rs_result_to_json(&row->result);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "request", rs_request_to_json(&row->result.req));
    cJSON_AddNumberToObject(j, "status", row->status);
    cJSON_AddStringToObject(j, "error", row->error);
    return j;
}

rs_status rs_row_from_json(const cJSON *j, rs_row *row, rs_error *err)
{
    memset(row, 0, sizeof *row);
    const char *e = str(j, "error");
    if (e) {
        row->status = (rs_status)num(j, "status", RS_E_USAGE);
        snprintf(row->error, sizeof row->error, "%s", e);
        return rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"),
                                    &row->result.req, err);
    }
    return rs_result_from_json(j, &row->result, err);
}

/* ---- tables ----------------------------------------------------------------------- */

double rs_ladder_step_speedup(const rs_row *rows, int i)
{
    if (rows[i].status != RS_OK) return 0.0;
    for (int k = i - 1; k >= 0; k--)
        if (rows[k].status == RS_OK && rows[i].result.t_median_ms > 0.0)
            return rows[k].result.t_median_ms / rows[i].result.t_median_ms;
    return 0.0;
}

double rs_ladder_cumulative_speedup(const rs_row *rows, int i)
{
    if (rows[i].status != RS_OK) return 0.0;
    for (int k = 0; k <= i; k++)
        if (rows[k].status == RS_OK && rows[i].result.t_median_ms > 0.0)
            return rows[k].result.t_median_ms / rows[i].result.t_median_ms;
    return 0.0;
}

static void print_json(FILE *f, cJSON *j)
{
    char *s = cJSON_Print(j);
    if (s) fprintf(f, "%s\n", s);
    free(s);
    cJSON_Delete(j);
}

static const char *verdict(const rs_result *r)
{
    return r->correct ? "yes" : "WRONG";
}

static void describe_metrics(FILE *f, const rs_metrics *m)
{
    if (!m->requested) return;
    char a[64];
    if (!m->valid) {
        fprintf(f, "counters   not collected: %s\n", m->reason[0] ? m->reason : "unknown reason");
        return;
    }
    rs_fmt_time(m->wall_ms, rs_notation_utf8(), a, sizeof a);
    fprintf(f, "counters   %d replay pass%s, profiling took %s%s%s\n", m->passes,
            m->passes == 1 ? "" : "es", a, m->reason[0] ? "; " : "", m->reason);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (!(m->requested & RS_METRIC_BIT(i))) continue;
        if (m->valid & RS_METRIC_BIT(i))
            rs_fmt_metric(m->value[i], d->unit, 0, a, sizeof a);
        else
            snprintf(a, sizeof a, "n/a");
        fprintf(f, "  %-26s %14s   %s\n", d->label, a, d->meaning);
    }
    if (m->nlaunch > 1) {
        fprintf(f, "  per launch:\n");
        for (int k = 0; k < m->nlaunch; k++) {
            char t[32], b[32], w[32];
            rs_fmt_metric(m->launch[k].value[RS_M_DURATION], "ns", 0, t, sizeof t);
            rs_fmt_metric(m->launch[k].value[RS_M_DRAM_READ], "bytes", 0, b, sizeof b);
            rs_fmt_si(m->launch[k].value[RS_M_WARP_INST], w, sizeof w);
            fprintf(f, "    %-30s %10s  DRAM read %10s  warp inst %8s\n", m->launch[k].name, t, b,
                    w);
        }
    }
}

static void print_run_table(FILE *f, const rs_row *row)
{
    const rs_result *r = &row->result;
    char n[48], a[32], b[32], c[32];
    rs_format_size(r->req.n, n, sizeof n);
    if (row->status != RS_OK) {
        fprintf(f, "%s: %s\n", rs_variant_name(r->req.variant), row->error);
        return;
    }
    const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
    fprintf(f, "variant    %s (step %d: %s)\n", vi->name, vi->step, vi->idea);
    fprintf(f, "config     %s %s, n %s (%llu), block %u", rs_dtype_name(r->req.type),
            rs_op_name(r->req.op), n, (unsigned long long)r->req.n, r->req.block);
    if (r->finish != RS_FINISH_AUTO) fprintf(f, ", finish %s", rs_finish_name(r->finish));
    fprintf(f, "\n");
    if (r->device.index >= 0)
        fprintf(f, "device     %s, %d SMs, peak %.0f GB/s\n", r->device.name, r->device.sm_count,
                r->device.peak_gbps);
    if (r->grid)
        fprintf(f, "launch     %u launch%s, first grid %u x %u, %.1f elements per thread\n",
                r->launches, r->launches == 1 ? "" : "es", r->grid, r->req.block, r->ept);
    const int utf8 = rs_notation_utf8();
    rs_fmt_time(r->t_median_ms, utf8, a, sizeof a);
    rs_fmt_time(r->t_min_ms, utf8, b, sizeof b);
    rs_fmt_time(r->t_max_ms, utf8, c, sizeof c);
    fprintf(f, "time       %s median (min %s, max %s, %u reps)\n", a, b, c, r->reps);
    fprintf(f, "bandwidth  %.1f GB/s", r->gbps);
    if (r->pct_peak > 0) fprintf(f, ", %.1f%% of peak %.0f GB/s", r->pct_peak, r->device.peak_gbps);
    if (r->pct_measured > 0)
        fprintf(f, ", %.1f%% of measured %.0f GB/s", r->pct_measured, r->device.measured_gbps);
    fprintf(f, "\n");
    rs_fmt_time(r->cpu_ms, utf8, a, sizeof a);
    rs_fmt_ratio(r->speedup_cpu, utf8, b, sizeof b);
    if (r->req.variant != RS_V_CPU)
        fprintf(f, "cpu        %s on one host thread; %s on the GPU\n", a, b);
    char got[64], exp[64];
    rs_value_format(&r->got, got, sizeof got);
    rs_value_format(&r->expected, exp, sizeof exp);
    if (r->correct && r->tol == 0.0)
        fprintf(f, "result     %s, exact\n", got);
    else if (r->correct)
        fprintf(f, "result     %s (reference %s), error %.2e within tolerance %.2e\n", got, exp,
                r->rel_err, r->tol);
    else
        fprintf(f,
                "result     WRONG: got %s, expected %s (error %.2e, tolerance %.2e) in %u of "
                "%u repetitions\n",
                got, exp, r->rel_err, r->tol, r->bad_reps, r->reps);
    describe_metrics(f, &r->metrics);
}

static void csv_header(FILE *f, rs_metric_mask m)
{
    fprintf(f, "step,variant,type,op,n,block,finish,grid,elements_per_thread,launches,reps,"
               "time_median_ms,time_min_ms,time_max_ms,step_speedup,cumulative_speedup,gbps,"
               "pct_peak,pct_measured,cpu_ms,speedup_cpu,correct,result,expected,rel_err,tol,"
               "status,error");
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (m & RS_METRIC_BIT(i)) fprintf(f, ",%s", rs_metric_defs[i].key);
    if (m) fprintf(f, ",metric_passes,metric_note");
    fprintf(f, "\n");
}

void rs_csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_row(FILE *f, const rs_row *rows, int i, rs_metric_mask m)
{
    const rs_result *r = &rows[i].result;
    const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
    fprintf(f, "%d,%s,%s,%s,%llu,%u,%s,", vi->step, vi->name, rs_dtype_name(r->req.type),
            rs_op_name(r->req.op), (unsigned long long)r->req.n, r->req.block,
            rs_finish_name(r->finish));
    if (rows[i].status != RS_OK) {
        fprintf(f, ",,,,,,,,,,,,,,,,,,,%d,", rows[i].status);
        rs_csv_field(f, rows[i].error);
        for (int k = 0; k < RS_METRIC_COUNT; k++)
            if (m & RS_METRIC_BIT(k)) fprintf(f, ",");
        if (m) fprintf(f, ",,");
        fprintf(f, "\n");
        return;
    }
    char got[64], exp[64];
    rs_value_format(&r->got, got, sizeof got);
    rs_value_format(&r->expected, exp, sizeof exp);
    fprintf(f,
            "%u,%.3f,%u,%u,%.6g,%.6g,%.6g,%.4g,%.4g,%.2f,%.2f,%.2f,%.6g,%.2f,%s,%s,%s,%.3g,%.3g,0,",
            r->grid, r->ept, r->launches, r->reps, r->t_median_ms, r->t_min_ms, r->t_max_ms,
            rs_ladder_step_speedup(rows, i), rs_ladder_cumulative_speedup(rows, i), r->gbps,
            r->pct_peak, r->pct_measured, r->cpu_ms, r->speedup_cpu, r->correct ? "yes" : "no", got,
            exp, r->rel_err, r->tol);
    for (int k = 0; k < RS_METRIC_COUNT; k++) {
        if (!(m & RS_METRIC_BIT(k))) continue;
        if (r->metrics.valid & RS_METRIC_BIT(k))
            fprintf(f, ",%.6g", r->metrics.value[k]);
        else
            fprintf(f, ",");
    }
    if (m) {
        fprintf(f, ",%d,", r->metrics.passes);
        rs_csv_field(f, r->metrics.reason);
    }
    fprintf(f, "\n");
}

static rs_metric_mask rows_metrics(const rs_row *rows, int count)
{
    rs_metric_mask m = 0;
    for (int i = 0; i < count; i++) m |= rows[i].result.metrics.requested;
    return m;
}

void rs_print_run(FILE *f, const rs_row *row, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        print_json(f, rs_row_to_json(row));
    } else if (fmt == RS_FMT_CSV) {
        const rs_metric_mask m = rows_metrics(row, 1);
        csv_header(f, m);
        csv_row(f, row, 0, m);
    } else {
        print_run_table(f, row);
    }
}

/* Short column titles for the ladder table's metric columns. */
static const char *metric_column(int id)
{
    switch (id) {
    case RS_M_DURATION: return "kernel";
    case RS_M_DRAM_READ: return "DRAM rd";
    case RS_M_DRAM_WRITE: return "DRAM wr";
    case RS_M_DRAM_GBPS: return "DRAM GB/s";
    case RS_M_DRAM_PCT: return "DRAM %";
    case RS_M_SHLD_CONFLICTS: return "bank ld";
    case RS_M_SHST_CONFLICTS: return "bank st";
    case RS_M_SHLD_WAVEFRONTS: return "wavefr ld";
    case RS_M_SHST_WAVEFRONTS: return "wavefr st";
    case RS_M_WARP_INST: return "warp inst";
    case RS_M_THREAD_INST_PRED_ON: return "thr inst";
    case RS_M_LANES_PRED_ON: return "lanes";
    case RS_M_THREAD_INST: return "thr all";
    case RS_M_LANES_ACTIVE: return "active";
    case RS_M_OCCUPANCY: return "occup.";
    case RS_M_BARRIER_STALL: return "barrier";
    case RS_M_DIVERGENT_BRANCHES: return "diverg.";
    case RS_M_BRANCH_UNIFORMITY: return "uniform";
    default: return "?";
    }
}

static void print_ladder_table(FILE *f, const rs_row *rows, int count)
{
    const rs_metric_mask m = rows_metrics(rows, count);
    const rs_result *first = NULL;
    for (int i = 0; i < count && !first; i++)
        if (rows[i].status == RS_OK) first = &rows[i].result;
    if (first) {
        char n[48];
        rs_format_size(first->req.n, n, sizeof n);
        fprintf(f, "%s %s, n %s, block %u on %s\n", rs_dtype_name(first->req.type),
                rs_op_name(first->req.op), n, first->req.block, first->device.name);
    }
    fprintf(f, "%3s  %-21s %10s %8s %8s %8s %7s %8s %7s", "#", "variant", "time", "step", "cumul.",
            "GB/s", "% peak", "vs CPU", "correct");
    for (int k = 0; k < RS_METRIC_COUNT; k++)
        if (m & RS_METRIC_BIT(k)) fprintf(f, " %10s", metric_column(k));
    fprintf(f, "\n");
    for (int i = 0; i < count; i++) {
        const rs_result *r = &rows[i].result;
        const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
        if (rows[i].status != RS_OK) {
            fprintf(f, "%3d  %-21s refused: %s\n", vi->step, vi->name, rows[i].error);
            continue;
        }
        char t[32], s[32], c[32], x[32], p[4][48];
        const int utf8 = rs_notation_utf8();
        rs_fmt_time(r->t_median_ms, utf8, t, sizeof t);
        rs_fmt_ratio(rs_ladder_step_speedup(rows, i), utf8, s, sizeof s);
        rs_fmt_ratio(rs_ladder_cumulative_speedup(rows, i), utf8, c, sizeof c);
        rs_fmt_ratio(r->speedup_cpu, utf8, x, sizeof x);
        fprintf(f, "%3d  %-21s %s %s %s %8.1f %6.1f%% %s %7s", vi->step, vi->name,
                rs_pad(t, 10, 1, p[0], sizeof p[0]), rs_pad(s, 8, 1, p[1], sizeof p[1]),
                rs_pad(c, 8, 1, p[2], sizeof p[2]), r->gbps, r->pct_peak,
                rs_pad(x, 8, 1, p[3], sizeof p[3]), verdict(r));
        for (int k = 0; k < RS_METRIC_COUNT; k++) {
            if (!(m & RS_METRIC_BIT(k))) continue;
            char v[32];
            if (r->metrics.valid & RS_METRIC_BIT(k)) {
                if (strcmp(rs_metric_defs[k].unit, "count") == 0)
                    rs_fmt_si(r->metrics.value[k], v, sizeof v);
                else
                    rs_fmt_metric(r->metrics.value[k], rs_metric_defs[k].unit, utf8, v, sizeof v);
            } else {
                snprintf(v, sizeof v, "n/a");
            }
            char pv[48];
            fprintf(f, " %s", rs_pad(v, 10, 1, pv, sizeof pv));
        }
        fprintf(f, "\n");
    }
    for (int i = 0; i < count; i++) {
        const rs_metrics *mt = &rows[i].result.metrics;
        if (rows[i].status == RS_OK && mt->requested && !mt->valid &&
            rows[i].result.req.variant != RS_V_CPU) {
            fprintf(f, "counters not collected: %s\n", mt->reason);
            break;
        }
    }
}

void rs_print_ladder(FILE *f, const rs_row *rows, int count, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *j = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(j, "rows");
        for (int i = 0; i < count; i++) {
            cJSON *o = rs_row_to_json(&rows[i]);
            if (rows[i].status == RS_OK) {
                cJSON_AddNumberToObject(o, "step_speedup", rs_ladder_step_speedup(rows, i));
                cJSON_AddNumberToObject(o, "cumulative_speedup",
                                        rs_ladder_cumulative_speedup(rows, i));
            }
            cJSON_AddItemToArray(arr, o);
        }
        print_json(f, j);
    } else if (fmt == RS_FMT_CSV) {
        const rs_metric_mask m = rows_metrics(rows, count);
        csv_header(f, m);
        for (int i = 0; i < count; i++) csv_row(f, rows, i, m);
    } else {
        print_ladder_table(f, rows, count);
    }
}

void rs_print_devices(FILE *f, const rs_device_info *d, int count, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < count; i++) cJSON_AddItemToArray(arr, rs_device_to_json(&d[i]));
        print_json(f, arr);
        return;
    }
    if (fmt == RS_FMT_CSV)
        fprintf(f, "index,name,compute_capability,sm_count,total_mem_bytes,peak_gbps,"
                   "measured_gbps\n");
    else
        fprintf(f, "%-3s %-28s %5s %5s %10s %12s %12s\n", "#", "name", "cc", "SMs", "memory",
                "peak GB/s", "measured");
    for (int i = 0; i < count; i++) {
        if (fmt == RS_FMT_CSV) {
            fprintf(f, "%d,", d[i].index);
            rs_csv_field(f, d[i].name);
            fprintf(f, ",%d.%d,%d,%llu,%.1f,%.1f\n", d[i].cc_major, d[i].cc_minor, d[i].sm_count,
                    (unsigned long long)d[i].total_mem, d[i].peak_gbps, d[i].measured_gbps);
        } else {
            char mem[32], meas[32];
            snprintf(mem, sizeof mem, "%.1f GiB", d[i].total_mem / 1073741824.0);
            if (d[i].measured_gbps > 0)
                snprintf(meas, sizeof meas, "%.0f", d[i].measured_gbps);
            else
                snprintf(meas, sizeof meas, "-");
            fprintf(f, "%-3d %-28s %2d.%-2d %5d %10s %12.0f %12s\n", d[i].index, d[i].name,
                    d[i].cc_major, d[i].cc_minor, d[i].sm_count, mem, d[i].peak_gbps, meas);
        }
    }
}
