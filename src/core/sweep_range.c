#include "sweep_range.h"

#include <stdio.h>
#include <string.h>

#include "request.h"

static rs_status parse_part(const char *text, const char *start, size_t len, uint64_t *out,
                            rs_error *err)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return rs_fail(err, RS_E_USAGE, "bad sweep range '%s': empty or overlong size", text);
    memcpy(buf, start, len);
    buf[len] = '\0';
    rs_error sub;
    if (rs_parse_size(buf, out, &sub) != RS_OK)
        return rs_fail(err, RS_E_USAGE, "bad sweep range '%s': %s", text, sub.msg);
    if (*out < 1 || *out > RS_N_MAX)
        return rs_fail(err, RS_E_USAGE, "bad sweep range '%s': sizes go from 1 to 2^40", text);
    return RS_OK;
}

static rs_status parse_range(const char *text, const char *dots, rs_sweep_sizes *out, rs_error *err)
{
    uint64_t lo, hi, factor = 2;
    const char *rest = dots + 2;
    const char *colon = strchr(rest, ':');
    size_t hi_len = colon ? (size_t)(colon - rest) : strlen(rest);
    if (parse_part(text, text, (size_t)(dots - text), &lo, err) ||
        parse_part(text, rest, hi_len, &hi, err))
        return RS_E_USAGE;
    if (colon) {
        rs_error sub;
        if (rs_parse_size(colon + 1, &factor, &sub) != RS_OK || factor < 2 || factor > 1024)
            return rs_fail(err, RS_E_USAGE,
                           "bad sweep range '%s': the step factor after ':' is 2 to 1024", text);
    }
    if (lo > hi)
        return rs_fail(err, RS_E_USAGE, "bad sweep range '%s': the first size is the larger", text);
    out->count = 0;
    for (uint64_t n = lo; n <= hi; n *= factor) {
        if (out->count == RS_SWEEP_MAX_SIZES)
            return rs_fail(err, RS_E_USAGE, "bad sweep range '%s': more than %d sizes", text,
                           RS_SWEEP_MAX_SIZES);
        out->n[out->count++] = n;
        if (n > hi / factor) break;
    }
    return RS_OK;
}

rs_status rs_sweep_parse(const char *text, rs_sweep_sizes *out, rs_error *err)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text) return rs_fail(err, RS_E_USAGE, "empty sweep range");
    const char *dots = strstr(text, "..");
    if (dots) return parse_range(text, dots, out, err);
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (out->count == RS_SWEEP_MAX_SIZES)
            return rs_fail(err, RS_E_USAGE, "bad sweep list '%s': more than %d sizes", text,
                           RS_SWEEP_MAX_SIZES);
        if (parse_part(text, p, len, &out->n[out->count], err)) return RS_E_USAGE;
        out->count++;
        p += len;
        if (*p == ',') p++;
    }
    return RS_OK;
}
