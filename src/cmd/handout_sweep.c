/* The handout's sweep: where the recording replayed holds a sweep of the
 * ladder's type, operation, block and input, its median times over n, one
 * column a variant, the crossovers as `sweep` says them, and in HTML the
 * same drawn log-log as inline SVG (the Sweep screen's chart, on paper). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "formats/record.h"
#include "analysis/sweep.h"
#include "handout.h"

/* The last sweep recorded at q's type, operation, block and input, on one
 * GPU, into s; 0 when there is none. */
static int recorded_sweep(const rs_recording *rec, const rs_request *q, rs_sweep *s)
{
    const int most = rec->count + 1; /* no more configurations than rows */
    rs_rec_config *c = calloc((size_t)most, sizeof *c);
    const int n = c ? rs_recording_configs(rec, c, most) : 0;
    int found = -1;
    for (int k = 0; k < n; k++) {
        const rs_request *r = &c[k].req;
        if (strcmp(c[k].command, "sweep") == 0 && r->type == q->type && r->op == q->op &&
            r->block == q->block && r->dist == q->dist && c[k].gpus == 1)
            found = k;
    }
    rs_error err;
    const int ok = found >= 0 &&
                   rs_sweep_from_rows(s, rec->rows + c[found].first, rec->command + c[found].first,
                                      c[found].count, &err) == RS_OK;
    free(c);
    return ok;
}

/* Its times, one row a size: "-" where a run did not run or was wrong. */
static void times_table(rs_writer *w, const rs_sweep *s)
{
    enum { MOST = 64 };
    const int ns = rs_sweep_series_count(s) < MOST - 1 ? rs_sweep_series_count(s) : MOST - 1;
    rs_column cols[MOST] = {{"n", NULL, RS_CELL_TEXT, 0, 0}};
    for (int k = 0; k < ns; k++)
        cols[k + 1] = (rs_column){rs_sweep_series_name(s, k), NULL, RS_CELL_TEXT, 0, RS_COL_RIGHT};
    rs_writer_table(w, cols, ns + 1, NULL);
    for (int i = 0; i < s->sizes.count; i++) {
        char n[48], t[MOST][32];
        rs_cell cells[MOST] = {{.text = n}};
        rs_format_size(s->sizes.n[i], n, sizeof n);
        for (int k = 0; k < ns; k++) {
            const double v = rs_sweep_value(s, i, k, RS_CHART_TIME);
            if (v > 0.0)
                rs_fmt_time(v, 1, t[k], sizeof t[k]);
            else
                snprintf(t[k], sizeof t[k], "-");
            cells[k + 1].text = t[k];
        }
        rs_writer_row(w, cells);
    }
    rs_writer_table_end(w);
}

/* The times drawn log-log: log2 n across, log10 time up, one polyline
 * and a legend entry a series, the decades as grid lines. */
static void chart(FILE *f, const rs_sweep *s)
{
    const rs_doc doc = {f, 1};
    const rs_doc *d = &doc;
    static const char *const color[] = {"#4a7ab5", "#c3572f", "#3a9a5b", "#8c5bb5",
                                        "#b59a2f", "#2fa3b5", "#b52f7a", "#666666"};
    enum { LEFT = 70, TOP = 16, W = 520, H = 280, LEGEND = 170 };
    const rs_axis ax = rs_chart_axis(s, RS_CHART_TIME, 0.0);
    fprintf(d->f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
            LEFT + W + LEGEND, TOP + H + 44, LEFT, TOP, W, H);
    double dec[16];
    const int nd = rs_log_decades(ax, dec, 16);
    for (int k = 0; k < nd; k++) {
        char t[32];
        const int y = TOP + H - 1 - rs_log_pos(ax, dec[k], H);
        rs_fmt_time(dec[k], 1, t, sizeof t);
        fprintf(d->f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/><text x=\"%d\" "
                "y=\"%d\" text-anchor=\"end\">%s</text>\n",
                LEFT, y, LEFT + W, y, LEFT - 6, y + 4, t);
    }
    for (int i = 0; i<s->sizes.count; i += s->sizes.count> 8 ? 2 : 1) {
        char n[48];
        rs_format_size(s->sizes.n[i], n, sizeof n);
        fprintf(d->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                LEFT + rs_chart_x(s, i, W), TOP + H + 18, n);
    }
    fprintf(d->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">n (elements)</text>\n",
            LEFT + W / 2, TOP + H + 38);
    for (int k = 0; k < rs_sweep_series_count(s); k++) {
        const char *c = color[k % 8];
        fprintf(d->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, RS_CHART_TIME);
            if (v > 0.0)
                fprintf(d->f, "%d,%d ", LEFT + rs_chart_x(s, i, W),
                        TOP + H - 1 - rs_log_pos(ax, v, H));
        }
        fprintf(d->f, "\"/>\n<text x=\"%d\" y=\"%d\" fill=\"%s\">", LEFT + W + 12,
                TOP + 14 + 18 * k, c);
        rs_doc_text(d, rs_sweep_series_name(s, k));
        fputs("</text>\n", d->f);
    }
    fputs("</svg>\n", d->f);
}

int rs_handout_sweep(rs_writer *w, const char *replay, const rs_request *q)
{
    rs_recording rec;
    rs_error err;
    if (rs_recording_load(replay, &rec, &err) != RS_OK) return 0;
    rs_sweep s;
    memset(&s, 0, sizeof s);
    const int found = recorded_sweep(&rec, q, &s);
    if (found) {
        char lo[48], hi[48], cross[512], head[160];
        rs_format_size(s.sizes.n[0], lo, sizeof lo);
        rs_format_size(s.sizes.n[s.sizes.count - 1], hi, sizeof hi);
        snprintf(head, sizeof head, "The sweep: n from %s to %s", lo, hi);
        rs_writer_heading(w, head);
        const int crossed = rs_sweep_crossovers(&s, cross, sizeof cross);
        char left[160] = "";
        if (s.sizes_left_out)
            snprintf(left, sizeof left,
                     " The recording holds %d more sizes; a sweep shows %d, the first recorded.",
                     s.sizes_left_out, RS_SWEEP_MAX_SIZES);
        rs_writer_say(w, "The median time of one reduction at each n, as recorded.%s%s%s%s",
                      crossed ? " Who leads: " : "", crossed ? cross : "", crossed ? "." : "",
                      left);
        FILE *svg = rs_writer_raw(w, RS_FMT_HTML);
        if (svg) chart(svg, &s);
        times_table(w, &s);
    }
    rs_sweep_free(&s);
    rs_recording_free(&rec);
    return found;
}
