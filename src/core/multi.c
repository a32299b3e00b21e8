#include "multi.h"

#include "catalogue.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int rs_split(uint64_t n, int g, int i, uint64_t *offset, uint64_t *count)
{
    *offset = *count = 0;
    if (g < 1 || i < 0 || i >= g) return 0;
    const uint64_t q = n / (uint64_t)g, r = n % (uint64_t)g, k = (uint64_t)i;
    *count = q + (k < r ? 1 : 0);
    *offset = k * q + (k < r ? k : r);
    return 1;
}

double rs_algbw(double bytes, double seconds)
{
    if (!(bytes > 0.0) || !(seconds > 0.0) || !isfinite(bytes) || !isfinite(seconds)) return 0.0;
    const double bw = bytes / seconds;
    return isfinite(bw) ? bw : 0.0;
}

double rs_busbw_allreduce(double bytes, double seconds, int g)
{
    if (g < 1) return 0.0;
    return rs_algbw(bytes, seconds) * 2.0 * (double)(g - 1) / (double)g;
}

double rs_busbw_reduce(double bytes, double seconds, int g)
{
    return g < 1 ? 0.0 : rs_algbw(bytes, seconds);
}

static int positive(double v)
{
    return isfinite(v) && v > 0.0;
}

int rs_ar_crossover(const double *bytes, const double *us, const double *busbw, int n,
                    double *latency, double *bandwidth)
{
    *latency = *bandwidth = 0.0;
    if (!bytes || !us || !busbw || n < 3) return 0;
    double best = 0.0;
    for (int i = 0; i < n; i++) {
        if (!positive(bytes[i]) || !positive(us[i]) || !positive(busbw[i])) return 0;
        if (i && bytes[i] <= bytes[i - 1]) return 0;
        if (busbw[i] > best) best = busbw[i];
    }
    for (int i = 0; i < n && us[i] <= 2.0 * us[0]; i++) *latency = bytes[i];
    for (int i = 0; i < n && *bandwidth == 0.0; i++)
        if (busbw[i] >= 0.5 * best) *bandwidth = bytes[i];
    return 1;
}

void rs_fmt_binary(double bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (isfinite(bytes) && bytes >= 1024.0 && u < 4) bytes /= 1024.0, u++;
    if (!isfinite(bytes) || bytes < 0.0)
        snprintf(buf, len, "-");
    else if (bytes == (double)(long long)bytes)
        snprintf(buf, len, "%lld %s", (long long)bytes, unit[u]);
    else
        snprintf(buf, len, "%.1f %s", bytes, unit[u]);
}

static const char *const algo_names[RS_AR_ALGO_COUNT] = {"nccl", "ring", "tree", "peer_ring"};

const char *rs_ar_algo_name(rs_ar_algo a)
{
    return a >= 0 && a < RS_AR_ALGO_COUNT ? algo_names[a] : "?";
}

int rs_ar_algo_parse(const char *s)
{
    for (int i = 0; s && i < RS_AR_ALGO_COUNT; i++)
        if (strcmp(s, algo_names[i]) == 0) return i;
    return -1;
}

int rs_multi_ladder(const rs_request *base, int cross_given, rs_request *out, int max)
{
    const uint32_t mask =
        base->variants ? base->variants : (1u << RS_V_VECTORIZED) | (1u << RS_V_CUB);
    int n = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        if (!(mask & (1u << v))) continue;
        for (int c = -1; c < RS_CROSS_COUNT && n < max; c++) {
            if (c >= 0 && cross_given && c != (int)base->cross) continue;
            rs_request_for_variant(base, (rs_variant)v, &out[n]);
            out[n].gpus = c < 0 ? 1 : base->gpus;
            out[n].cross = c < 0 ? base->cross : (rs_cross)c;
            n++;
        }
    }
    return n;
}
