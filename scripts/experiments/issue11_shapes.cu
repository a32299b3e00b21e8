// Issue 11 experiment (docs/results.md, "Issue 11, second pass"): small-n
// kernel shapes (every load first, one warp, 1/2/4 vectors a thread) and
// large-n load flavours (L2 prefetch hints, no-allocate, streaming, 2/4/8
// loads a thread) against CUB, L2 flushed before each of 30 repetitions.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o shapes scripts/experiments/issue11_shapes.cu
//   ./shapes s   (small n)      ./shapes b   (2^20..2^30; 4 GiB of device memory)
#include "issue11_common.cuh"

template <class T>
static void run_type(const char *tname, void *dbuf, const std::vector<unsigned long long> &ns)
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
    cub::DeviceReduce::Sum(temp, tb, in, out, (long long)(1ull << 30) / sizeof(T) * 4);
    CK(cudaMalloc(&temp, tb + 1024));
    Fin<A> fin{out, part, counter, RS_KFIN_SINGLE_PASS};
    int occ1024;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ1024, k_big<T, A, Op, 0, 4>, 1024, 0));
    const unsigned V = 16 / sizeof(T);
    for (unsigned long long n : ns) {
        double tc = timeit([&] {
            size_t b = tb;
            cub::DeviceReduce::Sum(temp, b, in, out, (long long)n);
        });
        printf("%s n=%llu cub %.2f us\n", tname, n, tc);
        auto rep = [&](const char *k, double t) {
            printf("  %-22s %8.2f us  x%.3f\n", k, t, tc / t);
        };
        unsigned long long nvec = n / V;
        if (nvec <= 4096) {
            unsigned w = (unsigned)((nvec + 3) / 4 + 31) / 32;
            if (!w) w = 1;
            unsigned b4 = 32 * w;
            Fin<A> f1{out, part, counter, RS_KFIN_SINGLE_PASS};
            rep("cur(1blk,4vpt)", timeit([&] { k_big<T, A, Op, 0, 4><<<1, b4>>>(in, n, f1); }));
            rep("small4",
                timeit([&] { k_small<T, A, Op, 4, false><<<1, b4>>>(in, (unsigned)n, out); }));
            if (b4 == 32)
                rep("small4warp",
                    timeit([&] { k_small<T, A, Op, 4, true><<<1, 32>>>(in, (unsigned)n, out); }));
            unsigned w1 = (unsigned)(nvec + 31) / 32;
            if (!w1) w1 = 1;
            if (w1 <= 32)
                rep("small1", timeit([&] {
                        k_small<T, A, Op, 1, false><<<1, 32 * w1>>>(in, (unsigned)n, out);
                    }));
            if (w1 == 1)
                rep("small1warp",
                    timeit([&] { k_small<T, A, Op, 1, true><<<1, 32>>>(in, (unsigned)n, out); }));
            unsigned w2 = (unsigned)((nvec + 1) / 2 + 31) / 32;
            if (!w2) w2 = 1;
            if (w2 <= 32)
                rep("small2", timeit([&] {
                        k_small<T, A, Op, 2, false><<<1, 32 * w2>>>(in, (unsigned)n, out);
                    }));
            rep("empty", timeit([&] { k_empty<<<1, 32>>>(); }));
        } else {
            const unsigned blk = n < (1ull << 22) ? 512 : 1024;
            int occ;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k_big<T, A, Op, 0, 4>, blk, 0));
            unsigned long long g = std::min<unsigned long long>((n / V + blk - 1) / blk,
                                                                (unsigned long long)occ * g_sms);
            if (!g) g = 1;
            rep("cur ldg x4", timeit([&] { k_big<T, A, Op, 0, 4><<<g, blk>>>(in, n, fin); }));
            rep("ldcs x4", timeit([&] { k_big<T, A, Op, 1, 4><<<g, blk>>>(in, n, fin); }));
            rep("nc.L2::256B x4", timeit([&] { k_big<T, A, Op, 2, 4><<<g, blk>>>(in, n, fin); }));
            rep("nc.noalloc.256B x4",
                timeit([&] { k_big<T, A, Op, 3, 4><<<g, blk>>>(in, n, fin); }));
            rep("nc.noalloc.128B x4",
                timeit([&] { k_big<T, A, Op, 4, 4><<<g, blk>>>(in, n, fin); }));
            rep("ldg x8", timeit([&] { k_big<T, A, Op, 0, 8><<<g, blk>>>(in, n, fin); }));
            rep("noalloc.256B x8", timeit([&] { k_big<T, A, Op, 3, 8><<<g, blk>>>(in, n, fin); }));
            rep("ldg x2", timeit([&] { k_big<T, A, Op, 0, 2><<<g, blk>>>(in, n, fin); }));
            if (n >= (1ull << 26)) {
                size_t bytes = n * sizeof(T);
                unsigned long long g2 = (unsigned long long)g_sms * 2;
                rep("read ldg (limit)", timeit([&] {
                        k_read<0><<<g2, 1024>>>((const uint4 *)in, bytes / 16, g_sink);
                    }));
                rep("read noalloc.256B", timeit([&] {
                        k_read<3><<<g2, 1024>>>((const uint4 *)in, bytes / 16, g_sink);
                    }));
                rep("read L2::256B", timeit([&] {
                        k_read<2><<<g2, 1024>>>((const uint4 *)in, bytes / 16, g_sink);
                    }));
            }
        }
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
    CK(cudaMemset(buf, 0x11, bytes));
    std::vector<unsigned long long> small = {
        1, 3, 31, 1000, 1ull << 10, 1ull << 11, 1ull << 12, 1ull << 13, 1ull << 14};
    std::vector<unsigned long long> large = {1ull << 20, 1ull << 24, 1ull << 28, 1ull << 30};
    if (!big) {
        run_type<int>("int32", buf, small);
        run_type<float>("float32", buf, small);
        run_type<double>("float64", buf, small);
    } else {
        run_type<int>("int32", buf, large);
        run_type<float>("float32", buf, large);
        large.pop_back();
        large.push_back(1ull << 29);
        run_type<double>("float64", buf, large);
    }
    return 0;
}
