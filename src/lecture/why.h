/* The "why" sentences: what a step changed, told with the numbers just
 * measured, and what the counters say where the textbook story does not
 * hold on this GPU. Pure: no ncurses, tested on recorded results. */
#ifndef RS_LECTURE_WHY_H
#define RS_LECTURE_WHY_H

#include "core/result.h"

/* cur: the result shown; base: the previous step or the pinned result (may
 * be NULL); base_label names it; no_counters: what would give counters
 * where the row has none and none were asked for, as the source can (the
 * explorer's ui_counters_hint; a handout's command line). Returns the
 * number of sentences. */
int rs_why_measured(const rs_result *cur, const rs_result *base, const char *base_label,
                    const char *no_counters, char (*out)[256], int max);

/* The sentences of some groups alone, in the same order (the deck tells
 * each on a part of its own): a wrong result and a textbook expectation
 * this GPU does not meet (CAVEAT), the time against the base (TIME), the
 * step's story and the counters (STORY), where warps wait (STALLS), energy
 * (ENERGY). rs_why_measured is all of them. */
enum {
    RS_WHY_CAVEAT = 1,
    RS_WHY_TIME = 2,
    RS_WHY_STORY = 4,
    RS_WHY_STALLS = 8,
    RS_WHY_ENERGY = 16,
    RS_WHY_ALL = 31
};
int rs_why_some(const rs_result *cur, const rs_result *base, const char *base_label,
                const char *no_counters, unsigned which, char (*out)[256], int max);

/* The counters that tell a variant's story, most telling first. */
int rs_why_key_metrics(rs_variant v, rs_metric_id *out, int max);

/* Change of a value against its base in words: "1,179,410 -> 9,862 (-99.2%)". */
void rs_why_change(double from, double to, const char *unit, char *buf, size_t len);

#endif
