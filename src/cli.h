/* The command line: option parsing shared by every sub-command, and the
 * batch commands. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <stdio.h>

#include "core/error.h"
#include "core/export.h"
#include "core/request.h"
#include "core/source.h"

typedef struct rs_cli {
    const char *command; /* "run", "ladder", ... or "explore" for the TUI */
    rs_request req;
    rs_format format;
    const char *record;      /* --record FILE */
    const char *replay;      /* --replay FILE */
    const char *preset;      /* --preset NAME|PATH */
    const char *save_preset; /* --save-preset NAME */
    const char *plot;        /* --plot FILE.svg|png */
    int force;
    int no_color;
    int measure;
    int help;
    int version;
    int set[RS_FIELD_COUNT]; /* fields given on the command line */
} rs_cli;

/* Parse argv[first..] for `command`; err explains bad arguments. */
rs_status rs_cli_parse(rs_cli *cli, const char *command, int argc, char **argv, rs_error *err);

/* Usage of a command (NULL: the overview), generated from the field table. */
void rs_cli_usage(FILE *f, const char *command);

/* Every output file of the command (--record, --plot and gnuplot) can be
 * written: checked before the first kernel runs; 0 or the exit status. */
int rs_cli_check_outputs(const rs_cli *cli);
/* --save-preset, when given: 0 or the exit status (the error is said). */
int rs_cli_save_preset(const rs_cli *cli);

/* The source a batch command reads: the recording of --replay, else the
 * GPU (with need_gpu, ready to run on it). 0 or the exit status. */
int rs_cli_open_source(const rs_cli *cli, int need_gpu, struct rs_source **src);

/* reqs[0..n) into rows through the runner, with a progress line, SIGINT
 * and SIGTERM as a cancel, and --record; 0 or the status that stopped it
 * (said on stderr). *done rows were made. */
int rs_cli_run_list(const rs_cli *cli, struct rs_source *src, const char *command,
                    const rs_request *reqs, int n, rs_row *rows, int *done);

/* An executable of that name is on PATH. */
int rs_on_path(const char *name);

/* Batch commands; each returns the process exit status. */
int rs_cmd_run(rs_cli *cli);
int rs_cmd_ladder(rs_cli *cli);
int rs_cmd_sweep(rs_cli *cli);
int rs_cmd_devices(rs_cli *cli);
int rs_cmd_variants(rs_cli *cli);
int rs_cmd_metrics(rs_cli *cli);
int rs_cmd_presets(rs_cli *cli);

/* One line on stderr, "redscope: ...". */
void rs_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
