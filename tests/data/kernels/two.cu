// Two entry points.
extern "C" __global__ void a(const RS_T *in, RS_ACC *out, unsigned long long n) { rs_block_result(out, RS_IDENTITY); }
extern "C" __global__ void b(const RS_T *in, RS_ACC *out, unsigned long long n) { rs_block_result(out, RS_IDENTITY); }
