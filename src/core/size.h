/* Sizes as people write them, and back (size.c). */
#ifndef RS_SIZE_H
#define RS_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Number of elements: decimal, K/M/G suffix (powers of 1024), a^b, products
 * and sums: "16777216", "2^24", "16M", "1024*65535", "2^20+7". */
rs_status rs_parse_size(const char *s, uint64_t *out, rs_error *err);

/* Compact text for a size: "2^24", "1024*65535" is given as 67107840. */
void rs_format_size(uint64_t n, char *buf, size_t len);

#endif
