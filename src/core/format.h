/* Numbers as people read them. Pure; shared by the CLI tables and the TUI. */
#ifndef RS_FORMAT_H
#define RS_FORMAT_H

#include <stddef.h>

/* One notation on every screen, table and sentence: UTF-8 symbols, each with
 * an ASCII twin used when the locale does not speak UTF-8. The program sets
 * it once (main from the locale, the explorer from its terminal). */
typedef enum {
    RS_SYM_TIMES,    /* speedups: "×2.20" / "x2.20" */
    RS_SYM_ARROW,    /* a change: "1,179,410 → 9,862" / "->" */
    RS_SYM_DASH,     /* a range: "90.5–91.7 µs" / "-" */
    RS_SYM_MICRO,    /* "µs" / "us" */
    RS_SYM_ELLIPSIS, /* text cut: "…" / "..." */
    RS_SYM_DOWN,     /* a counter fell: "▼" / "v" */
    RS_SYM_UP,       /* a counter rose: "▲" / "^" */
    RS_SYM_COUNT
} rs_sym_id;
void rs_notation_set(int utf8);
int rs_notation_utf8(void);
const char *rs_sym(rs_sym_id id);

/* 85.8 µs, 1.23 ms, 2.41 s ("us" unless utf8) */
void rs_fmt_time(double ms, int utf8, char *buf, size_t len);
/* 1,179,410 */
void rs_fmt_count(double v, char *buf, size_t len);
/* 13.8 M, 1.2 k, 950 */
void rs_fmt_si(double v, char *buf, size_t len);
/* 64.0 MiB: binary units, as memory sizes are (rates stay GB/s) */
void rs_fmt_bytes(double v, char *buf, size_t len);
/* Device memory in whole GiB, as the driver counts it: "140 GiB" (an H200). */
void rs_fmt_mem(double bytes, char *buf, size_t len);
/* ×1.27, ×184, ×0.0034 ("x" unless utf8); "-" for nothing meaningful */
void rs_fmt_ratio(double v, int utf8, char *buf, size_t len);
/* A figure's change, one notation everywhere (the room sets the decimals of
 * a percent): "=" within 0.5%, "▼99%" / "▲53%" ("▼98.9%" with decimals 1),
 * "▲×11" from twice up ("▲×11.2" with decimals), "▲ from 0" from nothing; "" without a base.
 * Returns -1 for a fall, +1 for a rise, 0 otherwise. */
int rs_fmt_change(double from, double to, int decimals, char *buf, size_t len);
/* GB/s as every screen and sentence writes it: whole from 10, else one
 * decimal (4.6), two below 1 (0.37); the number alone. */
const char *rs_fmt_gbps(double v, char *buf, size_t len);
/* A metric value in its unit: ns as time, bytes, %, lanes, counts. */
void rs_fmt_metric(double v, const char *unit, int utf8, char *buf, size_t len);

/* Columns of UTF-8 text (every symbol redscope prints is one column wide). */
int rs_text_cols(const char *s);
/* s padded to width columns (right-aligned when right), for tables: printf's
 * %10s counts bytes, and "µs" is two. Returns buf. */
const char *rs_pad(const char *s, int width, int right, char *buf, size_t len);

/* s cut to at most cols columns, ending in an ellipsis when cut (a
 * character is never split, nor an escape of outside text). Returns buf. */
const char *rs_fmt_cut(const char *s, int cols, char *buf, size_t len);

#endif
