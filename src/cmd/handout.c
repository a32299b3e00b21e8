/* `ladder --format md|html` and `present --export`: the lecture handout.
 * The device and the configuration, the ladder's table with step and total
 * speedups and the limit, then the deck in print (handout_deck.c): every
 * step's slide (its idea and code change, the question, the answer with
 * the counter that explains it, where its warps wait, its caveats) and
 * the closing slide. HTML is one file with the GB/s of every step drawn
 * inline as SVG. Always UTF-8 (×, µs). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cmd.h"
#include "handout.h"
#include "formats/record.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "analysis/stories.h"
#include "lecture/why.h"
#include "analysis/ladder.h"

static const rs_row *first_ok(const rs_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK) return &rows[i];
    return NULL;
}

/* The title and the paragraph that says what was measured, where, when. */
static void head(rs_writer *w, const rs_cli *cli, const rs_row *rows, int n)
{
    const rs_result *r = &first_ok(rows, n)->result;
    char size[48], count[48], title[256], when[64];
    rs_format_size(r->req.n, size, sizeof size);
    rs_fmt_count((double)r->req.n, count, sizeof count);
    snprintf(title, sizeof title, "The reduction ladder on %s", r->device.name);
    if (cli->replay) {
        snprintf(when, sizeof when, "as recorded");
    } else {
        const time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(when, sizeof when, "measured %Y-%m-%d %H:%M UTC", &tm);
    }
    rs_writer_title(w, title);
    char line[1024], src[512] = "", limit[96] = "";
    if (cli->replay) snprintf(src, sizeof src, " from %s", cli->replay);
    if (r->device.measured_gbps > 0.0) /* measured with these runs, where it was */
        snprintf(limit, sizeof limit, ", the streaming read %.0f GB/s measured",
                 r->device.measured_gbps);
    if (r->req.cache == RS_CACHE_WARM && r->device.l2_gbps > 0.0)
        snprintf(limit + strlen(limit), sizeof limit - strlen(limit), ", the L2 read %.0f",
                 r->device.l2_gbps);
    snprintf(line, sizeof line,
             "%s %s, n %s (%s elements), block %u, median of %u repetitions, %s input, cache "
             "%s; %s on %s (%d SMs, theoretical peak %.0f GB/s%s)%s, with redscope.",
             rs_dtype_name(r->req.type), rs_op_name(r->req.op), size, count, r->req.block,
             r->req.reps, rs_dist_name(r->req.dist), rs_cache_name(r->req.cache), when,
             r->device.name, r->device.sm_count, r->device.peak_gbps, limit, src);
    rs_writer_say(w, "%s", line);
}

/* The ladder's columns, named as the ladder's table names them; J/GB only
 * where a step measured energy (--energy). */
static const rs_column columns[] = {
    {"step", "#", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"variant", NULL, RS_CELL_TEXT, 0, 0},
    {"time", NULL, RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"step_speedup", "step", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"cumulative_speedup", "cumul.", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"gbps", "GB/s", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"pct_ceiling", "% of ceiling", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"j_per_gb", "J/GB", RS_CELL_TEXT, 0, RS_COL_RIGHT},
    {"correct", NULL, RS_CELL_TEXT, 0, 0},
    {"explains", "explains it", RS_CELL_TEXT, 0, 0},
};
enum { NCOL = sizeof columns / sizeof columns[0], JGB = 7 };

static int any_energy(const rs_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK && rows[i].result.energy.requested) return 1;
    return 0;
}

static void row_cells(const rs_row *rows, int i, char cell[NCOL][160])
{
    const rs_result *r = &rows[i].result;
    snprintf(cell[0], 160, "%d", rs_catalogue_get(r->req.variant)->step);
    rs_request_label(&r->req, cell[1], 160);
    for (int k = 2; k < NCOL; k++) snprintf(cell[k], 160, "-");
    if (rows[i].status != RS_OK) {
        snprintf(cell[NCOL - 1], 160, "%s", rows[i].error);
        return;
    }
    rs_fmt_time(r->t_median_ms, 1, cell[2], 160);
    rs_fmt_ratio(rs_ladder_step_speedup(rows, i), 1, cell[3], 160);
    rs_fmt_ratio(rs_ladder_cumulative_speedup(rows, i), 1, cell[4], 160);
    snprintf(cell[5], 160, "%.1f", r->gbps);
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &ceil);
    snprintf(cell[6], 160, "%.1f%%%s%s", c != RS_CEIL_NONE ? rs_result_pct_ceiling(r) : r->pct_peak,
             c != RS_CEIL_NONE ? " " : "", rs_ceiling_label(c));
    if (r->energy.valid) rs_fmt_j_per_gb(r->energy.j_per_gb, cell[JGB], 160);
    snprintf(cell[8], 160, "%s%s", r->correct ? "yes" : "WRONG",
             rs_variant_has(r->req.variant, RS_VF_RACY) ? " (race)" : "");
    if (r->req.variant != RS_V_CPU) rs_story_cell(rows, i, 0, cell[9], 160);
}

static void table(rs_writer *w, const rs_row *rows, int n)
{
    rs_column cols[NCOL];
    int at[NCOL], nc = 0;
    const int energy = any_energy(rows, n);
    for (int k = 0; k < NCOL; k++)
        if (k != JGB || energy) at[nc] = k, cols[nc++] = columns[k];
    rs_writer_table(w, cols, nc, NULL);
    for (int i = 0; i < n; i++) {
        if (rs_row_not_recorded(&rows[i])) continue; /* a replay's gap: no result to hand out */
        char cell[NCOL][160];
        row_cells(rows, i, cell);
        rs_cell cells[NCOL];
        for (int k = 0; k < nc; k++) cells[k] = (rs_cell){.text = cell[at[k]]};
        rs_writer_row(w, cells);
    }
    rs_writer_table_end(w);
}

/* The GB/s of every step that ran as bars, the streaming read as a
 * dashed line; names cut to fit the left margin. */
static void chart(FILE *f, const rs_row *rows, int n)
{
    const rs_doc d = {f, 1};
    const rs_ceiling c = rs_rows_ceiling(rows, n, NULL);
    const double lim = rs_rows_limit(rows, n);
    double top = lim;
    int shown = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK) {
            shown++;
            if (rows[i].result.gbps > top) top = rows[i].result.gbps;
        }
    if (!(top > 0.0)) return;
    enum { BAR = 30, LEFT = 200, LEN = 380 };
    const int h = shown * BAR + 44;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n",
            LEFT + LEN + 70, h);
    for (int i = 0, k = 0; i < n; i++) {
        if (rows[i].status != RS_OK) continue;
        char label[160], cut[200];
        rs_request_label(&rows[i].result.req, label, sizeof label);
        const double len = LEN * rows[i].result.gbps / top;
        const int y = 10 + k++ * BAR;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 14);
        rs_doc_text(&d, rs_fmt_cut(label, 26, cut, sizeof cut));
        fprintf(f,
                "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                "fill=\"#4a7ab5\"/><text x=\"%.1f\" y=\"%d\">%.0f</text>\n",
                LEFT, y, len, BAR - 8, LEFT + len + 4, y + 14, rows[i].result.gbps);
    }
    const double x = LEFT + LEN * lim / top;
    if (lim > 0.0)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c33\" "
                "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#c33\" "
                "text-anchor=\"end\">%s, %.0f GB/s</text>\n",
                x, x, h - 22, x, h - 6, rs_ceiling_phrase(c), lim);
    fputs("</svg>\n", f);
}

int rs_print_handout(const rs_cli *cli, const rs_row *rows, int n)
{
    if (!first_ok(rows, n)) {
        rs_cli_error("no step ran: nothing to write a handout of");
        return RS_E_USAGE;
    }
    rs_writer *w = cli->out;
    if (!w) return RS_E_USAGE;
    head(w, cli, rows, n);
    table(w, rows, n);
    FILE *svg = rs_writer_raw(w, RS_FMT_HTML);
    if (svg) chart(svg, rows, n);
    const rs_recording *rec = cli->replay ? cli->replay_rec : NULL;
    char from[300] = "";
    if (cli->replay) snprintf(from, sizeof from, "As recorded in %s.", cli->replay);
    if (rs_handout_deck(w, rows, n, rec ? rec->checks : NULL, rec ? rec->check_count : 0, from)) {
        rs_cli_error("out of host memory: the handout is not written");
        return RS_E_NOMEM;
    }
    if (cli->replay) rs_handout_sweep(w, cli->replay, &first_ok(rows, n)->result.req);
    return 0;
}
