/* The command line's plumbing, shared by every command (src/cmd/): the
 * options from argv through the field and command tables, usage, outputs
 * checked before work, the source and the runner for batch lists, the
 * --kernel files checked first, and the one-line errors. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stdio.h>

#include "core/error.h"
#include "formats/export.h"
#include "core/request.h"
#include "core/source.h"
#include "core/ukernel.h"

typedef struct rs_cli {
    const char *command; /* "run", "ladder", ... or "explore" for the TUI */
    rs_request req;
    rs_format format;
    const char *record;                        /* --record FILE */
    const char *replay;                        /* --replay FILE */
    const char *preset;                        /* --preset NAME|PATH */
    const char *save_preset;                   /* --save-preset NAME */
    const char *plot;                          /* --plot FILE.svg|png */
    int check;                                 /* --check race|memory: an rs_check_kind */
    const char *kernels[RS_UKERNEL_MAX_FILES]; /* every --kernel, in order */
    int nkernels;
    int arch; /* compile --arch sm_XX; 0: sm_90 */
    int force;
    int no_color;
    int measure;
    int gpus;               /* allreduce --gpus N; -1: not given (every GPU) */
    unsigned algos;         /* allreduce --algo: one bit per rs_ar_algo; 0: not given */
    int rank, ranks;        /* allreduce --rank R --ranks N (ranks 0: one process) */
    const char *rendezvous; /* allreduce --rendezvous FILE */
    const char *nccl_tests; /* allreduce --nccl-tests PATH */
    const char *against;    /* run --stalls --against VARIANT|FILE; diff's B */
    int fail_slower;        /* diff --fail-slower PCT; -1: not given */
    int wide;               /* ladder --wide: every column */
    int handout;            /* ladder --format md (1) or html (2): the handout */
    int help;
    int version;
    int set[RS_FIELD_COUNT]; /* fields given on the command line */
} rs_cli;

/* Options besides the request's fields, one bit each. */
enum {
    RS_X_FORMAT = 1 << 0,
    RS_X_RECORD = 1 << 1,
    RS_X_REPLAY = 1 << 2,
    RS_X_PRESET = 1 << 3,
    RS_X_SAVE_PRESET = 1 << 4,
    RS_X_FORCE = 1 << 5,
    RS_X_NO_COLOR = 1 << 6,
    RS_X_MEASURE = 1 << 7,
    RS_X_PLOT = 1 << 8,
    RS_X_CHECK = 1 << 9,
    RS_X_ARCH = 1 << 10,
    RS_X_ALGO = 1 << 12,
    RS_X_RANKS = 1 << 13,
    RS_X_NCCL_TESTS = 1 << 14,
    RS_X_AGAINST = 1 << 15,
    RS_X_FAIL_SLOWER = 1 << 16,
    RS_X_WIDE = 1 << 17,
};

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

/* A command: its name, usage, one-line summary, the request fields (bit per
 * rs_field_id) and other options (RS_X_*) it takes, what runs it, and the
 * options it takes its own way (ended by a row of field 0 and no help,
 * arg or flags; NULL: none). The table (commands.c) drives dispatch, help
 * and option checks. */
typedef struct rs_command {
    const char *name, *usage, *summary;
    unsigned long long fields;
    unsigned extras;
    int (*fn)(rs_cli *);
    const rs_option_help *own;
} rs_command;
/* How `command` takes a field (field >= 0) or an RS_X_* option: NULL
 * where as the tables say. */
const rs_option_help *rs_command_option(const char *command, int field, unsigned extra);
extern const rs_command rs_commands[];
extern const int rs_command_count;
const rs_command *rs_command_find(const char *name);

/* Parse argv[first..] for `command`; err explains bad arguments. */
rs_status rs_cli_parse(rs_cli *cli, const char *command, int argc, char **argv, rs_error *err);

/* Usage of a command (NULL: the overview), generated from the field table. */
void rs_cli_usage(FILE *f, const char *command);

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
