/* A recorded stall view, for the tests that read them from a recording of
 * a real GPU: variant v's of type t, or NULL where it was not recorded. */
#ifndef RS_TEST_STALL_VIEW_H
#define RS_TEST_STALL_VIEW_H

#include "core/request.h"
#include "formats/record.h"

static inline const rs_stalls *view(const rs_recording *rec, rs_variant v, rs_dtype t)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.type = t;
    r.stalls = 1;
    const rs_row *row = rs_recording_find(rec, &r, NULL);
    return row && row->status == RS_OK && rs_result_stalls(&row->result)->valid
               ? rs_result_stalls(&row->result)
               : NULL;
}

#endif
