/* The plan: one reduction as the engine will issue it, made from the
 * request and two facts of the device alone. Pure: no CUDA call and no
 * device address (launches name their buffers; the engine binds addresses
 * when it runs them), so it is unit-tested without a GPU. The grid rule
 * lives here and nowhere else; the buffers are sized from the plan. */
#ifndef RS_PLAN_H
#define RS_PLAN_H

#include "core/catalogue.h"
#include "core/result.h"
#include "kernels/rs_kernels.h"

#define RS_GRID_LIMIT 2147483647ull

/* The buffers a launch reads and writes. */
typedef enum { RS_BUF_NONE, RS_BUF_INPUT, RS_BUF_OUT, RS_BUF_PART0, RS_BUF_PART1 } rs_buf;

typedef struct rs_plan_step {
    rs_launch l; /* shape, types, finish; no addresses, no stream */
    rs_buf in, out, partials;
} rs_plan_step;

typedef struct rs_plan_facts {
    int sm_count;              /* multiprocessors */
    int blocks_per_sm;         /* resident blocks of the first pass's kernel (occupancy) */
    const rs_variant_info *vi; /* a user kernel's description; NULL: the catalogue's */
} rs_plan_facts;

typedef struct rs_plan {
    const rs_variant_info *vi;
    rs_dtype type, acc;
    rs_op op;
    uint64_t n;
    rs_cache cache; /* the input's state before each issue (rs_engine_cache_prep) */
    int nsteps;
    rs_plan_step step[RS_MAX_LAUNCHES];
    const char *names[RS_MAX_LAUNCHES + 1];
    char name_buf[RS_MAX_LAUNCHES + 1][48];
    int init_first; /* result starts as the identity (atomic updates) */
    int cpu_finish; /* block results finished on the host */
    unsigned cpu_count;
    unsigned grid1;
    unsigned block1; /* blockDim of the first pass (vectorized may choose its own) */
    double ept;
    double chain;      /* longest dependent chain of operations, for the tolerance */
    size_t part_elems; /* block results: the size of each of the two buffers */
} rs_plan;

/* The blockDim r's first pass runs with: the request's, except where
 * vectorized chooses its own launch (its grid left automatic: no --grid,
 * no --ept), as measured on an H100 (docs/results.md): up to 4096 16-byte
 * vectors, one block of k_vectorized_one, one vector per thread up to 1024
 * vectors, then two, then four (every load issued first: one trip to DRAM,
 * no ticket to take); then 512 threads below 2^22 elements, 1024 from there
 * (fewer blocks take the single-pass ticket). */
unsigned rs_plan_block(const rs_request *r);

/* The plan of r (a GPU variant) on a device with these facts; a shape CUDA
 * cannot launch is refused with RS_E_USAGE and why. */
rs_status rs_plan_make(const rs_request *r, const rs_plan_facts *f, rs_plan *p, rs_error *err);

#endif
