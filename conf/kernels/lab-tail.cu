// Lab: this kernel is right for some inputs and WRONG for others. It
// teaches how the edges of the input are handled: which elements does each
// block cover, and does every element of in[0..n) count exactly once?
// Hints: try --input ones and a small n such as 1000 or 1; compare sum
// with max.
// redscope: block pow2
// redscope: elements-per-thread 2

extern "C" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    const unsigned tid = threadIdx.x;
    const unsigned long long last = n - 1; // index of the last element
    const unsigned long long i = (unsigned long long)blockIdx.x * (2 * blockDim.x) + tid;
    RS_ACC v = i < last ? rs_load(in[i]) : RS_IDENTITY;
    if (i + blockDim.x < last) v = rs_op(v, rs_load(in[i + blockDim.x]));
    rs_shared[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) rs_shared[tid] = rs_op(rs_shared[tid], rs_shared[tid + s]);
        __syncthreads();
    }
    rs_block_result(out, rs_shared[0]);
}
