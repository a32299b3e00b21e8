/* An all-reduce's recording as a source: each all-reduce request is
 * answered with the point recorded for its algorithm and size, as the GPU
 * process answers it live, so a replay takes the same path as a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce_file.h"
#include "core/row.h"

typedef struct ar_source {
    rs_source base;
    rs_ar_record rec;
    char path[4096];
    unsigned char used[MAX_POINTS]; /* answered: a size recorded twice is answered twice */
} ar_source;

static const rs_device_info *ar_device(rs_source *s)
{
    return &((ar_source *)s->self)->rec.device;
}

static rs_status ar_prepare(rs_source *s, int need_gpu, rs_error *err)
{
    (void)s, (void)need_gpu, (void)err;
    return RS_OK;
}

/* The point that answers r: the first of its algorithm and size not yet
 * answered (a size recorded twice is answered twice), else the first of
 * them; -1 for none. */
static int point_for(const ar_source *a, const rs_request *r)
{
    const rs_ar_record *rec = &a->rec;
    int first = -1;
    for (int i = 0; i < rec->npoints; i++) {
        const rs_ar_point *p = &rec->p[i];
        if (p->algo != r->ar_algo || p->n != r->n || rec->type != r->type || rec->op != r->op)
            continue;
        if (!a->used[i]) return i;
        if (first < 0) first = i;
    }
    return first;
}

static rs_status ar_run(rs_source *s, const rs_request *r, const rs_ask *ask, rs_result *out,
                        rs_error *err)
{
    ar_source *a = s->self;
    memset(out, 0, sizeof *out);
    out->req = *r;
    if (ask->kind != RS_ASK_ALLREDUCE)
        return rs_fail(err, RS_E_USAGE, "%s is a recording of redscope allreduce: %s is not in it",
                       a->path, ask->command ? ask->command : "a run");
    const rs_ar_record *rec = &a->rec;
    const int at = point_for(a, r);
    if (at < 0)
        return rs_fail(err, RS_E_USAGE, RS_NOT_RECORDED ": %s %s %s at n %llu",
                       rs_ar_algo_name(r->ar_algo), rs_dtype_name(r->type), rs_op_name(r->op),
                       (unsigned long long)r->n);
    a->used[at] = 1;
    out->device = rec->device;
    out->reps = rec->reps;
    out->multi.gpus = rec->gpus;
    snprintf(out->multi.links, sizeof out->multi.links, "%s", rec->links);
    out->ar.point = rec->p[at];
    out->ar.nccl_version = rec->nccl_version;
    return RS_OK;
}

static void ar_close(rs_source *s)
{
    free(s->self);
}

rs_status rs_source_ar_open(const char *path, const rs_ar_asked *ask, const rs_sweep_sizes *sz,
                            unsigned algos, rs_source **out, rs_error *err)
{
    *out = NULL;
    ar_source *a = calloc(1, sizeof *a);
    if (!a) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    const rs_status st = rs_ar_run_read(path, ask, sz, algos, &a->rec, err);
    if (st != RS_OK) {
        free(a);
        return st;
    }
    snprintf(a->path, sizeof a->path, "%s", path);
    a->base = (rs_source){"recording", a, ar_device, ar_prepare, ar_run, ar_close};
    *out = &a->base;
    return RS_OK;
}

const rs_ar_record *rs_source_ar_record(const rs_source *s)
{
    return s && s->close == ar_close ? &((const ar_source *)s->self)->rec : NULL;
}
