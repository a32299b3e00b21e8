// redscope kernel template: a correct, simple reduction to start from.
// Copy it, run it, and make it faster:
//
//   cp conf/kernels/template.cu mine.cu
//   redscope run --kernel mine.cu --n 2^24 --metrics
//   redscope ladder --kernel mine.cu          (your kernel after the classic steps)
//   redscope compile mine.cu --type float32   (no GPU needed: errors, registers, spills)
//
// The contract
//   * One extern "C" __global__ function (any name) taking
//       (const RS_T *in, RS_ACC *out, unsigned long long n).
//     It reduces its part of in[0..n) to one value per block.
//   * redscope pre-includes a header that defines, for the type and
//     operation of the run:
//       RS_T          the element type (int, long long, float, double, __half,
//                     __nv_bfloat16)
//       RS_ACC        the accumulator type (float for the half types)
//       RS_IDENTITY   the identity of the operation (0, 1, +inf, INT_MAX, ...)
//       rs_load(x)    an element as an accumulator
//       rs_op(a, b)   the operation (sum, min, max or product)
//       rs_shared     dynamic shared memory: max(blockDim.x, 64) accumulators
//       RS_TYPE_int32 ... RS_OP_sum ...   defined for the run's type and op
//   * Every thread of the block calls rs_block_result(out, v) once, at the
//     end (no thread may return before it); thread 0's v is the block's
//     result. redscope decides where it goes: the request's finish
//     (relaunch: your kernel again on the block results; cpu; atomic;
//     single_pass).
//   * redscope launches it with the request's blockDim. The grid covers n
//     with the elements per thread the header below gives, or, for
//     '// redscope: grid-stride', is the request's --grid (default: one
//     full wave of the GPU) and the kernel must loop over the input.
//
// The header: lines "// redscope: KEY VALUE" anywhere in the file.
//   block pow2 | warp | any | N       the blockDim it accepts (default any)
//   elements-per-thread K | grid-stride   how much each thread covers (1)
//   ops sum,min,max,product           operations it does (default all)
//   types int32,float32,...           element types it takes (default all)
//   finish relaunch|cpu|atomic|single_pass   its default finish (relaunch)
//
// This one: a tree in shared memory with sequential addressing, one element
// per thread.
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
        __syncthreads();
    }
    rs_block_result(out, rs_shared[0]);
}
