/* `redscope variants`: the ladder's steps, their block rule and finish. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"

const rs_command rs_variants_entry = {
    .name = "variants",
    .usage = "",
    .summary = "list the variants of the ladder",
    .extras = RS_X_FORMAT,
    .gives = RS_GIVES_DATA,
    .fn = rs_cmd_variants,
};

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
