/* The sizes of a sweep, from text: "2^10..2^28" (powers of two),
 * "1K..1G:4" (a step factor) or a list "1000,2^20,16M". */
#ifndef RS_SWEEP_RANGE_H
#define RS_SWEEP_RANGE_H

#include <stdint.h>

#include "error.h"

#define RS_SWEEP_MAX_SIZES 64

typedef struct rs_sweep_sizes {
    int count;
    uint64_t n[RS_SWEEP_MAX_SIZES];
} rs_sweep_sizes;

rs_status rs_sweep_parse(const char *text, rs_sweep_sizes *out, rs_error *err);

#endif
