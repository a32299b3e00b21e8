/* A recording held beside what is shown (against.c, --against or A on the
 * Recording screen): the recording, whether one is held, and its path.
 * The Ladder screen's vs A column, Compare's right side and the Recording
 * screen's A read it. */
#ifndef RS_UI_AGAINST_H
#define RS_UI_AGAINST_H

#include "core/request.h"
#include "formats/record.h"
#include "reader.h"

typedef struct ui_against_state {
    rs_recording rec;
    int has;
    char path[RS_NOTE_MAX];
    ui_reader reader; /* A's file, read off the UI thread */
} ui_against_state;

#endif
