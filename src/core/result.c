/* Facts of a result (and of a row) that every view needs, and the parts
 * results share once kept. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
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

unsigned rs_result_block(const rs_result *r)
{
    return r->block ? r->block : r->req.block;
}

int rs_result_chose_block(const rs_result *r)
{
    return r->block && r->block != r->req.block;
}
