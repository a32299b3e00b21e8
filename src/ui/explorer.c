/* The explorer screen: the ladder, the configuration, the last result, its
 * counters, and why. Also the header every screen shares. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/preset.h"
#include "app.h"
#include "kernel.h"
#include "replay.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "draw.h"
#include "core/snippets.h"
#include "lecture/why.h"

/* The counter set as the header says it: what the next run collects. */
static void counters_state(const ui_app *a, char *buf, size_t len)
{
    if (a->replay) { /* what the recording holds at the settings shown, not what a run would */
        int any = 0;
        for (int k = 0; k < a->rp->n && !any; k++) { /* by configuration: drawn every frame */
            const rs_rec_config *c = &a->rp->configs[k];
            if (a->cfg.n < c->n_lo || a->cfg.n > c->n_hi) continue;
            for (int i = c->first; i < c->first + c->count && i < a->rec.count && !any; i++)
                any = a->rec.rows[i].result.req.n == a->cfg.n && a->rec.rows[i].status == RS_OK &&
                      a->rec.rows[i].result.metrics.requested &&
                      !rs_request_config_diff(&a->rec.rows[i].result.req, &a->cfg);
        }
        snprintf(buf, len, any ? "counters recorded" : "no counters recorded");
    } else if (!a->gpu.counters_ok) {
        snprintf(buf, len, "counters off (unavailable)");
    } else {
        const int passes = strcmp(a->cfg.metrics, "default") == 0 ? a->gpu.passes_default
                           : strcmp(a->cfg.metrics, "full") == 0  ? a->gpu.passes_full
                                                                  : -1;
        if (strcmp(a->cfg.metrics, "none") == 0)
            snprintf(buf, len, "counters off (m)");
        else if (passes > 0)
            snprintf(buf, len, "counters %.40s (%d pass%s)", a->cfg.metrics, passes,
                     passes == 1 ? "" : "es");
        else
            snprintf(buf, len, "counters %.60s", a->cfg.metrics);
    }
}

/* Header items in order of importance; each joins while it fits. */
static void header_text(const ui_app *a, int width, char *text, size_t len)
{
    const rs_device_info *d = &a->dev;
    const char *sep = ui_glyph(G_SEP);
    char items[7][192];
    int n = 0;
    snprintf(items[n++], 192, "%s%.80s", a->replay ? " REPLAY " : "", d->name);
    counters_state(a, items[n++], 192);
    /* a device without a GPU (a CPU recording) has no peak, SMs or memory */
    snprintf(items[n], 192, d->peak_gbps > 0 ? "peak %.0f GB/s" : "", d->peak_gbps);
    /* a replay: the limit measured with the result shown (each header of a
     * recording has its own), as its Ladder screen and handout read it */
    const rs_result *shown = a->replay ? ui_result_for(a, (rs_variant)a->sel) : NULL;
    const double meas =
        shown && shown->device.measured_gbps > 0 ? shown->device.measured_gbps : d->measured_gbps;
    /* the L2's read, measured with the result shown (live too: the facts have none) */
    const rs_result *any = ui_result_for(a, (rs_variant)a->sel);
    const double l2 = any && any->device.l2_gbps > 0 ? any->device.l2_gbps : d->l2_gbps;
    if (meas > 0 && l2 > 0)
        snprintf(items[n] + strlen(items[n]), 192 - strlen(items[n]), " (meas. %.0f, L2 %.0f)",
                 meas, l2);
    else if (meas > 0)
        snprintf(items[n] + strlen(items[n]), 192 - strlen(items[n]), " (meas. %.0f)", meas);
    n++;
    snprintf(items[n++], 192, d->sm_count > 0 ? "%d SMs" : "", d->sm_count);
    items[n][0] = '\0';
    if (d->total_mem > 0) rs_fmt_mem((double)d->total_mem, items[n], 192);
    n++;
    if (d->driver_version > 0)
        snprintf(items[n++], 192, "driver %d.%d CUDA %d.%d", d->driver_version / 1000,
                 d->driver_version % 1000 / 10, d->runtime_version / 1000,
                 d->runtime_version % 1000 / 10);
    else
        items[n++][0] = '\0';
    ui_gpus_header(a, items[n++], 192); /* several GPUs: how many, and their links */
    /* shown in screen order: name, GPUs, SMs, memory, peak, driver, counters */
    static const int order[7] = {0, 6, 3, 4, 2, 5, 1};
    int keep[7] = {0};
    int used = ui_width(" redscope ") + ui_width(items[0]) + ui_width(items[1]) + 6;
    keep[0] = keep[1] = 1;
    if (items[6][0]) { /* before the other facts: it changes what a run is */
        keep[6] = 1;
        used += ui_width(items[6]) + 3;
    }
    for (int i = 2; i < n - 1; i++) {
        const int w = ui_width(items[i]) + 3;
        if (items[i][0] && used + w <= width) keep[i] = 1, used += w;
    }
    size_t off = (size_t)snprintf(text, len, " redscope ");
    for (int k = 0; k < 7 && off < len; k++) {
        const int i = order[k];
        if (!keep[i]) continue;
        if (i) off += (size_t)snprintf(text + off, len - off, " %s ", sep);
        if (off < len) off += (size_t)snprintf(text + off, len - off, "%s", items[i]);
    }
}

void ui_draw_header(const ui_app *a, const ui_layout *l)
{
    char text[768];
    ui_blank(0, 0, l->cols, R_HEADER);
    if (!a->dev_ready)
        snprintf(text, sizeof text, " redscope  starting CUDA %s", ui_spinner(a->tick));
    else if (a->replay || a->gpu_status == RS_OK)
        header_text(a, l->cols, text, sizeof text);
    else
        snprintf(text, sizeof text, /* the state as the command line names it */
                 " redscope  %s %s R replays the shipped H200 recording",
                 rs_status_name(a->gpu_status), ui_glyph(G_SEP));
    ui_put(0, 0, l->cols, R_HEADER, text);
}

static void draw_list(const ui_app *a, ui_rect r)
{
    ui_box(r, a->replay ? "Ladder (replay)" : "Ladder", R_TITLE);
    const int rows = r.h - 2;
    const int first = ui_list_first(a->sel, rows);
    for (int i = 0; i < rows && first + i < RS_VARIANT_COUNT; i++) {
        const int v = first + i;
        const rs_variant_info *vi = rs_catalogue_get(v);
        const int y = r.y + 1 + i, sel = v == a->sel;
        const ui_role role = sel ? R_SELECTED : R_NORMAL;
        ui_blank(y, r.x + 1, r.w - 2, role);
        const rs_result *res = ui_result_for(a, v);
        const int failed = v == RS_V_KERNEL && a->uk->has_fail && a->cfg.kernel[0];
        char t[32] = "", name[RS_NOTE_MAX];
        if (res) rs_fmt_time(res->t_median_ms, a->utf8, t, sizeof t);
        /* the time, the verdict and the race mark keep their place; a long
         * name is cut in its middle, so both ends still tell it apart */
        const int tail = res ? ui_width(t) + 4 : failed ? 8 : 0;
        const int racy = (vi->flags & RS_VF_RACY) != 0, room = r.w - 7 - tail - 2 * racy;
        char fit[RS_NOTE_MAX];
        ui_fit_middle(ui_variant_label(a, v, name, sizeof name), room, fit, sizeof fit);
        ui_putf(y, r.x + 1, r.w - 3 - tail, role, "%s%2d %s%s%s", sel ? ui_glyph(G_SELECT) : " ",
                vi->step, fit, racy ? " " : "", racy ? ui_glyph(G_RACE) : "");
        if (failed) ui_put(y, r.x + r.w - 1 - tail, tail, sel ? R_SELECTED : R_BAD, "failed");
        if (!res) continue;
        ui_put(y, r.x + r.w - 1 - tail, tail, sel ? R_SELECTED : R_DIM, t);
        ui_put(y, r.x + r.w - 3, 2,
               sel            ? R_SELECTED
               : res->correct ? R_GOOD
                              : R_BAD,
               res->correct ? ui_glyph(G_OK) : ui_glyph(G_WRONG));
    }
    if (rows < RS_VARIANT_COUNT) /* cut: where the rest is, on the border */
        ui_putf(r.y + r.h - 1, r.x + 2, r.w - 4, R_DIM, " %d-%d/%d %s more (Up/Down) ", first + 1,
                first + rows, RS_VARIANT_COUNT, first + rows < RS_VARIANT_COUNT ? "v" : "^");
}

static void draw_config(const ui_app *a, ui_rect r)
{
    char title[96] = "Configuration";
    if (a->has_preset) {
        rs_request x = a->cfg, y = a->preset_cfg;
        x.variant = y.variant;
        snprintf(title, sizeof title, "preset %s%s", a->preset_name,
                 rs_request_equal(&x, &y) ? "" : " (changed)");
    }
    ui_box(r, title, R_TITLE);
    char n[32], ept[24], block[24], reps[24], input[48], cache[24];
    rs_format_size(a->cfg.n, n, sizeof n);
    if (a->cfg.ept)
        snprintf(ept, sizeof ept, "%u/thread", a->cfg.ept);
    else
        snprintf(ept, sizeof ept, "ept auto");
    snprintf(block, sizeof block, "block %u", a->cfg.block);
    snprintf(reps, sizeof reps, "%u rep%s", a->cfg.reps, a->cfg.reps == 1 ? "" : "s");
    snprintf(input, sizeof input, "%s, seed %llu", rs_dist_name(a->cfg.dist),
             (unsigned long long)a->cfg.seed);
    snprintf(cache, sizeof cache, "cache %s", rs_cache_name(a->cfg.cache));
    const int w = r.w - 2, x = r.x + 1, half = w / 2;
    const struct {
        const char *key, *value;
    } cells[10] = {
        {"t", rs_dtype_name(a->cfg.type)},
        {"o", rs_op_name(a->cfg.op)},
        {"n", n},
        {"b", block},
        {"e", ept},
        {"f", rs_finish_name(a->cfg.finish)},
        {"r", reps},
        {"m", a->cfg.metrics},
        {"i", input},
        {"l", cache},
    };
    for (int k = 0; k < 10; k++) {
        const int y = r.y + 1 + k / 2, cx = x + (k % 2 ? half : 0), cw = k % 2 ? w - half : half;
        int used = 1;
        if (cells[k].key[0]) used += ui_putf(y, cx + 1, cw - 1, R_KEY, "%s", cells[k].key) + 1;
        ui_put(y, cx + used, cw - used, R_NORMAL, cells[k].value);
    }
}

/* min-max in the median's unit: "90.5-91.7 us"; a CPU time recorded
 * beside GPU runs has none */
static void time_range(const rs_result *res, char *buf, size_t len)
{
    if (res->req.variant == RS_V_CPU && res->cpu_from == RS_CPU_BESIDE) {
        snprintf(buf, len, "best of up to 3, timed beside the GPU runs");
        return;
    }
    const double ms = res->t_median_ms;
    const double k = ms < 1.0 ? 1e3 : ms < 1000.0 ? 1.0 : 1e-3;
    const char *unit = ms < 1.0 ? rs_sym(RS_SYM_MICRO) : ms < 1000.0 ? "ms" : "s";
    const double v = ms * k; /* both ends with the median's decimals: 22.0-25.1, not 22-25.1 */
    const int d = v < 10.0 ? 2 : v < 100.0 ? 1 : 0;
    snprintf(buf, len, "%.*f%s%.*f %s", d, res->t_min_ms * k, ui_glyph(G_DASH), d,
             res->t_max_ms * k, unit);
}

static void draw_verdict_line(const ui_app *a, ui_rect r, const rs_result *res)
{
    const int x = r.x + 2, w = r.w - 4;
    char t[32], pt[48], range[64], verdict[128];
    rs_fmt_time(res->t_median_ms, a->utf8, t, sizeof t);
    time_range(res, range, sizeof range);
    if (res->correct && res->tol == 0.0)
        snprintf(verdict, sizeof verdict, "%s exact", ui_glyph(G_OK));
    else if (res->correct)
        snprintf(verdict, sizeof verdict, "%s err %.1e (tol %.0e)", ui_glyph(G_OK), res->rel_err,
                 res->tol);
    else
        snprintf(verdict, sizeof verdict, "%s WRONG %u/%u", ui_glyph(G_WRONG), res->bad_reps,
                 res->reps);
    const int used =
        ui_putf(r.y + 1, x, w, R_NORMAL, "time %s  (%s)", ui_pad(t, 9, pt, sizeof pt), range);
    ui_put(r.y + 1, x + used + 2, w - used - 2, res->correct ? R_GOOD : R_BAD, verdict);
}

/* GB/s with a bar against the measured ceiling of its cache state (the
 * peak where none was measured); the CPU, or a device without a known
 * peak, has no bar and no percentage. */
static void draw_bandwidth_line(ui_rect r, const rs_result *res)
{
    const int x = r.x + 2, w = r.w - 4;
    char bw[32];
    const int label =
        ui_putf(r.y + 2, x, w, R_NORMAL, "GB/s %9s  ", rs_fmt_gbps(res->gbps, bw, sizeof bw));
    if (!(res->device.peak_gbps > 0.0) || res->req.variant == RS_V_CPU) {
        ui_put(r.y + 2, x + label, w - label, R_DIM,
               res->req.variant == RS_V_CPU ? "one host thread reading memory" : "");
        return;
    }
    char pct[64];
    const int g = res->multi.gpus > 1 ? res->multi.gpus : 1; /* of all the GPUs' peaks */
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(res, &ceil);
    const double share = c != RS_CEIL_NONE ? rs_result_pct_ceiling(res) : res->pct_peak;
    if (c != RS_CEIL_NONE) /* the measured limit of the state it ran in, named */
        snprintf(pct, sizeof pct, " %.1f%% of %s read %.0f", share, rs_ceiling_label(c), ceil);
    else
        snprintf(pct, sizeof pct, " %.1f%% of peak %.0f", share, g * res->device.peak_gbps);
    const int barw = w - label - ui_width(pct);
    if (barw > 3) ui_bar(r.y + 2, x + label, barw, share / 100.0, R_BAR);
    ui_put(r.y + 2, x + label + (barw > 3 ? barw : 0), w - label, R_NORMAL, pct);
}

static void draw_speedup_line(const ui_app *a, ui_rect r, const rs_result *res)
{
    const int x = r.x + 2, w = r.w - 4;
    if (res->req.variant == RS_V_CPU) {
        ui_put(r.y + 3, x, w, R_ACCENT, "the baseline every GPU step is compared with");
        return;
    }
    char cmp[64], speed[160], vs_cpu[32], step[32];
    const rs_result *base = ui_comparison(a, res, cmp, sizeof cmp);
    rs_fmt_ratio(res->speedup_cpu, a->utf8, vs_cpu, sizeof vs_cpu);
    if (base && base->t_median_ms > 0) {
        rs_fmt_ratio(base->t_median_ms / res->t_median_ms, a->utf8, step, sizeof step);
        snprintf(speed, sizeof speed, "%s vs %s     %s vs CPU", step, cmp, vs_cpu);
    } else {
        snprintf(speed, sizeof speed, "%s vs CPU (one thread)", vs_cpu);
    }
    ui_put(r.y + 3, x, w, R_ACCENT, speed);
}

/* Energy per reduction and per GB, the board's power (E asked for it). */
static void draw_energy_line(const ui_app *a, int y, int x, int w, const rs_energy *e)
{
    if (!e->valid) {
        ui_putf(y, x, w, R_WARN, "energy not measured: %s", e->note);
        return;
    }
    char j[32], g[32];
    rs_fmt_energy(e->joules, a->utf8, j, sizeof j);
    rs_fmt_j_per_gb(e->j_per_gb, g, sizeof g);
    const char *sep = ui_glyph(G_SEP);
    ui_putf(y, x, w, R_NORMAL, "energy %s %s %s J/GB %s %.0f W", j, sep, g, sep, e->watts);
}

/* What the result panel puts before a failure's reason: what was not
 * recorded says so itself. */
static const char *failed_lead(const ui_app *a, const rs_row *row)
{
    if (!a->replay) return "Failed: ";
    return rs_row_not_recorded(row) ? "" : "Recorded as failed: ";
}

/* A message in the result panel, wrapped over the rows it has. */
static void put_message(ui_rect r, ui_role role, const char *text)
{
    char lines[8][256];
    const int rows = r.h - 2 < 8 ? r.h - 2 : 8;
    const int k = ui_wrap(text, r.w - 4, lines, rows > 0 ? rows : 1);
    for (int i = 0; i < k; i++) ui_put(r.y + 1 + i, r.x + 2, r.w - 4, role, lines[i]);
}

static void draw_results(const ui_app *a, ui_rect r, const rs_result *res)
{
    char title[256], name[RS_NOTE_MAX];
    rs_request want;
    ui_request_for(a, a->sel, &want);
    char lead[RS_NOTE_MAX + 24], other[256];
    snprintf(lead, sizeof lead, "%s%s", ui_variant_label(a, a->sel, name, sizeof name),
             res && ui_other_settings(&res->req, &a->cfg, other, sizeof other) ? " (other settings)"
                                                                               : "");
    ui_result_title(res ? &res->req : &want, lead, r.w - 6, title, sizeof title);
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4;
    if (!res) {
        rs_error err;
        char msg[1024];
        if (a->sel == RS_V_KERNEL && a->uk->has_fail && want.kernel[0]) {
            snprintf(msg, sizeof msg, "%.*s", (int)strcspn(a->uk->fail.error, "\n"),
                     a->uk->fail.error); /* its first line: Why has it all */
            put_message((ui_rect){r.y, r.x, r.h - 1, r.w}, R_BAD, msg);
            ui_put(r.y + r.h - 2, x, w, R_DIM,
                   a->replay && !a->uk->compiled ? "As recorded; the whole message is under Why."
                   : a->uk->compiled
                       ? "The whole message is under Why; save the file or Enter "
                         "compiles it again."
                       : "The whole message is under Why; save the file or Enter runs "
                         "it again.");
            return;
        }
        if (want.variant == RS_V_KERNEL && !want.kernel[0] && a->replay)
            ui_put(r.y + 1, x, w, R_DIM, "No kernel of yours in this configuration.");
        else if (want.variant == RS_V_KERNEL && !want.kernel[0]) {
            char hint[RS_PATH_MAX + 64];
            snprintf(hint, sizeof hint, "K picks your .cu file (start from %s).",
                     rs_template_path());
            ui_put(r.y + 1, x, w, R_DIM, hint);
        } else if (rs_catalogue_check(&want, &err) != RS_OK)
            put_message(r, R_WARN, err.msg);
        else if (a->has_failed[a->sel] &&
                 rs_request_same_run(&a->failed[a->sel].result.req, &want)) {
            snprintf(msg, sizeof msg, "%s%.*s", failed_lead(a, &a->failed[a->sel]),
                     (int)strcspn(a->failed[a->sel].error, "\n"), a->failed[a->sel].error);
            put_message(r, R_BAD, msg);
        } else if (want.variant == RS_V_KERNEL && a->uk->compiled && a->uk->has_built)
            ui_putf(r.y + 1, x, w, R_DIM, "Compiled, not run (%s): its build is under Why.",
                    a->replay ? "this replay holds no run of it" : "no GPU here");
        else if (ui_enter_does(a) == UI_ENTER_COMPILES && want.variant != RS_V_CPU)
            ui_putf(r.y + 1, x, w, R_DIM, "Not run: no GPU here (%s; R replays a recording).",
                    want.variant == RS_V_KERNEL ? "Enter compiles it" : "the cpu row runs");
        else
            ui_putf(r.y + 1, x, w, R_DIM, "Not run with this configuration: Enter %s.",
                    a->replay ? "looks it up in the recording" : "runs it");
        return;
    }
    draw_verdict_line(a, r, res);
    draw_bandwidth_line(r, res);
    draw_speedup_line(a, r, res);
    const char *sep = ui_glyph(G_SEP);
    if (res->multi.gpus > 1)
        ui_draw_gpus_line(a, r.y + 4, x, w, res);
    else if (res->energy.requested && res->req.variant != RS_V_CPU)
        draw_energy_line(a, r.y + 4, x, w, &res->energy); /* asked for: before the launch */
    else if (res->grid)
        ui_putf(r.y + 4, x, w, R_DIM, "%s %s %u launch%s %s %u%s%u %s %.1f/thread",
                rs_catalogue_get(res->req.variant)->flags & RS_VF_FINISH
                    ? rs_finish_name(res->finish)
                    : "no finish step",
                sep, res->launches, res->launches == 1 ? "" : "es", sep, res->grid,
                ui_glyph(G_TIMES), rs_result_block(res), sep, res->ept);
}

/* What compute-sanitizer found for the selected variant, quoted; for a racy
 * step not yet checked, how to check it. */
static int why_check(const ui_app *a, int w, char (*lines)[256], ui_role *role, int max)
{
    const rs_check_report *c = &a->checks[a->sel];
    char text[640], s[512], n[32];
    if (c->ran) {
        rs_check_sentence(c, s, sizeof s);
        rs_format_size(a->check_n[a->sel], n, sizeof n);
        snprintf(text, sizeof text, "%s %s (n %s): %s", ui_glyph(c->total ? G_RACE : G_OK),
                 c->tools, n, s);
    } else if (rs_catalogue_get(a->sel)->flags & RS_VF_RACY) {
        int held = 0; /* a replay: what its recording holds of this step's checks */
        for (int i = 0; a->replay && i < a->rec.check_count && !held; i++)
            held = a->rec.checks[i].req.variant == (rs_variant)a->sel;
        snprintf(text, sizeof text, "%s A data race%s", ui_glyph(G_RACE),
                 !a->replay ? ": x runs racecheck (compute-sanitizer) to show it line by line."
                 : held     ? ": x shows what racecheck (compute-sanitizer) found, as recorded."
                            : ": this recording holds no racecheck of it; on a GPU, x runs one "
                              "(compute-sanitizer) to show it line by line.");
    } else {
        return 0;
    }
    const int k = ui_wrap(text, w, lines, max);
    for (int i = 0; i < k; i++) role[i] = c->ran && !c->total ? R_GOOD : R_WARN;
    return k;
}

#define WHY_MAX 96 /* the Why panel's lines, at most */

/* A built-in step's Why panel as lines of width w: its idea and change,
 * its check, the sentences measured, its code; their count. */
static int why_lines(const ui_app *a, int w, const rs_result *res, char (*lines)[256],
                     ui_role *role)
{
    static const ui_role roles_for[2] = {R_NORMAL, R_ACCENT};
    int n = 0;
    const rs_variant_info *vi = rs_catalogue_get(a->sel);
    snprintf(lines[n], 256, "%d %s: %s", vi->step, vi->name, vi->idea);
    role[n++] = R_TITLE;
    const int k = ui_wrap(vi->change, w, &lines[n], WHY_MAX - n);
    for (int i = 0; i < k; i++) role[n + i] = roles_for[0];
    n += k;
    n += why_check(a, w, lines + n, role + n, WHY_MAX - n);
    if (res) {
        char said[12][256], label[64];
        const rs_result *base = ui_comparison(a, res, label, sizeof label);
        const int ns = rs_why_measured(res, base, label, ui_counters_hint(a), said, 12);
        for (int s = 0; s < ns && n < WHY_MAX; s++) {
            const int m = ui_wrap(said[s], w, &lines[n], WHY_MAX - n);
            for (int i = 0; i < m; i++) role[n + i] = res->correct ? roles_for[1] : R_BAD;
            n += m;
        }
    }
    const char *code = rs_kernel_snippet(a->sel);
    while (*code && n < WHY_MAX) {
        const size_t len = strcspn(code, "\n");
        snprintf(lines[n], 256, "  %.*s", (int)(len < 250 ? len : 250), code);
        role[n++] = R_CODE;
        code += len;
        if (*code == '\n') code++;
    }
    return n;
}

static void draw_why(const ui_app *a, ui_rect r, const rs_result *res)
{
    if (a->sel == RS_V_KERNEL) {
        ui_draw_kernel_why(a, r, res);
        return;
    }
    ui_box(r, "Why", R_TITLE);
    const int w = r.w - 4, x = r.x + 2;
    static char lines[WHY_MAX][256];
    ui_role role[WHY_MAX];
    const int n = why_lines(a, w, res, lines, role);
    const int rows = r.h - 2;
    const int first =
        ui_scroll_first(a->why_scroll, n, rows); /* not stored: drawing changes nothing */
    for (int i = 0; i < rows && first + i < n; i++)
        ui_put(r.y + 1 + i, x, w, role[first + i], lines[first + i]);
    if (n > rows)
        ui_putf(r.y + r.h - 1, r.x + r.w - 16, 14, R_DIM, " %s more [ ] ",
                first + rows < n ? "v" : "^");
}

void ui_draw_explorer(const ui_app *a, const ui_layout *l)
{
    const rs_result *res = ui_result_for(a, a->sel);
    draw_list(a, l->list);
    draw_config(a, l->config);
    draw_results(a, l->results, res);
    ui_draw_counters(a, l->counters, res);
    draw_why(a, l->why, res);
}

/* The Why panel, a page at a time, to its last line (your kernel's
 * source can be long; a step's panel is its idea, sentences and code). */
static void scroll_why(ui_app *a, int d)
{
    ui_layout l;
    ui_layout_compute(LINES, COLS, UI_SCREEN_EXPLORER, &l);
    const int rows = l.why.h - 2, w = l.why.w - 4;
    if (rows < 1) return;
    const int page = rows > 2 ? rows - 1 : 1;
    int n;
    if (a->sel == RS_V_KERNEL) {
        n = ui_kernel_why_lines(a, w);
    } else {
        static char lines[WHY_MAX][256];
        ui_role role[WHY_MAX];
        n = why_lines(a, w, ui_result_for(a, a->sel), lines, role);
    }
    a->why_scroll = ui_scroll_first(a->why_scroll + d * page, n, rows);
}

int ui_open_explorer(ui_app *a)
{
    (void)a;
    return 1;
}

int ui_key_explorer(ui_app *a, ui_action act)
{
    switch (act) {
    case UI_ACT_UP:
    case UI_ACT_DOWN:
        a->sel = ui_list_step(a->sel, act == UI_ACT_UP ? -1 : 1, RS_VARIANT_COUNT, 1);
        a->why_scroll = 0;
        return 1;
    case UI_ACT_RUN: ui_run_variant(a); return 1;
    case UI_ACT_COUNTERS_UP:
    case UI_ACT_COUNTERS_DOWN: ui_scroll_counters(a, act == UI_ACT_COUNTERS_UP ? -1 : 1); return 1;
    case UI_ACT_SCROLL_UP:
    case UI_ACT_SCROLL_DOWN: scroll_why(a, act == UI_ACT_SCROLL_UP ? -1 : 1); return 1;
    default: return 0;
    }
}
