/* What every screen asks of the explorer's state: the status line, the
 * request and the result shown for a variant, the step above it, and what
 * a result is compared with. It calls no screen. */
#include <stdarg.h>
#include <stdio.h>

#include "app.h"
#include "kernel.h"
#include "core/catalogue.h"

void ui_status(ui_app *a, ui_role role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->status, sizeof a->status, fmt, ap);
    va_end(ap);
    a->status_role = role;
}

void ui_request_for(const ui_app *a, rs_variant v, rs_request *out)
{
    rs_request_for_variant(&a->cfg, v, out);
}

const rs_result *ui_result_for(const ui_app *a, rs_variant v)
{
    if (!a->have[v] || a->last[v].status != RS_OK) return NULL;
    if (v == RS_V_KERNEL && a->uk->has_fail) return NULL; /* its last run failed: Why says */
    rs_request want;
    ui_request_for(a, v, &want);
    return rs_request_same_run(&a->last[v].result.req, &want) ? &a->last[v].result : NULL;
}

int ui_previous_step(const ui_app *a, rs_variant v)
{
    if (v == RS_V_KERNEL) { /* yours against the tree it starts from, not thrust */
        const int k = rs_variant_first(RS_VF_KERNEL_BASE);
        return k >= 0 && ui_result_for(a, k) ? k : -1;
    }
    for (int k = (int)v - 1; k >= 0; k--)
        if (k != RS_V_CPU && ui_result_for(a, k)) return k;
    return -1;
}

void ui_pinned_label(const ui_app *a, const rs_request *shown, char *label, size_t len)
{
    char what[128]; /* with its GPUs and finish, where it spans several */
    size_t at = (size_t)snprintf(label, len, "pinned %s",
                                 rs_request_label(&a->pinned.result.req, what, sizeof what));
    const uint64_t differ = shown ? rs_request_config_diff(&a->pinned.result.req, shown) : 0;
    const char *sep = " at ";
    for (int f = 0; f < RS_FIELD_COUNT && at < len; f++) {
        if (!(differ & (UINT64_C(1) << f))) continue;
        char x[64];
        rs_field_format(&a->pinned.result.req, &rs_fields[f], x, sizeof x);
        at += (size_t)snprintf(label + at, len - at, "%s%s %s", sep, rs_fields[f].flag, x);
        sep = ", ";
    }
}

const rs_result *ui_comparison(const ui_app *a, const rs_result *cur, char *label, size_t len)
{
    if (a->has_pin && a->pinned.result.req.variant != cur->req.variant) {
        ui_pinned_label(a, &cur->req, label, len);
        return &a->pinned.result;
    }
    const rs_result *p = &a->uk->prev.result; /* your kernel: its previous version first */
    if (cur->req.variant == RS_V_KERNEL && a->uk->has_prev && a->uk->prev.status == RS_OK &&
        rs_request_same_run(&p->req, &cur->req) && p->t_median_ms > 0.0) {
        snprintf(label, len, "your previous version");
        return p;
    }
    const int prev = ui_previous_step(a, cur->req.variant);
    if (prev < 0) return NULL;
    snprintf(label, len, "%s", rs_variant_name(prev));
    return ui_result_for(a, prev);
}

ui_enter ui_enter_does(const ui_app *a)
{
    if (a->replay) return UI_ENTER_RECORDED;
    return a->dev_ready && a->gpu_status != RS_OK ? UI_ENTER_COMPILES : UI_ENTER_RUNS;
}

const char *ui_counters_hint(const ui_app *a)
{
    switch (ui_enter_does(a)) {
    case UI_ENTER_RECORDED: return "recorded without them: record with --metrics on a GPU";
    case UI_ENTER_COMPILES: return "counters need an NVIDIA GPU";
    default: return "press m, then Enter";
    }
}
