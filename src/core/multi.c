#include "multi.h"

#include <math.h>

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
