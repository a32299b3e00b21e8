/* Facts of a result (and of a row) that every view needs, and the parts
 * results share once kept. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "format.h"
#include "result.h"
#include "row.h"

typedef struct kept_block {
    struct kept_block *next;
    max_align_t align[]; /* the bytes kept */
} kept_block;

static kept_block *kept_blocks;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void free_kept_blocks(void)
{
    pthread_mutex_lock(&kept_lock);
    while (kept_blocks) {
        kept_block *k = kept_blocks;
        kept_blocks = k->next;
        free(k);
    }
    pthread_mutex_unlock(&kept_lock);
}

const void *rs_keep(const void *p, size_t n)
{
    static int registered;
    if (!p || !n) return NULL;
    kept_block *k = malloc(sizeof *k + n);
    if (!k) return NULL;
    memcpy(k->align, p, n);
    pthread_mutex_lock(&kept_lock);
    if (!registered) registered = atexit(free_kept_blocks) == 0;
    k->next = kept_blocks;
    kept_blocks = k;
    pthread_mutex_unlock(&kept_lock);
    return k->align;
}

void rs_metrics_keep_launches(rs_metrics *m, const rs_launches *l)
{
    const int n = l->n < 0 ? 0 : l->n > RS_MAX_LAUNCHES ? RS_MAX_LAUNCHES : l->n;
    m->launch = rs_keep(l->at, sizeof l->at[0] * (size_t)n);
    m->nlaunch = m->launch ? n : 0;
}

void rs_metrics_launches(const rs_metrics *m, rs_launches *out)
{
    memset(out, 0, sizeof *out);
    out->n = m->launch && m->nlaunch > 0 ? m->nlaunch : 0;
    if (out->n > RS_MAX_LAUNCHES) out->n = RS_MAX_LAUNCHES;
    if (out->n) memcpy(out->at, m->launch, sizeof out->at[0] * (size_t)out->n);
}

int rs_row_not_recorded(const rs_row *row)
{
    return row->status != RS_OK &&
           strncmp(row->error, RS_NOT_RECORDED, sizeof RS_NOT_RECORDED - 1) == 0;
}

const rs_stalls *rs_result_stalls(const rs_result *r)
{
    static const rs_stalls none; /* requested 0: nothing asked, nothing shown */
    return r && r->stalls ? r->stalls : &none;
}

double rs_result_input_bytes(const rs_result *r)
{
    return (double)r->req.n * (double)rs_dtype_size(r->req.type);
}

int rs_result_fits_l2(const rs_result *r)
{
    const double g = r->multi.gpus > 1 ? r->multi.gpus : 1;
    return r->device.l2_bytes > 0 && rs_result_input_bytes(r) / g <= (double)r->device.l2_bytes;
}

rs_ceiling rs_result_ceiling(const rs_result *r, double *gbps)
{
    const double g = r->multi.gpus > 1 ? r->multi.gpus : 1;
    const rs_device_info *d = &r->device;
    *gbps = 0.0;
    if (r->req.variant == RS_V_CPU) return RS_CEIL_NONE;
    if (r->req.cache == RS_CACHE_WARM && rs_result_fits_l2(r)) {
        if (!(d->l2_gbps > 0.0) || !isfinite(d->l2_gbps)) return RS_CEIL_NONE;
        *gbps = g * d->l2_gbps;
        return RS_CEIL_L2;
    }
    if (!(d->measured_gbps > 0.0) || !isfinite(d->measured_gbps)) return RS_CEIL_NONE;
    *gbps = g * d->measured_gbps;
    return RS_CEIL_DRAM;
}

const char *rs_ceiling_key(rs_ceiling c)
{
    return c == RS_CEIL_DRAM ? "dram_read" : c == RS_CEIL_L2 ? "l2_read" : "";
}

const char *rs_ceiling_label(rs_ceiling c)
{
    return c == RS_CEIL_DRAM ? "DRAM" : c == RS_CEIL_L2 ? "L2" : "";
}

const char *rs_ceiling_phrase(rs_ceiling c)
{
    return c == RS_CEIL_L2 ? "the L2 read" : "the streaming read";
}

double rs_result_pct_ceiling(const rs_result *r)
{
    double ceil = 0.0;
    rs_result_ceiling(r, &ceil);
    return ceil > 0.0 && isfinite(r->gbps) ? 100.0 * r->gbps / ceil : 0.0;
}

void rs_ceiling_words(const rs_result *r, char *buf, size_t len)
{
    double gbps = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &gbps);
    char in[32], l2[32];
    rs_fmt_bytes(rs_result_input_bytes(r), in, sizeof in);
    rs_fmt_bytes((double)r->device.l2_bytes, l2, sizeof l2);
    if (c == RS_CEIL_NONE)
        snprintf(buf, len, "%s", "");
    else if (r->req.cache != RS_CACHE_WARM)
        snprintf(buf, len,
                 "the DRAM read, %.0f GB/s measured (cold: the L2 flushed before each run)", gbps);
    else if (c == RS_CEIL_L2)
        snprintf(buf, len,
                 "the L2 read, %.0f GB/s measured (warm: the input, %s, read into the %s L2 "
                 "before each run)",
                 gbps, in, l2);
    else
        snprintf(buf, len,
                 "the DRAM read, %.0f GB/s measured (warm, but the input, %s, outgrows the %s "
                 "L2: it comes from DRAM)",
                 gbps, in, l2);
}

rs_ceiling rs_rows_ceiling(const rs_row *rows, int count, const rs_result **first)
{
    rs_ceiling c = RS_CEIL_NONE;
    const rs_result *one = NULL;
    for (int i = 0; i < count; i++) {
        double g = 0.0;
        if (rows[i].status != RS_OK || rows[i].result.req.variant == RS_V_CPU) continue;
        const rs_ceiling k = rs_result_ceiling(&rows[i].result, &g);
        if (!one) one = &rows[i].result, c = k;
        if (k != c) c = RS_CEIL_NONE;
    }
    if (first) *first = one;
    return c;
}

unsigned rs_result_block(const rs_result *r)
{
    return r->block ? r->block : r->req.block;
}

int rs_result_chose_block(const rs_result *r)
{
    return r->block && r->block != r->req.block;
}
