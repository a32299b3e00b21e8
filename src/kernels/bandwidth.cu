// A streaming read of a large buffer: the bandwidth a reduction could reach.
#include "common.cuh"

__global__ void k_stream_read(const uint4 *__restrict__ p, size_t nvec, unsigned long long *sink)
{
    const size_t nthreads = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int x = 0;
    for (; i + 3 * nthreads < nvec; i += 4 * nthreads) {
        const uint4 a = __ldg(p + i), b = __ldg(p + i + nthreads);
        const uint4 c = __ldg(p + i + 2 * nthreads), d = __ldg(p + i + 3 * nthreads);
        x ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
        x ^= c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < nvec; i += nthreads) {
        const uint4 a = __ldg(p + i);
        x ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (x == 0x9e3779b9u) atomicAdd(sink, 1ull); // keeps the loads alive
}

extern "C" cudaError_t rs_stream_read(const void *buf, size_t bytes, unsigned int grid,
                                      unsigned int block, unsigned long long *sink,
                                      cudaStream_t stream)
{
    if (!buf || !sink || grid == 0 || block == 0) return cudaErrorInvalidValue;
    k_stream_read<<<grid, block, 0, stream>>>(static_cast<const uint4 *>(buf), bytes / 16, sink);
    return cudaGetLastError();
}

__global__ void k_empty() {}

extern "C" cudaError_t rs_kernel_empty(cudaStream_t stream)
{
    k_empty<<<1, 32, 0, stream>>>();
    return cudaGetLastError();
}

// Test-only (REDSCOPE_TEST_FAULT, see docs/architecture.md): a store through
// a null pointer, an illegal address that spoils the context the way a
// broken kernel would.
__global__ void k_fault(int *p)
{
    if (threadIdx.x == 0) p[blockIdx.x] = 1;
}

extern "C" cudaError_t rs_kernel_fault(cudaStream_t stream)
{
    k_fault<<<1, 32, 0, stream>>>(nullptr);
    return cudaGetLastError();
}
