// A ";" missing at the end of line 6: NVRTC names line 7 (test_kernels.py).
extern "C" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    RS_ACC v = i < n ? rs_load(in[i]) : RS_IDENTITY;
    rs_shared[threadIdx.x] = v
    rs_block_result(out, v);
}
