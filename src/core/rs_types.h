/* Plain C enums shared by the host code and the kernels' C face. */
#ifndef RS_TYPES_H
#define RS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "variants.h"

/* Element types. The half types accumulate in float32. */
typedef enum {
    RS_INT32,
    RS_INT64,
    RS_FLOAT32,
    RS_FLOAT64,
    RS_FLOAT16,
    RS_BFLOAT16,
    RS_DTYPE_COUNT
} rs_dtype;

typedef enum { RS_SUM, RS_MIN, RS_MAX, RS_PROD, RS_OP_COUNT } rs_op;

/* How a multi-block reduction combines its block results. */
typedef enum {
    RS_FINISH_AUTO,        /* the variant's default */
    RS_FINISH_RELAUNCH,    /* launch again on the block results */
    RS_FINISH_CPU,         /* copy block results back, finish on the host */
    RS_FINISH_ATOMIC,      /* each block atomically combines into the result */
    RS_FINISH_SINGLE_PASS, /* the last block to finish reduces the block results */
    RS_FINISH_COUNT
} rs_finish;

typedef enum { RS_DIST_RANDOM, RS_DIST_SIGNED, RS_DIST_ONES, RS_DIST_IOTA, RS_DIST_COUNT } rs_dist;

/* How the partials of a run over several GPUs are combined (--cross). */
typedef enum {
    RS_CROSS_HOST, /* each GPU's partial copied to the host, added there */
    RS_CROSS_P2P,  /* peer copies (NVLink where present), a tree of adds on the GPUs */
    RS_CROSS_NCCL, /* ncclReduce of the partials to the first GPU */
    RS_CROSS_COUNT
} rs_cross;

/* The input's cache state before each timed run (--cache). */
typedef enum {
    RS_CACHE_COLD, /* the L2 flushed first: the input comes from DRAM */
    RS_CACHE_WARM, /* the input read just before: in the L2 where it fits */
    RS_CACHE_COUNT
} rs_cache;

/* The all-reduce's algorithms (engine/allreduce.c runs them). */
typedef enum {
    RS_AR_NCCL,      /* NCCL picks */
    RS_AR_RING,      /* NCCL_ALGO=Ring */
    RS_AR_TREE,      /* NCCL_ALGO=Tree */
    RS_AR_PEER_RING, /* by hand: peer copies and an add kernel */
    RS_AR_ALGO_COUNT
} rs_ar_algo;

/* Variant ids, in ladder order: generated from the one list of variants. */
typedef enum {
#define RS_X_VARIANT_ID(id, ...) RS_V_##id,
    RS_VARIANTS(RS_X_VARIANT_ID)
#undef RS_X_VARIANT_ID
        RS_VARIANT_COUNT
} rs_variant;

/* A set of variants (a ladder's, a sweep's, a recording's): one bit each. */
typedef uint64_t rs_variant_set;
#define RS_VARIANT_BIT(v)  ((rs_variant_set)1 << (unsigned)(v))
#define RS_VARIANT_SET_MAX 64
/* a negative array size fails the build when the list outgrows the set */
typedef char rs_variant_set_fits[RS_VARIANT_COUNT <= RS_VARIANT_SET_MAX ? 1 : -1];

/* Bytes of one input element. */
size_t rs_dtype_size(rs_dtype t);
/* Type the reduction accumulates in (float32 for the half types). */
rs_dtype rs_dtype_acc(rs_dtype t);
int rs_dtype_is_float(rs_dtype t);

const char *rs_dtype_name(rs_dtype t);
const char *rs_op_name(rs_op op);
const char *rs_finish_name(rs_finish f);
const char *rs_dist_name(rs_dist d);
const char *rs_cross_name(rs_cross c);
const char *rs_cache_name(rs_cache c);
/* "nccl", "ring", "tree", "peer_ring" ("?" outside them). */
const char *rs_ar_algo_name(rs_ar_algo a);

/* Name lookups: return the value, or -1 when the name is unknown. */
int rs_dtype_from_name(const char *s);
int rs_op_from_name(const char *s);
int rs_finish_from_name(const char *s);
int rs_dist_from_name(const char *s);
int rs_cross_from_name(const char *s);
int rs_cache_from_name(const char *s);
int rs_ar_algo_parse(const char *s);

#endif
