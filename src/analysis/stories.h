/* What the textbook expects each step of the ladder to do to its key
 * counter, and the sentence around the change: the Why panel tells them
 * with the numbers measured, the CLI ladder and the Ladder screen show the
 * counter beside each step. */
#ifndef RS_STORIES_H
#define RS_STORIES_H

#include "core/catalogue.h"
#include "core/metric_table.h"
#include "core/result.h"

typedef struct rs_story {
    rs_variant v;
    rs_metric_id a, b; /* b: the second half of a pair (ld, st), or a */
    int direction;     /* -1 fall, +1 rise, 0 about the same */
    const char *after; /* the sentence after the figure and its change */
} rs_story;

extern const rs_story rs_stories[];
extern const int rs_story_count;

/* The first story of step v (the counter that explains it), or NULL. */
const rs_story *rs_story_of(rs_variant v);
/* 1 where r ran warm within the L2: a DRAM counter then explains nothing
 * (it reads near 0), and the explaining column tells kernel time instead. */
int rs_story_dram_moot(const rs_result *r, rs_metric_id m);

/* Row i's explaining counter (its story's; a step without one: warp
 * instructions for interleaved, else DRAM throughput) with its change
 * against row i-1 (a user kernel's: the sequential row's, as its step): "shared bank
 * conflicts 79.9 k ▼99%", or brief (its column title) "conflicts ▼99%"; its value alone where the
 * row above lacks it; "-" where i lacks it.
 */
struct rs_row;
/* Returns 1 where the cell holds a change against the row above. */
int rs_story_cell(const struct rs_row *rows, int i, int brief, char *buf, size_t len);

#endif
