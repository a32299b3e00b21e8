// Never ends: redscope's --timeout must stop it (test_gpu_kernels.py). The
// clock never goes negative, but the compiler cannot know that.
// redscope: elements-per-thread 1
extern "C" __global__ void reduce_forever(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    while (clock64() >= 0) {
    }
    rs_block_result(out, RS_IDENTITY);
}
