/* The Source screen's comparison (d): the shown stall view against another
 * one line by line (analysis/stall_diff.c), the biggest change first, one
 * column of change, so it reads at 80 columns: against the pinned result,
 * else the previous version of a user kernel (after a save), else the
 * previous step of the ladder sampled on the same settings (live, or as
 * the recording holds it). */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "source_screen.h"
#include "kernel.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "analysis/stall_diff.h"
#include "draw.h"

/* v's stall view on the current settings: its last run, or in replay the
 * recorded one. */
static const rs_result *sampled(const ui_app *a, rs_variant v)
{
    const rs_result *r = ui_result_for(a, v);
    if (r && rs_result_stalls(r)->valid) return r;
    if (!a->replay) return NULL;
    rs_request want;
    ui_request_for(a, v, &want);
    want.stalls = 1;
    const rs_row *row = rs_recording_find(&a->rec, &want, NULL);
    return row && row->status == RS_OK && rs_result_stalls(&row->result)->valid ? &row->result
                                                                                : NULL;
}

const rs_result *ui_source_against(const ui_app *a, const rs_result *shown, char *name, size_t len)
{
    if (a->has_pin && rs_result_stalls(&a->pinned.result)->valid && &a->pinned.result != shown) {
        ui_pinned_label(a, &shown->req, name, len);
        return &a->pinned.result;
    }
    if (shown->req.variant == RS_V_KERNEL && a->uk->has_prev &&
        rs_result_stalls(&a->uk->prev.result)->valid) {
        snprintf(name, len, "your previous version");
        return &a->uk->prev.result;
    }
    for (int v = (int)shown->req.variant - 1; v >= 0; v--) {
        if (rs_variant_has((rs_variant)v, RS_VF_NOT_SAMPLED)) continue;
        const rs_result *r = sampled(a, (rs_variant)v);
        if (!r) continue;
        snprintf(name, len, "%s, the previous step sampled", rs_variant_name((rs_variant)v));
        return r;
    }
    return NULL;
}

int ui_source_diff(const ui_app *a, const rs_result *shown, rs_stall_delta *d, int max, char *name,
                   size_t len)
{
    const rs_result *other = ui_source_against(a, shown, name, len);
    return other ? rs_stalls_diff(rs_result_stalls(other), rs_result_stalls(shown), d, max) : -1;
}

/* One row: where, before -> after, the change, the text. */
static void draw_delta(const rs_stall_delta *d, int y, int x, int w, int cur)
{
    char where[96], before[16], after[16], pad[128];
    rs_stall_delta_where(d, where, sizeof where);
    snprintf(before, sizeof before, d->line_before ? "%5.1f%%" : "     -", d->before);
    snprintf(after, sizeof after, d->line ? "%5.1f%%" : "     -", d->after);
    const ui_role role = cur ? R_SELECTED : R_NORMAL;
    if (cur) ui_blank(y, x, w, R_SELECTED);
    ui_putf(y, x, w, role, "%s %s %s %s %+6.1f  %s", rs_pad(where, 18, 0, pad, sizeof pad), before,
            rs_sym(RS_SYM_ARROW), after, rs_stall_delta_change(d), d->text);
}

void ui_draw_source_diff(const ui_app *a, const rs_result *res, ui_rect r)
{
    static rs_stall_delta d[RS_STALL_DELTAS]; /* the UI thread's alone */
    char name[RS_NOTE_MAX + 48], words[300];
    const int n = ui_source_diff(a, res, d, RS_STALL_DELTAS, name, sizeof name);
    if (n < 0) {
        ui_putf(r.y, r.x, r.w, R_WARN,
                "nothing to compare with: pin a result (p), or sample the previous step "
                "(d again goes back)");
        return;
    }
    ui_putf(r.y, r.x, r.w, R_TITLE, "against %s (each run's share of its samples):", name);
    if (n > 0) {
        rs_stall_delta_words(&d[0], words, sizeof words);
        ui_putf(r.y + 1, r.x, r.w, R_ACCENT, "%s", words);
    }
    int rows = r.h - 2;
    if (n > rows) rows--; /* a row says how many more there are */
    const int cur = a->src->cur < n ? a->src->cur : n - 1;
    const int first = cur - rows + 1 > 0 ? cur - rows + 1 : 0;
    for (int k = 0; k < rows && first + k < n; k++)
        draw_delta(&d[first + k], r.y + 2 + k, r.x, r.w, first + k == cur);
    if (first + rows < n)
        ui_putf(r.y + r.h - 1, r.x, r.w, R_DIM, "%d more lines below (Down)", n - first - rows);
}
