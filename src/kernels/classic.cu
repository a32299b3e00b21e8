// The classic ladder (Harris, "Optimizing Parallel Reduction in CUDA"):
// one atomic per element, then a shared-memory tree improved one idea at a
// time. Lines between "rs:key" and "rs:end" are shown in the explorer.
#include "common.cuh"

namespace rs
{

template <class T, class A, class Op>
__global__ void k_atomic(const T *__restrict__ in, unsigned long long n, A *out)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    // rs:key atomic
    if (i < n) atomic_op(Op(), out, to_acc<A>(in[i]));
    // rs:end
}

template <class T, class A, class Op>
__global__ void k_interleaved(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    Op op;
    const unsigned tid = threadIdx.x;
    s[tid] = load_one<T, A, Op>(in, n);
    __syncthreads();
    // rs:key interleaved
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] = op(s[tid], s[tid + stride]);
        __syncthreads();
    }
    // rs:end
    finish_block<A, Op>(s[0], fin);
}

template <class T, class A, class Op>
__global__ void k_interleaved_strided(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    Op op;
    const unsigned tid = threadIdx.x;
    s[tid] = load_one<T, A, Op>(in, n);
    __syncthreads();
    // rs:key interleaved_strided
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned idx = 2 * stride * tid;
        if (idx < blockDim.x) s[idx] = op(s[idx], s[idx + stride]);
        __syncthreads();
    }
    // rs:end
    finish_block<A, Op>(s[0], fin);
}

template <class A, class Op> __device__ __forceinline__ void tree_sequential(A *s, unsigned last)
{
    Op op;
    const unsigned tid = threadIdx.x;
    // rs:key sequential
    for (unsigned stride = blockDim.x / 2; stride > last; stride >>= 1) {
        if (tid < stride) s[tid] = op(s[tid], s[tid + stride]);
        __syncthreads();
    }
    // rs:end
}

template <class T, class A, class Op>
__global__ void k_sequential(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    s[threadIdx.x] = load_one<T, A, Op>(in, n);
    __syncthreads();
    tree_sequential<A, Op>(s, 0);
    finish_block<A, Op>(s[0], fin);
}

template <class T, class A, class Op>
__global__ void k_first_add(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    s[threadIdx.x] = load_two<T, A, Op>(in, n);
    __syncthreads();
    tree_sequential<A, Op>(s, 0);
    finish_block<A, Op>(s[0], fin);
}

// Both unrolled-warp kernels stop the tree at 64 values; at blockDim 32 the
// upper half of the (64-entry) array holds the identity.
template <class T, class A, class Op>
__device__ __forceinline__ A *load_for_warp_unroll(const T *__restrict__ in, unsigned long long n)
{
    A *s = shared_array<A>();
    s[threadIdx.x] = load_two<T, A, Op>(in, n);
    if (blockDim.x == 32) s[threadIdx.x + 32] = Op::identity();
    __syncthreads();
    tree_sequential<A, Op>(s, 32);
    return s;
}

template <class T, class A, class Op>
__global__ void k_unroll_warp_volatile(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = load_for_warp_unroll<T, A, Op>(in, n);
    Op op;
    const unsigned tid = threadIdx.x;
    // rs:key unroll_warp_volatile
    if (tid < 32) {
        volatile A *vs = s; // no __syncwarp: assumes the warp runs in lockstep
        vs[tid] = op(vs[tid], vs[tid + 32]);
        vs[tid] = op(vs[tid], vs[tid + 16]);
        vs[tid] = op(vs[tid], vs[tid + 8]);
        vs[tid] = op(vs[tid], vs[tid + 4]);
        vs[tid] = op(vs[tid], vs[tid + 2]);
        vs[tid] = op(vs[tid], vs[tid + 1]);
    }
    // rs:end
    A r = Op::identity();
    if (tid == 0) r = s[0];
    finish_block<A, Op>(r, fin);
}

// The last warp, correct under independent thread scheduling: read into a
// register, let the whole warp finish reading, then write.
template <class A, class Op> __device__ __forceinline__ void warp_unroll_synced(A *s, unsigned tid)
{
    Op op;
    // rs:key unroll_warp
    // clang-format off
    if (tid < 32) {
        A v = s[tid];
        v = op(v, s[tid + 32]); __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 16]); __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 8]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 4]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 2]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 1]);  __syncwarp(); s[tid] = v;
    }
    // clang-format on
    // rs:end
}

template <class T, class A, class Op>
__global__ void k_unroll_warp(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = load_for_warp_unroll<T, A, Op>(in, n);
    const unsigned tid = threadIdx.x;
    warp_unroll_synced<A, Op>(s, tid);
    A r = Op::identity();
    if (tid == 0) r = s[0];
    finish_block<A, Op>(r, fin);
}

template <class T, class A, class Op> struct Classic {
    static cudaError_t call(const rs_launch *l, int *occ)
    {
        const T *in = static_cast<const T *>(l->in);
        const size_t smem = tree_smem<A>(l->block);
        const Fin<A> fin = make_fin<A>(l);
        switch (l->variant) {
        case RS_V_ATOMIC:
            return go(k_atomic<T, A, Op>, l, occ, 0, in, l->n, static_cast<A *>(l->out));
        case RS_V_INTERLEAVED: return go(k_interleaved<T, A, Op>, l, occ, smem, in, l->n, fin);
        case RS_V_INTERLEAVED_STRIDED:
            return go(k_interleaved_strided<T, A, Op>, l, occ, smem, in, l->n, fin);
        case RS_V_SEQUENTIAL: return go(k_sequential<T, A, Op>, l, occ, smem, in, l->n, fin);
        case RS_V_FIRST_ADD: return go(k_first_add<T, A, Op>, l, occ, smem, in, l->n, fin);
        case RS_V_UNROLL_WARP_VOLATILE:
            return go(k_unroll_warp_volatile<T, A, Op>, l, occ, smem, in, l->n, fin);
        case RS_V_UNROLL_WARP: return go(k_unroll_warp<T, A, Op>, l, occ, smem, in, l->n, fin);
        default: return cudaErrorInvalidValue;
        }
    }
};

template <class A, class Op> __global__ void k_init(A *out)
{
    *out = Op::identity();
}

template <class A> cudaError_t init_typed(rs_op op, void *out, cudaStream_t st)
{
    A *o = static_cast<A *>(out);
    switch (op) {
    case RS_SUM: k_init<A, SumOp<A>><<<1, 1, 0, st>>>(o); break;
    case RS_MIN: k_init<A, MinOp<A>><<<1, 1, 0, st>>>(o); break;
    case RS_MAX: k_init<A, MaxOp<A>><<<1, 1, 0, st>>>(o); break;
    case RS_PROD: k_init<A, ProdOp<A>><<<1, 1, 0, st>>>(o); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

} // namespace rs

extern "C" cudaError_t rs_group_classic(const rs_launch *l, int *occ)
{
    return rs::dispatch<rs::Classic>(l, occ);
}

extern "C" cudaError_t rs_kernel_init_result(rs_dtype acc, rs_op op, void *out, cudaStream_t st)
{
    switch (acc) {
    case RS_INT32: return rs::init_typed<int>(op, out, st);
    case RS_INT64: return rs::init_typed<long long>(op, out, st);
    case RS_FLOAT32: return rs::init_typed<float>(op, out, st);
    case RS_FLOAT64: return rs::init_typed<double>(op, out, st);
    default: return cudaErrorInvalidValue;
    }
}
