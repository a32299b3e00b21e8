/* The deck's frame: which rows are steps, the title and closing slides,
 * the bars of the ladder so far. A step's own slide is deck_step.c's. */
#include "deck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/ladder.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "core/size.h"
#include "formats/energy.h"

void rs_deck_init(rs_deck *d, const rs_row *rows, int n, const rs_recorded_check *checks,
                  int nchecks, const char *from)
{
    memset(d, 0, sizeof *d);
    d->rows = rows;
    d->n = n > 0 ? n : 0;
    d->checks = checks;
    d->nchecks = checks && nchecks > 0 ? nchecks : 0;
    snprintf(d->from, sizeof d->from, "%s", from ? from : "");
    const rs_row *ok = NULL;
    for (int i = 0; i < d->n && d->nsteps < RS_DECK_STEPS; i++) {
        if (rs_row_not_recorded(&rows[i]) || rows[i].result.req.variant == RS_V_CPU) continue;
        d->step[d->nsteps++] = i;
        if (!ok && rows[i].status == RS_OK) ok = &rows[i];
    }
    if (ok) d->dev = ok->result.device;
    if (d->nsteps) d->req = (ok ? ok : &rows[d->step[0]])->result.req;
}

int rs_deck_count(const rs_deck *d)
{
    return d->nsteps ? d->nsteps + 2 : 0;
}

int rs_deck_slide_of_row(const rs_deck *d, int row)
{
    for (int k = 0; k < d->nsteps; k++)
        if (d->step[k] == row) return k + 1;
    return -1;
}

rs_deck_part *rs_deck_part_new(rs_slide *s, const char *name)
{
    if (s->nparts >= RS_DECK_PARTS) return NULL;
    rs_deck_part *p = &s->part[s->nparts++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

rs_deck_item *rs_deck_add(rs_deck_part *p, rs_deck_kind kind, const char *text)
{
    if (!p || p->count >= RS_DECK_ITEMS) return NULL;
    rs_deck_item *it = &p->item[p->count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    const size_t n = text ? strnlen(text, sizeof it->text - 1) : 0;
    memcpy(it->text, text ? text : "", n);
    it->text[n] = '\0';
    return it;
}

void rs_deck_note(rs_slide *s, const char *fmt, ...)
{
    if (s->nnotes >= RS_DECK_NOTES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->notes[s->nnotes++], RS_DECK_TEXT, fmt, ap);
    va_end(ap);
}

static const rs_row *first_ok(const rs_deck *d)
{
    for (int k = 0; k < d->nsteps; k++)
        if (d->rows[d->step[k]].status == RS_OK) return &d->rows[d->step[k]];
    return NULL;
}

const rs_row *rs_deck_base(const rs_deck *d, int row)
{
    const rs_row *rows = d->rows;
    for (int j = 0; rows[row].result.req.variant == RS_V_KERNEL && j < row; j++)
        if (rows[j].status == RS_OK &&
            rs_variant_has(rows[j].result.req.variant, RS_VF_KERNEL_BASE))
            return &rows[j];
    for (int j = row - 1; j >= 0; j--)
        if (rows[j].status == RS_OK && rows[j].result.req.variant != RS_V_CPU &&
            !rs_row_not_recorded(&rows[j]))
            return &rows[j];
    return NULL;
}

void rs_deck_bars(const rs_deck *d, int upto, rs_deck_part *p)
{
    const rs_ceiling c = rs_rows_ceiling(d->rows, d->n, NULL);
    const double lim = rs_rows_limit(d->rows, d->n);
    double top = lim > 0.0 && isfinite(lim) ? lim : 0.0;
    for (int k = 0; k < d->nsteps; k++) {
        const rs_result *r = &d->rows[d->step[k]].result;
        if (d->rows[d->step[k]].status == RS_OK && isfinite(r->gbps) && r->gbps > top)
            top = r->gbps;
    }
    if (!(top > 0.0)) return;
    for (int k = 0; k <= upto && k < d->nsteps; k++) {
        const rs_row *row = &d->rows[d->step[k]];
        char label[96], text[64] = "did not run";
        rs_request_label(&row->result.req, label, sizeof label);
        const int ok = row->status == RS_OK && isfinite(row->result.gbps);
        if (ok) snprintf(text, sizeof text, "%.0f GB/s", row->result.gbps);
        rs_deck_item *it = rs_deck_add(p, RS_DK_BAR, text);
        if (!it) return;
        snprintf(it->label, sizeof it->label, "%s", label);
        it->value = ok ? row->result.gbps : 0.0;
        it->frac = ok ? row->result.gbps / top : 0.0;
        it->current = k == upto;
    }
    if (lim > 0.0 && isfinite(lim)) {
        char text[96];
        snprintf(text, sizeof text, "%s, %.0f GB/s", rs_ceiling_phrase(c), lim);
        rs_deck_item *it = rs_deck_add(p, RS_DK_LIMIT, text);
        if (it) it->value = lim, it->frac = lim / top;
    }
}

static void title_slide(const rs_deck *d, rs_slide *s)
{
    const rs_device_info *dev = &d->dev;
    const rs_request *q = &d->req;
    rs_deck_title(d, 0, s->title, sizeof s->title);
    char size[48], count[48], line[700];
    rs_format_size(q->n, size, sizeof size);
    rs_fmt_count((double)q->n, count, sizeof count);
    rs_deck_part *p = rs_deck_part_new(s, "What is measured");
    snprintf(line, sizeof line,
             "%s %s of n %s (%s elements), block %u, median of %u runs, %s input.",
             rs_dtype_name(q->type), rs_op_name(q->op), size, count, q->block, q->reps,
             rs_dist_name(q->dist));
    rs_deck_add(p, RS_DK_SAY, line);
    if (dev->name[0]) {
        snprintf(line, sizeof line, "%s: %d SMs, theoretical peak %.0f GB/s.", dev->name,
                 dev->sm_count, dev->peak_gbps);
        rs_deck_add(p, RS_DK_SAY, line);
    }
    const int l2 = rs_rows_ceiling(d->rows, d->n, NULL) == RS_CEIL_L2;
    if (l2 && dev->l2_gbps > 0.0) { /* warm, the input within the L2: its read is the wall */
        char in[32], size_l2[32];
        rs_fmt_bytes((double)q->n * (double)rs_dtype_size(q->type), in, sizeof in);
        rs_fmt_bytes((double)dev->l2_bytes, size_l2, sizeof size_l2);
        snprintf(line, sizeof line,
                 "Warm: the input (%s) is read into the %s L2 before each run, so DRAM is out "
                 "of the picture.",
                 in, size_l2);
        rs_deck_add(p, RS_DK_SAY, line);
        snprintf(line, sizeof line, "%.0f GB/s", dev->l2_gbps);
        rs_deck_item *it = rs_deck_add(p, RS_DK_BIG, line);
        if (it)
            snprintf(it->label, sizeof it->label, "the wall: a plain read from the L2, measured");
    } else if (dev->measured_gbps > 0.0) {
        snprintf(line, sizeof line, "%.0f GB/s", dev->measured_gbps);
        rs_deck_item *it = rs_deck_add(p, RS_DK_BIG, line);
        if (it) snprintf(it->label, sizeof it->label, "the wall: a plain streaming read, measured");
    }
    if (dev->floor_launch_us > 0.0) {
        char t[32];
        rs_fmt_time(dev->floor_launch_us / 1000.0, rs_notation_utf8(), t, sizeof t);
        snprintf(line, sizeof line,
                 "One launch that reads 2^16 values takes %s: the floor under every step.", t);
        rs_deck_add(p, RS_DK_SAY, line);
    }
    if (d->from[0]) rs_deck_add(p, RS_DK_SAY, d->from);
    snprintf(line, sizeof line, "%d steps, each against the one before and against the wall.",
             d->nsteps);
    rs_deck_add(p, RS_DK_SAY, line);
    rs_deck_note(s,
                 "Ask first: how fast can a sum of %s values be on this GPU? The answer is the "
                 "wall: every byte read once at %s's speed.",
                 size, l2 ? "the L2 read" : "the streaming read");
}

/* The three largest step speedups, biggest first. */
static void biggest_steps(const rs_deck *d, rs_deck_part *p)
{
    int best[3] = {-1, -1, -1};
    double sp[3] = {0, 0, 0};
    for (int k = 0; k < d->nsteps; k++) {
        const int i = d->step[k];
        if (d->rows[i].status != RS_OK) continue;
        const double x = rs_ladder_step_speedup(d->rows, i);
        for (int j = 0; j < 3; j++)
            if (x > 1.0 && isfinite(x) && x > sp[j]) {
                for (int m = 2; m > j; m--) sp[m] = sp[m - 1], best[m] = best[m - 1];
                sp[j] = x, best[j] = i;
                break;
            }
    }
    for (int j = 0; j < 3 && best[j] >= 0; j++) {
        char label[96], x[32], line[700];
        rs_request_label(&d->rows[best[j]].result.req, label, sizeof label);
        rs_fmt_ratio(sp[j], rs_notation_utf8(), x, sizeof x);
        snprintf(line, sizeof line, "%s %s: %s", x, label,
                 rs_catalogue_get(d->rows[best[j]].result.req.variant)->idea);
        rs_deck_add(p, RS_DK_SAY, line);
    }
}

static void energy_line(const rs_deck *d, rs_deck_part *p)
{
    int lo = -1, hi = -1;
    for (int k = 0; k < d->nsteps; k++) {
        const rs_row *row = &d->rows[d->step[k]];
        if (row->status != RS_OK || !row->result.energy.valid) continue;
        const double j = row->result.energy.j_per_gb;
        if (lo < 0 || j < d->rows[lo].result.energy.j_per_gb) lo = d->step[k];
        if (hi < 0 || j > d->rows[hi].result.energy.j_per_gb) hi = d->step[k];
    }
    if (lo < 0) return;
    char a[32], b[32], la[96], lb[96], line[700];
    rs_fmt_j_per_gb(d->rows[lo].result.energy.j_per_gb, a, sizeof a);
    rs_fmt_j_per_gb(d->rows[hi].result.energy.j_per_gb, b, sizeof b);
    rs_request_label(&d->rows[lo].result.req, la, sizeof la);
    rs_request_label(&d->rows[hi].result.req, lb, sizeof lb);
    snprintf(line, sizeof line,
             "Energy: %s J per GB read at best (%s), %s at worst (%s): the fast steps cost less "
             "energy too.",
             a, la, b, lb);
    rs_deck_add(p, RS_DK_SAY, line);
}

static void closing_slide(const rs_deck *d, rs_slide *s)
{
    snprintf(s->title, sizeof s->title, "The whole ladder against the wall");
    const rs_row *first = first_ok(d), *best = first;
    if (!first) {
        rs_deck_add(rs_deck_part_new(s, "Nothing has run yet"), RS_DK_SAY,
                    "Each step runs as its slide opens; this slide sums up those that ran.");
        return;
    }
    for (int k = 0; k < d->nsteps; k++) {
        const rs_row *row = &d->rows[d->step[k]];
        if (row->status == RS_OK && row->result.t_median_ms < best->result.t_median_ms) best = row;
    }
    rs_deck_part *p = rs_deck_part_new(s, "From first to fastest");
    char a[32], b[32], x[32], la[96], lb[96], line[700];
    const int utf8 = rs_notation_utf8();
    rs_fmt_time(first->result.t_median_ms, utf8, a, sizeof a);
    rs_fmt_time(best->result.t_median_ms, utf8, b, sizeof b);
    rs_fmt_ratio(first->result.t_median_ms / best->result.t_median_ms, utf8, x, sizeof x);
    rs_request_label(&first->result.req, la, sizeof la);
    rs_request_label(&best->result.req, lb, sizeof lb);
    rs_deck_item *it = rs_deck_add(p, RS_DK_BIG, x);
    if (it) {
        char ca[200], cb[200];
        snprintf(it->label, sizeof it->label, "%s (%s) %s %s (%s)",
                 rs_fmt_cut(la, 40, ca, sizeof ca), a, rs_sym(RS_SYM_ARROW),
                 rs_fmt_cut(lb, 40, cb, sizeof cb), b);
    }
    double ceil = 0.0;
    const rs_ceiling kind = rs_result_ceiling(&best->result, &ceil);
    if (kind != RS_CEIL_NONE) {
        snprintf(line, sizeof line, "%s reads at %.0f GB/s, %.0f%% of %s.", lb, best->result.gbps,
                 rs_result_pct_ceiling(&best->result), rs_ceiling_phrase(kind));
        rs_deck_add(p, RS_DK_SAY, line);
    }
    if (rs_variant_has(best->result.req.variant, RS_VF_RACY)) {
        snprintf(line, sizeof line,
                 "%s is the fastest here but relies on a data race (see its slide): the fastest "
                 "correct step is the one to keep.",
                 lb);
        rs_deck_add(p, RS_DK_WARN, line);
    }
    rs_deck_part *c = rs_deck_part_new(s, "The ladder");
    rs_deck_bars(d, d->nsteps - 1, c);
    rs_deck_part *g = rs_deck_part_new(s, "The biggest steps");
    biggest_steps(d, g);
    energy_line(d, g);
    rs_deck_note(s, "Ask: which step would you keep if you could keep one? Where is the rest of "
                    "the time between the fastest step and the wall?");
}

void rs_deck_slide(const rs_deck *d, int k, rs_slide *out)
{
    memset(out, 0, sizeof *out);
    out->row = -1;
    const int count = rs_deck_count(d);
    if (k <= 0 || count == 0) {
        if (count) title_slide(d, out);
    } else if (k >= count - 1) {
        closing_slide(d, out);
    } else {
        out->row = d->step[k - 1];
        rs_deck_step_slide(d, k - 1, out);
    }
    if (k + 1 < count) {
        char next[200];
        rs_deck_title(d, k + 1, next, sizeof next);
        rs_deck_note(out, "Next: %s", next);
    }
}

void rs_deck_title(const rs_deck *d, int k, char *buf, size_t len)
{
    const int count = rs_deck_count(d);
    if (count == 0) {
        snprintf(buf, len, "no deck");
    } else if (k <= 0) {
        snprintf(buf, len, "The reduction ladder%s%s", d->dev.name[0] ? " on " : "", d->dev.name);
    } else if (k >= count - 1) {
        snprintf(buf, len, "The whole ladder against the wall");
    } else {
        const rs_result *r = &d->rows[d->step[k - 1]].result;
        const rs_variant_info *vi = rs_catalogue_get(r->req.variant);
        char label[96];
        rs_request_label(&r->req, label, sizeof label);
        snprintf(buf, len, "%d. %s: %s", vi->step, label, vi->idea);
    }
}
