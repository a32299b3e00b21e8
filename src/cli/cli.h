/* The command line's plumbing, shared by every command (src/cmd/): the
 * options from argv through the field and command tables, usage, outputs
 * checked before work, the source and the runner for batch lists, the
 * --kernel files checked first, and the one-line errors. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stdio.h>

#include "core/error.h"
#include "formats/writer.h"
#include "core/request.h"
#include "core/source.h"
#include "core/ukernel.h"

struct rs_command;

/* The parsed command line: the request, the options every command may
 * share, and the command's own options in its own struct (own). */
typedef struct rs_cli {
    const char *command; /* the command's name ("explore" for the TUI) */
    const struct rs_command *cmd;
    rs_request req;
    rs_format format;
    const char *record;                        /* --record FILE */
    const char *replay;                        /* --replay FILE */
    const char *preset;                        /* --preset NAME|PATH */
    const char *save_preset;                   /* --save-preset NAME */
    const char *plot;                          /* --plot FILE.svg|png */
    const char *kernels[RS_UKERNEL_MAX_FILES]; /* every --kernel, in order */
    int nkernels;
    int force;
    int no_color;
    const char *against; /* --against VARIANT|FILE (a stall view's, a recording held
                            against); diff's B */
    int help;
    int version;
    int set[RS_FIELD_COUNT]; /* fields given on the command line */
    void *own;               /* the command's own options (its entry's own_size) */
    /* --replay's file once read (rs_cli_replay_read): the settings adopted
     * from it and the runs answered by it, from one read */
    struct rs_recording *replay_rec;
    rs_writer *out; /* stdout in --format: every command prints through it (NULL: stdout) */
} rs_cli;

/* Where a command writes its text, and in what format (the table's for
 * md and html, which wrap it): the writer's (formats/writer.h). */
static inline FILE *rs_cli_out(const rs_cli *cli)
{
    return cli->out ? rs_writer_stream(cli->out) : stdout;
}
static inline rs_format rs_cli_text_format(const rs_cli *cli)
{
    return cli->out ? rs_writer_text_format(cli->out) : cli->format;
}

/* The options several commands share besides the request's fields, one
 * bit each; a command's entry names those it takes. */
enum {
    RS_X_FORMAT = 1 << 0,
    RS_X_RECORD = 1 << 1,
    RS_X_REPLAY = 1 << 2,
    RS_X_PRESET = 1 << 3,
    RS_X_SAVE_PRESET = 1 << 4,
    RS_X_FORCE = 1 << 5,
    RS_X_NO_COLOR = 1 << 6,
    RS_X_PLOT = 1 << 8,
    RS_X_AGAINST = 1 << 15,
};

/* An option a command owns (tmux's cmd_entry, git's struct option): its
 * flag, argument's name (NULL: it takes none), help, and the setter that
 * puts its value (NULL without one) into the command's own struct. */
typedef struct rs_cmd_option {
    const char *name;
    const char *arg;
    const char *help;
    rs_status (*set)(void *own, const char *value, rs_error *err);
} rs_cmd_option;

/* A word after a command's options, as a field or a shared option names
 * one: compile's FILE.cu as --kernel, recording's FILE as --replay. */
typedef struct rs_cmd_word {
    int field;      /* an rs_field_id, or -1 */
    unsigned extra; /* else that RS_X_* bit */
    int many;       /* every word left, not one */
} rs_cmd_word;
#define RS_CMD_WORDS_MAX 4

/* A word a command takes for a field besides the field's own values (a
 * sweep's --cache both): given, the int at `at` in the command's own
 * struct is 1, and the request's field keeps what it had (a preset's, or
 * its default); any other value of the field makes it 0 again. --help
 * lists the word among the field's values. */
typedef struct rs_field_word {
    int field;        /* an rs_field_id */
    const char *word; /* NULL ends the list */
    size_t at;        /* offsetof the int in the command's own struct */
} rs_field_word;

/* An option a command takes its own way, for its --help: its help line
 * and its argument's name (NULL: the option table's), its default left
 * out, or the option hidden (the command reads it as a word). */
enum { RS_HELP_NO_DEFAULT = 1, RS_HELP_HIDDEN = 2 };
typedef struct rs_option_help {
    int field;      /* an rs_field_id, or -1 for an option of RS_X_* */
    unsigned extra; /* that RS_X_* bit (field -1) */
    const char *help, *arg;
    int flags; /* RS_HELP_* */
} rs_option_help;

/* What entries name: the request's fields, the options of a run. */
#define RS_ALL_FIELDS ((1ull << RS_FIELD_COUNT) - 1)
#define RS_FIELD(id)  (1ull << RS_F_##id)
#define RS_RUNS                                                                                    \
    (RS_X_FORMAT | RS_X_RECORD | RS_X_REPLAY | RS_X_PRESET | RS_X_SAVE_PRESET | RS_X_FORCE)
#define RS_HELP_END                                                                                \
    {                                                                                              \
        0, 0, NULL, NULL, 0                                                                        \
    }

/* A command's entry, at the top of its file in src/cmd/: its name, usage,
 * one-line summary, the request fields (bit per rs_field_id) and shared
 * options (RS_X_*) it takes (--format: every writer), the words
 * after its options, its own options and their struct (own_size bytes,
 * from own_init), what runs it, and how it takes a field or shared option
 * its own way (ended by a row of field 0 and no help, arg or flags; NULL:
 * none). The parser and the help read entries; they know no command. */
typedef struct rs_command {
    const char *name, *usage, *summary;
    unsigned long long fields;
    unsigned extras;
    rs_cmd_word words[RS_CMD_WORDS_MAX]; /* ended by one of field 0, extra 0 */
    const rs_cmd_option *options;        /* ended by a NULL name; NULL: none */
    const rs_field_word *field_words;    /* ended by a NULL word; NULL: none */
    size_t own_size;
    const void *own_init;
    int (*fn)(rs_cli *);
    const rs_option_help *help;
    unsigned exits; /* the exit codes it gives, RS_EXIT(code) each */
    int columns;    /* every output through the writer's column model: it gives every
                       format; 0: a report as text (rs_format_text says which) */
} rs_command;
/* An exit code's bit in an entry's exits (130, interrupted: bit 31). */
#define RS_EXIT(code) (1u << ((code) == RS_E_CANCELLED ? 31 : (code)))
/* What a command that runs on the GPU (or a replay of it) can end with. */
#define RS_EXITS_RUN                                                                               \
    (RS_EXIT(0) | RS_EXIT(RS_E_MISMATCH) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_NODRIVER) |          \
     RS_EXIT(RS_E_NODEVICE) | RS_EXIT(RS_E_NOMEM) | RS_EXIT(RS_E_CUDA) | RS_EXIT(RS_E_IO) |        \
     RS_EXIT(RS_E_CANCELLED))
/* The exit codes c gives, each with its meaning, as help lists them. */
void rs_cli_exit_codes(FILE *f, unsigned exits);
/* The i-th exit code of the table and its meaning: 1, or 0 past its end. */
int rs_cli_exit_code(int i, int *code, const char **meaning);
/* How c takes a field (field >= 0) or an RS_X_* option: NULL where as the
 * tables say. */
const rs_option_help *rs_command_option(const rs_command *c, int field, unsigned extra);
/* Every command, in the order the overview lists them (commands.c). */
extern const rs_command *const rs_commands[];
extern const int rs_command_count;
const rs_command *rs_command_find(const char *name);
/* --replay without a preset (adopt.c): the settings not given (of match
 * and more) are those of the first configuration of command (the last
 * where last) that holds the given ones of match, and its kernels where
 * none is given; a setting so taken is said on stderr. both (NULL: the
 * command runs one cache state): 1 where both states were asked for (the
 * cache is then not matched); made 1 where the cache was not given and the
 * configuration found was recorded in both states, one beside the other
 * (rs_rec_config_twin), said as "--cache both". Where both are shown, the
 * steps taken are those of either state's configuration. */
void rs_cli_adopt_recorded(rs_cli *cli, const char *command, const rs_field_id *match,
                           size_t nmatch, const rs_field_id *more, size_t nmore, int last,
                           int *both);
/* The command a mistyped name most likely meant (one or two edits), or NULL. */
const rs_command *rs_command_near(const char *name);
/* "unknown command 'NAME'", with the command it most likely meant. */
void rs_cli_unknown_command(const char *name);
/* What the overview says after the commands: examples, exit codes. */
extern const char rs_overview_tail[];
/* The parsed options' memory (rs_cli.own, the replay's recording). */
void rs_cli_free(rs_cli *cli);
/* --replay's recording, read the first time it is asked for (NULL with
 * err where it cannot be read). */
const struct rs_recording *rs_cli_replay_read(rs_cli *cli, rs_error *err);

/* Parse argv[first..] for command c; err explains bad arguments. Free
 * with rs_cli_free. */
rs_status rs_cli_parse(rs_cli *cli, const rs_command *c, int argc, char **argv, rs_error *err);

/* --version: the program, its commit and build, and the CUDA libraries
 * built in and found here, as text or JSON (format); its exit code. */
int rs_cli_version(FILE *f, rs_format format);
/* `redscope --version [--format F]`: no command, so no command's options. */
int rs_cli_version_main(int argc, char **argv);

/* An option as a command takes it, from the field table, the shared
 * options and the command's entry: what --help, the man page and the
 * completions are made from (cmd/generate*.c). */
typedef struct rs_cli_opt {
    const char *name; /* without "--" */
    int short_opt;    /* 0: none */
    const char *arg;  /* its argument's name; NULL: it takes none */
    int arg_optional; /* --metrics[=SET] */
    const char *help;
    char values[192];             /* the words it takes, by spaces ("" where others) */
    const char *def;              /* its default as help shows it (NULL: none) */
    const struct rs_field *field; /* the request's field it sets (NULL: none) */
    unsigned extra;               /* the shared option it is (RS_X_*; 0: none) */
    int hidden;                   /* taken as a word after the options (FILE.cu): not listed */
} rs_cli_opt;
#define RS_CLI_OPTS_MAX 64
/* Every option c takes, in --help's order (at most max): their count. */
int rs_cli_opts(const rs_command *c, rs_cli_opt *out, int max);

/* Usage of a command (NULL: the overview), from the tables and its entry. */
void rs_cli_usage(FILE *f, const rs_command *c);

/* A whole number from lo to hi for option opt ("--rank") into *out. */
rs_status rs_cli_whole_number(const char *v, const char *opt, long lo, long hi, int *out,
                              rs_error *err);

/* The command's own options (its entry's struct). */
#define RS_CLI_OWN(cli, type) ((const type *)(cli)->own)

/* A chart's data file: FILE.svg -> FILE.csv (outputs.c). */
void rs_cli_plot_csv(const char *plot, char *csv, size_t len);

/* Every output file of the command (--record, --plot and gnuplot) can be
 * written: checked before the first kernel runs; 0 or the exit status. */
int rs_cli_check_outputs(const rs_cli *cli);
/* --save-preset, when given: 0 or the exit status (the error is said). */
int rs_cli_save_preset(const rs_cli *cli);

/* The source a batch command reads: the recording of --replay, else the
 * GPU (with need_gpu, ready to run on it). 0 or the exit status. */
int rs_cli_open_source(const rs_cli *cli, int need_gpu, struct rs_source **src);

/* reqs[0..n) into rows through the runner, with a progress line, SIGINT
 * SIGTERM and SIGHUP as a cancel, and --record. 0 or the status that stopped it
 * (said on stderr). *done rows were made. */
int rs_cli_run_list(const rs_cli *cli, struct rs_source *src, const rs_ask *ask,
                    const rs_request *reqs, int n, rs_row *rows, int *done);
/* --replay where nothing asked for was recorded: one line that says so,
 * with the options that replay what the recording holds for command, and
 * RS_E_USAGE; else 0. */
int rs_cli_nothing_recorded(const rs_cli *cli, const struct rs_source *src, const char *command,
                            const rs_row *rows, int n);
/* --stalls --replay: one line for the rows that ran but were recorded
 * without PC samples (the stall view has nothing to show for them); 2
 * when none of them has a view (asked for, not recorded, as everywhere). */
int rs_cli_stalls_missing(const rs_cli *cli, const rs_row *rows, int n);
int rs_cli_energy_missing(const rs_cli *cli, const rs_row *rows, int n);
/* --metrics SET --replay: the same for rows recorded without some of SET's
 * counters. */
int rs_cli_metrics_missing(const rs_cli *cli, const rs_row *rows, int n);

/* run, ladder and sweep --against FILE (against.c): the command's rows
 * beside a recording's, as `redscope diff` prints two recordings (n 0: the
 * file only checked, before any work); `list` where the rows are a ladder
 * (the recording's other steps are named beside). 0 or the exit status. */
int rs_cli_rows_against(const rs_cli *cli, const char *command, int list, const rs_row *rows,
                        int n);
/* --against FILE with --format other than table: refused, naming diff. */
int rs_cli_against_table(const rs_cli *cli, const char *command);

/* An executable of that name is on PATH. */
int rs_on_path(const char *name);

/* s for the inside of a gnuplot string in single quotes, into out: a
 * path or a recorded name is text there, never a command. */
const char *rs_gnuplot_quote(const char *s, char *out, size_t len);

/* Draw FILE (.svg or .png) with gnuplot from a script that reads csv
 * (terminal, output and separator set here); 0, or an error said. */
int rs_cli_gnuplot(const char *file, const char *csv, const char *script);

/* Every --kernel file readable and well formed (run: and accepting the
 * request), before any GPU work; 0 or the exit status (kernels.c). */
int rs_cli_check_kernels(const rs_cli *cli);

/* One line on stderr, "redscope: ...". */
void rs_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
