/* Two runs side by side, written (formats/run_diff.h): the table that
 * `redscope diff` and every --against print, and its CSV and JSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/format.h"
#include "core/size.h"
#include "core/text.h"
#include "run_diff.h"

#include <math.h>

static const rs_row *side(const rs_diff_pair *p)
{
    return p->a ? p->a : p->b;
}

void rs_diff_config_label(const rs_row *r, char *buf, size_t len)
{
    char n[32], name[96];
    rs_format_size(r->result.req.n, n, sizeof n);
    rs_text_safe(rs_request_name(&r->result.req), 0, name, sizeof name);
    snprintf(buf, len, "%s %s %s %s b%u%s", name, rs_dtype_name(r->result.req.type),
             rs_op_name(r->result.req.op), n, r->result.req.block,
             r->result.req.cache == RS_CACHE_WARM ? " warm" : "");
}

/* "bank ld x0.50, DRAM wr x1.30": each counter by its column title, or
 * for CSV by its key ("bank_ld x0.5"); one gone "to 0", one new "from 0" */
static void counters_moved(const rs_diff_pair *p, int utf8, int keys, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < p->ntop && at < len; k++) {
        char r[32];
        if (p->top_b[k] == 0.0)
            snprintf(r, sizeof r, "to 0");
        else if (p->top_a[k] == 0.0)
            snprintf(r, sizeof r, "from 0");
        else
            rs_fmt_ratio(p->top_ratio[k], utf8, r, sizeof r);
        const rs_metric_def *d = &rs_metric_defs[p->top[k]];
        at += (size_t)snprintf(buf + at, len - at, "%s%s %s", k ? ", " : "",
                               keys ? d->key : d->title, r);
    }
}

static void time_of(const rs_row *r, int utf8, char *buf, size_t len)
{
    if (r && r->status == RS_OK && r->result.t_median_ms > 0.0)
        rs_fmt_time(r->result.t_median_ms, utf8, buf, len);
    else
        snprintf(buf, len, "%s", r ? "failed" : "-");
}

static void print_pair(FILE *f, const rs_diff_pair *p, int utf8)
{
    char label[160], ta[32], tb[32], ratio[32], moved[160], x[3][48];
    rs_diff_config_label(side(p), label, sizeof label);
    time_of(p->a, utf8, ta, sizeof ta);
    time_of(p->b, utf8, tb, sizeof tb);
    rs_fmt_ratio(p->speedup, utf8, ratio, sizeof ratio);
    counters_moved(p, utf8, 0, moved, sizeof moved);
    const int wrong = rs_diff_wrong(p->b) || rs_diff_wrong(p->a); /* no speed says it right */
    fprintf(f, "%-40.40s %s %s %s  %-7s %s\n", label, rs_pad(ta, 9, 1, x[0], sizeof x[0]),
            rs_pad(tb, 9, 1, x[1], sizeof x[1]), rs_pad(ratio, 7, 1, x[2], sizeof x[2]),
            wrong ? (rs_diff_wrong(p->b) ? "WRONG B" : "WRONG A")
                  : rs_diff_verdict_name(p->verdict),
            moved);
    if (p->has_stall) {
        char words[400];
        rs_stall_delta_words(&p->stall, words, sizeof words);
        fprintf(f, "%-40s stalls: %s\n", "", words);
    }
}

/* Rows i.. of one side only with the settings of row i: how many. */
static int same_settings(const rs_diff_pair *p, int n, int i, int want_a)
{
    const rs_request *r = &side(&p[i])->result.req;
    int k = 1;
    while (i + k < n && !(want_a ? p[i + k].b : p[i + k].a)) {
        const rs_request *q = &side(&p[i + k])->result.req;
        if (q->type != r->type || q->op != r->op || q->n != r->n || q->block != r->block ||
            q->cache != r->cache)
            break;
        k++;
    }
    return k;
}

/* The configurations of one side only, each once: its variants by name
 * where they are few ("template.cu, fast.cu at int32 sum 2^24 b256"), else
 * counted; the first six, then how many more. */
static void print_one_side(FILE *f, const rs_diff_pair *p, int n, int want_a, const char *name,
                           const char *path)
{
    int total = 0, groups = 0;
    for (int i = 0; i < n; i++) total += want_a ? !p[i].b : !p[i].a;
    if (!total) return;
    fprintf(f, "only in %s (%d row%s):", name, total, total == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        if (want_a ? p[i].b : p[i].a) continue;
        const int same = same_settings(p, n, i, want_a);
        if (groups++ < 6) {
            const rs_request *r = &side(&p[i])->result.req;
            char names[200] = "", sz[32], one[96];
            for (int k = 0; k < same && same <= 4; k++) {
                rs_text_safe(rs_request_name(&side(&p[i + k])->result.req), 0, one, sizeof one);
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                         one);
            }
            if (same > 4) snprintf(names, sizeof names, "%d variants", same);
            rs_format_size(r->n, sz, sizeof sz);
            fprintf(f, "%s %s at %s %s %s b%u%s", groups > 1 ? ";" : "", names,
                    rs_dtype_name(r->type), rs_op_name(r->op), sz, r->block,
                    r->cache == RS_CACHE_WARM ? " warm" : "");
        }
        i += same - 1;
    }
    if (groups > 6)
        fprintf(f, "; and %d configuration%s more (redscope recording %s lists them)", groups - 6,
                groups - 6 == 1 ? "" : "s", path);
    fprintf(f, "\n");
}

void rs_diff_print_table(FILE *f, const char *name_a, const char *name_b, const rs_recording *a,
                         const rs_recording *b, const rs_diff_pair *p, int n)
{
    const int utf8 = rs_notation_utf8();
    char pa[512], pb[512], da[96], db[96];
    rs_text_safe(name_a, 0, pa, sizeof pa);
    rs_text_safe(name_b, 0, pb, sizeof pb);
    rs_text_safe(a->has_device ? a->device.name : "no GPU", 0, da, sizeof da);
    rs_text_safe(b->has_device ? b->device.name : "no GPU", 0, db, sizeof db);
    fprintf(f, "A: %s (%s)\nB: %s (%s)\n\n", pa, da, pb, db);
    fprintf(f, "%-40s %9s %9s %7s  %-7s %s\n", "configuration", "A time", "B time", "speedup",
            "verdict", "counters that moved (B / A)");
    fprintf(f, "%-40s %9s %9s %7s\n", "", "", "", "A / B");
    int both = 0, faster = 0, slower = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        if (!p[i].a || !p[i].b) continue;
        both++;
        if (!(p[i].speedup > 0.0)) { /* matched, not both timed */
            char label[160], ta[32], tb[32];
            rs_diff_config_label(side(&p[i]), label, sizeof label);
            time_of(p[i].a, utf8, ta, sizeof ta);
            time_of(p[i].b, utf8, tb, sizeof tb);
            char qa[48], qb[48]; /* padded by columns: "µs" is two bytes */
            fprintf(f, "%-40.40s %s %s\n", label, rs_pad(ta, 9, 1, qa, sizeof qa),
                    rs_pad(tb, 9, 1, qb, sizeof qb));
            failed++;
            continue;
        }
        print_pair(f, &p[i], utf8);
        faster += p[i].verdict == RS_DIFF_FASTER;
        slower += p[i].verdict == RS_DIFF_SLOWER;
    }
    if (both)
        fprintf(f,
                "\n%d in both: %d faster in B, %d slower, %d the same within both runs' "
                "min..max%s\n",
                both, faster, slower, both - faster - slower - failed,
                failed ? ", some failed" : "");
    else
        fprintf(f, "\nnothing in both: no configuration (variant, type, operation, n, block, "
                   "cache, input) "
                   "of A is in B\n");
    print_one_side(f, p, n, 1, "A", pa);
    print_one_side(f, p, n, 0, "B", pb);
}

static void csv_pair(FILE *f, const rs_diff_pair *p)
{
    const rs_row *r = side(p);
    char n[32];
    rs_format_size(r->result.req.n, n, sizeof n);
    if (r->result.req.variant == RS_V_KERNEL) /* a file's name: free text */
        rs_csv_field(f, rs_request_name(&r->result.req));
    else
        fputs(rs_request_name(&r->result.req), f);
    fprintf(f, ",%s,%s,%llu,%u,%s,", rs_dtype_name(r->result.req.type),
            rs_op_name(r->result.req.op), (unsigned long long)r->result.req.n, r->result.req.block,
            rs_cache_name(r->result.req.cache));
    const rs_result *ra = p->a && p->a->status == RS_OK ? &p->a->result : NULL;
    const rs_result *rb = p->b && p->b->status == RS_OK ? &p->b->result : NULL;
    if (ra) fprintf(f, "%.6g,%.6g,%.6g", ra->t_median_ms, ra->t_min_ms, ra->t_max_ms);
    fprintf(f, ra ? "," : ",,,");
    if (rb) fprintf(f, "%.6g,%.6g,%.6g", rb->t_median_ms, rb->t_min_ms, rb->t_max_ms);
    fprintf(f, rb ? "," : ",,,");
    fprintf(f, "%s,%s,", ra ? (ra->correct ? "yes" : "no") : "",
            rb ? (rb->correct ? "yes" : "no") : "");
    if (p->speedup > 0.0)
        fprintf(f, "%.6g,%.6g,%s,", p->speedup, p->change_pct, rs_diff_verdict_name(p->verdict));
    else
        fprintf(f, ",,%s,", !p->a ? "only_b" : !p->b ? "only_a" : "failed");
    char moved[160];
    counters_moved(p, 0, 1, moved, sizeof moved);
    rs_csv_field(f, moved);
    fprintf(f, "\n");
}

static cJSON *json_side(const rs_row *r)
{
    if (!r) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ran", r->status == RS_OK);
    if (r->status != RS_OK) return o;
    cJSON *t = cJSON_AddObjectToObject(o, "time_ms"); /* as run's JSON has it */
    cJSON_AddNumberToObject(t, "median", r->result.t_median_ms);
    cJSON_AddNumberToObject(t, "min", r->result.t_min_ms);
    cJSON_AddNumberToObject(t, "max", r->result.t_max_ms);
    cJSON_AddNumberToObject(o, "gbps", r->result.gbps);
    cJSON_AddBoolToObject(o, "correct", r->result.correct);
    return o;
}

static cJSON *json_pair(const rs_diff_pair *p)
{
    const rs_row *r = side(p);
    cJSON *o = cJSON_CreateObject();
    char safe[160];
    cJSON_AddStringToObject(o, "variant",
                            rs_text_safe(rs_request_name(&r->result.req), 0, safe, sizeof safe));
    cJSON_AddStringToObject(o, "type", rs_dtype_name(r->result.req.type));
    cJSON_AddStringToObject(o, "op", rs_op_name(r->result.req.op));
    cJSON_AddNumberToObject(o, "n", (double)r->result.req.n);
    cJSON_AddNumberToObject(o, "block", r->result.req.block);
    cJSON_AddStringToObject(o, "cache", rs_cache_name(r->result.req.cache));
    cJSON_AddItemToObject(o, "a", json_side(p->a));
    cJSON_AddItemToObject(o, "b", json_side(p->b));
    cJSON_AddStringToObject(o, "verdict",
                            p->speedup > 0.0 ? rs_diff_verdict_name(p->verdict)
                            : !p->a          ? "only_b"
                            : !p->b          ? "only_a"
                                             : "failed");
    if (p->speedup > 0.0) {
        cJSON_AddNumberToObject(o, "speedup", p->speedup);
        cJSON_AddNumberToObject(o, "change_pct", p->change_pct);
    }
    cJSON *c = cJSON_AddArrayToObject(o, "counters_moved");
    for (int k = 0; k < p->ntop; k++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "metric", rs_metric_defs[p->top[k]].key);
        if (isfinite(p->top_ratio[k]))
            cJSON_AddNumberToObject(m, "ratio", p->top_ratio[k]);
        else
            cJSON_AddNullToObject(m, "ratio"); /* from zero */
        cJSON_AddNumberToObject(m, "a", p->top_a[k]);
        cJSON_AddNumberToObject(m, "b", p->top_b[k]);
        cJSON_AddItemToArray(c, m);
    }
    if (p->has_stall) {
        cJSON *s = cJSON_AddObjectToObject(o, "stall_line_moved");
        cJSON_AddStringToObject(s, "file", rs_text_safe(p->stall.file, 0, safe, sizeof safe));
        cJSON_AddNumberToObject(s, "line", p->stall.line ? p->stall.line : p->stall.line_before);
        cJSON_AddNumberToObject(s, "pct_before", p->stall.before);
        cJSON_AddNumberToObject(s, "pct_after", p->stall.after);
    }
    return o;
}

void rs_diff_print_data(FILE *f, rs_format fmt, const rs_diff_pair *p, int n)
{
    if (fmt == RS_FMT_CSV) {
        fprintf(f, "variant,type,op,n,block,cache,a_time_median_ms,a_time_min_ms,a_time_max_ms,"
                   "b_time_median_ms,b_time_min_ms,b_time_max_ms,a_correct,b_correct,speedup,"
                   "change_pct,verdict,counters_moved\n");
        for (int i = 0; i < n; i++) csv_pair(f, &p[i]);
        return;
    }
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, json_pair(&p[i]));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "pairs", arr);
    char *s = rs_json_print(o);
    if (s) fprintf(f, "%s\n", s);
    free(s);
    cJSON_Delete(o);
}
