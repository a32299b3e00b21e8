/* `redscope metrics`: the hardware counters, their names, sets and passes. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/metric_table.h"
#include "core/source.h"
#include "engine/gpu_process.h"

const rs_command rs_metrics_entry = {
    .name = "metrics",
    .usage = "[--device I]",
    .summary = "list the hardware counters and what they cost",
    .fields = RS_FIELD(device),
    .extras = RS_X_FORMAT,
    .fn = rs_cmd_metrics,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_CUDA),
};

/* One counter of `redscope metrics`: a table line, a CSV line, or an
 * element of arr; passes -1 where it cannot be read here. */
static void metric_line(FILE *out, rs_format fmt, cJSON *arr, const rs_metric_def *d, int passes)
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
        fprintf(out, "%s,%s,%s,%s,%s,%s,%s,", d->key, d->label, d->title, d->cupti ? d->cupti : "",
                d->unit, set, pass_txt);
        rs_csv_field(out, d->meaning);
        fprintf(out, "\n");
    } else {
        fprintf(out, "%-20s %-26s %-9s %-5s %-8s %6s  %s\n", d->key, d->label, d->title, d->unit,
                set, pass_txt, d->meaning);
    }
}

/* The facts of the GPU process (each counter's passes with them), or NULL
 * with the error said. */
static const rs_gpu_facts *facts_of(const rs_cli *cli, rs_source **src)
{
    rs_error err;
    rs_status st = rs_source_child_open(
        (int)cli->req.device, RS_CHILD_FACTS | RS_CHILD_METRICS | RS_CHILD_ONE, src, &err);
    if (st == RS_OK) st = (*src)->prepare(*src, 0, &err); /* no GPU: GH100's passes */
    if (st == RS_OK) return rs_source_child_facts(*src);
    rs_cli_error("%s", err.msg);
    return NULL;
}

static void print_sets(FILE *out, const rs_gpu_facts *f, int pd, int pf)
{
    fprintf(out, "Hardware counters (read in process through CUPTI). %s\n",
            f->counters_ok ? "Counters are available on this GPU."
                           : "Counters are not available here:");
    if (!f->counters_ok)
        fprintf(out,
                "  %s\n  Pass counts below are for GH100 (H100/H200), from the CUPTI host API.\n",
                f->counters_why);
    fprintf(out,
            "Sets: default = %d pass%s, full = %d passes (a pass replays every kernel once).\n\n",
            pd, pd == 1 ? "" : "es", pf);
    fprintf(out, "%-20s %-26s %-9s %-5s %-8s %6s  %s\n", "key", "name", "column", "unit", "set",
            "passes", "meaning");
}

int rs_cmd_metrics(rs_cli *cli)
{
    rs_source *src = NULL;
    const rs_gpu_facts *f = facts_of(cli, &src);
    if (!f) {
        rs_source_close(src);
        return RS_E_CUDA;
    }
    const int pd = f->passes_default > 0 ? f->passes_default : -1; /* 0: not found */
    const int pf = f->passes_full > 0 ? f->passes_full : -1;
    FILE *out = rs_cli_out(cli);
    cJSON *arr = rs_cli_text_format(cli) == RS_FMT_JSON ? cJSON_CreateArray() : NULL;
    if (rs_cli_text_format(cli) == RS_FMT_TABLE) print_sets(out, f, pd, pf);
    if (rs_cli_text_format(cli) == RS_FMT_CSV)
        fprintf(out, "key,name,column,cupti_name,unit,set,passes,meaning\n");
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        metric_line(out, rs_cli_text_format(cli), arr, &rs_metric_defs[i], f->metric_passes[i]);
    if (arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddBoolToObject(o, "available", f->counters_ok);
        cJSON_AddStringToObject(o, "reason", f->counters_why);
        cJSON_AddNumberToObject(o, "default_passes", pd);
        cJSON_AddNumberToObject(o, "full_passes", pf);
        cJSON_AddItemToObject(o, "metrics", arr);
        char *s = rs_json_print(o);
        fprintf(out, "%s\n", s);
        free(s);
        cJSON_Delete(o);
    }
    rs_source_close(src);
    return 0;
}
