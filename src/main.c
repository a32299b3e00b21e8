/* redscope: the explorer by default, batch sub-commands for scripts. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "nvtools/compile.h"
#include "core/format.h"
#include "core/source.h"
#include "core/trace.h"
#include "cmd/generate.h"
#include "engine/gpu_process.h"

#ifndef RS_VERSION
#define RS_VERSION "0"
#endif

/* What was printed must have reached its file: a full disk or a file size
 * limit is an error, not exit 0 with the output cut. */
static int output_written(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    rs_cli_error("cannot write the output: %s",
                 errno ? strerror(errno) : "a write failed (a full disk, a file size limit?)");
    return rc ? rc : RS_E_IO;
}

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    return output_written(run(argc, argv));
}

static int run(int argc, char **argv)
{
    const char *name = rs_commands[0]->name; /* the explorer: the command without a name */
    int shift = 0;
    rs_trace("start: %s", argc > 1 ? argv[1] : "explore"); /* REDSCOPE_TRACE=1 */
    /* Only the character set: numbers in tables, CSV and JSON keep a dot. */
    setlocale(LC_CTYPE, "");
    /* Past RLIMIT_FSIZE a write fails with EFBIG and is reported, instead of
     * the signal killing the process with a file half written. */
    signal(SIGXFSZ, SIG_IGN);
    const char *cs = nl_langinfo(CODESET);
    rs_notation_set(cs && strcmp(cs, "UTF-8") == 0);
    /* the GPU process the explorer and batch commands start (source_child.c) */
    if (argc == 6 && strcmp(argv[1], RS_GPU_PROCESS_ARG) == 0)
        return rs_source_child_serve(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
                                     rs_source_child_wants(argv[5]));
    /* the man page and completions, made from the tables (cmd/generate.c) */
    if (argc == 3 && strcmp(argv[1], RS_GENERATE_ARG) == 0) return rs_generate(argv[2], stdout);
    /* a compile under a time and memory bound (compile/compile_bound.c) */
    if (argc == 2 && strcmp(argv[1], RS_COMPILE_PROCESS_ARG) == 0) return rs_compile_serve();
    if (argc > 1 && strcmp(argv[1], "--version") == 0) return rs_cli_version_main(argc, argv);
    if (argc > 1 && argv[1][0] != '-') {
        name = argv[1];
        shift = 1;
    }
    if (strcmp(name, "help") == 0) {
        const rs_command *about = argc > 2 ? rs_command_find(argv[2]) : NULL;
        if (argc > 2 && !about) {
            rs_cli_unknown_command(argv[2]);
            return RS_E_USAGE;
        }
        rs_cli_usage(stdout, about);
        return 0;
    }
    const rs_command *cmd = rs_command_find(name);
    if (!cmd) {
        rs_cli_unknown_command(name);
        return RS_E_USAGE;
    }
    rs_cli cli;
    rs_error err;
    argv[shift] = argv[0];
    int rc;
    if (rs_cli_parse(&cli, cmd, argc - shift, argv + shift, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        rc = err.code;
    } else if (cli.version) {
        rc = rs_cli_version(stdout, cli.format);
    } else if (cli.help) {
        rs_cli_usage(stdout, shift ? cmd : NULL);
        if (!shift) {
            printf("\n");
            rs_cli_usage(stdout, cmd);
        }
        rc = 0;
    } else {
        char title[160];
        snprintf(title, sizeof title, "redscope %s: %s", cmd->name, cmd->summary);
        rs_writer out;
        rs_writer_open(&out, stdout, cli.format, title);
        if (rs_writer_utf8(&out)) rs_notation_set(1); /* a document (md, html) */
        cli.out = &out;
        rc = cmd->fn(&cli);
        rs_writer_close(&out);
        cli.out = NULL;
    }
    rs_cli_free(&cli);
    return rc;
}
