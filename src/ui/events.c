/* What the worker sends, taken into the explorer's state: rows of a run,
 * a ladder or a sweep, a compile of your kernel, a check, and the ends of
 * jobs; each said on the status line. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "source_screen.h"
#include "sweep_screen.h"
#include "kernel.h"
#include "ladder.h"
#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/trace.h"
#include "core/ukernel.h"

/* One CPU time per input over what the explorer holds (core/cpu_time.h):
 * a GPU process started afresh times the CPU anew, and "vs CPU" should not
 * move with it. */
static void share_cpu(ui_app *a)
{
    rs_row *p[RS_VARIANT_COUNT + UI_LADDER_ROWS];
    int n = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if (a->have[v]) p[n++] = &a->last[v];
    for (int i = 0; i < a->lad->done && i < UI_LADDER_ROWS; i++) p[n++] = &a->lad->rows[i];
    rs_cpu_share(p, n);
    if (a->sweep->ready) rs_cpu_share_rows(a->sweep->data.rows, a->sweep->data.done);
}

/* Your kernel compiled, not run: its facts, or its error in the Why panel
 * as a live compile error is. */
static void take_compile(ui_app *a, const rs_row *row)
{
    const char *name = rs_ukernel_basename(row->result.req.kernel);
    a->uk->compiled = 1;
    a->uk->has_built = row->status == RS_OK;
    if (a->uk->has_built) a->uk->built = *row;
    if (row->status != RS_OK) {
        ui_kernel_take_row(a, row);
        const int first = (int)strcspn(row->error, "\n");
        ui_status(a, R_BAD, "%s%.*s", a->uk->saved ? "changed: " : "", first, row->error);
        a->uk->saved = 0;
        return;
    }
    a->uk->has_fail = 0;
    const rs_ukernel_result *u = &row->result.uk;
    char spills[96];
    rs_ukernel_spills(u->spill_st, u->spill_ld, 0, spills, sizeof spills);
    ui_status(a, R_GOOD, "%s %scompiled, not run (%s): %d registers, %s, sm_%d, %.0f ms", name,
              a->uk->saved ? "changed, " : "", a->replay ? "a replay" : "needs an NVIDIA GPU",
              u->regs, spills, u->arch, u->compile_ms);
    a->uk->saved = 0;
}

/* A replayed row recorded without some of the counters now asked for. */
static int lacks_counters(const ui_app *a, const rs_row *row)
{
    rs_metric_mask want = 0;
    if (row->result.req.variant == RS_V_CPU ||
        rs_metric_parse_set(a->cfg.metrics, &want, NULL) != RS_OK ||
        rs_metric_set_covers(row->result.req.metrics, a->cfg.metrics)) /* as it was recorded */
        return 0;
    return (want & ~row->result.metrics.requested) != 0;
}

static void take_row(ui_app *a, const ui_event *ev)
{
    const rs_row *row = ev->row;
    if (!row) return;
    if (ev->job == UI_JOB_COMPILE) {
        take_compile(a, row);
        return;
    }
    ui_gpus_take(a, row);
    const rs_variant v = row->result.req.variant;
    if (ev->job == UI_JOB_SWEEP) {
        if (!a->sweep->ready || ev->index < 0 || ev->index >= a->sweep->data.sizes.count ||
            ev->index2 < 0 || ev->index2 >= a->sweep->data.nvar)
            return;
        *rs_sweep_row(&a->sweep->data, ev->index, ev->index2) = *row;
        const int pos = rs_sweep_index(&a->sweep->data, ev->index, ev->index2) + 1;
        if (pos > a->sweep->data.done) a->sweep->data.done = pos;
        a->sweep->cursor = ev->index;
    } else {
        if (ev->job == UI_JOB_LADDER && ev->index < RS_VARIANT_COUNT) {
            a->lad->rows[ev->index] = *row;
            a->lad->at[ev->index] = -1;
            a->lad->done = ev->index + 1;
        }
        if (v == RS_V_KERNEL) {
            a->uk->compiled = a->uk->has_built = a->uk->saved = 0; /* ran, or as recorded */
            ui_kernel_take_row(a, row);
        }
        if ((unsigned)v < RS_VARIANT_COUNT && row->status != RS_OK) {
            a->failed[v] = *row; /* the result panel says why */
            a->has_failed[v] = 1;
        }
        if ((unsigned)v < RS_VARIANT_COUNT && row->status == RS_OK) {
            a->last[v] = *row;
            a->have[v] = 1;
            if ((int)v == a->sel) a->src->sass = 0; /* its instructions were the old result's */
        }
    }
    share_cpu(a);
    /* the first line: a compile error goes on with the line and a caret (Why);
     * an error that names the kernel's file already is not prefixed with it */
    const char *name = rs_request_name(&row->result.req);
    const int first = (int)strcspn(row->error, "\n");
    const char *named = strstr(row->error, name);
    const int said = v == RS_V_KERNEL && named && named - row->error < first;
    if (row->status != RS_OK && row->status != RS_E_NOMEM)
        ui_status(a, R_BAD, "%s%s%.*s", said ? "" : name, said ? "" : ": ", first, row->error);
    else if (row->status == RS_E_NOMEM)
        ui_status(a, R_WARN, "%s skipped: %.*s", name, first, row->error);
    else if (!row->result.correct)
        ui_status(a, R_BAD, "%s gave a WRONG result", name);
    else if (a->replay && ev->job != UI_JOB_SWEEP && lacks_counters(a, row))
        ui_status(a, R_WARN,
                  "%s as recorded: the recording holds counters '%s' for it, not all of '%s' "
                  "(m picks a set)",
                  name, row->result.req.metrics, a->cfg.metrics);
}

/* A replayed ladder none of whose rows the recording holds. */
static int ladder_not_recorded(const ui_app *a)
{
    if (!a->replay || !a->lad->done) return 0;
    for (int i = 0; i < a->lad->done; i++)
        if (!rs_row_not_recorded(&a->lad->rows[i])) return 0;
    return 1;
}

static void take_check(ui_app *a, const ui_event *ev)
{
    const int v = ev->index;
    if (v < 0 || v >= RS_VARIANT_COUNT) return;
    if (ev->status == RS_E_CANCELLED) {
        ui_status(a, R_WARN, "check cancelled");
        return;
    }
    if (ev->status != RS_OK || !ev->check) {
        ui_status(a, R_BAD, "%s", ev->msg);
        return;
    }
    a->checks[v] = *ev->check;
    a->check_n[v] = a->check_asked.n; /* the run checked, whatever the settings are now */
    a->check_type[v] = a->check_asked.type;
    char s[512];
    rs_check_sentence(ev->check, s, sizeof s);
    ui_status(a, ev->check->total ? R_WARN : R_GOOD, "%s: %s", ev->check->tools, s);
}

static void take_event(ui_app *a, const ui_event *ev)
{
    switch (ev->kind) {
    case UI_EV_OPENED:
        a->dev = ev->dev;
        a->dev_ready = 1;
        a->gpu_status = ev->status;
        snprintf(a->gpu_problem, sizeof a->gpu_problem, "%s", ev->msg);
        a->gpu = ev->facts;
        /* The explorer is for counters beside times: on unless asked off. */
        if (!a->replay && ev->facts.counters_ok && !a->opt.metrics_given && !a->has_preset &&
            strcmp(a->cfg.metrics, "none") == 0)
            snprintf(a->cfg.metrics, sizeof a->cfg.metrics, "default");
        if (ev->status != RS_OK && !a->replay)
            ui_status(a, R_WARN,
                      "No GPU here: press R to replay a real H200, or start with --replay "
                      "FILE. (%s)",
                      ev->msg);
        break;
    case UI_EV_PEAK:
        if (ev->facts.peak_status == RS_OK) a->dev.measured_gbps = ev->facts.peak_gbps;
        break;
    case UI_EV_ROW:
        take_row(a, ev);
        rs_trace("explorer: a result arrived");
        break;
    case UI_EV_CHECK: take_check(a, ev); break;
    case UI_EV_SASS: ui_source_take_sass(a, ev); break;
    case UI_EV_DONE:
        if (ev->job == UI_JOB_SASS) break; /* not a run: the quit question stands */
        a->quit_armed = 0;
        if (ev->job == UI_JOB_CHECK || ev->job == UI_JOB_COMPILE) break; /* said when taken */
        if (ev->job == UI_JOB_LADDER && ladder_not_recorded(a)) /* the ladder, not its last row */
            ui_status(a, R_WARN,
                      "not in the recording: no step of this ladder with these settings (R "
                      "lists what it holds)");
        else if (ev->status == RS_E_CANCELLED)
            ui_status(a, R_WARN, "cancelled: what finished is kept");
        else if (ev->status != RS_OK)
            ui_status(a, R_BAD, "stopped: %s", rs_status_name(ev->status));
        else if (a->status_role != R_BAD && a->status_role != R_WARN)
            ui_status(a, R_GOOD, "done");
        break;
    }
}

void ui_take_events(ui_app *a)
{
    ui_event *ev = a->worker ? malloc(sizeof *ev) : NULL;
    while (ev && ui_worker_poll(a->worker, ev)) {
        if (ev->kind == UI_EV_ROW && !a->cfg.energy) /* a recording's energy shows as live: on E */
            memset(&ev->row->result.energy, 0, sizeof ev->row->result.energy);
        take_event(a, ev);
        ui_event_release(ev);
    }
    free(ev);
}
