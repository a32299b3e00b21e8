/* Whether bytes are text: NUL bytes and UTF-8, for the files read as text. */
#include "text.h"

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

void rs_text_scrub(char *s, int keep_lines)
{
    unsigned char *r = (unsigned char *)s, *w = r;
    for (; r && *r; r++) {
        const int c1 = r[0] == 0xc2 && r[1] >= 0x80 && r[1] <= 0x9f;
        const int kept = keep_lines && (*r == '\n' || *r == '\t');
        if (keep_lines && r[0] == '\r' && r[1] == '\n') continue; /* CRLF: a line end */
        if (c1 || ((*r < 0x20 || *r == 0x7f) && !kept)) {
            *w++ = '?';
            r += c1; /* both bytes of a C1 control */
        } else {
            *w++ = *r;
        }
    }
    if (w) *w = '\0';
}
