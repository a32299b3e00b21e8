/* The one-line prompt on the status row (prompt.c): what it asks, the text
 * typed, its error and Tab's matches; a file prompt's owner (kernel.c,
 * against.c) hands it a setter and a completion. */
#ifndef RS_UI_PROMPT_H
#define RS_UI_PROMPT_H

#include "core/request.h"
#include "keys.h"
#include "layout.h"

typedef enum {
    UI_PROMPT_NONE,
    UI_PROMPT_N,
    UI_PROMPT_BLOCK,
    UI_PROMPT_EPT,
    UI_PROMPT_REPS,
    UI_PROMPT_SAVE,
    UI_PROMPT_NOTE,
    UI_PROMPT_OVERWRITE,
    UI_PROMPT_SHADOW,
    UI_PROMPT_VARIANTS,
    UI_PROMPT_RANGE,
    UI_PROMPT_KERNEL,
    UI_PROMPT_AGAINST,
} ui_prompt_kind;

struct ui_app;

typedef struct ui_prompt_state {
    ui_prompt_kind kind;
    char buf[RS_NOTE_MAX];
    char error[512];
    char hint[256];              /* Tab's matches, shown beside the prompt */
    char save_name[RS_NOTE_MAX]; /* s: the name, while its note is asked */
    int fresh;                   /* the pre-filled value is selected: typing replaces it */
    /* a file prompt's owner: Enter hands the path to set (1: taken), Tab
     * to complete */
    int (*set)(struct ui_app *a, const char *path);
    void (*complete)(struct ui_app *a);
} ui_prompt_state;

/* Prompts (prompt.c). */
void ui_prompt_open(struct ui_app *a, ui_prompt_kind kind, const char *initial);
/* A file path's prompt: Enter gives it to set (1: taken, else it stays with
 * its error), Tab to complete. */
void ui_prompt_open_file(struct ui_app *a, ui_prompt_kind kind, const char *initial,
                         int (*set)(struct ui_app *a, const char *path),
                         void (*complete)(struct ui_app *a));
void ui_prompt_key(struct ui_app *a, int ch);
void ui_draw_prompt(const struct ui_app *a, const ui_layout *l);
/* n, D, e, r, v, g, s: the prompt for that action, pre-filled. */
int ui_prompt_for(struct ui_app *a, ui_action act);

#endif
