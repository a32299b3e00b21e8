// Issue 11 experiment (docs/results.md, "Issue 11, second pass"): Hopper
// techniques at small n (thread-block clusters with distributed shared
// memory, a TMA bulk copy, redux.sync in one warp) and register pressure at
// large n (__launch_bounds__, 512-thread blocks), against CUB.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o hopper scripts/experiments/issue11_hopper.cu
//   ./hopper s   (small n)      ./hopper b   (2^24..2^30; 4 GiB of device memory)
#include "issue11_common.cuh"

#include <cooperative_groups.h>
namespace cgx = cooperative_groups;

// one warp, redux for int
__global__ void k_warp_redux(const int *__restrict__ in, unsigned n, int *out)
{
    const unsigned t = threadIdx.x;
    const unsigned nvec = n / 4, tail = nvec * 4;
    uint4 u = t < nvec ? __ldg(reinterpret_cast<const uint4 *>(in) + t) : make_uint4(0, 0, 0, 0);
    int s = t < n - tail ? in[tail + t] : 0;
    unsigned v = u.x + u.y + u.z + u.w + (unsigned)s;
    v = __reduce_add_sync(0xffffffffu, v);
    if (t == 0) *out = (int)v;
}

// cluster of C blocks: each block loads its slice (1 vector per thread), block reduce,
// partial into rank 0's shared memory, cluster sync, rank 0 adds.
template <class T, class A, class Op, int C>
__global__ void __cluster_dims__(C, 1, 1) k_cluster(const T *__restrict__ in, unsigned n, A *out)
{
    constexpr unsigned V = 16 / sizeof(T);
    __shared__ A parts[16];
    Op op;
    cgx::cluster_group cl = cgx::this_cluster();
    const unsigned nvec = n / V, tail = nvec * V;
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
    uint4 u0, u1;
    const bool h0 = g < nvec, h1 = g + nt < nvec;
    if (h0) u0 = __ldg(reinterpret_cast<const uint4 *>(in) + g);
    if (h1) u1 = __ldg(reinterpret_cast<const uint4 *>(in) + g + nt);
    A v = Op::identity();
    if (g < n - tail) v = op(v, to_acc<A>(in[tail + g]));
    if (h0) v = op(v, vred<T, A, Op>(u0));
    if (h1) v = op(v, vred<T, A, Op>(u1));
    v = block_reduce<A, Op>(v);
    if (threadIdx.x == 0) {
        A *p0 = cl.map_shared_rank(parts, 0);
        p0[cl.block_rank()] = v;
    }
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x < 32) {
        A w = threadIdx.x < C ? parts[threadIdx.x] : Op::identity();
        w = warp_reduce<A, Op>(w);
        if (threadIdx.x == 0) *out = w;
    }
}

// one block: thread 0 pulls the whole input (<= 16 KB, multiple of 16 B) into shared memory
// with one bulk copy (TMA engine), the block reduces it from there.
template <class T, class A, class Op>
__global__ void k_bulk(const T *__restrict__ in, unsigned n, A *out)
{
    constexpr unsigned V = 16 / sizeof(T);
    __shared__ alignas(128) uint4 buf[1024];
    __shared__ alignas(8) unsigned long long bar;
    const unsigned nvec = n / V, bytes = nvec * 16;
    const unsigned sb = (unsigned)__cvta_generic_to_shared(buf),
                   sbar = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(sbar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(sbar), "r"(bytes)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                     "[%1], %2, [%3];" ::"r"(sb),
                     "l"(in), "r"(bytes), "r"(sbar)
                     : "memory");
    }
    __syncthreads();
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, "
                     "1, 0, p; }"
                     : "=r"(done)
                     : "r"(sbar)
                     : "memory");
    Op op;
    A v = Op::identity();
    for (unsigned i = threadIdx.x; i < nvec; i += blockDim.x) v = op(v, vred<T, A, Op>(buf[i]));
    v = block_reduce<A, Op>(v);
    if (threadIdx.x == 0) *out = v;
}

template <class T, class A, class Op, int UNR>
__global__ void __launch_bounds__(1024, 2)
    k_big2(const T *__restrict__ in, unsigned long long n, Fin<A> fin)
{
    constexpr unsigned long long V = 16 / sizeof(T);
    Op op;
    A v = Op::identity();
    const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long nthreads = (unsigned long long)gridDim.x * blockDim.x;
    const uint4 *vin = reinterpret_cast<const uint4 *>(in);
    const unsigned long long nvec = n / V;
    unsigned long long i = tid;
    for (; i + (UNR - 1) * nthreads < nvec; i += UNR * nthreads) {
        uint4 u[UNR];
#pragma unroll
        for (int k = 0; k < UNR; k++) u[k] = __ldg(vin + i + k * nthreads);
        A w = vred<T, A, Op>(u[0]);
#pragma unroll
        for (int k = 1; k < UNR; k++) w = op(w, vred<T, A, Op>(u[k]));
        v = op(v, w);
    }
    for (; i < nvec; i += nthreads) v = op(v, vred<T, A, Op>(__ldg(vin + i)));
    const unsigned long long tail = nvec * V;
    if (tid < n - tail) v = op(v, to_acc<A>(in[tail + tid]));
    v = block_reduce<A, Op>(v);
    finish_block<A, Op>(v, fin);
}

template <class T>
static void run_small(const char *tname, void *dbuf, const std::vector<unsigned> &ns)
{
    using A = typename acc_of<T>::type;
    using Op = SumOp<A>;
    const T *in = (const T *)dbuf;
    A *out;
    CK(cudaMalloc(&out, 64));
    void *temp = nullptr;
    size_t tb = 0;
    cub::DeviceReduce::Sum(temp, tb, in, out, 1 << 24);
    CK(cudaMalloc(&temp, tb + 1024));
    const unsigned V = 16 / sizeof(T);
    for (int pass = 0; pass < 2; pass++)
        for (unsigned n : ns) {
            A want;
            A got;
            double tc = timeit([&] {
                size_t b = tb;
                cub::DeviceReduce::Sum(temp, b, in, out, (long long)n);
            });
            CK(cudaMemcpy(&want, out, sizeof want, cudaMemcpyDeviceToHost));
            printf("%s n=%u cub %.2f us\n", tname, n, tc);
            auto rep = [&](const char *k, double t) {
                CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
                printf("  %-22s %8.2f us  x%.3f %s\n", k, t, tc / t,
                       (double)got == (double)want ? "" : "WRONG");
            };
            unsigned nvec = n / V;
            unsigned w1 = (nvec + 31) / 32;
            if (!w1) w1 = 1;
            unsigned w2 = ((nvec + 1) / 2 + 31) / 32;
            if (!w2) w2 = 1;
            if (w1 == 1)
                rep("small1warp",
                    timeit([&] { k_small<T, A, Op, 1, true><<<1, 32>>>(in, n, out); }));
            if (w1 <= 32)
                rep("small1",
                    timeit([&] { k_small<T, A, Op, 1, false><<<1, 32 * w1>>>(in, n, out); }));
            if (w2 <= 32)
                rep("small2",
                    timeit([&] { k_small<T, A, Op, 2, false><<<1, 32 * w2>>>(in, n, out); }));
            if (nvec <= 1024 && n % V == 0)
                rep("bulk(tma) 256thr", timeit([&] { k_bulk<T, A, Op><<<1, 256>>>(in, n, out); }));
            if (nvec <= 1024 && n % V == 0)
                rep("bulk(tma) 1024thr",
                    timeit([&] { k_bulk<T, A, Op><<<1, 1024>>>(in, n, out); }));
            for (int C : {2, 4, 8}) {
                unsigned per = (nvec + 2 * C - 1) / (2 * C); // vectors per block at 2 per thread
                unsigned b = ((per + 31) / 32) * 32;
                if (b < 32) b = 32;
                if (b > 1024) continue;
                char name[40];
                snprintf(name, sizeof name, "cluster%d x%u thr", C, b);
                if (C == 2)
                    rep(name, timeit([&] { k_cluster<T, A, Op, 2><<<2, b>>>(in, n, out); }));
                if (C == 4)
                    rep(name, timeit([&] { k_cluster<T, A, Op, 4><<<4, b>>>(in, n, out); }));
                if (C == 8)
                    rep(name, timeit([&] { k_cluster<T, A, Op, 8><<<8, b>>>(in, n, out); }));
            }
            if (sizeof(T) == 4 && n <= 128 && (T)0.5 == 0)
                rep("warp redux",
                    timeit([&] { k_warp_redux<<<1, 32>>>((const int *)in, n, (int *)out); }));
            CK(cudaGetLastError());
        }
    cudaFree(out);
    cudaFree(temp);
}

template <class T>
static void run_big(const char *tname, void *dbuf, const std::vector<unsigned long long> &ns)
{
    using A = typename acc_of<T>::type;
    using Op = SumOp<A>;
    const T *in = (const T *)dbuf;
    A *out;
    unsigned *counter;
    A *part;
    CK(cudaMalloc(&out, 64));
    CK(cudaMalloc(&counter, 64));
    CK(cudaMemset(counter, 0, 64));
    CK(cudaMalloc(&part, 1 << 20));
    void *temp = nullptr;
    size_t tb = 0;
    cub::DeviceReduce::Sum(temp, tb, in, out, (long long)(1ull << 30));
    CK(cudaMalloc(&temp, tb + 1024));
    Fin<A> fin{out, part, counter, RS_KFIN_SINGLE_PASS};
    const unsigned V = 16 / sizeof(T);
    for (unsigned long long n : ns) {
        double tc = timeit(
            [&] {
                size_t b = tb;
                cub::DeviceReduce::Sum(temp, b, in, out, (long long)n);
            },
            15);
        printf("%s n=%llu cub %.2f us\n", tname, n, tc);
        auto rep = [&](const char *k, double t) {
            printf("  %-22s %8.2f us  x%.3f\n", k, t, tc / t);
        };
        auto grid = [&](auto kern, unsigned blk) {
            int occ;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, blk, 0));
            unsigned long long g = std::min<unsigned long long>((n / V + blk - 1) / blk,
                                                                (unsigned long long)occ * g_sms);
            return g ? g : 1;
        };
        unsigned long long g1 = grid(k_big<T, A, Op, 0, 4>, 1024),
                           g2 = grid(k_big2<T, A, Op, 4>, 1024),
                           g5 = grid(k_big<T, A, Op, 0, 4>, 512);
        printf("  grids: cur %llu, lb2 %llu, 512thr %llu\n", g1, g2, g5);
        rep("cur ldg x4 1024",
            timeit([&] { k_big<T, A, Op, 0, 4><<<g1, 1024>>>(in, n, fin); }, 15));
        rep("launch_bounds(1024,2)",
            timeit([&] { k_big2<T, A, Op, 4><<<g2, 1024>>>(in, n, fin); }, 15));
        rep("cur ldg x4 512", timeit([&] { k_big<T, A, Op, 0, 4><<<g5, 512>>>(in, n, fin); }, 15));
        rep("read ldg (limit)", timeit(
                                    [&] {
                                        k_read<0><<<g_sms * 2, 1024>>>((const uint4 *)in,
                                                                       n * sizeof(T) / 16, g_sink);
                                    },
                                    15));
        CK(cudaGetLastError());
    }
    cudaFree(out);
    cudaFree(counter);
    cudaFree(part);
    cudaFree(temp);
}

int main(int argc, char **argv)
{
    int big = argc > 1 && argv[1][0] == 'b';
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    g_sms = pr.multiProcessorCount;
    printf("device %s, %d SMs, L2 %d MB\n", pr.name, g_sms, pr.l2CacheSize >> 20);
    g_fbytes = (size_t)pr.l2CacheSize * 2;
    CK(cudaMalloc(&g_flush, g_fbytes));
    CK(cudaMemset(g_flush, 1, g_fbytes));
    CK(cudaMalloc(&g_sink, 16));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const size_t bytes = big ? (4ull << 30) : (64ull << 20);
    void *buf;
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMemset(buf, 0x01, bytes));
    if (!big) {
        std::vector<unsigned> s = {1,        31,       100,      1000,     1u << 10,
                                   1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 16};
        run_small<int>("int32", buf, s);
        run_small<double>("float64", buf, s);
    } else {
        run_big<double>("float64", buf, {1ull << 24, 1ull << 28, 1ull << 29});
        run_big<int>("int32", buf, {1ull << 28, 1ull << 30});
    }
    return 0;
}
