// Lab: this kernel compiles and often looks fine on small inputs, yet
// redscope reports a WRONG result at larger n. It teaches what a barrier
// promises and what it does not: find out which threads read a value
// before another thread has written it, and fix it.
// Hints: run it at several n and blockDims; `redscope run --kernel
// conf/kernels/lab-barrier.cu --check race` asks compute-sanitizer.
// redscope: block pow2
// redscope: elements-per-thread 1

extern "C" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    const unsigned tid = threadIdx.x;
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + tid;
    rs_shared[tid] = i < n ? rs_load(in[i]) : RS_IDENTITY;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) rs_shared[tid] = rs_op(rs_shared[tid], rs_shared[tid + s]);
    }
    __syncthreads();
    rs_block_result(out, rs_shared[0]);
}
