/* The explorer, as the program starts it. It knows nothing of the command
 * line: main hands it the configuration and a few choices. */
#ifndef RS_UI_H
#define RS_UI_H

#include "core/request.h"

typedef struct ui_options {
    rs_request req;     /* the starting configuration */
    int metrics_given;  /* the user chose a counter set: keep it */
    const char *preset; /* the preset req came from, or NULL */
    const char *replay; /* a recording to replay, or NULL: the GPU */
    int config_given;   /* a preset or type, op, n or block given: replay opens on it */
    int no_color;
} ui_options;

/* Runs until q or a signal; the process exit status. */
int ui_main(const ui_options *opt);

#endif
