/* `redscope recording FILE`: what a recording holds, as the explorer's R
 * screen lists it: each configuration with its command, variants, type,
 * operation, sizes, block, finish, repetitions, counters, stall views, GPUs
 * and user kernels; then its checks. Replay any of them with --replay. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/allreduce_file.h"
#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "formats/record.h"
#include "core/text.h"

static const rs_option_help recording_help[] = {{-1, RS_X_REPLAY, NULL, NULL, RS_HELP_HIDDEN},
                                                RS_HELP_END}; /* its FILE */

const rs_command rs_recording_entry = {
    .name = "recording",
    .usage = "FILE",
    .summary = "list what a recording holds: its configurations, as R shows them",
    .extras = RS_X_FORMAT | RS_X_REPLAY,
    .words = {{-1, RS_X_REPLAY, 0}}, /* FILE: as --replay names one */
    .fn = rs_cmd_recording,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_IO),
    .help = recording_help,
};

typedef struct config_facts {
    char vars[400], sizes[48], kernels[400];
    int rows, stalls, energy, checks;
} config_facts;

/* What the rows of configuration c hold beyond its settings. */
static void facts(const rs_recording *rec, const rs_rec_config *c, config_facts *f)
{
    memset(f, 0, sizeof *f);
    size_t kl = 0;
    for (int i = c->first; i < c->first + c->count && i < rec->count; i++) {
        const rs_row *row = &rec->rows[i];
        f->rows++;
        f->stalls += row->status == RS_OK && rs_result_stalls(&row->result)->valid;
        f->energy += row->status == RS_OK && row->result.energy.valid;
        const char *k = row->result.req.variant == RS_V_KERNEL ? row->result.req.kernel : "";
        int seen = 0; /* each file once: an earlier row of the same path */
        for (int j = c->first; j < i && !seen; j++)
            seen = rec->rows[j].result.req.variant == RS_V_KERNEL &&
                   strcmp(rec->rows[j].result.req.kernel, k) == 0;
        if (*k && !seen && kl < sizeof f->kernels)
            kl += (size_t)snprintf(f->kernels + kl, sizeof f->kernels - kl, "%s%s", kl ? ", " : "",
                                   k);
    }
    size_t vl = 0; /* as --variants takes them: runs of three or more as a..b */
    for (int v = 0; v < RS_VARIANT_COUNT && vl < sizeof f->vars;) {
        int e = v;
        while (e < RS_VARIANT_COUNT && (c->req.variants & RS_VARIANT_BIT(e))) e++;
        if (e == v) {
            v++;
            continue;
        }
        const char *sep = vl ? "," : "";
        if (e - v >= 3)
            vl += (size_t)snprintf(f->vars + vl, sizeof f->vars - vl, "%s%s..%s", sep,
                                   rs_variant_name((rs_variant)v),
                                   rs_variant_name((rs_variant)(e - 1)));
        else
            for (int k = v; k < e && vl < sizeof f->vars; k++)
                vl += (size_t)snprintf(f->vars + vl, sizeof f->vars - vl, "%s%s", vl ? "," : "",
                                       rs_variant_name((rs_variant)k));
        v = e;
    }
    for (int i = 0; i < rec->check_count; i++) { /* checks of its settings, at its sizes */
        const rs_request *q = &rec->checks[i].req;
        f->checks += q->type == c->req.type && q->op == c->req.op && q->block == c->req.block &&
                     q->n >= c->n_lo && q->n <= c->n_hi &&
                     (c->req.variants & RS_VARIANT_BIT(q->variant)) != 0;
    }
    char lo[32], hi[32];
    rs_format_size(c->n_lo, lo, sizeof lo);
    rs_format_size(c->n_hi, hi, sizeof hi);
    snprintf(f->sizes, sizeof f->sizes, c->n_lo == c->n_hi ? "%s" : "%s..%s", lo, hi);
    rs_text_scrub(f->kernels, 0);
}

static cJSON *config_json(const rs_rec_config *c, const config_facts *f, int k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "config", k + 1);
    cJSON_AddStringToObject(o, "command", c->command);
    cJSON_AddStringToObject(o, "variants", f->vars);
    cJSON_AddStringToObject(o, "type", rs_dtype_name(c->req.type));
    cJSON_AddStringToObject(o, "op", rs_op_name(c->req.op));
    cJSON_AddNumberToObject(o, "n_min", (double)c->n_lo);
    cJSON_AddNumberToObject(o, "n_max", (double)c->n_hi);
    cJSON_AddNumberToObject(o, "block", c->req.block);
    cJSON_AddStringToObject(o, "cache", rs_cache_name(c->req.cache));
    cJSON_AddStringToObject(o, "finish", rs_finish_name(c->req.finish));
    cJSON_AddNumberToObject(o, "reps", c->req.reps);
    cJSON_AddStringToObject(o, "input", rs_dist_name(c->req.dist));
    cJSON_AddStringToObject(o, "metrics", c->req.metrics);
    cJSON_AddNumberToObject(o, "rows", f->rows);
    cJSON_AddNumberToObject(o, "stall_views", f->stalls);
    cJSON_AddNumberToObject(o, "energy_rows", f->energy);
    cJSON_AddNumberToObject(o, "checks", f->checks);
    cJSON_AddNumberToObject(o, "gpus", c->gpus);
    cJSON_AddStringToObject(o, "kernels", f->kernels);
    return o;
}

static void print_table(FILE *out, const char *path, const rs_recording *rec,
                        const rs_rec_config *c, int n)
{
    char dev[96];
    rs_text_safe(rec->device.name, 0, dev, sizeof dev);
    fprintf(out, "%s: %d configuration%s, %d row%s, %d check%s, recorded on %s\n", path, n,
            n == 1 ? "" : "s", rec->count, rec->count == 1 ? "" : "s", rec->check_count,
            rec->check_count == 1 ? "" : "s", rec->has_device ? dev : "no GPU");
    fprintf(out, "%3s  %-7s %-8s %-7s %-13s %5s %-5s %-11s %4s %-8s %-8s %4s %4s %6s %6s %6s  %s\n",
            "#", "command", "type", "op", "n", "block", "cache", "finish", "reps", "input",
            "counters", "gpus", "rows", "stalls", "energy", "checks", "variants");
    for (int k = 0; k < n; k++) {
        config_facts f;
        facts(rec, &c[k], &f);
        char gpus[16];
        snprintf(gpus, sizeof gpus, c[k].gpus == 1 ? "1" : c[k].gpus ? "1,%u" : "1,all", c[k].gpus);
        fprintf(
            out,
            "%3d  %-7s %-8s %-7s %-13s %5u %-5s %-11s %4u %-8s %-8s %4s %4d %6d %6d %6d  %s%s%s\n",
            k + 1, c[k].command, rs_dtype_name(c[k].req.type), rs_op_name(c[k].req.op), f.sizes,
            c[k].req.block, rs_cache_name(c[k].req.cache), rs_finish_name(c[k].req.finish),
            c[k].req.reps, rs_dist_name(c[k].req.dist), c[k].req.metrics, gpus, f.rows, f.stalls,
            f.energy, f.checks, f.vars, f.kernels[0] ? "; kernels " : "", f.kernels);
    }
    fprintf(out,
            "replay one: redscope --replay %s (R lists these), or run, ladder or sweep with "
            "--replay and its settings\n",
            path);
}

/* An all-reduce recording (redscope allreduce --record), in a line: its
 * GPUs, sizes, algorithms and how to replay it; -1 where path is not one. */
static int allreduce_summary(rs_cli *cli, const char *path)
{
    rs_ar_record *r = calloc(1, sizeof *r);
    rs_sweep_sizes none;
    memset(&none, 0, sizeof none);
    rs_error err;
    const rs_ar_asked ask = rs_cmd_ar_asked(cli);
    if (!r || rs_ar_run_read(cli->replay, &ask, &none, ~0u, r, &err) != RS_OK || !r->npoints) {
        free(r);
        return -1;
    }
    unsigned algos = 0;
    uint64_t lo = r->p[0].n, hi = r->p[0].n;
    for (int i = 0; i < r->npoints; i++) {
        algos |= 1u << r->p[i].algo;
        lo = r->p[i].n < lo ? r->p[i].n : lo;
        hi = r->p[i].n > hi ? r->p[i].n : hi;
    }
    char a[32], b[32], dev[96], names[160] = "";
    rs_format_size(lo, a, sizeof a);
    rs_format_size(hi, b, sizeof b);
    rs_text_safe(r->device.name, 0, dev, sizeof dev);
    for (int k = 0; k < RS_AR_ALGO_COUNT; k++)
        if (algos & (1u << k))
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? ", " : "", rs_ar_algo_name((rs_ar_algo)k));
    FILE *out = rs_cli_out(cli);
    fprintf(out,
            "%s: an all-reduce recording over %d GPU%s (%s), %s %s, n %s..%s per GPU, %d "
            "points of %u reps; algorithms %s\nreplay it: redscope allreduce --replay %s --algo "
            "all\n",
            path, r->gpus, r->gpus == 1 ? "" : "s", dev, rs_dtype_name(r->type), rs_op_name(r->op),
            a, b, r->npoints, r->reps, names, path);
    free(r);
    return 0;
}

int rs_cmd_recording(rs_cli *cli)
{
    if (!cli->replay || !*cli->replay) {
        rs_cli_error("recording needs a file: redscope recording FILE.jsonl");
        return RS_E_USAGE;
    }
    rs_recording rec;
    rs_error err;
    if (rs_recording_load(cli->replay, &rec, &err) != RS_OK) {
        char path[1024];
        if (rs_cli_text_format(cli) == RS_FMT_TABLE &&
            allreduce_summary(cli, rs_text_safe(cli->replay, 0, path, sizeof path)) == 0)
            return 0;
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    const int maxc = rec.count + 1; /* a configuration has a row at least */
    rs_rec_config *c = calloc((size_t)maxc, sizeof *c);
    const int n = c ? rs_recording_configs(&rec, c, maxc) : 0;
    char path[1024];
    rs_text_safe(cli->replay, 0, path, sizeof path);
    FILE *out = rs_cli_out(cli);
    if (rs_cli_text_format(cli) == RS_FMT_TABLE) {
        print_table(out, path, &rec, c, n);
    } else if (rs_cli_text_format(cli) == RS_FMT_JSON) {
        cJSON *arr = cJSON_CreateArray();
        for (int k = 0; k < n; k++) {
            config_facts f;
            facts(&rec, &c[k], &f);
            cJSON_AddItemToArray(arr, config_json(&c[k], &f, k));
        }
        char *s = rs_json_print(arr);
        if (s) fprintf(out, "%s\n", s);
        free(s);
        cJSON_Delete(arr);
    } else {
        fprintf(out, "config,command,variants,type,op,n_min,n_max,block,cache,finish,reps,input,"
                     "metrics,rows,"
                     "stall_views,energy_rows,checks,gpus,kernels\n");
        for (int k = 0; k < n; k++) {
            config_facts f;
            facts(&rec, &c[k], &f);
            fprintf(out, "%d,", k + 1);
            fputs(c[k].command, out); /* run, ladder or sweep (checked on load) */
            fprintf(out, ",");
            rs_csv_field(out, f.vars);
            fprintf(out, ",%s,%s,%llu,%llu,%u,%s,%s,%u,%s,%s,%d,%d,%d,%d,%u,",
                    rs_dtype_name(c[k].req.type), rs_op_name(c[k].req.op),
                    (unsigned long long)c[k].n_lo, (unsigned long long)c[k].n_hi, c[k].req.block,
                    rs_cache_name(c[k].req.cache), rs_finish_name(c[k].req.finish), c[k].req.reps,
                    rs_dist_name(c[k].req.dist), c[k].req.metrics, f.rows, f.stalls, f.energy,
                    f.checks, c[k].gpus);
            rs_csv_field(out, f.kernels);
            fprintf(out, "\n");
        }
    }
    free(c);
    rs_recording_free(&rec);
    return 0;
}
