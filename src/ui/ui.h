/* The explorer, as the program starts it. It knows nothing of the command
 * line: main hands it the configuration and a few choices. */
#ifndef RS_UI_H
#define RS_UI_H

#include "core/request.h"

/* The settings a replay opens on (ui_options.ask): those given; SHOWN
 * when they are the screen's, not the command line's. */
enum {
    UI_ASK_TYPE = 1,
    UI_ASK_OP = 2,
    UI_ASK_N = 4,
    UI_ASK_BLOCK = 8,
    UI_ASK_ALL = 15,
    UI_ASK_SHOWN = 16
};

typedef struct ui_options {
    rs_request req;      /* the starting configuration */
    int metrics_given;   /* the user chose a counter set: keep it */
    const char *preset;  /* the preset req came from, or NULL */
    const char *replay;  /* a recording to replay, or NULL: the GPU */
    const char *against; /* a recording to hold beside it (--against), or NULL */
    unsigned ask;        /* UI_ASK_ bits given (a preset: all): replay opens on them */
    int no_color;
    int present;  /* open on the Present screen (redscope present) */
    int contrast; /* the high-contrast theme (present --contrast) */
} ui_options;

/* Runs until q or a signal; the process exit status. */
int ui_main(const ui_options *opt);

/* `redscope present --notes`: the notes of the deck shown in another
 * terminal, followed until Ctrl-C (notes.c); its exit status. */
int ui_notes_main(void);
/* The notes' socket: $XDG_RUNTIME_DIR/redscope/notes.sock, else
 * /tmp/redscope-UID/notes.sock; its folder made, only its user's. 0 or -1. */
int ui_notes_path(char *buf, size_t len);

/* Whether the terminal (its terminfo entry) can place the cursor (terminal.c). */
int ui_term_moves_cursor(void);

#endif
