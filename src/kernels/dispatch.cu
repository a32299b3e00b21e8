// The C entry points: route a launch to the file that holds its kernel.
#include "common.cuh"

static cudaError_t route(const rs_launch *l, int *occ)
{
    if (!l || l->block == 0 || (!occ && l->grid == 0)) return cudaErrorInvalidValue;
    switch (l->variant) {
    case RS_V_ATOMIC:
    case RS_V_INTERLEAVED:
    case RS_V_INTERLEAVED_STRIDED:
    case RS_V_SEQUENTIAL:
    case RS_V_FIRST_ADD:
    case RS_V_UNROLL_WARP_VOLATILE:
    case RS_V_UNROLL_WARP: return rs_group_classic(l, occ);
    case RS_V_UNROLLED:
    case RS_V_MULTI_ELEMENT: return rs_group_unrolled(l, occ);
    case RS_V_WARP_SHUFFLE:
    case RS_V_COOPERATIVE_GROUPS:
    case RS_V_VECTORIZED: return rs_group_modern(l, occ);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t rs_kernel_launch(const rs_launch *l)
{
    return route(l, NULL);
}

extern "C" cudaError_t rs_kernel_max_blocks_per_sm(const rs_launch *l, int *blocks)
{
    if (!blocks) return cudaErrorInvalidValue;
    return route(l, blocks);
}

extern "C" const char *rs_kernel_name(rs_variant v)
{
    static const char *const names[RS_VARIANT_COUNT] = {
        "k_atomic",          "k_interleaved",        "k_interleaved_strided",
        "k_sequential",      "k_first_add",          "k_unroll_warp_volatile",
        "k_unroll_warp",     "k_unrolled",           "k_multi_element",
        "k_warp_shuffle",    "k_cooperative_groups", "k_vectorized",
        "cub::DeviceReduce", "thrust::reduce",       "cpu",
        "user kernel"};
    return ((unsigned)v < RS_VARIANT_COUNT) ? names[v] : "?";
}

extern "C" int rs_vectorized_one_block(unsigned long long n, unsigned per_vec, unsigned grid,
                                       unsigned block)
{
    /* the head and the tail (under one vector each) take one element per thread */
    return grid == 1 && per_vec > 0 && block >= 32 && n / per_vec <= 4ull * block &&
           n <= 0xffffffffull;
}
