#include "nccl_tests.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

const char *rs_nt_type(rs_dtype t)
{
    static const char *const names[RS_DTYPE_COUNT] = {"int32",  "int64", "float",
                                                      "double", "half",  "bfloat16"};
    return (unsigned)t < RS_DTYPE_COUNT ? names[t] : "float";
}

const char *rs_nt_op(rs_op op)
{
    static const char *const names[RS_OP_COUNT] = {"sum", "min", "max", "prod"};
    return (unsigned)op < RS_OP_COUNT ? names[op] : "sum";
}

/* A figure that is a finite number from 0 to 1e15, else -1. */
static double figure(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) return -1.0;
    return v->valuedouble >= 0.0 && v->valuedouble <= 1e15 ? v->valuedouble : -1.0;
}

int rs_nt_parse(const char *text, rs_nt_point *out, int max, char *why, size_t len)
{
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(j, "results");
    if (!cJSON_IsArray(results)) {
        snprintf(why, len, "%s", j ? "no \"results\" list in nccl-tests' JSON" : "not JSON");
        cJSON_Delete(j);
        return -1;
    }
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, results)
    {
        if (n >= max) break;
        const cJSON *oop = cJSON_GetObjectItemCaseSensitive(r, "out_of_place");
        const double size = figure(r, "size"), us = figure(oop, "time");
        const double algbw = figure(oop, "alg_bw"), busbw = figure(oop, "bus_bw");
        if (!(size >= 1.0) || us < 0.0 || algbw < 0.0 || busbw < 0.0) continue;
        out[n++] = (rs_nt_point){(uint64_t)size, us, algbw, busbw};
    }
    cJSON_Delete(j);
    return n;
}
