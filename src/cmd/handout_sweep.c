/* The handout's sweep: where the recording replayed holds a sweep of the
 * ladder's type, operation, block and input (in one cache state, or both
 * one after the other: `sweep --cache both`), its median times over n, one
 * column a variant in each state, the crossovers, ceilings, bends and
 * bounds as `sweep` says them, and in HTML its GB/s drawn log-log as inline
 * SVG with the two ceilings measured and the L2's mark. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "formats/record.h"
#include "analysis/sweep.h"
#include "formats/sweep_out.h"
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
    /* the same sweep in the other cache state beside it: both, one sweep */
    const int twin = found >= 0 ? rs_rec_config_twin(c, n, found) : -1;
    int first = found >= 0 ? c[found].first : 0, end = found >= 0 ? first + c[found].count : 0;
    if (twin >= 0) {
        first = c[twin].first < first ? c[twin].first : first;
        end = c[twin].first + c[twin].count > end ? c[twin].first + c[twin].count : end;
    }
    rs_error err;
    const int ok = found >= 0 && rs_sweep_from_rows(s, rec->rows + first, rec->command + first,
                                                    end - first, &err) == RS_OK;
    free(c);
    return ok;
}

/* Its times, one row a size: "-" where a run did not run or was wrong. */
static void times_table(rs_writer *w, const rs_sweep *s)
{
    enum { MOST = 64 };
    int order[RS_SWEEP_MAX_SERIES]; /* a variant's states side by side */
    const int all = rs_sweep_series_order(s, order), ns = all < MOST - 1 ? all : MOST - 1;
    rs_column cols[MOST] = {{"n", NULL, RS_CELL_TEXT, 0, 0}};
    char names[MOST][128];
    for (int k = 0; k < ns; k++)
        cols[k + 1] = (rs_column){rs_sweep_series_label(s, order[k], names[k], sizeof names[k]),
                                  NULL, RS_CELL_TEXT, 0, RS_COL_RIGHT};
    rs_writer_table(w, cols, ns + 1, NULL);
    for (int i = 0; i < s->sizes.count; i++) {
        char n[48], t[MOST][32];
        rs_cell cells[MOST] = {{.text = n}};
        rs_format_size(s->sizes.n[i], n, sizeof n);
        for (int k = 0; k < ns; k++) {
            const double v = rs_sweep_value(s, i, order[k], RS_CHART_TIME);
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

enum { LEFT = 70, TOP = 16, W = 520, H = 280, LEGEND = 190 };

/* The frame, the decades of GB/s and the sizes. */
static void svg_axes(const rs_doc *d, const rs_sweep *s, rs_axis ax)
{
    fprintf(d->f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
            LEFT + W + LEGEND, TOP + H + 44, LEFT, TOP, W, H);
    double dec[16];
    const int nd = rs_log_decades(ax, dec, 16);
    for (int k = 0; k < nd; k++) {
        const int y = TOP + H - 1 - rs_log_pos(ax, dec[k], H);
        fprintf(d->f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/><text x=\"%d\" "
                "y=\"%d\" text-anchor=\"end\">%g GB/s</text>\n",
                LEFT, y, LEFT + W, y, LEFT - 6, y + 4, dec[k]);
    }
    for (int i = 0; i<s->sizes.count; i += s->sizes.count> 8 ? 2 : 1) {
        char n[48];
        rs_format_size(s->sizes.n[i], n, sizeof n);
        fprintf(d->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                LEFT + rs_chart_x(s, i, W), TOP + H + 18, n);
    }
    fprintf(d->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">n (elements)</text>\n",
            LEFT + W / 2, TOP + H + 38);
}

/* The ceilings measured, dashed across with their GB/s, and the L2's mark
 * where the input outgrows it (between two sizes: placed on log2 n). */
static void svg_ceilings(const rs_doc *d, const rs_sweep *s, rs_axis ax, const rs_sweep_ceilings *c)
{
    const double gbps[2] = {c->dram_gbps, c->l2_gbps};
    static const char *const name[2] = {"DRAM", "L2"}, *const ink[2] = {"#555555", "#2f7a55"};
    for (int k = 0; k < 2; k++) {
        if (!(gbps[k] > 0)) continue;
        const int y = TOP + H - 1 - rs_log_pos(ax, gbps[k], H);
        /* the DRAM's words under its line on the left, the L2's over it on
         * the right: the two can be close */
        fprintf(d->f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                "stroke-dasharray=\"6,4\"/><text x=\"%d\" y=\"%d\" fill=\"%s\" "
                "text-anchor=\"%s\">%s read %.0f GB/s (measured)</text>\n",
                LEFT, y, LEFT + W, y, ink[k], k ? LEFT + W - 4 : LEFT + 4, k ? y - 4 : y + 14,
                ink[k], k ? "end" : "start", name[k], gbps[k]);
    }
    const int last = s->sizes.count - 1;
    if (!c->n_l2 || last < 1 || c->n_l2 < s->sizes.n[0] || c->n_l2 > s->sizes.n[last]) return;
    const double lo = log2((double)s->sizes.n[0]), hi = log2((double)s->sizes.n[last]);
    const int x = LEFT + (int)lround((log2((double)c->n_l2) - lo) / (hi - lo) * (W - 1));
    char bytes[32];
    rs_fmt_bytes((double)c->l2_bytes, bytes, sizeof bytes);
    fprintf(d->f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#aa3333\" "
            "stroke-dasharray=\"2,3\"/><text x=\"%d\" y=\"%d\" fill=\"#aa3333\" "
            "transform=\"rotate(-90 %d %d)\">the input outgrows the %s L2</text>\n",
            x, TOP, x, TOP + H, x - 4, TOP + H - 6, x - 4, TOP + H - 6, bytes);
}

/* GB/s drawn log-log: log2 n across, log10 GB/s up, one polyline and a
 * legend entry a series (a variant's colour in each state, cold dashed),
 * the ceilings and the L2 across, a circle where a curve bends. */
static void chart(FILE *f, const rs_sweep *s)
{
    const rs_doc doc = {f, 1};
    const rs_doc *d = &doc;
    static const char *const color[] = {"#4a7ab5", "#c3572f", "#3a9a5b", "#8c5bb5",
                                        "#b59a2f", "#2fa3b5", "#b52f7a", "#7a5b2f"};
    rs_sweep_ceilings c;
    rs_sweep_ceilings_of(s, &c);
    const rs_axis ax = rs_chart_axis(s, RS_CHART_GBPS, fmax(c.dram_gbps, c.l2_gbps));
    svg_axes(d, s, ax);
    svg_ceilings(d, s, ax, &c);
    int order[RS_SWEEP_MAX_SERIES]; /* the legend: a variant's states side by side */
    const int ns = rs_sweep_series_order(s, order);
    for (int j = 0; j < ns; j++) {
        const int k = order[j];
        int best; /* a variant's colour in each state */
        const char *ink = k < s->nvar ? color[rs_sweep_variant_place(s, k) % 8] : "#666666";
        const int cold = s->both && k < s->nvar && s->cache[k] == RS_CACHE_COLD;
        fprintf(d->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", ink,
                cold ? " stroke-dasharray=\"5,3\"" : "");
        for (int i = 0; i < s->sizes.count; i++) {
            const double v = rs_sweep_value(s, i, k, RS_CHART_GBPS);
            if (v > 0.0)
                fprintf(d->f, "%d,%d ", LEFT + rs_chart_x(s, i, W),
                        TOP + H - 1 - rs_log_pos(ax, v, H));
        }
        const int bend = k < s->nvar ? rs_sweep_bend(s, k, &best) : -1;
        fputs("\"/>\n", d->f);
        if (bend >= 0)
            fprintf(d->f, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"none\" stroke=\"%s\"/>\n",
                    LEFT + rs_chart_x(s, bend, W),
                    TOP + H - 1 - rs_log_pos(ax, rs_sweep_value(s, bend, k, RS_CHART_GBPS), H),
                    ink);
        char label[128];
        fprintf(d->f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">", LEFT + W + 12, TOP + 14 + 18 * j,
                ink);
        rs_doc_text(d, rs_sweep_series_label(s, k, label, sizeof label));
        fputs("</text>\n", d->f);
    }
    fputs("</svg>\n", d->f);
}

/* The lines `sweep` prints below its table (ceilings, bends, bounds), each
 * a line of prose. */
static void limits(rs_writer *w, const rs_sweep *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    rs_print_sweep_limits(m, s);
    fclose(m);
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        rs_writer_say(w, "%s", line + strspn(line, " "));
    }
    free(text);
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
        char lo[48], hi[48], cross[1024], head[160];
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
        rs_writer_say(w, "The median time of one reduction at each n, as recorded%s.%s%s%s%s",
                      s.both ? ", cold (the L2 flushed before each run) and warm (the input "
                               "read into the L2 just before)"
                             : "",
                      crossed ? " Who leads: " : "", crossed ? cross : "", crossed ? "." : "",
                      left);
        FILE *svg = rs_writer_raw(w, RS_FMT_HTML);
        if (svg) chart(svg, &s);
        times_table(w, &s);
        limits(w, &s);
    }
    rs_sweep_free(&s);
    rs_recording_free(&rec);
    return found;
}
