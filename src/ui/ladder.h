/* The Ladder screen's own state (ladder.c; filled by jobs.c and events.c,
 * or from a recording by replay.c): the rows of the ladder run, its
 * variants, how far it went and the cursor. */
#ifndef RS_UI_LADDER_H
#define RS_UI_LADDER_H

#include "core/row.h"

typedef struct ui_ladder_state {
    rs_row *rows; /* RS_VARIANT_COUNT of them */
    rs_variant vars[RS_VARIANT_COUNT];
    int count, done, sel;
} ui_ladder_state;

#endif
