/* redscope allreduce's recording: one JSON object (--record writes it,
 * --replay reads it back, every figure checked). */
#ifndef RS_ALLREDUCE_REC_H
#define RS_ALLREDUCE_REC_H

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "core/sweep_range.h"
#include "engine/allreduce.h"

#define MAX_POINTS (RS_SWEEP_MAX_SIZES * RS_AR_ALGO_COUNT)

typedef struct ar_run {
    int gpus, nccl_version, npoints;
    rs_device_info device; /* the first GPU; an older recording holds its name alone */
    char date[32], links[160];
    rs_dtype type;
    rs_op op;
    unsigned warmup, reps;
    rs_ar_point p[MAX_POINTS];
} ar_run;

cJSON *rs_ar_run_to_json(const ar_run *r);
/* 1 when the run was written to path. */
int rs_ar_run_write(const char *path, const ar_run *r);
/* The points of a recording (--replay) of the asked algorithms, and of the
 * asked sizes when sizes were given; a file that is not one, or a figure
 * of the wrong type or out of range, is refused with what is wrong. */
rs_status rs_ar_run_read(const char *path, const rs_cli *cli, const rs_sweep_sizes *sz,
                         unsigned algos, ar_run *r, rs_error *err);

#endif
