/* `redscope variants`: the ladder's steps, their block rule and finish. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"
#include "formats/writer.h"

static const rs_option_help variants_help[] = {
    {-1, RS_X_FORMAT, "output: table (default), csv, json, md or html (a Markdown or HTML table)",
     NULL, 0},
    RS_HELP_END};

const rs_command rs_variants_entry = {
    .name = "variants",
    .usage = "",
    .summary = "list the variants of the ladder",
    .extras = RS_X_FORMAT,
    .fn = rs_cmd_variants,
    .exits = RS_EXIT(0),
    .help = variants_help,
    .columns = 1,
};

static const char *block_rule(const rs_variant_info *vi)
{
    if (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST)) return "-";
    if (vi->flags & RS_VF_POW2_BLOCK) return "power of 2";
    if (vi->flags & RS_VF_WARP_BLOCK) return "multiple of 32";
    return "32..1024";
}

/* The list's columns, in the order CSV and JSON give them (docs/formats.md). */
static const rs_column variant_columns[] = {
    {"step", NULL, RS_CELL_INT, 4, RS_COL_RIGHT},
    {"id", NULL, RS_CELL_TEXT, 20, 0},
    {"idea", NULL, RS_CELL_TEXT, 0, RS_COL_FREE},
    {"block", "blockDim", RS_CELL_TEXT, 14, 0},
    {"grid_stride", NULL, RS_CELL_BOOL, 0, RS_COL_DATA_ONLY},
    {"default_finish", "finish", RS_CELL_TEXT, 11, 0},
    {"counter", NULL, RS_CELL_TEXT, 0, RS_COL_JSON_ONLY},
    {"racy", NULL, RS_CELL_BOOL, 0, RS_COL_JSON_ONLY},
};
#define NCOLS (int)(sizeof variant_columns / sizeof variant_columns[0])

int rs_cmd_variants(rs_cli *cli)
{
    rs_writer w;
    rs_writer_begin(&w, stdout, cli->format, "The variants of the ladder", variant_columns, NCOLS);
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        const rs_variant_info *vi = rs_catalogue_get(v);
        const rs_cell cells[NCOLS] = {
            {.i = vi->step},
            {.text = vi->name},
            {.text = vi->idea},
            {.text = block_rule(vi)},
            {.i = (vi->flags & RS_VF_GRID_STRIDE) != 0},
            {.text = vi->flags & RS_VF_FINISH ? rs_finish_name(vi->default_finish) : "-"},
            {.text = vi->counter},
            {.i = (vi->flags & RS_VF_RACY) != 0},
        };
        rs_writer_row(&w, cells);
    }
    rs_writer_end(&w);
    return 0;
}
