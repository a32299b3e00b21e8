#include "catalogue.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

#define TREE   (RS_VF_POW2_BLOCK | RS_VF_FINISH)
#define STRIDE (RS_VF_GRID_STRIDE | RS_VF_FINISH)

static const rs_variant_info catalogue[RS_VARIANT_COUNT] = {
    {RS_V_ATOMIC, "atomic", 1, "every thread atomically adds its element into one result",
     "No tree at all: each thread issues one atomic update on a single address. The memory "
     "system serialises the updates, so time grows with n at the rate of one address's atomic "
     "unit, not with DRAM bandwidth (integer adds are combined per warp by the compiler; "
     "floating-point ones are not). In float32 the running sum stops growing near 2^24: a value "
     "below 1 added to 16,777,216 rounds away.",
     "time, atomic throughput", RS_VF_NO_PRODUCT, RS_FINISH_AUTO, 1},
    {RS_V_INTERLEAVED, "interleaved", 2,
     "tree in shared memory, active threads chosen by tid % (2*s)",
     "Each block loads one element per thread into shared memory and halves the values each "
     "step. Thread t works when t is a multiple of 2*s, so the working threads are spread over "
     "every warp: all warps stay busy to the last level, and the modulo costs a long integer "
     "sequence per step.",
     "warp instructions executed", TREE, RS_FINISH_RELAUNCH, 1},
    {RS_V_INTERLEAVED_STRIDED, "interleaved_strided", 3,
     "same tree, contiguous active threads via a strided index",
     "Thread t now works on index 2*s*t, so the working threads are the first ones and whole "
     "warps retire early. But a warp's accesses are 2*s words apart: they land in few of the "
     "32 shared-memory banks and are serialised as bank conflicts.",
     "shared-memory bank conflicts", TREE, RS_FINISH_RELAUNCH, 1},
    {RS_V_SEQUENTIAL, "sequential", 4, "sequential addressing: stride halves, tid < s",
     "The stride starts at half the block and halves: thread t adds s[t + stride] into s[t]. "
     "A warp reads 32 consecutive words, one per bank, so bank conflicts all but vanish.",
     "bank conflicts drop to ~0", TREE, RS_FINISH_RELAUNCH, 1},
    {RS_V_FIRST_ADD, "first_add", 5, "each thread adds two elements while loading",
     "Half the threads of sequential sat idle from the first step. Now each thread adds two "
     "elements on the way in, so half as many blocks read the same bytes with fewer "
     "instructions.",
     "same DRAM bytes, fewer warp instructions", TREE, RS_FINISH_RELAUNCH, 2},
    {RS_V_UNROLL_WARP_VOLATILE, "unroll_warp_volatile", 6,
     "last warp unrolled the original way: volatile, no warp sync",
     "Once 32 or fewer threads work, the loop and its __syncthreads() are dropped and the "
     "last warp is unrolled through a volatile pointer. This relies on a warp running in "
     "lockstep, which Volta and later no longer promise: it is a data race that usually "
     "happens to give the right answer.",
     "fewer barriers", TREE | RS_VF_RACY, RS_FINISH_RELAUNCH, 2},
    {RS_V_UNROLL_WARP, "unroll_warp", 7, "last warp unrolled correctly with __syncwarp",
     "The same unrolled last warp, made correct for independent thread scheduling: each "
     "step reads into a register, synchronises the warp, then writes.",
     "barrier stalls drop", TREE, RS_FINISH_RELAUNCH, 2},
    {RS_V_UNROLLED, "unrolled", 8, "loop fully unrolled, block size a template parameter",
     "With the block size known at compile time every level of the tree is written out and "
     "the branches for sizes that cannot occur are removed: no loop counter, no compare.",
     "fewer instructions", TREE | RS_VF_BLOCK_TEMPLATE, RS_FINISH_RELAUNCH, 2},
    {RS_V_MULTI_ELEMENT, "multi_element", 9, "many elements per thread, grid-stride loop (Brent)",
     "A fixed grid, about one wave of the GPU, walks the input in a grid-stride loop: each "
     "thread sums many elements in a register before the tree. Many loads are in flight per "
     "thread and the tree runs once per block, not once per 512 elements.",
     "DRAM throughput near peak", RS_VF_POW2_BLOCK | STRIDE | RS_VF_BLOCK_TEMPLATE,
     RS_FINISH_RELAUNCH, 0},
    {RS_V_WARP_SHUFFLE, "warp_shuffle", 10,
     "__shfl_down_sync within warps, shared memory only between warps",
     "Inside a warp, values move register to register with shuffles: no shared memory, no "
     "barrier. Shared memory holds only one value per warp.",
     "shared wavefronts drop", RS_VF_WARP_BLOCK | STRIDE, RS_FINISH_RELAUNCH, 0},
    {RS_V_COOPERATIVE_GROUPS, "cooperative_groups", 11, "cg::reduce on 32-thread tiles",
     "The same shuffle tree written with cooperative groups: the block is cut into 32-thread "
     "tiles and cg::reduce does the exchange. Cleaner code, the same instructions.",
     "same as shuffle, cleaner code", RS_VF_WARP_BLOCK | STRIDE, RS_FINISH_RELAUNCH, 0},
    {RS_V_VECTORIZED, "vectorized", 12, "16-byte loads, grid-stride, shuffles, one launch",
     "Each thread loads 16 bytes at a time, several loads in flight, over a grid-stride "
     "loop; warps reduce with shuffles and the last block to finish combines the block "
     "results, so the whole reduction is one launch.",
     "% of peak bandwidth", RS_VF_WARP_BLOCK | STRIDE, RS_FINISH_SINGLE_PASS, 0},
    {RS_V_CUB, "cub", 13, "cub::DeviceReduce", "NVIDIA's tuned library reduction: the one to beat.",
     "the library to beat", RS_VF_LIBRARY, RS_FINISH_AUTO, 0},
    {RS_V_THRUST, "thrust", 14, "thrust::reduce",
     "What most code calls. It runs CUB underneath and also allocates temporary memory and "
     "copies the result back on every call.",
     "what most people call", RS_VF_LIBRARY, RS_FINISH_AUTO, 0},
    {RS_V_CPU, "cpu", 15, "one host thread",
     "One CPU thread in a simple loop: the baseline for the speedup column.",
     "the baseline for speedup vs CPU", RS_VF_HOST, RS_FINISH_AUTO, 0},
    {RS_V_KERNEL, "kernel", 16, "your own kernel, compiled at run time with NVRTC",
     "A .cu file of yours (--kernel FILE.cu): redscope compiles it for this GPU, launches it "
     "with the request's blockDim and grid, finishes the block results as the request says, "
     "and checks, times and profiles it like any step of the ladder.",
     "every counter, against the step before", RS_VF_FINISH | RS_VF_GRID_STRIDE, RS_FINISH_RELAUNCH,
     1},
};

const rs_variant_info *rs_catalogue_get(rs_variant v)
{
    return ((unsigned)v < RS_VARIANT_COUNT) ? &catalogue[v] : NULL;
}

int rs_variant_from_name(const char *s)
{
    for (int v = 0; s && v < RS_VARIANT_COUNT; v++)
        if (strcmp(catalogue[v].name, s) == 0) return v;
    return -1;
}

const char *rs_variant_name(rs_variant v)
{
    const rs_variant_info *vi = rs_catalogue_get(v);
    return vi ? vi->name : "?";
}

rs_finish rs_catalogue_finish(const rs_request *r)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    if (!vi || !(vi->flags & RS_VF_FINISH)) return RS_FINISH_AUTO;
    return r->finish == RS_FINISH_AUTO ? vi->default_finish : r->finish;
}

static rs_status check_block(const rs_variant_info *vi, unsigned b, rs_error *err)
{
    if (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST)) return RS_OK;
    const unsigned lo = RS_BLOCK_MIN, hi = RS_BLOCK_MAX; /* the field table's range */
    if (b < lo || b > hi)
        return rs_fail(err, RS_E_USAGE,
                       "blockDim %u is out of range: CUDA blocks here are %u to %u threads", b, lo,
                       hi);
    if ((vi->flags & RS_VF_POW2_BLOCK) && (b & (b - 1)))
        return rs_fail(err, RS_E_USAGE,
                       "%s needs a power-of-two blockDim (%u..%u): its tree halves the active "
                       "threads each step; %u is not a power of two",
                       vi->name, lo, hi, b);
    if ((vi->flags & RS_VF_WARP_BLOCK) && (b % 32))
        return rs_fail(err, RS_E_USAGE,
                       "%s needs a blockDim that is a multiple of 32: it reduces whole warps "
                       "with shuffles; %u leaves a partial warp",
                       vi->name, b);
    return RS_OK;
}

const char *rs_request_name(const rs_request *r)
{
    if (r->variant != RS_V_KERNEL || !r->kernel[0]) return rs_variant_name(r->variant);
    return rs_path_base(r->kernel);
}

/* What a run over several GPUs cannot do: each GPU's partial must stay on
 * its GPU for the cross-GPU finish, and PC sampling watches one GPU. */
static rs_status check_gpus(const rs_variant_info *vi, const rs_request *r, rs_error *err)
{
    if (r->gpus == 1) return RS_OK;
    if (r->gpus > RS_GPUS_MAX)
        return rs_fail(err, RS_E_USAGE, "--gpus %u: from 1 to %d (0: every GPU)", r->gpus,
                       RS_GPUS_MAX);
    if ((unsigned)r->cross >= RS_CROSS_COUNT)
        return rs_fail(err, RS_E_USAGE, "unknown cross-GPU finish");
    if (vi->id == RS_V_CPU)
        return rs_fail(err, RS_E_USAGE, "cpu runs on the host: --gpus splits a GPU variant");
    if (vi->id == RS_V_KERNEL)
        return rs_fail(err, RS_E_USAGE, "your own kernel runs on one GPU: leave --gpus at 1");
    if (vi->id == RS_V_THRUST || r->finish == RS_FINISH_CPU)
        return rs_fail(err, RS_E_USAGE,
                       "%s ends on the host, and a run over several GPUs combines partials "
                       "left on each GPU: choose %s",
                       vi->id == RS_V_THRUST ? "thrust::reduce" : "finish cpu",
                       vi->id == RS_V_THRUST ? "cub" : "another finish");
    if (r->device != 0)
        return rs_fail(err, RS_E_USAGE, "--gpus N runs on GPUs 0 to N-1: leave --device at 0");
    if (r->stalls)
        return rs_fail(err, RS_E_USAGE, "PC sampling watches one GPU: drop --stalls or --gpus");
    return RS_OK;
}

const char *rs_request_label(const rs_request *r, char *buf, size_t len)
{
    if (r->gpus == 1) {
        snprintf(buf, len, "%s", rs_request_name(r));
        return buf;
    }
    char g[24]; /* "on 2 GPUs", not "x2" (a speedup's sign) */
    snprintf(g, sizeof g, r->gpus ? "on %u GPUs" : "on every GPU", r->gpus);
    snprintf(buf, len, "%s %s, %s", rs_request_name(r), g, rs_cross_name(r->cross));
    return buf;
}

int rs_request_same_spread(const rs_request *a, const rs_request *b)
{
    return a->gpus == b->gpus && (a->gpus == 1 || a->cross == b->cross);
}

rs_status rs_catalogue_check(const rs_request *r, rs_error *err)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    if (!vi) return rs_fail(err, RS_E_USAGE, "unknown variant");
    if (r->variant == RS_V_KERNEL && !r->kernel[0])
        return rs_fail(err, RS_E_USAGE,
                       "the kernel variant runs your own .cu file: give it with --kernel FILE.cu "
                       "(start from conf/kernels/template.cu)");
    if ((unsigned)r->type >= RS_DTYPE_COUNT || (unsigned)r->op >= RS_OP_COUNT)
        return rs_fail(err, RS_E_USAGE, "unknown type or operation");
    if (r->n < 1 || r->n > RS_N_MAX) return rs_fail(err, RS_E_USAGE, "n must be from 1 to 2^40");
    if ((vi->flags & RS_VF_NO_PRODUCT) && r->op == RS_PROD)
        return rs_fail(err, RS_E_USAGE,
                       "%s cannot do product: GPUs have no atomic multiply, and a "
                       "compare-and-swap loop per element would serialise all n updates with "
                       "retries (use finish=atomic on a tree variant: one update per block)",
                       vi->name);
    rs_status st = check_block(vi, r->block, err);
    if (st != RS_OK) return st;
    if (!(vi->flags & RS_VF_GRID_STRIDE) && (r->grid || r->ept))
        return rs_fail(err, RS_E_USAGE,
                       "%s takes no --grid or --ept: %s; they apply to multi_element, "
                       "warp_shuffle, cooperative_groups and vectorized",
                       vi->name,
                       vi->flags & RS_VF_LIBRARY   ? "the library picks its own launch"
                       : vi->flags & RS_VF_HOST    ? "it runs on the CPU"
                       : vi->elems_per_thread == 2 ? "each thread loads exactly two elements"
                                                   : "each thread loads exactly one element");
    if (r->grid && r->ept)
        return rs_fail(err, RS_E_USAGE,
                       "give --grid or --ept, not both: each one decides the other");
    if (!(vi->flags & RS_VF_FINISH) && r->finish != RS_FINISH_AUTO)
        return rs_fail(err, RS_E_USAGE, "%s has no finish step to choose: %s", vi->name,
                       vi->id == RS_V_ATOMIC    ? "every thread already updates the one result"
                       : vi->flags & RS_VF_HOST ? "it runs on the CPU"
                                                : "the library finishes the reduction itself");
    return check_gpus(vi, r, err);
}

void rs_request_for_variant(const rs_request *base, rs_variant v, rs_request *out)
{
    *out = *base;
    out->variant = v;
    const rs_variant_info *vi = rs_catalogue_get(v);
    if (!(vi->flags & RS_VF_GRID_STRIDE)) out->grid = out->ept = 0;
    if (!(vi->flags & RS_VF_FINISH)) out->finish = RS_FINISH_AUTO;
    if (v != RS_V_KERNEL) out->kernel[0] = '\0'; /* the file belongs to the kernel's row */
}

int rs_request_same_run(const rs_request *a, const rs_request *b)
{
    rs_request x, y;
    rs_request_for_variant(a, a->variant, &x);
    rs_request_for_variant(b, b->variant, &y);
    return x.variant == y.variant && x.type == y.type && x.op == y.op && x.n == y.n &&
           (x.block == y.block ||
            (rs_catalogue_get(x.variant)->flags & (RS_VF_LIBRARY | RS_VF_HOST))) &&
           rs_catalogue_finish(&x) == rs_catalogue_finish(&y) && x.grid == y.grid &&
           x.ept == y.ept && x.dist == y.dist && x.gpus == y.gpus &&
           (x.gpus == 1 || x.cross == y.cross) &&
           (x.variant != RS_V_KERNEL || strcmp(x.kernel, y.kernel) == 0);
}
