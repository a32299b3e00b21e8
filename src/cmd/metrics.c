/* `redscope metrics`: the hardware counters, their names, sets and passes. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/metric_table.h"
#include "engine/engine.h"

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
        return (int)err.code;
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
