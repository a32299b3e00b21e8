/* The all-reduce as the GPU source answers it: one request is one size of
 * one algorithm. The open all-reduce (NCCL's communicators, the buffers)
 * stays open for the next request of the same job, since making it costs
 * far more than one size; a job that could not open is refused again with
 * the same reason rather than tried once per size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "engine.h"
#include "internal.h"
#include "topology.h"

struct rs_ar_session {
    rs_ar *ar;
    rs_ar_job job; /* what ar was opened for, with gpus */
    uint32_t gpus;
    int failed; /* the last open failed, for job and gpus: its status and reason */
    rs_status fail_status;
    char fail_msg[sizeof(((rs_error *)0)->msg)];
    rs_device_info first; /* the first GPU, as the header names it */
    char links[160];
    unsigned runs, fault_at; /* test-only REDSCOPE_TEST_FAULT=N[@G]: all-reduce N faults */
    int fault_gpu;           /* on GPU G of this process (0 without @G) */
    int broken;
};

rs_ar_session *rs_ar_session_new(void)
{
    rs_ar_session *s = calloc(1, sizeof *s);
    const char *fault = getenv("REDSCOPE_TEST_FAULT"); /* test-only: docs/architecture.md */
    char *at = NULL;
    if (s && fault) {
        s->fault_at = (unsigned)strtoul(fault, &at, 10);
        s->fault_gpu = at && *at == '@' ? (int)strtol(at + 1, NULL, 10) : 0;
    }
    return s;
}

static int same_job(const rs_ar_session *s, const rs_request *r, const rs_ar_job *j)
{
    return s->gpus == r->gpus && s->job.algo == j->algo && s->job.rank == j->rank &&
           s->job.ranks == j->ranks && strcmp(s->job.rendezvous, j->rendezvous) == 0;
}

/* The all-reduce for job j over r's GPUs: the one open, or a new one. */
static rs_status open_for(rs_ar_session *s, const rs_request *r, const rs_ar_job *j, rs_error *err)
{
    if (s->ar && same_job(s, r, j)) return RS_OK;
    if (!s->ar && s->failed && same_job(s, r, j))
        return rs_fail(err, s->fail_status, "%s", s->fail_msg);
    rs_ar_close(s->ar);
    s->ar = NULL;
    s->job = *j;
    s->gpus = r->gpus;
    const rs_status st =
        j->ranks ? rs_ar_open_rank(j->rank, j->ranks, j->rendezvous, j->algo, &s->ar, err)
                 : rs_ar_open((int)r->gpus, j->algo, &s->ar, err);
    s->failed = st != RS_OK;
    if (st != RS_OK) {
        s->fail_status = st;
        snprintf(s->fail_msg, sizeof s->fail_msg, "%s", err->msg);
        return st;
    }
    rs_device_info devs[RS_AR_GPUS_MAX];
    int count = 0;
    rs_error ignored;
    memset(&s->first, 0, sizeof s->first);
    if (rs_devices_list(devs, RS_AR_GPUS_MAX, &count, &ignored) == RS_OK && count > 0)
        s->first = devs[0];
    s->links[0] = '\0';
    if (!j->ranks) rs_topology_describe(rs_ar_gpus(s->ar), s->links, sizeof s->links);
    return RS_OK;
}

/* Test-only: a kernel fault on one GPU of the all-reduce, as a run's. */
static rs_status fault(rs_ar_session *s, rs_error *err)
{
    const int g =
        s->fault_gpu >= 0 && s->fault_gpu < rs_ar_gpus(s->ar) && !s->job.ranks ? s->fault_gpu : 0;
    cudaError_t c = cudaSetDevice(rs_ar_device(s->ar, g));
    if (c == cudaSuccess) c = rs_kernel_fault(rs_ar_stream(s->ar, g));
    if (c == cudaSuccess) c = cudaStreamSynchronize(rs_ar_stream(s->ar, g));
    return rs_cuda_fail(NULL, err, c, "running the all-reduce");
}

/* After a failed all-reduce: whether a GPU's context is gone (a sticky
 * error answers every call). */
static int sticky(const rs_ar *a)
{
    for (int g = 0; a && g < rs_ar_gpus(a) && g < RS_AR_GPUS_MAX; g++) {
        if (cudaSetDevice(rs_ar_device(a, g)) != cudaSuccess) return 1;
        const cudaError_t c = cudaStreamQuery(rs_ar_stream(a, g));
        if (rs_cuda_sticky(c)) return 1;
    }
    return 0;
}

rs_status rs_ar_session_run(rs_ar_session *s, const rs_request *r, const rs_ar_job *job,
                            rs_result *out, rs_error *err)
{
    memset(out, 0, sizeof *out);
    out->req = *r;
    out->reps = r->reps;
    if (s->broken) return rs_fail(err, RS_E_CUDA, "a GPU faulted: this GPU process is done");
    rs_status st = open_for(s, r, job, err);
    if (st != RS_OK) return st;
    out->device = s->first;
    out->multi.gpus = rs_ar_gpus(s->ar);
    snprintf(out->multi.links, sizeof out->multi.links, "%s", s->links);
    out->ar.nccl_version = rs_ar_nccl_version(s->ar);
    if (++s->runs == s->fault_at)
        st = fault(s, err);
    else
        st = rs_ar_run(s->ar, r->type, r->op, r->n, r->warmup, r->reps, r->seed, &out->ar.point,
                       err);
    if (st != RS_OK && sticky(s->ar))
        s->broken = 1; /* nothing more is asked of NCCL: the process ends with its result */
    return st;
}

int rs_ar_session_broken(const rs_ar_session *s)
{
    return s && s->broken;
}

void rs_ar_session_free(rs_ar_session *s)
{
    if (!s) return;
    if (!s->broken) rs_ar_close(s->ar); /* broken: left to the process's end */
    free(s);
}
