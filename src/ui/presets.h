/* The Presets screen's own state (presets.c): the presets found and the
 * cursor. The preset loaded is the explorer's (app.h). */
#ifndef RS_UI_PRESETS_H
#define RS_UI_PRESETS_H

#include "formats/preset.h"

typedef struct ui_presets_state {
    rs_preset_info *list; /* 256 of them */
    int n, sel;
} ui_presets_state;

#endif
