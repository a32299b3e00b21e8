// Inlined helpers two deep and cooperative groups' reduce, compiled to a
// cubin with -lineinfo at build time (tests/CMakeLists.txt):
// test_line_table checks each PC's inline chain against the "@" markers.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

namespace demo
{
template <class T> struct Plus {
    __device__ __forceinline__ T operator()(T a, T b) const
    {
        return a + b * 3; // @plus
    }
};

__device__ __forceinline__ float scaled(const float *x, int i)
{
    return Plus<float>()(x[i], x[i + 1]); // @scaled
}
} // namespace demo

extern "C" __global__ void k_chain(const float *x, float *y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = demo::scaled(x, i); // @call
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    v = cg::reduce(warp, v, cg::plus<float>()); // @reduce
    if (warp.thread_rank() == 0) y[i / 32] = v;
} // @end
