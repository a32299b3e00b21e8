/* The Source screen's own state (source_screen.c, source_diff.c): where
 * the cursor stands in the stall view, the SASS panel and its answer from
 * the worker, the comparison with another view. */
#ifndef RS_UI_SOURCE_SCREEN_H
#define RS_UI_SOURCE_SCREEN_H

#include "nvtools/sass_view.h"
#include "worker.h"

typedef struct ui_source_state {
    int cur;                   /* the cursor's line of the stall view */
    int sass;                  /* its SASS panel shown (s) */
    int diff;                  /* compared line by line with another view (d, source_diff.c) */
    int nsass;                 /* the panel's instructions; -1: why says why none; UI_SASS_WAIT */
    int sass_tag, sass_queued; /* the request answered; one waits for the worker */
    int scroll;                /* the detail's first row where it scrolls ([ ]) */
    char why[256];
    rs_sass_insn insn[UI_SASS_MAX];
} ui_source_state;

#endif
