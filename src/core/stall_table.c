#include "stall_table.h"

#include <stdio.h>
#include <string.h>

#define PREFIX     "smsp__pcsamp_warps_issue_stalled_"
#define NOT_ISSUED "_not_issued"

/* Nsight Compute's warp stall reasons (its Kernel Profiling Guide), as a
 * reduction meets them. */
static const rs_stall_def table[] = {
    {"long_scoreboard", "Stall Long Scoreboard", "waiting for global memory", 1},
    {"short_scoreboard", "Stall Short Scoreboard", "waiting for shared memory", 1},
    {"barrier", "Stall Barrier", "waiting at __syncthreads", 1},
    {"membar", "Stall Membar", "waiting for a memory fence", 1},
    {"mio_throttle", "Stall MIO Throttle", "shared-memory queue full", 1},
    {"lg_throttle", "Stall LG Throttle", "global-memory queue full", 1},
    {"tex_throttle", "Stall Tex Throttle", "texture queue full", 1},
    {"wait", "Stall Wait", "a fixed-latency dependency", 1},
    {"math_pipe_throttle", "Stall Math Pipe Throttle", "arithmetic pipe busy", 1},
    {"dispatch_stall", "Stall Dispatch Stall", "the dispatcher held it", 1},
    {"branch_resolving", "Stall Branch Resolving", "resolving a branch", 1},
    {"no_instructions", "Stall No Instruction", "no instruction fetched yet", 1},
    {"not_selected", "Stall Not Selected", "ready, another warp issued", 1},
    {"selected", "Selected", "issuing, not stalled", 0},
    {"drain", "Stall Drain", "draining stores at exit", 1},
    {"sleeping", "Stall Sleeping", "sleeping", 1},
    {"imc_miss", "Stall IMC Miss", "constant-cache miss", 1},
    {"gmma", "Stall GMMA", "waiting for a warpgroup MMA", 1},
    {"misc", "Stall Misc", "other", 1},
};

_Static_assert(sizeof table / sizeof table[0] == RS_STALL_TABLE_SIZE, "RS_STALL_TABLE_SIZE");

const rs_stall_def *rs_stall_table(size_t *count)
{
    *count = sizeof table / sizeof table[0];
    return table;
}

const rs_stall_def *rs_stall_find(const char *name, int *not_issued)
{
    if (not_issued) *not_issued = 0;
    if (!name) return NULL;
    if (strncmp(name, PREFIX, strlen(PREFIX)) == 0) name += strlen(PREFIX);
    size_t len = strlen(name);
    const size_t tail = strlen(NOT_ISSUED);
    if (len > tail && strcmp(name + len - tail, NOT_ISSUED) == 0) {
        len -= tail;
        if (not_issued) *not_issued = 1;
    }
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].key) == len && strncmp(table[i].key, name, len) == 0) return &table[i];
    return NULL;
}

const char *rs_stall_name(const rs_stall_def *d, char *buf, size_t len)
{
    if (!len) return buf;
    /* "Stall Long Scoreboard" -> "long scoreboard" */
    const char *s = !d ? "unknown" : strncmp(d->ncu, "Stall ", 6) == 0 ? d->ncu + 6 : d->ncu;
    size_t k = 0;
    for (; s[k] && k + 1 < len; k++)
        buf[k] = (char)(s[k] >= 'A' && s[k] <= 'Z' ? s[k] - 'A' + 'a' : s[k]);
    buf[k] = '\0';
    return buf;
}

void rs_stall_describe(const char *name, char *buf, size_t len)
{
    if (!len) return;
    const rs_stall_def *d = rs_stall_find(name, NULL);
    if (d) {
        char ncu[48];
        snprintf(buf, len, "%s (%s)", d->words, rs_stall_name(d, ncu, sizeof ncu));
        return;
    }
    if (name && strncmp(name, PREFIX, strlen(PREFIX)) == 0) name += strlen(PREFIX);
    snprintf(buf, len, "%s", name ? name : "?");
}
