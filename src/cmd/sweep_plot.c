/* `sweep --plot`: GB/s against n on log scales, a line per series (a
 * variant in each cache state swept: the same colour, warm solid and cold
 * dashed), the two ceilings measured as horizontal lines (the DRAM read,
 * the L2 read), a vertical mark where the input outgrows the L2, and a
 * circle where a curve bends (rs_sweep_bend). gnuplot draws it from the
 * chart's data, written beside it. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/format.h"
#include "formats/sweep_out.h"
#include "sweep_plot.h"

typedef struct script {
    char *buf;
    size_t len, used;
} script;

static void add(script *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(script *s, const char *fmt, ...)
{
    if (s->used >= s->len) return;
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
    va_end(ap);
    s->used = w < 0 ? s->len : s->used + (size_t)w;
}

/* A measured ceiling: a dashed line across, labelled with its GB/s (the
 * DRAM's under it on the left, the L2's over it on the right: the two can
 * be close). */
static void ceiling_line(script *sc, const char *what, double gbps, const char *color, int right)
{
    add(sc,
        "set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dashtype 2 "
        "linewidth 1.5 linecolor rgb '%s'\n"
        "set label '%s read %.0f GB/s (measured)' at graph %s, first %.6g %s offset 0,%s "
        "textcolor rgb '%s'\n",
        gbps, gbps, color, what, gbps, right ? "0.99" : "0.01", gbps, right ? "right" : "left",
        right ? "0.8" : "-0.8", color);
}

/* The L2's mark: where the input outgrows it (inside the sizes only). */
static void l2_mark(script *sc, const rs_sweep *s, const rs_sweep_ceilings *c)
{
    if (!c->n_l2 || s->sizes.count < 2 || (double)c->n_l2 < (double)s->sizes.n[0] ||
        (double)c->n_l2 > (double)s->sizes.n[s->sizes.count - 1])
        return;
    char bytes[32], n[32];
    rs_fmt_bytes((double)c->l2_bytes, bytes, sizeof bytes);
    rs_fmt_count((double)c->n_l2, n, sizeof n);
    add(sc,
        "set arrow from first %llu, graph 0 to first %llu, graph 1 nohead dashtype 3 "
        "linewidth 1.5 linecolor rgb '#aa3333'\n"
        "set label 'the input outgrows the %s L2%s: n = %s' at first %llu, graph 0.03 "
        "rotate by 90 offset -0.8,0 textcolor rgb '#aa3333'\n",
        (unsigned long long)c->n_l2, (unsigned long long)c->n_l2, bytes,
        c->first->multi.gpus > 1 ? " per GPU" : "", n, (unsigned long long)c->n_l2);
}

/* A circle where each curve bends, the first named. */
static void bend_marks(script *sc, const rs_sweep *s)
{
    int named = 0;
    for (int k = 0; k < s->nvar; k++) {
        int best;
        const int at = rs_sweep_bend(s, k, &best);
        if (at < 0) continue;
        add(sc,
            "set label '%s' at first %llu, first %.6g point pointtype 6 pointsize 2.5 "
            "offset 1,-0.8\n",
            named++ ? "" : "bends: a third below its best", (unsigned long long)s->sizes.n[at],
            rs_sweep_value(s, at, k, RS_CHART_GBPS));
    }
}

/* The highest value drawn: the data and the ceilings. */
static double top(const rs_sweep *s, const rs_sweep_ceilings *c)
{
    double hi = fmax(c->dram_gbps, c->l2_gbps);
    for (int k = 0; k < rs_sweep_series_count(s); k++)
        for (int i = 0; i < s->sizes.count; i++)
            hi = fmax(hi, rs_sweep_value(s, i, k, RS_CHART_GBPS));
    return hi;
}

void rs_sweep_plot_script(const rs_sweep *s, const rs_request *req, const char *csv, char *buf,
                          size_t len)
{
    static const char *const color[] = {"#4a7ab5", "#c3572f", "#3a9a5b", "#8c5bb5",
                                        "#b59a2f", "#2fa3b5", "#b52f7a", "#7a5b2f"};
    script sc = {buf, len, 0};
    buf[0] = '\0';
    char gpus[48] = "", quoted[4096], label[128], title[256];
    if (req->gpus != 1)
        snprintf(gpus, sizeof gpus, req->gpus ? ", %u GPUs (%s)" : ", every GPU%.0u (%s)",
                 req->gpus, rs_cross_name(req->cross));
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(s, &c);
    add(&sc,
        "set logscale x 2\nset format x '2^{%%L}'\nset logscale y 10\nset format y '10^{%%L}'\n"
        "set grid\nset key outside right noenhanced\n"
        "set title 'redscope sweep: %s %s, block %u%s, cache %s' noenhanced\n"
        "set xlabel 'n (elements)'\nset ylabel 'GB/s (the input''s bytes over the median time)'\n",
        rs_dtype_name(req->type), rs_op_name(req->op), req->block, gpus,
        s->both ? "cold and warm" : rs_cache_name(s->nvar ? s->cache[0] : req->cache));
    const double hi = top(s, &c);
    if (hi > 0) add(&sc, "set yrange [*:%.6g]\n", hi * 2.0); /* room above the top ceiling */
    if (c.dram_gbps > 0) ceiling_line(&sc, "DRAM", c.dram_gbps, "#555555", 0);
    if (c.l2_gbps > 0) ceiling_line(&sc, "L2", c.l2_gbps, "#2f7a55", 1);
    l2_mark(&sc, s, &c);
    bend_marks(&sc, s);
    rs_gnuplot_quote(csv, quoted, sizeof quoted);
    int order[RS_SWEEP_MAX_SERIES]; /* the columns of the chart's data, in order */
    const int ns = rs_sweep_series_order(s, order);
    for (int j = 0; j < ns; j++) {
        const int k = order[j];
        const int cold =
            s->both && k < s->nvar && s->cache[k] == RS_CACHE_COLD && s->var[k] != RS_V_CPU;
        snprintf(title, sizeof title, "%s",
                 k < s->nvar ? rs_sweep_series_label(s, k, label, sizeof label)
                             : rs_sweep_series_name(s, k));
        char qt[512];
        add(&sc,
            "%s'%s' using 1:%d with linespoints dashtype %d linewidth 2 linecolor rgb '%s' "
            "title '%s'",
            j ? ", \\\n     " : "plot ", quoted, j + 2, cold ? 2 : 1,
            k < s->nvar ? color[rs_sweep_variant_place(s, k) % 8] : "#666666",
            rs_gnuplot_quote(title, qt, sizeof qt));
    }
    add(&sc, "\n");
}

int rs_sweep_plot(const rs_sweep *s, const char *file, const rs_request *req)
{
    const char *dot = strrchr(file, '.');
    const int svg = dot && strcmp(dot, ".svg") == 0, png = dot && strcmp(dot, ".png") == 0;
    if (!svg && !png) {
        rs_cli_error("--plot needs a file ending in .svg or .png, not '%s'", file);
        return RS_E_USAGE;
    }
    char csv[4096];
    rs_cli_plot_csv(file, csv, sizeof csv);
    rs_error err;
    if (rs_sweep_write_csv(s, RS_CHART_GBPS, csv, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return RS_E_IO;
    }
    enum { SCRIPT = 32768 };
    static char text[SCRIPT];
    rs_sweep_plot_script(s, req, csv, text, sizeof text);
    return rs_cli_gnuplot(file, csv, text);
}
