/* A sweep: variants timed over a range of n. The data, the crossovers
 * between the fastest variants, and the chart's scales. Pure: the TUI, the
 * CLI and the tests share it. */
#ifndef RS_SWEEP_H
#define RS_SWEEP_H

#include <stddef.h>

#include "core/row.h"
#include "core/sweep_range.h"

#define RS_SWEEP_MAX_SERIES (RS_VARIANT_COUNT + 1)

typedef struct rs_sweep {
    rs_sweep_sizes sizes;
    int nvar;
    rs_variant var[RS_VARIANT_COUNT];
    rs_row *rows;       /* sizes.count * nvar, by size then variant */
    int done;           /* rows filled so far */
    int sizes_left_out; /* a recording's sizes past RS_SWEEP_MAX_SIZES, not shown (said) */
} rs_sweep;

rs_status rs_sweep_init(rs_sweep *s, const rs_sweep_sizes *sizes, const rs_variant *vars, int nvar,
                        rs_error *err);
void rs_sweep_free(rs_sweep *s);
rs_row *rs_sweep_row(const rs_sweep *s, int size_index, int var_index);

/* The rows of a recording made by `redscope sweep` (command "sweep"), as a
 * sweep: sizes and variants in the order they appear. */
rs_status rs_sweep_from_rows(rs_sweep *s, const rs_row *rows, const char (*command)[16], int count,
                             rs_error *err);

/* A value of the chart: time in ms or GB/s; < 0 when missing, skipped,
 * wrong, or not a finite positive number. The CPU series (index nvar) is
 * the one-thread baseline measured beside each run. */
typedef enum { RS_CHART_TIME, RS_CHART_GBPS } rs_chart_quantity;
double rs_sweep_value(const rs_sweep *s, int size_index, int series, rs_chart_quantity q);
int rs_sweep_series_count(const rs_sweep *s); /* variants + the CPU */
const char *rs_sweep_series_name(const rs_sweep *s, int series);

/* The fastest series over a range of sizes: sizes first to last (indices
 * into sizes.n) until another is more than RS_LEAD_MARGIN faster. */
typedef struct rs_sweep_lead {
    int series, first, last;
} rs_sweep_lead;
/* The leads in size order, at most max; returns how many (0: nothing ran). */
int rs_sweep_leads(const rs_sweep *s, rs_sweep_lead *out, int max);

/* Where the fastest series changes: "atomic fastest up to 2^17; first_add
 * above", over every series the chart shows (the CPU baseline included).
 * Returns the number of segments; text gets the sentence. */
int rs_sweep_crossovers(const rs_sweep *s, char *text, size_t len);

/* Size n as the sweep names it: 2^k where every size is a power of two,
 * else in full. */
void rs_sweep_size_name(const rs_sweep *s, uint64_t n, char *buf, size_t len);
/* The lead changes only where another series is more than this much
 * faster (1.05: 5%): near-ties (noise) make no crossovers. */
#define RS_LEAD_MARGIN 1.05

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
