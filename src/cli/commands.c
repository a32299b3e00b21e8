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
    &rs_present_entry,
};
const int rs_command_count = (int)(sizeof rs_commands / sizeof rs_commands[0]);

/* What the overview (redscope --help) says after the list of commands. */
const char rs_overview_tail[] = "\n'redscope COMMAND --help' lists a command's options.\n"
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
                                "";

/* Every exit code and what it means; each command's entry says which it
 * gives (exits), its help lists those, the overview all. */
static const struct {
    int code;
    const char *meaning;
} exit_codes[] = {
    {0, "ok"},
    {RS_E_MISMATCH, "a wrong result"},
    {RS_E_USAGE, "bad arguments, a refused configuration, a kernel that does not compile or "
                 "breaks the contract, an output redscope will not write (it "
                 "exists and no --force, a link, not a regular file, a shipped preset's name, the "
                 "file being read), or nothing asked for in a recording"},
    {RS_E_NODRIVER, "no NVIDIA driver (or no NCCL, for what needs it)"},
    {RS_E_NODEVICE, "no CUDA device"},
    {RS_E_NOMEM, "out of memory"},
    {RS_E_CUDA, "CUDA error"},
    {RS_E_IO, "a file could not be read (missing, not a regular file, too large, or a recorded "
              "figure out of range) or written (no permission, no room)"},
    {RS_E_KERNEL, "your kernel faulted or ran past --timeout"},
    {RS_E_FOUND, "a --check found races or memory errors"},
    {RS_E_SLOWER, "diff --fail-slower found a step slower, wrong or missing in B"},
    {RS_E_TERMINAL, "the terminal cannot show the explorer (TERM unknown or without a cursor)"},
    {RS_E_CANCELLED, "interrupted"},
};

int rs_cli_exit_code(int i, int *code, const char **meaning)
{
    if (i < 0 || i >= (int)(sizeof exit_codes / sizeof exit_codes[0])) return 0;
    *code = exit_codes[i].code;
    *meaning = exit_codes[i].meaning;
    return 1;
}

void rs_cli_exit_codes(FILE *f, unsigned exits)
{
    fprintf(f, "exit codes:\n");
    for (size_t i = 0; i < sizeof exit_codes / sizeof exit_codes[0]; i++)
        if (exits & RS_EXIT(exit_codes[i].code))
            fprintf(f, "  %-4d %s\n", exit_codes[i].code, exit_codes[i].meaning);
}

/* Edits (insert, delete, change, swap of two) from a to b; 9 past 8. */
static int edits(const char *a, const char *b)
{
    const size_t n = strlen(a), m = strlen(b);
    if (n > 32 || m > 32) return 9;
    int d[33][33];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

const rs_command *rs_command_near(const char *name)
{
    const rs_command *best = NULL;
    int most = strlen(name ? name : "") > 4 ? 2 : 1, fewest = most + 1;
    for (int i = 0; name && i < rs_command_count; i++) {
        const int e = edits(name, rs_commands[i]->name);
        if (e <= most && e < fewest) best = rs_commands[i], fewest = e;
    }
    return best;
}

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

void rs_cli_unknown_command(const char *name)
{
    const rs_command *near = rs_command_near(name);
    if (near)
        rs_cli_error("unknown command '%s': did you mean '%s'? (see: redscope --help)", name,
                     near->name);
    else
        rs_cli_error("unknown command '%s' (see: redscope --help)", name);
}
