// Shared device code: element and accumulator types, operations, atomics,
// block reduction, the finish step, and the type/op dispatch.
#ifndef RS_COMMON_CUH
#define RS_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cfloat>
#include <climits>
#include <cstring>

#include "rs_kernels.h"

namespace rs
{

// ---- element -> accumulator --------------------------------------------
template <class T> struct acc_of {
    using type = T;
};
template <> struct acc_of<__half> {
    using type = float;
};
template <> struct acc_of<__nv_bfloat16> {
    using type = float;
};

template <class A, class T> __device__ __forceinline__ A to_acc(T x)
{
    return static_cast<A>(x);
}
template <> __device__ __forceinline__ float to_acc<float, __half>(__half x)
{
    return __half2float(x);
}
template <> __device__ __forceinline__ float to_acc<float, __nv_bfloat16>(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}

// ---- operations ------------------------------------------------------------
// Integer sum and product wrap modulo 2^32 / 2^64 (two's complement): the
// arithmetic is done unsigned so the behaviour is defined, and the CPU
// reference does the same.
template <class A> struct wrap {
    using u = A;
};
template <> struct wrap<int> {
    using u = unsigned int;
};
template <> struct wrap<long long> {
    using u = unsigned long long;
};

template <class A> struct SumOp {
    __host__ __device__ static A identity()
    {
        return A(0);
    }
    __host__ __device__ A operator()(A a, A b) const
    {
        using U = typename wrap<A>::u;
        return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
    }
};

template <class A> struct ProdOp {
    __host__ __device__ static A identity()
    {
        return A(1);
    }
    __host__ __device__ A operator()(A a, A b) const
    {
        using U = typename wrap<A>::u;
        return static_cast<A>(static_cast<U>(a) * static_cast<U>(b));
    }
};

template <class A> struct limits;
template <> struct limits<int> {
    __host__ __device__ static int lowest()
    {
        return INT_MIN;
    }
    __host__ __device__ static int highest()
    {
        return INT_MAX;
    }
};
template <> struct limits<long long> {
    __host__ __device__ static long long lowest()
    {
        return LLONG_MIN;
    }
    __host__ __device__ static long long highest()
    {
        return LLONG_MAX;
    }
};
template <> struct limits<float> {
    __host__ __device__ static float lowest()
    {
        return -__builtin_huge_valf();
    }
    __host__ __device__ static float highest()
    {
        return __builtin_huge_valf();
    }
};
template <> struct limits<double> {
    __host__ __device__ static double lowest()
    {
        return -__builtin_huge_val();
    }
    __host__ __device__ static double highest()
    {
        return __builtin_huge_val();
    }
};

template <class A> struct MinOp {
    __host__ __device__ static A identity()
    {
        return limits<A>::highest();
    }
    __host__ __device__ A operator()(A a, A b) const
    {
        return b < a ? b : a;
    }
};

template <class A> struct MaxOp {
    __host__ __device__ static A identity()
    {
        return limits<A>::lowest();
    }
    __host__ __device__ A operator()(A a, A b) const
    {
        return a < b ? b : a;
    }
};

// ---- atomics -----------------------------------------------------------------
__device__ __forceinline__ void atomic_op(SumOp<int>, int *p, int v)
{
    atomicAdd(reinterpret_cast<unsigned int *>(p), static_cast<unsigned int>(v));
}
__device__ __forceinline__ void atomic_op(SumOp<long long>, long long *p, long long v)
{
    atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void atomic_op(SumOp<float>, float *p, float v)
{
    atomicAdd(p, v);
}
__device__ __forceinline__ void atomic_op(SumOp<double>, double *p, double v)
{
    atomicAdd(p, v);
}
template <class A> __device__ __forceinline__ void atomic_op(MinOp<A>, A *p, A v)
{
    atomicMin(p, v);
}
template <class A> __device__ __forceinline__ void atomic_op(MaxOp<A>, A *p, A v)
{
    atomicMax(p, v);
}
// Floating-point min/max through the integer atomics: values with the sign
// bit clear order like signed integers, those with it set (-0.0 included)
// in reverse like unsigned ones.
__device__ __forceinline__ void atomic_op(MinOp<float>, float *p, float v)
{
    if (__float_as_int(v) >= 0)
        atomicMin(reinterpret_cast<int *>(p), __float_as_int(v));
    else
        atomicMax(reinterpret_cast<unsigned int *>(p), __float_as_uint(v));
}
__device__ __forceinline__ void atomic_op(MaxOp<float>, float *p, float v)
{
    if (__float_as_int(v) >= 0)
        atomicMax(reinterpret_cast<int *>(p), __float_as_int(v));
    else
        atomicMin(reinterpret_cast<unsigned int *>(p), __float_as_uint(v));
}
__device__ __forceinline__ void atomic_op(MinOp<double>, double *p, double v)
{
    if (__double_as_longlong(v) >= 0)
        atomicMin(reinterpret_cast<long long *>(p), __double_as_longlong(v));
    else
        atomicMax(reinterpret_cast<unsigned long long *>(p),
                  static_cast<unsigned long long>(__double_as_longlong(v)));
}
__device__ __forceinline__ void atomic_op(MaxOp<double>, double *p, double v)
{
    if (__double_as_longlong(v) >= 0)
        atomicMax(reinterpret_cast<long long *>(p), __double_as_longlong(v));
    else
        atomicMin(reinterpret_cast<unsigned long long *>(p),
                  static_cast<unsigned long long>(__double_as_longlong(v)));
}
// No hardware multiply: a compare-and-swap loop. Used once per block by the
// atomic finish; the host refuses it per element.
template <class A, class U> __device__ __forceinline__ void atomic_cas_prod(A *p, A v)
{
    U *up = reinterpret_cast<U *>(p);
    U old = *up, assumed;
    do {
        assumed = old;
        A cur;
        memcpy(&cur, &assumed, sizeof cur);
        A next = ProdOp<A>()(cur, v);
        U bits;
        memcpy(&bits, &next, sizeof bits);
        old = atomicCAS(up, assumed, bits);
    } while (old != assumed);
}
__device__ __forceinline__ void atomic_op(ProdOp<int>, int *p, int v)
{
    atomic_cas_prod<int, unsigned int>(p, v);
}
__device__ __forceinline__ void atomic_op(ProdOp<float>, float *p, float v)
{
    atomic_cas_prod<float, unsigned int>(p, v);
}
__device__ __forceinline__ void atomic_op(ProdOp<long long>, long long *p, long long v)
{
    atomic_cas_prod<long long, unsigned long long>(p, v);
}
__device__ __forceinline__ void atomic_op(ProdOp<double>, double *p, double v)
{
    atomic_cas_prod<double, unsigned long long>(p, v);
}

// ---- warp and block reduction with shuffles ------------------------------
template <class A, class Op> __device__ __forceinline__ A warp_reduce(A v)
{
    Op op;
    // rs:key warp_shuffle
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, off));
    // rs:end
    return v;
}

// blockDim.x must be a multiple of 32. The result is valid in thread 0.
template <class A, class Op> __device__ __forceinline__ A block_reduce(A v)
{
    // rs:key block_shuffle
    __shared__ A warp_part[32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = warp_reduce<A, Op>(v);
    if (lane == 0) warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x >> 5) ? warp_part[lane] : Op::identity();
        v = warp_reduce<A, Op>(v);
    }
    // rs:end
    return v;
}

// ---- finish: what a block does with its result --------------------------
template <class A> struct Fin {
    A *out;
    A *partials;
    unsigned int *counter;
    int mode;
};

// Called by every thread of the block; r is valid in thread 0.
template <class A, class Op> __device__ __forceinline__ void finish_block(A r, const Fin<A> &f)
{
    if (f.mode == RS_KFIN_STORE) {
        if (threadIdx.x == 0) f.out[blockIdx.x] = r;
        return;
    }
    if (f.mode == RS_KFIN_ATOMIC) {
        if (threadIdx.x == 0) atomic_op(Op(), f.out, r);
        return;
    }
    // rs:key single_pass
    if (gridDim.x == 1) { // one block: its result is the answer, no ticket to take
        if (threadIdx.x == 0) *f.out = r;
        return;
    }
    __shared__ bool last_block;
    if (threadIdx.x == 0) {
        f.partials[blockIdx.x] = r;
        __threadfence(); // the partial is visible before the ticket is taken
        last_block = atomicAdd(f.counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last_block) return;
    Op op;
    A v = Op::identity();
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
        v = op(v, __ldcg(&f.partials[i]));
    v = block_reduce<A, Op>(v);
    if (threadIdx.x == 0) {
        *f.out = v;
        *f.counter = 0; // ready for the next launch
    }
    // rs:end
}

template <class A> __host__ Fin<A> make_fin(const rs_launch *l)
{
    return Fin<A>{static_cast<A *>(l->out), static_cast<A *>(l->partials), l->counter,
                  static_cast<int>(l->finish)};
}

// Shared memory of the tree kernels: blockDim values, at least 64 so the
// unrolled last warp (which reads s[tid + 32]) stays in bounds at blockDim 32.
template <class A> __host__ size_t tree_smem(unsigned block)
{
    return (block < 64 ? 64 : block) * sizeof(A);
}

template <class A> __device__ __forceinline__ A *shared_array()
{
    extern __shared__ __align__(16) unsigned char rs_smem_raw[];
    return reinterpret_cast<A *>(rs_smem_raw);
}

// ---- loading: one or two elements per thread ----------------------------
template <class T, class A, class Op>
__device__ __forceinline__ A load_one(const T *__restrict__ in, unsigned long long n)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    return i < n ? to_acc<A>(in[i]) : Op::identity();
}

template <class T, class A, class Op>
__device__ __forceinline__ A load_two(const T *__restrict__ in, unsigned long long n)
{
    Op op;
    // rs:key first_add
    const unsigned long long i = (unsigned long long)blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    A v = i < n ? to_acc<A>(in[i]) : Op::identity();
    if (i + blockDim.x < n) v = op(v, to_acc<A>(in[i + blockDim.x]));
    // rs:end
    return v;
}

// ---- dispatch over element type and operation ----------------------------
// F<T, A, Op>::call(const rs_launch *, int *occupancy) launches the kernel when
// occupancy is NULL, otherwise stores the resident blocks per SM.
template <template <class, class, class> class F, class T, class A>
cudaError_t dispatch_op(const rs_launch *l, int *occ)
{
    switch (l->op) {
    case RS_SUM: return F<T, A, SumOp<A>>::call(l, occ);
    case RS_MIN: return F<T, A, MinOp<A>>::call(l, occ);
    case RS_MAX: return F<T, A, MaxOp<A>>::call(l, occ);
    case RS_PROD: return F<T, A, ProdOp<A>>::call(l, occ);
    default: return cudaErrorInvalidValue;
    }
}

template <template <class, class, class> class F> cudaError_t dispatch(const rs_launch *l, int *occ)
{
    switch (l->in_type) {
    case RS_INT32: return dispatch_op<F, int, int>(l, occ);
    case RS_INT64: return dispatch_op<F, long long, long long>(l, occ);
    case RS_FLOAT32: return dispatch_op<F, float, float>(l, occ);
    case RS_FLOAT64: return dispatch_op<F, double, double>(l, occ);
    case RS_FLOAT16: return dispatch_op<F, __half, float>(l, occ);
    case RS_BFLOAT16: return dispatch_op<F, __nv_bfloat16, float>(l, occ);
    default: return cudaErrorInvalidValue;
    }
}

// Launch kernel k with the launch's shape, or report its occupancy.
template <class... P, class... Args>
__host__ cudaError_t go(void (*k)(P...), const rs_launch *l, int *occ, size_t smem, Args... args)
{
    if (occ) return cudaOccupancyMaxActiveBlocksPerMultiprocessor(occ, k, (int)l->block, smem);
    k<<<l->grid, l->block, smem, l->stream>>>(args...);
    return cudaGetLastError();
}

} // namespace rs

// Group entry points (one per .cu file), used by dispatch.cu.
extern "C" cudaError_t rs_group_classic(const rs_launch *l, int *occ);
extern "C" cudaError_t rs_group_unrolled(const rs_launch *l, int *occ);
extern "C" cudaError_t rs_group_modern(const rs_launch *l, int *occ);

#endif
