// Beyond the classic ladder: warp shuffles, cooperative groups, and the
// vectorized single-launch kernel that aims at the speed of light.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common.cuh"

namespace cg = cooperative_groups;

namespace rs
{

template <class T, class A, class Op>
__device__ __forceinline__ A grid_stride_sum(const T *__restrict__ in, unsigned long long n)
{
    Op op;
    A v = Op::identity();
    const unsigned long long stride = (unsigned long long)blockDim.x * gridDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    // Four independent loads in flight per thread, then the remainder.
    for (; i + 3 * stride < n; i += 4 * stride) {
        const A a = to_acc<A>(in[i]), b = to_acc<A>(in[i + stride]);
        const A c = to_acc<A>(in[i + 2 * stride]), d = to_acc<A>(in[i + 3 * stride]);
        v = op(v, op(op(a, b), op(c, d)));
    }
    for (; i < n; i += stride) v = op(v, to_acc<A>(in[i]));
    return v;
}

template <class T, class A, class Op>
__global__ void k_warp_shuffle(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A v = grid_stride_sum<T, A, Op>(in, n);
    v = block_reduce<A, Op>(v);
    finish_block<A, Op>(v, fin);
}

// cg::reduce picks hardware reductions (redux.sync) for the ops it knows.
template <class Op> struct cg_op {
    using type = Op;
};
template <class A> struct cg_op<SumOp<A>> {
    using type = cg::plus<A>;
};
template <class A> struct cg_op<MinOp<A>> {
    using type = cg::less<A>;
};
template <class A> struct cg_op<MaxOp<A>> {
    using type = cg::greater<A>;
};

template <class T, class A, class Op>
__global__ void k_cooperative_groups(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A v = grid_stride_sum<T, A, Op>(in, n);
    const typename cg_op<Op>::type op{};
    // rs:key cooperative_groups
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    v = cg::reduce(tile, v, op);
    __shared__ A tile_part[32];
    if (tile.thread_rank() == 0) tile_part[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < tile.meta_group_size() ? tile_part[tile.thread_rank()]
                                                        : Op::identity();
        v = cg::reduce(tile, v, op);
    }
    // rs:end
    finish_block<A, Op>(v, fin);
}

template <class T, class A, class Op> __device__ __forceinline__ A vec_reduce(uint4 u)
{
    constexpr int V = 16 / sizeof(T);
    T e[V];
    memcpy(e, &u, sizeof u);
    Op op;
    A v = to_acc<A>(e[0]);
#pragma unroll
    for (int k = 1; k < V; k++) v = op(v, to_acc<A>(e[k]));
    return v;
}

template <class T, class A, class Op>
__global__ void k_vectorized(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    constexpr unsigned long long V = 16 / sizeof(T);
    Op op;
    A v = Op::identity();
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long nthreads = (unsigned long long)gridDim.x * blockDim.x;
    // rs:key vectorized
    // Scalar head up to a 16-byte boundary, 16-byte loads four at a time, scalar tail.
    const unsigned long long mis = (reinterpret_cast<uintptr_t>(in) & 15u) / sizeof(T);
    const unsigned long long head = mis ? min(n, V - mis) : 0;
    if (tid < head) v = op(v, to_acc<A>(in[tid]));
    const uint4 *vin = reinterpret_cast<const uint4 *>(in + head);
    const unsigned long long nvec = (n - head) / V;
    unsigned long long i = tid;
    for (; i + 3 * nthreads < nvec; i += 4 * nthreads) {
        const uint4 a = __ldg(vin + i), b = __ldg(vin + i + nthreads);
        const uint4 c = __ldg(vin + i + 2 * nthreads), d = __ldg(vin + i + 3 * nthreads);
        v = op(v, op(op(vec_reduce<T, A, Op>(a), vec_reduce<T, A, Op>(b)),
                     op(vec_reduce<T, A, Op>(c), vec_reduce<T, A, Op>(d))));
    }
    for (; i < nvec; i += nthreads) v = op(v, vec_reduce<T, A, Op>(__ldg(vin + i)));
    const unsigned long long tail = head + nvec * V;
    if (tid < n - tail) v = op(v, to_acc<A>(in[tail + tid]));
    v = block_reduce<A, Op>(v);
    // rs:end
    finish_block<A, Op>(v, fin);
}

// vectorized's kernel for a small n (rs_vectorized_one_block): one block, at
// most four 16-byte vectors per thread. Every load is issued before any is
// used, so the block waits for DRAM once; a single warp reduces in registers
// alone (redux.sync for 32-bit integers), with no shared memory or barrier.
template <class T, class A, class Op>
__global__ void k_vectorized_one(const T *__restrict__ in, unsigned n, Fin<A> fin)
{
    constexpr unsigned V = 16 / sizeof(T);
    Op op;
    const unsigned t = threadIdx.x, nt = blockDim.x;
    const unsigned mis = (unsigned)((reinterpret_cast<uintptr_t>(in) & 15u) / sizeof(T));
    const unsigned head = mis ? min(n, V - mis) : 0;
    const uint4 *vin = reinterpret_cast<const uint4 *>(in + head);
    const unsigned nvec = (n - head) / V, tail = head + nvec * V;
    // rs:key vectorized_one
    uint4 u[4]; // every load first: one trip to DRAM for the whole block
#pragma unroll
    for (unsigned k = 0; k < 4; k++)
        if (t + k * nt < nvec) u[k] = __ldg(vin + t + k * nt);
    const T h = t < head ? in[t] : T(), s = t < n - tail ? in[tail + t] : T();
    A v = Op::identity();
    if (t < head) v = op(v, to_acc<A>(h));
    if (t < n - tail) v = op(v, to_acc<A>(s));
#pragma unroll
    for (unsigned k = 0; k < 4; k++)
        if (t + k * nt < nvec) v = op(v, vec_reduce<T, A, Op>(u[k]));
    if (nt == 32) // one warp: registers only
        v = cg::reduce(cg::tiled_partition<32>(cg::this_thread_block()), v,
                       typename cg_op<Op>::type{});
    else
        v = block_reduce<A, Op>(v);
    // rs:end
    finish_block<A, Op>(v, fin);
}

template <class T, class A, class Op> struct Modern {
    static cudaError_t call(const rs_launch *l, int *occ)
    {
        const T *in = static_cast<const T *>(l->in);
        const Fin<A> fin = make_fin<A>(l);
        switch (l->variant) {
        case RS_V_WARP_SHUFFLE: return go(k_warp_shuffle<T, A, Op>, l, occ, 0, in, l->n, fin);
        case RS_V_COOPERATIVE_GROUPS:
            return go(k_cooperative_groups<T, A, Op>, l, occ, 0, in, l->n, fin);
        case RS_V_VECTORIZED:
            if (rs_vectorized_one_block(l->n, 16 / sizeof(T), l->grid, l->block))
                return go(k_vectorized_one<T, A, Op>, l, occ, 0, in, (unsigned)l->n, fin);
            return go(k_vectorized<T, A, Op>, l, occ, 0, in, l->n, fin);
        default: return cudaErrorInvalidValue;
        }
    }
};

} // namespace rs

extern "C" cudaError_t rs_group_modern(const rs_launch *l, int *occ)
{
    return rs::dispatch<rs::Modern>(l, occ);
}
