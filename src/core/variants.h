/* The ladder's variants: one row each, in ladder order.
 *
 * RS_VARIANTS is the only list of variants. The enum (rs_types.h), the
 * catalogue (catalogue.c), the kernel dispatcher's routes and names
 * (kernels/dispatch.cu) and the key lines shown for each step
 * (tools/extract_snippets.c) are generated from it; a step's number is its
 * place in the list. A new variant is its kernel, one row here, and its
 * story (analysis/stories.c, lecture/why.c).
 *
 * X(ID, name, group, kernel function, key-line markers, flags, default
 *   finish, elements per thread of the first pass (0: grid-stride),
 *   elements per grid-stride iteration (0: one 16-byte vector),
 *   idea (one line), change (a short paragraph), the counter that shows it)
 *
 * Plain macros and constants: the kernels (nvcc) and the build's own tool
 * include this file too.
 */
#ifndef RS_VARIANTS_H
#define RS_VARIANTS_H

/* Which code runs a variant: a kernels/ file's launch switch, a library, the host, NVRTC. */
typedef enum {
    RS_KG_CLASSIC,  /* kernels/classic.cu */
    RS_KG_UNROLLED, /* kernels/unrolled.cu */
    RS_KG_MODERN,   /* kernels/modern.cu */
    RS_KG_CUB,      /* cub::DeviceReduce (kernels/library.cu) */
    RS_KG_THRUST,   /* thrust::reduce (kernels/library.cu) */
    RS_KG_HOST,     /* one host thread (analysis/reference.c) */
    RS_KG_USER      /* the user's own file, compiled with NVRTC */
} rs_kernel_group;

/* What a variant is and accepts; the row's flags. */
enum {
    RS_VF_POW2_BLOCK = 1 << 0,     /* tree in shared memory: blockDim a power of two */
    RS_VF_WARP_BLOCK = 1 << 1,     /* whole warps: blockDim a multiple of 32 */
    RS_VF_GRID_STRIDE = 1 << 2,    /* takes --grid / --ept */
    RS_VF_FINISH = 1 << 3,         /* takes --finish */
    RS_VF_LIBRARY = 1 << 4,        /* CUB or thrust: picks its own launch shape */
    RS_VF_HOST = 1 << 5,           /* runs on the CPU: the baseline, not a step of a ladder */
    RS_VF_NO_PRODUCT = 1 << 6,     /* needs a hardware atomic for the operation */
    RS_VF_RACY = 1 << 7,           /* relies on behaviour Volta+ no longer guarantees */
    RS_VF_BLOCK_TEMPLATE = 1 << 8, /* block size is a template parameter */
    RS_VF_EACH_ATOMIC = 1 << 9,    /* every thread updates the one result: no tree, no finish */
    RS_VF_VECTOR = 1 << 10,        /* 16-byte loads; left automatic, it picks its own shape */
    RS_VF_HOST_RESULT = 1 << 11,   /* its value arrives on the host: one GPU only */
    RS_VF_NOT_SAMPLED = 1 << 12,   /* PC sampling sees none of its own code */
    RS_VF_KERNEL_BASE = 1 << 13,   /* the tree a user kernel starts from, its step's baseline */
    RS_VF_SWEEP_SET = 1 << 14,     /* in the explorer's first sweep */
    RS_VF_GPUS_SET = 1 << 15       /* in a ladder over several GPUs when none are named */
};

/* The variant a request names when none is given (the field table's default). */
#define RS_VARIANT_DEFAULT "sequential"

#define RS_VF_TREE_   (RS_VF_POW2_BLOCK | RS_VF_FINISH)
#define RS_VF_STRIDE_ (RS_VF_GRID_STRIDE | RS_VF_FINISH)

#define RS_VARIANTS(X)                                                                             \
    X(ATOMIC, "atomic", RS_KG_CLASSIC, "k_atomic", "atomic",                                       \
      RS_VF_NO_PRODUCT | RS_VF_EACH_ATOMIC | RS_VF_SWEEP_SET, RS_FINISH_AUTO, 1, 1,                \
      "every thread atomically adds its element into one result",                                  \
      "No tree at all: each thread issues one atomic update on a single address. The memory "      \
      "system serialises the updates, so time grows with n at the rate of one address's atomic "   \
      "unit, not with DRAM bandwidth (integer adds are combined per warp by the compiler; "        \
      "floating-point ones are not). In float32 the running sum stops growing near 2^24: a "       \
      "value below 1 added to 16,777,216 rounds away.",                                            \
      "time, atomic throughput")                                                                   \
    X(INTERLEAVED, "interleaved", RS_KG_CLASSIC, "k_interleaved", "interleaved", RS_VF_TREE_,      \
      RS_FINISH_RELAUNCH, 1, 1, "tree in shared memory, active threads chosen by tid % (2*s)",     \
      "Each block loads one element per thread into shared memory and halves the values each "     \
      "step. Thread t works when t is a multiple of 2*s, so the working threads are spread over "  \
      "every warp: all warps stay busy to the last level, and the modulo costs a long integer "    \
      "sequence per step.",                                                                        \
      "warp instructions executed")                                                                \
    X(INTERLEAVED_STRIDED, "interleaved_strided", RS_KG_CLASSIC, "k_interleaved_strided",          \
      "interleaved_strided", RS_VF_TREE_, RS_FINISH_RELAUNCH, 1, 1,                                \
      "same tree, contiguous active threads via a strided index",                                  \
      "Thread t now works on index 2*s*t, so the working threads are the first ones and whole "    \
      "warps retire early. But a warp's accesses are 2*s words apart: they land in few of the "    \
      "32 shared-memory banks and are serialised as bank conflicts.",                              \
      "shared-memory bank conflicts")                                                              \
    X(SEQUENTIAL, "sequential", RS_KG_CLASSIC, "k_sequential", "sequential",                       \
      RS_VF_TREE_ | RS_VF_KERNEL_BASE, RS_FINISH_RELAUNCH, 1, 1,                                   \
      "sequential addressing: stride halves, tid < s",                                             \
      "The stride starts at half the block and halves: thread t adds s[t + stride] into s[t]. "    \
      "A warp reads 32 consecutive words, one per bank, so bank conflicts all but vanish.",        \
      "bank conflicts drop to ~0")                                                                 \
    X(FIRST_ADD, "first_add", RS_KG_CLASSIC, "k_first_add", "first_add+sequential",                \
      RS_VF_TREE_ | RS_VF_SWEEP_SET, RS_FINISH_RELAUNCH, 2, 1,                                     \
      "each thread adds two elements while loading",                                               \
      "Half the threads of sequential sat idle from the first step. Now each thread adds two "     \
      "elements on the way in, so half as many blocks read the same bytes with fewer "             \
      "instructions.",                                                                             \
      "same DRAM bytes, fewer warp instructions")                                                  \
    X(UNROLL_WARP_VOLATILE, "unroll_warp_volatile", RS_KG_CLASSIC, "k_unroll_warp_volatile",       \
      "first_add+sequential+unroll_warp_volatile", RS_VF_TREE_ | RS_VF_RACY, RS_FINISH_RELAUNCH,   \
      2, 1, "last warp unrolled the original way: volatile, no warp sync",                         \
      "Once 32 or fewer threads work, the loop and its __syncthreads() are dropped and the "       \
      "last warp is unrolled through a volatile pointer. This relies on a warp running in "        \
      "lockstep, which Volta and later no longer promise: it is a data race that usually "         \
      "happens to give the right answer.",                                                         \
      "fewer barriers")                                                                            \
    X(UNROLL_WARP, "unroll_warp", RS_KG_CLASSIC, "k_unroll_warp",                                  \
      "first_add+sequential+unroll_warp", RS_VF_TREE_, RS_FINISH_RELAUNCH, 2, 1,                   \
      "last warp unrolled correctly with __syncwarp",                                              \
      "The same unrolled last warp, made correct for independent thread scheduling: each "         \
      "step reads into a register, synchronises the warp, then writes.",                           \
      "barrier stalls drop")                                                                       \
    X(UNROLLED, "unrolled", RS_KG_UNROLLED, "k_unrolled", "unrolled",                              \
      RS_VF_TREE_ | RS_VF_BLOCK_TEMPLATE, RS_FINISH_RELAUNCH, 2, 1,                                \
      "loop fully unrolled, block size a template parameter",                                      \
      "With the block size known at compile time every level of the tree is written out and "      \
      "the branches for sizes that cannot occur are removed: no loop counter, no compare.",        \
      "fewer instructions")                                                                        \
    X(MULTI_ELEMENT, "multi_element", RS_KG_UNROLLED, "k_multi_element", "multi_element+unrolled", \
      RS_VF_POW2_BLOCK | RS_VF_STRIDE_ | RS_VF_BLOCK_TEMPLATE | RS_VF_SWEEP_SET,                   \
      RS_FINISH_RELAUNCH, 0, 2, "many elements per thread, grid-stride loop (Brent)",              \
      "A fixed grid, about one wave of the GPU, walks the input in a grid-stride loop: each "      \
      "thread sums many elements in a register before the tree. Many loads are in flight per "     \
      "thread and the tree runs once per block, not once per 512 elements.",                       \
      "DRAM throughput near peak")                                                                 \
    X(WARP_SHUFFLE, "warp_shuffle", RS_KG_MODERN, "k_warp_shuffle", "warp_shuffle+block_shuffle",  \
      RS_VF_WARP_BLOCK | RS_VF_STRIDE_, RS_FINISH_RELAUNCH, 0, 1,                                  \
      "__shfl_down_sync within warps, shared memory only between warps",                           \
      "Inside a warp, values move register to register with shuffles: no shared memory, no "       \
      "barrier. Shared memory holds only one value per warp.",                                     \
      "shared wavefronts drop")                                                                    \
    X(COOPERATIVE_GROUPS, "cooperative_groups", RS_KG_MODERN, "k_cooperative_groups",              \
      "cooperative_groups", RS_VF_WARP_BLOCK | RS_VF_STRIDE_, RS_FINISH_RELAUNCH, 0, 1,            \
      "cg::reduce on 32-thread tiles",                                                             \
      "The same shuffle tree written with cooperative groups: the block is cut into 32-thread "    \
      "tiles and cg::reduce does the exchange. Cleaner code, the same instructions.",              \
      "same as shuffle, cleaner code")                                                             \
    X(VECTORIZED, "vectorized", RS_KG_MODERN, "k_vectorized", "vectorized+vectorized_one",         \
      RS_VF_WARP_BLOCK | RS_VF_STRIDE_ | RS_VF_VECTOR | RS_VF_SWEEP_SET | RS_VF_GPUS_SET,          \
      RS_FINISH_SINGLE_PASS, 0, 0, "16-byte loads, grid-stride, shuffles, one launch",             \
      "Each thread loads 16 bytes at a time, several loads in flight, over a grid-stride "         \
      "loop; warps reduce with shuffles and the last block to finish combines the block "          \
      "results, so the whole reduction is one launch.",                                            \
      "% of peak bandwidth")                                                                       \
    X(CUB, "cub", RS_KG_CUB, "cub::DeviceReduce", "cub",                                           \
      RS_VF_LIBRARY | RS_VF_SWEEP_SET | RS_VF_GPUS_SET, RS_FINISH_AUTO, 0, 1, "cub::DeviceReduce", \
      "NVIDIA's tuned library reduction: the one to beat.", "the library to beat")                 \
    X(THRUST, "thrust", RS_KG_THRUST, "thrust::reduce", "thrust",                                  \
      RS_VF_LIBRARY | RS_VF_HOST_RESULT | RS_VF_NOT_SAMPLED, RS_FINISH_AUTO, 0, 1,                 \
      "thrust::reduce",                                                                            \
      "What most code calls. It runs CUB underneath and also allocates temporary memory and "      \
      "copies the result back on every call.",                                                     \
      "what most people call")                                                                     \
    X(CPU, "cpu", RS_KG_HOST, "cpu", "cpu", RS_VF_HOST | RS_VF_HOST_RESULT | RS_VF_NOT_SAMPLED,    \
      RS_FINISH_AUTO, 0, 1, "one host thread",                                                     \
      "One CPU thread in a simple loop: the baseline for the speedup column.",                     \
      "the baseline for speedup vs CPU")                                                           \
    X(KERNEL, "kernel", RS_KG_USER, "user kernel", "", RS_VF_FINISH | RS_VF_GRID_STRIDE,           \
      RS_FINISH_RELAUNCH, 1, 1, "your own kernel, compiled at run time with NVRTC",                \
      "A .cu file of yours (--kernel FILE.cu): redscope compiles it for this GPU, launches it "    \
      "with the request's blockDim and grid, finishes the block results as the request says, "     \
      "and checks, times and profiles it like any step of the ladder.",                            \
      "every counter, against the step before")

#endif
