#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define EXP     UI_ON(UI_SCREEN_EXPLORER)
#define LAD     UI_ON(UI_SCREEN_LADDER)
#define CMP     UI_ON(UI_SCREEN_COMPARE)
#define SWP     UI_ON(UI_SCREEN_SWEEP)
#define HLP     UI_ON(UI_SCREEN_HELP)
#define PRS     UI_ON(UI_SCREEN_PRESETS)
#define REC     UI_ON(UI_SCREEN_RECORDING)
#define SRC     UI_ON(UI_SCREEN_SOURCE)
#define PST     UI_ON(UI_SCREEN_PRESENT)
#define ESC_KEY 27

const ui_binding ui_bindings[] = {
    {'\n', KEY_ENTER, "Enter", "run",
     "run the variant, the ladder or the sweep (replay: show what was recorded)", UI_ACT_RUN,
     EXP | LAD | SWP, 1},
    {'\n', KEY_ENTER, "Enter", "load", "presets: load the selected preset", UI_ACT_RUN, PRS, 1},
    {'\n', KEY_ENTER, "Enter", "show", "recording: show the selected configuration", UI_ACT_RUN,
     REC, 1},
    {'\n', KEY_ENTER, "Enter", "sample",
     "source: run the selected variant with PC sampling (where its warps wait)", UI_ACT_RUN, SRC,
     1},
    {KEY_UP, 'k', "Up/k", "", "move up", UI_ACT_UP, EXP | LAD | PRS | HLP | REC | SRC | PST, 0},
    {KEY_DOWN, 'j', "Down/j", "", "move down", UI_ACT_DOWN, EXP | LAD | PRS | HLP | REC | SRC | PST,
     0},
    {KEY_LEFT, 'h', "Left/h", "", "sweep: move the cursor along n", UI_ACT_LEFT, SWP, 0},
    {KEY_RIGHT, 'l', "Right/l", "", "sweep: move the cursor along n", UI_ACT_RIGHT, SWP, 0},
    {ESC_KEY, KEY_BACKSPACE, "Esc", "back", "cancel a run between launches, or leave a screen",
     UI_ACT_CANCEL, UI_ON_ALL & ~EXP, 2},
    {ESC_KEY, 0, "Esc", "", "cancel a run between launches", UI_ACT_CANCEL, EXP, 0},
    {'L', 0, "L", "ladder", "the ladder screen: every variant on this configuration",
     UI_ACT_OPEN_LADDER, EXP | CMP | SWP, 3},
    {'S', 0, "S", "sweep", "the sweep screen: variants over a range of n, charted",
     UI_ACT_OPEN_SWEEP, EXP | LAD | CMP, 4},
    {'C', 0, "C", "compare", "compare two variants, or a result with the pinned one",
     UI_ACT_OPEN_COMPARE, EXP | LAD, 5},
    {'W', 0, "W", "source",
     "where warps wait, line by line: the selected result's PC samples beside its source "
     "(Enter there samples)",
     UI_ACT_OPEN_SOURCE, EXP | LAD | CMP, 5},
    {'w', 0, "w", "",
     "PC sampling on or off: runs also sample where warps wait (about a fifth of a second each)",
     UI_ACT_STALLS, EXP | LAD | SRC | PST, 0},
    {'E', 0, "E", "",
     "energy on or off: runs also measure the board's energy per reduction through NVML "
     "(about half a second each)",
     UI_ACT_ENERGY, EXP | LAD | PST, 0},
    {'s', 0, "s", "sass",
     "source: the SASS of the cursor's line with each instruction's samples (needs nvdisasm on "
     "PATH); s again hides it",
     UI_ACT_SASS, SRC, 6},
    {'d', 0, "d", "diff",
     "source: this view against another line by line, the biggest change first: the pinned "
     "result, your kernel's previous version, or the previous step sampled; d again goes back",
     UI_ACT_DIFF, SRC, 6},
    {'p', 0, "p", "pin", "pin the selected result as the baseline for changes", UI_ACT_PIN,
     EXP | LAD | SRC, 6},
    {'t', 0, "t", "type", "next element type (T: previous)", UI_ACT_TYPE, EXP | LAD | SWP | PST, 7},
    {'T', 0, "T", "", "previous element type", UI_ACT_TYPE_BACK, EXP | LAD | SWP | PST, 0},
    {'o', 0, "o", "op", "next operation (O: previous)", UI_ACT_OP, EXP | LAD | SWP | PST, 8},
    {'O', 0, "O", "", "previous operation", UI_ACT_OP_BACK, EXP | LAD | SWP | PST, 0},
    {'n', 0, "n", "size", "type n (16777216, 2^24, 16M, 1024*65535)", UI_ACT_N, EXP | LAD | PST, 9},
    {'b', 0, "b", "block", "next blockDim (B: previous)", UI_ACT_BLOCK, EXP | LAD | SWP | PST, 10},
    {'B', 0, "B", "", "previous blockDim", UI_ACT_BLOCK_BACK, EXP | LAD | SWP | PST, 0},
    {'D', 0, "D", "", "type a blockDim", UI_ACT_BLOCK_TYPE, EXP | LAD | SWP, 0},
    {'m', 0, "m", "counters",
     "next counter set: none, default, full; the status says what it costs (M: previous)",
     UI_ACT_METRICS, EXP | LAD | PST, 11},
    {'M', 0, "M", "", "previous counter set", UI_ACT_METRICS_BACK, EXP | LAD | PST, 0},
    {'P', 0, "P", "presets", "load a preset (shipped and user)", UI_ACT_OPEN_PRESETS,
     EXP | LAD | SWP, 12},
    {'s', 0, "s", "save", "save this configuration as a preset", UI_ACT_SAVE, EXP | LAD | SWP | PRS,
     13},
    {'f', 0, "f", "finish", "next finish: auto relaunch cpu atomic single_pass (F: previous)",
     UI_ACT_FINISH, EXP | LAD | SWP | PST, 14},
    {'F', 0, "F", "", "previous finish", UI_ACT_FINISH_BACK, EXP | LAD | SWP | PST, 0},
    {'e', 0, "e", "ept", "type elements per thread (0: automatic)", UI_ACT_EPT, EXP | LAD, 15},
    {'r', 0, "r", "reps", "type the number of timed repetitions", UI_ACT_REPS, EXP | LAD | SWP, 16},
    {'i', 0, "i", "input", "next input distribution (I: previous)", UI_ACT_INPUT,
     EXP | LAD | SWP | PST, 17},
    {'I', 0, "I", "", "previous input distribution", UI_ACT_INPUT_BACK, EXP | LAD | SWP | PST, 0},
    {'l', 0, "l", "cache",
     "cache state: cold (the L2 flushed before each run) or warm (the input read into the L2 "
     "just before)",
     UI_ACT_CACHE, EXP | LAD, 0},
    {'G', 0, "G", "gpus",
     "next GPU count: a run splits n over GPUs 0..N-1 and combines their partials (c picks "
     "how); the counters shown are GPU 0's",
     UI_ACT_GPUS, EXP | LAD | SWP, 17},
    {'c', 0, "c", "", "next cross-GPU finish: host, p2p (peer copies), nccl (ncclReduce)",
     UI_ACT_CROSS, EXP | LAD | SWP, 0},
    {KEY_PPAGE, '[', "PgUp/[", "", "scroll the explanation up", UI_ACT_SCROLL_UP, EXP, 0},
    {KEY_NPAGE, ']', "PgDn/]", "", "scroll the explanation down", UI_ACT_SCROLL_DOWN, EXP, 0},
    {KEY_PPAGE, '[', "PgUp/[", "", "a page of rows up", UI_ACT_SCROLL_UP, CMP | HLP, 0},
    {KEY_NPAGE, ']', "PgDn/]", "", "a page of rows down", UI_ACT_SCROLL_DOWN, CMP | HLP, 0},
    {KEY_NPAGE, ']', "PgDn/]", "more",
     "source: the cursor line's reasons, functions or SASS a page down, where they are cut "
     "(PgUp/[: up)",
     UI_ACT_SCROLL_DOWN, SRC, 7},
    {KEY_PPAGE, '[', "PgUp/[", "", "source: the cursor line's detail a page up", UI_ACT_SCROLL_UP,
     SRC, 0},
    {'{', 0, "{", "", "scroll the counters up", UI_ACT_COUNTERS_UP, EXP, 0},
    {'}', 0, "}", "", "scroll the counters down", UI_ACT_COUNTERS_DOWN, EXP, 0},
    {'a', 0, "a", "left", "compare: next variant on the left", UI_ACT_PICK_A, CMP, 6},
    {'z', 0, "z", "right",
     "compare: next variant on the right, then the pinned result, then the held recording's "
     "run of the left one (--against)",
     UI_ACT_PICK_B, CMP, 7},
    {'v', 0, "v", "variants", "sweep: type the variants (atomic,first_add or interleaved..cub)",
     UI_ACT_VARIANTS, SWP, 5},
    {'g', 0, "g", "range", "sweep: type the range of n (2^10..2^28, 1K..1G:4, 1000,2^20)",
     UI_ACT_RANGE, SWP, 6},
    {'y', 0, "y", "time/GB/s", "sweep: chart time or bandwidth", UI_ACT_TOGGLE_Y, SWP, 7},
    {'x', 0, "x", "race?",
     "check the selected variant for shared-memory races (compute-sanitizer racecheck; X: "
     "memcheck and initcheck)",
     UI_ACT_CHECK_RACE, EXP | LAD, 0},
    {'X', 0, "X", "", "check the selected variant's device-memory accesses (memcheck, initcheck)",
     UI_ACT_CHECK_MEMORY, EXP | LAD, 0},
    {'R', 0, "R", "replay",
     "replay: list the recording's configurations; without a GPU: replay the shipped H200",
     UI_ACT_OPEN_RECORDING, EXP | LAD | SWP | CMP | PST, 18},
    {'A', 0, "A", "against",
     "recording: a recording to hold against what is shown (the Ladder screen's vs A column, "
     "z on Compare; empty clears it)",
     UI_ACT_AGAINST, REC, 6},
    {'K', 0, "K", "kernel",
     "your own kernel: type the path of a .cu file (Tab completes; empty clears it); it is the "
     "last row, and runs again each time you save the file",
     UI_ACT_KERNEL, EXP | LAD, 18},
    {KEY_RIGHT, ' ', "Right/Space", "next", "present: the slide's next part, then the next slide",
     UI_ACT_NEXT, PST, 1},
    {KEY_NPAGE, 'l', "PgDn/l", "", "present: the next part or slide", UI_ACT_NEXT, PST, 0},
    {KEY_LEFT, KEY_PPAGE, "Left/PgUp", "prev", "present: the slide before, whole", UI_ACT_PREV, PST,
     2},
    {KEY_HOME, 0, "Home", "", "present: the title slide", UI_ACT_FIRST, PST, 0},
    {KEY_END, 0, "End", "", "present: the closing slide", UI_ACT_LAST, PST, 0},
    {'0', '9', "0-9", "", "present: type a slide's number; Enter goes to it", UI_ACT_DIGIT, PST, 0},
    {'\n', KEY_ENTER, "Enter", "", "present: go to the slide typed, else the next part", UI_ACT_RUN,
     PST, 0},
    {'r', 0, "r", "again",
     "present: run the slide's step again (a replay: show what was recorded of it)", UI_ACT_RERUN,
     PST, 3},
    {'V', 0, "V", "present", "present the ladder as slides, from the selected step",
     UI_ACT_OPEN_PRESENT, EXP | LAD, 8},
    {'?', KEY_F(1), "?", "help", "this help", UI_ACT_OPEN_HELP, UI_ON_ALL & ~HLP, 19},
    {'q', 0, "q", "quit", "quit (asks first while a run is going)", UI_ACT_QUIT, UI_ON_ALL, 20},
};
const int ui_binding_count = (int)(sizeof ui_bindings / sizeof ui_bindings[0]);

ui_action ui_key_action(ui_screen screen, int key)
{
    if (key == '\r') key = '\n';
    for (int i = 0; i < ui_binding_count; i++) {
        const ui_binding *b = &ui_bindings[i];
        if (!(b->screens & UI_ON(screen))) continue;
        if (b->key == key || (b->key2 && b->key2 == key)) return b->action;
    }
    return UI_ACT_NONE;
}

/* Footer order 19 and 20 (help, quit) are always shown; the others while
 * they fit, in their order. */
static int footer_item(const ui_binding *b, const char *run, char *buf, int len)
{
    const int runs = run && b->action == UI_ACT_RUN && !(b->screens & (PRS | REC));
    if (runs && !run[0]) return 0; /* Enter does nothing here: not offered */
    return snprintf(buf, (size_t)len, " %s %s ", b->label, runs ? run : b->name);
}

void ui_footer_text(ui_screen screen, int width, const char *run, char *buf, int len)
{
    char tail[96] = "", item[64];
    int tail_len = 0, used = 0;
    for (int order = 19; order <= 20; order++)
        for (int i = 0; i < ui_binding_count; i++) {
            const ui_binding *b = &ui_bindings[i];
            if (b->footer != order || !(b->screens & UI_ON(screen))) continue;
            tail_len += footer_item(b, NULL, tail + tail_len, (int)sizeof tail - tail_len);
        }
    buf[0] = '\0';
    for (int order = 1; order < 19; order++)
        for (int i = 0; i < ui_binding_count; i++) {
            const ui_binding *b = &ui_bindings[i];
            if (b->footer != order || !(b->screens & UI_ON(screen)) || !b->name[0]) continue;
            const int w = footer_item(b, run, item, (int)sizeof item);
            if (w <= 0 || used + w + tail_len > width - 1 || used + w + tail_len >= len) continue;
            memcpy(buf + used, item, (size_t)w + 1);
            used += w;
        }
    if (used + tail_len < width && used + tail_len < len)
        memcpy(buf + used, tail, (size_t)tail_len + 1);
}

const char *ui_screen_name(ui_screen s)
{
#define UI_SCREEN_NAME(id, stem, name, about) [UI_SCREEN_##id] = name,
    static const char *const names[UI_SCREEN_COUNT] = {UI_SCREENS(UI_SCREEN_NAME)};
#undef UI_SCREEN_NAME
    return (unsigned)s < UI_SCREEN_COUNT ? names[s] : "?";
}
