/* The Compare screen's own state (compare.c): a against b, variants, or
 * UI_CMP_PINNED (the pinned result) and UI_CMP_AGAINST (the held
 * recording's run of a's configuration) for b. */
#ifndef RS_UI_COMPARE_H
#define RS_UI_COMPARE_H

typedef struct ui_compare_state {
    int a, b;
} ui_compare_state;

#endif
