/* The kernels' only face: C functions returning cudaError_t.
 *
 * Templates, launch switches and instantiations stay inside the .cu files.
 * Nothing here calls back into the host code or exits.
 */
#ifndef RS_KERNELS_H
#define RS_KERNELS_H

#include <cuda_runtime_api.h>

#include "../core/rs_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a launch does with each block's result. */
typedef enum {
    RS_KFIN_STORE,  /* out[blockIdx.x] = block result */
    RS_KFIN_ATOMIC, /* atomically combine into out[0] (initialised with rs_kernel_init_result) */
    RS_KFIN_SINGLE_PASS /* partials[blockIdx.x]; the last block reduces them into out[0] */
} rs_kfinish;

typedef struct rs_launch {
    rs_variant variant; /* a GPU kernel variant: atomic .. vectorized */
    rs_dtype in_type;   /* element type of `in`; passes after the first read the accumulator type */
    rs_op op;
    const void *in;
    unsigned long long n;
    void *out;             /* accumulator type */
    void *partials;        /* RS_KFIN_SINGLE_PASS: one accumulator per block */
    unsigned int *counter; /* RS_KFIN_SINGLE_PASS: zero before the first launch; left zero */
    unsigned int grid;
    unsigned int block;
    rs_kfinish finish;
    cudaStream_t stream;
} rs_launch;

/* One launch of a variant's kernel. */
cudaError_t rs_kernel_launch(const rs_launch *l);

/* Resident blocks per SM for this launch's kernel and block size. */
cudaError_t rs_kernel_max_blocks_per_sm(const rs_launch *l, int *blocks);

/* Name of the kernel function a launch runs (for the profiler's per-launch rows). */
const char *rs_kernel_name(rs_variant v);

/* Whether vectorized runs its small-n kernel (k_vectorized_one): a grid of one
 * block whose n fits four 16-byte vectors (of per_vec elements) per thread. */
int rs_vectorized_one_block(unsigned long long n, unsigned per_vec, unsigned grid, unsigned block);

/* out[0] = the identity of op in accumulator type acc (0, 1, +inf, -inf, ...). */
cudaError_t rs_kernel_init_result(rs_dtype acc, rs_op op, void *out, cudaStream_t stream);

/* Several GPUs (multi.cu): GPU `gpu`'s input of n small integers from the
 * seed (their op-reduction over up to 64 GPUs is exact in every type); the
 * count of elements of buf that differ from that reduction over `gpus`
 * GPUs added to *bad (device memory); dst = op(dst, src) element-wise. */
cudaError_t rs_multi_fill(rs_dtype t, rs_op op, void *buf, unsigned long long n,
                          unsigned long long seed, int gpu, cudaStream_t s);
cudaError_t rs_multi_check(rs_dtype t, rs_op op, const void *buf, unsigned long long n,
                           unsigned long long seed, int gpus, unsigned long long *bad,
                           cudaStream_t s);
cudaError_t rs_multi_combine(rs_dtype t, rs_op op, void *dst, const void *src, unsigned long long n,
                             cudaStream_t s);
/* A run over several GPUs: dst[0] = op(dst[0], src[0]), one partial into
 * another in accumulator type acc (int32, int64, float32, float64). */
cudaError_t rs_partial_combine(rs_dtype acc, rs_op op, void *dst, const void *src, cudaStream_t s);

/* CUB: temporary storage size, then the reduction into out (accumulator type). */
cudaError_t rs_cub_temp_bytes(rs_dtype t, rs_op op, unsigned long long n, size_t *bytes);
cudaError_t rs_cub_reduce(rs_dtype t, rs_op op, const void *in, unsigned long long n, void *out,
                          void *temp, size_t temp_bytes, cudaStream_t stream);

/* thrust::reduce; the result (accumulator type) arrives in host memory. */
cudaError_t rs_thrust_reduce(rs_dtype t, rs_op op, const void *in, unsigned long long n,
                             void *host_result, cudaStream_t stream);

/* Read `bytes` of buf as fast as the GPU can (16-byte loads, grid-stride);
 * the sum lands in *sink so the reads cannot be optimised away. */
cudaError_t rs_stream_read(const void *buf, size_t bytes, unsigned int grid, unsigned int block,
                           unsigned long long *sink, cudaStream_t stream);

/* An empty kernel: what event timing measures around nothing. */
cudaError_t rs_kernel_empty(cudaStream_t stream);

/* Test-only: a kernel that stores through a null pointer (an illegal
 * address, a sticky error), launched when REDSCOPE_TEST_FAULT asks for it. */
cudaError_t rs_kernel_fault(cudaStream_t stream);

/* Key lines of a variant's kernel, extracted from the .cu source at build
 * time between "rs:key" markers; "" when the variant has none. */
/* rs_kernel_snippet: see core/snippets.h */

#ifdef __cplusplus
}
#endif

#endif
