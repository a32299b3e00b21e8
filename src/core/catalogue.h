/* The variant catalogue: what each step of the ladder is, teaches and accepts,
 * from the one list of variants (variants.h). */
#ifndef RS_CATALOGUE_H
#define RS_CATALOGUE_H

#include "error.h"
#include "request.h"
#include "rs_types.h"

typedef struct rs_variant_info {
    rs_variant id;
    const char *name;
    int step; /* position in the ladder, from 1: its place in the list */
    rs_kernel_group group;
    const char *kernel;  /* the kernel function a launch runs ("k_sequential") */
    const char *idea;    /* one line */
    const char *change;  /* what this step changes, a short paragraph */
    const char *counter; /* the counter that shows it */
    unsigned flags;
    rs_finish default_finish;
    unsigned elems_per_thread; /* fixed elements per thread of the first pass; 0: grid-stride */
    unsigned per_iter;         /* elements per grid-stride iteration; 0: one 16-byte vector */
} rs_variant_info;

const rs_variant_info *rs_catalogue_get(rs_variant v);

/* Whether v's row carries every bit of flags (RS_VF_*); 0 for no variant. */
int rs_variant_has(rs_variant v, unsigned flags);
/* The variants whose rows carry every bit of flags. */
rs_variant_set rs_variant_set_with(unsigned flags);

/* The first variant whose row carries every bit of flags, or -1. */
int rs_variant_first(unsigned flags);

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
