#include "multi.h"

#include "core/catalogue.h"

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
    if (bytes[n - 1] < 4.0 * bytes[0]) return 0; /* too narrow: time at most doubles anyway */
    if (us[n - 1] <= 2.0 * us[0]) return RS_AR_ALL_LATENCY;
    int band = 0;
    while (busbw[band] < 0.5 * best) band++; /* the best reaches it: band < n */
    *bandwidth = bytes[band];
    for (int i = 0; i < band && us[i] <= 2.0 * us[0]; i++) *latency = bytes[i];
    return band ? RS_AR_CROSSES : RS_AR_ALL_BANDWIDTH;
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

int rs_multi_ladder(const rs_request *base, int cross_given, rs_request *out, int max)
{
    const rs_variant_set mask =
        base->variants ? base->variants : rs_variant_set_with(RS_VF_GPUS_SET);
    int n = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        if (!(mask & RS_VARIANT_BIT(v)) || v == RS_V_KERNEL) continue; /* your kernels: one GPU */
        /* what ends on the host runs on one GPU only */
        const int spans = !rs_variant_has((rs_variant)v, RS_VF_HOST_RESULT);
        for (int c = -1; c < (spans ? RS_CROSS_COUNT : 0) && n < max; c++) {
            if (c >= 0 && cross_given && c != (int)base->cross) continue;
            rs_request_for_variant(base, (rs_variant)v, &out[n]);
            out[n].gpus = c < 0 ? 1 : base->gpus;
            out[n].cross = c < 0 ? base->cross : (rs_cross)c;
            n++;
        }
    }
    return n;
}

/* NVML's topology levels: how far apart two GPUs sit on PCIe. */
static const char *pcie_path(int level)
{
    switch (level) {
    case 0: return "PCIe on one board";
    case 10: return "PCIe through one switch";
    case 20: return "PCIe through several switches";
    case 30: return "PCIe through the host bridge";
    case 40: return "PCIe across the NUMA node";
    case 50: return "PCIe across CPU sockets";
    default: return "PCIe";
    }
}

static void link_words(const rs_link *l, char *buf, size_t len)
{
    if (l->nvlinks > 0 && l->switched)
        snprintf(buf, len, "NVLink through NVSwitch (x%d)", l->nvlinks);
    else if (l->nvlinks > 0)
        snprintf(buf, len, "NVLink x%d", l->nvlinks);
    else
        snprintf(buf, len, "%s%s", pcie_path(l->level), l->peer ? "" : ", no peer access");
}

void rs_links_describe(const rs_link *pairs, int n, char *buf, size_t len)
{
    if (!len) return;
    buf[0] = '\0';
    if (n < 1 || !pairs) return;
    char first[64], w[64];
    link_words(&pairs[0], first, sizeof first);
    int same = 1;
    for (int i = 1; i < n && same; i++) {
        link_words(&pairs[i], w, sizeof w);
        same = strcmp(w, first) == 0;
    }
    if (same && n > 1) {
        if (pairs[0].nvlinks > 0 && pairs[0].switched)
            snprintf(buf, len, "NVLink through NVSwitch between every pair (%d links per GPU)",
                     pairs[0].nvlinks);
        else if (pairs[0].nvlinks > 0)
            snprintf(buf, len, "NVLink between every pair (x%d each)", pairs[0].nvlinks);
        else
            snprintf(buf, len, "%s between every pair", first);
        return;
    }
    size_t used = 0;
    for (int i = 0; i < n && used + 1 < len; i++) {
        link_words(&pairs[i], w, sizeof w);
        const int k = snprintf(buf + used, len - used, "%s%d-%d %s", i ? ", " : "", pairs[i].a,
                               pairs[i].b, w);
        if (k < 0 || (size_t)k >= len - used) {
            buf[used] = '\0'; /* whole pairs only */
            break;
        }
        used += (size_t)k;
    }
}
