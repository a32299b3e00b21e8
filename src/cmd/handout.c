/* `ladder --format md|html`: the lecture handout. The device and the
 * configuration, the ladder's table with step and total speedups and the
 * limit, then one paragraph per step: its idea, the Why sentences with the
 * numbers measured (or recorded; with --stalls the line its warps wait on,
 * with its text) and the counter that explains it. HTML is one file with
 * the GB/s of every step drawn inline as SVG. Always UTF-8 (×, µs). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cmd.h"
#include "handout.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "analysis/stories.h"
#include "ui/why.h"
#include "analysis/ladder.h"

typedef rs_doc doc;

static void text(const doc *d, const char *s)
{
    rs_doc_text(d, s);
}

static const rs_row *first_ok(const rs_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK) return &rows[i];
    return NULL;
}

static void head(const doc *d, const rs_cli *cli, const rs_row *rows, int n)
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
    if (d->html) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
              d->f);
        text(d, title);
        fputs("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;"
              "line-height:1.4}table{border-collapse:collapse}td,th{border:1px solid #bbb;"
              "padding:.2em .5em;text-align:right}td:nth-child(2),th:nth-child(2),"
              "td:last-child{text-align:left}code{background:#f3f3f3}</style>\n</head>\n<body>\n"
              "<h1>",
              d->f);
        text(d, title);
        fputs("</h1>\n<p>", d->f);
    } else {
        fputs("# ", d->f);
        text(d, title);
        fputs("\n\n", d->f);
    }
    char line[1024], src[512] = "", limit[64] = "";
    if (cli->replay) snprintf(src, sizeof src, " from %s", cli->replay);
    if (r->device.measured_gbps > 0.0) /* measured with these runs, where it was */
        snprintf(limit, sizeof limit, ", the streaming read %.0f GB/s measured",
                 r->device.measured_gbps);
    snprintf(line, sizeof line,
             "%s %s, n %s (%s elements), block %u, median of %u repetitions, %s input; %s on "
             "%s (%d SMs, theoretical peak %.0f GB/s%s)%s, with redscope.",
             rs_dtype_name(r->req.type), rs_op_name(r->req.op), size, count, r->req.block,
             r->req.reps, rs_dist_name(r->req.dist), when, r->device.name, r->device.sm_count,
             r->device.peak_gbps, limit, src);
    text(d, line);
    fputs(d->html ? "</p>\n" : "\n\n", d->f);
}

static const char *const columns[] = {"#",    "step",      "time", "step ×",  "total ×",
                                      "GB/s", "% of peak", "J/GB", "correct", "explains it"};
enum { NCOL = sizeof columns / sizeof columns[0], JGB = 7 };

/* The J/GB column only where a step measured energy (--energy). */
static int shown(const rs_row *rows, int n, int k)
{
    for (int i = 0; k == JGB && i < n; i++)
        if (rows[i].status == RS_OK && rows[i].result.energy.requested) return 1;
    return k != JGB;
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
    snprintf(cell[6], 160, "%.1f%%", r->pct_peak);
    if (r->energy.valid) rs_fmt_j_per_gb(r->energy.j_per_gb, cell[JGB], 160);
    snprintf(cell[8], 160, "%s", r->correct ? "yes" : "WRONG");
    if (r->req.variant != RS_V_CPU) rs_story_cell(rows, i, 0, cell[9], 160);
}

static void table(const doc *d, const rs_row *rows, int n)
{
    fputs(d->html ? "<table>\n<tr>" : "|", d->f);
    for (int k = 0; k < NCOL; k++)
        if (shown(rows, n, k)) fprintf(d->f, d->html ? "<th>%s</th>" : " %s |", columns[k]);
    fputs(d->html ? "</tr>\n" : "\n|", d->f);
    for (int k = 0; k < NCOL && !d->html; k++)
        if (shown(rows, n, k)) fputs(k < 2 || k >= NCOL - 2 ? "---|" : "--:|", d->f);
    if (!d->html) fputs("\n", d->f);
    for (int i = 0; i < n; i++) {
        if (rs_row_not_recorded(&rows[i])) continue; /* a replay's gap: no result to hand out */
        char cell[NCOL][160];
        row_cells(rows, i, cell);
        fputs(d->html ? "<tr>" : "|", d->f);
        for (int k = 0; k < NCOL; k++) {
            if (!shown(rows, n, k)) continue;
            fputs(d->html ? "<td>" : " ", d->f);
            text(d, cell[k]);
            fputs(d->html ? "</td>" : " |", d->f);
        }
        fputs(d->html ? "</tr>\n" : "\n", d->f);
    }
    fputs(d->html ? "</table>\n" : "\n", d->f);
}

/* The GB/s of every step that ran as bars, the streaming read as a
 * dashed line; names cut to fit the left margin. */
static void chart(const doc *d, const rs_row *rows, int n)
{
    const rs_row *f = first_ok(rows, n);
    const double lim = f->result.device.measured_gbps;
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
    fprintf(d->f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"13\">\n",
            LEFT + LEN + 70, h);
    for (int i = 0, k = 0; i < n; i++) {
        if (rows[i].status != RS_OK) continue;
        char label[160], cut[200];
        rs_request_label(&rows[i].result.req, label, sizeof label);
        const double len = LEN * rows[i].result.gbps / top;
        const int y = 10 + k++ * BAR;
        fprintf(d->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 14);
        text(d, rs_fmt_cut(label, 26, cut, sizeof cut));
        fprintf(d->f,
                "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                "fill=\"#4a7ab5\"/><text x=\"%.1f\" y=\"%d\">%.0f</text>\n",
                LEFT, y, len, BAR - 8, LEFT + len + 4, y + 14, rows[i].result.gbps);
    }
    const double x = LEFT + LEN * lim / top;
    if (lim > 0.0)
        fprintf(d->f,
                "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c33\" "
                "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"#c33\" "
                "text-anchor=\"end\">the streaming read, %.0f GB/s</text>\n",
                x, x, h - 22, x, h - 6, lim);
    fputs("</svg>\n", d->f);
}

/* The row a step is told against: the one above (a user kernel's:
 * sequential, as its step column). */
static const rs_row *base_of(const rs_row *rows, int i)
{
    for (int j = 0; rows[i].result.req.variant == RS_V_KERNEL && j < i; j++)
        if (rows[j].status == RS_OK &&
            rs_variant_has(rows[j].result.req.variant, RS_VF_KERNEL_BASE))
            return &rows[j];
    for (int j = i - 1; j >= 0; j--)
        if (rows[j].status == RS_OK) return &rows[j];
    return NULL;
}

static void step(const doc *d, const rs_row *rows, int i)
{
    const rs_result *r = &rows[i].result;
    char label[160], heading[400];
    rs_request_label(&r->req, label, sizeof label);
    const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
    snprintf(heading, sizeof heading, "%d. %s: %s", vi->step, label, vi->idea);
    fputs(d->html ? "<h2>" : "## ", d->f);
    text(d, heading);
    fputs(d->html ? "</h2>\n<p>" : "\n\n", d->f);
    const rs_row *b = base_of(rows, i);
    char base[160] = "";
    if (b) rs_request_label(&b->result.req, base, sizeof base);
    char says[12][256];
    const int ns = ui_why_measured(r, b ? &b->result : NULL, base, says, 12);
    for (int k = 0; k < ns; k++) {
        text(d, says[k]);
        fputs(" ", d->f);
    }
    fputs(d->html ? "</p>\n" : "\n\n", d->f);
    char cell[160] = "";
    const int moved = rs_story_cell(rows, i, 0, cell, sizeof cell);
    if (strcmp(cell, "-") != 0) {
        fputs(d->html ? "<p><b>The counter that explains it:</b> "
                      : "**The counter that explains it:** ",
              d->f);
        text(d, cell);
        if (moved) fputs(" (against the step above)", d->f);
        fputs(d->html ? "</p>\n" : "\n\n", d->f);
    }
}

int rs_print_handout(const rs_cli *cli, const rs_row *rows, int n)
{
    if (!first_ok(rows, n)) {
        rs_cli_error("no step ran: nothing to write a handout of");
        return RS_E_USAGE;
    }
    const int was = rs_notation_utf8();
    rs_notation_set(1); /* a document: UTF-8 whatever the terminal */
    const doc d = {stdout, cli->handout == 2};
    head(&d, cli, rows, n);
    table(&d, rows, n);
    if (d.html) chart(&d, rows, n);
    for (int i = 0; i < n; i++)
        if (rows[i].status == RS_OK && rows[i].result.req.variant != RS_V_CPU) step(&d, rows, i);
    if (cli->replay) rs_handout_sweep(&d, cli->replay, &first_ok(rows, n)->result.req);
    if (d.html) fputs("</body>\n</html>\n", d.f);
    rs_notation_set(was);
    return 0;
}
