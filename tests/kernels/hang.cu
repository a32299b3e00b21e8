// Never ends: redscope's --timeout must stop it (test_gpu_kernels.py).
// redscope: elements-per-thread 1
extern "C" __global__ void reduce_forever(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    volatile unsigned long long k = n;
    while (k != 0) k = k | 1ull;
    rs_block_result(out, RS_IDENTITY);
}
