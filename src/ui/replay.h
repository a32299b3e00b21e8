/* The Recording screen's own state (replay.c): the configurations the
 * recording replayed holds, the cursor and the one shown. The recording
 * itself is the explorer's (app.h). */
#ifndef RS_UI_REPLAY_H
#define RS_UI_REPLAY_H

#include "formats/record.h"

typedef struct ui_replay_state {
    rs_rec_config *configs;
    int n, sel, cur;
} ui_replay_state;

#endif
