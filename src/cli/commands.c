/* The commands: each one's entry opens its own file in src/cmd/ (name,
 * usage, fields, shared and own options, words, formats, function); this
 * table only lists them, in the order the overview shows, the one run
 * without a name first. */
#include <string.h>

#include "cli.h"
#include "cmd/cmd.h"

const rs_command *const rs_commands[] = {
    &rs_explore_entry,   &rs_run_entry,     &rs_ladder_entry,    &rs_sweep_entry,
    &rs_allreduce_entry, &rs_compile_entry, &rs_devices_entry,   &rs_variants_entry,
    &rs_metrics_entry,   &rs_presets_entry, &rs_recording_entry, &rs_diff_entry,
};
const int rs_command_count = (int)(sizeof rs_commands / sizeof rs_commands[0]);

/* What the overview (redscope --help) says after the list of commands. */
const char rs_overview_tail[] =
    "\n'redscope COMMAND --help' lists a command's options.\n"
    "Examples:\n"
    "  redscope                                   the explorer\n"
    "  redscope run --variant sequential --n 2^24 --metrics\n"
    "  redscope ladder --type float32 --n 16M --format csv\n"
    "  redscope ladder --preset harris-2007\n"
    "  redscope run --variant unroll_warp_volatile --check race\n"
    "  redscope compile conf/kernels/template.cu --type float32\n"
    "  redscope ladder --kernel conf/kernels/fast.cu --n 2^24\n"
    "  redscope --replay conf/recordings/h200-demo.jsonl\n"
    "  redscope ladder --gpus 2 --n 2^28\n"
    "  redscope allreduce --gpus 2 --algo all --range 2..2^28:4\n"
    "  redscope diff conf/recordings/h100-kernels.jsonl "
    "conf/recordings/h200-demo.jsonl\n"
    "\nexit codes: 0 ok, 1 a wrong result, 2 bad arguments, a refused configuration\n"
    "  or a --replay that finds nothing asked for, 3 no NVIDIA driver (or no NCCL,\n"
    "  for what needs it), 4 no CUDA device, 5 out of memory, 6 CUDA error,\n"
    "  7 file error, 8 your kernel faulted or ran past --timeout, 9 a --check found\n"
    "  races or memory errors, 10 diff --fail-slower found a slower step, 130\n"
    "  interrupted\n";

const rs_command *rs_command_find(const char *name)
{
    for (int i = 0; name && i < rs_command_count; i++)
        if (strcmp(rs_commands[i]->name, name) == 0) return rs_commands[i];
    return NULL;
}

const rs_option_help *rs_command_option(const rs_command *c, int field, unsigned extra)
{
    for (const rs_option_help *h = c ? c->help : NULL; h && (h->help || h->arg || h->flags); h++)
        if (field >= 0 ? h->field == field : h->field < 0 && h->extra == extra) return h;
    return NULL;
}
