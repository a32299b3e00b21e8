#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int notation_utf8;

void rs_notation_set(int utf8)
{
    notation_utf8 = utf8 != 0;
}

int rs_notation_utf8(void)
{
    return notation_utf8;
}

const char *rs_sym(rs_sym_id id)
{
    static const char *const sym[RS_SYM_COUNT][2] = {
        [RS_SYM_TIMES] = {"x", "\xc3\x97"},          /* × */
        [RS_SYM_ARROW] = {"->", "\xe2\x86\x92"},     /* → */
        [RS_SYM_DASH] = {"-", "\xe2\x80\x93"},       /* – */
        [RS_SYM_MICRO] = {"us", "\xc2\xb5s"},        /* µs */
        [RS_SYM_ELLIPSIS] = {"...", "\xe2\x80\xa6"}, /* … */
        [RS_SYM_DOWN] = {"v", "\xe2\x96\xbc"},       /* ▼ */
        [RS_SYM_UP] = {"^", "\xe2\x96\xb2"},         /* ▲ */
    };
    return (unsigned)id < RS_SYM_COUNT ? sym[id][notation_utf8] : "";
}

void rs_fmt_time(double ms, int utf8, char *buf, size_t len)
{
    if (!(ms >= 0.0) || isinf(ms))
        snprintf(buf, len, "-");
    else if (ms < 1.0)
        snprintf(buf, len, ms < 0.1 ? "%.1f %s" : "%.0f %s", ms * 1e3, utf8 ? "\xc2\xb5s" : "us");
    else if (ms < 1000.0)
        snprintf(buf, len, ms < 10.0 ? "%.2f ms" : ms < 100.0 ? "%.1f ms" : "%.0f ms", ms);
    else
        snprintf(buf, len, "%.2f s", ms / 1e3);
}

void rs_fmt_count(double v, char *buf, size_t len)
{
    char digits[32];
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    const size_t nd = strlen(digits);
    size_t o = 0;
    if (v < 0 && o + 1 < len) buf[o++] = '-';
    for (size_t i = 0; i < nd && o + 1 < len; i++) {
        if (i > 0 && (nd - i) % 3 == 0 && o + 1 < len) buf[o++] = ',';
        if (o + 1 < len) buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

void rs_fmt_si(double v, char *buf, size_t len)
{
    const double a = fabs(v);
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (a >= 1e12)
        snprintf(buf, len, "%.1f T", v / 1e12);
    else if (a >= 1e9)
        snprintf(buf, len, "%.1f G", v / 1e9);
    else if (a >= 1e6)
        snprintf(buf, len, "%.1f M", v / 1e6);
    else if (a >= 1e4)
        snprintf(buf, len, "%.1f k", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

void rs_fmt_bytes(double v, char *buf, size_t len)
{
    /* one unit for bytes, as memory and the all-reduce's sizes: binary (an
     * input of 2^24 int32 is 64.0 MiB); rates stay GB/s, 10^9 bytes a second */
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (fabs(v) >= 1024.0 && u < 4) v /= 1024.0, u++;
    snprintf(buf, len, u == 0 ? "%.0f %s" : "%.1f %s", v, unit[u]);
}

void rs_fmt_ratio(double v, int utf8, char *buf, size_t len)
{
    const char *x = utf8 ? "\xc3\x97" : "x";
    if (!(v > 0.0) || !isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (v < 0.1) { /* a tenth or less reads as its inverse: /294, not x0.0034 */
        x = utf8 ? "\xc3\xb7" : "/";
        v = 1.0 / v;
    }
    snprintf(buf, len, v < 10.0 ? "%s%.2f" : v < 100.0 ? "%s%.1f" : "%s%.0f", x, v);
}

const char *rs_fmt_gbps(double v, char *buf, size_t len)
{
    /* two significant digits below 0.1: 0.00039, not 0.00 */
    snprintf(buf, len,
             v >= 10.0              ? "%.0f"
             : v >= 1.0             ? "%.1f"
             : v >= 0.1 || v <= 0.0 ? "%.2f"
                                    : "%.2g",
             v);
    return buf;
}

void rs_fmt_mem(double bytes, char *buf, size_t len)
{
    snprintf(buf, len, "%.0f GiB", bytes / 1073741824.0);
}

void rs_fmt_metric(double v, const char *unit, int utf8, char *buf, size_t len)
{
    if (strcmp(unit, "ns") == 0)
        rs_fmt_time(v / 1e6, utf8, buf, len);
    else if (strcmp(unit, "bytes") == 0)
        rs_fmt_bytes(v, buf, len);
    else if (strcmp(unit, "%") == 0)
        snprintf(buf, len, "%.1f%%", v);
    else if (strcmp(unit, "GB/s") == 0)
        snprintf(buf, len, "%.0f GB/s", v);
    else if (strcmp(unit, "lanes") == 0)
        snprintf(buf, len, "%.1f/32", v);
    else
        rs_fmt_count(v, buf, len);
}

int rs_text_cols(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80) n++;
    return n;
}

const char *rs_pad(const char *s, int width, int right, char *buf, size_t len)
{
    const int fill = width - rs_text_cols(s);
    if (fill <= 0)
        snprintf(buf, len, "%s", s);
    else if (right)
        snprintf(buf, len, "%*s%s", fill, "", s);
    else
        snprintf(buf, len, "%s%*s", s, fill, "");
    return buf;
}

/* A cut at byte `at` of escaped text (core/text.c: \n, \t, \xHH, \uHHHH)
 * moves back to the escape it would split, so "\u202e" never reads "\u202". */
static size_t escape_start(const char *s, size_t at)
{
    for (size_t b = at; b > 0 && at - b < 6; b--) {
        if (s[b - 1] != '\\') continue;
        const char k = s[b];
        const size_t n = k == 'x' ? 4 : k == 'u' ? 6 : (k == 'n' || k == 't') ? 2 : 1;
        return b - 1 + n > at ? b - 1 : at;
    }
    return at;
}

const char *rs_fmt_cut(const char *s, int cols, char *buf, size_t len)
{
    if (!len) return buf;
    if (rs_text_cols(s) <= cols) {
        snprintf(buf, len, "%s", s);
        return buf;
    }
    const char *dots = rs_sym(RS_SYM_ELLIPSIS);
    const int keep = cols - rs_text_cols(dots);
    size_t at = 0;
    for (int c = 0; s[at] && c < keep; c++) /* one character: its lead byte, then its tail */
        for (at++; ((unsigned char)s[at] & 0xc0) == 0x80; at++) {
        }
    at = escape_start(s, at);
    while (at && s[at - 1] == ' ') at--;
    snprintf(buf, len, "%.*s%s", (int)at, s, keep > 0 ? dots : "");
    return buf;
}

int rs_fmt_change(double from, double to, int decimals, char *buf, size_t len)
{
    if (len) buf[0] = '\0';
    if (!isfinite(from) || !isfinite(to) || from < 0.0) return 0;
    if (from == to || (from > 0.0 && fabs(to / from - 1.0) < 0.005)) {
        snprintf(buf, len, "=");
        return 0;
    }
    if (from == 0.0) {
        snprintf(buf, len, "%s from 0", rs_sym(RS_SYM_UP));
        return 1;
    }
    if (to / from >= 2.0) { /* decimals 0: the narrow form, "▲×11" */
        char x[32];
        if (decimals > 0)
            rs_fmt_ratio(to / from, rs_notation_utf8(), x, sizeof x);
        else
            snprintf(x, sizeof x, "%s%.0f", rs_sym(RS_SYM_TIMES), to / from);
        snprintf(buf, len, "%s%s", rs_sym(RS_SYM_UP), x);
        return 1;
    }
    const double pct = 100.0 * (to / from - 1.0);
    /* a fall that is not to zero never reads as 100%: 99.9% keeps its digit */
    while (pct < 0 && to != 0.0 && decimals < 3 &&
           round(fabs(pct) * pow(10, decimals)) >= 100.0 * pow(10, decimals))
        decimals++;
    snprintf(buf, len, "%s%.*f%%", rs_sym(pct < 0 ? RS_SYM_DOWN : RS_SYM_UP), decimals, fabs(pct));
    return pct < 0 ? -1 : 1;
}
