/* redscope(1), made from the tables: every command, its usage and each
 * option it takes (rs_cli_opts, as --help), the options several take, the
 * variants (the catalogue), the counters (the metric table), the
 * explorer's keys (the key table), the exit codes, the overview's
 * examples; the prose around them is here, and the variables the program
 * reads (test_docs finds each getenv). roff: every text escaped, every
 * non-ASCII character named (\[uXXXX]), no hyphenation (an option is never
 * broken), so groff -ww has nothing to say. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "cmd/generate.h"
#include "core/catalogue.h"
#include "core/metric_table.h"
#include "ui/keys.h"

/* text as roff reads it literally: a backslash as \e, a dot or quote that
 * starts it after \&, a line break as a space, each non-ASCII character by
 * its code point. A hyphen is \- (the minus, ASCII when copied) in an option
 * or a command (opt), and in prose where it starts an option or a number
 * ("--replay", "-v", "-1": it follows no letter or digit); "back-to-back"
 * keeps its hyphens. */
static void esc(FILE *f, const char *s, int opt)
{
    const unsigned char *p0 = (const unsigned char *)s;
    for (const unsigned char *p = p0; *p; p++) {
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-' && (opt || p == p0 || !isalnum(p[-1])))
            fputs("\\-", f);
        else if ((*p == '.' || *p == '\'') && p == p0)
            fprintf(f, "\\&%c", *p);
        else if (*p == '\n')
            fputc(' ', f);
        else if (*p < 0x80)
            fputc(*p, f);
        else { /* UTF-8: the character by its code point */
            uint32_t cp = 0;
            int more = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : 0;
            cp = *p & (0x3f >> more);
            while (more-- > 0 && (p[1] & 0xc0) == 0x80) cp = cp << 6 | (*++p & 0x3f);
            fprintf(f, "\\[u%04X]", cp);
        }
    }
}

static void option(FILE *f, const rs_cli_opt *o)
{
    fputs(".TP\n", f);
    if (o->short_opt) fprintf(f, "\\fB\\-%c\\fR, ", o->short_opt);
    fputs("\\fB\\-\\-", f);
    esc(f, o->name, 1);
    fputs("\\fR", f);
    if (o->arg) {
        fputs(o->arg_optional ? "[=\\fI" : " \\fI", f);
        esc(f, o->arg, 1);
        fputs(o->arg_optional ? "\\fR]" : "\\fR", f);
    }
    fputc('\n', f);
    esc(f, o->help, 0);
    if (o->values[0]) {
        fputs(": ", f);
        esc(f, o->values, 1);
    }
    fputs(".", f);
    if (o->def) {
        fputs(" Default: ", f);
        esc(f, o->def, 1);
        fputs(".", f);
    }
    fputc('\n', f);
}

static void commands(FILE *f)
{
    fputs(".SH COMMANDS\n", f);
    for (int i = 0; i < rs_command_count; i++) {
        const rs_command *c = rs_commands[i];
        fputs(".SS \"redscope ", f);
        esc(f, i == 0 ? "[explore]" : c->name, 1);
        fputs(" ", f);
        esc(f, c->usage, 1);
        fputs("\"\n", f);
        esc(f, c->summary, 0);
        fputs(".\n", f);
        rs_cli_opt opts[RS_CLI_OPTS_MAX];
        const int n = rs_cli_opts(c, opts, RS_CLI_OPTS_MAX);
        for (int k = 0; k < n; k++)
            if (!opts[k].hidden) option(f, &opts[k]);
    }
}

/* Each command's usage, as its help opens. */
static void synopsis(FILE *f)
{
    fputs(".SH SYNOPSIS\n", f);
    for (int i = 0; i < rs_command_count; i++) {
        const rs_command *c = rs_commands[i];
        fputs(i == 0 ? ".B redscope\n[\\fBexplore\\fR]" : ".B redscope ", f);
        if (i > 0) esc(f, c->name, 1);
        if (c->usage[0]) fputc(i == 0 ? ' ' : '\n', f), esc(f, c->usage, 1);
        fputs("\n.br\n", f);
    }
    fputs(".B redscope help\n[\\fICOMMAND\\fR]\n.br\n"
          ".B redscope \\-\\-version\n[\\fB\\-\\-format json\\fR]\n",
          f);
}

/* The commands that take option `name` where they list it, by commas into
 * by: how many. */
static int takers(const char *name, char *by, size_t len)
{
    int count = 0;
    by[0] = '\0';
    for (int i = 0; i < rs_command_count; i++) {
        rs_cli_opt opts[RS_CLI_OPTS_MAX];
        const int n = rs_cli_opts(rs_commands[i], opts, RS_CLI_OPTS_MAX);
        for (int k = 0; k < n; k++)
            if (!opts[k].hidden && strcmp(opts[k].name, name) == 0) {
                const size_t at = strlen(by);
                snprintf(by + at, len - at, "%s%s", count++ ? ", " : "", rs_commands[i]->name);
            }
    }
    return count;
}

/* The options several commands take, each once as the tables say it (a
 * command of every field and shared option, with no wording of its own),
 * and the commands that take it. */
static void shared(FILE *f)
{
    static const rs_command every = {
        .name = "", .usage = "", .summary = "", .fields = RS_ALL_FIELDS, .extras = ~0u};
    rs_cli_opt opts[RS_CLI_OPTS_MAX];
    const int n = rs_cli_opts(&every, opts, RS_CLI_OPTS_MAX);
    fputs(".SH OPTIONS\nThe options several commands take, each with the commands that take "
          "it; under COMMANDS a command may say more of how it takes one.\n",
          f);
    for (int k = 0; k < n; k++) {
        char by[512];
        const int count = takers(opts[k].name, by, sizeof by);
        if (count < 2) continue;
        option(f, &opts[k]);
        if (count == rs_command_count) {
            fputs("Every command.\n", f);
            continue;
        }
        fputs("Taken by: ", f);
        esc(f, by, 1);
        fputs(".\n", f);
    }
}

/* The ladder's steps, from the catalogue (core/variants.h). */
static void variants(FILE *f)
{
    fputs(".SH VARIANTS\nThe steps of the ladder, in its order, as \\fB\\-\\-variant\\fR "
          "and \\fB\\-\\-variants\\fR name them; \\fBredscope variants\\fR says what each "
          "accepts.\n",
          f);
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        const rs_variant_info *d = rs_catalogue_get((rs_variant)v);
        fprintf(f, ".TP\n\\fB");
        esc(f, d->name, 1);
        fprintf(f, "\\fR (step %d)\n", d->step);
        esc(f, d->idea, 0);
        fputs(".\n", f);
    }
}

static void counters(FILE *f)
{
    fputs(".SH COUNTERS\n\\fB\\-\\-metrics\\fR takes \\fBnone\\fR, \\fBdefault\\fR (the cheap "
          "set, marked below), \\fBfull\\fR (every counter) or keys separated by commas. "
          "\\fBredscope metrics\\fR says what each costs on this GPU.\n",
          f);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        fputs(".TP\n\\fB", f);
        esc(f, d->key, 1);
        fputs("\\fR (", f);
        esc(f, d->label, 0);
        fputs(", ", f);
        esc(f, d->unit, 0);
        fputs(d->in_default ? "; default)\n" : ")\n", f);
        esc(f, d->meaning, 0);
        fputc('\n', f);
    }
}

static void keys(FILE *f)
{
    fputs(".SH EXPLORER KEYS\nThe explorer (\\fBredscope\\fR with no command) answers these "
          "keys; \\fB?\\fR shows them, each on the screens where it applies.\n",
          f);
    for (int i = 0; i < ui_binding_count; i++) {
        const ui_binding *b = &ui_bindings[i];
        if (!b->help || !b->help[0]) continue;
        fputs(".TP\n\\fB", f);
        esc(f, b->label, 1);
        fputs("\\fR\n", f);
        esc(f, b->help, 0);
        fputs(" (", f);
        const char *sep = "";
        for (int s = 0; s < UI_SCREEN_COUNT; s++)
            if (b->screens & (1u << s)) {
                fprintf(f, "%s", sep);
                esc(f, ui_screen_name((ui_screen)s), 0);
                sep = ", ";
            }
        fputs(")\n", f);
    }
}

/* The lines of text after "Examples:" in the overview: one example each. */
static void examples(FILE *f)
{
    fputs(".SH EXAMPLES\nThe paths under \\fIconf/\\fR are the source tree's; installed, the "
          "same files are under \\fIPREFIX/share/redscope/\\fR.\n",
          f);
    const char *at = strstr(rs_overview_tail, "Examples:\n");
    for (const char *l = at ? strchr(at, '\n') + 1 : ""; *l == ' ';) {
        const size_t k = strcspn(l, "\n");
        char line[240];
        snprintf(line, sizeof line, "%.*s", (int)k, l);
        char *cmd = line + strspn(line, " "), *note = strstr(cmd, "   ");
        if (note) *note = '\0', note += strspn(note + 1, " ") + 1;
        fputs(note ? ".TP\n.B " : ".PP\n.B ", f); /* a note below it, or none */
        esc(f, cmd, 1);
        fputc('\n', f);
        if (note) esc(f, note, 0), fputc('\n', f);
        l += k + (l[k] == '\n');
    }
}

static const char *const environment[][2] = {
    {"REDSCOPE_DATA_DIR", "a folder holding presets/, recordings/ and kernels/ to use before the "
                          "ones found beside the program"},
    {"REDSCOPE_EVERY_GPU", "1: every GPU process sees every GPU (a process for one GPU is "
                           "otherwise started with CUDA_VISIBLE_DEVICES naming that GPU alone)"},
    {"REDSCOPE_THEME", "contrast: the high-contrast theme for a projector"},
    {"REDSCOPE_TRACE", "1: each stage of a command, with its time, on standard error"},
    {"REDSCOPE_COMPILE_SECONDS", "the time your kernel's compile may take (60 s by default)"},
    {"REDSCOPE_RENDEZVOUS_TIMEOUT", "seconds the all-reduce's ranks wait for each other"},
    {"REDSCOPE_NCCL", "the NCCL library to load (the toolkit's or the system's by default)"},
    {"REDSCOPE_NVML", "the NVML library to load (libnvidia-ml.so.1 by default)"},
    {"REDSCOPE_PROF_KEEP", "0: end CUPTI's range profiler after every collection"},
    {"NCCL_ALGO", "NCCL's algorithm for allreduce's nccl (NCCL's own choice where unset); "
                  "ring and tree set it themselves"},
    {"CUDA_HOME", "a CUDA toolkit: its include folder for your kernel's compile (the "
                  "toolkit redscope was built with by default), its bin folder for nvdisasm "
                  "and compute-sanitizer where PATH has neither (/usr/local/cuda by default)"},
    {"PATH", "where gnuplot (--plot), nvdisasm (the SASS of the Source screen) and "
             "compute-sanitizer (--check) are looked for"},
    {"CUDA_VISIBLE_DEVICES", "the GPUs CUDA sees, as CUDA reads it; device numbers count among "
                             "them"},
    {"CUDA_DEVICE_ORDER", "PCI_BUS_ID: CUDA numbers the GPUs in PCI order"},
    {"NO_COLOR", "no colors (as --no-color)"},
    {"XDG_CONFIG_HOME", "your presets are in $XDG_CONFIG_HOME/redscope/presets "
                        "(~/.config/redscope/presets without it)"},
    {"XDG_CACHE_HOME", "the cache is $XDG_CACHE_HOME/redscope (~/.cache/redscope without it)"},
    {"XDG_RUNTIME_DIR", "the speaker's notes' socket (present --notes) is "
                        "$XDG_RUNTIME_DIR/redscope/notes.sock (/tmp/redscope-UID/notes.sock "
                        "without it)"},
    {"TMPDIR", "where allreduce --nccl-tests writes nccl-tests' output while it runs (/tmp "
               "without it)"},
    {"TERM", "the terminal the explorer draws on"},
};

static void environment_section(FILE *f)
{
    fputs(".SH ENVIRONMENT\n", f);
    for (size_t i = 0; i < sizeof environment / sizeof environment[0]; i++) {
        fputs(".TP\n.B ", f);
        esc(f, environment[i][0], 1);
        fputc('\n', f);
        esc(f, environment[i][1], 0);
        fputs(".\n", f);
    }
    fputs(".PP\nThe variables named REDSCOPE_TEST_* are for redscope's own tests.\n", f);
}

static void exit_status(FILE *f)
{
    fputs(".SH EXIT STATUS\n", f);
    int code;
    const char *meaning;
    for (int i = 0; rs_cli_exit_code(i, &code, &meaning); i++) {
        fprintf(f, ".TP\n.B %d\n", code);
        esc(f, meaning, 0);
        fputs(".\n", f);
    }
}

static void files(FILE *f)
{
    fputs(".SH FILES\n.TP\n.I PREFIX/share/redscope/presets\nthe shipped presets (INI).\n"
          ".TP\n.I ~/.config/redscope/presets\nyour presets (\\fB\\-\\-save\\-preset\\fR); "
          "under \\fI$XDG_CONFIG_HOME\\fR where that is set.\n"
          ".TP\n.I PREFIX/share/redscope/recordings\nrecordings of real GPUs, for "
          "\\fB\\-\\-replay\\fR.\n.TP\n.I PREFIX/share/redscope/kernels\nexample kernels; "
          "\\fItemplate.cu\\fR is where your own starts (\\fB\\-\\-kernel\\fR).\n.TP\n"
          ".I PREFIX/lib/redscope/cubins\nthe built-in kernels' cubins, for PC sampling's "
          "source lines.\n.TP\n.I ~/.cache/redscope\nyour kernels' cubins and the SASS "
          "nvdisasm gave, kept for the next run; under \\fI$XDG_CACHE_HOME\\fR where that is "
          "set.\n.PP\nPREFIX is the folder above the one the program is in; the program finds "
          "its data from there wherever it is installed (\\fBREDSCOPE_DATA_DIR\\fR first).\n",
          f);
}

void rs_generate_man(FILE *f)
{
    fprintf(f,
            ".\\\" redscope(1): made by redscope --generate man from its tables.\n"
            ".TH REDSCOPE 1 \"\" \"redscope %s\" \"User Commands\"\n"
            ".nh\n.ad l\n.SH NAME\nredscope \\- see why a CUDA reduction kernel is fast or slow\n",
            RS_VERSION);
    synopsis(f);
    fputs(".SH DESCRIPTION\n\\fBredscope\\fR runs the classic ladder of parallel-reduction "
          "kernels live on an NVIDIA GPU, from interleaved addressing to a vectorized "
          "single-pass kernel, CUB and thrust, and shows each one's cudaEvent times beside "
          "hardware counters read through CUPTI, with an explanation of each step that quotes "
          "the numbers just measured.\n.PP\nWith no command it opens the explorer, a "
          "full-screen view for the terminal (keys below). The commands print tables, CSV, "
          "JSON, Markdown or HTML. A recording (\\fB\\-\\-record\\fR) answers the same "
          "commands and the explorer later with no GPU (\\fB\\-\\-replay\\fR).\n",
          f);
    commands(f);
    shared(f);
    variants(f);
    counters(f);
    keys(f);
    files(f);
    environment_section(f);
    exit_status(f);
    examples(f);
    fputs(".SH SEE ALSO\n.BR gnuplot (1),\n.BR nvidia\\-smi (1)\n", f);
}
