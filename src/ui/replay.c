/* Replay: the explorer fed from a recording. The recording's configurations
 * are listed on their own screen (R); picking one sets the configuration to
 * what was recorded and shows its results on the screen made for them. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "against.h"
#include "sweep_screen.h"
#include "ladder.h"
#include "replay.h"
#include "core/ukernel.h"
#include "formats/stalls_io.h"
#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/size.h"
#include "draw.h"

static void set_range(ui_app *a, uint64_t lo, uint64_t hi)
{
    char l[32], h[32];
    rs_format_size(lo, l, sizeof l);
    rs_format_size(hi, h, sizeof h);
    snprintf(a->sweep->range, sizeof a->sweep->range, "%s..%s", l, h);
}

/* The recorded sweep of configuration k on the Sweep screen, with the same
 * sweep in the other cache state where it was recorded beside it (`sweep
 * --cache both`): both states on one chart. */
static void load_sweep(ui_app *a, int k)
{
    const rs_rec_config *c = &a->rp->configs[k];
    const int twin = rs_rec_config_twin(a->rp->configs, a->rp->n, k);
    int first = c->first, end = c->first + c->count;
    if (twin >= 0) {
        const rs_rec_config *t = &a->rp->configs[twin];
        first = t->first < first ? t->first : first;
        end = t->first + t->count > end ? t->first + t->count : end;
    }
    rs_sweep s;
    rs_error err;
    if (rs_sweep_from_rows(&s, a->rec.rows + first, a->rec.command + first, end - first, &err) !=
        RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return;
    }
    rs_sweep_free(&a->sweep->data);
    a->sweep->data = s;
    a->sweep->ready = 1;
    a->sweep->cursor = 0;
    a->sweep->vars = c->req.variants;
    a->sweep->cfg = c->req;
    set_range(a, c->n_lo, c->n_hi);
    if (s.sizes_left_out) /* said where it shows, not cut without a word */
        ui_status(a, R_WARN,
                  "the recording holds %d more sizes: a sweep shows %d, the first recorded",
                  s.sizes_left_out, RS_SWEEP_MAX_SIZES);
}

static void load_ladder(ui_app *a, const rs_rec_config *c)
{
    a->lad->count = 0;
    for (int i = c->first; i < c->first + c->count && a->lad->count < UI_LADDER_ROWS; i++) {
        const rs_variant v = a->rec.rows[i].result.req.variant;
        if (!rs_request_same_spread(&a->rec.rows[i].result.req, &a->cfg)) continue; /* as set */
        a->lad->vars[a->lad->count] = v;
        a->lad->at[a->lad->count] = i; /* every kernel file recorded: a row each */
        a->lad->rows[a->lad->count++] = a->rec.rows[i];
    }
    a->lad->done = a->lad->count;
    a->lad->sel = 0;
    for (int k = a->lad->count - 1; k >= 0; k--) /* the selected step; a kernel: its file */
        if ((int)a->lad->vars[k] == a->sel &&
            (a->sel != RS_V_KERNEL ||
             strcmp(a->lad->rows[k].result.req.kernel, a->cfg.kernel) == 0))
            a->lad->sel = k;
}

/* How many kernel files configuration c ran. */
static int kernel_files(const ui_app *a, const rs_rec_config *c)
{
    int files = 0;
    for (int i = c->first; i < c->first + c->count; i++) {
        const rs_request *q = &a->rec.rows[i].result.req;
        int seen = q->variant != RS_V_KERNEL;
        for (int j = c->first; j < i && !seen; j++)
            seen = a->rec.rows[j].result.req.variant == RS_V_KERNEL &&
                   strcmp(a->rec.rows[j].result.req.kernel, q->kernel) == 0;
        files += !seen;
    }
    return files;
}

void ui_replay_pick(ui_app *a, int k, int show)
{
    if (k < 0 || k >= a->rp->n) return;
    const rs_rec_config *c = &a->rp->configs[k];
    const int sweep = strcmp(c->command, "sweep") == 0;
    const rs_request before = a->cfg;
    a->cfg = c->req;
    a->cfg.device = before.device; /* where a live run would go, not where it was recorded */
    snprintf(a->cfg.note, sizeof a->cfg.note, "%s", before.note);
    if (sweep) a->cfg.n = c->n_hi;
    if (!(c->req.variants & RS_VARIANT_BIT(a->sel)))
        for (int v = RS_VARIANT_COUNT - 1; v >= 0; v--)
            if (c->req.variants & RS_VARIANT_BIT(v)) a->sel = v;
    a->cfg.variant = (rs_variant)a->sel;
    int kernel_seen = 0, cpu_seen = 0; /* as the ladder: the first kernel file recorded */
    for (int i = c->first; i < c->first + c->count; i++) {
        const rs_row *row = &a->rec.rows[i];
        if (row->status != RS_OK || row->result.req.n != a->cfg.n) continue;
        if (!rs_request_same_spread(&row->result.req, &a->cfg)) continue;
        if (row->result.req.variant == RS_V_KERNEL && kernel_seen++) continue;
        a->last[row->result.req.variant] = *row;
        a->have[row->result.req.variant] = 1;
        cpu_seen |= row->result.req.variant == RS_V_CPU;
    }
    rs_request cpu = a->cfg; /* the cpu step: where not run, the CPU time recorded beside */
    cpu.variant = RS_V_CPU;
    if (!cpu_seen && rs_cpu_from_rows(a->rec.rows, a->rec.count, &cpu, &a->last[RS_V_CPU].result)) {
        a->last[RS_V_CPU].status = RS_OK;
        a->last[RS_V_CPU].error[0] = '\0';
        a->have[RS_V_CPU] = 1;
    }
    ui_kernel_replay(a, c); /* your kernel's file, a recorded failure, its previous version */
    if (sweep)
        load_sweep(a, k);
    else if (strcmp(c->command, "ladder") == 0)
        load_ladder(a, c);
    a->rp->cur = a->rp->sel = k;
    if (show)
        a->screen = sweep                               ? UI_SCREEN_SWEEP
                    : strcmp(c->command, "ladder") == 0 ? UI_SCREEN_LADDER
                                                        : UI_SCREEN_EXPLORER;
    char text[512];
    rs_rec_config_describe(c, ui_glyph(G_SEP), text, sizeof text);
    const int files = kernel_files(a, c);
    if (files > 1) /* the list has one kernel row: the others are a key away */
        ui_status(a, R_GOOD, "%d kernels of yours: L lists them, K picks one %s recorded %s", files,
                  ui_glyph(G_SEP), text);
    else
        ui_status(a, R_GOOD, "recorded %s", text);
}

int ui_replay_sweep(ui_app *a)
{
    const rs_request want = a->cfg;
    const int k = rs_recording_find_sweep(a->rp->configs, a->rp->n, &want);
    if (k < 0) {
        rs_sweep_free(&a->sweep->data);
        a->sweep->ready = 0;
        ui_status(a, R_WARN,
                  "not recorded: this recording holds no sweep of %s %s, block %u, finish %s "
                  "(R lists what it holds)",
                  rs_dtype_name(want.type), rs_op_name(want.op), want.block,
                  rs_finish_name(want.finish));
        return 0;
    }
    const rs_rec_config *c = &a->rp->configs[k];
    load_sweep(a, k);
    a->cfg.reps = c->req.reps;
    snprintf(a->cfg.metrics, sizeof a->cfg.metrics, "%s", c->req.metrics);
    ui_status(a, R_GOOD, "the recorded sweep: %d size%s, %u rep%s each", a->sweep->data.sizes.count,
              a->sweep->data.sizes.count == 1 ? "" : "s", c->req.reps, c->req.reps == 1 ? "" : "s");
    return 1;
}

/* Whether configuration c holds want's asked settings (the UI_ASK_ bits;
 * a sweep holds an n its range holds). */
static int holds(const rs_rec_config *c, const rs_request *want, unsigned ask)
{
    const rs_request *q = &c->req;
    const int sweep = strcmp(c->command, "sweep") == 0;
    if (((ask & UI_ASK_TYPE) && q->type != want->type) ||
        ((ask & UI_ASK_OP) && q->op != want->op) ||
        ((ask & UI_ASK_BLOCK) && q->block != want->block))
        return 0;
    return !(ask & UI_ASK_N) ||
           (sweep ? want->n >= c->n_lo && want->n <= c->n_hi : q->n == want->n);
}

/* The first configuration that holds what was asked (a run or ladder
 * first, then a sweep); -1: none. */
static int config_for(const ui_app *a, const rs_request *want, unsigned ask)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < a->rp->n; k++)
            if ((strcmp(a->rp->configs[k].command, "sweep") == 0) == pass &&
                holds(&a->rp->configs[k], want, ask))
                return k;
    return -1;
}

/* Open on the configuration asked for when it is recorded, else the first. */
/* The settings asked for (the bits of ask) as words: " float32, n 2^20". */
static void asked_words(const rs_request *want, unsigned ask, char *what, size_t wlen)
{
    char size[32], n[40], blk[24];
    rs_format_size(want->n, size, sizeof size);
    snprintf(n, sizeof n, "n %s", size);
    snprintf(blk, sizeof blk, "block %u", want->block);
    const char *part[4] = {rs_dtype_name(want->type), rs_op_name(want->op), n, blk}; /* bit order */
    size_t len = 0;
    what[0] = '\0';
    for (int f = 0; f < 4 && len < wlen; f++)
        if (ask & (1u << f))
            len += (size_t)snprintf(what + len, wlen - len, "%s%s", len ? ", " : " ", part[f]);
}

static void open_on(ui_app *a, const char *path, const rs_request *want, unsigned ask)
{
    const int k = ask ? config_for(a, want, ask) : 0;
    ui_replay_pick(a, k < 0 ? 0 : k, strcmp(a->rp->configs[k < 0 ? 0 : k].command, "sweep") == 0);
    char what[128];
    asked_words(want, ask, what, sizeof what);
    if (k >= 0 && what[0] && !(ask & UI_ASK_SHOWN)) { /* which one, and what else it set */
        char is[256];
        rs_rec_config_describe(&a->rp->configs[k], ui_glyph(G_SEP), is, sizeof is);
        ui_status(a, R_GOOD,
                  "replaying configuration %d of %d, the first with%s: %s (R lists them)", k + 1,
                  a->rp->n, what, is);
        return;
    }
    if (k >= 0) {
        ui_status(a, R_GOOD, "replaying %s: %d configuration%s, R lists them", path, a->rp->n,
                  a->rp->n == 1 ? "" : "s");
        return;
    }
    ui_status(a, R_WARN, "not recorded:%s%s; configuration 1 of %d shown (R lists them)", what,
              ask & UI_ASK_SHOWN ? "" : " as asked", a->rp->n);
}

void ui_replay_open(ui_app *a, const char *path, const rs_request *want, unsigned ask)
{
    rs_error err;
    rs_recording rec;
    if (rs_recording_load(path, &rec, &err) != RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return;
    }
    ui_replay_use(a, path, &rec, want, ask);
}

void ui_replay_use(ui_app *a, const char *path, rs_recording *taken, const rs_request *want,
                   unsigned ask)
{
    rs_recording rec = *taken;
    memset(taken, 0, sizeof *taken);
    rs_request asked = want ? *want : a->cfg; /* want may be a->cfg, which the pick sets */
    rs_rec_config *configs = calloc((size_t)rec.count + 1, sizeof *configs);
    if (!configs) {
        rs_recording_free(&rec);
        ui_status(a, R_BAD, "out of host memory");
        return;
    }
    /* R opens a replay only when not replaying: the worker here is the GPU's.
     * Still inside CUDA (starting, say), it ends and frees itself later. */
    if (a->worker) ui_worker_stop(a->worker, 0.5);
    a->worker = NULL;
    rs_recording_free(&a->rec);
    free(a->rp->configs);
    a->rec = rec;
    a->rp->configs = configs;
    a->rp->n = rs_recording_configs(&a->rec, a->rp->configs, a->rec.count + 1);
    a->replay = 1;
    snprintf(a->replay_path, sizeof a->replay_path, "%s", path);
    a->worker = ui_worker_start(-1, 1, &a->rec);
    a->dev = a->rec.device; /* the header is right from the first frame, and G's count */
    rs_recording_gpus(&a->rec, &a->gpu.gpu_count, a->gpu.links, sizeof a->gpu.links);
    a->dev_ready = 1;
    a->gpu_status = RS_OK;
    memset(a->have, 0, sizeof a->have);
    memset(a->has_failed, 0, sizeof a->has_failed); /* failures before it are not its own */
    if (!a->rp->n) {
        ui_status(a, R_WARN, "%s holds no results", path);
        return;
    }
    open_on(a, path, &asked, want ? ask : 0); /* on the screen that shows it */
    char note[600];
    if (a->rec.cut_line) /* said over the pick's line: what was left out */
        ui_status(a, R_WARN, "%s", rs_recording_cut_note(&a->rec, path, note, sizeof note));
}

/* R: the recording's configurations where one is replayed; else the
 * shipped demo, opened on the screen that shows it (0: not this one). */
int ui_open_recording(ui_app *a)
{
    if (a->replay) {
        a->rp->sel = a->rp->cur;
        return 1;
    }
    if (!ui_refuse_busy(a)) ui_replay_shipped(a);
    return 0;
}

void ui_replay_shipped(ui_app *a)
{
    char dir[RS_PATH_MAX], path[RS_PATH_MAX + 32];
    rs_shipped_dir("recordings", dir, sizeof dir);
    if (!dir[0]) {
        ui_status(a, R_BAD, "no shipped recordings found (set REDSCOPE_DATA_DIR)");
        return;
    }
    snprintf(path, sizeof path, "%s/h200-demo.jsonl", dir);
    ui_replay_open(a, path, &a->cfg, UI_ASK_ALL | UI_ASK_SHOWN); /* on what the screen showed */
}

#define RECORDING_ONE_LINE 100 /* columns a configuration needs on one line */

/* What configuration c holds beyond its times: "; 13 sampled, 14 with
 * energy, 1 check" (stall views, energy, compute-sanitizer runs). */
static void held(const ui_app *a, const rs_rec_config *c, char *buf, size_t len)
{
    int st = 0, en = 0, ck = 0;
    for (int i = c->first; i < c->first + c->count && i < a->rec.count; i++) {
        const rs_row *row = &a->rec.rows[i];
        st += row->status == RS_OK && rs_result_stalls(&row->result)->valid;
        en += row->status == RS_OK && row->result.energy.valid;
    }
    for (int i = 0; i < a->rec.check_count; i++) {
        const rs_request *q = &a->rec.checks[i].req;
        ck += q->type == c->req.type && q->op == c->req.op && q->block == c->req.block &&
              q->n >= c->n_lo && q->n <= c->n_hi && (c->req.variants & RS_VARIANT_BIT(q->variant));
    }
    size_t at = 0;
    buf[0] = '\0';
    if (st) at += (size_t)snprintf(buf + at, len - at, "%s%d sampled", at ? ", " : "; ", st);
    if (en && at < len)
        at += (size_t)snprintf(buf + at, len - at, "%s%d with energy", at ? ", " : "; ", en);
    if (ck && at < len)
        snprintf(buf + at, len - at, "%s%d check%s", at ? ", " : "; ", ck, ck == 1 ? "" : "s");
}

void ui_draw_recording(const ui_app *a, const ui_layout *l)
{
    const ui_rect r = l->main;
    char title[256];
    const char *base = strrchr(a->replay_path, '/');
    snprintf(title, sizeof title, "Recording %s %.120s %s %d configuration%s (Enter shows one)",
             ui_glyph(G_SEP), base ? base + 1 : a->replay_path, ui_glyph(G_SEP), a->rp->n,
             a->rp->n == 1 ? "" : "s");
    ui_box(r, title, R_TITLE);
    const int x = r.x + 2, w = r.w - 4, rows = r.h - 2;
    if (!a->rp->n) {
        ui_put(r.y + 1, x, w, R_DIM, "This recording holds no results.");
        return;
    }
    /* narrow (a projector's 80 columns): finish, reps and counters on a
     * second line of each configuration, so nothing is cut */
    const int two = w < RECORDING_ONE_LINE, per = two ? 2 : 1;
    ui_putf(r.y + 1, x, w, R_TITLE, "%4s %-6s %-20s %-6s %-11s %-12s %5s %s", "#", "kind",
            "variants", "gpus", "type op", "n", "block", two ? "" : " finish      reps counters");
    const int first = ui_list_first(a->rp->sel, (rows - 1) / per);
    for (int i = 0; (i + 1) * per <= rows - 1 && first + i < a->rp->n; i++) {
        const int k = first + i, y = r.y + 2 + i * per, sel = k == a->rp->sel;
        const rs_rec_config *c = &a->rp->configs[k];
        const rs_request *q = &c->req;
        char vars[32], n[64], lo[32], hi[32], to[80];
        int count = 0, only = 0;
        for (int v = 0; v < RS_VARIANT_COUNT; v++)
            if (q->variants & RS_VARIANT_BIT(v)) count++, only = v;
        if (count == 1 && only == RS_V_KERNEL && q->kernel[0]) /* which file: configs differ */
            snprintf(vars, sizeof vars, "%.20s", rs_ukernel_basename(q->kernel));
        else if (count == 1)
            snprintf(vars, sizeof vars, "%.20s", rs_variant_name(only));
        else
            snprintf(vars, sizeof vars, "%d variants", count);
        char g[24] = "1", over[12] = "all"; /* on one GPU, over several, or both */
        if (c->gpus) snprintf(over, sizeof over, "%u", c->gpus);
        if (c->gpus != 1) snprintf(g, sizeof g, "%s%s", c->seen[0] ? "1, " : "", over);
        rs_format_size(c->n_lo, lo, sizeof lo);
        rs_format_size(c->n_hi, hi, sizeof hi);
        snprintf(n, sizeof n, c->n_lo == c->n_hi ? "%s" : "%s..%s", lo, hi);
        snprintf(to, sizeof to, "%s %s", rs_dtype_name(q->type), rs_op_name(q->op));
        const ui_role role = sel ? R_SELECTED : R_NORMAL;
        if (sel) ui_blank(y, x, w, R_SELECTED);
        if (sel && two) ui_blank(y + 1, x, w, R_SELECTED);
        char more[200], extra[96]; /* counters, the input where not random, what else it holds */
        held(a, c, extra, sizeof extra);
        snprintf(more, sizeof more, "%.40s%s%s%s%s", q->metrics,
                 q->dist != RS_DIST_RANDOM ? ", input " : "",
                 q->dist != RS_DIST_RANDOM ? rs_dist_name(q->dist) : "",
                 q->cache == RS_CACHE_WARM ? ", cache warm" : "", extra);
        ui_putf(y, x, w, role, "%s%s%2d %-6s %-20s %-6s %-11s %-12s %5u",
                sel ? ui_glyph(G_SELECT) : " ", k == a->rp->cur ? "*" : " ", k + 1, c->command,
                vars, g, to, n, q->block);
        if (two)
            ui_putf(y + 1, x + 12, w - 12, role, "finish %s %s %u reps %s counters %s",
                    rs_finish_name(q->finish), ui_glyph(G_SEP), q->reps, ui_glyph(G_SEP), more);
        else
            ui_putf(y, x + 71, w - 71, role, " %-11s %4u %s", rs_finish_name(q->finish), q->reps,
                    more);
    }
    char against[RS_NOTE_MAX + 64];
    snprintf(against, sizeof against, " * the configuration shown; A: %s%s ",
             a->ag->has ? "held against " : "a recording to hold against",
             a->ag->has ? rs_stall_base(a->ag->path) : "");
    ui_put(r.y + r.h - 1, x, w, R_DIM, against);
}

int ui_key_recording(ui_app *a, ui_action act)
{
    if (act == UI_ACT_UP || act == UI_ACT_DOWN) {
        const int d = act == UI_ACT_UP ? -1 : 1;
        a->rp->sel = ui_list_step(a->rp->sel, d, a->rp->n, 1);
        return 1;
    }
    if (act == UI_ACT_RUN) {
        ui_replay_pick(a, a->rp->sel, 1);
        return 1;
    }
    if (act == UI_ACT_AGAINST) {
        ui_against_prompt(a);
        return 1;
    }
    return 0;
}
