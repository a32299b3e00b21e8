/* The Sweep screen's own state (sweep_screen.c; filled by jobs.c and
 * events.c, or from a recording by replay.c): the sweep, the settings it
 * ran with, what the next one asks, the chart's quantity and cursor. */
#ifndef RS_UI_SWEEP_SCREEN_H
#define RS_UI_SWEEP_SCREEN_H

#include <stdint.h>

#include "analysis/sweep.h"
#include "core/request.h"

typedef struct ui_sweep_state {
    rs_sweep data;
    rs_request cfg; /* the settings the sweep on screen was run with */
    int ready;
    rs_variant_set vars;
    char range[RS_SWEEP_MAX];
    rs_chart_quantity q;
    int cursor;
} ui_sweep_state;

#endif
