#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/catalogue.h"
#include "core/multi.h"
#include "engine/engine.h"
#include "core/preset.h"
#include "core/record.h"
#include "core/runner.h"
#include "core/text.h"
#include "core/trace.h"

void rs_cli_error(const char *fmt, ...)
{
    char msg[8192], safe[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* what it quotes came from outside (files, logs, values): seen, not obeyed */
    fflush(stdout); /* what was printed first comes first where both go to one file */
    fprintf(stderr, "redscope: %s\n", rs_text_safe(msg, 1, safe, sizeof safe));
}

/* ---- running ------------------------------------------------------------------------- */

static int exit_for(rs_status st)
{
    return (int)st;
}

int rs_cli_save_preset(const rs_cli *cli)
{
    if (!cli->save_preset) return 0;
    char path[RS_PATH_MAX];
    rs_error err;
    if (rs_preset_save(cli->save_preset, &cli->req, cli->force, path, sizeof path, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return exit_for(err.code);
    }
    fprintf(stderr, "redscope: saved preset to %s\n", path);
    return 0;
}

/* --kernel on run: the variant is the file's kernel; one file at a time. */
static int run_kernel_args(rs_cli *cli)
{
    if (cli->nkernels > 1) {
        rs_cli_error("run takes one --kernel; compare several with: redscope ladder --kernel A.cu "
                     "--kernel B.cu");
        return RS_E_USAGE;
    }
    if (!cli->set[RS_F_kernel]) return 0;
    if (cli->set[RS_F_variant] && cli->req.variant != RS_V_KERNEL) {
        rs_cli_error("give --variant or --kernel, not both: --kernel runs your file");
        return RS_E_USAGE;
    }
    cli->req.variant = RS_V_KERNEL;
    return 0;
}

int rs_cmd_run(rs_cli *cli)
{
    rs_error err;
    int rc0 = run_kernel_args(cli);
    if (rc0 || (rc0 = rs_cli_check_kernels(cli))) return rc0;
    if (cli->check) return rs_cmd_check(cli);
    int rc = rs_cli_against_check(cli);
    if (rc || (rc = rs_cli_check_outputs(cli)) || (rc = rs_cli_save_preset(cli))) return rc;
    /* Refuse a bad configuration before touching the GPU. */
    if (rs_catalogue_check(&cli->req, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return exit_for(err.code);
    }
    rs_source *src = NULL;
    if ((rc = rs_cli_open_source(cli, cli->req.variant != RS_V_CPU, &src))) return rc;
    rs_row *row = calloc(1, sizeof *row);
    if (!row) {
        rs_source_close(src);
        rs_cli_error("out of host memory");
        return RS_E_NOMEM;
    }
    int done = 0;
    rc = rs_cli_run_list(cli, src, "run", &cli->req, 1, row, &done);
    if (!rc && row->status != RS_OK) {
        rs_cli_error("%s", row->error);
        rc = exit_for(row->status);
    } else if (!rc) {
        if (cli->against)
            rc = rs_cli_print_against(cli, src, row);
        else
            rs_print_run(stdout, row, cli->format);
        const int missing = rs_cli_stalls_missing(cli, row, 1);
        const int lacking = rs_cli_metrics_missing(cli, row, 1);
        rs_trace("run: printed");
        if (!rc && !row->result.correct) { /* a wrong result before counters not recorded */
            rs_cli_error("%s gave a WRONG result (see above)", rs_request_name(&cli->req));
            rc = RS_E_MISMATCH;
        }
        if (!rc) rc = missing ? missing : lacking;
    }
    free(row);
    rs_source_close(src);
    return rc;
}

int rs_cmd_ladder(rs_cli *cli)
{
    int rc = rs_cli_check_kernels(cli);
    if (rc || (rc = rs_cli_check_outputs(cli)) || (rc = rs_cli_save_preset(cli))) return rc;
    if (cli->req.gpus != 1 && cli->req.stalls) { /* as run says it, live or replayed */
        rs_cli_error("PC sampling watches one GPU: drop --stalls or --gpus");
        return RS_E_USAGE;
    }
    enum { MAX_ROWS = (1 + RS_CROSS_COUNT) * RS_VARIANT_COUNT + RS_UKERNEL_MAX_FILES };
    rs_variant vars[RS_VARIANT_COUNT];
    rs_request reqs[MAX_ROWS];
    rs_row *rows = calloc(MAX_ROWS, sizeof *rows);
    if (!rows) {
        rs_cli_error("out of host memory");
        return RS_E_NOMEM;
    }
    int nvars = cli->req.gpus != 1 ? 0 : rs_request_variant_list(&cli->req, vars, RS_VARIANT_COUNT);
    int need_gpu = cli->req.gpus != 1;
    for (int i = 0; i < nvars; i++) {
        need_gpu |= vars[i] != RS_V_CPU;
        rs_request_for_variant(&cli->req, vars[i], &reqs[i]);
    }
    /* over several GPUs: each variant on one GPU, then per finish; every
     * --kernel file a row on one GPU. Else every further file a row of its
     * own after the first's. */
    if (cli->req.gpus != 1)
        nvars = rs_multi_ladder(&cli->req, cli->set[RS_F_cross], reqs, MAX_ROWS);
    for (int k = cli->req.gpus != 1 ? 0 : 1; k < cli->nkernels; k++) {
        rs_request_for_variant(&cli->req, RS_V_KERNEL, &reqs[nvars]);
        reqs[nvars].gpus = 1;
        snprintf(reqs[nvars++].kernel, sizeof reqs[0].kernel, "%s", cli->kernels[k]);
    }
    rs_source *src = NULL;
    if ((rc = rs_cli_open_source(cli, need_gpu, &src))) {
        free(rows);
        return rc;
    }
    int done = 0;
    rc = rs_cli_run_list(cli, src, "ladder", reqs, nvars, rows, &done);
    /* counters asked for by name (--metrics dram_read,bank_ld): their columns */
    const char *m = cli->req.metrics;
    const int named = cli->set[RS_F_metrics] && strcmp(m, "none") != 0 &&
                      strcmp(m, "default") != 0 && strcmp(m, "full") != 0;
    if (done > 0) rs_print_ladder(stdout, rows, done, cli->format, cli->wide || named);
    const int missing = rs_cli_stalls_missing(cli, rows, done);
    const int lacking = rs_cli_metrics_missing(cli, rows, done);
    if (!rc) rc = rs_cli_nothing_recorded(cli, "ladder", rows, done);
    if (!rc) { /* a wrong result before counters or views not recorded */
        const int ran = rs_runner_exit(rows, done, 1);
        rc = ran == RS_E_MISMATCH ? ran : missing ? missing : lacking ? lacking : ran;
    }
    if (rc == RS_E_MISMATCH) rs_cli_error("a variant gave a WRONG result (see above)");
    free(rows);
    rs_source_close(src);
    return rc;
}

int rs_cmd_devices(rs_cli *cli)
{
    rs_device_info devs[64];
    int count = 0;
    rs_error err;
    if (cli->replay) return rs_cmd_devices_recorded(cli);
    if (rs_devices_list(devs, 64, &count, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return exit_for(err.code);
    }
    for (int i = 0; cli->measure && i < count; i++) {
        rs_engine *e = NULL;
        double gbps = 0;
        if (rs_engine_open(&e, i, &err) == RS_OK &&
            rs_engine_measure_peak(e, &gbps, &err) == RS_OK) {
            const rs_device_info *m = rs_engine_device(e);
            devs[i].measured_gbps = gbps;
            devs[i].floor_empty_us = m->floor_empty_us;
            devs[i].floor_launch_us = m->floor_launch_us;
        } else
            rs_cli_error("device %d: %s", i, err.msg);
        rs_engine_close(e);
    }
    rs_print_devices(stdout, devs, count, cli->format);
    return 0;
}

static const char *block_rule(const rs_variant_info *vi)
{
    if (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST)) return "-";
    if (vi->flags & RS_VF_POW2_BLOCK) return "power of 2";
    if (vi->flags & RS_VF_WARP_BLOCK) return "multiple of 32";
    return "32..1024";
}

int rs_cmd_variants(rs_cli *cli)
{
    cJSON *arr = cli->format == RS_FMT_JSON ? cJSON_CreateArray() : NULL;
    if (cli->format == RS_FMT_CSV) printf("step,id,idea,block,grid_stride,default_finish\n");
    if (cli->format == RS_FMT_TABLE)
        printf("%4s  %-21s %-15s %-12s %s\n", "step", "id", "blockDim", "finish", "idea");
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        const rs_variant_info *vi = rs_catalogue_get(v);
        const char *fin = vi->flags & RS_VF_FINISH ? rs_finish_name(vi->default_finish) : "-";
        if (arr) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "step", vi->step);
            cJSON_AddStringToObject(o, "id", vi->name);
            cJSON_AddStringToObject(o, "idea", vi->idea);
            cJSON_AddStringToObject(o, "block", block_rule(vi));
            cJSON_AddBoolToObject(o, "grid_stride", (vi->flags & RS_VF_GRID_STRIDE) != 0);
            cJSON_AddStringToObject(o, "default_finish", fin);
            cJSON_AddStringToObject(o, "counter", vi->counter);
            cJSON_AddBoolToObject(o, "racy", (vi->flags & RS_VF_RACY) != 0);
            cJSON_AddItemToArray(arr, o);
        } else if (cli->format == RS_FMT_CSV) {
            printf("%d,%s,", vi->step, vi->name);
            rs_csv_field(stdout, vi->idea);
            printf(",%s,%s,%s\n", block_rule(vi), vi->flags & RS_VF_GRID_STRIDE ? "yes" : "no",
                   fin);
        } else {
            printf("%4d  %-21s %-15s %-12s %s\n", vi->step, vi->name, block_rule(vi), fin,
                   vi->idea);
        }
    }
    if (arr) {
        char *s = cJSON_Print(arr);
        printf("%s\n", s);
        free(s);
        cJSON_Delete(arr);
    }
    return 0;
}

/* One counter of `redscope metrics`: a table line, a CSV line, or an
 * element of arr; passes -1 where it cannot be read here. */
static void metric_line(rs_format fmt, cJSON *arr, const rs_metric_def *d, int passes)
{
    const char *set = d->in_default ? "default" : "full";
    char pass_txt[16] = "n/a";
    if (passes >= 0) snprintf(pass_txt, sizeof pass_txt, "%d", passes);
    if (arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", d->key);
        cJSON_AddStringToObject(o, "name", d->label);
        cJSON_AddStringToObject(o, "column", d->title);
        cJSON_AddStringToObject(o, "cupti_name", d->cupti ? d->cupti : "");
        cJSON_AddStringToObject(o, "unit", d->unit);
        cJSON_AddStringToObject(o, "set", set);
        cJSON_AddNumberToObject(o, "passes", passes);
        cJSON_AddStringToObject(o, "meaning", d->meaning);
        cJSON_AddItemToArray(arr, o);
    } else if (fmt == RS_FMT_CSV) {
        printf("%s,%s,%s,%s,%s,%s,%s,", d->key, d->label, d->title, d->cupti ? d->cupti : "",
               d->unit, set, pass_txt);
        rs_csv_field(stdout, d->meaning);
        printf("\n");
    } else {
        printf("%-20s %-26s %-9s %-5s %-8s %6s  %s\n", d->key, d->label, d->title, d->unit, set,
               pass_txt, d->meaning);
    }
}

int rs_cmd_metrics(rs_cli *cli)
{
    rs_engine *e = NULL;
    rs_error err;
    if (rs_engine_open(&e, (int)cli->req.device, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return exit_for(err.code);
    }
    char why[256] = "";
    const int live = rs_engine_counters_available(e, why, sizeof why);
    int pd = -1, pf = -1;
    rs_engine_metric_passes(e, rs_metric_set_default(), &pd, NULL, &err);
    rs_engine_metric_passes(e, rs_metric_set_full(), &pf, NULL, &err);
    cJSON *arr = cli->format == RS_FMT_JSON ? cJSON_CreateArray() : NULL;
    if (cli->format == RS_FMT_TABLE) {
        printf("Hardware counters (read in process through CUPTI). %s\n",
               live ? "Counters are available on this GPU." : "Counters are not available here:");
        if (!live)
            printf(
                "  %s\n  Pass counts below are for GH100 (H100/H200), from the CUPTI host API.\n",
                why);
        printf(
            "Sets: default = %d pass%s, full = %d passes (a pass replays every kernel once).\n\n",
            pd, pd == 1 ? "" : "es", pf);
        printf("%-20s %-26s %-9s %-5s %-8s %6s  %s\n", "key", "name", "column", "unit", "set",
               "passes", "meaning");
    } else if (cli->format == RS_FMT_CSV) {
        printf("key,name,column,cupti_name,unit,set,passes,meaning\n");
    }
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        int passes = -1;
        rs_metric_mask missing = 0;
        rs_engine_metric_passes(e, RS_METRIC_BIT(i), &passes, &missing, &err);
        metric_line(cli->format, arr, &rs_metric_defs[i],
                    (missing & RS_METRIC_BIT(i)) ? -1 : passes);
    }
    if (arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddBoolToObject(o, "available", live);
        cJSON_AddStringToObject(o, "reason", why);
        cJSON_AddNumberToObject(o, "default_passes", pd);
        cJSON_AddNumberToObject(o, "full_passes", pf);
        cJSON_AddItemToObject(o, "metrics", arr);
        char *s = cJSON_Print(o);
        printf("%s\n", s);
        free(s);
        cJSON_Delete(o);
    }
    rs_engine_close(e);
    return 0;
}

/* A preset's name, path, note or error as shown: escaped and whole (file
 * names and notes come from outside; the files are read by path). */
typedef struct preset_text {
    char name[4 * RS_PRESET_NAME_MAX], path[4 * RS_PATH_MAX], note[4 * 600];
} preset_text;

static const preset_text *shown(const rs_preset_info *p, preset_text *t)
{
    rs_text_safe(p->name, 0, t->name, sizeof t->name);
    rs_text_safe(p->path, 0, t->path, sizeof t->path);
    rs_text_safe(p->valid ? p->note : p->error, 0, t->note, sizeof t->note);
    return t;
}

static void presets_json(const rs_preset_info *list, int n)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        preset_text t;
        shown(&list[i], &t);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", t.name);
        cJSON_AddStringToObject(o, "kind", list[i].shipped ? "shipped" : "user");
        cJSON_AddStringToObject(o, "path", t.path);
        cJSON_AddStringToObject(o, list[i].valid ? "note" : "error", t.note);
        cJSON_AddItemToArray(arr, o);
    }
    char *s = cJSON_Print(arr);
    printf("%s\n", s);
    free(s);
    cJSON_Delete(arr);
}

static void presets_table(const rs_preset_info *list, int n, int shipped)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (list[i].shipped != shipped) continue;
        preset_text t;
        shown(&list[i], &t);
        printf("  %-22s %s%s\n", t.name, list[i].valid ? "" : "BROKEN: ", t.note);
        count++;
    }
    if (!shipped && !count) printf("  (none yet: redscope run ... --save-preset NAME)\n");
}

int rs_cmd_presets(rs_cli *cli)
{
    enum { MAXP = 256 };
    rs_preset_info *list = calloc(MAXP, sizeof *list);
    if (!list) return RS_E_NOMEM;
    const int n = rs_preset_list(list, MAXP);
    char user[RS_PATH_MAX] = "", dir[4 * RS_PATH_MAX];
    rs_preset_user_dir(user, sizeof user, NULL);
    if (cli->format == RS_FMT_JSON) {
        presets_json(list, n);
    } else if (cli->format == RS_FMT_CSV) {
        printf("name,kind,path,note\n");
        for (int i = 0; i < n; i++) {
            preset_text t;
            shown(&list[i], &t);
            rs_csv_field(stdout, t.name);
            printf(",%s,", list[i].shipped ? "shipped" : "user");
            rs_csv_field(stdout, t.path);
            printf(",");
            rs_csv_field(stdout, t.note);
            printf("\n");
        }
    } else {
        const char *shipped = rs_preset_shipped_dir();
        printf("shipped presets (%s):\n",
               *shipped ? rs_text_safe(shipped, 0, dir, sizeof dir) : "none found");
        presets_table(list, n, 1);
        printf("your presets (%s):\n", rs_text_safe(user, 0, dir, sizeof dir));
        presets_table(list, n, 0);
    }
    free(list);
    return 0;
}
