// The C entry points: route a launch to the file that holds its kernel.
#include "common.cuh"

/* Each variant's group (which file's launch switch runs it) and kernel
 * function, from the one list of variants. */
static const rs_kernel_group groups[RS_VARIANT_COUNT] = {
#define RS_X_GROUP(id, name, group, ...) group,
    RS_VARIANTS(RS_X_GROUP)
#undef RS_X_GROUP
};

static cudaError_t route(const rs_launch *l, int *occ)
{
    if (!l || l->block == 0 || (!occ && l->grid == 0)) return cudaErrorInvalidValue;
    if ((unsigned)l->variant >= RS_VARIANT_COUNT) return cudaErrorInvalidValue;
    switch (groups[l->variant]) {
    case RS_KG_CLASSIC: return rs_group_classic(l, occ);
    case RS_KG_UNROLLED: return rs_group_unrolled(l, occ);
    case RS_KG_MODERN: return rs_group_modern(l, occ);
    default: return cudaErrorInvalidValue; /* a library, the host or NVRTC: not launched here */
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
#define RS_X_KERNEL(id, name, group, kernel, ...) kernel,
        RS_VARIANTS(RS_X_KERNEL)
#undef RS_X_KERNEL
    };
    return ((unsigned)v < RS_VARIANT_COUNT) ? names[v] : "?";
}

extern "C" int rs_vectorized_one_block(unsigned long long n, unsigned per_vec, unsigned grid,
                                       unsigned block)
{
    /* the head and the tail (under one vector each) take one element per thread */
    return grid == 1 && per_vec > 0 && block >= 32 && n / per_vec <= 4ull * block &&
           n <= 0xffffffffull;
}
