/* The recorder: a recording written line by line as rows are made, its
 * header first; a check's findings and a user kernel's source (once per
 * version, before the first row that ran it) as lines of their own; the
 * runner's hook. Nothing is left behind where nothing ran. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/ukernel.h"
#include "record.h"

#ifndef RS_VERSION
#define RS_VERSION "0"
#endif

static rs_status write_line(rs_recorder *rec, cJSON *j, rs_error *err);

rs_status rs_record_line(rs_recorder *rec, cJSON *j, rs_error *err)
{
    return write_line(rec, j, err);
}

static rs_status write_line(rs_recorder *rec, cJSON *j, rs_error *err)
{
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    const int ok = s && fprintf(rec->f, "%s\n", s) > 0 && fflush(rec->f) == 0;
    const int e = errno;
    free(s);
    if (ok) return RS_OK;
    rec->failed = 1;
    return rs_fail(err, RS_E_IO, "cannot write recording '%s': %s", rec->path,
                   s ? strerror(e) : "out of host memory");
}

rs_status rs_record_open(rs_recorder *rec, const char *path, const rs_device_info *dev,
                         rs_error *err)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->path, sizeof rec->path, "%s", path);
    const rs_status st = rs_out_open(&rec->out, "recording", path, err);
    if (st != RS_OK) return st;
    rec->f = rec->out.f;
    cJSON *h = cJSON_CreateObject();
    cJSON_AddNumberToObject(h, "redscope_recording", 1);
    cJSON_AddStringToObject(h, "version", RS_VERSION);
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cJSON_AddStringToObject(h, "date", date);
    cJSON_AddItemToObject(h, "device", rs_device_to_json(dev));
    if (write_line(rec, h, err) == RS_OK) return RS_OK;
    rs_out_abort(&rec->out); /* not even the header: nothing is left behind */
    rec->f = NULL;
    return err->code;
}

rs_status rs_record_row(rs_recorder *rec, const rs_row *row, const char *command, rs_error *err)
{
    if (!rec->f || rec->failed) return RS_OK;
    if (rs_row_not_recorded(row)) return RS_OK; /* a replay's "not in the recording": no run */
    if (row->status == RS_OK && row->result.req.variant == RS_V_CPU &&
        row->result.cpu_from == RS_CPU_BESIDE)
        return RS_OK; /* the cpu step answered from the times beside: no run of its own */
    /* a user kernel's source goes first, once per version; a run that
     * failed names the version it began with, so a replay shows its source */
    static rs_row failed; /* one recorder writes at a time */
    if (row->status != RS_OK && row->result.req.variant == RS_V_KERNEL && !row->result.uk.hash &&
        rec->pending) {
        failed = *row;
        failed.result.uk.hash = rec->pending_hash;
        row = &failed;
    }
    rs_status st = rs_record_kernel_source(rec, row, err);
    if (st != RS_OK) return st;
    cJSON *j = rs_row_to_json(row);
    cJSON_AddStringToObject(j, "command", command);
    st = write_line(rec, j, err);
    if (st == RS_OK) rec->rows++;
    return st;
}

rs_status rs_record_close(rs_recorder *rec, rs_error *err)
{
    free(rec->pending);
    rec->pending = NULL;
    if (!rec->f) return RS_OK;
    rec->f = NULL;
    if (rec->failed) { /* the write error was said */
        rs_out_abort(&rec->out);
        return rs_fail(err, RS_E_IO, "recording '%s' not written", rec->path);
    }
    if (rec->rows == 0) { /* nothing ran: an existing file stays as it was */
        rs_out_abort(&rec->out);
        rec->empty = 1;
        return RS_OK;
    }
    fsync(fileno(rec->out.f));
    return rs_out_commit(&rec->out, err);
}

rs_status rs_record_check(rs_recorder *rec, const rs_request *req, const rs_check_report *r,
                          rs_error *err)
{
    if (!rec->f || rec->failed) return RS_OK;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "command", "check");
    cJSON_AddItemToObject(j, "request", rs_request_to_json(req));
    cJSON_AddItemToObject(j, "check", rs_check_to_json(r));
    const rs_status st = rs_record_line(rec, j, err);
    if (st == RS_OK) rec->rows++;
    return st;
}

void rs_record_kernel_before(rs_recorder *rec, const rs_request *req)
{
    free(rec->pending);
    rec->pending = NULL;
    size_t len = 0;
    rs_error sub;
    if (!rec->f || req->variant != RS_V_KERNEL ||
        rs_ukernel_read(req->kernel, &rec->pending, &len, &sub) != RS_OK)
        return;
    rec->pending_hash = rs_ukernel_hash(rec->pending, len);
}

rs_status rs_record_kernel_source(rs_recorder *rec, const rs_row *row, rs_error *err)
{
    const rs_result *r = &row->result;
    if (r->req.variant != RS_V_KERNEL || !r->uk.hash) return RS_OK;
    for (int i = 0; i < rec->kernel_count; i++)
        if (rec->kernel_hash[i] == r->uk.hash) return RS_OK;
    char *text = NULL;
    size_t len = 0;
    rs_error sub;
    if (rec->pending && rec->pending_hash == r->uk.hash) { /* as it was when the run began */
        text = rec->pending;
        rec->pending = NULL;
    } else if (rs_ukernel_read(r->req.kernel, &text, &len, &sub) != RS_OK ||
               rs_ukernel_hash(text, len) != r->uk.hash) {
        free(text); /* neither is the version that ran: not recorded */
        return RS_OK;
    }
    cJSON *j = cJSON_CreateObject();
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)r->uk.hash);
    cJSON_AddStringToObject(j, "command", "kernel");
    cJSON_AddStringToObject(j, "path", r->req.kernel);
    cJSON_AddStringToObject(j, "hash", hash);
    cJSON_AddStringToObject(j, "source", text);
    free(text);
    if (rec->kernel_count < (int)(sizeof rec->kernel_hash / sizeof rec->kernel_hash[0]))
        rec->kernel_hash[rec->kernel_count++] = r->uk.hash;
    return rs_record_line(rec, j, err);
}

static void hook_before(void *ctx, const rs_request *r)
{
    rs_record_kernel_before(ctx, r);
}

static rs_status hook_row(void *ctx, const rs_row *row, const char *command, rs_error *err)
{
    return rs_record_row(ctx, row, command, err);
}

rs_runner_record rs_recorder_hook(rs_recorder *rec)
{
    return (rs_runner_record){hook_before, hook_row, rec};
}
