/* The variant catalogue: what each step of the ladder is, teaches and accepts. */
#ifndef RS_CATALOGUE_H
#define RS_CATALOGUE_H

#include "error.h"
#include "request.h"
#include "rs_types.h"

enum {
    RS_VF_POW2_BLOCK = 1 << 0,    /* tree in shared memory: blockDim a power of two */
    RS_VF_WARP_BLOCK = 1 << 1,    /* whole warps: blockDim a multiple of 32 */
    RS_VF_GRID_STRIDE = 1 << 2,   /* takes --grid / --ept */
    RS_VF_FINISH = 1 << 3,        /* takes --finish */
    RS_VF_LIBRARY = 1 << 4,       /* CUB or thrust: picks its own launch shape */
    RS_VF_HOST = 1 << 5,          /* runs on the CPU */
    RS_VF_NO_PRODUCT = 1 << 6,    /* needs a hardware atomic for the operation */
    RS_VF_RACY = 1 << 7,          /* relies on behaviour Volta+ no longer guarantees */
    RS_VF_BLOCK_TEMPLATE = 1 << 8 /* block size is a template parameter */
};

typedef struct rs_variant_info {
    rs_variant id;
    const char *name;
    int step;            /* position in the ladder, from 1 */
    const char *idea;    /* one line */
    const char *change;  /* what this step changes, a short paragraph */
    const char *counter; /* the counter that shows it */
    unsigned flags;
    rs_finish default_finish;
    unsigned elems_per_thread; /* fixed elements per thread of the first pass; 0: grid-stride */
} rs_variant_info;

const rs_variant_info *rs_catalogue_get(rs_variant v);

/* Variant id by name, or -1. */
int rs_variant_from_name(const char *s);
const char *rs_variant_name(rs_variant v);

/* The name a result goes by: the variant's, or a user kernel's file name. */
const char *rs_request_name(const rs_request *r);
/* A row's name: the request's, with its GPUs and cross-GPU finish when it
 * spans several ("vectorized x2 p2p"), written to buf and returned. */
const char *rs_request_label(const rs_request *r, char *buf, size_t len);
/* Spread over the GPUs alike: one GPU each, or as many GPUs with the same
 * cross-GPU finish. */
int rs_request_same_spread(const rs_request *a, const rs_request *b);
/* 1 when a and b ask for the same measurement: variant, type, op, n, block
 * (unless the variant picks its own), finish, grid, ept, input, GPUs and
 * the kernel file. */
int rs_request_same_run(const rs_request *a, const rs_request *b);

/* The finish a request really uses (its own, or the variant's default);
 * RS_FINISH_AUTO for variants that have no finish step. */
rs_finish rs_catalogue_finish(const rs_request *r);

/* Is this configuration something the variant can run? Pure: no GPU needed.
 * On refusal err says why, in words a student understands. */
rs_status rs_catalogue_check(const rs_request *r, rs_error *err);

/* A copy of base for one variant of a ladder or sweep: knobs the variant does
 * not take (grid, ept, finish) fall back to automatic. */
void rs_request_for_variant(const rs_request *base, rs_variant v, rs_request *out);

#endif
