/* Tables and CSV for people and scripts: a run, a ladder, the devices. */
#include "energy.h"
#include "export.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/reference.h"
#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/format.h"
#include "stalls_io.h"
#include "analysis/stories.h"
#include "core/ukernel.h"
#include "analysis/ladder.h"

static void print_json(FILE *f, cJSON *j)
{
    char *s = rs_json_print(j);
    if (s) fprintf(f, "%s\n", s);
    free(s);
    cJSON_Delete(j);
}

static const char *verdict(const rs_result *r)
{
    return r->correct ? "yes" : "WRONG";
}

static void describe_metrics(FILE *f, const rs_metrics *m)
{
    if (!m->requested) return;
    char a[64];
    if (!m->valid) {
        fprintf(f, "counters   not collected: %s\n", m->reason[0] ? m->reason : "unknown reason");
        return;
    }
    rs_fmt_time(m->wall_ms, rs_notation_utf8(), a, sizeof a);
    fprintf(f, "counters   %d replay pass%s, profiling took %s%s%s\n", m->passes,
            m->passes == 1 ? "" : "es", a, m->reason[0] ? "; " : "", m->reason);
    const int utf8 = rs_notation_utf8();
    char p[80]; /* padded by columns: "µs" is two bytes */
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (!(m->requested & RS_METRIC_BIT(i))) continue;
        if (m->valid & RS_METRIC_BIT(i))
            rs_fmt_metric(m->value[i], d->unit, utf8, a, sizeof a);
        else
            snprintf(a, sizeof a, "n/a");
        fprintf(f, "  %-26s %s   %s\n", d->label, rs_pad(a, 14, 1, p, sizeof p), d->meaning);
    }
    if (m->nlaunch > 1 && m->launch) {
        fprintf(f, "  per launch:\n");
        for (int k = 0; k < m->nlaunch; k++) {
            char t[32], b[32], w[32];
            rs_fmt_metric(m->launch[k].value[RS_M_DURATION], "ns", utf8, t, sizeof t);
            rs_fmt_metric(m->launch[k].value[RS_M_DRAM_READ], "bytes", 0, b, sizeof b);
            rs_fmt_si(m->launch[k].value[RS_M_WARP_INST], w, sizeof w);
            fprintf(f, "    %-30s %s  %s %10s  %s %8s\n", m->launch[k].name,
                    rs_pad(t, 10, 1, p, sizeof p), rs_metric_defs[RS_M_DRAM_READ].label, b,
                    rs_metric_defs[RS_M_WARP_INST].label, w);
        }
    }
}

/* A GPU's own counters, where read: its DRAM traffic and kernel time. */
static void share_counters(FILE *f, const rs_gpu_share *s)
{
    static const rs_metric_id shown[] = {RS_M_DURATION, RS_M_DRAM_READ, RS_M_DRAM_PCT};
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
        const rs_metric_def *d = &rs_metric_defs[shown[k]];
        if (!(s->valid & RS_METRIC_BIT(shown[k]))) continue;
        char v[32];
        rs_fmt_metric(s->value[shown[k]], d->unit, rs_notation_utf8(), v, sizeof v);
        fprintf(f, ", %s %s", d->label, v);
    }
}

/* A run over several GPUs: each GPU's share and time, and the finish's. */
static void describe_gpus(FILE *f, const rs_multi_result *m)
{
    if (m->gpus < 2) return;
    const int utf8 = rs_notation_utf8();
    char a[32], b[32];
    rs_fmt_time(m->shard_ms, utf8, a, sizeof a);
    rs_fmt_time(m->finish_ms, utf8, b, sizeof b);
    fprintf(f, "gpus       %d, partials combined by %s: the slowest GPU %s, the finish %s\n",
            m->gpus, rs_cross_name(m->cross), a, b);
    if (m->links[0]) fprintf(f, "links      %s\n", m->links);
    for (int g = 0; m->share && g < m->gpus && g < RS_GPUS_MAX; g++) {
        const rs_gpu_share *s = &m->share[g];
        char n[48];
        rs_format_size(s->count, n, sizeof n);
        rs_fmt_time(s->ms, utf8, a, sizeof a);
        if (s->count)
            fprintf(f, "  GPU %-3d  %s: elements %llu to %llu (%s), %s", s->device, s->name,
                    (unsigned long long)s->offset, (unsigned long long)(s->offset + s->count - 1),
                    n, a);
        else
            fprintf(f, "  GPU %-3d  %s: no elements (n < GPUs), the identity", s->device, s->name);
        share_counters(f, s);
        fprintf(f, "\n");
    }
}

/* The run's time, bandwidth and CPU lines. */
static void print_times(FILE *f, const rs_result *r)
{
    char a[32], b[32], c[32];
    const int utf8 = rs_notation_utf8();
    rs_fmt_time(r->t_median_ms, utf8, a, sizeof a);
    rs_fmt_time(r->t_min_ms, utf8, b, sizeof b);
    rs_fmt_time(r->t_max_ms, utf8, c, sizeof c);
    if (r->req.variant == RS_V_CPU && r->cpu_from == RS_CPU_BESIDE)
        fprintf(f,
                "time       %s: the CPU time recorded beside GPU runs of this input (one thread, "
                "the best of up to 3 runs; no median or spread)\n",
                a);
    else
        fprintf(f, "time       %s median (min %s, max %s, %u rep%s)\n", a, b, c, r->reps,
                r->reps == 1 ? "" : "s");
    fprintf(f, "bandwidth  %.1f GB/s", r->gbps);
    const int g = r->multi.gpus > 1 ? r->multi.gpus : 1; /* % of all the GPUs' peaks */
    if (r->pct_peak > 0)
        fprintf(f, ", %.1f%% of the theoretical peak %.0f GB/s", r->pct_peak,
                g * r->device.peak_gbps);
    char ceil[200];
    rs_ceiling_words(r, ceil, sizeof ceil);
    if (ceil[0]) fprintf(f, ", %.1f%% of %s", rs_result_pct_ceiling(r), ceil);
    fprintf(f, "\n");
    rs_fmt_time(r->cpu_ms, utf8, a, sizeof a);
    rs_fmt_ratio(r->speedup_cpu, utf8, b, sizeof b);
    if (r->req.variant != RS_V_CPU)
        fprintf(f, "cpu        %s on one host thread (%s); %s on the GPU\n", a,
                rs_cpu_from_words(rs_cpu_from_of(r)), b);
    if (r->energy.requested) {
        char e[400];
        rs_energy_describe(&r->energy, utf8, e, sizeof e);
        fprintf(f, "energy     %s\n", e);
    }
}

static void print_run_table(FILE *f, const rs_row *row)
{
    const rs_result *r = &row->result;
    char n[48];
    rs_format_size(r->req.n, n, sizeof n);
    if (row->status != RS_OK) {
        fprintf(f, "%s: %s\n", rs_request_name(&r->req), row->error);
        return;
    }
    const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
    char label[96];
    fprintf(f, "variant    %s (step %d: %s)\n", rs_request_label(&r->req, label, sizeof label),
            vi->step, vi->idea);
    if (r->req.variant == RS_V_KERNEL && r->uk.entry[0]) {
        char spills[96];
        rs_ukernel_spills(r->uk.spill_st, r->uk.spill_ld, r->uk.local, spills, sizeof spills);
        fprintf(f, "kernel     %s in %s: %d registers, %d bytes static shared, %s, sm_%d\n",
                r->uk.entry, r->req.kernel, r->uk.regs, r->uk.smem, spills, r->uk.arch);
    }
    fprintf(f, "config     %s %s, n %s (%llu), block %u, cache %s", rs_dtype_name(r->req.type),
            rs_op_name(r->req.op), n, (unsigned long long)r->req.n, r->req.block,
            rs_cache_name(r->req.cache));
    if (r->finish != RS_FINISH_AUTO) fprintf(f, ", finish %s", rs_finish_name(r->finish));
    fprintf(f, "\n");
    if (r->device.index >= 0 && r->multi.gpus < 2)
        fprintf(f, "device     %s, %d SMs, peak %.0f GB/s\n", r->device.name, r->device.sm_count,
                r->device.peak_gbps);
    describe_gpus(f, &r->multi);
    if (r->grid)
        fprintf(f, "launch     %u launch%s, first grid %u x %u, %.1f elements per thread\n",
                r->launches, r->launches == 1 ? "" : "es", r->grid, rs_result_block(r), r->ept);
    if (rs_result_chose_block(r))
        fprintf(f,
                "           %s chose blockDim %u for this n (asked: %u; --grid or --ept keeps "
                "yours)\n",
                rs_request_name(&r->req), rs_result_block(r), r->req.block);
    print_times(f, r);
    char got[64], exp[64];
    rs_value_format(&r->got, got, sizeof got);
    rs_value_format(&r->expected, exp, sizeof exp);
    if (r->correct && r->tol == 0.0)
        fprintf(f, "result     %s, exact\n", got);
    else if (r->correct)
        fprintf(f, "result     %s (reference %s), error %.2e within tolerance %.2e\n", got, exp,
                r->rel_err, r->tol);
    else
        fprintf(f,
                "result     WRONG: got %s, expected %s (error %.2e, tolerance %.2e) in %u of "
                "%u repetitions\n",
                got, exp, r->rel_err, r->tol, r->bad_reps, r->reps);
    if (rs_wrong_reason(r)) fprintf(f, "           why: %s\n", rs_wrong_reason(r));
    describe_metrics(f, &r->metrics);
    if (rs_result_stalls(r)->requested) rs_print_stalls(f, r->stalls, RS_FMT_TABLE);
}

static rs_metric_mask rows_metrics(const rs_row *rows, int count)
{
    rs_metric_mask m = 0;
    for (int i = 0; i < count; i++) m |= rows[i].result.metrics.requested;
    return m;
}

void rs_print_run(FILE *f, const rs_row *row, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        print_json(f, rs_row_to_json(row));
    } else if (fmt == RS_FMT_CSV) {
        rs_print_run_csv(f, row, NULL, NULL, 0);
    } else {
        print_run_table(f, row);
    }
}

/* Under a ladder step: where its warps waited most (with --stalls). */
static void stall_row(FILE *f, const rs_stalls *s)
{
    if (!s->requested) return;
    char words[300], waits[300];
    rs_stalls_hot_words(s, words, sizeof words);
    rs_stalls_wait_words(s, waits, sizeof waits);
    char text[700];
    snprintf(text, sizeof text, "%s%s%s", words[0] ? words : s->why, waits[0] ? "; " : "", waits);
    fprintf(f, "     %-21s ", "  waits:");
    if (!text[0]) {
        fputc('\n', f);
        return;
    }
    /* wrapped at spaces so the table keeps to 120 columns, under its start */
    enum { INDENT = 27, WIDTH = 120 };
    const char *p = text;
    while (*p) {
        int cells = 0;
        const char *cut = NULL, *q = p;
        for (; *q && cells < WIDTH - INDENT; q++) {
            if (*q == ' ') cut = q;
            cells += ((unsigned char)*q & 0xc0) != 0x80;
        }
        while (((unsigned char)*q & 0xc0) == 0x80) q++; /* never inside a character */
        if (!*q || !cut) cut = q;
        fprintf(f, "%s%.*s\n", p == text ? "" : "                           ", (int)(cut - p), p);
        p = *cut == ' ' ? cut + 1 : cut;
    }
}

static int rows_gpus(const rs_row *rows, int count)
{
    int g = 1;
    for (int i = 0; i < count; i++)
        if (rows[i].status == RS_OK && rows[i].result.multi.gpus > g) g = rows[i].result.multi.gpus;
    return g;
}

/* The variant column: as wide as its longest name ("vectorized x2 nccl"). */
static int label_width(const rs_row *rows, int count)
{
    int w = 21;
    for (int i = 0; i < count; i++) {
        char label[96];
        const int l = (int)strlen(rs_request_label(&rows[i].result.req, label, sizeof label));
        if (l > w) w = l;
    }
    return w;
}

/* Under a ladder over several GPUs: each variant's best run over them
 * against its one-GPU time divided by the GPUs, the ideal split. */
static void gpus_footer(FILE *f, const rs_row *rows, int count)
{
    const int utf8 = rs_notation_utf8();
    for (int i = 0; i < count; i++) {
        const rs_result *one = &rows[i].result;
        if (rows[i].status != RS_OK || one->multi.gpus > 1) continue;
        const rs_result *best = NULL;
        for (int k = i + 1; k < count && rows[k].result.req.variant == one->req.variant; k++)
            if (rows[k].status == RS_OK && rows[k].result.multi.gpus > 1 &&
                (!best || rows[k].result.t_median_ms < best->t_median_ms))
                best = &rows[k].result;
        if (!best || !(one->t_median_ms > 0.0)) continue;
        const double ideal = one->t_median_ms / best->multi.gpus;
        char a[32], b[32], c[32], x[32];
        rs_fmt_ratio(best->t_median_ms / ideal, utf8, x, sizeof x);
        rs_fmt_time(one->t_median_ms, utf8, a, sizeof a);
        rs_fmt_time(best->t_median_ms, utf8, b, sizeof b);
        rs_fmt_time(ideal, utf8, c, sizeof c);
        fprintf(f,
                "%s: 1 GPU %s; over %d GPUs the best finish (%s) %s, %s the ideal %s "
                "(1 GPU / %d); its finish took %.1f%%\n",
                rs_request_name(&one->req), a, best->multi.gpus, rs_cross_name(best->multi.cross),
                b, x, c, best->multi.gpus, 100.0 * best->multi.finish_ms / best->t_median_ms);
    }
}

/* What "vs CPU" is against: one CPU time per input (core/cpu_time.h). */
static void cpu_footer(FILE *f, const rs_row *rows, int count)
{
    for (int i = 0; i < count; i++) {
        const rs_result *r = &rows[i].result;
        if (rows[i].status != RS_OK || !(r->cpu_ms > 0.0)) continue;
        char t[32];
        rs_fmt_time(r->cpu_ms, rs_notation_utf8(), t, sizeof t);
        fprintf(f, "vs CPU: against %s on one host thread, %s\n", t,
                rs_cpu_from_words(rs_cpu_from_of(r)));
        return;
    }
}

/* The ladder's first line: type, operation, n, block and GPU, from its
 * first row that ran, else from what was asked. */
static void ladder_header(FILE *f, const rs_row *rows, int count)
{
    const rs_result *first = NULL;
    for (int i = 0; i < count && !first; i++)
        if (rows[i].status == RS_OK) first = &rows[i].result;
    if (!first && count > 0) first = &rows[0].result; /* none ran: what was asked */
    if (first) {
        char n[48];
        rs_format_size(first->req.n, n, sizeof n);
        const int g = rows_gpus(rows, count);
        fprintf(f, "%s %s, n %s, block %u%s", rs_dtype_name(first->req.type),
                rs_op_name(first->req.op), n, first->req.block,
                first->req.cache == RS_CACHE_WARM ? ", cache warm" : "");
        if (first->device.name[0]) fprintf(f, " on %s", first->device.name);
        const char *links = ""; /* how the GPUs are joined, as the run found them */
        for (int i = 0; i < count && !*links; i++)
            if (rows[i].status == RS_OK) links = rows[i].result.multi.links;
        if (g > 1) fprintf(f, " (rows over %d GPUs%s%s)", g, *links ? ": " : "", links);
        fprintf(f, "\n");
    }
}

static int rows_energy(const rs_row *rows, int count)
{
    for (int i = 0; i < count; i++)
        if (rows[i].status == RS_OK && rows[i].result.energy.requested) return 1;
    return 0;
}

/* A ladder row's energy per reduction (with J) and per GB read ("-": not
 * measured). */
static void energy_cells(FILE *f, const rs_energy *en, int joules)
{
    char e[32], g[32], p[2][48];
    rs_fmt_energy(en->valid ? en->joules : 0.0, rs_notation_utf8(), e, sizeof e);
    rs_fmt_j_per_gb(en->valid ? en->j_per_gb : 0.0, g, sizeof g);
    if (joules) fprintf(f, " %s", rs_pad(e, 8, 1, p[0], sizeof p[0]));
    fprintf(f, " %s", rs_pad(g, 6, 1, p[1], sizeof p[1]));
}

/* What every ladder table ends with: the GPUs' footer, what vs CPU is
 * against, why energy and counters are missing. */
/* The % column: of the rows' common measured ceiling, else the peak. */
static double pct_cell(const rs_result *r, rs_ceiling c)
{
    return c != RS_CEIL_NONE ? rs_result_pct_ceiling(r) : r->pct_peak;
}

static const char *pct_title(rs_ceiling c)
{
    return c == RS_CEIL_L2 ? "% L2" : c == RS_CEIL_DRAM ? "% DRAM" : "% peak";
}

static void ceiling_footer(FILE *f, const rs_row *rows, int count)
{
    const rs_result *first = NULL;
    const rs_ceiling c = rs_rows_ceiling(rows, count, &first);
    char words[200];
    if (c == RS_CEIL_NONE || !first) return;
    rs_ceiling_words(first, words, sizeof words);
    fprintf(f, "%s: of %s\n", pct_title(c), words);
}

static void ladder_footer(FILE *f, const rs_row *rows, int count, int vs_cpu)
{
    ceiling_footer(f, rows, count);
    if (rows_gpus(rows, count) > 1) gpus_footer(f, rows, count);
    if (vs_cpu) cpu_footer(f, rows, count);
    for (int i = 0; i < count; i++) /* a WRONG that the arithmetic or the variant explains */
        if (rows[i].status == RS_OK && rs_wrong_reason(&rows[i].result)) {
            char label[96];
            rs_request_label(&rows[i].result.req, label, sizeof label);
            fprintf(f, "%s WRONG: %s\n", label, rs_wrong_reason(&rows[i].result));
        }
    for (int i = 0; i < count; i++)
        if (rows[i].status == RS_OK && rows[i].result.energy.valid) {
            fprintf(f,
                    "J/GB: the board's energy (NVML) per GB of input read, the reductions "
                    "back to back%s\n",
                    vs_cpu ? "" : "; --wide: per reduction, and vs CPU");
            break;
        }
    for (int i = 0; i < count; i++) {
        const rs_energy *en = &rows[i].result.energy;
        if (rows[i].status == RS_OK && en->requested && !en->valid &&
            rows[i].result.req.variant != RS_V_CPU) {
            fprintf(f, "energy not measured: %s\n", en->note);
            break;
        }
    }
    for (int i = 0; i < count; i++) {
        const rs_metrics *mt = &rows[i].result.metrics;
        if (rows[i].status == RS_OK && mt->requested && !mt->valid &&
            rows[i].result.req.variant != RS_V_CPU) {
            fprintf(f, "counters not collected: %s\n", mt->reason);
            break;
        }
    }
}

/* The default table, within 120 columns: the times, and with counters the
 * one that explains each step against the row above (--wide: all). */
static void print_ladder_narrow(FILE *f, const rs_row *rows, int count)
{
    const rs_metric_mask m = rows_metrics(rows, count);
    ladder_header(f, rows, count);
    const int w = label_width(rows, count), utf8 = rs_notation_utf8();
    const int en = rows_energy(rows, count); /* J/GB takes vs CPU's place (--wide: both) */
    const rs_ceiling ceil = rs_rows_ceiling(rows, count, NULL);
    fprintf(f, "%3s  %-*s %9s %7s %7s %8s %7s", "#", w, "variant", "time", "step", "cumul.", "GB/s",
            pct_title(ceil));
    fprintf(f, en ? " %7s %6s" : " %8s %7s", en ? "correct" : "vs CPU", en ? "J/GB" : "correct");
    fprintf(f, "%s\n", m ? "  explains it (vs the row above)" : "");
    for (int i = 0; i < count; i++) {
        const rs_result *r = &rows[i].result;
        char label[96];
        rs_request_label(&r->req, label, sizeof label);
        const int step = rs_catalogue_get(r->req.variant)->step;
        if (rows[i].status != RS_OK) {
            fprintf(f, "%3d  %-*s %s%s\n", step, w, label,
                    rs_row_not_recorded(&rows[i]) ? "" : "refused: ", rows[i].error);
            continue;
        }
        char t[32], s[32], c[32], x[32], p[4][48], why[96] = "";
        rs_fmt_time(r->t_median_ms, utf8, t, sizeof t);
        rs_fmt_ratio(rs_ladder_step_speedup(rows, i), utf8, s, sizeof s);
        rs_fmt_ratio(rs_ladder_cumulative_speedup(rows, i), utf8, c, sizeof c);
        rs_fmt_ratio(r->speedup_cpu, utf8, x, sizeof x);
        if (m && r->req.variant != RS_V_CPU) rs_story_cell(rows, i, 0, why, sizeof why);
        fprintf(f, "%3d  %-*s %s %s %s %8.1f %6.1f%%", step, w, label,
                rs_pad(t, 9, 1, p[0], sizeof p[0]), rs_pad(s, 7, 1, p[1], sizeof p[1]),
                rs_pad(c, 7, 1, p[2], sizeof p[2]), r->gbps, pct_cell(r, ceil));
        if (!en) fprintf(f, " %s", rs_pad(x, 8, 1, p[3], sizeof p[3]));
        fprintf(f, " %7s", verdict(r));
        if (en) energy_cells(f, &r->energy, 0);
        fprintf(f, "%s%s\n", why[0] ? "  " : "", why);
        stall_row(f, rs_result_stalls(r));
    }
    ladder_footer(f, rows, count, !en);
    for (int i = 0; i < count; i++)
        if (rows[i].result.req.variant == RS_V_KERNEL) {
            fprintf(f, "your kernels: step%s against %s, the tree they start from\n",
                    m ? " and explains" : "", rs_variant_name(rs_variant_first(RS_VF_KERNEL_BASE)));
            break;
        }
    for (int i = 0; i < count; i++)
        if (rows[i].status == RS_OK && rows[i].result.uk.changed)
            fprintf(f, "%s has changed since it was recorded: its row is the recorded version's\n",
                    rows[i].result.req.kernel);
    if (m) fprintf(f, "--wide: every counter of the set as a column\n");
}

static void print_ladder_table(FILE *f, const rs_row *rows, int count)
{
    const rs_metric_mask m = rows_metrics(rows, count);
    ladder_header(f, rows, count);
    const int w = label_width(rows, count);
    const rs_ceiling ceil = rs_rows_ceiling(rows, count, NULL);
    fprintf(f, "%3s  %-*s %10s %8s %8s %8s %7s %8s %7s", "#", w, "variant", "time", "step",
            "cumul.", "GB/s", pct_title(ceil), "vs CPU", "correct");
    const int en = rows_energy(rows, count);
    if (en) fprintf(f, " %8s %6s", "energy", "J/GB");
    for (int k = 0; k < RS_METRIC_COUNT; k++)
        if (m & RS_METRIC_BIT(k)) fprintf(f, " %10s", rs_metric_defs[k].title);
    fprintf(f, "\n");
    for (int i = 0; i < count; i++) {
        const rs_result *r = &rows[i].result;
        const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
        char label[96];
        rs_request_label(&r->req, label, sizeof label);
        if (rows[i].status != RS_OK) {
            fprintf(f, "%3d  %-*s %s%s\n", vi->step, w, label,
                    rs_row_not_recorded(&rows[i]) ? "" : "refused: ", rows[i].error);
            continue;
        }
        char t[32], s[32], c[32], x[32], p[4][48];
        const int utf8 = rs_notation_utf8();
        rs_fmt_time(r->t_median_ms, utf8, t, sizeof t);
        rs_fmt_ratio(rs_ladder_step_speedup(rows, i), utf8, s, sizeof s);
        rs_fmt_ratio(rs_ladder_cumulative_speedup(rows, i), utf8, c, sizeof c);
        rs_fmt_ratio(r->speedup_cpu, utf8, x, sizeof x);
        fprintf(f, "%3d  %-*s %s %s %s %8.1f %6.1f%% %s %7s", vi->step, w, label,
                rs_pad(t, 10, 1, p[0], sizeof p[0]), rs_pad(s, 8, 1, p[1], sizeof p[1]),
                rs_pad(c, 8, 1, p[2], sizeof p[2]), r->gbps, pct_cell(r, ceil),
                rs_pad(x, 8, 1, p[3], sizeof p[3]), verdict(r));
        if (en) energy_cells(f, &r->energy, 1);
        for (int k = 0; k < RS_METRIC_COUNT; k++) {
            if (!(m & RS_METRIC_BIT(k))) continue;
            char v[32];
            if (r->metrics.valid & RS_METRIC_BIT(k)) {
                if (strcmp(rs_metric_defs[k].unit, "count") == 0)
                    rs_fmt_si(r->metrics.value[k], v, sizeof v);
                else
                    rs_fmt_metric(r->metrics.value[k], rs_metric_defs[k].unit, utf8, v, sizeof v);
            } else {
                snprintf(v, sizeof v, "n/a");
            }
            char pv[48];
            fprintf(f, " %s", rs_pad(v, 10, 1, pv, sizeof pv));
        }
        fprintf(f, "\n");
        stall_row(f, rs_result_stalls(r));
    }
    ladder_footer(f, rows, count, 1);
}

void rs_print_ladder(FILE *f, const rs_row *rows, int count, rs_format fmt, int wide)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *j = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(j, "rows");
        for (int i = 0; i < count; i++) {
            cJSON *o = rs_row_to_json(&rows[i]);
            if (rows[i].status == RS_OK) {
                cJSON_AddNumberToObject(o, "step_speedup", rs_ladder_step_speedup(rows, i));
                cJSON_AddNumberToObject(o, "cumulative_speedup",
                                        rs_ladder_cumulative_speedup(rows, i));
            }
            cJSON_AddItemToArray(arr, o);
        }
        print_json(f, j);
    } else if (fmt == RS_FMT_CSV) {
        rs_print_rows_csv(f, rows, count);
    } else if (wide) {
        print_ladder_table(f, rows, count);
    } else {
        print_ladder_narrow(f, rows, count);
    }
}
