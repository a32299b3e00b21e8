/* User kernels' sources in recordings: {"command": "kernel", "path",
 * "hash", "source"}, written before the first row that ran that version,
 * so a replay (the Why panel, the CLI) shows the code that was measured. */
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "core/ukernel.h"

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
    if (row->status != RS_OK || r->req.variant != RS_V_KERNEL || !r->uk.hash) return RS_OK;
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

rs_status rs_recording_add_kernel(rs_recording *rec, const cJSON *j, rs_error *err)
{
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(j, "path");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(j, "hash");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source");
    if (!cJSON_IsString(path) || !cJSON_IsString(hash) || !cJSON_IsString(src))
        return rs_fail(err, RS_E_USAGE, "a kernel line needs path, hash and source");
    rs_recorded_kernel *k = realloc(rec->kernels, sizeof *k * (size_t)(rec->kernel_count + 1));
    if (!k) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->kernels = k;
    k = &rec->kernels[rec->kernel_count];
    snprintf(k->path, sizeof k->path, "%s", path->valuestring);
    k->hash = strtoull(hash->valuestring, NULL, 16);
    k->source = strdup(src->valuestring);
    if (!k->source) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->kernel_count++;
    return RS_OK;
}

const char *rs_recording_kernel_source(const rs_recording *rec, uint64_t hash)
{
    for (int i = 0; rec && i < rec->kernel_count; i++)
        if (rec->kernels[i].hash == hash) return rec->kernels[i].source;
    return NULL;
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
