/* `redscope present`: the ladder as a lecture. The explorer opened on its
 * Present screen (ui/present.c) over a live GPU, a recording (--replay) or
 * a preset; --notes follows it from another terminal (ui/notes.c);
 * --export FILE.md|FILE.html writes the deck as the handout, as `ladder
 * --format md|html` does (handout.c). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/format.h"
#include "formats/files.h"
#include "ui/ui.h"

typedef struct present_own {
    const char *export_path;
    int notes, contrast;
} present_own;

static rs_status set_export(void *own, const char *v, rs_error *err)
{
    (void)err;
    ((present_own *)own)->export_path = v;
    return RS_OK;
}

static rs_status set_notes(void *own, const char *v, rs_error *err)
{
    (void)v, (void)err;
    ((present_own *)own)->notes = 1;
    return RS_OK;
}

static rs_status set_contrast(void *own, const char *v, rs_error *err)
{
    (void)v, (void)err;
    ((present_own *)own)->contrast = 1;
    return RS_OK;
}

static const rs_cmd_option present_options[] = {
    {"contrast", NULL,
     "the high-contrast theme for a projector: bright on black, nothing dimmed (the explorer: "
     "REDSCOPE_THEME=contrast)",
     set_contrast},
    {"notes", NULL,
     "the speaker's notes of the deck shown in another terminal (the numbers, what the textbook "
     "says, what to ask, the next slide, the clock), through $XDG_RUNTIME_DIR/redscope/notes.sock",
     set_notes},
    {"export", "FILE",
     "write the deck to FILE.md or FILE.html instead of showing it: the handout, as the "
     "ladder's md and html output",
     set_export},
    {NULL, NULL, NULL, NULL}};

const rs_command rs_present_entry = {
    .name = "present",
    .usage = "[options]",
    .summary = "the ladder as a lecture: slides built a part a key, notes, the handout",
    .fields = RS_ALL_FIELDS & ~(RS_FIELD(variant) | RS_FIELD(sweep)),
    .extras = RS_X_REPLAY | RS_X_PRESET | RS_X_NO_COLOR | RS_X_FORCE,
    .options = present_options,
    .own_size = sizeof(present_own),
    .fn = rs_cmd_present,
    .exits = RS_EXITS_RUN | RS_EXIT(RS_E_TERMINAL),
};

/* --export: the ladder run (or replayed) and written as the handout to
 * FILE, through a file put in place once whole. */
static int export_deck(rs_cli *cli, const char *path)
{
    const char *dot = strrchr(path, '.');
    const rs_format fmt = !dot                        ? RS_FMT_COUNT
                          : strcmp(dot, ".md") == 0   ? RS_FMT_MD
                          : strcmp(dot, ".html") == 0 ? RS_FMT_HTML
                                                      : RS_FMT_COUNT;
    if (fmt == RS_FMT_COUNT) {
        rs_cli_error("--export needs a file ending in .md or .html, not '%s'", path);
        return RS_E_USAGE;
    }
    rs_error err;
    if (rs_out_check("handout", path, cli->force, cli->replay, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    rs_outfile o;
    if (rs_out_open(&o, "handout", path, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    rs_writer w, *was = cli->out;
    rs_writer_open(&w, o.f, fmt, "The reduction ladder");
    rs_notation_set(1);
    cli->out = &w;
    cli->format = fmt;
    int rc = rs_cmd_ladder(cli);
    rs_writer_close(&w);
    cli->out = was;
    if (rc != 0 && rc != RS_E_MISMATCH) {
        rs_out_abort(&o);
        return rc;
    }
    if (rs_out_commit(&o, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    fprintf(stderr, "redscope: the deck written to %s\n", path);
    return rc;
}

int rs_cmd_present(rs_cli *cli)
{
    const present_own *own = RS_CLI_OWN(cli, present_own);
    if (own->notes && own->export_path) {
        rs_cli_error("--notes follows a deck shown elsewhere and --export writes one: give one "
                     "of them");
        return RS_E_USAGE;
    }
    if (own->notes) return ui_notes_main();
    if (own->export_path) return export_deck(cli, own->export_path);
    const int *set = cli->set;
    const ui_options opt = {
        .req = cli->req,
        .metrics_given = set[RS_F_metrics],
        .preset = cli->preset,
        .replay = cli->replay,
        .ask = cli->preset
                   ? UI_ASK_ALL
                   : (set[RS_F_type] ? UI_ASK_TYPE : 0u) | (set[RS_F_op] ? UI_ASK_OP : 0u) |
                         (set[RS_F_n] ? UI_ASK_N : 0u) | (set[RS_F_block] ? UI_ASK_BLOCK : 0u),
        .no_color = cli->no_color,
        .present = 1,
        .contrast = own->contrast,
    };
    return ui_main(&opt);
}
