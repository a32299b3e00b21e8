/* redscope [explore]: the full-screen explorer, the command run when none
 * is named. It takes the configuration and a few choices, not the CLI. */
#include "cli/cli.h"
#include "cmd.h"
#include "ui/ui.h"

static const rs_option_help explore_help[] = {
    {-1, RS_X_AGAINST,
     "a recording to hold beside what is shown: each step's time against its on the Ladder "
     "screen (vs A), its run as the right side on Compare (z)",
     "FILE", 0},
    RS_HELP_END};

const rs_command rs_explore_entry = {
    .name = "explore",
    .usage = "[options]",
    .summary = "the full-screen explorer (the default)",
    .fields = RS_ALL_FIELDS,
    .extras = RS_X_REPLAY | RS_X_PRESET | RS_X_NO_COLOR | RS_X_AGAINST,
    .fn = rs_cmd_explore,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_IO) | RS_EXIT(RS_E_TERMINAL),
    .help = explore_help,
};

int rs_cmd_explore(rs_cli *cli)
{
    const int *set = cli->set;
    const ui_options opt = {
        .req = cli->req,
        .metrics_given = set[RS_F_metrics],
        .preset = cli->preset,
        .replay = cli->replay,
        .against = cli->against,
        .ask = cli->preset
                   ? UI_ASK_ALL
                   : (set[RS_F_type] ? UI_ASK_TYPE : 0u) | (set[RS_F_op] ? UI_ASK_OP : 0u) |
                         (set[RS_F_n] ? UI_ASK_N : 0u) | (set[RS_F_block] ? UI_ASK_BLOCK : 0u),
        .no_color = cli->no_color,
    };
    return ui_main(&opt);
}
