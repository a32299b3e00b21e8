/* The commands: one table drives dispatch (main.c), the help, and which
 * options each command takes (cli.c). */
#include <string.h>

#include "cli.h"
#include "cmd/cmd.h"
#include "ui/ui.h"

#define F(id)      (1ull << RS_F_##id)
#define ALL_FIELDS ((1ull << RS_FIELD_COUNT) - 1)
#define RUNS       (RS_X_FORMAT | RS_X_RECORD | RS_X_REPLAY | RS_X_PRESET | RS_X_SAVE_PRESET | RS_X_FORCE)

/* The explorer takes the configuration and a few choices, not the CLI. */
static int explore(rs_cli *cli)
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

#define AGAINST_FILE(help)                                                                         \
    {                                                                                              \
        -1, RS_X_AGAINST, help, "FILE", 0                                                          \
    }
#define OWN_END                                                                                    \
    {                                                                                              \
        0, 0, NULL, NULL, 0                                                                        \
    }

static const rs_option_help explore_own[] = {
    AGAINST_FILE("a recording to hold beside what is shown: each step's time against its on the "
                 "Ladder screen (vs A), its run as the right side on Compare (z)"),
    OWN_END};
static const rs_option_help ladder_own[] = {
    {-1, RS_X_FORMAT,
     "output: table (default), csv, json, or md or html: the lecture handout (each step's table "
     "row, why, counter and stall line)",
     NULL, 0},
    AGAINST_FILE("a recording to hold the ladder against (A, the baseline; the ladder is B): each "
                 "step's time ratio, a verdict from both runs' spread and the counters that moved "
                 "(as redscope diff)"),
    OWN_END};
static const rs_option_help sweep_own[] = {
    AGAINST_FILE("a recording to hold the sweep against (A, the baseline; the sweep is B): each "
                 "size and variant's time ratio and verdict (as redscope diff)"),
    OWN_END};
/* the all-reduce reads three fields its own way */
static const rs_option_help allreduce_own[] = {
    {RS_F_gpus, 0,
     "GPUs 0 to N-1, each holding the vector and ending with the reduction of all (0 or left "
     "out: every GPU)",
     NULL, RS_HELP_NO_DEFAULT},
    {RS_F_n, 0, "elements of the vector each GPU holds", NULL, 0},
    {RS_F_reps, 0, "timed repetitions (the mean is reported, as nccl-tests does)", NULL, 0},
    {-1, RS_X_RECORD, "also write the results as one JSON document, for --replay", NULL, 0},
    OWN_END};
static const rs_option_help compile_own[] = {{RS_F_kernel, 0, NULL, NULL, RS_HELP_HIDDEN},
                                             OWN_END}; /* its FILE.cu */
static const rs_option_help recording_own[] = {{-1, RS_X_REPLAY, NULL, NULL, RS_HELP_HIDDEN},
                                               OWN_END}; /* its FILE */

const rs_command rs_commands[] = {
    {"explore", "[options]", "the full-screen explorer (the default)", ALL_FIELDS,
     RS_X_REPLAY | RS_X_PRESET | RS_X_NO_COLOR | RS_X_AGAINST, explore, explore_own},
    {"run", "--variant ID [options]", "run one variant and print every figure",
     ALL_FIELDS & ~(F(variants) | F(sweep)), RUNS | RS_X_CHECK | RS_X_AGAINST, rs_cmd_run},
    {"ladder", "[options]", "run the ladder of variants on one configuration",
     ALL_FIELDS & ~(F(variant) | F(sweep)), RUNS | RS_X_WIDE | RS_X_AGAINST, rs_cmd_ladder,
     ladder_own},
    {"sweep", "[--variants LIST] [--range RANGE] [options]", "time variants over a range of n",
     ALL_FIELDS & ~(F(variant) | F(stalls)), RUNS | RS_X_PLOT | RS_X_AGAINST, rs_cmd_sweep,
     sweep_own},
    {"allreduce", "--gpus N [--n N | --range RANGE] [--algo LIST] [options]",
     "the all-reduce of a vector over several GPUs: NCCL, its ring and tree, a ring by hand",
     F(type) | F(op) | F(n) | F(sweep) | F(warmup) | F(reps) | F(seed) | F(gpus),
     RS_X_FORMAT | RS_X_RECORD | RS_X_REPLAY | RS_X_ALGO | RS_X_RANKS | RS_X_PLOT |
         RS_X_NCCL_TESTS | RS_X_FORCE,
     rs_cmd_allreduce, allreduce_own},
    {"compile", "FILE.cu [--type T --op OP --finish F --arch sm_XX]",
     "compile your kernel with NVRTC (no GPU needed): errors, registers, spills",
     F(type) | F(op) | F(finish) | F(kernel), RS_X_FORMAT | RS_X_ARCH, rs_cmd_compile, compile_own},
    {"devices", "[--measure | --replay FILE]",
     "list CUDA devices, or the ones a recording was made on", 0,
     RS_X_FORMAT | RS_X_MEASURE | RS_X_REPLAY, rs_cmd_devices},
    {"variants", "", "list the variants of the ladder", 0, RS_X_FORMAT, rs_cmd_variants},
    {"metrics", "[--device I]", "list the hardware counters and what they cost", F(device),
     RS_X_FORMAT, rs_cmd_metrics},
    {"presets", "", "list shipped and saved presets", 0, RS_X_FORMAT, rs_cmd_presets},
    {"recording", "FILE", "list what a recording holds: its configurations, as R shows them", 0,
     RS_X_FORMAT | RS_X_REPLAY, rs_cmd_recording, recording_own},
    {"diff", "A.jsonl B.jsonl [--fail-slower PCT]",
     "two recordings side by side: each configuration's time ratio, a verdict from both runs' "
     "spread, the counters and the stall line that moved most",
     0, RS_X_FORMAT | RS_X_FAIL_SLOWER, rs_cmd_diff},
};
const int rs_command_count = (int)(sizeof rs_commands / sizeof rs_commands[0]);

const rs_command *rs_command_find(const char *name)
{
    for (int i = 0; i < rs_command_count; i++)
        if (strcmp(rs_commands[i].name, name) == 0) return &rs_commands[i];
    return NULL;
}

const rs_option_help *rs_command_option(const char *command, int field, unsigned extra)
{
    const rs_command *c = rs_command_find(command);
    for (const rs_option_help *h = c ? c->own : NULL; h && (h->help || h->arg || h->flags); h++)
        if (field >= 0 ? h->field == field : h->field < 0 && h->extra == extra) return h;
    return NULL;
}
