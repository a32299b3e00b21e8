/* Whether bytes are text: NUL bytes and UTF-8, for the files read as text. */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t rs_utf8_len(const char *c, size_t n)
{
    const unsigned char *s = (const unsigned char *)c;
    if (n == 0) return 0;
    if (s[0] < 0x80) return 1;
    size_t k;
    unsigned lo = 0x80, hi = 0xbf;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        k = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        k = 3;
        if (s[0] == 0xe0) lo = 0xa0;
        if (s[0] == 0xed) hi = 0x9f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        k = 4;
        if (s[0] == 0xf0) lo = 0x90;
        if (s[0] == 0xf4) hi = 0x8f;
    } else
        return 0;
    if (n < k || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return k;
}

const char *rs_text_problem(const char *buf, size_t len, size_t *at)
{
    const unsigned char *s = (const unsigned char *)buf;
    for (size_t i = 0; i < len;) {
        const size_t k = s[i] ? rs_utf8_len(buf + i, len - i) : 0;
        if (!k) {
            if (at) *at = i;
            return s[i] ? "bytes that are not UTF-8" : "a NUL byte";
        }
        i += k;
    }
    return NULL;
}

int rs_text_line(const char *buf, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset; i++) line += buf[i] == '\n';
    return line;
}

/* The code point of the UTF-8 character of k bytes at s. */
static unsigned code_point(const unsigned char *s, size_t k)
{
    static const unsigned lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    unsigned c = s[0] & lead_mask[k];
    for (size_t i = 1; i < k; i++) c = (c << 6) | (s[i] & 0x3f);
    return c;
}

int rs_text_bidi(unsigned c)
{
    return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069);
}

int rs_text_invisible(unsigned c)
{
    return c == 0x00ad || c == 0x180e || (c >= 0x200b && c <= 0x200d) ||
           (c >= 0x2060 && c <= 0x2064) || c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) ||
           (c >= 0xe0000 && c <= 0xe007f);
}

/* Whether the character of k bytes at s (k from rs_utf8_len; 0: not
 * UTF-8) is shown as it is on one line: printable, not C1, not bidi, not
 * invisible (a zero-width space, a byte-order mark, a tag: text that reads
 * as other text), not the line and paragraph separators (U+2028, U+2029:
 * a line break). */
static int as_is(const char *s, size_t k)
{
    const unsigned char c = (unsigned char)s[0];
    if (k == 1) return c >= 0x20 && c != 0x7f;
    if (k == 0) return 0;
    const unsigned cp = code_point((const unsigned char *)s, k);
    return !(cp >= 0x80 && cp <= 0x9f) && !rs_text_bidi(cp) && !rs_text_invisible(cp) &&
           cp != 0x2028 && cp != 0x2029;
}

void rs_text_copy(char *dst, size_t len, const char *src)
{
    if (!len) return;
    const size_t n = src ? strlen(src) : 0;
    size_t keep = 0;
    for (size_t k; keep < n; keep += k) { /* whole characters that fit */
        k = rs_utf8_len(src + keep, n - keep);
        if (!k) k = 1; /* a byte that is not UTF-8: itself (escaped where shown) */
        if (keep + k >= len) break;
    }
    memcpy(dst, src ? src : "", keep);
    dst[keep] = '\0';
}

int rs_text_plain(const char *s)
{
    const size_t n = s ? strlen(s) : 0;
    for (size_t i = 0, k; i < n; i += k)
        if (!as_is(s + i, k = rs_utf8_len(s + i, n - i))) return 0;
    return 1;
}

/* Append to out (used bytes *w of len) when it fits whole; 0 when full (a
 * cut never splits an escape or a character). */
static int put(char *out, size_t len, size_t *w, const char *piece, size_t n)
{
    if (*w + n >= len) return 0;
    memcpy(out + *w, piece, n);
    *w += n;
    return 1;
}

const char *rs_text_safe(const char *s, int keep_lines, char *out, size_t len)
{
    if (!len) return out;
    size_t w = 0;
    const size_t n = s ? strlen(s) : 0;
    for (size_t i = 0, k; i < n; i += k ? k : 1) {
        const unsigned char c = (unsigned char)s[i];
        k = rs_utf8_len(s + i, n - i);
        char esc[16];
        const char *piece = esc;
        size_t size = 0;
        if (keep_lines && c == '\r' && s[i + 1] == '\n') /* CRLF: a line end */
            continue;
        if (as_is(s + i, k) || (k == 1 && keep_lines && (c == '\n' || c == '\t')))
            piece = s + i, size = k;
        else if (k == 1 && (c == '\t' || c == '\n')) /* one field, one line */
            piece = c == '\t' ? "\\t" : "\\n", size = 2;
        else if (k <= 1) /* a control character, or a byte that is not UTF-8 */
            size = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
        else { /* C1, a bidirectional control, an invisible character */
            const unsigned cp = code_point((const unsigned char *)s + i, k);
            size = (size_t)snprintf(esc, sizeof esc, cp > 0xffff ? "\\U%08x" : "\\u%04x", cp);
        }
        if (!put(out, len, &w, piece, size)) break;
    }
    out[w] = '\0';
    return out;
}

void rs_text_scrub(char *s, int keep_lines)
{
    if (!s) return;
    const size_t n = strlen(s);
    char *safe = malloc(6 * n + 1);
    if (!safe) {
        for (char *p = s; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
        return;
    }
    rs_text_safe(s, keep_lines, safe, n + 1); /* what fits in place; escapes kept whole */
    memcpy(s, safe, strlen(safe) + 1);
    free(safe);
}

char *rs_text_safe_dup(const char *s, int keep_lines)
{
    const size_t n = s ? strlen(s) : 0;
    char *out = malloc(6 * n + 1);
    if (out) rs_text_safe(s, keep_lines, out, 6 * n + 1);
    return out;
}

const char *rs_path_base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "";
}
