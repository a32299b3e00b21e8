/* Jobs for the worker: the selected variant, the ladder or the sweep, on
 * the current configuration; refused configurations are said, not run. */
#include <stdio.h>
#include <string.h>

#include "formats/preset.h"
#include "app.h"
#include "sweep_screen.h"
#include "ladder.h"
#include "core/trace.h"
#include "core/ukernel.h"

int ui_busy(ui_app *a)
{
    return a->worker && ui_worker_busy(a->worker, NULL, NULL, 0);
}

static void say_busy(ui_app *a)
{
    char what[96] = "";
    ui_worker_busy(a->worker, NULL, what, sizeof what);
    if (strcmp(what, "nvdisasm") == 0) /* the Source screen's s: a moment, not a run */
        ui_status(a, R_NORMAL, "nvdisasm is reading the kernel: a moment, then again");
    else
        ui_status(a, R_NORMAL, "a run is going on: Esc cancels it"); /* its end says "done" */
}

int ui_refuse_busy(ui_app *a)
{
    if (!a->worker) return 0;
    if (a->take_events)
        a->take_events(a); /* what a job sent is taken before anything of it is cleared */
    if (ui_worker_idle(a->worker)) return 0;
    say_busy(a);
    return 1;
}

static int start_job(ui_app *a, ui_job_kind kind, const rs_variant *vars, int n,
                     const rs_sweep_sizes *sizes)
{
    if (!a->worker) return 0;
    if (a->take_events) a->take_events(a); /* a finished job's last events: it is not "going on" */
    if (!a->replay && a->gpu_status != RS_OK && !(n == 1 && vars[0] == RS_V_CPU)) {
        ui_status(a, R_BAD, "%s", a->dev_ready ? a->gpu_problem : "CUDA is still starting");
        return 0;
    }
    if (!ui_worker_submit(a->worker, kind, &a->cfg, vars, n, sizes)) {
        say_busy(a);
        return 0;
    }
    a->job = kind;
    rs_trace("explorer: %d run%s asked", n, n == 1 ? "" : "s");
    ui_status(a, R_NORMAL, "%s", a->replay ? "looking up the recording" : "running");
    return 1;
}

int ui_compile_kernel(ui_app *a)
{
    const rs_variant v = RS_V_KERNEL;
    if (a->take_events) a->take_events(a);
    if (!a->worker || !ui_worker_submit(a->worker, UI_JOB_COMPILE, &a->cfg, &v, 1, NULL)) {
        say_busy(a);
        return 0;
    }
    a->job = UI_JOB_COMPILE;
    ui_status(a, R_NORMAL, "compiling %s (no run: %s)", rs_ukernel_basename(a->cfg.kernel),
              a->replay ? "this is a replay" : "no GPU here");
    return 1;
}

int ui_run_one(ui_app *a, rs_variant v)
{
    rs_request r;
    rs_error err;
    ui_request_for(a, v, &r);
    if (v == RS_V_KERNEL && !r.kernel[0]) {
        if (a->replay)
            ui_status(a, R_WARN, "replay: this configuration holds no kernel of yours");
        else
            ui_status(a, R_WARN, "no kernel file yet: press K to pick your .cu (start from %s)",
                      rs_template_path());
        return 0;
    }
    if (rs_catalogue_check(&r, &err) != RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return 0;
    }
    /* your kernel where it cannot run (a replay that lacks it, no GPU):
     * compiled, so its errors, registers and spills are seen all the same */
    if (v == RS_V_KERNEL && (a->replay ? !rs_recording_find(&a->rec, &r, NULL)
                                       : a->dev_ready && a->gpu_status != RS_OK))
        return ui_compile_kernel(a);
    return start_job(a, UI_JOB_RUN, &v, 1, NULL);
}

void ui_run_variant(ui_app *a)
{
    ui_run_one(a, (rs_variant)a->sel);
}

void ui_run_ladder(ui_app *a)
{
    if (ui_refuse_busy(a)) return;
    a->lad->count = rs_request_variant_list(&a->cfg, a->lad->vars, RS_VARIANT_COUNT);
    a->lad->done = 0;
    memset(a->lad->rows, 0, sizeof *a->lad->rows * UI_LADDER_ROWS);
    start_job(a, UI_JOB_LADDER, a->lad->vars, a->lad->count, NULL);
}

/* In replay: the check recorded for this configuration, as if just run. */
static void replay_check(ui_app *a, const rs_request *r, rs_check_kind kind)
{
    const rs_recorded_check *c = rs_recording_find_check(&a->rec, r, kind);
    if (!c) {
        ui_status(a, R_WARN, "not recorded: no %s check of %s with these settings in the recording",
                  kind == RS_CHECK_RACE ? "race" : "memory", rs_variant_name(r->variant));
        return;
    }
    a->checks[r->variant] = c->report;
    a->check_n[r->variant] = r->n;
    a->check_type[r->variant] = r->type;
    char s[512];
    rs_check_sentence(&c->report, s, sizeof s);
    ui_status(a, c->report.total ? R_WARN : R_GOOD, "recorded %s: %s", c->report.tools, s);
}

void ui_run_check(ui_app *a, rs_check_kind kind)
{
    const rs_variant v = (rs_variant)a->sel;
    rs_request r;
    rs_error err;
    char san[4096];
    if (a->take_events) a->take_events(a); /* a finished job's last events: it is not "going on" */
    ui_request_for(a, v, &r);
    if (a->replay)
        replay_check(a, &r, kind);
    else if (v == RS_V_CPU)
        ui_status(a, R_WARN, "the cpu reference runs no kernel to check");
    else if (!rs_check_find_sanitizer(san, sizeof san))
        ui_status(a, R_BAD,
                  "no compute-sanitizer: it comes with the CUDA toolkit; add "
                  "/usr/local/cuda/bin to PATH or set CUDA_HOME");
    else if (rs_catalogue_check(&r, &err) != RS_OK)
        ui_status(a, R_BAD, "%s", err.msg);
    else if (a->gpu_status != RS_OK)
        ui_status(a, R_BAD, "%s", a->dev_ready ? a->gpu_problem : "CUDA is still starting");
    else if (!a->worker || !ui_worker_submit_check(a->worker, &r, kind))
        say_busy(a);
    else {
        a->job = UI_JOB_CHECK;
        a->check_asked = r;
        ui_status(a, R_NORMAL, "checking %s under compute-sanitizer (%s): this takes a while",
                  rs_variant_name(v), kind == RS_CHECK_RACE ? "racecheck" : "memcheck, initcheck");
    }
}

void ui_run_sweep(ui_app *a)
{
    rs_sweep_sizes sizes;
    rs_error err;
    if (rs_sweep_parse(a->sweep->range, &sizes, &err) != RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return;
    }
    rs_variant vars[RS_VARIANT_COUNT];
    int n = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if (a->sweep->vars & RS_VARIANT_BIT(v)) vars[n++] = (rs_variant)v;
    if (!n) {
        ui_status(a, R_BAD, "pick the variants first: v");
        return;
    }
    if (ui_refuse_busy(a)) return;
    rs_sweep_free(&a->sweep->data);
    /* the explorer's cache state (l): the worker's requests are a->cfg's */
    if (rs_sweep_init(&a->sweep->data, &sizes, vars, n, RS_CACHE_BIT(a->cfg.cache), &err) !=
        RS_OK) {
        ui_status(a, R_BAD, "%s", err.msg);
        return;
    }
    a->sweep->ready = 1;
    a->sweep->cursor = 0;
    a->sweep->cfg = a->cfg;
    start_job(a, UI_JOB_SWEEP, vars, n, &sizes);
}
