// A kernel that faults: it stores far outside any buffer, an illegal
// address. What a fault looks like in redscope: exit status 8, the
// kernel's name and the CUDA error in one line, and the next run starts with
// a fresh GPU context; `redscope run --kernel conf/kernels/fault.cu --check memory`
// names the line. (Recorded on an H100 in conf/recordings/h100-kernels.jsonl.)
// redscope: elements-per-thread 1
extern "C" __global__ void reduce_oob(const RS_T *in, RS_ACC *out, unsigned long long n)
{
    out[(1ull << 40) + blockIdx.x] = RS_IDENTITY;
    rs_block_result(out, RS_IDENTITY);
}
