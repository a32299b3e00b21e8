/* Buffers: device memory grown as requests need it, the input and its CPU
 * reference kept while the request's input stays the same, and the buffers
 * a plan names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static void human_bytes(double b, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024.0 && u < 4) b /= 1024.0, u++;
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}
void rs_engine_free_buffers(rs_engine *e)
{
    if (!e->broken) {
        cudaFree(e->d_in);
        cudaFree(e->d_part[0]);
        cudaFree(e->d_part[1]);
        cudaFree(e->d_out);
        cudaFree(e->d_counter);
        cudaFree(e->d_temp);
        cudaFree(e->d_flush);
    }
    e->d_in = e->d_part[0] = e->d_part[1] = e->d_out = e->d_temp = e->d_flush = NULL;
    e->flush_bytes = 0;
    e->d_counter = NULL;
    e->d_in_bytes = e->part_bytes = e->temp_bytes = 0;
}

rs_status rs_engine_buffer(rs_engine *e, void **p, size_t *cap, size_t bytes, const char *what,
                           rs_error *err)
{
    if (*cap >= bytes && *p) return RS_OK;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    cudaError_t c = cudaMalloc(p, bytes ? bytes : 16);
    if (c != cudaSuccess) {
        *p = NULL;
        return rs_cuda_fail(e, err, c, what);
    }
    *cap = bytes;
    return RS_OK;
}

static rs_status check_fits(rs_engine *e, uint64_t n, rs_dtype t, size_t extra, rs_error *err)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        return RS_OK; /* cudaMalloc will say */
    }
    const double need = (double)n * rs_dtype_size(t) + (double)extra;
    const double have = (double)free_b + (double)e->d_in_bytes;
    if (need <= have) return RS_OK;
    char a[32], b[32], c[32];
    human_bytes(need, a, sizeof a);
    human_bytes(have, b, sizeof b);
    human_bytes((double)total_b, c, sizeof c);
    return rs_fail(err, RS_E_NOMEM, "out of device memory: n = %llu %s needs %s, %s of %s are free",
                   (unsigned long long)n, rs_dtype_name(t), a, b, c);
}

/* The host keeps a copy of the input for the reference and the CPU: refuse
 * what would not fit in its free memory rather than thrash or be killed. */
static rs_status check_host_memory(size_t bytes, rs_error *err)
{
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return RS_OK;
    const double avail = (double)pages * (double)page;
    if ((double)bytes <= 0.9 * avail) return RS_OK;
    char a[32], b[32];
    human_bytes((double)bytes, a, sizeof a);
    human_bytes(avail, b, sizeof b);
    return rs_fail(err, RS_E_NOMEM, "out of host memory: the input needs %s, %s are free", a, b);
}

/* The input, on the host and the device, and its reference. Cached: the
 * ladder reuses one input for every variant. */
rs_status rs_engine_input(rs_engine *e, const rs_request *r, int on_gpu, size_t extra,
                          rs_error *err)
{
    input_key k = {1, r->type, r->op == RS_PROD, r->dist, r->seed, r->n};
    const size_t bytes = (size_t)r->n * rs_dtype_size(r->type);
    const int same = e->key.valid && memcmp(&e->key, &k, sizeof k) == 0;
    if (on_gpu && !(same && e->d_in)) {
        rs_status st = check_fits(e, r->n, r->type, extra, err);
        if (st != RS_OK) return st;
    }
    if (!same) {
        rs_status st = check_host_memory(bytes, err);
        if (st != RS_OK) return st;
        e->key.valid = 0;
        memset(e->ref_valid, 0, sizeof e->ref_valid);
        free(e->h_in);
        e->h_in = malloc(bytes);
        if (!e->h_in) {
            char a[32];
            human_bytes((double)bytes, a, sizeof a);
            return rs_fail(err, RS_E_NOMEM, "out of host memory: the input needs %s", a);
        }
        rs_input_fill(e->h_in, r->type, r->op, r->dist, r->seed, r->n);
        if (e->d_in) { /* stale device copy */
            cudaFree(e->d_in);
            e->d_in = NULL;
            e->d_in_bytes = 0;
        }
        e->key = k;
    }
    if (!e->ref_valid[r->op]) {
        rs_reference_compute(e->h_in, r->type, r->op, r->n, &e->ref[r->op]);
        e->cpu_ms[r->op] = 0.0;
        e->ref_valid[r->op] = 1;
    }
    if (on_gpu && !e->d_in) {
        rs_status st =
            rs_engine_buffer(e, &e->d_in, &e->d_in_bytes, bytes, "allocating the input", err);
        if (st != RS_OK) return st;
        CUDA_TRY(e, err, cudaMemcpy(e->d_in, e->h_in, bytes, cudaMemcpyHostToDevice),
                 "copying the input to the device");
    }
    return RS_OK;
}
/* Buffers the plan needs: the result, a counter, CUB's temporary storage,
 * and two block-result buffers of the plan's size. */
rs_status rs_engine_work(rs_engine *e, const rs_request *r, const rs_plan *p, rs_error *err)
{
    const rs_variant_info *vi = p->vi;
    const size_t asz = rs_dtype_size(rs_dtype_acc(r->type));
    rs_status st;
    size_t cap_out = e->d_out ? 16 : 0, cap_cnt = e->d_counter ? 16 : 0;
    if ((st = rs_engine_buffer(e, &e->d_out, &cap_out, 16, "allocating the result", err)) ||
        (st = rs_engine_buffer(e, (void **)&e->d_counter, &cap_cnt, 16, "allocating a counter",
                               err)))
        return st;
    if (vi->flags & RS_VF_LIBRARY) {
        if (vi->group == RS_KG_CUB) {
            size_t need = 0;
            CUDA_TRY(e, err, rs_cub_temp_bytes(r->type, r->op, r->n, &need),
                     "sizing CUB's temporary storage");
            return rs_engine_buffer(e, &e->d_temp, &e->temp_bytes, need,
                                    "allocating CUB's temporary storage", err);
        }
        return RS_OK;
    }
    const size_t bytes = (p->part_elems ? p->part_elems : 1) * asz;
    size_t cap0 = e->part_bytes, cap1 = e->part_bytes;
    if ((st = rs_engine_buffer(e, &e->d_part[0], &cap0, bytes, "allocating block results", err)) ||
        (st = rs_engine_buffer(e, &e->d_part[1], &cap1, bytes, "allocating block results", err)))
        return st;
    e->part_bytes = cap0 < cap1 ? cap0 : cap1;
    if (e->h_part_bytes < bytes) {
        free(e->h_part);
        e->h_part = malloc(bytes);
        e->h_part_bytes = e->h_part ? bytes : 0;
        if (!e->h_part) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    }
    return RS_OK;
}
