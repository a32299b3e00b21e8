/* Element counts as people write them: 16777216, 2^24, 16M, 1024*65535. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "request.h"

/* Parentheses and '^' nest by recursion: bounded, or a long argument
 * ("((((...", "2^2^2^..." up to 128 KiB) overflows the stack (fuzz_size
 * found it). No size needs more than a few levels. */
#define SIZE_DEPTH_MAX 64

typedef struct {
    const char *s;
    const char *p;
    rs_error *err;
    int failed;
    int depth;
} size_parser;

static int parse_expr(size_parser *ps, uint64_t *v);

static void skip_space(size_parser *ps)
{
    while (isspace((unsigned char)*ps->p)) ps->p++;
}

static int fail(size_parser *ps, const char *what)
{
    if (!ps->failed)
        rs_fail(ps->err, RS_E_USAGE, "bad size '%s': %s (write 16777216, 2^24, 16M or 1024*65535)",
                ps->s, what);
    ps->failed = 1;
    return -1;
}

static int parse_atom(size_parser *ps, uint64_t *v)
{
    skip_space(ps);
    if (*ps->p == '(') {
        ps->p++;
        if (++ps->depth > SIZE_DEPTH_MAX) return fail(ps, "nested too deeply");
        if (parse_expr(ps, v)) return -1;
        ps->depth--;
        skip_space(ps);
        if (*ps->p != ')') return fail(ps, "missing ')'");
        ps->p++;
        return 0;
    }
    if (!isdigit((unsigned char)*ps->p)) return fail(ps, "expected a number");
    uint64_t x = 0;
    while (isdigit((unsigned char)*ps->p)) {
        if (__builtin_mul_overflow(x, 10u, &x) ||
            __builtin_add_overflow(x, (uint64_t)(*ps->p - '0'), &x))
            return fail(ps, "number too large");
        ps->p++;
    }
    unsigned shift = 0;
    switch (*ps->p) {
    case 'k':
    case 'K': shift = 10; break;
    case 'm':
    case 'M': shift = 20; break;
    case 'g':
    case 'G': shift = 30; break;
    case 't':
    case 'T': shift = 40; break;
    default: break;
    }
    if (shift) {
        ps->p++;
        if (*ps->p == 'i') ps->p++;
        if (x > (UINT64_MAX >> shift)) return fail(ps, "number too large");
        x <<= shift;
    }
    *v = x;
    return 0;
}

static int parse_power(size_parser *ps, uint64_t *v)
{
    uint64_t base;
    if (parse_atom(ps, &base)) return -1;
    skip_space(ps);
    if (*ps->p != '^' && !(ps->p[0] == '*' && ps->p[1] == '*')) {
        *v = base;
        return 0;
    }
    ps->p += (*ps->p == '^') ? 1 : 2;
    uint64_t e;
    if (++ps->depth > SIZE_DEPTH_MAX) return fail(ps, "nested too deeply");
    if (parse_power(ps, &e)) return -1; /* right associative */
    ps->depth--;
    uint64_t r = 1;
    for (uint64_t i = 0; i < e; i++) {
        if (__builtin_mul_overflow(r, base, &r)) return fail(ps, "number too large");
        if (r == 0 || r == 1) break; /* 0^e and 1^e settle at once */
    }
    *v = r;
    return 0;
}

static int parse_term(size_parser *ps, uint64_t *v)
{
    if (parse_power(ps, v)) return -1;
    for (;;) {
        skip_space(ps);
        if (!(ps->p[0] == '*' && ps->p[1] != '*')) return 0;
        ps->p++;
        uint64_t r;
        if (parse_power(ps, &r)) return -1;
        if (__builtin_mul_overflow(*v, r, v)) return fail(ps, "number too large");
    }
}

static int parse_expr(size_parser *ps, uint64_t *v)
{
    if (parse_term(ps, v)) return -1;
    for (;;) {
        skip_space(ps);
        char op = *ps->p;
        if (op != '+' && op != '-') return 0;
        ps->p++;
        uint64_t r;
        if (parse_term(ps, &r)) return -1;
        if (op == '+' ? __builtin_add_overflow(*v, r, v) : __builtin_sub_overflow(*v, r, v))
            return fail(ps, op == '+' ? "number too large" : "negative");
    }
}

rs_status rs_parse_size(const char *s, uint64_t *out, rs_error *err)
{
    size_parser ps = {s ? s : "", s ? s : "", err, 0, 0};
    uint64_t v = 0;
    if (parse_expr(&ps, &v)) return RS_E_USAGE;
    skip_space(&ps);
    if (*ps.p) {
        fail(&ps, "unexpected text");
        return RS_E_USAGE;
    }
    *out = v;
    return RS_OK;
}

void rs_format_size(uint64_t n, char *buf, size_t len)
{
    if (n >= 1024 && (n & (n - 1)) == 0)
        snprintf(buf, len, "2^%d", __builtin_ctzll(n));
    else
        snprintf(buf, len, "%llu", (unsigned long long)n);
}
