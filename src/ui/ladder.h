/* The Ladder screen's own state (ladder.c; filled by jobs.c and events.c,
 * or from a recording by replay.c): the rows of the ladder run, its
 * variants, how far it went and the cursor. */
#ifndef RS_UI_LADDER_H
#define RS_UI_LADDER_H

#include "core/row.h"
#include "core/ukernel.h"

/* A row per variant, your kernel's once per file (a recorded ladder of
 * several kernels shows them all, as the CLI does). */
#define UI_LADDER_ROWS (RS_VARIANT_COUNT + RS_UKERNEL_MAX_FILES - 1)

typedef struct ui_ladder_state {
    rs_row *rows; /* UI_LADDER_ROWS of them */
    rs_variant vars[UI_LADDER_ROWS];
    int at[UI_LADDER_ROWS]; /* a replay: the recording's row; live: -1 */
    int count, done, sel;
} ui_ladder_state;

#endif
