// Variants whose block size is a template parameter: the completely unrolled
// tree, and Brent's many-elements-per-thread kernel built on it.
#include "common.cuh"

namespace rs
{

template <unsigned BS, class A, class Op>
__device__ __forceinline__ void tree_unrolled(A *s, unsigned tid)
{
    Op op;
    // rs:key unrolled
    // clang-format off
    if (BS >= 1024) { if (tid < 512) s[tid] = op(s[tid], s[tid + 512]); __syncthreads(); }
    if (BS >= 512) { if (tid < 256) s[tid] = op(s[tid], s[tid + 256]); __syncthreads(); }
    if (BS >= 256) { if (tid < 128) s[tid] = op(s[tid], s[tid + 128]); __syncthreads(); }
    if (BS >= 128) { if (tid < 64) s[tid] = op(s[tid], s[tid + 64]); __syncthreads(); }
    if (tid < 32) {
        A v = s[tid];
        if (BS >= 64) { v = op(v, s[tid + 32]); __syncwarp(); s[tid] = v; __syncwarp(); }
        v = op(v, s[tid + 16]); __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 8]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 4]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 2]);  __syncwarp(); s[tid] = v; __syncwarp();
        v = op(v, s[tid + 1]);  __syncwarp(); s[tid] = v;
    }
    // clang-format on
    // rs:end
}

template <unsigned BS, class A, class Op>
__device__ __forceinline__ void finish_unrolled(A *s, const Fin<A> &fin)
{
    const unsigned tid = threadIdx.x;
    if (BS == 32) s[tid + 32] = Op::identity();
    __syncthreads();
    tree_unrolled<BS, A, Op>(s, tid);
    A r = Op::identity();
    if (tid == 0) r = s[0];
    finish_block<A, Op>(r, fin);
}

template <unsigned BS, class T, class A, class Op>
__global__ void __launch_bounds__(BS)
    k_unrolled(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    s[threadIdx.x] = load_two<T, A, Op>(in, n);
    finish_unrolled<BS, A, Op>(s, fin);
}

template <unsigned BS, class T, class A, class Op>
__global__ void __launch_bounds__(BS)
    k_multi_element(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    A *s = shared_array<A>();
    Op op;
    const unsigned tid = threadIdx.x;
    // rs:key multi_element
    A v = Op::identity();
    const unsigned long long step = 2ull * BS * gridDim.x;
    for (unsigned long long i = blockIdx.x * 2ull * BS + tid; i < n; i += step) {
        v = op(v, to_acc<A>(in[i]));
        if (i + BS < n) v = op(v, to_acc<A>(in[i + BS]));
    }
    s[tid] = v;
    // rs:end
    finish_unrolled<BS, A, Op>(s, fin);
}

template <unsigned BS, class T, class A, class Op>
cudaError_t launch_bs(const rs_launch *l, int *occ)
{
    const T *in = static_cast<const T *>(l->in);
    const size_t smem = tree_smem<A>(BS);
    const Fin<A> fin = make_fin<A>(l);
    if (l->variant == RS_V_UNROLLED)
        return go(k_unrolled<BS, T, A, Op>, l, occ, smem, in, l->n, fin);
    return go(k_multi_element<BS, T, A, Op>, l, occ, smem, in, l->n, fin);
}

template <class T, class A, class Op> struct Unrolled {
    static cudaError_t call(const rs_launch *l, int *occ)
    {
        if (l->variant != RS_V_UNROLLED && l->variant != RS_V_MULTI_ELEMENT)
            return cudaErrorInvalidValue;
        switch (l->block) {
        case 32: return launch_bs<32, T, A, Op>(l, occ);
        case 64: return launch_bs<64, T, A, Op>(l, occ);
        case 128: return launch_bs<128, T, A, Op>(l, occ);
        case 256: return launch_bs<256, T, A, Op>(l, occ);
        case 512: return launch_bs<512, T, A, Op>(l, occ);
        case 1024: return launch_bs<1024, T, A, Op>(l, occ);
        default: return cudaErrorInvalidConfiguration;
        }
    }
};

} // namespace rs

extern "C" cudaError_t rs_group_unrolled(const rs_launch *l, int *occ)
{
    return rs::dispatch<rs::Unrolled>(l, occ);
}
