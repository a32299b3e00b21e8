// A header directive redscope does not know (line 3).
// redscope: block pow2
// redscope: blocksize 256
extern "C" __global__ void reduce(const RS_T *in, RS_ACC *out, unsigned long long n) { rs_block_result(out, RS_IDENTITY); }
