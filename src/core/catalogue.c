#include "catalogue.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

static const rs_variant_info catalogue[RS_VARIANT_COUNT] = {
/* clang-format off */
#define RS_X_INFO(id, name, group, kernel, markers, flags, finish, ept, per_iter, idea, change,    \
                  counter)                                                                         \
    {RS_V_##id, name, RS_V_##id + 1, group, kernel, idea, change, counter, flags, finish, ept,     \
     per_iter},
    /* clang-format on */
    RS_VARIANTS(RS_X_INFO)
#undef RS_X_INFO
};

const rs_variant_info *rs_catalogue_get(rs_variant v)
{
    return ((unsigned)v < RS_VARIANT_COUNT) ? &catalogue[v] : NULL;
}

int rs_variant_has(rs_variant v, unsigned flags)
{
    const rs_variant_info *vi = rs_catalogue_get(v);
    return vi && (vi->flags & flags) == flags;
}

rs_variant_set rs_variant_set_with(unsigned flags)
{
    rs_variant_set set = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if ((catalogue[v].flags & flags) == flags) set |= RS_VARIANT_BIT(v);
    return set;
}

/* The first variant whose row carries flags and none of without. */
static const rs_variant_info *first_with(unsigned flags, unsigned without)
{
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if ((catalogue[v].flags & flags) == flags && !(catalogue[v].flags & without))
            return &catalogue[v];
    return NULL;
}

int rs_variant_first(unsigned flags)
{
    const rs_variant_info *vi = first_with(flags, 0);
    return vi ? (int)vi->id : -1;
}

/* "a, b and c": the variants whose rows carry flags, but `but`. */
static const char *names_with(unsigned flags, rs_variant but, char *buf, size_t len)
{
    int count = 0, total = 0;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        total += v != (int)but && (catalogue[v].flags & flags) == flags;
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; v < RS_VARIANT_COUNT && used < len; v++) {
        if (v == (int)but || (catalogue[v].flags & flags) != flags) continue;
        const char *sep = count == 0 ? "" : count == total - 1 ? " and " : ", ";
        used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, catalogue[v].name);
        count++;
    }
    return buf;
}

int rs_variant_from_name(const char *s)
{
    for (int v = 0; s && v < RS_VARIANT_COUNT; v++)
        if (strcmp(catalogue[v].name, s) == 0) return v;
    return -1;
}

const char *rs_variant_name(rs_variant v)
{
    const rs_variant_info *vi = rs_catalogue_get(v);
    return vi ? vi->name : "?";
}

rs_finish rs_catalogue_finish(const rs_request *r)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    if (!vi || !(vi->flags & RS_VF_FINISH)) return RS_FINISH_AUTO;
    return r->finish == RS_FINISH_AUTO ? vi->default_finish : r->finish;
}

static rs_status check_block(const rs_variant_info *vi, unsigned b, rs_error *err)
{
    if (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST)) return RS_OK;
    const unsigned lo = RS_BLOCK_MIN, hi = RS_BLOCK_MAX; /* the field table's range */
    if (b < lo || b > hi)
        return rs_fail(err, RS_E_USAGE,
                       "blockDim %u is out of range: CUDA blocks here are %u to %u threads", b, lo,
                       hi);
    if ((vi->flags & RS_VF_POW2_BLOCK) && (b & (b - 1)))
        return rs_fail(err, RS_E_USAGE,
                       "%s needs a power-of-two blockDim (%u..%u): its tree halves the active "
                       "threads each step; %u is not a power of two",
                       vi->name, lo, hi, b);
    if ((vi->flags & RS_VF_WARP_BLOCK) && (b % 32))
        return rs_fail(err, RS_E_USAGE,
                       "%s needs a blockDim that is a multiple of 32: it reduces whole warps "
                       "with shuffles; %u leaves a partial warp",
                       vi->name, b);
    return RS_OK;
}

const char *rs_request_name(const rs_request *r)
{
    if (r->variant != RS_V_KERNEL || !r->kernel[0]) return rs_variant_name(r->variant);
    return rs_path_base(r->kernel);
}

/* What a run over several GPUs cannot do: each GPU's partial must stay on
 * its GPU for the cross-GPU finish, and PC sampling watches one GPU. */
static rs_status check_gpus(const rs_variant_info *vi, const rs_request *r, rs_error *err)
{
    if (r->gpus == 1) return RS_OK;
    if (r->gpus > RS_GPUS_MAX)
        return rs_fail(err, RS_E_USAGE, "--gpus %u: from 1 to %d (0: every GPU)", r->gpus,
                       RS_GPUS_MAX);
    if ((unsigned)r->cross >= RS_CROSS_COUNT)
        return rs_fail(err, RS_E_USAGE, "unknown cross-GPU finish");
    if (vi->flags & RS_VF_HOST)
        return rs_fail(err, RS_E_USAGE, "cpu runs on the host: --gpus splits a GPU variant");
    if (vi->id == RS_V_KERNEL)
        return rs_fail(err, RS_E_USAGE, "your own kernel runs on one GPU: leave --gpus at 1");
    if ((vi->flags & RS_VF_HOST_RESULT) || r->finish == RS_FINISH_CPU) {
        /* a library that ends on the host: the one beside it that does not */
        const rs_variant_info *alt = first_with(RS_VF_LIBRARY, RS_VF_HOST_RESULT);
        const int lib = (vi->flags & RS_VF_HOST_RESULT) != 0;
        return rs_fail(err, RS_E_USAGE,
                       "%s ends on the host, and a run over several GPUs combines partials "
                       "left on each GPU: choose %s",
                       lib ? vi->kernel : "finish cpu", lib && alt ? alt->name : "another finish");
    }
    if (r->device != 0)
        return rs_fail(err, RS_E_USAGE, "--gpus N runs on GPUs 0 to N-1: leave --device at 0");
    if (r->stalls)
        return rs_fail(err, RS_E_USAGE, "PC sampling watches one GPU: drop --stalls or --gpus");
    return RS_OK;
}

const char *rs_request_label(const rs_request *r, char *buf, size_t len)
{
    if (r->gpus == 1) {
        snprintf(buf, len, "%s", rs_request_name(r));
        return buf;
    }
    char g[24]; /* "on 2 GPUs", not "x2" (a speedup's sign) */
    snprintf(g, sizeof g, r->gpus ? "on %u GPUs" : "on every GPU", r->gpus);
    snprintf(buf, len, "%s %s, %s", rs_request_name(r), g, rs_cross_name(r->cross));
    return buf;
}

int rs_request_same_spread(const rs_request *a, const rs_request *b)
{
    return a->gpus == b->gpus && (a->gpus == 1 || a->cross == b->cross);
}

rs_status rs_catalogue_check(const rs_request *r, rs_error *err)
{
    const rs_variant_info *vi = rs_catalogue_get(r->variant);
    if (!vi) return rs_fail(err, RS_E_USAGE, "unknown variant");
    if (r->variant == RS_V_KERNEL && !r->kernel[0])
        return rs_fail(err, RS_E_USAGE,
                       "the kernel variant runs your own .cu file: give it with --kernel FILE.cu "
                       "(start from conf/kernels/template.cu)");
    if ((unsigned)r->type >= RS_DTYPE_COUNT || (unsigned)r->op >= RS_OP_COUNT)
        return rs_fail(err, RS_E_USAGE, "unknown type or operation");
    if (r->n < 1 || r->n > RS_N_MAX) return rs_fail(err, RS_E_USAGE, "n must be from 1 to 2^40");
    if ((vi->flags & RS_VF_NO_PRODUCT) && r->op == RS_PROD)
        return rs_fail(err, RS_E_USAGE,
                       "%s cannot do product: GPUs have no atomic multiply, and a "
                       "compare-and-swap loop per element would serialise all n updates with "
                       "retries (use finish=atomic on a tree variant: one update per block)",
                       vi->name);
    rs_status st = check_block(vi, r->block, err);
    if (st != RS_OK) return st;
    char takers[160];
    if (!(vi->flags & RS_VF_GRID_STRIDE) && (r->grid || r->ept))
        return rs_fail(err, RS_E_USAGE, "%s takes no --grid or --ept: %s; they apply to %s",
                       vi->name,
                       vi->flags & RS_VF_LIBRARY   ? "the library picks its own launch"
                       : vi->flags & RS_VF_HOST    ? "it runs on the CPU"
                       : vi->elems_per_thread == 2 ? "each thread loads exactly two elements"
                                                   : "each thread loads exactly one element",
                       names_with(RS_VF_GRID_STRIDE, RS_V_KERNEL, takers, sizeof takers));
    if (r->grid && r->ept)
        return rs_fail(err, RS_E_USAGE,
                       "give --grid or --ept, not both: each one decides the other");
    if (!(vi->flags & RS_VF_FINISH) && r->finish != RS_FINISH_AUTO)
        return rs_fail(err, RS_E_USAGE, "%s has no finish step to choose: %s", vi->name,
                       vi->flags & RS_VF_EACH_ATOMIC ? "every thread already updates the one result"
                       : vi->flags & RS_VF_HOST      ? "it runs on the CPU"
                                                     : "the library finishes the reduction itself");
    return check_gpus(vi, r, err);
}

void rs_request_for_variant(const rs_request *base, rs_variant v, rs_request *out)
{
    *out = *base;
    out->variant = v;
    const rs_variant_info *vi = rs_catalogue_get(v);
    if (!(vi->flags & RS_VF_GRID_STRIDE)) out->grid = out->ept = 0;
    if (!(vi->flags & RS_VF_FINISH)) out->finish = RS_FINISH_AUTO;
    if (v != RS_V_KERNEL) out->kernel[0] = '\0'; /* the file belongs to the kernel's row */
}

/* A request as the run it asks for: knobs the variant does not take are
 * automatic (rs_request_for_variant), a library's or the host's blockDim
 * is its own, the finish is the one used, one GPU has no cross finish. */
static void as_run(const rs_request *r, rs_request *out)
{
    rs_request_for_variant(r, r->variant, out);
    const rs_variant_info *vi = rs_catalogue_get(out->variant);
    if (vi && (vi->flags & (RS_VF_LIBRARY | RS_VF_HOST))) out->block = 0;
    out->finish = rs_catalogue_finish(out);
    if (out->gpus == 1) out->cross = RS_CROSS_HOST;
}

int rs_request_same_run(const rs_request *a, const rs_request *b)
{
    if (a->variant != b->variant) return 0;
    rs_request x, y;
    as_run(a, &x);
    as_run(b, &y);
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        if ((f->ident == RS_ID_CONFIG || f->ident == RS_ID_ROW) && !rs_field_same(&x, &y, f))
            return 0;
    }
    return 1;
}
