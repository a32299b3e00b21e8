/* The explorer over several GPUs: G steps how many GPUs a run spans (its
 * input split evenly, each GPU reducing its share), c how their partials
 * are combined; the header names the GPUs and their links; a result's line
 * says how long the slowest GPU and the finish took. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/format.h"
#include "draw.h"

void ui_step_gpus(ui_app *a, int d)
{
    rs_request *c = &a->cfg;
    const int most = a->gpu.gpu_count > 1 ? a->gpu.gpu_count : 1;
    if (!a->dev_ready) {
        ui_status(a, R_WARN, "CUDA is still starting: the GPUs are not counted yet");
        return;
    }
    if (!a->replay && a->gpu_status != RS_OK) { /* no driver or no GPU: it says which */
        ui_status(a, R_BAD, "%s", a->gpu_problem);
        return;
    }
    if (most < 2 && c->gpus == 1) {
        ui_status(a, R_WARN, "%s: a run over several GPUs needs two",
                  a->replay ? "this recording has runs on one GPU only"
                            : "this machine has one GPU");
        return;
    }
    const int now = c->gpus ? (int)c->gpus : most;
    int next = now + d;
    if (next > most) next = 1;
    if (next < 1) next = most;
    c->gpus = (uint32_t)next;
    const int sampling = c->stalls && next > 1; /* PC sampling watches one GPU */
    if (sampling) c->stalls = 0;
    if (next == 1)
        ui_status(a, R_GOOD, "one GPU");
    else
        ui_status(a, R_GOOD,
                  "%d GPUs: n split evenly, partials combined by %s (c: host, p2p, nccl); "
                  "counters per GPU%s",
                  next, rs_cross_name(c->cross),
                  sampling ? "; PC sampling off (it watches one GPU)" : "");
}

void ui_step_cross(ui_app *a, int d)
{
    rs_request *c = &a->cfg;
    c->cross = (rs_cross)(((int)c->cross + d + RS_CROSS_COUNT) % RS_CROSS_COUNT);
    static const char *const how[RS_CROSS_COUNT] = {
        "each GPU's partial copied to the host and added there",
        "peer copies (NVLink where present) and a tree of adds on the GPUs",
        "ncclReduce of the partials to GPU 0"};
    ui_status(a, c->gpus == 1 ? R_WARN : R_GOOD, "cross-GPU finish %s: %s%s",
              rs_cross_name(c->cross), how[c->cross],
              c->gpus == 1 ? " (G spans several GPUs first)" : "");
}

void ui_gpus_take(ui_app *a, const rs_row *row)
{
    if (row->status == RS_OK && row->result.multi.links[0])
        snprintf(a->gpu.links, sizeof a->gpu.links, "%s", row->result.multi.links);
}

void ui_gpus_header(const ui_app *a, char *buf, size_t len)
{
    const rs_request *c = &a->cfg;
    if (c->gpus == 1) {
        buf[0] = '\0';
        return;
    }
    char n[32];
    if (c->gpus)
        snprintf(n, sizeof n, "%u GPUs", c->gpus);
    else
        snprintf(n, sizeof n, "every GPU (%d)", a->gpu.gpu_count);
    snprintf(buf, len, "%s, %s%s%.100s", n, rs_cross_name(c->cross), a->gpu.links[0] ? ": " : "",
             a->gpu.links);
}

void ui_draw_gpus_line(const ui_app *a, int y, int x, int w, const rs_result *res)
{
    const rs_multi_result *m = &res->multi;
    char s[32], f[32];
    rs_fmt_time(m->shard_ms, a->utf8, s, sizeof s);
    rs_fmt_time(m->finish_ms, a->utf8, f, sizeof f);
    const double share = res->t_median_ms > 0.0 ? 100.0 * m->finish_ms / res->t_median_ms : 0.0;
    const char *sep = ui_glyph(G_SEP);
    ui_putf(y, x, w, R_DIM, "%d GPUs, %s %s slowest GPU %s %s finish %s (%.0f%%)", m->gpus,
            rs_cross_name(m->cross), sep, s, sep, f, share);
}
