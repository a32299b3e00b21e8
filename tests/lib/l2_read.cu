// An independent measure of the L2's read bandwidth for test_gpu_cache.py:
// a plain float4 grid-stride sum (one load per iteration, not redscope's
// four), over a quarter, a half and three quarters of the L2, 50 launches
// back to back timed as one span (no launch gap, no flush: the buffer
// stays in the L2), the best GB/s printed. Not redscope's method on
// purpose: the two should agree within the test's 15%.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sum_read(const float4 *__restrict__ p, size_t n, float *out)
{
    float s = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const float4 v = p[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 1.2345f) *out = s; // keeps the loads
}

int main()
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.l2CacheSize <= 0) {
        std::printf("no device\n");
        return 2;
    }
    const size_t l2 = (size_t)prop.l2CacheSize;
    float4 *buf = nullptr;
    float *out = nullptr;
    if (cudaMalloc(&buf, l2) != cudaSuccess || cudaMalloc(&out, sizeof *out) != cudaSuccess) return 3;
    cudaMemset(buf, 0, l2);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    double best = 0.0;
    for (int quarter = 1; quarter <= 3; quarter++) {
        const size_t bytes = l2 / 4 * quarter / 4096 * 4096, n = bytes / sizeof(float4);
        for (int blocks = 2; blocks <= 8; blocks *= 2) {
            const int grid = prop.multiProcessorCount * blocks, block = 2048 / blocks;
            for (int k = 0; k < 5; k++) sum_read<<<grid, block>>>(buf, n, out);
            cudaEventRecord(a);
            for (int k = 0; k < 50; k++) sum_read<<<grid, block>>>(buf, n, out);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, a, b);
            const double gbps = 50.0 * bytes / (ms * 1e-3) / 1e9;
            std::printf("%zu bytes, %d x %d: %.0f GB/s\n", bytes, grid, block, gbps);
            if (gbps > best) best = gbps;
        }
    }
    std::printf("best %.0f\n", best);
    return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
