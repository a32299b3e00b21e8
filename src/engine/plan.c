#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double log2u(unsigned x)
{
    return log2((double)x);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

#define RS_VEC_ONE_BLOCK 4096u /* 16-byte vectors vectorized reads with one block */

static int vec_auto(const rs_request *r)
{
    return rs_variant_has(r->variant, RS_VF_VECTOR) && !r->grid && !r->ept;
}

static uint64_t vec_count(const rs_request *r)
{
    return ceil_div(r->n, 16u / (unsigned)rs_dtype_size(r->type));
}

unsigned rs_plan_block(const rs_request *r)
{
    if (!vec_auto(r)) return r->block;
    const uint64_t vecs = vec_count(r);
    if (vecs <= RS_VEC_ONE_BLOCK) { /* k_vectorized_one: 1, 2 or 4 vectors a thread */
        const uint64_t per = vecs <= 1024 ? 1 : vecs <= 2048 ? 2 : 4;
        const uint64_t warps = ceil_div(ceil_div(vecs, per), 32);
        return (unsigned)(warps ? 32 * warps : 32);
    }
    return r->n < ((uint64_t)1 << 22) ? 512u : 1024u;
}

/* The first pass's grid of a grid-stride variant: the user's, or one full
 * wave of resident blocks, never more blocks than there is work for. */
static unsigned grid_stride_grid(const rs_request *r, const rs_plan_facts *f)
{
    uint64_t g;
    if (vec_auto(r) && vec_count(r) <= RS_VEC_ONE_BLOCK) {
        g = 1;
    } else if (r->grid) {
        g = r->grid;
    } else if (r->ept) {
        g = ceil_div(r->n, (uint64_t)r->block * r->ept);
    } else {
        const int per_sm = f->blocks_per_sm > 0 ? f->blocks_per_sm : 1;
        const uint64_t wave = (uint64_t)(f->sm_count > 0 ? f->sm_count : 1) * (unsigned)per_sm;
        const rs_variant_info *vi = rs_catalogue_get(r->variant);
        unsigned per_iter = vi && vi->per_iter ? vi->per_iter : 1;
        if (vi && !vi->per_iter) per_iter = 16 / (unsigned)rs_dtype_size(r->type);
        g = ceil_div(r->n, (uint64_t)r->block * per_iter);
        if (g > wave) g = wave;
    }
    if (g < 1) g = 1;
    if (g > RS_GRID_LIMIT) g = RS_GRID_LIMIT;
    return (unsigned)g;
}

/* A launch's label: the kernel function it runs, or a user kernel's file. */
static const char *step_name(const rs_plan *p, const rs_request *r, const rs_launch *l)
{
    if (r->variant == RS_V_KERNEL) return p->vi->name;
    if (rs_variant_has(l->variant, RS_VF_VECTOR) &&
        rs_vectorized_one_block(l->n, 16u / (unsigned)rs_dtype_size(l->in_type), l->grid, l->block))
        return "k_vectorized_one";
    return rs_kernel_name(l->variant);
}

static void add_step(rs_plan *p, const rs_plan_step *l, const char *label)
{
    p->step[p->nsteps] = *l;
    snprintf(p->name_buf[p->nsteps], sizeof p->name_buf[0], "%s", label);
    p->names[p->nsteps] = p->name_buf[p->nsteps];
    p->nsteps++;
}

/* The relaunch finish: the same kernel on the block results, ping-ponging
 * between the two block-result buffers, until one value is left. */
static rs_status add_relaunch(const rs_request *r, rs_plan_step l, uint64_t g, double tree,
                              rs_plan *p, rs_error *err)
{
    const int stride = (p->vi->flags & RS_VF_GRID_STRIDE) != 0;
    l.out = g == 1 ? RS_BUF_OUT : RS_BUF_PART0;
    add_step(p, &l, step_name(p, r, &l.l));
    int buf = 0;
    while (g > 1) {
        if (p->nsteps == RS_MAX_LAUNCHES)
            return rs_fail(err, RS_E_USAGE, "too many passes: use a larger blockDim");
        const uint64_t m = g;
        g = stride ? 1 : ceil_div(m, (uint64_t)r->block * p->vi->elems_per_thread);
        rs_plan_step next = l;
        next.l.in_type = p->acc;
        next.in = buf ? RS_BUF_PART1 : RS_BUF_PART0;
        next.l.n = m;
        next.l.grid = (unsigned)g;
        next.out = g == 1 ? RS_BUF_OUT : buf ? RS_BUF_PART0 : RS_BUF_PART1;
        buf ^= 1;
        p->chain += ceil((double)m / ((double)g * r->block)) + tree;
        char label[48];
        snprintf(label, sizeof label, "%s (pass %d)", step_name(p, r, &next.l), p->nsteps + 1);
        add_step(p, &next, label);
    }
    return RS_OK;
}

static rs_status plan_kernels(const rs_request *r, const rs_plan_facts *f, rs_plan *p,
                              rs_error *err)
{
    const rs_variant_info *vi = p->vi;
    rs_plan_step l = {
        {r->variant, r->type, r->op, NULL, r->n, NULL, NULL, NULL, 0, r->block, RS_KFIN_STORE, 0},
        RS_BUF_INPUT,
        RS_BUF_OUT,
        RS_BUF_NONE};
    const int stride = (vi->flags & RS_VF_GRID_STRIDE) != 0;
    uint64_t g;
    if (stride) {
        g = grid_stride_grid(r, f);
    } else {
        g = ceil_div(r->n, (uint64_t)r->block * vi->elems_per_thread);
        if (g > RS_GRID_LIMIT)
            return rs_fail(err, RS_E_USAGE,
                           "%s at blockDim %u needs %llu blocks for n = %llu; CUDA allows "
                           "2^31-1: use a larger blockDim or a grid-stride variant",
                           vi->name, r->block, (unsigned long long)g, (unsigned long long)r->n);
    }
    p->grid1 = (unsigned)g;
    p->ept = (double)r->n / ((double)g * r->block);
    p->part_elems = (size_t)g;
    l.l.grid = (unsigned)g;
    const double tree = log2u(r->block) + 6.0;
    p->chain = ceil(p->ept) + tree;

    if (vi->flags & RS_VF_EACH_ATOMIC) {
        p->init_first = 1;
        p->chain = (double)r->n;
        add_step(p, &l, step_name(p, r, &l.l));
        return RS_OK;
    }
    const rs_finish fin = r->finish != RS_FINISH_AUTO ? r->finish : vi->default_finish;
    switch (fin) {
    case RS_FINISH_ATOMIC:
        p->init_first = 1;
        l.l.finish = RS_KFIN_ATOMIC;
        p->chain += g;
        add_step(p, &l, step_name(p, r, &l.l));
        return RS_OK;
    case RS_FINISH_SINGLE_PASS:
        l.l.finish = RS_KFIN_SINGLE_PASS;
        l.partials = RS_BUF_PART0;
        p->chain += ceil((double)g / r->block) + tree;
        add_step(p, &l, step_name(p, r, &l.l));
        return RS_OK;
    case RS_FINISH_CPU:
        l.out = RS_BUF_PART0;
        p->cpu_finish = 1;
        p->cpu_count = (unsigned)g;
        p->chain += g;
        add_step(p, &l, step_name(p, r, &l.l));
        return RS_OK;
    default: break;
    }
    return add_relaunch(r, l, g, tree, p, err);
}

rs_status rs_plan_make(const rs_request *req, const rs_plan_facts *f, rs_plan *p, rs_error *err)
{
    memset(p, 0, sizeof *p);
    rs_request shaped = *req;
    shaped.block = rs_plan_block(req);
    const rs_request *r = &shaped;
    p->block1 = r->block;
    p->vi = f->vi ? f->vi : rs_catalogue_get(r->variant);
    p->type = r->type;
    p->acc = rs_dtype_acc(r->type);
    p->op = r->op;
    p->n = r->n;
    p->cache = r->cache;
    if (p->vi->flags & RS_VF_LIBRARY) {
        /* CUB's per-thread work is not ours to see; assume at least 4096 threads. */
        p->chain = ceil((double)r->n / 4096.0) + 64.0;
        p->names[0] = rs_kernel_name(r->variant);
        return RS_OK;
    }
    return plan_kernels(r, f, p, err);
}
