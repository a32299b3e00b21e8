// Reductions over several GPUs: each GPU's input made and checked on the
// device. value(seed, gpu, i) is a small integer (-3..3; for a product
// -1, 1 or 2), so every sum, minimum, maximum and product over up to 64
// GPUs' values (products up to 8) is exact in all six element types, and a
// result is checked without copying gigabytes back to the host.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "common.cuh"
#include "rs_kernels.h"

namespace
{
__device__ __forceinline__ int value(unsigned long long seed, int gpu, unsigned long long i, int op)
{
    unsigned long long z = seed ^ (0x9E3779B97F4A7C15ull * (unsigned long long)(gpu + 1)) ^
                           (0xD1B54A32D192ED03ull * (i + 1));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    if (op == RS_PROD) {
        const int k = (int)(z % 3ull);
        return k == 0 ? -1 : k == 1 ? 1 : 2;
    }
    return (int)(z % 7ull) - 3;
}

__device__ __forceinline__ int combine(int op, int a, int b)
{
    return op == RS_SUM ? a + b : op == RS_MIN ? min(a, b) : op == RS_MAX ? max(a, b) : a * b;
}

template <class T> __device__ __forceinline__ T from_int(int v)
{
    return (T)v;
}
template <> __device__ __forceinline__ __half from_int<__half>(int v)
{
    return __int2half_rn(v);
}
template <> __device__ __forceinline__ __nv_bfloat16 from_int<__nv_bfloat16>(int v)
{
    return __int2bfloat16_rn(v);
}
template <class T> __device__ __forceinline__ double to_double(T v)
{
    return (double)v;
}
template <> __device__ __forceinline__ double to_double<__half>(__half v)
{
    return (double)__half2float(v);
}
template <> __device__ __forceinline__ double to_double<__nv_bfloat16>(__nv_bfloat16 v)
{
    return (double)__bfloat162float(v);
}

template <class T>
__global__ void k_fill(T *buf, unsigned long long n, unsigned long long seed, int gpu, int op)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        buf[i] = from_int<T>(value(seed, gpu, i, op));
}

template <class T>
__global__ void k_check(const T *buf, unsigned long long n, unsigned long long seed, int gpus,
                        int op, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        int want = value(seed, 0, i, op);
        for (int g = 1; g < gpus; g++) want = combine(op, want, value(seed, g, i, op));
        mine += to_double(buf[i]) != (double)want;
    }
    if (mine) atomicAdd(bad, mine);
}

template <class T> __global__ void k_combine(T *dst, const T *src, unsigned long long n, int op)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const double a = to_double(dst[i]), b = to_double(src[i]);
        const double r = op == RS_SUM   ? a + b
                         : op == RS_MIN ? fmin(a, b)
                         : op == RS_MAX ? fmax(a, b)
                                        : a * b;
        dst[i] = from_int<T>((int)r); /* the values stay small integers */
    }
}

unsigned grid_for(unsigned long long n)
{
    const unsigned long long blocks = (n + 255) / 256;
    return blocks < 1 ? 1u : blocks > 4096 ? 4096u : (unsigned)blocks;
}

template <class F> cudaError_t by_type(rs_dtype t, F f)
{
    switch (t) {
    case RS_INT32: return f((int *)nullptr);
    case RS_INT64: return f((long long *)nullptr);
    case RS_FLOAT32: return f((float *)nullptr);
    case RS_FLOAT64: return f((double *)nullptr);
    case RS_FLOAT16: return f((__half *)nullptr);
    case RS_BFLOAT16: return f((__nv_bfloat16 *)nullptr);
    default: return cudaErrorInvalidValue;
    }
}
} // namespace

extern "C" cudaError_t rs_multi_fill(rs_dtype t, rs_op op, void *buf, unsigned long long n,
                                     unsigned long long seed, int gpu, cudaStream_t s)
{
    if (!n) return cudaSuccess;
    return by_type(t, [&](auto *tag) {
        using T = typename std::remove_pointer<decltype(tag)>::type;
        k_fill<T><<<grid_for(n), 256, 0, s>>>((T *)buf, n, seed, gpu, (int)op);
        return cudaGetLastError();
    });
}

extern "C" cudaError_t rs_multi_check(rs_dtype t, rs_op op, const void *buf, unsigned long long n,
                                      unsigned long long seed, int gpus, unsigned long long *bad,
                                      cudaStream_t s)
{
    if (!n) return cudaSuccess;
    return by_type(t, [&](auto *tag) {
        using T = typename std::remove_pointer<decltype(tag)>::type;
        k_check<T><<<grid_for(n), 256, 0, s>>>((const T *)buf, n, seed, gpus, (int)op, bad);
        return cudaGetLastError();
    });
}

extern "C" cudaError_t rs_multi_combine(rs_dtype t, rs_op op, void *dst, const void *src,
                                        unsigned long long n, cudaStream_t s)
{
    if (!n) return cudaSuccess;
    return by_type(t, [&](auto *tag) {
        using T = typename std::remove_pointer<decltype(tag)>::type;
        k_combine<T><<<grid_for(n), 256, 0, s>>>((T *)dst, (const T *)src, n, (int)op);
        return cudaGetLastError();
    });
}

namespace
{
/* One partial into another, in the accumulator type itself: sums and
 * products wrap as the reductions do, floats keep every bit. */
template <class A, class Op> __global__ void k_partial(A *dst, const A *src)
{
    dst[0] = Op()(dst[0], src[0]);
}

template <class A> cudaError_t partial(rs_op op, void *dst, const void *src, cudaStream_t s)
{
    A *d = static_cast<A *>(dst);
    const A *v = static_cast<const A *>(src);
    switch (op) {
    case RS_SUM: k_partial<A, rs::SumOp<A>><<<1, 1, 0, s>>>(d, v); break;
    case RS_MIN: k_partial<A, rs::MinOp<A>><<<1, 1, 0, s>>>(d, v); break;
    case RS_MAX: k_partial<A, rs::MaxOp<A>><<<1, 1, 0, s>>>(d, v); break;
    case RS_PROD: k_partial<A, rs::ProdOp<A>><<<1, 1, 0, s>>>(d, v); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
} // namespace

extern "C" cudaError_t rs_partial_combine(rs_dtype acc, rs_op op, void *dst, const void *src,
                                          cudaStream_t s)
{
    switch (acc) {
    case RS_INT32: return partial<int>(op, dst, src, s);
    case RS_INT64: return partial<long long>(op, dst, src, s);
    case RS_FLOAT32: return partial<float>(op, dst, src, s);
    case RS_FLOAT64: return partial<double>(op, dst, src, s);
    default: return cudaErrorInvalidValue; /* partials are in an accumulator type */
    }
}
