/* One table of key bindings drives the key handling, the footer and the
 * help screen. */
#ifndef UI_KEYS_H
#define UI_KEYS_H

#include "layout.h"

/* UI_ACT_OPEN_<screen>: the action that opens a screen (screens.h). */
#define UI_SCREEN_ACT(id, stem, name, about) UI_ACT_OPEN_##id,

typedef enum {
    UI_ACT_NONE,
    UI_ACT_UP,
    UI_ACT_DOWN,
    UI_ACT_LEFT,
    UI_ACT_RIGHT,
    UI_ACT_RUN,
    UI_ACT_CANCEL, /* Esc: stop a run, leave a screen */
    UI_ACT_SAVE,
    UI_ACT_PIN,
    UI_ACT_TYPE,
    UI_ACT_OP,
    UI_ACT_N,
    UI_ACT_BLOCK,
    UI_ACT_BLOCK_TYPE,
    UI_ACT_FINISH,
    UI_ACT_EPT,
    UI_ACT_REPS,
    UI_ACT_METRICS,
    UI_ACT_INPUT,
    UI_ACT_CACHE, /* l: cold or warm */
    UI_ACT_SCROLL_UP,
    UI_ACT_SCROLL_DOWN,
    UI_ACT_COUNTERS_UP,
    UI_ACT_COUNTERS_DOWN,
    UI_ACT_PICK_A,
    UI_ACT_PICK_B,
    UI_ACT_VARIANTS,
    UI_ACT_RANGE,
    UI_ACT_TOGGLE_Y,
    UI_ACT_QUIT,
    UI_ACT_TYPE_BACK, /* Shift: one step back */
    UI_ACT_OP_BACK,
    UI_ACT_BLOCK_BACK,
    UI_ACT_FINISH_BACK,
    UI_ACT_METRICS_BACK,
    UI_ACT_INPUT_BACK,
    UI_ACT_CHECK_RACE,
    UI_ACT_CHECK_MEMORY,
    UI_ACT_KERNEL,
    UI_ACT_STALLS,
    UI_ACT_ENERGY,
    UI_ACT_AGAINST,
    UI_ACT_SASS,
    UI_ACT_DIFF,
    UI_ACT_GPUS,  /* G: the GPUs a run spans */
    UI_ACT_CROSS, /* c: how their partials are combined */
    UI_ACT_NEXT,  /* the Present screen: the next part or slide */
    UI_ACT_PREV,
    UI_ACT_FIRST,
    UI_ACT_LAST,
    UI_ACT_DIGIT, /* a slide's number typed */
    UI_ACT_RERUN, /* the slide's step run again */
    UI_SCREENS(UI_SCREEN_ACT)
} ui_action;
#undef UI_SCREEN_ACT

#define UI_ON(s)  (1u << (s))
#define UI_ON_ALL 0xffffu

typedef struct ui_binding {
    int key;
    int key2;
    const char *label; /* as shown: "Enter", "L", "Up/k" */
    const char *name;  /* short, for the footer */
    const char *help;  /* one line, for the help screen */
    ui_action action;
    unsigned screens; /* where it applies */
    int footer;       /* shown in the footer; lower first */
} ui_binding;

extern const ui_binding ui_bindings[];
extern const int ui_binding_count;

/* The action of key on screen (UI_ACT_NONE when unbound). */
ui_action ui_key_action(ui_screen screen, int key);

/* Footer text for a screen, fitted to width (pure; tested). */
/* run: what Enter is called where it runs or looks up (UI_ACT_RUN off the
 * Presets and Recording screens) as the source can do it ("show" in a
 * replay; "" leaves it out: nothing to run here); NULL: as the table. */
void ui_footer_text(ui_screen screen, int width, const char *run, char *buf, int len);

const char *ui_screen_name(ui_screen s);

#endif
