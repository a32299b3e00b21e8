/* A recording as a source (core/source.h): every request answered with
 * the row the recording holds for it, or "not in the recording". */
#ifndef RS_SOURCE_RECORDING_H
#define RS_SOURCE_RECORDING_H

#include "record.h"
#include "core/source.h"

/* Loaded from path (owned), or borrowed (rec must outlive the source). */
rs_status rs_source_recording_open(const char *path, rs_source **out, rs_error *err);
rs_status rs_source_recording_borrow(const rs_recording *rec, rs_source **out, rs_error *err);
/* The recording a recording source reads; NULL for any other source. */
const rs_recording *rs_source_recording_of(const rs_source *s);

#endif
