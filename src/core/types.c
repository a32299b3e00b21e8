#include "rs_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static const char *const dtype_names[RS_DTYPE_COUNT] = {"int32",   "int64",   "float32",
                                                        "float64", "float16", "bfloat16"};
static const size_t dtype_sizes[RS_DTYPE_COUNT] = {4, 8, 4, 8, 2, 2};
static const char *const op_names[RS_OP_COUNT] = {"sum", "min", "max", "product"};
static const char *const finish_names[RS_FINISH_COUNT] = {"auto", "relaunch", "cpu", "atomic",
                                                          "single_pass"};
static const char *const dist_names[RS_DIST_COUNT] = {"random", "signed", "ones", "iota"};
static const char *const cross_names[RS_CROSS_COUNT] = {"host", "p2p", "nccl"};
static const char *const cache_names[RS_CACHE_COUNT] = {"cold", "warm"};

size_t rs_dtype_size(rs_dtype t)
{
    return (unsigned)t < RS_DTYPE_COUNT ? dtype_sizes[t] : 0;
}

rs_dtype rs_dtype_acc(rs_dtype t)
{
    return (t == RS_FLOAT16 || t == RS_BFLOAT16) ? RS_FLOAT32 : t;
}

int rs_dtype_is_float(rs_dtype t)
{
    return t != RS_INT32 && t != RS_INT64;
}

static const char *name_at(const char *const *names, int count, int i)
{
    return (i >= 0 && i < count) ? names[i] : "?";
}

static int index_of(const char *const *names, int count, const char *s)
{
    for (int i = 0; s && i < count; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

const char *rs_dtype_name(rs_dtype t)
{
    return name_at(dtype_names, RS_DTYPE_COUNT, (int)t);
}
const char *rs_op_name(rs_op op)
{
    return name_at(op_names, RS_OP_COUNT, (int)op);
}
const char *rs_finish_name(rs_finish f)
{
    return name_at(finish_names, RS_FINISH_COUNT, (int)f);
}
const char *rs_dist_name(rs_dist d)
{
    return name_at(dist_names, RS_DIST_COUNT, (int)d);
}
const char *rs_cross_name(rs_cross c)
{
    return name_at(cross_names, RS_CROSS_COUNT, (int)c);
}

const char *rs_cache_name(rs_cache c)
{
    return name_at(cache_names, RS_CACHE_COUNT, (int)c);
}

static const char *const algo_names[RS_AR_ALGO_COUNT] = {"nccl", "ring", "tree", "peer_ring"};

const char *rs_ar_algo_name(rs_ar_algo a)
{
    return a >= 0 && a < RS_AR_ALGO_COUNT ? algo_names[a] : "?";
}

int rs_dtype_from_name(const char *s)
{
    /* Common spellings people type. */
    static const struct {
        const char *alias;
        rs_dtype t;
    } aliases[] = {{"int", RS_INT32},    {"float", RS_FLOAT32}, {"double", RS_FLOAT64},
                   {"half", RS_FLOAT16}, {"bf16", RS_BFLOAT16}, {"fp16", RS_FLOAT16},
                   {"fp32", RS_FLOAT32}, {"fp64", RS_FLOAT64},  {"i32", RS_INT32},
                   {"i64", RS_INT64},    {"f32", RS_FLOAT32},   {"f64", RS_FLOAT64},
                   {"f16", RS_FLOAT16},  {"long", RS_INT64}};
    int i = index_of(dtype_names, RS_DTYPE_COUNT, s);
    if (i >= 0 || !s) return i;
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++)
        if (strcmp(aliases[k].alias, s) == 0) return (int)aliases[k].t;
    return -1;
}

int rs_op_from_name(const char *s)
{
    if (s && strcmp(s, "prod") == 0) return RS_PROD;
    return index_of(op_names, RS_OP_COUNT, s);
}

int rs_finish_from_name(const char *s)
{
    return index_of(finish_names, RS_FINISH_COUNT, s);
}

int rs_dist_from_name(const char *s)
{
    return index_of(dist_names, RS_DIST_COUNT, s);
}

int rs_cross_from_name(const char *s)
{
    return index_of(cross_names, RS_CROSS_COUNT, s);
}

int rs_cache_from_name(const char *s)
{
    return index_of(cache_names, RS_CACHE_COUNT, s);
}

int rs_ar_algo_parse(const char *s)
{
    return index_of(algo_names, RS_AR_ALGO_COUNT, s);
}
