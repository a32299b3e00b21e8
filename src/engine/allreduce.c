#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime */
#include "allreduce.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/multi.h"
#include "formats/rendezvous.h"
#include "internal.h"
#include "kernels/rs_kernels.h"
#include "nccl_lib.h"
#include "topology.h"

/* NCCL's ABI, as nccl.h defines it (the header is not needed to build). */
typedef void *nccl_comm;
typedef int (*nccl_init_all_fn)(nccl_comm *, int, const int *);
typedef struct nccl_uid {
    char internal[128]; /* NCCL_UNIQUE_ID_BYTES */
} nccl_uid;
typedef int (*nccl_get_uid_fn)(nccl_uid *);
typedef int (*nccl_init_rank_fn)(nccl_comm *, int, nccl_uid, int);
typedef int (*nccl_all_reduce_fn)(const void *, void *, size_t, int, int, nccl_comm, cudaStream_t);
typedef int (*nccl_reduce_fn)(const void *, void *, size_t, int, int, int, nccl_comm, cudaStream_t);
typedef int (*nccl_void_fn)(void);
typedef int (*nccl_destroy_fn)(nccl_comm); /* ncclCommDestroy */
typedef const char *(*nccl_error_fn)(int);

struct rs_ar {
    int gpus, dev[RS_AR_GPUS_MAX], version;
    int rank, ranks; /* one process per GPU: this one's rank of `ranks`; ranks 0: one process */
    rs_ar_algo algo;
    void *lib;
    nccl_init_all_fn init_all;
    nccl_get_uid_fn get_uid;
    nccl_init_rank_fn init_rank;
    nccl_all_reduce_fn all_reduce;
    nccl_reduce_fn reduce; /* a run's cross-GPU finish (rs_ar_reduce) */
    nccl_void_fn group_start, group_end;
    nccl_destroy_fn destroy;
    nccl_error_fn error;
    nccl_comm comm[RS_AR_GPUS_MAX];
    cudaStream_t stream[RS_AR_GPUS_MAX];
    void *send[RS_AR_GPUS_MAX], *recv[RS_AR_GPUS_MAX], *tmp[RS_AR_GPUS_MAX];
    unsigned long long *wrong[RS_AR_GPUS_MAX];
    cudaEvent_t sent[RS_AR_GPUS_MAX], done[RS_AR_GPUS_MAX]; /* the peer ring's order */
    size_t room;                                            /* bytes of each send and recv buffer */
    rs_nvlink *nvl; /* NVLink's counters; NULL where a GPU has none */
};

int rs_ar_gpus(const rs_ar *a)
{
    return a->ranks ? a->ranks : a->gpus;
}
int rs_ar_nccl_version(const rs_ar *a)
{
    return a->version;
}

static int nccl_type(rs_dtype t)
{
    static const int map[RS_DTYPE_COUNT] = {2, 4, 7, 8, 6, 9}; /* ncclInt32 ... ncclBfloat16 */
    return t >= 0 && t < RS_DTYPE_COUNT ? map[t] : -1;
}

static int nccl_op(rs_op op)
{
    static const int map[RS_OP_COUNT] = {0, 3, 2, 1}; /* sum min max prod: ncclSum=0 ... */
    return op >= 0 && op < RS_OP_COUNT ? map[op] : -1;
}

static rs_status cuda_fail(rs_error *err, cudaError_t e, const char *what, int dev)
{
    return rs_fail(err, e == cudaErrorMemoryAllocation ? RS_E_NOMEM : RS_E_CUDA, "%s on GPU %d: %s",
                   what, dev, cudaGetErrorString(e));
}

#define CU(call, what, dev)                                                                        \
    do {                                                                                           \
        const cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) return cuda_fail(err, e_, what, dev);                               \
    } while (0)

/* NCCL's library and the functions used (before any GPU is asked for:
 * without NCCL the reason is that, GPUs or not). */
static rs_status nccl_symbols(rs_ar *a, rs_error *err)
{
    char why[512];
    a->lib = rs_nccl_lib(&a->version, why, sizeof why);
    if (!a->lib) return rs_fail(err, RS_E_NODRIVER, "%s", why);
    a->all_reduce = (nccl_all_reduce_fn)dlsym(a->lib, "ncclAllReduce");
    a->group_start = (nccl_void_fn)dlsym(a->lib, "ncclGroupStart");
    a->group_end = (nccl_void_fn)dlsym(a->lib, "ncclGroupEnd");
    a->destroy = (nccl_destroy_fn)dlsym(a->lib, "ncclCommDestroy");
    a->error = (nccl_error_fn)dlsym(a->lib, "ncclGetErrorString");
    a->init_all = (nccl_init_all_fn)dlsym(a->lib, "ncclCommInitAll");
    a->get_uid = (nccl_get_uid_fn)dlsym(a->lib, "ncclGetUniqueId");
    a->init_rank = (nccl_init_rank_fn)dlsym(a->lib, "ncclCommInitRank");
    a->reduce = (nccl_reduce_fn)dlsym(a->lib, "ncclReduce");
    if (!a->all_reduce || !a->group_start || !a->group_end || !a->destroy || !a->error ||
        !a->init_all)
        return rs_fail(err, RS_E_NODRIVER, "this NCCL lacks ncclCommInitAll or ncclAllReduce");
    return RS_OK;
}

/* NCCL reads these when a communicator is made. Multicast stays off. */
/* setenv only where the value changes: the explorer's worker thread gets
 * here while its other threads may read the environment. */
static void set_env(const char *key, const char *value)
{
    const char *now = getenv(key);
    if (value && (!now || strcmp(now, value) != 0))
        setenv(key, value, 1);
    else if (!value && now)
        unsetenv(key);
}

static void nccl_env(const rs_ar *a)
{
    set_env("NCCL_NVLS_ENABLE", "0");
    static char user_algo[64] = "", saved = 0;
    if (!saved) {
        const char *u = getenv("NCCL_ALGO");
        snprintf(user_algo, sizeof user_algo, "%s", u ? u : "");
        saved = 1;
    }
    set_env("NCCL_ALGO", a->algo == RS_AR_RING   ? "Ring"
                         : a->algo == RS_AR_TREE ? "Tree"
                         : user_algo[0]          ? user_algo
                                                 : NULL);
}

static rs_status nccl_init(rs_ar *a, rs_error *err)
{
    nccl_env(a);
    const int r = a->init_all(a->comm, a->gpus, a->dev);
    if (r != 0)
        return rs_fail(err, RS_E_CUDA, "NCCL could not set up %d GPUs: %s", a->gpus, a->error(r));
    return RS_OK;
}

rs_status rs_peer_enable(int dev, int peer, const char *who, rs_error *err)
{
    if (dev == peer) return RS_OK; /* one GPU's own memory (REDSCOPE_TEST_GPUS) */
    int can = 0;
    cudaDeviceCanAccessPeer(&can, dev, peer);
    if (!can)
        return rs_fail(err, RS_E_USAGE,
                       "GPU %d cannot reach GPU %d's memory: %s needs peer access (NVLink or "
                       "PCIe P2P)",
                       dev, peer, who);
    CU(cudaSetDevice(dev), "selecting the GPU", dev);
    const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
        return cuda_fail(err, e, "enabling peer access", dev);
    cudaGetLastError(); /* already enabled is no error */
    return RS_OK;
}

rs_status rs_peers_enable(const int *dev, int gpus, const char *who, rs_error *err)
{
    for (int i = 0; i < gpus; i++)
        for (int j = 0; j < gpus; j++) {
            const rs_status st = i == j ? RS_OK : rs_peer_enable(dev[i], dev[j], who, err);
            if (st != RS_OK) return st;
        }
    return RS_OK;
}

/* The GPUs here (`same`: REDSCOPE_TEST_GPUS's count), or why there are
 * none, in the words a run on one GPU uses (no driver, one too old). */
static rs_status gpus_here(int same, int *count, rs_error *err)
{
    *count = 0;
    const cudaError_t e = same ? (cudaError_t)rs_gpu_count(count) : cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        *count = 0;
        return rs_cuda_fail(NULL, err, e, "counting the GPUs");
    }
    return *count > 0 ? RS_OK : rs_fail(err, RS_E_NODEVICE, "no usable CUDA device");
}

/* How many GPUs: `gpus`, or every one for 0; a reason when there are fewer. */
static rs_status count_gpus(int *gpus, rs_error *err)
{
    int count = 0;
    const rs_status st = gpus_here(1, &count, err);
    if (st != RS_OK) return st;
    if (*gpus == 0) *gpus = count < RS_AR_GPUS_MAX ? count : RS_AR_GPUS_MAX;
    if (*gpus < 1 || *gpus > RS_AR_GPUS_MAX)
        return rs_fail(err, RS_E_USAGE, "--gpus %d: from 1 to %d (0: every GPU)", *gpus,
                       RS_AR_GPUS_MAX);
    if (*gpus > count)
        return rs_fail(err, RS_E_NODEVICE,
                       "an all-reduce over %d GPUs needs %d; this machine has %d", *gpus, *gpus,
                       count);
    return RS_OK;
}

/* Each GPU's stream, error counter and the ring's events; NVLink's
 * counters where every GPU has them (opened here, before anything is
 * timed: NVML's start takes a while). */
static rs_status setup_streams(rs_ar *a, rs_error *err)
{
    for (int g = 0; g < a->gpus; g++) {
        cudaError_t c = cudaSetDevice(a->dev[g]);
        if (c == cudaSuccess) c = cudaStreamCreateWithFlags(&a->stream[g], cudaStreamNonBlocking);
        if (c == cudaSuccess) c = cudaMalloc((void **)&a->wrong[g], sizeof *a->wrong[g]);
        if (c == cudaSuccess) c = cudaEventCreateWithFlags(&a->sent[g], cudaEventDisableTiming);
        if (c == cudaSuccess) c = cudaEventCreateWithFlags(&a->done[g], cudaEventDisableTiming);
        if (c != cudaSuccess) return cuda_fail(err, c, "setting up", a->dev[g]);
    }
    a->nvl = rs_gpus_virtual() ? NULL : rs_nvlink_open(a->dev, a->gpus); /* no link crossed */
    return RS_OK;
}

rs_status rs_ar_open(int gpus, rs_ar_algo algo, rs_ar **out, rs_error *err)
{
    *out = NULL;
    rs_ar *a = calloc(1, sizeof *a);
    if (!a) return rs_fail(err, RS_E_NOMEM, "out of memory");
    a->algo = algo;
    rs_status st = RS_OK;
    if (algo != RS_AR_PEER_RING && rs_gpus_virtual() && gpus != 1) /* test-only */
        st = rs_fail(err, RS_E_USAGE,
                     "NCCL needs %d distinct GPUs; the test-only REDSCOPE_TEST_GPUS puts every "
                     "one on CUDA device 0",
                     gpus ? gpus : rs_gpus_virtual());
    else if (algo != RS_AR_PEER_RING)
        st = nccl_symbols(a, err);
    if (st == RS_OK) st = count_gpus(&gpus, err);
    a->gpus = st == RS_OK ? gpus : 0;
    for (int g = 0; g < a->gpus; g++) a->dev[g] = rs_gpu_dev(g);
    if (st == RS_OK)
        st = algo == RS_AR_PEER_RING ? rs_peers_enable(a->dev, a->gpus, "the peer ring", err)
                                     : nccl_init(a, err);
    if (st == RS_OK) st = setup_streams(a, err);
    if (st != RS_OK) {
        rs_ar_close(a);
        return st;
    }
    *out = a;
    return RS_OK;
}

/* One process's part of a job over `ranks` processes: rank 0 makes NCCL's
 * unique id and publishes it in the rendezvous file, the others read it;
 * each uses GPU rank % (GPUs here). */
rs_status rs_ar_open_rank(int rank, int ranks, const char *rendezvous, rs_ar_algo algo, rs_ar **out,
                          rs_error *err)
{
    *out = NULL;
    const time_t start = time(NULL);
    if (algo == RS_AR_PEER_RING)
        return rs_fail(err, RS_E_USAGE, "the peer ring runs in one process: leave out --ranks");
    if (ranks < 1 || rank < 0 || rank >= ranks)
        return rs_fail(err, RS_E_USAGE, "--rank %d of --ranks %d: a rank from 0 to ranks-1", rank,
                       ranks);
    if (!rendezvous || !*rendezvous)
        return rs_fail(err, RS_E_USAGE, "--rendezvous FILE: a path every rank can see");
    double wait_s = 0;
    rs_status st = rs_rendezvous_timeout(&wait_s, err);
    if (st != RS_OK) return st;
    rs_ar *a = calloc(1, sizeof *a);
    if (!a) return rs_fail(err, RS_E_NOMEM, "out of memory");
    a->algo = algo;
    a->rank = rank;
    a->ranks = ranks;
    nccl_uid id;
    memset(&id, 0, sizeof id);
    int count = 0; /* this node's GPUs, the ranks here sharing them: asked first, as devices */
    st = gpus_here(0, &count, err);
    if (st == RS_OK) st = nccl_symbols(a, err);
    if (st == RS_OK && (!a->get_uid || !a->init_rank))
        st = rs_fail(err, RS_E_NODRIVER, "this NCCL lacks ncclGetUniqueId or ncclCommInitRank");
    char path[4096]; /* one file per algorithm: each has its own communicator */
    snprintf(path, sizeof path, "%s.%s", rendezvous, rs_ar_algo_name(algo));
    int published = 0; /* what rank 0 wrote is what it removes, nothing else */
    if (st == RS_OK && rank == 0) {
        const int r = a->get_uid(&id);
        st = r ? rs_fail(err, RS_E_CUDA, "ncclGetUniqueId: %s", a->error(r))
               : rs_rendezvous_publish(path, &id, sizeof id, err);
        published = st == RS_OK;
    } else if (st == RS_OK) {
        st = rs_rendezvous_wait(path, &id, sizeof id, start - 30, wait_s, err);
    }
    if (st == RS_OK) {
        a->gpus = 1;
        a->dev[0] = rank % count;
        cudaSetDevice(a->dev[0]);
        nccl_env(a);
        const int r = a->init_rank(&a->comm[0], ranks, id, rank);
        if (r)
            st = rs_fail(err, RS_E_CUDA, "NCCL could not join rank %d of %d: %s", rank, ranks,
                         a->error(r));
    }
    /* every rank has joined, or rank 0 failed: either way no rank may read it again */
    if (published) remove(path);
    st = st == RS_OK ? setup_streams(a, err) : st;
    if (st != RS_OK) {
        rs_ar_close(a);
        return st;
    }
    *out = a;
    return RS_OK;
}

int rs_ar_rank(const rs_ar *a)
{
    return a->ranks ? a->rank : 0;
}

int rs_ar_device(const rs_ar *a, int g)
{
    return a->dev[g];
}

cudaStream_t rs_ar_stream(const rs_ar *a, int g)
{
    return a->stream[g];
}

static void free_buffers(rs_ar *a)
{
    for (int g = 0; g < a->gpus; g++) {
        cudaSetDevice(a->dev[g]);
        cudaFree(a->send[g]);
        cudaFree(a->recv[g]);
        cudaFree(a->tmp[g]);
        a->send[g] = a->recv[g] = a->tmp[g] = NULL;
    }
    a->room = 0;
}

void rs_ar_close(rs_ar *a)
{
    if (!a) return;
    free_buffers(a);
    for (int g = 0; g < a->gpus; g++) {
        cudaSetDevice(a->dev[g]);
        if (a->comm[g] && a->destroy) a->destroy(a->comm[g]);
        if (a->stream[g]) cudaStreamDestroy(a->stream[g]);
        if (a->sent[g]) cudaEventDestroy(a->sent[g]);
        if (a->done[g]) cudaEventDestroy(a->done[g]);
        cudaFree(a->wrong[g]);
    }
    rs_nvlink_close(a->nvl);
    free(a);
}

static rs_status ensure_room(rs_ar *a, size_t bytes, rs_error *err)
{
    if (bytes <= a->room) return RS_OK;
    free_buffers(a);
    for (int g = 0; g < a->gpus; g++) {
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(cudaMalloc(&a->send[g], bytes), "allocating the input", a->dev[g]);
        CU(cudaMalloc(&a->recv[g], bytes), "allocating the output", a->dev[g]);
        if (a->algo == RS_AR_PEER_RING)
            CU(cudaMalloc(&a->tmp[g], bytes / (size_t)a->gpus + 256),
               "allocating the ring's buffer", a->dev[g]);
    }
    a->room = bytes;
    return RS_OK;
}

static rs_status sync_all(rs_ar *a, rs_error *err)
{
    for (int g = 0; g < a->gpus; g++) {
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(cudaStreamSynchronize(a->stream[g]), "the all-reduce", a->dev[g]);
    }
    return RS_OK;
}

static rs_status nccl_once(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, rs_error *err)
{
    int r = a->group_start();
    for (int g = 0; r == 0 && g < a->gpus; g++)
        r = a->all_reduce(a->send[g], a->recv[g], (size_t)n, nccl_type(t), nccl_op(op), a->comm[g],
                          a->stream[g]);
    const int r2 = a->group_end();
    if (r == 0) r = r2;
    return r ? rs_fail(err, RS_E_CUDA, "ncclAllReduce: %s", a->error(r)) : RS_OK;
}

rs_status rs_ar_reduce(rs_ar *a, void *const *in, void *out0, size_t count, rs_dtype t, rs_op op,
                       const cudaStream_t *streams, rs_error *err)
{
    if (!a->reduce || a->ranks || a->algo == RS_AR_PEER_RING)
        return rs_fail(err, RS_E_NODRIVER, "this NCCL lacks ncclReduce");
    int r = a->group_start();
    for (int g = 0; r == 0 && g < a->gpus; g++) /* recvbuff counts on the root alone */
        r = a->reduce(in[g], g == 0 ? out0 : in[g], count, nccl_type(t), nccl_op(op), 0, a->comm[g],
                      streams[g]);
    const int r2 = a->group_end();
    if (r == 0) r = r2;
    return r ? rs_fail(err, RS_E_CUDA, "ncclReduce: %s", a->error(r)) : RS_OK;
}

/* Elements [first, first + len) of chunk k of n over g GPUs. */
static void chunk(uint64_t n, int g, int k, uint64_t *first, uint64_t *len)
{
    const uint64_t c = (n + (uint64_t)g - 1) / (uint64_t)g, at = c * (uint64_t)k;
    *first = at < n ? at : n;
    *len = at < n ? (n - at < c ? n - at : c) : 0;
}

/* Reduce-scatter: at step s GPU g sends chunk g-s to the next GPU, which
 * adds it into its own; after G-1 steps GPU g holds chunk g+1 whole. Events
 * order the GPUs: a copy into the next GPU's buffer waits for its last add. */
static rs_status ring_scatter(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, cudaEvent_t *sent,
                              cudaEvent_t *done, rs_error *err)
{
    const int G = a->gpus;
    const size_t size = rs_dtype_size(t);
    for (int s = 0; s + 1 < G; s++) {
        for (int g = 0; g < G; g++) {
            const int next = (g + 1) % G;
            uint64_t first, len;
            chunk(n, G, ((g - s) % G + G) % G, &first, &len);
            CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
            CU(cudaStreamWaitEvent(a->stream[g], done[next], 0), "ordering", a->dev[g]);
            CU(cudaMemcpyPeerAsync(a->tmp[next], a->dev[next], (char *)a->recv[g] + first * size,
                                   a->dev[g], len * size, a->stream[g]),
               "a peer copy", a->dev[g]);
            CU(cudaEventRecord(sent[g], a->stream[g]), "ordering", a->dev[g]);
        }
        for (int g = 0; g < G; g++) {
            const int prev = (g + G - 1) % G;
            uint64_t first, len;
            chunk(n, G, ((g - 1 - s) % G + G) % G, &first, &len);
            CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
            CU(cudaStreamWaitEvent(a->stream[g], sent[prev], 0), "ordering", a->dev[g]);
            CU(rs_multi_combine(t, op, (char *)a->recv[g] + first * size, a->tmp[g], len,
                                a->stream[g]),
               "the ring's add", a->dev[g]);
            CU(cudaEventRecord(done[g], a->stream[g]), "ordering", a->dev[g]);
        }
    }
    return RS_OK;
}

/* All-gather: at step s GPU g passes whole chunk g+1-s on to the next GPU. */
static rs_status ring_gather(rs_ar *a, rs_dtype t, uint64_t n, cudaEvent_t *sent, rs_error *err)
{
    const int G = a->gpus;
    const size_t size = rs_dtype_size(t);
    for (int s = 0; s + 1 < G; s++) {
        for (int g = 0; g < G; g++) {
            const int next = (g + 1) % G, prev = (g + G - 1) % G;
            uint64_t first, len;
            chunk(n, G, ((g + 1 - s) % G + G) % G, &first, &len);
            CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
            CU(cudaStreamWaitEvent(a->stream[g], sent[prev], 0), "ordering", a->dev[g]);
            CU(cudaMemcpyPeerAsync((char *)a->recv[next] + first * size, a->dev[next],
                                   (char *)a->recv[g] + first * size, a->dev[g], len * size,
                                   a->stream[g]),
               "a peer copy", a->dev[g]);
        }
        for (int g = 0; g < G; g++) {
            CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
            CU(cudaEventRecord(sent[g], a->stream[g]), "ordering", a->dev[g]);
        }
    }
    for (int g = 0; g < G; g++) { /* the last copy into each GPU */
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(cudaStreamWaitEvent(a->stream[g], sent[(g + G - 1) % G], 0), "ordering", a->dev[g]);
    }
    return RS_OK;
}

static rs_status ring_once(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, rs_error *err)
{
    for (int g = 0; g < a->gpus; g++) {
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(cudaMemcpyAsync(a->recv[g], a->send[g], n * rs_dtype_size(t), cudaMemcpyDeviceToDevice,
                           a->stream[g]),
           "copying the input", a->dev[g]);
    }
    if (a->gpus == 1) return RS_OK;
    rs_status st = ring_scatter(a, t, op, n, a->sent, a->done, err);
    return st == RS_OK ? ring_gather(a, t, n, a->sent, err) : st;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static rs_status once(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, rs_error *err)
{
    return a->algo == RS_AR_PEER_RING ? ring_once(a, t, op, n, err) : nccl_once(a, t, op, n, err);
}

/* What the GPUs sent and received over NVLink since tx0 and rx0, per GPU
 * and all-reduce (the mean over the GPUs of this process) of `reps`. */
static void nvlink_since(rs_ar *a, const uint64_t *tx0, const uint64_t *rx0, unsigned reps,
                         rs_ar_point *p)
{
    uint64_t tx[RS_AR_GPUS_MAX], rx[RS_AR_GPUS_MAX];
    if (!rs_nvlink_read(a->nvl, tx, rx)) return;
    double t = 0.0, r = 0.0;
    for (int g = 0; g < a->gpus; g++) {
        t += tx[g] >= tx0[g] ? (double)(tx[g] - tx0[g]) : 0.0; /* a reset counter: 0 */
        r += rx[g] >= rx0[g] ? (double)(rx[g] - rx0[g]) : 0.0;
    }
    p->nvl_valid = 1;
    p->nvl_tx = t / a->gpus / reps;
    p->nvl_rx = r / a->gpus / reps;
}

/* The elements of every GPU's output that differ from the exact result. */
static rs_status count_wrong(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, uint64_t seed,
                             uint64_t *wrong, rs_error *err)
{
    *wrong = 0;
    for (int g = 0; g < a->gpus; g++) {
        unsigned long long w = 0;
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(cudaMemsetAsync(a->wrong[g], 0, sizeof w, a->stream[g]), "checking", a->dev[g]);
        CU(rs_multi_check(t, op, a->recv[g], n, seed, rs_ar_gpus(a), a->wrong[g], a->stream[g]),
           "checking", a->dev[g]);
        CU(cudaMemcpyAsync(&w, a->wrong[g], sizeof w, cudaMemcpyDeviceToHost, a->stream[g]),
           "checking", a->dev[g]);
        CU(cudaStreamSynchronize(a->stream[g]), "checking", a->dev[g]);
        *wrong += w;
    }
    return RS_OK;
}

rs_status rs_ar_run(rs_ar *a, rs_dtype t, rs_op op, uint64_t n, unsigned warmup, unsigned reps,
                    uint64_t seed, rs_ar_point *p, rs_error *err)
{
    memset(p, 0, sizeof *p);
    const size_t size = rs_dtype_size(t);
    if (!a || !size || nccl_type(t) < 0 || nccl_op(op) < 0)
        return rs_fail(err, RS_E_USAGE, "an all-reduce needs a known type and operation");
    if (n == 0 || n > ((uint64_t)1 << 40) / size || reps == 0)
        return rs_fail(err, RS_E_USAGE, "an all-reduce needs 1 to 2^40 bytes and a repetition");
    p->n = n;
    p->bytes = n * size;
    p->algo = a->algo;
    rs_status st = ensure_room(a, (size_t)p->bytes, err);
    for (int g = 0; st == RS_OK && g < a->gpus; g++) {
        CU(cudaSetDevice(a->dev[g]), "selecting the GPU", a->dev[g]);
        CU(rs_multi_fill(t, op, a->send[g], n, seed, a->ranks ? a->rank : g, a->stream[g]),
           "making the input", a->dev[g]);
    }
    /* NVLink's counters from before the warm-up (the same all-reduces): no
     * NVML call lies between the warm-up, which waits for every rank, and
     * the timed runs */
    if (st == RS_OK) st = sync_all(a, err);
    uint64_t tx0[RS_AR_GPUS_MAX], rx0[RS_AR_GPUS_MAX];
    const int nvl = st == RS_OK && rs_nvlink_read(a->nvl, tx0, rx0);
    for (unsigned i = 0; st == RS_OK && i < warmup; i++) st = once(a, t, op, n, err);
    if (st == RS_OK) st = sync_all(a, err);
    const double t0 = now_s();
    for (unsigned i = 0; st == RS_OK && i < reps; i++) st = once(a, t, op, n, err);
    if (st == RS_OK) st = sync_all(a, err);
    const double s = (now_s() - t0) / reps;
    if (st != RS_OK) return st;
    if (nvl) nvlink_since(a, tx0, rx0, warmup + reps, p);
    p->us = s * 1e6;
    p->algbw = rs_algbw((double)p->bytes, s) / 1e9;
    p->busbw = rs_busbw_allreduce((double)p->bytes, s, rs_ar_gpus(a)) / 1e9;
    return count_wrong(a, t, op, n, seed, &p->wrong, err);
}
