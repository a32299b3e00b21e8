/* The documents made from the tables at build time (cmd/generate*.c):
 * `redscope --generate man|bash|zsh|fish`, written by CMake into the build
 * tree's share/ and installed from there (cmake/docs.cmake). */
#ifndef RS_GENERATE_H
#define RS_GENERATE_H

#include <stdio.h>

#include "cli/cli.h"

#define RS_GENERATE_ARG "--generate"

/* The document `what` to f: 0, or RS_E_USAGE for an unknown one. */
int rs_generate(const char *what, FILE *f);

/* The man page (generate_man.c). */
void rs_generate_man(FILE *f);
/* The completions (generate_complete.c). */
void rs_generate_bash(FILE *f);
void rs_generate_zsh(FILE *f);
void rs_generate_fish(FILE *f);

/* What a completion offers for an option's argument. */
typedef enum {
    RS_COMPLETE_NONE,        /* a number, a name of the user's: nothing offered */
    RS_COMPLETE_WORDS,       /* the words given */
    RS_COMPLETE_JSONL,       /* a recording: *.jsonl, *.json */
    RS_COMPLETE_WORDS_JSONL, /* the words given or a recording (--against VARIANT|FILE) */
    RS_COMPLETE_CU,          /* a kernel: *.cu */
    RS_COMPLETE_PRESET,      /* a preset: the names `redscope presets` lists, or *.ini */
    RS_COMPLETE_PLOT,        /* a chart: *.svg, *.png */
    RS_COMPLETE_FILE         /* any file */
} rs_complete_kind;

/* What to offer for o's argument, the words in words (len bytes). */
rs_complete_kind rs_generate_arg(const rs_cli_opt *o, char *words, size_t len);
/* Whether o's argument is a list separated by commas (each item offered). */
int rs_generate_list(const rs_cli_opt *o);
/* What to offer for the words after c's options (a recording, a kernel). */
rs_complete_kind rs_generate_word(const rs_command *c);

#endif
