// Stores far outside any buffer: an illegal address (test_gpu_kernels.py).
// redscope: elements-per-thread 1
extern "C" __global__ void reduce_oob(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    out[(1ull << 40) + blockIdx.x] = RS_IDENTITY;
    rs_block_result(out, RS_IDENTITY);
}
