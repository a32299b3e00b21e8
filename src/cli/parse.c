/* The command line's options: one parser for every command, driven by the
 * request's field table and the command table; and the usage it prints. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "formats/check.h"
#include "core/text.h"
#include "formats/preset.h"
#include "formats/record.h"
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
    OPT_PLOT,
    OPT_AGAINST,
    OPT_HELP,
    OPT_VERSION,
    OPT_OWN = 3000,   /* + the index of the command's own option */
    OPT_OTHER = 4000, /* + the index of another command's, in others[] */
};

typedef struct extra_opt {
    const char *name;
    int has_arg;
    int val;
    const char *arg;
    const char *help;
    unsigned bit; /* RS_X_*; 0: every command (help, version) */
} extra_opt;

/* The options several commands share; a command's own are in its entry. */
static const extra_opt extras[] = {
    {"format", required_argument, OPT_FORMAT, "FMT",
     "output: table (default), csv, json, md or html", RS_X_FORMAT},
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
    {"plot", required_argument, OPT_PLOT, "FILE",
     "draw the chart to FILE.svg or FILE.png (gnuplot)", RS_X_PLOT},
    {"against", required_argument, OPT_AGAINST, "VARIANT|FILE",
     "a recording to hold the run against (A, the baseline; the run is B): ratio, verdict, "
     "counters, as redscope diff; with --stalls: the stall view line by line against another "
     "variant's on the same settings, a .cu kernel's, or the recording's",
     RS_X_AGAINST},
};
#define N_EXTRAS (int)(sizeof extras / sizeof extras[0])

/* help and version: every command's */
static const extra_opt always[] = {
    {"help", no_argument, OPT_HELP, NULL, "this help", 0},
    {"version", no_argument, OPT_VERSION, NULL, "print the version", 0},
};
#define N_ALWAYS (int)(sizeof always / sizeof always[0])

/* Every command's own options, each name once: getopt knows them all, so
 * another command's option is refused as one ("'run' takes no --measure"),
 * not as unknown. */
#define OTHERS_MAX 64
static const rs_cmd_option *others[OTHERS_MAX];
static int other_count;

static void find_others(void)
{
    other_count = 0;
    for (int i = 0; i < rs_command_count; i++)
        for (const rs_cmd_option *o = rs_commands[i]->options; o && o->name; o++) {
            int seen = 0;
            for (int k = 0; k < other_count; k++) seen |= strcmp(others[k]->name, o->name) == 0;
            if (!seen && other_count < OTHERS_MAX) others[other_count++] = o;
        }
}

/* The command's own options: how many. */
static int own_count(const rs_command *c)
{
    int n = 0;
    while (c->options && c->options[n].name) n++;
    return n;
}

static int command_takes_field(const rs_command *c, rs_field_id id)
{
    return c && (c->fields >> id) & 1;
}

/* A field's help line, as the command takes it. */
static const char *field_help(const rs_command *c, const rs_field *fl)
{
    const rs_option_help *h = rs_command_option(c, (int)fl->id, 0);
    return h && h->help ? h->help : fl->help;
}

static int command_takes_extra(const rs_command *c, const extra_opt *x)
{
    return !x->bit || (c && (c->extras & x->bit));
}

typedef struct given {
    int code;
    const char *value;
    int word; /* a word after the options (diff's files): no option to check */
} given;

/* The words after the options, into the fields or shared options the
 * command's entry names for them. */
static rs_status positionals(const rs_command *c, int argc, char **argv, given *out, int *count,
                             rs_error *err)
{
    for (int w = 0; w < RS_CMD_WORDS_MAX && (c->words[w].field || c->words[w].extra); w++) {
        const rs_cmd_word *cw = &c->words[w];
        int code = OPT_FIELD + cw->field;
        for (int k = 0; cw->field < 0 && k < N_EXTRAS; k++)
            if (extras[k].bit == cw->extra) code = extras[k].val;
        for (int once = 1; optind < argc && (once || cw->many); once = 0)
            out[(*count)++] = (given){code, argv[optind++], 1};
    }
    if (optind < argc)
        return rs_fail(err, RS_E_USAGE, "unexpected argument '%s' (see: redscope %s --help)",
                       argv[optind], c->name);
    return RS_OK;
}

/* getopt's long options: the fields, the shared options, the command's
 * own, help and version. */
static int long_options(const rs_command *c, struct option *longs, char *shorts)
{
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
    for (int i = 0; i < own_count(c); i++)
        longs[nl++] =
            (struct option){c->options[i].name, c->options[i].arg ? required_argument : no_argument,
                            NULL, OPT_OWN + i};
    for (int i = 0; i < N_ALWAYS; i++)
        longs[nl++] = (struct option){always[i].name, always[i].has_arg, NULL, always[i].val};
    for (int k = 0; k < other_count; k++) {
        int own = 0;
        for (int i = 0; i < own_count(c); i++)
            own |= strcmp(c->options[i].name, others[k]->name) == 0;
        if (!own)
            longs[nl++] =
                (struct option){others[k]->name, others[k]->arg ? required_argument : no_argument,
                                NULL, OPT_OTHER + k};
    }
    longs[nl] = (struct option){NULL, 0, NULL, 0};
    shorts[ns++] = 'h';
    shorts[ns] = '\0';
    return nl;
}

/* An option getopt did not take, named: a short one from optopt (inside a
 * cluster, "-Zv", optind is still on an earlier word: fuzz_cli found it),
 * a long one from its word. */
static rs_status refused(const rs_command *c, int code, int argc, char **argv, rs_error *err)
{
    (void)argc;
    const char letter[3] = {'-', (char)optopt, '\0'};
    const char *bad = optopt != 0 && optopt < OPT_FIELD ? letter : argv[optind - 1];
    if (code == ':')
        return rs_fail(err, RS_E_USAGE, "option '%s' needs a value (see: redscope %s --help)", bad,
                       c->name);
    return rs_fail(err, RS_E_USAGE, "unknown option '%s' (see: redscope %s --help)", bad, c->name);
}

static rs_status collect(const rs_command *c, int argc, char **argv, given *out, int *count,
                         rs_error *err)
{
    struct option longs[RS_FIELD_COUNT + N_EXTRAS + N_ALWAYS + 32 + OTHERS_MAX + 1];
    char shorts[3 * RS_FIELD_COUNT + 8];
    if (own_count(c) > 32) return rs_fail(err, RS_E_USAGE, "%s: too many options", c->name);
    long_options(c, longs, shorts);
    /* 0, not 1: glibc's full reset. With 1 it keeps its place inside the
     * last call's word when that call stopped in a cluster ("-52": '5' is
     * refused, "2" is left), and the next call goes on from there, in an
     * argv that may be gone (fuzz_cli found it). */
    optind = 0;
    opterr = 0;
    *count = 0;
    int code;
    while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (code == '?' || code == ':') return refused(c, code, argc, argv, err);
        if (code == 'h') {
            code = OPT_HELP;
        } else if (code < OPT_FIELD) {
            const rs_field *f = rs_field_by_short(code);
            if (f) code = OPT_FIELD + (int)f->id;
        }
        const char *value = optarg;
        /* "--metrics full" as well as "--metrics=full": an optional value may
         * follow as the next word when the field accepts it, or where the
         * command takes no words of its own (a misspelt set is named as one). */
        if (!value && code >= OPT_FIELD && code < OPT_FIELD + RS_FIELD_COUNT && optind < argc &&
            argv[optind][0] != '-') {
            rs_request probe;
            rs_request_defaults(&probe);
            const int words = c->words[0].field || c->words[0].extra;
            if (!words ||
                rs_field_set(&probe, &rs_fields[code - OPT_FIELD], argv[optind], NULL) == RS_OK)
                value = argv[optind++];
        }
        out[(*count)++] = (given){code, value, 0};
    }
    return positionals(c, argc, argv, out, count, err);
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

rs_status rs_cli_whole_number(const char *v, const char *opt, long lo, long hi, int *out,
                              rs_error *err)
{
    char *end = NULL;
    const long k = strtol(v ? v : "", &end, 10);
    if (!v || !*v || *end || k < lo || k > hi)
        return rs_fail(err, RS_E_USAGE, "bad %s '%s': expected a whole number from %ld to %ld", opt,
                       v ? v : "", lo, hi);
    *out = (int)k;
    return RS_OK;
}

/* --format: a writer's name (formats/writer.c), the one check. */
static rs_status set_format(rs_cli *cli, const char *v, rs_error *err)
{
    const int fmt = rs_format_from_name(v);
    if (fmt < 0)
        return rs_fail(err, RS_E_USAGE, "bad --format '%s': expected %s", v ? v : "",
                       rs_format_names());
    /* A command whose report is text gives the table's text to the formats
     * people read, and CSV or JSON as itself: no other data format. */
    if (cli->cmd && !cli->cmd->columns && rs_format_text((rs_format)fmt) == RS_FMT_COUNT)
        return rs_fail(err, RS_E_USAGE,
                       "%s cannot give --format %s: its report is a table, csv or json (md "
                       "and html hold the table)",
                       cli->cmd->name, v);
    cli->format = (rs_format)fmt;
    return RS_OK;
}

/* A shared option into cli, or the command's own into its struct. */
static rs_status set_extra(rs_cli *cli, int c, const char *v, rs_error *err)
{
    if (c >= OPT_OWN && c < OPT_OWN + own_count(cli->cmd)) {
        const rs_cmd_option *o = &cli->cmd->options[c - OPT_OWN];
        return o->set ? o->set(cli->own, v, err) : RS_OK;
    }
    switch (c) {
    case OPT_FORMAT: return set_format(cli, v, err);
    case OPT_RECORD: cli->record = v; break;
    case OPT_REPLAY: cli->replay = v; break;
    case OPT_SAVE_PRESET: cli->save_preset = v; break;
    case OPT_FORCE: cli->force = 1; break;
    case OPT_NO_COLOR: cli->no_color = 1; break;
    case OPT_PLOT: cli->plot = v; break;
    case OPT_AGAINST: cli->against = v; break;
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

/* The word command c takes for field id besides the field's values, where
 * v is one; NULL otherwise. */
static const rs_field_word *field_word(const rs_command *c, rs_field_id id, const char *v)
{
    for (const rs_field_word *w = c ? c->field_words : NULL; v && w && w->word; w++)
        if (w->field == (int)id && strcmp(w->word, v) == 0) return w;
    return NULL;
}

/* A value refused that another command takes as its own word for the
 * field: the refusal names it ("--cache both" is a sweep's). */
static void word_elsewhere(const rs_field *f, const char *v, rs_error *err)
{
    for (int i = 0; i < rs_command_count; i++) {
        if (!field_word(rs_commands[i], f->id, v)) continue;
        const size_t at = strlen(err->msg);
        snprintf(err->msg + at, sizeof err->msg - at, "; '%s' is %s's alone: redscope %s --%s %s",
                 v, rs_commands[i]->name, rs_commands[i]->name, f->flag, v);
        return;
    }
}

/* A field into the request, where the command takes it. */
static rs_status set_field(rs_cli *cli, const rs_field *f, const char *v, rs_error *err)
{
    const rs_command *c = cli->cmd;
    if (!command_takes_field(c, f->id)) {
        const int other = f->id == RS_F_variants  ? RS_F_variant
                          : f->id == RS_F_variant ? RS_F_variants
                                                  : -1;
        char hint[48] = ""; /* the other one, where this command takes it */
        if (other >= 0 && command_takes_field(c, (rs_field_id)other))
            snprintf(hint, sizeof hint, " (use --%s)", rs_fields[other].flag);
        return rs_fail(err, RS_E_USAGE, "'%s' takes no --%s%s", c->name, f->flag, hint);
    }
    char flag[48]; /* a bad value is named as given: the flag, not the preset key */
    snprintf(flag, sizeof flag, "--%s", f->flag);
    const rs_field_word *word = field_word(c, f->id, v);
    cli->set[f->id] = 1;
    for (const rs_field_word *w = c->field_words; w && w->word; w++) /* the last value holds */
        if (w->field == (int)f->id) *(int *)((char *)cli->own + w->at) = w == word;
    if (word) return RS_OK;
    rs_status st = rs_field_set_as(&cli->req, f, v ? v : f->implied, flag, err);
    if (st != RS_OK) word_elsewhere(f, v, err);
    if (st == RS_OK && f->id == RS_F_kernel) st = add_kernel(cli, v, err);
    return st;
}

/* One option given: a field, a shared option the command takes, its own. */
static rs_status take(rs_cli *cli, const given *g, rs_error *err)
{
    const rs_command *c = cli->cmd;
    if (g->code >= OPT_FIELD && g->code < OPT_FIELD + RS_FIELD_COUNT)
        return set_field(cli, &rs_fields[g->code - OPT_FIELD], g->value, err);
    if (g->code >= OPT_OTHER && g->code < OPT_OTHER + other_count)
        return rs_fail(err, RS_E_USAGE, "'%s' takes no --%s", c->name,
                       others[g->code - OPT_OTHER]->name);
    for (int k = 0; k < N_EXTRAS && !g->word; k++)
        if (extras[k].val == g->code && !command_takes_extra(c, &extras[k]))
            return rs_fail(err, RS_E_USAGE, "'%s' takes no --%s", c->name, extras[k].name);
    return set_extra(cli, g->code, g->value, err);
}

/* The preset first, then every flag on top of it, whatever the order. */
static rs_status take_all(rs_cli *cli, const given *opts, int count, rs_error *err)
{
    rs_status st = RS_OK;
    for (int i = 0; i < count; i++) {
        if (opts[i].code == OPT_HELP) cli->help = 1;
        if (opts[i].code == OPT_VERSION) cli->version = 1;
        if (opts[i].code == OPT_PRESET) cli->preset = opts[i].value;
    }
    if (cli->preset && !cli->help) {
        char path[RS_PATH_MAX];
        st = rs_preset_resolve(cli->preset, path, sizeof path, err);
        if (st == RS_OK) st = rs_preset_read_file(path, &cli->req, err);
    }
    for (int i = 0; st == RS_OK && !cli->help && i < count; i++) st = take(cli, &opts[i], err);
    return st;
}

rs_status rs_cli_parse(rs_cli *cli, const rs_command *c, int argc, char **argv, rs_error *err)
{
    memset(cli, 0, sizeof *cli);
    cli->command = c->name;
    cli->cmd = c;
    rs_request_defaults(&cli->req);
    cli->own = calloc(1, c->own_size ? c->own_size : 1);
    if (!cli->own) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    if (c->own_init) memcpy(cli->own, c->own_init, c->own_size);
    find_others();
    /* One option per character, not per word: "-hhh" is three options,
     * and one word each overflowed (fuzz_cli found it). */
    size_t cap = 1;
    for (int i = 1; i < argc; i++) cap += strlen(argv[i]) + 1; /* + a file word of compile */
    given *opts = calloc(cap, sizeof *opts);
    if (!opts) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    int count = 0;
    rs_status st = plain_words(argc, argv, err);
    trim_words(argc, argv);
    if (st == RS_OK) st = collect(c, argc, argv, opts, &count, err);
    if (st == RS_OK) st = take_all(cli, opts, count, err);
    free(opts);
    return st;
}

void rs_cli_free(rs_cli *cli)
{
    free(cli->own);
    cli->own = NULL;
    if (cli->replay_rec) rs_recording_free(cli->replay_rec);
    free(cli->replay_rec);
    cli->replay_rec = NULL;
}

const rs_recording *rs_cli_replay_read(rs_cli *cli, rs_error *err)
{
    if (cli->replay_rec || !cli->replay) return cli->replay_rec;
    rs_recording *rec = calloc(1, sizeof *rec);
    if (!rec) {
        rs_fail(err, RS_E_NOMEM, "out of host memory");
        return NULL;
    }
    if (rs_recording_load(cli->replay, rec, err) != RS_OK) {
        free(rec);
        return NULL;
    }
    return cli->replay_rec = rec;
}

/* An option's help, as the command takes it. */
static const char *extra_help(const rs_command *c, const extra_opt *x)
{
    const rs_option_help *h = rs_command_option(c, -1, x->bit);
    return h && h->help ? h->help : x->help;
}

/* A field as command c takes it: its help, its values (its own words too)
 * and its default. */
static void field_opt(const rs_command *c, const rs_field *fl, rs_cli_opt *o)
{
    const rs_option_help *own = rs_command_option(c, (int)fl->id, 0);
    o->name = fl->flag;
    o->short_opt = fl->short_opt;
    o->arg = fl->argname;
    o->arg_optional = fl->implied != NULL;
    o->help = field_help(c, fl);
    o->field = fl;
    o->hidden = own && (own->flags & RS_HELP_HIDDEN); /* a word of its own: FILE.cu */
    rs_field_values(fl, o->values, sizeof o->values);
    for (const rs_field_word *w = c->field_words; w && w->word; w++) /* its own words too */
        if (w->field == (int)fl->id && strlen(o->values) + strlen(w->word) + 2 < sizeof o->values)
            strcat(strcat(o->values, " "), w->word);
    const int own_default = own && (own->flags & RS_HELP_NO_DEFAULT); /* every GPU */
    o->def = fl->def && *fl->def && !own_default ? fl->def : NULL;
}

int rs_cli_opts(const rs_command *c, rs_cli_opt *out, int max)
{
    int n = 0;
    for (int i = 0; i < RS_FIELD_COUNT && n < max; i++)
        if (rs_fields[i].flag && command_takes_field(c, rs_fields[i].id)) {
            memset(&out[n], 0, sizeof out[n]);
            field_opt(c, &rs_fields[i], &out[n++]);
        }
    for (int i = 0; i < N_EXTRAS && n < max; i++) {
        const extra_opt *x = &extras[i];
        if (!command_takes_extra(c, x)) continue;
        const rs_option_help *own = rs_command_option(c, -1, x->bit);
        rs_cli_opt *o = &out[n++];
        memset(o, 0, sizeof *o);
        *o = (rs_cli_opt){x->name, 0, own && own->arg ? own->arg : x->arg, 0, extra_help(c, x)};
        o->extra = x->bit;
        o->hidden = own && (own->flags & RS_HELP_HIDDEN); /* a word of its own: FILE */
    }
    for (int i = 0; i < own_count(c) && n < max; i++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n++] = (rs_cli_opt){c->options[i].name, 0, c->options[i].arg, 0, c->options[i].help};
    }
    for (int i = 0; i < N_ALWAYS && n < max; i++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n++] = (rs_cli_opt){always[i].name, 0, always[i].arg, 0, always[i].help};
    }
    return n;
}

/* One option's help line. */
static void usage_opt(FILE *f, const rs_cli_opt *o)
{
    char left[64];
    const char *open = o->arg_optional ? "[="
                       : o->arg        ? " "
                                       : "",
               *close = o->arg_optional ? "]" : "";
    if (o->short_opt)
        snprintf(left, sizeof left, "-%c, --%s%s%s%s", o->short_opt, o->name, open,
                 o->arg ? o->arg : "", close);
    else
        snprintf(left, sizeof left, "    --%s%s%s%s", o->name, open, o->arg ? o->arg : "", close);
    fprintf(f, "  %-26s %s%s%s", left, o->help, o->values[0] ? ": " : "", o->values);
    if (o->def) fprintf(f, " [%s]", o->def);
    fprintf(f, "\n");
}

void rs_cli_usage(FILE *f, const rs_command *c)
{
    if (!c) {
        fprintf(f, "redscope: see why a CUDA reduction is fast or slow.\n\n"
                   "usage: redscope [COMMAND] [options]\n\ncommands:\n");
        for (int i = 0; i < rs_command_count; i++)
            fprintf(f, "  %-10s %s\n", rs_commands[i]->name, rs_commands[i]->summary);
        fputs(rs_overview_tail, f);
        fputc('\n', f);
        rs_cli_exit_codes(f, ~0u);
        return;
    }
    /* the first command is the one without a name: "redscope [explore]" */
    fprintf(f, "usage: redscope %s%s%s %s\n%s.\n\noptions:\n", c == rs_commands[0] ? "[" : "",
            c->name, c == rs_commands[0] ? "]" : "", c->usage, c->summary);
    rs_cli_opt opts[RS_CLI_OPTS_MAX];
    const int n = rs_cli_opts(c, opts, RS_CLI_OPTS_MAX);
    for (int i = 0; i < n; i++)
        if (!opts[i].hidden) usage_opt(f, &opts[i]);
    if (c->exits) {
        fputc('\n', f);
        rs_cli_exit_codes(f, c->exits);
    }
}
