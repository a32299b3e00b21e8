/* Changing the configuration from the keyboard: t o b f i m step forward
 * through their values, T O B F I M back; the status line says what the
 * setting became. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"

static int wrap(int v, int d, int count)
{
    return ((v + d) % count + count) % count;
}

static void step_block(ui_app *a, int d)
{
    static const unsigned blocks[] = {32, 64, 128, 256, 512, 1024};
    const int count = 6;
    int i = 0;
    if (d > 0) { /* the next size above the current one */
        while (i < count && blocks[i] <= a->cfg.block) i++;
        i %= count;
    } else { /* the next size below */
        i = count - 1;
        while (i >= 0 && blocks[i] >= a->cfg.block) i--;
        if (i < 0) i = count - 1;
    }
    a->cfg.block = blocks[i];
    ui_status(a, R_GOOD, "blockDim %u (D types any value)", a->cfg.block);
}

static void step_metrics(ui_app *a, int d)
{
    static const char *const sets[] = {"none", "default", "full"};
    int i = 0;
    while (i < 3 && strcmp(a->cfg.metrics, sets[i]) != 0) i++;
    i = i == 3 ? (d > 0 ? 0 : 2) : wrap(i, d, 3);
    snprintf(a->cfg.metrics, sizeof a->cfg.metrics, "%s", sets[i]);
    const int passes = i == 1 ? a->gpu.passes_default : i == 2 ? a->gpu.passes_full : 0;
    if (passes > 0)
        ui_status(a, R_GOOD, "counters %s: %d replay pass%s of every kernel per run", sets[i],
                  passes, passes == 1 ? "" : "es");
    else
        ui_status(a, R_GOOD, "counters %s", sets[i]);
}

void ui_step_setting(ui_app *a, ui_action act, int d)
{
    rs_request *c = &a->cfg;
    switch (act) {
    case UI_ACT_TYPE:
        c->type = (rs_dtype)wrap((int)c->type, d, RS_DTYPE_COUNT);
        ui_status(a, R_GOOD, "type %s", rs_dtype_name(c->type));
        break;
    case UI_ACT_OP:
        c->op = (rs_op)wrap((int)c->op, d, RS_OP_COUNT);
        ui_status(a, R_GOOD, "operation %s", rs_op_name(c->op));
        break;
    case UI_ACT_FINISH:
        c->finish = (rs_finish)wrap((int)c->finish, d, RS_FINISH_COUNT);
        ui_status(a, R_GOOD, "finish %s", rs_finish_name(c->finish));
        break;
    case UI_ACT_INPUT:
        c->dist = (rs_dist)wrap((int)c->dist, d, RS_DIST_COUNT);
        ui_status(a, R_GOOD, "input %s", rs_dist_name(c->dist));
        break;
    case UI_ACT_CACHE:
        c->cache = (rs_cache)wrap((int)c->cache, d, RS_CACHE_COUNT);
        ui_status(a, R_GOOD, "cache %s: %s", rs_cache_name(c->cache),
                  c->cache == RS_CACHE_WARM
                      ? "the input read into the L2 before each run (held against the L2 read)"
                      : "the L2 flushed before each run (held against the DRAM read)");
        break;
    case UI_ACT_BLOCK: step_block(a, d); break;
    case UI_ACT_METRICS: step_metrics(a, d); break;
    default: break;
    }
}
