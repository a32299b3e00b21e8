/* The all-reduce of a vector over several GPUs of this process: every GPU
 * holds n elements and ends with the element-wise reduction of all of
 * them (out of place, as nccl-tests measures it). Algorithms: NCCL's
 * choice, NCCL forced to its ring or its tree (NCCL_ALGO), and a ring
 * written by hand over peer copies (reduce-scatter, then all-gather) for
 * teaching. NVLink multicast (NVLS) stays off: NCCL_NVLS_ENABLE=0. */
#ifndef RS_ALLREDUCE_H
#define RS_ALLREDUCE_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "core/error.h"
#include "core/result.h"
#include "core/rs_types.h"

typedef struct rs_ar rs_ar;

/* `gpus` devices (0: every one) ready for `algo`; with fewer devices than
 * asked, without NCCL, or without peer access (the peer ring), a reason. */
rs_status rs_ar_open(int gpus, rs_ar_algo algo, rs_ar **out, rs_error *err);
/* One process of a job over `ranks` (--rank R --ranks N --rendezvous FILE):
 * rank 0 publishes NCCL's unique id in FILE.ALGO (shared storage across
 * nodes; one file per algorithm, removed once every rank has joined), the
 * others wait for it (rs_rendezvous_timeout); each process uses GPU
 * rank % (GPUs it sees). NCCL's algorithms only. */
rs_status rs_ar_open_rank(int rank, int ranks, const char *rendezvous, rs_ar_algo algo, rs_ar **out,
                          rs_error *err);
int rs_ar_rank(const rs_ar *a);         /* 0 in one process */
int rs_ar_gpus(const rs_ar *a);         /* GPUs in the all-reduce (ranks across processes) */
int rs_ar_nccl_version(const rs_ar *a); /* 22809: 2.28.9; 0 for the peer ring */

/* One size: warm-up runs, then `reps` timed ones, then the check. */
rs_status rs_ar_run(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, unsigned warmup, unsigned reps,
                    uint64_t seed, rs_ar_point *p, rs_error *err);

/* A run's cross-GPU finish (an rs_ar of NCCL's choice, in one process):
 * ncclReduce of `count` elements of type t, in[g] on GPU g, into out0 on the
 * first GPU, issued on streams[g]. */
rs_status rs_ar_reduce(rs_ar *a, void *const *in, void *out0, size_t count, rs_dtype t, rs_op op,
                       const cudaStream_t *streams, rs_error *err);

/* Peer access from GPU dev to peer's memory, or between every pair of
 * dev[0..gpus): `who` needs it ("the peer ring"); a reason where a pair has
 * none. */
rs_status rs_peer_enable(int dev, int peer, const char *who, rs_error *err);
rs_status rs_peers_enable(const int *dev, int gpus, const char *who, rs_error *err);

/* GPU g's device and stream (g from 0 to the GPUs of this process). */
int rs_ar_device(const rs_ar *a, int g);
cudaStream_t rs_ar_stream(const rs_ar *a, int g);

void rs_ar_close(rs_ar *a);

/* The all-reduce as the GPU source answers it (allreduce_run.c): one
 * request (RS_ASK_ALLREDUCE) is one size of one algorithm,
 * answered in out->ar, out->multi (GPUs, links) and out->device (the
 * first GPU). The open all-reduce is kept for the next request of the same
 * job; a job that could not open is refused again without a second try. */
typedef struct rs_ar_session rs_ar_session;
rs_ar_session *rs_ar_session_new(void);
rs_status rs_ar_session_run(rs_ar_session *s, const rs_request *r, const rs_ar_job *job,
                            rs_result *out, rs_error *err);
/* A GPU faulted: the process can no longer use CUDA. */
int rs_ar_session_broken(const rs_ar_session *s);
void rs_ar_session_free(rs_ar_session *s);

#endif
