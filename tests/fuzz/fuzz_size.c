/* libFuzzer target: any text through the size parsers, as --n, --grid and
 * --range (or a preset) hand it over: rs_parse_size and rs_format_size
 * (size.c), the n field's range (request.c) and rs_sweep_parse
 * (sweep_range.c). Each must refuse with a message or accept, never crash,
 * hang or leak; what they accept must hold the properties below, and a
 * violated one aborts so libFuzzer reports it.
 *
 * The text is the input up to TEXT_MAX bytes: one command-line argument can
 * be that long (the kernel's MAX_ARG_STRLEN). An input that starts with the
 * byte REPEAT is its remaining bytes repeated to fill TEXT_MAX - 1, so long
 * arguments ("((((...", "2^2^2^...") are reached without the fuzzer having
 * to grow them byte by byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/request.h"
#include "core/size.h"
#include "core/sweep_range.h"

#define TEXT_MAX (128 * 1024)
#define REPEAT   0xff

/* A property that must hold: said on stderr, then abort() for libFuzzer. */
#define must(ok) ((ok) ? (void)0 : broken(#ok, __LINE__))
static void broken(const char *what, int line)
{
    fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, line, what);
    abort();
}

/* A refusal says what was refused, in its first words (the text quoted
 * after them may be cut short). */
static void refused(rs_status st, const rs_error *err, const char *about)
{
    must(st == RS_E_USAGE && err->code == st);
    must(strlen(err->msg) < sizeof err->msg);
    const char *at = strstr(err->msg, about);
    must(at != NULL && at - err->msg < 16);
}

static uint64_t parse(const char *s)
{
    uint64_t v = 0;
    rs_error err;
    must(rs_parse_size(s, &v, &err) == RS_OK);
    return v;
}

/* s between before and after reads as v too, unless the parentheses added
 * nest it one level too deep. */
static void check_wrapped(const char *before, const char *s, const char *after, uint64_t v)
{
    const size_t len = strlen(before) + strlen(s) + strlen(after) + 1;
    char *text = malloc(len);
    if (!text) abort();
    snprintf(text, len, "%s%s%s", before, s, after);
    uint64_t w = 0;
    rs_error err;
    if (rs_parse_size(text, &w, &err) == RS_OK)
        must(w == v);
    else
        must(strstr(err.msg, "nested too deeply") != NULL);
    free(text);
}

/* s read as v: written back it reads as v again, and the text stays short
 * (2^64 - 1 has 20 digits); s in parentheses, plus 0 or times 1 is v. */
static void check_size(const char *s, uint64_t v)
{
    char text[32];
    rs_format_size(v, text, sizeof text);
    must(strlen(text) > 0 && strlen(text) < 21);
    must(parse(text) == v);
    if (v >= 1024 && (v & (v - 1)) == 0) must(text[0] == '2' && text[1] == '^');
    if (strlen(s) > 256) return; /* the message would be cut before its reason */
    check_wrapped("(", s, ")+0", v);
    check_wrapped("1*(", s, ")", v);
}

/* The n field takes exactly the sizes from 1 to 2^40. */
static void check_field_n(const char *s, rs_status st, uint64_t v)
{
    rs_request r;
    rs_error err;
    rs_request_defaults(&r);
    const uint64_t before = r.n;
    const rs_field *n = rs_field_by_key("run", "n");
    const rs_status fs = rs_field_set(&r, n, s, &err);
    const int in_range = st == RS_OK && v >= 1 && v <= RS_N_MAX;
    if (in_range) {
        must(fs == RS_OK && r.n == v);
    } else {
        refused(fs, &err, "bad value");
        must(r.n == before); /* a refused value leaves the field alone */
    }
}

/* A sweep's sizes: 1 to 64 of them, each from 1 to 2^40; a range climbs. */
static void check_sweep(const char *s)
{
    rs_sweep_sizes sz;
    rs_error err;
    const rs_status st = rs_sweep_parse(s, &sz, &err);
    if (st != RS_OK) {
        refused(st, &err, "sweep");
        return;
    }
    must(sz.count >= 1 && sz.count <= RS_SWEEP_MAX_SIZES);
    const int range = strstr(s, "..") != NULL;
    for (int i = 0; i < sz.count; i++) {
        must(sz.n[i] >= 1 && sz.n[i] <= RS_N_MAX);
        if (range && i > 0) must(sz.n[i] > sz.n[i - 1]);
    }
    if (!range) return;
    /* Written back as a list, the sizes read as the same sweep. */
    char list[RS_SWEEP_MAX_SIZES * 24];
    size_t used = 0;
    for (int i = 0; i < sz.count; i++) {
        char one[32];
        rs_format_size(sz.n[i], one, sizeof one);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "", one);
    }
    rs_sweep_sizes back;
    must(rs_sweep_parse(list, &back, &err) == RS_OK && back.count == sz.count);
    must(memcmp(back.n, sz.n, sizeof sz.n[0] * (size_t)sz.count) == 0);
}

static char *make_text(const uint8_t *data, size_t size)
{
    if (size > 1 && data[0] == REPEAT) {
        char *text = malloc(TEXT_MAX);
        if (!text) return NULL;
        for (size_t i = 0; i < TEXT_MAX - 1; i++) text[i] = (char)data[1 + i % (size - 1)];
        text[TEXT_MAX - 1] = '\0';
        return text;
    }
    if (size >= TEXT_MAX) size = TEXT_MAX - 1;
    char *text = malloc(size + 1);
    if (!text) return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = make_text(data, size);
    if (!text) return 0;
    uint64_t v = 0;
    rs_error err;
    const rs_status st = rs_parse_size(text, &v, &err);
    if (st == RS_OK)
        check_size(text, v);
    else
        refused(st, &err, "bad size");
    check_field_n(text, st, v);
    check_sweep(text);
    free(text);
    return 0;
}
