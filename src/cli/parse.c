/* The command line's options: one parser for every command, driven by the
 * request's field table and the command table; and the usage it prints. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "formats/check.h"
#include "core/text.h"
#include "formats/preset.h"
#include "analysis/multi.h"

/* ---- options ----------------------------------------------------------------------- */

enum {
    OPT_FIELD = 1000, /* + field id */
    OPT_FORMAT = 2000,
    OPT_RECORD,
    OPT_REPLAY,
    OPT_PRESET,
    OPT_SAVE_PRESET,
    OPT_FORCE,
    OPT_NO_COLOR,
    OPT_MEASURE,
    OPT_PLOT,
    OPT_CHECK,
    OPT_ARCH,
    OPT_ALGO,
    OPT_RANK,
    OPT_RANKS,
    OPT_RENDEZVOUS,
    OPT_NCCL_TESTS,
    OPT_AGAINST,
    OPT_FAIL_SLOWER,
    OPT_WIDE,
    OPT_HELP,
    OPT_VERSION,
};

typedef struct extra_opt {
    const char *name;
    int has_arg;
    int val;
    const char *arg;
    const char *help;
    unsigned bit; /* RS_X_*; 0: every command (help, version) */
} extra_opt;

static const extra_opt extras[] = {
    {"format", required_argument, OPT_FORMAT, "FMT", "output: table (default), csv or json",
     RS_X_FORMAT},
    {"record", required_argument, OPT_RECORD, "FILE",
     "also write the results as JSON lines, for --replay", RS_X_RECORD},
    {"replay", required_argument, OPT_REPLAY, "FILE",
     "answer from a recording instead of the GPU (no GPU needed)", RS_X_REPLAY},
    {"preset", required_argument, OPT_PRESET, "NAME",
     "start from a preset (a name from 'redscope presets' or a path)", RS_X_PRESET},
    {"save-preset", required_argument, OPT_SAVE_PRESET, "NAME",
     "save this configuration as a user preset", RS_X_SAVE_PRESET},
    {"force", no_argument, OPT_FORCE, NULL,
     "replace an existing output file (--record, --plot) or preset, or shadow a shipped preset",
     RS_X_FORCE},
    {"no-color", no_argument, OPT_NO_COLOR, NULL, "no colors (NO_COLOR in the environment too)",
     RS_X_NO_COLOR},
    {"measure", no_argument, OPT_MEASURE, NULL, "measure each GPU's streaming-read bandwidth",
     RS_X_MEASURE},
    {"plot", required_argument, OPT_PLOT, "FILE",
     "draw the chart to FILE.svg or FILE.png (gnuplot)", RS_X_PLOT},
    {"check", required_argument, OPT_CHECK, "KIND",
     "run it under compute-sanitizer instead: race (racecheck) or memory (memcheck, initcheck)",
     RS_X_CHECK},
    {"algo", required_argument, OPT_ALGO, "LIST",
     "all-reduce algorithms, separated by commas: nccl (NCCL's choice), ring, tree (NCCL "
     "forced), peer_ring (by hand over peer copies), or all (default nccl)",
     RS_X_ALGO},
    {"rank", required_argument, OPT_RANK, "R",
     "one process per GPU: this process's rank, from 0 to ranks-1 (with --ranks, --rendezvous)",
     RS_X_RANKS},
    {"ranks", required_argument, OPT_RANKS, "N", "one process per GPU: how many processes",
     RS_X_RANKS},
    {"rendezvous", required_argument, OPT_RENDEZVOUS, "FILE",
     "one process per GPU: a path every rank sees (shared storage); rank 0 writes NCCL's id "
     "to FILE.ALGO",
     RS_X_RANKS},
    {"nccl-tests", required_argument, OPT_NCCL_TESTS, "PATH",
     "also run nccl-tests' all_reduce_perf (PATH: it, or its folder) over the same sizes, its "
     "busbw beside each",
     RS_X_NCCL_TESTS},
    {"against", required_argument, OPT_AGAINST, "VARIANT|FILE",
     "a recording to hold the run against (A, the baseline; the run is B): ratio, verdict, "
     "counters, as redscope diff; with --stalls: the stall view line by line against another "
     "variant's on the same settings, a .cu kernel's, or the recording's",
     RS_X_AGAINST},
    {"fail-slower", required_argument, OPT_FAIL_SLOWER, "PCT",
     "diff as a gate: exit 10 when a configuration of B is slower than A's beyond both runs' "
     "min..max and by more than PCT percent",
     RS_X_FAIL_SLOWER},
    {"wide", no_argument, OPT_WIDE, NULL,
     "the table with every column: each counter of the set (the default fits 120 columns, "
     "with the counter that explains each step)",
     RS_X_WIDE},
    {"arch", required_argument, OPT_ARCH, "sm_XX",
     "the GPU architecture to compile for (default sm_90)", RS_X_ARCH},
    {"help", no_argument, OPT_HELP, NULL, "this help", 0},
    {"version", no_argument, OPT_VERSION, NULL, "print the version", 0},
};
#define N_EXTRAS (int)(sizeof extras / sizeof extras[0])

static int command_takes_field(const char *command, rs_field_id id)
{
    const rs_command *c = rs_command_find(command);
    return c && (c->fields >> id) & 1;
}

/* A field's help line, as the command takes it. */
static const char *field_help(const char *command, const rs_field *fl)
{
    const rs_option_help *h = rs_command_option(command, (int)fl->id, 0);
    return h && h->help ? h->help : fl->help;
}

static int command_takes_extra(const char *command, const extra_opt *x)
{
    const rs_command *c = rs_command_find(command);
    return !x->bit || (c && (c->extras & x->bit));
}

typedef struct given {
    int code;
    const char *value;
    int word; /* a word after the options (diff's files): no option to check */
} given;

/* The words after the options: compile's files, the file recording lists. */
static rs_status positionals(const char *command, int argc, char **argv, given *out, int *count,
                             rs_error *err)
{
    /* compile FILE.cu ...: the files are its arguments */
    for (; strcmp(command, "compile") == 0 && optind < argc; optind++)
        out[(*count)++] = (given){OPT_FIELD + RS_F_kernel, argv[optind]};
    /* recording FILE: the file to list, as --replay names one */
    if (strcmp(command, "recording") == 0 && optind < argc)
        out[(*count)++] = (given){OPT_REPLAY, argv[optind++]};
    /* diff A B: the two recordings, A as --replay names one, B as --against */
    if (strcmp(command, "diff") == 0 && optind < argc)
        out[(*count)++] = (given){OPT_REPLAY, argv[optind++], 1};
    if (strcmp(command, "diff") == 0 && optind < argc)
        out[(*count)++] = (given){OPT_AGAINST, argv[optind++], 1};
    if (optind < argc)
        return rs_fail(err, RS_E_USAGE, "unexpected argument '%s' (see: redscope %s --help)",
                       argv[optind], command);
    return RS_OK;
}

static rs_status collect(const char *command, int argc, char **argv, given *out, int *count,
                         rs_error *err)
{
    struct option longs[RS_FIELD_COUNT + N_EXTRAS + 1];
    char shorts[3 * RS_FIELD_COUNT + 8];
    int nl = 0, ns = 0;
    shorts[ns++] = ':'; /* report a missing argument as ':' */
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        if (!f->flag) continue;
        longs[nl++] = (struct option){f->flag, f->implied ? optional_argument : required_argument,
                                      NULL, OPT_FIELD + i};
        if (f->short_opt) {
            shorts[ns++] = (char)f->short_opt;
            shorts[ns++] = ':';
            if (f->implied) shorts[ns++] = ':';
        }
    }
    for (int i = 0; i < N_EXTRAS; i++)
        longs[nl++] = (struct option){extras[i].name, extras[i].has_arg, NULL, extras[i].val};
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    shorts[ns++] = 'h';
    shorts[ns] = '\0';
    /* 0, not 1: glibc's full reset. With 1 it keeps its place inside the
     * last call's word when that call stopped in a cluster ("-52": '5' is
     * refused, "2" is left), and the next call goes on from there, in an
     * argv that may be gone (fuzz_cli found it). */
    optind = 0;
    opterr = 0;
    *count = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == '?' || c == ':') {
            /* A short option is named from optopt: inside a cluster ("-Zv")
             * optind is still on an earlier word, which argv[optind - 1]
             * would name instead (fuzz_cli found it). A long option's
             * optopt is 0 or its code, and optind is past its word. */
            const char letter[3] = {'-', (char)optopt, '\0'};
            const char *bad = optopt != 0 && optopt < OPT_FIELD ? letter : argv[optind - 1];
            if (c == ':')
                return rs_fail(err, RS_E_USAGE,
                               "option '%s' needs a value (see: redscope %s --help)", bad, command);
            return rs_fail(err, RS_E_USAGE, "unknown option '%s' (see: redscope %s --help)", bad,
                           command);
        }
        if (c == 'h') {
            c = OPT_HELP;
        } else if (c < OPT_FIELD) {
            const rs_field *f = rs_field_by_short(c);
            if (f) c = OPT_FIELD + (int)f->id;
        }
        const char *value = optarg;
        /* "--metrics full" as well as "--metrics=full": an optional value may
         * follow as the next word when the field accepts it, or where the
         * command takes no words of its own (a misspelt set is named as one). */
        if (!value && c >= OPT_FIELD && c < OPT_FIELD + RS_FIELD_COUNT && optind < argc &&
            argv[optind][0] != '-') {
            rs_request probe;
            rs_request_defaults(&probe);
            const int words = strcmp(command, "compile") == 0 ||
                              strcmp(command, "recording") == 0 || strcmp(command, "diff") == 0;
            if (!words ||
                rs_field_set(&probe, &rs_fields[c - OPT_FIELD], argv[optind], NULL) == RS_OK)
                value = argv[optind++];
        }
        out[(*count)++] = (given){c, value};
    }
    return positionals(command, argc, argv, out, count, err);
}

static rs_status add_kernel(rs_cli *cli, const char *path, rs_error *err)
{
    if (cli->nkernels == RS_UKERNEL_MAX_FILES)
        return rs_fail(err, RS_E_USAGE, "at most %d --kernel files at once", RS_UKERNEL_MAX_FILES);
    cli->kernels[cli->nkernels++] = path;
    /* the request names the first file; the others are rows of their own */
    snprintf(cli->req.kernel, sizeof cli->req.kernel, "%s", cli->kernels[0]);
    return RS_OK;
}

static rs_status parse_arch(const char *v, int *arch, rs_error *err)
{
    char *end = NULL;
    const char *digits = v && strncmp(v, "sm_", 3) == 0 ? v + 3 : v ? v : "";
    const long a = strtol(digits, &end, 10);
    if (!*digits || *end || a < 50 || a > 130)
        return rs_fail(err, RS_E_USAGE, "bad --arch '%s': expected sm_XX, like sm_90 or sm_80",
                       v ? v : "");
    *arch = (int)a;
    return RS_OK;
}

static rs_status parse_count(const char *v, const char *opt, long lo, long hi, int *out,
                             rs_error *err)
{
    char *end = NULL;
    const long k = strtol(v, &end, 10);
    if (!*v || *end || k < lo || k > hi)
        return rs_fail(err, RS_E_USAGE, "bad %s '%s': expected a whole number from %ld to %ld", opt,
                       v, lo, hi);
    *out = (int)k;
    return RS_OK;
}

static rs_status parse_algos(const char *v, unsigned *algos, rs_error *err)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    *algos = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " "); /* blanks around a name are not part of it, as in --variants */
        for (size_t n = strlen(t); n && t[n - 1] == ' ';) t[--n] = '\0';
        const int a = rs_ar_algo_parse(t);
        if (strcmp(t, "all") == 0)
            *algos |= (1u << RS_AR_ALGO_COUNT) - 1;
        else if (a < 0)
            return rs_fail(err, RS_E_USAGE,
                           "bad --algo '%s': expected nccl, ring, tree, peer_ring or all", t);
        else
            *algos |= 1u << a;
    }
    if (!*algos) return rs_fail(err, RS_E_USAGE, "bad --algo '%s': name at least one algorithm", v);
    return RS_OK;
}

/* An option besides the request's fields, into cli. */
static rs_status set_extra(rs_cli *cli, int c, const char *v, rs_error *err)
{
    switch (c) {
    case OPT_FORMAT: {
        const int doc = v && strcmp(v, "md") == 0 ? 1 : v && strcmp(v, "html") == 0 ? 2 : 0;
        if (doc && strcmp(cli->command, "ladder") != 0)
            return rs_fail(err, RS_E_USAGE,
                           "--format %s is the ladder's handout: redscope ladder --format %s "
                           "(here: table, csv or json)",
                           v, v);
        cli->handout = doc;
        if (doc) break;
        const int fmt = rs_format_from_name(v);
        cli->format = fmt < 0 ? RS_FMT_TABLE : (rs_format)fmt;
        if (fmt < 0)
            return rs_fail(err, RS_E_USAGE, "bad --format '%s': expected table, csv or json%s", v,
                           strcmp(cli->command, "ladder") == 0 ? ", or md or html (the handout)"
                                                               : "");
        break;
    }
    case OPT_RECORD: cli->record = v; break;
    case OPT_REPLAY: cli->replay = v; break;
    case OPT_SAVE_PRESET: cli->save_preset = v; break;
    case OPT_FORCE: cli->force = 1; break;
    case OPT_NO_COLOR: cli->no_color = 1; break;
    case OPT_MEASURE: cli->measure = 1; break;
    case OPT_WIDE: cli->wide = 1; break;
    case OPT_PLOT: cli->plot = v; break;
    case OPT_ARCH: return parse_arch(v, &cli->arch, err);
    case OPT_ALGO: return parse_algos(v, &cli->algos, err);
    case OPT_RANK: return parse_count(v, "--rank", 0, 1023, &cli->rank, err);
    case OPT_RANKS: return parse_count(v, "--ranks", 1, 1024, &cli->ranks, err);
    case OPT_RENDEZVOUS: cli->rendezvous = v; break;
    case OPT_NCCL_TESTS: cli->nccl_tests = v; break;
    case OPT_AGAINST: cli->against = v; break;
    case OPT_FAIL_SLOWER: return parse_count(v, "--fail-slower", 0, 100000, &cli->fail_slower, err);
    case OPT_CHECK:
        cli->check = rs_check_from_name(v);
        if (cli->check < 0)
            return rs_fail(err, RS_E_USAGE, "bad --check '%s': expected race or memory", v);
        break;
    default: break;
    }
    return RS_OK;
}

/* No word of the command line holds a control character, a bidirectional
 * control or bytes that are not UTF-8: a value is echoed in messages and
 * tables, and a file name is written or read; a newline there would forge
 * a line. */
static rs_status plain_words(int argc, char **argv, rs_error *err)
{
    for (int i = 1; i < argc; i++) {
        char safe[512];
        if (!rs_text_plain(argv[i]))
            return rs_fail(err, RS_E_USAGE,
                           "'%s' holds a control character or bytes that are not text: give "
                           "plain text",
                           rs_text_safe(argv[i], 0, safe, sizeof safe));
    }
    return RS_OK;
}

/* One rule for every value: blanks around it are not part of it ("--n= 1024",
 * "--range ' 2^10..2^12'", "--type 'int32 '"); a word is trimmed in place. */
static void trim_words(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char *w = argv[i];
        char *eq = strncmp(w, "--", 2) == 0 ? strchr(w, '=') : NULL;
        char *v = eq ? eq + 1 : w;
        const size_t lead = strspn(v, " ");
        memmove(v, v + lead, strlen(v + lead) + 1);
        size_t n = strlen(v);
        while (n && v[n - 1] == ' ') v[--n] = '\0';
    }
}

rs_status rs_cli_parse(rs_cli *cli, const char *command, int argc, char **argv, rs_error *err)
{
    memset(cli, 0, sizeof *cli);
    cli->gpus = -1;
    cli->fail_slower = -1;
    cli->rank = -1;
    cli->command = command;
    rs_request_defaults(&cli->req);
    /* One option per character, not per word: "-hhh" is three options,
     * and one word each overflowed (fuzz_cli found it). */
    size_t cap = 1;
    for (int i = 1; i < argc; i++) cap += strlen(argv[i]) + 1; /* + a file word of compile */
    given *opts = calloc(cap, sizeof *opts);
    if (!opts) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    int count = 0;
    rs_status st = plain_words(argc, argv, err);
    trim_words(argc, argv);
    if (st == RS_OK) st = collect(command, argc, argv, opts, &count, err);
    /* The preset first, then every flag on top of it, whatever the order. */
    for (int i = 0; st == RS_OK && i < count; i++) {
        if (opts[i].code == OPT_HELP) cli->help = 1;
        if (opts[i].code == OPT_VERSION) cli->version = 1;
        if (opts[i].code == OPT_PRESET) cli->preset = opts[i].value;
    }
    if (st == RS_OK && cli->preset && !cli->help) {
        char path[RS_PATH_MAX];
        st = rs_preset_resolve(cli->preset, path, sizeof path, err);
        if (st == RS_OK) st = rs_preset_read_file(path, &cli->req, err);
    }
    for (int i = 0; st == RS_OK && !cli->help && i < count; i++) {
        const int c = opts[i].code;
        const char *v = opts[i].value;
        if (c >= OPT_FIELD && c < OPT_FIELD + RS_FIELD_COUNT) {
            const rs_field *f = &rs_fields[c - OPT_FIELD];
            if (!command_takes_field(command, f->id)) {
                const int other = f->id == RS_F_variants  ? RS_F_variant
                                  : f->id == RS_F_variant ? RS_F_variants
                                                          : -1;
                char hint[48] = ""; /* the other one, where this command takes it */
                if (other >= 0 && command_takes_field(command, (rs_field_id)other))
                    snprintf(hint, sizeof hint, " (use --%s)", rs_fields[other].flag);
                st = rs_fail(err, RS_E_USAGE, "'%s' takes no --%s%s", command, f->flag, hint);
                break;
            }
            char flag[48]; /* a bad value is named as given: the flag, not the preset key */
            snprintf(flag, sizeof flag, "--%s", f->flag);
            st = rs_field_set_as(&cli->req, f, v ? v : f->implied, flag, err);
            cli->set[f->id] = 1;
            if (st == RS_OK && f->id == RS_F_kernel) st = add_kernel(cli, v, err);
            if (st == RS_OK && f->id == RS_F_gpus) cli->gpus = (int)cli->req.gpus;
            continue;
        }
        for (int k = 0; k < N_EXTRAS && !opts[i].word; k++)
            if (extras[k].val == c && !command_takes_extra(command, &extras[k]))
                st = rs_fail(err, RS_E_USAGE, "'%s' takes no --%s", command, extras[k].name);
        if (st != RS_OK) break;
        st = set_extra(cli, c, v, err);
    }
    free(opts);
    return st;
}

/* An option's help, as the command takes it. */
static const char *extra_help(const char *command, const extra_opt *x)
{
    const rs_option_help *h = rs_command_option(command, -1, x->bit);
    return h && h->help ? h->help : x->help;
}

void rs_cli_usage(FILE *f, const char *command)
{
    if (!command) {
        fprintf(f, "redscope: see why a CUDA reduction is fast or slow.\n\n"
                   "usage: redscope [COMMAND] [options]\n\ncommands:\n");
        for (int i = 0; i < rs_command_count; i++)
            fprintf(f, "  %-10s %s\n", rs_commands[i].name, rs_commands[i].summary);
        fprintf(f,
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
                "  interrupted\n");
        return;
    }
    const rs_command *c = rs_command_find(command);
    if (!c) return;
    fprintf(f, "usage: redscope %s %s\n%s.\n\noptions:\n",
            strcmp(command, "explore") == 0 ? "[explore]" : command, c->usage, c->summary);
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *fl = &rs_fields[i];
        if (!fl->flag || !command_takes_field(command, fl->id)) continue;
        const rs_option_help *own = rs_command_option(command, (int)fl->id, 0);
        if (own && (own->flags & RS_HELP_HIDDEN)) continue; /* a word of its own: FILE.cu */
        char left[64];
        if (fl->short_opt)
            snprintf(left, sizeof left, "-%c, --%s%s%s%s", fl->short_opt, fl->flag,
                     fl->implied ? "[=" : " ", fl->argname, fl->implied ? "]" : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s%s", fl->flag, fl->implied ? "[=" : " ",
                     fl->argname, fl->implied ? "]" : "");
        char values[160];
        rs_field_values(fl, values, sizeof values);
        fprintf(f, "  %-26s %s%s%s", left, field_help(command, fl), values[0] ? ": " : "", values);
        const int own_default = own && (own->flags & RS_HELP_NO_DEFAULT); /* every GPU */
        if (fl->def && *fl->def && !own_default) fprintf(f, " [%s]", fl->def);
        fprintf(f, "\n");
    }
    for (int i = 0; i < N_EXTRAS; i++) {
        const extra_opt *x = &extras[i];
        if (!command_takes_extra(command, x)) continue;
        const rs_option_help *own = rs_command_option(command, -1, x->bit);
        if (own && (own->flags & RS_HELP_HIDDEN)) continue; /* a word of its own: FILE */
        const char *arg = own && own->arg ? own->arg : x->arg;
        char left[64];
        snprintf(left, sizeof left, "    --%s%s%s", x->name, arg ? " " : "", arg ? arg : "");
        fprintf(f, "  %-26s %s\n", left, extra_help(command, x));
    }
}
