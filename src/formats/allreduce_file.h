/* redscope allreduce's files: its recording (allreduce_file.c), one JSON
 * object (--record writes it, --replay reads it back, every figure
 * checked); its table, CSV and chart data (allreduce_out.c); the recording
 * as a source (source_allreduce.c). */
#ifndef RS_ALLREDUCE_REC_H
#define RS_ALLREDUCE_REC_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "core/request.h"
#include "core/result.h"
#include "core/source.h"
#include "core/sweep_range.h"

#define MAX_POINTS (RS_SWEEP_MAX_SIZES * RS_AR_ALGO_COUNT)

typedef struct rs_ar_record {
    int gpus, nccl_version, npoints;
    int left_out;          /* points asked for past MAX_POINTS: not kept, said by the replay */
    rs_device_info device; /* the first GPU; an older recording holds its name alone */
    char date[32], links[160];
    rs_dtype type;
    rs_op op;
    unsigned warmup, reps;
    rs_ar_point p[MAX_POINTS];
} rs_ar_record;

/* What a replay asks of a recording: the type and operation where set,
 * the GPU count (0: any), the sizes where set, and its path for messages. */
typedef struct rs_ar_asked {
    int type_set, op_set, sizes_set;
    rs_dtype type;
    rs_op op;
    int gpus;
    const char *path;
} rs_ar_asked;

cJSON *rs_ar_run_to_json(const rs_ar_record *r);
/* The run written to path (through a temporary file: a write cut short
 * leaves the old recording whole), or why not. */
rs_status rs_ar_run_write(const char *path, const rs_ar_record *r, rs_error *err);
/* The points of a recording (--replay) of the asked algorithms, and of the
 * asked sizes when sizes were given; a file that is not one, or a figure
 * of the wrong type or out of range, is refused with what is wrong. */
rs_status rs_ar_run_read(const char *path, const rs_ar_asked *ask, const rs_sweep_sizes *sz,
                         unsigned algos, rs_ar_record *r, rs_error *err);

/* The table: a header (GPUs, device, type, op, NCCL, links), a line per
 * point, each algorithm's crossover. */
void rs_ar_print_table(FILE *f, const rs_ar_record *r);
void rs_ar_print_csv(FILE *f, const rs_ar_record *r);
/* The bandwidth a chart and the crossovers read: busbw, as nccl-tests
 * reports it, or algbw on one GPU (busbw is 0 there by its definition). */
double rs_ar_shown_bw(const rs_ar_record *r, const rs_ar_point *p);
const char *rs_ar_shown_bw_name(const rs_ar_record *r);
/* The chart's data in csv: bytes per GPU, then each algorithm's shown
 * bandwidth (*columns of them); 1 when written. */
int rs_ar_chart_csv(const rs_ar_record *r, const char *csv, int *columns);
/* gnuplot's size axis: powers of 2 named as the tables name sizes. */
void rs_ar_size_tics(const rs_ar_record *r, char *buf, size_t len);

/* A recording as a source (--replay): the points of rs_ar_run_read, each
 * the answer to the all-reduce request of its algorithm and size. */
rs_status rs_source_ar_open(const char *path, const rs_ar_asked *ask, const rs_sweep_sizes *sz,
                            unsigned algos, rs_source **out, rs_error *err);
/* What that source holds (NULL for any other source). */
const rs_ar_record *rs_source_ar_record(const rs_source *s);

#endif
