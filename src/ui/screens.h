/* Every screen of the explorer, one row each: its id, the stem of its
 * functions, its name and one sentence of what it shows; the action that
 * opens it is UI_ACT_OPEN_<id> (keys.h), bound to a key in keys.c.
 * Its file defines ui_open_<stem> (before it shows: 0 keeps the screen
 * that was, having said why), ui_draw_<stem> (from the state, changing
 * nothing) and ui_key_<stem> (1 when it took the action); its state lives
 * in that file behind a pointer of ui_app. The enum (layout.h) and the
 * table (screens.c) are made from this list: a new screen is its file,
 * its row and its keys (keys.c). */
#ifndef UI_SCREENS_H
#define UI_SCREENS_H

#define UI_SCREENS(X)                                                                              \
    X(EXPLORER, explorer, "Explorer",                                                              \
      "one variant at a time: pick it and its settings, run it, read its times, counters and why") \
    X(LADDER, ladder, "Ladder",                                                                    \
      "every variant on one configuration, each step against the one before and the limit")        \
    X(COMPARE, compare, "Compare",                                                                 \
      "two results side by side: every figure and counter, and what moved")                        \
    X(SWEEP, sweep, "Sweep",                                                                       \
      "variants over a range of n, charted, with where one overtakes another")                     \
    X(HELP, help, "Help", "every key, the screen it came from first")                              \
    X(PRESETS, presets, "Presets", "the shipped and saved configurations: Enter loads one")        \
    X(RECORDING, recording, "Recording",                                                           \
      "the configurations a recording holds: Enter replays one")                                   \
    X(SOURCE, source, "Source", "the kernel's source with where its warps waited, line by line")   \
    X(PRESENT, present, "Present",                                                                 \
      "the ladder as a lecture: a slide a step, built up a part a key, with the measured numbers")

#endif
