/* Checks (run --check) in recordings: written as one line each, kept apart
 * from the rows when loaded, found again for the same configuration, so a
 * replay shows what compute-sanitizer found as the GPU did. */
#include <stdlib.h>
#include <string.h>

#include "record.h"

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

rs_status rs_recording_add_check(rs_recording *rec, const cJSON *j, rs_error *err)
{
    rs_recorded_check c;
    memset(&c, 0, sizeof c);
    rs_status st =
        rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"), &c.req, err);
    if (st == RS_OK)
        st = rs_check_from_json(cJSON_GetObjectItemCaseSensitive(j, "check"), &c.report, err);
    if (st != RS_OK) return st;
    rs_recorded_check *more = realloc(rec->checks, sizeof *more * ((size_t)rec->check_count + 1));
    if (!more) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->checks = more;
    rec->checks[rec->check_count++] = c;
    return RS_OK;
}

const rs_recorded_check *rs_recording_find_check(const rs_recording *rec, const rs_request *req,
                                                 rs_check_kind kind)
{
    for (int i = rec->check_count - 1; i >= 0; i--) {
        const rs_recorded_check *c = &rec->checks[i];
        if (c->report.kind == kind && c->req.variant == req->variant &&
            rs_request_same_run(&c->req, req))
            return c;
    }
    return NULL;
}
