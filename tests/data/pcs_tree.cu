// The naive tree of a reduction, compiled to a cubin with -lineinfo at build
// time (tests/CMakeLists.txt): test_sass_lines maps its PCs to these lines.
// Keep the line numbers: the test names them.
extern "C" __global__ void k_tree(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i]                           // line 8: the global load
                           : 0;
    __syncthreads();                                         // line 10
    for (unsigned k = 1; k < blockDim.x; k *= 2) {           // line 11: the loop
        if (threadIdx.x % (2 * k) == 0)                      // line 12: the divergent test
            s[threadIdx.x] += s[threadIdx.x + k];            // line 13: the shared add
        __syncthreads();                                     // line 14
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];            // line 16: the block's result
}
