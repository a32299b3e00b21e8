// A correct and fast reduction: what the last steps of the ladder teach,
// in one file. A grid of about one wave walks the input in a grid-stride
// loop with four independent accumulators (four loads in flight per
// thread), warps reduce with shuffles, and shared memory holds one value
// per warp. Compare it with the ladder: redscope ladder --kernel conf/kernels/fast.cu
// redscope: block warp
// redscope: grid-stride

static __device__ __forceinline__ RS_ACC warp_reduce(RS_ACC v)
{
    for (int off = 16; off > 0; off >>= 1) v = rs_op(v, __shfl_down_sync(0xffffffffu, v, off));
    return v;
}

extern "C" __global__ void reduce_fast(const RS_T *__restrict__ in, RS_ACC *out,
                                       unsigned long long n)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    RS_ACC a = RS_IDENTITY, b = RS_IDENTITY, c = RS_IDENTITY, d = RS_IDENTITY;
    for (; i + 3 * stride < n; i += 4 * stride) {
        a = rs_op(a, rs_load(in[i]));
        b = rs_op(b, rs_load(in[i + stride]));
        c = rs_op(c, rs_load(in[i + 2 * stride]));
        d = rs_op(d, rs_load(in[i + 3 * stride]));
    }
    for (; i < n; i += stride) a = rs_op(a, rs_load(in[i]));
    RS_ACC v = warp_reduce(rs_op(rs_op(a, b), rs_op(c, d)));
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) rs_shared[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_reduce(lane < blockDim.x / 32 ? rs_shared[lane] : RS_IDENTITY);
    rs_block_result(out, v);
}
