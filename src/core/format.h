/* Numbers as people read them. Pure; shared by the CLI tables and the TUI. */
#ifndef RS_FORMAT_H
#define RS_FORMAT_H

#include <stddef.h>

/* 85.8 us, 1.23 ms, 2.41 s (micro sign when utf8) */
void rs_fmt_time(double ms, int utf8, char *buf, size_t len);
/* 1,179,410 */
void rs_fmt_count(double v, char *buf, size_t len);
/* 13.8 M, 1.2 k, 950 */
void rs_fmt_si(double v, char *buf, size_t len);
/* 67.1 MB (decimal units, as bandwidth is) */
void rs_fmt_bytes(double v, char *buf, size_t len);
/* x1.27, x184 */
void rs_fmt_ratio(double v, char *buf, size_t len);
/* A metric value in its unit: ns as time, bytes, %, lanes, counts. */
void rs_fmt_metric(double v, const char *unit, int utf8, char *buf, size_t len);

#endif
