// The naive tree of a reduction, compiled to a cubin with -lineinfo at build
// time (tests/CMakeLists.txt): test_sass_lines maps its PCs to these lines,
// found by their "@" markers.
extern "C" __global__ void k_tree(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] // @load: the global load
                           : 0;    // @nocode
    __syncthreads();               // @sync
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (threadIdx.x % (2 * k) == 0)
            s[threadIdx.x] += s[threadIdx.x + k]; // @add: the shared add
        __syncthreads();                          // @sync2
    }                                             // @brace
    if (threadIdx.x == 0) out[blockIdx.x] = s[0]; // @store: the block's result
} // @end
