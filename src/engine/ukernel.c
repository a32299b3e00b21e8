/* User kernels in the engine: the file read and checked, compiled by NVRTC
 * for this GPU once per (version, type, operation, finish), loaded as a
 * CUDA library, and launched for the plan's steps like a built-in kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvtools/compile.h"
#include "core/cache.h"
#include "nvtools/cubin_lines.h"
#include "internal.h"

typedef struct uk_module {
    uint64_t hash;
    rs_dtype type;
    rs_op op;
    int kfin;
    cudaLibrary_t lib;
    cudaKernel_t kernel;
    void *g_partials, *g_counter; /* the prelude's globals, for the single pass */
    void *set_partials, *set_counter;
    rs_kernel_build build;
    void *cubin; /* kept for the stall view's line mapping */
    size_t cubin_len;
    rs_line_table *lines; /* read from it on the first sample */
    int lines_failed;
    double ms;
    unsigned long used; /* the use clock when last asked for: the oldest goes first */
} uk_module;

#define UK_MODULES 24

struct rs_ukernels {
    char path[RS_NOTE_MAX];
    char *text;
    size_t len;
    uint64_t hash;
    rs_ukernel_spec spec;
    rs_variant_info vi;
    char name[96];
    int n;
    uk_module m[UK_MODULES];
    unsigned long clock;
    double fresh_ms; /* compile time of the modules compiled since rs_uk_prepare */
};

static void unload(uk_module *m)
{
    cudaLibraryUnload(m->lib);
    free(m->cubin);
    m->cubin = NULL;
    rs_line_table_free(m->lines);
    m->lines = NULL;
    m->lines_failed = 0;
}

static void drop_modules(rs_ukernels *u)
{
    for (int i = 0; i < u->n; i++) unload(&u->m[i]);
    u->n = 0;
}

void rs_uk_free(rs_ukernels *u)
{
    if (!u) return;
    drop_modules(u);
    free(u->text);
    free(u);
}

/* Room for one more module: the one used longest ago is unloaded (a plan's
 * modules were all asked for just now, so none of them goes). */
static void make_room(rs_ukernels *u)
{
    if (u->n < UK_MODULES) return;
    int old = 0;
    for (int i = 1; i < u->n; i++)
        if (u->m[i].used < u->m[old].used) old = i;
    unload(&u->m[old]);
    u->m[old] = u->m[--u->n];
}

/* The module for these parameters, compiled and loaded on first use. */
static rs_status module_for(rs_engine *e, rs_dtype t, rs_op op, int kfin, uk_module **out,
                            rs_error *err)
{
    rs_ukernels *u = e->uk;
    for (int i = 0; i < u->n; i++)
        if (u->m[i].hash == u->hash && u->m[i].type == t && u->m[i].op == op &&
            u->m[i].kfin == kfin) {
            u->m[i].used = ++u->clock;
            *out = &u->m[i];
            return RS_OK;
        }
    make_room(u);
    rs_compiled c;
    const int arch = e->info.cc_major * 10 + e->info.cc_minor;
    rs_status st = rs_compile_bounded(u->path, u->text, t, op, kfin, arch, &c, err);
    if (st != RS_OK) {
        rs_compiled_free(&c);
        return st;
    }
    uk_module *m = &u->m[u->n];
    memset(m, 0, sizeof *m);
    m->hash = u->hash;
    m->type = t;
    m->op = op;
    m->kfin = kfin;
    m->build = c.build;
    m->ms = c.ms;
    m->used = ++u->clock;
    u->fresh_ms += c.ms;
    cudaError_t ce = cudaLibraryLoadData(&m->lib, c.cubin, NULL, NULL, 0, NULL, NULL, 0);
    m->cubin = c.cubin;
    m->cubin_len = c.cubin_len;
    c.cubin = NULL;
    rs_compiled_free(&c);
    if (ce != cudaSuccess) {
        free(m->cubin);
        return rs_cuda_fail(e, err, ce, "loading the compiled kernel");
    }
    ce = cudaLibraryGetKernel(&m->kernel, m->lib, m->build.entry);
    size_t bytes = 0;
    struct cudaFuncAttributes fa;
    if (ce == cudaSuccess && cudaFuncGetAttributes(&fa, (const void *)m->kernel) == cudaSuccess) {
        m->build.regs = fa.numRegs; /* the loaded kernel's own facts */
        m->build.smem = (int)fa.sharedSizeBytes;
        m->build.stack = (int)fa.localSizeBytes;
    }
    if (ce == cudaSuccess) ce = cudaLibraryGetGlobal(&m->g_partials, &bytes, m->lib, "rs_partials");
    if (ce == cudaSuccess) ce = cudaLibraryGetGlobal(&m->g_counter, &bytes, m->lib, "rs_counter");
    if (ce != cudaSuccess) {
        unload(m);
        return rs_cuda_fail(e, err, ce, "finding the kernel in the compiled file");
    }
    u->n++;
    *out = m;
    return RS_OK;
}

rs_status rs_uk_prepare(rs_engine *e, const rs_request *r, const rs_variant_info **vi,
                        rs_error *err)
{
    if (!e->uk && !(e->uk = calloc(1, sizeof *e->uk)))
        return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs_ukernels *u = e->uk;
    char *text = NULL;
    size_t len = 0;
    rs_status st = rs_ukernel_read(r->kernel, &text, &len, err);
    if (st != RS_OK) return st;
    free(u->text);
    u->text = text;
    u->len = len;
    u->hash = rs_ukernel_hash(text, len);
    snprintf(u->path, sizeof u->path, "%s", r->kernel);
    if ((st = rs_ukernel_parse(r->kernel, text, &u->spec, err)) != RS_OK ||
        (st = rs_ukernel_check(r->kernel, &u->spec, r, err)) != RS_OK)
        return st;
    rs_ukernel_info(r->kernel, &u->spec, &u->vi, u->name, sizeof u->name);
    u->fresh_ms = 0.0;
    *vi = &u->vi;
    return RS_OK;
}

static int kfin_of(rs_kfinish f)
{
    return f == RS_KFIN_ATOMIC ? 1 : f == RS_KFIN_SINGLE_PASS ? 2 : 0;
}

static size_t smem_of(const rs_launch *l)
{
    return (l->block < 64 ? 64 : l->block) * rs_dtype_size(rs_dtype_acc(l->in_type));
}

rs_status rs_uk_blocks_per_sm(rs_engine *e, const rs_request *r, rs_kfinish fin, int *blocks,
                              rs_error *err)
{
    uk_module *m = NULL;
    rs_status st = module_for(e, r->type, r->op, kfin_of(fin), &m, err);
    if (st != RS_OK) return st;
    const rs_launch l = {RS_V_KERNEL, r->type, r->op, NULL,     r->n, NULL,
                         NULL,        NULL,    1,     r->block, fin,  e->stream};
    CUDA_TRY(e, err,
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)m->kernel,
                                                           (int)r->block, smem_of(&l)),
             "asking for the kernel's occupancy");
    return RS_OK;
}

rs_status rs_uk_compile_plan(rs_engine *e, const rs_plan *p, rs_result *res, rs_error *err)
{
    for (int i = 0; i < p->nsteps; i++) {
        uk_module *m = NULL;
        const rs_launch *l = &p->step[i].l;
        rs_status st = module_for(e, l->in_type, l->op, kfin_of(l->finish), &m, err);
        if (st != RS_OK) return st;
        if (i == 0) {
            rs_ukernel_result *k = &res->uk;
            k->hash = e->uk->hash;
            snprintf(k->entry, sizeof k->entry, "%s", m->build.entry);
            k->regs = m->build.regs;
            k->smem = m->build.smem;
            k->spill_st = m->build.spill_st;
            k->spill_ld = m->build.spill_ld;
            k->local = m->build.stack;
            k->arch = e->info.cc_major * 10 + e->info.cc_minor;
        }
    }
    res->uk.compile_ms = e->uk->fresh_ms; /* 0: every module was compiled before */
    return RS_OK;
}

cudaError_t rs_uk_launch(rs_engine *e, const rs_launch *l)
{
    rs_ukernels *u = e->uk;
    const int kfin = kfin_of(l->finish);
    uk_module *m = NULL;
    for (int i = 0; u && i < u->n && !m; i++)
        if (u->m[i].hash == u->hash && u->m[i].type == l->in_type && u->m[i].op == l->op &&
            u->m[i].kfin == kfin)
            m = &u->m[i];
    if (!m) return cudaErrorInvalidDeviceFunction;
    cudaError_t c = cudaSuccess;
    if (kfin == 2 && (m->set_partials != l->partials || m->set_counter != l->counter)) {
        c = cudaMemcpy(m->g_partials, &l->partials, sizeof(void *), cudaMemcpyHostToDevice);
        if (c == cudaSuccess)
            c = cudaMemcpy(m->g_counter, &l->counter, sizeof(void *), cudaMemcpyHostToDevice);
        if (c != cudaSuccess) return c;
        m->set_partials = l->partials;
        m->set_counter = l->counter;
    }
    const void *in = l->in;
    void *out = l->out;
    unsigned long long n = l->n;
    void *args[] = {&in, &out, &n};
    return cudaLaunchKernel((const void *)m->kernel, (dim3){l->grid, 1, 1}, (dim3){l->block, 1, 1},
                            args, smem_of(l), l->stream);
}

int rs_uk_chain(rs_engine *e, const char *function, uint64_t pc, rs_src_frame *frames, int max,
                rs_error *err)
{
    rs_ukernels *u = e->uk;
    for (int i = 0; u && i < u->n; i++) {
        uk_module *m = &u->m[i];
        if (!m->cubin || strcmp(m->build.entry, function) != 0) continue;
        if (m->lines_failed) {
            rs_fail(err, RS_E_IO, "%s has no line table", function);
            return 0;
        }
        if (!m->lines && !(m->lines = rs_line_table_load(m->cubin, m->cubin_len, function, err))) {
            m->lines_failed = 1; /* said once; not read again for every PC */
            return 0;
        }
        const int n = rs_line_table_chain(m->lines, pc, frames, max);
        if (!n)
            rs_fail(err, RS_E_IO, "%s + 0x%llx: no source line", function, (unsigned long long)pc);
        return n;
    }
    rs_fail(err, RS_E_IO, "%s is not one of your kernels", function);
    return 0;
}

int rs_uk_save_cubin(rs_engine *e, const char *function, char *path, size_t len)
{
    const rs_ukernels *u = e->uk;
    char dir[RS_NOTE_MAX];
    for (int i = 0; u && i < u->n && len; i++) {
        const uk_module *m = &u->m[i];
        if (!m->cubin || strcmp(m->build.entry, function) != 0 || !rs_cache_dir(dir, sizeof dir))
            continue;
        char tmp[RS_NOTE_MAX + 64];
        const int w = snprintf(path, len, "%s/kernel-%016llx-%d-%d-%d.cubin", dir,
                               (unsigned long long)m->hash, (int)m->type, (int)m->op, m->kfin);
        snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
        FILE *f = w > 0 && (size_t)w < len ? fopen(tmp, "wb") : NULL;
        int ok = f && fwrite(m->cubin, 1, m->cubin_len, f) == m->cubin_len;
        if (f && fclose(f) != 0) ok = 0;
        if (ok && rename(tmp, path) != 0) ok = 0;
        if (f && !ok) remove(tmp);
        if (ok) return 1;
    }
    if (len) path[0] = '\0';
    return 0;
}

const char *rs_uk_text(const rs_engine *e)
{
    return e->uk ? e->uk->text : NULL;
}

const char *rs_uk_path(const rs_engine *e)
{
    return e->uk && e->uk->path[0] ? e->uk->path : NULL;
}
