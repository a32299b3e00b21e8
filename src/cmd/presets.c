/* `redscope presets`: the shipped and saved presets, with their notes. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/preset.h"
#include "core/text.h"

const rs_command rs_presets_entry = {
    .name = "presets",
    .usage = "",
    .summary = "list shipped and saved presets",
    .extras = RS_X_FORMAT,
    .fn = rs_cmd_presets,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_NOMEM),
};

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

static void presets_json(FILE *out, const rs_preset_info *list, int n)
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
    char *s = rs_json_print(arr);
    fprintf(out, "%s\n", s);
    free(s);
    cJSON_Delete(arr);
}

static void presets_table(FILE *out, const rs_preset_info *list, int n, int shipped)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (list[i].shipped != shipped) continue;
        preset_text t;
        shown(&list[i], &t);
        fprintf(out, "  %-22s %s%s\n", t.name, list[i].valid ? "" : "BROKEN: ", t.note);
        count++;
    }
    if (!shipped && !count) fprintf(out, "  (none yet: redscope run ... --save-preset NAME)\n");
}

int rs_cmd_presets(rs_cli *cli)
{
    int n = 0;
    rs_preset_info *list = rs_preset_list(&n);
    char user[RS_PATH_MAX] = "", dir[4 * RS_PATH_MAX];
    rs_preset_user_dir(user, sizeof user, NULL);
    FILE *out = rs_cli_out(cli);
    if (rs_cli_text_format(cli) == RS_FMT_JSON) {
        presets_json(out, list, n);
    } else if (rs_cli_text_format(cli) == RS_FMT_CSV) {
        fprintf(out, "name,kind,path,note\n");
        for (int i = 0; i < n; i++) {
            preset_text t;
            shown(&list[i], &t);
            rs_csv_field(out, t.name);
            fprintf(out, ",%s,", list[i].shipped ? "shipped" : "user");
            rs_csv_field(out, t.path);
            fprintf(out, ",");
            rs_csv_field(out, t.note);
            fprintf(out, "\n");
        }
    } else {
        const char *shipped = rs_preset_shipped_dir();
        fprintf(out, "shipped presets (%s):\n",
                *shipped ? rs_text_safe(shipped, 0, dir, sizeof dir)
                         : "none found beside the program: set REDSCOPE_DATA_DIR to the "
                           "folder that holds presets/");
        presets_table(out, list, n, 1);
        fprintf(out, "your presets (%s):\n", rs_text_safe(user, 0, dir, sizeof dir));
        presets_table(out, list, n, 0);
    }
    free(list);
    return 0;
}
