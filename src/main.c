/* redscope: the explorer by default, batch sub-commands for scripts. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/format.h"
#include "ui/ui.h"

#ifndef RS_VERSION
#define RS_VERSION "0"
#endif

typedef int (*command_fn)(rs_cli *);

static const struct {
    const char *name;
    command_fn fn;
} commands[] = {
    {"explore", ui_main},        {"run", rs_cmd_run},         {"ladder", rs_cmd_ladder},
    {"sweep", rs_cmd_sweep},     {"devices", rs_cmd_devices}, {"variants", rs_cmd_variants},
    {"metrics", rs_cmd_metrics}, {"presets", rs_cmd_presets},
};

int main(int argc, char **argv)
{
    const char *name = "explore";
    int shift = 0;
    /* Only the character set: numbers in tables, CSV and JSON keep a dot. */
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    rs_notation_set(cs && strcmp(cs, "UTF-8") == 0);
    if (argc > 1 && argv[1][0] != '-') {
        name = argv[1];
        shift = 1;
    }
    if (strcmp(name, "help") == 0) {
        rs_cli_usage(stdout, argc > 2 ? argv[2] : NULL);
        return 0;
    }
    command_fn fn = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0) fn = commands[i].fn;
    if (!fn) {
        rs_cli_error("unknown command '%s' (see: redscope --help)", name);
        return RS_E_USAGE;
    }
    rs_cli cli;
    rs_error err;
    argv[shift] = argv[0];
    if (rs_cli_parse(&cli, name, argc - shift, argv + shift, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    if (cli.version) {
        printf("redscope %s\n", RS_VERSION);
        return 0;
    }
    if (cli.help) {
        rs_cli_usage(stdout, shift ? name : NULL);
        if (!shift) {
            printf("\n");
            rs_cli_usage(stdout, "explore");
        }
        return 0;
    }
    return fn(&cli);
}
