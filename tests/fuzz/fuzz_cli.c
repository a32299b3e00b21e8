/* libFuzzer target: the command line (cli/parse.c). The input is split into
 * words at NUL and newline bytes, at most MAX_ARGS of them; the first picks
 * the command as main.c does (a command's name, "help", or an option for
 * the explorer; another word picks one of rs_commands by its first byte so
 * every command stays in reach) and the rest are its arguments. Each word
 * is a block of its own, so a read past its end is caught.
 *
 * rs_cli_parse must accept or refuse with a message, never crash or leak.
 * What it accepts must be a request whose every field writes back and reads
 * again to the same value, with only the options the command takes. Each
 * input is parsed twice, from fresh copies of the words, and must get the
 * same answer: nothing of one call (getopt's place in a word of the old
 * argv) may leak into the next. rs_cli_usage writes to /dev/null. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd/cmd.h"
#include "formats/check.h"

#define MAX_ARGS 64

/* The entries are the commands' own (src/cmd/, compiled in): what their
 * functions reach (the engine, the GPU, the terminal) is not linked
 * (fuzz.cmake), and the parser never calls them. */

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* --preset finds the shipped presets of the source tree and no user
     * presets, whoever runs the fuzzer. */
    setenv("REDSCOPE_DATA_DIR", RS_FUZZ_DATA_DIR, 1);
    setenv("XDG_CONFIG_HOME", "/nonexistent/redscope-fuzz", 1);
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    rs_cli_usage(devnull, NULL);
    return 0;
}

/* A property that must hold: said on stderr, then abort() for libFuzzer. */
#define must(ok) ((ok) ? (void)0 : broken(#ok, __LINE__))
static void broken(const char *what, int line)
{
    fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, line, what);
    abort();
}

typedef struct words {
    int count;
    char *w[MAX_ARGS + 1];
    char *prog; /* "redscope", argv[0] */
} words;

static char *copy(const void *s, size_t len)
{
    char *c = malloc(len + 1);
    if (!c) abort();
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

static void split(const uint8_t *data, size_t size, words *ws)
{
    size_t start = 0;
    ws->count = 0;
    for (size_t i = 0; i <= size && ws->count < MAX_ARGS; i++) {
        if (i < size && data[i] != '\0' && data[i] != '\n') continue;
        ws->w[ws->count++] = copy(data + start, i - start);
        start = i + 1;
    }
    ws->w[ws->count] = NULL;
    ws->prog = copy("redscope", 8);
}

/* p is NULL or points into one of the words. */
static void in_words(const char *p, const words *ws)
{
    if (!p) return;
    for (int i = 0; i < ws->count; i++)
        if (p >= ws->w[i] && p <= ws->w[i] + strlen(ws->w[i])) return;
    abort();
}

/* Every field of the request writes back and reads again to the same value
 * (so each is within its range); a field not given keeps its default
 * unless a preset set it; one given is one the command takes. */
static void check_request(const rs_cli *cli, const rs_command *cmd)
{
    rs_request back;
    rs_request_defaults(&back);
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        char text[512];
        rs_error err;
        rs_field_format(&cli->req, f, text, sizeof text);
        must(rs_field_set(&back, f, text, &err) == RS_OK);
        if (cli->set[i]) must((cmd->fields >> i) & 1);
        if (!cli->set[i] && !cli->preset) must(rs_field_is_default(&cli->req, f));
    }
    must(rs_request_equal(&cli->req, &back));
}

static void check_accepted(const rs_cli *cli, const rs_command *cmd, const words *ws)
{
    must(cli->command == cmd->name);
    must(cli->format == RS_FMT_TABLE || cli->format == RS_FMT_CSV || cli->format == RS_FMT_JSON);
    const char *files[] = {cli->record, cli->replay, cli->preset, cli->save_preset, cli->plot};
    const unsigned bits[] = {RS_X_RECORD, RS_X_REPLAY, RS_X_PRESET, RS_X_SAVE_PRESET, RS_X_PLOT};
    for (int i = 0; i < 5; i++) {
        in_words(files[i], ws);
        /* a file given as a word after the options (diff's A), not --replay */
        const int word = i == 1 && cmd->words[0].extra == RS_X_REPLAY;
        if (files[i] && !cli->help && !word) must(cmd->extras & bits[i]);
    }
    const int flags[] = {cli->force, cli->no_color, cli->help, cli->version};
    for (int i = 0; i < 4; i++) must(flags[i] == 0 || flags[i] == 1);
    if (cli->force) must(cmd->extras & RS_X_FORCE);
    if (cli->no_color) must(cmd->extras & RS_X_NO_COLOR);
    /* a command's own options go to its own struct alone: one without
     * options keeps it as its entry starts it */
    must(cli->own != NULL && cli->cmd == cmd);
    if (!cmd->options && cmd->own_size && cmd->own_init)
        must(memcmp(cli->own, cmd->own_init, cmd->own_size) == 0);
    check_request(cli, cmd);
}

/* A refusal has a message; one about an option names it as given ("-x" or
 * "--name"), not some other word of the command line. */
static void check_refused(rs_status st, const rs_error *err)
{
    must(st == RS_E_USAGE || st == RS_E_IO || st == RS_E_NOMEM);
    must(err->code == st && err->msg[0] != '\0' && strlen(err->msg) < sizeof err->msg);
    static const char *const about[] = {"unknown option '", "option '"};
    for (int i = 0; i < 2; i++)
        if (strncmp(err->msg, about[i], strlen(about[i])) == 0)
            must(err->msg[strlen(about[i])] == '-');
}

/* The command the first word picks, and where its arguments start. */
static const rs_command *pick(const words *ws, int *first)
{
    const char *w = ws->w[0];
    const rs_command *cmd = rs_command_find(w);
    *first = 1;
    if (cmd) return cmd;
    if (w[0] == '-') {
        *first = 0;
        return rs_commands[0]; /* the explorer */
    }
    return rs_commands[(unsigned char)w[0] % rs_command_count];
}

/* One parse of the words from `first` on, as main.c hands them over: the
 * program's name, then the arguments (getopt permutes this argv). */
typedef struct parsed {
    words ws;
    rs_cli cli;
    rs_error err;
    rs_status st;
} parsed;

static void parse(const uint8_t *data, size_t size, const rs_command **cmd, parsed *p)
{
    int first;
    split(data, size, &p->ws);
    *cmd = pick(&p->ws, &first);
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = p->ws.prog;
    for (int i = first; i < p->ws.count; i++) argv[argc++] = p->ws.w[i];
    argv[argc] = NULL;
    memset(&p->err, 0, sizeof p->err);
    p->st = rs_cli_parse(&p->cli, *cmd, argc, argv, &p->err);
}

static void free_words(words *ws)
{
    for (int i = 0; i < ws->count; i++) free(ws->w[i]);
    free(ws->prog);
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The second parse of a command line answers as the first did: nothing
 * of the first call (getopt's place in a word) lingers into the next. */
static void check_same(const parsed *a, const parsed *b)
{
    must(a->st == b->st);
    if (a->st != RS_OK) {
        must(strcmp(a->err.msg, b->err.msg) == 0);
        return;
    }
    const rs_cli *x = &a->cli, *y = &b->cli;
    must(rs_request_equal(&x->req, &y->req) && memcmp(x->set, y->set, sizeof x->set) == 0);
    must(x->format == y->format && x->force == y->force && x->no_color == y->no_color);
    must(x->help == y->help && x->version == y->version);
    must(x->cmd == y->cmd); /* its own struct may point into each parse's words */
    must(same_text(x->record, y->record) && same_text(x->replay, y->replay));
    must(same_text(x->preset, y->preset) && same_text(x->save_preset, y->save_preset));
    must(same_text(x->plot, y->plot));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const rs_command *cmd;
    parsed *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) abort();
    parse(data, size, &cmd, a);
    if (strcmp(a->ws.w[0], "help") == 0) {
        /* main.c's `redscope help X`, which parses nothing (the parse
         * above takes the words for the command 'h' picks) */
        rs_cli_usage(devnull, a->ws.count > 1 ? rs_command_find(a->ws.w[1]) : NULL);
    }
    if (a->st == RS_OK)
        check_accepted(&a->cli, cmd, &a->ws);
    else
        check_refused(a->st, &a->err);
    rs_cli_usage(devnull, cmd);
    parse(data, size, &cmd, b);
    check_same(a, b);
    rs_cli_free(&a->cli);
    rs_cli_free(&b->cli);
    free_words(&a->ws);
    free_words(&b->ws);
    free(a);
    free(b);
    return 0;
}
