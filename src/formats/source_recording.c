/* The recording source: answers a request with the last recorded row that
 * was measured with the same settings, preferring rows of the same command;
 * the cpu step, where it was not run, with the CPU time recorded beside
 * GPU runs of the same input; otherwise says plainly that it was not
 * recorded. */
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/ukernel.h"
#include "source_recording.h"

typedef struct recording_source {
    rs_source base;
    rs_recording own; /* loaded here; unused when borrowed */
    const rs_recording *rec;
} recording_source;

static const rs_device_info *rec_device(rs_source *s)
{
    return &((recording_source *)s->self)->rec->device;
}

static rs_status rec_prepare(rs_source *s, int need_gpu, rs_error *err)
{
    (void)s, (void)need_gpu, (void)err;
    return RS_OK;
}

/* Your kernel not recorded: a replay finds it by the path given to
 * --kernel, never reading the file, so the reason is the path; the
 * recording's own kernel files are named. */
static rs_status kernel_not_recorded(const rs_recording *rec, const rs_request *r, rs_error *err)
{
    char held[320] = "";
    size_t len = 0;
    int count = 0;
    for (int i = 0; i < rec->count; i++) {
        const char *k = rec->rows[i].result.req.kernel;
        if (rec->rows[i].result.req.variant != RS_V_KERNEL || !k[0]) continue;
        if (strcmp(k, r->kernel) == 0) return RS_OK; /* recorded with other settings */
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = rec->rows[j].result.req.variant == RS_V_KERNEL &&
                   strcmp(rec->rows[j].result.req.kernel, k) == 0;
        if (seen) continue;
        if (count++ < 6 && len < sizeof held)
            len += (size_t)snprintf(held + len, sizeof held - len, "%s%s", len ? ", " : "", k);
    }
    if (!count)
        return rs_fail(err, RS_E_USAGE,
                       RS_NOT_RECORDED
                       ": it holds no run of your own kernel, so none of %s "
                       "(a replay finds a kernel by the path given to --kernel; it does not read "
                       "the file)",
                       r->kernel);
    return rs_fail(err, RS_E_USAGE,
                   RS_NOT_RECORDED
                   ": no run of the kernel file %s (a replay finds a kernel by "
                   "the path given to --kernel, as it was recorded; it does not read the file); "
                   "it holds %s%s",
                   r->kernel, held, count > 6 ? ", ..." : "");
}

/* " (it holds first_add here with --finish atomic)": the settings a row of
 * the same variant, type, operation and n was recorded with where they
 * differ from r's; "" where there is none. */
static void near_miss(const rs_recording *rec, const rs_request *r, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = rec->count - 1; i >= 0 && !buf[0]; i--) {
        const rs_request *q = &rec->rows[i].result.req;
        if (rec->rows[i].status != RS_OK || q->variant != r->variant || q->type != r->type ||
            q->op != r->op || q->n != r->n || q->variant == RS_V_KERNEL)
            continue;
        char d[128] = "";
        size_t o = 0;
        const rs_finish fq = rs_catalogue_finish(q), fr = rs_catalogue_finish(r);
        if (q->block != r->block)
            o += (size_t)snprintf(d + o, sizeof d - o, " --block %u", q->block);
        if (fq != fr && o < sizeof d)
            o += (size_t)snprintf(d + o, sizeof d - o, " --finish %s", rs_finish_name(fq));
        if (q->grid != r->grid && o < sizeof d)
            o += (size_t)snprintf(d + o, sizeof d - o, " --grid %u", q->grid);
        if (q->ept != r->ept && o < sizeof d)
            o += (size_t)snprintf(d + o, sizeof d - o, " --ept %u", q->ept);
        if (q->dist != r->dist && o < sizeof d)
            o += (size_t)snprintf(d + o, sizeof d - o, " --input %s", rs_dist_name(q->dist));
        if (q->gpus != r->gpus && o < sizeof d)
            snprintf(d + o, sizeof d - o, " --gpus %u", q->gpus);
        if (d[0]) snprintf(buf, len, " (it holds %s here with%s)", rs_variant_name(q->variant), d);
    }
}

static rs_status rec_run(rs_source *s, const rs_request *r, const rs_ask *ask, rs_result *out,
                         rs_error *err)
{
    const rs_recording *rec = ((recording_source *)s->self)->rec;
    const rs_hooks *hooks = ask->hooks;
    if (ask->kind != RS_ASK_RUN && ask->kind != RS_ASK_COUNTERS_ONE &&
        ask->kind != RS_ASK_COUNTERS_MORE) {
        memset(out, 0, sizeof *out);
        out->req = *r;
        return rs_fail(err, RS_E_USAGE, "a recording of runs answers runs alone");
    }
    const rs_row *row = rs_recording_find(rec, r, ask->command);
    if (!row) row = rs_recording_find(rec, r, NULL);
    if (hooks && hooks->progress) hooks->progress(hooks->ctx, 1.0);
    if (row && row->status == RS_OK) {
        *out = row->result;
        out->req.gpus = r->gpus;       /* every GPU, or the count it came to: as asked */
        if (r->variant == RS_V_KERNEL) /* the file here: the version recorded, or said */
            out->uk.changed = rs_ukernel_changed(row->result.req.kernel, row->result.uk.hash);
        return RS_OK;
    }
    memset(out, 0, sizeof *out);
    out->req = *r;
    out->device = rec->device; /* the GPU it was recorded on, for the ladder's header */
    if (row) return rs_fail(err, row->status, "%s", row->error);
    if (r->variant == RS_V_KERNEL && kernel_not_recorded(rec, r, err) != RS_OK) return err->code;
    if (r->variant == RS_V_CPU && rs_cpu_from_rows(rec->rows, rec->count, r, out))
        return RS_OK; /* the CPU time measured beside GPU runs of this input */
    char label[96], near[160];
    near_miss(rec, r, near, sizeof near);
    return rs_fail(err, RS_E_USAGE,
                   RS_NOT_RECORDED ": %s with this configuration was not recorded%s",
                   rs_request_label(r, label, sizeof label), near);
}

static void rec_close(rs_source *s)
{
    recording_source *rs = s->self;
    rs_recording_free(&rs->own);
    free(rs);
}

static recording_source *make(void)
{
    recording_source *rs = calloc(1, sizeof *rs);
    if (!rs) return NULL;
    rs->base = (rs_source){"recording", rs, rec_device, rec_prepare, rec_run, rec_close};
    return rs;
}

rs_status rs_source_recording_open(const char *path, rs_source **out, rs_error *err)
{
    *out = NULL;
    recording_source *rs = make();
    if (!rs) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    const rs_status st = rs_recording_load(path, &rs->own, err);
    if (st != RS_OK) {
        free(rs);
        return st;
    }
    rs->rec = &rs->own;
    *out = &rs->base;
    return RS_OK;
}

rs_status rs_source_recording_borrow(const rs_recording *rec, rs_source **out, rs_error *err)
{
    *out = NULL;
    recording_source *rs = make();
    if (!rs) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rs->rec = rec;
    *out = &rs->base;
    return RS_OK;
}

const rs_recording *rs_source_recording_of(const rs_source *s)
{
    return s && s->close == rec_close ? ((const recording_source *)s->self)->rec : NULL;
}

void rs_source_close(rs_source *s)
{
    if (s) s->close(s);
}
