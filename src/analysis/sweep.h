/* A sweep: variants timed over a range of n. The data, the crossovers
 * between the fastest variants, and the chart's scales. Pure: the TUI, the
 * CLI and the tests share it. */
#ifndef RS_SWEEP_H
#define RS_SWEEP_H

#include <stddef.h>

#include "core/row.h"
#include "core/sweep_range.h"

/* A sweep's columns: a variant in one cache state each; in both states a
 * variant has two (the CPU one: it has no cache). */
#define RS_SWEEP_MAX_COLS   (2 * RS_VARIANT_COUNT)
#define RS_SWEEP_MAX_SERIES (RS_SWEEP_MAX_COLS + 1)

/* The cache states a sweep runs, a bit per rs_cache: one, or both (every
 * size cold, then every size warm: `sweep --cache both`). */
#define RS_CACHE_BIT(c) (1u << (unsigned)(c))
#define RS_CACHE_BOTH   (RS_CACHE_BIT(RS_CACHE_COLD) | RS_CACHE_BIT(RS_CACHE_WARM))

typedef struct rs_sweep {
    rs_sweep_sizes sizes;
    int nvar;                          /* columns, grouped by state (cold first) */
    rs_variant var[RS_SWEEP_MAX_COLS]; /* each column's variant */
    rs_cache cache[RS_SWEEP_MAX_COLS]; /* and its cache state */
    int both;                          /* columns in both states: names say the state */
    rs_row *rows;       /* sizes.count * nvar: state by state, each size by size (rs_sweep_index) */
    int done;           /* rows filled so far, in that order */
    int sizes_left_out; /* a recording's sizes past RS_SWEEP_MAX_SIZES, not shown (said) */
} rs_sweep;

/* Every variant of vars in each state of states (RS_CACHE_BIT each), the
 * cpu variant in the first alone. */
rs_status rs_sweep_init(rs_sweep *s, const rs_sweep_sizes *sizes, const rs_variant *vars, int nvar,
                        unsigned states, rs_error *err);
void rs_sweep_free(rs_sweep *s);
/* The row of size i and column k, its place in rows (the order a sweep
 * runs: every size in one state, then the next state), and back. */
rs_row *rs_sweep_row(const rs_sweep *s, int size_index, int col);
int rs_sweep_index(const rs_sweep *s, int size_index, int col);
void rs_sweep_at(const rs_sweep *s, int index, int *size_index, int *col);
/* The request of row index: base for its variant, its n and its state. */
void rs_sweep_request(const rs_sweep *s, int index, const rs_request *base, rs_request *out);

/* The rows of a recording made by `redscope sweep` (command "sweep"), as a
 * sweep: sizes, and a column per variant and cache state, in the order
 * above (a cpu run in a second state is left out: the CPU has no cache). */
rs_status rs_sweep_from_rows(rs_sweep *s, const rs_row *rows, const char (*command)[16], int count,
                             rs_error *err);

/* A value of the chart: time in ms or GB/s; < 0 when missing, skipped,
 * wrong, or not a finite positive number. The CPU series (index nvar) is
 * the one-thread baseline measured beside each run. */
typedef enum { RS_CHART_TIME, RS_CHART_GBPS } rs_chart_quantity;
double rs_sweep_value(const rs_sweep *s, int size_index, int series, rs_chart_quantity q);
int rs_sweep_series_count(const rs_sweep *s); /* columns + the CPU */
/* A series' variant (a user kernel: its file), without its state. */
const char *rs_sweep_series_name(const rs_sweep *s, int series);
/* A series as a table heads it: its name, and in a sweep of both states its
 * state ("vectorized (warm)"); into buf, returned. */
const char *rs_sweep_series_label(const rs_sweep *s, int series, char *buf, size_t len);
/* A series' variant's place among the sweep's variants (its colour in
 * both states); -1 for the CPU's series. */
int rs_sweep_variant_place(const rs_sweep *s, int series);
/* The series in the order tables and legends list them: each variant's
 * columns side by side (cold, then warm), the CPU's series last; how many
 * (room for RS_SWEEP_MAX_SERIES). */
int rs_sweep_series_order(const rs_sweep *s, int *order);
/* Whether a series is among those of a cache state: a column of it, or
 * the CPU's (no state: in every one); state -1: every series. */
int rs_sweep_series_in(const rs_sweep *s, int series, int state);

/* The fastest series over a range of sizes: sizes first to last (indices
 * into sizes.n) until another is more than RS_LEAD_MARGIN faster. */
typedef struct rs_sweep_lead {
    int series, first, last;
} rs_sweep_lead;
/* The leads in size order among the series of a state (-1: every
 * series), at most max; returns how many (0: nothing ran). */
int rs_sweep_leads(const rs_sweep *s, int state, rs_sweep_lead *out, int max);

/* Where the fastest series changes: "atomic fastest up to 2^17; first_add
 * above", over every series the chart shows (the CPU baseline included);
 * in a sweep of both states, each state's: "cold: ... warm: ...".
 * Returns the number of segments; text gets the sentence. */
int rs_sweep_crossovers(const rs_sweep *s, char *text, size_t len);

/* Size n as the sweep names it: 2^k where every size is a power of two,
 * else in full. */
void rs_sweep_size_name(const rs_sweep *s, uint64_t n, char *buf, size_t len);
/* The lead changes only where another series is more than this much
 * faster (1.05: 5%): near-ties (noise) make no crossovers. */
#define RS_LEAD_MARGIN 1.05

/* The measured limits a sweep's rows are held against (rs_result_ceiling),
 * of all the GPUs of a row, from the first GPU row that ran: the DRAM
 * read, the L2's read, the L2's size, the n whose input fills it (past
 * it a warm input comes from DRAM), and one launch's floor. 0: not
 * measured, or not recorded. */
typedef struct rs_sweep_ceilings {
    double dram_gbps, l2_gbps;
    uint64_t l2_bytes, n_l2;
    double floor_launch_us;
    const rs_result *first; /* the row they come from (NULL: none ran) */
} rs_sweep_ceilings;
void rs_sweep_ceilings_of(const rs_sweep *s, rs_sweep_ceilings *c);

/* Where a measured curve bends: the first index after its best where the
 * value falls by more than a third of the best (below two thirds of it);
 * -1 where it never does. A value <= 0 (not measured) is skipped. */
#define RS_BEND_FALL 3.0 /* falls by more than best / RS_BEND_FALL */
int rs_bend_index(const double *v, int count);
/* Series k's bend in GB/s over the sweep's sizes: a size index, or -1;
 * *best gets the size index of its best (-1 none). */
int rs_sweep_bend(const rs_sweep *s, int series, int *best);

/* Where warm stops gaining on cold (sweep_edge.c): the first size after
 * the one where cold's time over warm's is highest (at least RS_EDGE_GAIN)
 * at which it is RS_EDGE_SAME or less; -1 where warm never gained or never
 * stops. Times of the same sizes (<= 0: not measured); *best_ratio gets
 * the highest ratio (0: none). */
#define RS_EDGE_GAIN 1.15 /* warm 15% faster at its best */
#define RS_EDGE_SAME 1.05 /* no more than 5% faster */
int rs_edge_index(const double *cold, const double *warm, int count, double *best_ratio);
/* A warm series' edge against its cold twin in a sweep of both states
 * (-1: a cold series, no twin, or no edge). */
int rs_sweep_warm_edge(const rs_sweep *s, int series, double *best_ratio);

/* What bounds a result: one launch's time (within RS_LAUNCH_BOUND of the
 * device's floor_launch_us), else the L2 (warm, the input within it),
 * else DRAM. NONE for the cpu, a row that did not run, or a device whose
 * launch floor was not measured (launch-bound cannot be told then). */
typedef enum { RS_BOUND_NONE, RS_BOUND_LAUNCH, RS_BOUND_L2, RS_BOUND_DRAM } rs_bound;
#define RS_LAUNCH_BOUND 1.5
rs_bound rs_result_bound(const rs_result *r);
/* "launch", "l2", "dram" ("" for NONE): the name in CSV and JSON. */
const char *rs_bound_key(rs_bound b);
/* "launch-bound", "L2-bound", "DRAM-bound": in sentences. */
const char *rs_bound_words(rs_bound b);
/* Column k's bound over the sizes: ranges of one bound, in size order
 * (sizes whose row has none are skipped); how many, at most max. */
typedef struct rs_bound_range {
    rs_bound bound;
    int first, last; /* size indices */
} rs_bound_range;
int rs_sweep_bounds(const rs_sweep *s, int col, rs_bound_range *out, int max);
/* Column k's variant in words, over its columns in each state:
 * "vectorized: launch-bound to 2^18, L2-bound 2^19..2^23 (warm; cold:
 * DRAM-bound), DRAM-bound from 2^24"; "" where none of its rows tells. */
void rs_sweep_bound_line(const rs_sweep *s, int col, char *buf, size_t len);

/* A log axis from lo to hi: decade bounds that contain them. A bound that
 * is zero, negative, NaN or infinite is ignored; with none usable the axis
 * is 1..10. Always finite, lo < hi. */
typedef struct rs_axis {
    double lo, hi;
} rs_axis;
rs_axis rs_log_axis(double lo, double hi);

/* Position of v on a log axis mapped onto [0, cells - 1] (clamped; 0 for
 * values that cannot be placed). */
int rs_log_pos(rs_axis a, double v, int cells);

/* The chart's value axis: every plottable value of the sweep (and the peak
 * in the GB/s view); 1..10 when there is none yet. */
rs_axis rs_chart_axis(const rs_sweep *s, rs_chart_quantity q, double peak);

/* The decades of an axis, at most max; 0 for a broken axis. */
int rs_log_decades(rs_axis a, double *out, int max);

/* Column (0..dots-1) of size i on the chart's log2 n axis. */
int rs_chart_x(const rs_sweep *s, int i, int dots);

/* Labels on an axis of plot_w cells: label i of width[i] centred at
 * center[i]; the cursor's (-1: none) placed first, the others only where
 * they keep gap cells from every placed one and stay inside. start[i] gets
 * the cell, or -1 when dropped. Returns how many are shown. The x axis
 * keeps a column between labels (gap 1); the y axis a row each (gap 0). */
int rs_place_labels(const int *center, const int *width, int count, int cursor, int plot_w, int gap,
                    int *start);

#endif
