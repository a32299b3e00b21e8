// The libraries: CUB's DeviceReduce and thrust::reduce, with the same
// operations and accumulator types as the hand-written kernels.
#include <climits>
#include <new>

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/system/system_error.h>
#include <thrust/transform_reduce.h>

#include "common.cuh"

namespace rs
{

template <class T, class A> struct ToAcc {
    __host__ __device__ A operator()(const T &x) const
    {
#ifdef __CUDA_ARCH__
        return to_acc<A>(x);
#else
        return A(); // never called on the host
#endif
    }
};

template <class T, class A, class Op>
cudaError_t cub_typed(const void *in, unsigned long long n, void *out, void *temp, size_t *bytes,
                      cudaStream_t st)
{
    const T *d_in = static_cast<const T *>(in);
    A *d_out = static_cast<A *>(out);
    // rs:key cub
    // 32-bit offsets while they suffice, as CUB's own users would pass.
    if (n <= (unsigned long long)INT_MAX)
        return cub::DeviceReduce::TransformReduce(temp, *bytes, d_in, d_out, (int)n, Op(),
                                                  ToAcc<T, A>(), Op::identity(), st);
    return cub::DeviceReduce::TransformReduce(temp, *bytes, d_in, d_out, (long long)n, Op(),
                                              ToAcc<T, A>(), Op::identity(), st);
    // rs:end
}

template <class T, class A, class Op>
cudaError_t thrust_typed(const void *in, unsigned long long n, void *host_result, cudaStream_t st)
{
    const T *d_in = static_cast<const T *>(in);
    try {
        // rs:key thrust
        A r = thrust::transform_reduce(thrust::cuda::par.on(st), d_in, d_in + n, ToAcc<T, A>(),
                                       Op::identity(), Op());
        // rs:end
        memcpy(host_result, &r, sizeof r);
        return cudaSuccess;
    } catch (const thrust::system_error &e) {
        return static_cast<cudaError_t>(e.code().value());
    } catch (const std::bad_alloc &) {
        return cudaErrorMemoryAllocation;
    } catch (...) {
        return cudaErrorUnknown;
    }
}

struct CubArgs {
    const void *in;
    unsigned long long n;
    void *out;
    void *temp;
    size_t *bytes;
    void *host_result;
    cudaStream_t stream;
};

template <class T, class A> cudaError_t lib_by_op(bool use_cub, rs_op op, const CubArgs &a)
{
    switch (op) {
    case RS_SUM:
        return use_cub ? cub_typed<T, A, SumOp<A>>(a.in, a.n, a.out, a.temp, a.bytes, a.stream)
                       : thrust_typed<T, A, SumOp<A>>(a.in, a.n, a.host_result, a.stream);
    case RS_MIN:
        return use_cub ? cub_typed<T, A, MinOp<A>>(a.in, a.n, a.out, a.temp, a.bytes, a.stream)
                       : thrust_typed<T, A, MinOp<A>>(a.in, a.n, a.host_result, a.stream);
    case RS_MAX:
        return use_cub ? cub_typed<T, A, MaxOp<A>>(a.in, a.n, a.out, a.temp, a.bytes, a.stream)
                       : thrust_typed<T, A, MaxOp<A>>(a.in, a.n, a.host_result, a.stream);
    case RS_PROD:
        return use_cub ? cub_typed<T, A, ProdOp<A>>(a.in, a.n, a.out, a.temp, a.bytes, a.stream)
                       : thrust_typed<T, A, ProdOp<A>>(a.in, a.n, a.host_result, a.stream);
    default: return cudaErrorInvalidValue;
    }
}

static cudaError_t lib_dispatch(bool use_cub, rs_dtype t, rs_op op, const CubArgs &a)
{
    switch (t) {
    case RS_INT32: return lib_by_op<int, int>(use_cub, op, a);
    case RS_INT64: return lib_by_op<long long, long long>(use_cub, op, a);
    case RS_FLOAT32: return lib_by_op<float, float>(use_cub, op, a);
    case RS_FLOAT64: return lib_by_op<double, double>(use_cub, op, a);
    case RS_FLOAT16: return lib_by_op<__half, float>(use_cub, op, a);
    case RS_BFLOAT16: return lib_by_op<__nv_bfloat16, float>(use_cub, op, a);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace rs

extern "C" cudaError_t rs_cub_temp_bytes(rs_dtype t, rs_op op, unsigned long long n, size_t *bytes)
{
    *bytes = 0;
    const rs::CubArgs a = {NULL, n, NULL, NULL, bytes, NULL, 0};
    return rs::lib_dispatch(true, t, op, a);
}

extern "C" cudaError_t rs_cub_reduce(rs_dtype t, rs_op op, const void *in, unsigned long long n,
                                     void *out, void *temp, size_t temp_bytes, cudaStream_t st)
{
    if (!temp) return cudaErrorInvalidValue; /* a NULL temp would only query the size */
    const rs::CubArgs a = {in, n, out, temp, &temp_bytes, NULL, st};
    return rs::lib_dispatch(true, t, op, a);
}

extern "C" cudaError_t rs_thrust_reduce(rs_dtype t, rs_op op, const void *in, unsigned long long n,
                                        void *host_result, cudaStream_t st)
{
    size_t unused = 0;
    const rs::CubArgs a = {in, n, NULL, NULL, &unused, host_result, st};
    return rs::lib_dispatch(false, t, op, a);
}
