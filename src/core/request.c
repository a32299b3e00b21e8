#include "request.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_table.h"
#include "catalogue.h"
#include "sweep_range.h"

const rs_field rs_fields[RS_FIELD_COUNT] = {
/* clang-format off */
#define RS_X_FIELD(m, kind, sec, key, flag, sopt, mn, mx, def, impl, arg, help, ident)             \
    {RS_F_##m, kind, sec, key, flag, sopt, mn, mx, def, impl, arg, help, ident,                    \
     offsetof(rs_request, m), sizeof(((rs_request *)0)->m)},
    /* clang-format on */
    RS_REQUEST_FIELDS(RS_X_FIELD)
#undef RS_X_FIELD
};

const rs_field *rs_field_by_key(const char *section, const char *key)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++)
        if (strcmp(rs_fields[i].section, section) == 0 && strcmp(rs_fields[i].key, key) == 0)
            return &rs_fields[i];
    return NULL;
}

const rs_field *rs_field_by_flag(const char *flag)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++)
        if (rs_fields[i].flag && strcmp(rs_fields[i].flag, flag) == 0) return &rs_fields[i];
    return NULL;
}

const rs_field *rs_field_by_short(int c)
{
    for (int i = 0; c && i < RS_FIELD_COUNT; i++)
        if (rs_fields[i].short_opt == c) return &rs_fields[i];
    return NULL;
}

#define FIELD_PTR(r, f, type)  ((type *)((char *)(r) + (f)->offset))
#define FIELD_CPTR(r, f, type) ((const type *)((const char *)(r) + (f)->offset))

void rs_request_defaults(rs_request *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        rs_status st = rs_field_set(r, &rs_fields[i], rs_fields[i].def, NULL);
        (void)st; /* defaults are checked by the unit tests */
    }
}

static void join_names(const char *(*name)(int), int count, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", name(i));
}

static const char *dtype_at(int i)
{
    return rs_dtype_name((rs_dtype)i);
}
static const char *op_at(int i)
{
    return rs_op_name((rs_op)i);
}
static const char *finish_at(int i)
{
    return rs_finish_name((rs_finish)i);
}
static const char *dist_at(int i)
{
    return rs_dist_name((rs_dist)i);
}
static const char *cross_at(int i)
{
    return rs_cross_name((rs_cross)i);
}

static const char *cache_at(int i)
{
    return rs_cache_name((rs_cache)i);
}

void rs_field_values(const rs_field *f, char *buf, size_t len)
{
    switch (f->kind) {
    case RS_FK_DTYPE: join_names(dtype_at, RS_DTYPE_COUNT, buf, len); break;
    case RS_FK_OP: join_names(op_at, RS_OP_COUNT, buf, len); break;
    case RS_FK_FINISH: join_names(finish_at, RS_FINISH_COUNT, buf, len); break;
    case RS_FK_DIST: join_names(dist_at, RS_DIST_COUNT, buf, len); break;
    case RS_FK_CROSS: join_names(cross_at, RS_CROSS_COUNT, buf, len); break;
    case RS_FK_CACHE: join_names(cache_at, RS_CACHE_COUNT, buf, len); break;
    default: buf[0] = '\0'; break;
    }
}

void rs_field_expect(const rs_field *f, char *buf, size_t len)
{
    char names[160];
    rs_field_values(f, names, sizeof names);
    if (names[0]) {
        snprintf(buf, len, "one of %s", names);
        return;
    }
    switch (f->kind) {
    case RS_FK_VARIANT: snprintf(buf, len, "a variant id (redscope variants)"); break;
    case RS_FK_VARLIST:
        snprintf(buf, len, "variant ids separated by commas, or FIRST..LAST");
        break;
    case RS_FK_SIZE:
        snprintf(buf, len, "a count from 1 to 2^40, like 16777216, 2^24, 16M or 1024*65535");
        break;
    case RS_FK_UINT:
    case RS_FK_U64:
        snprintf(buf, len, "a whole number from %llu to %llu", (unsigned long long)f->min,
                 (unsigned long long)f->max);
        break;
    case RS_FK_METRICS:
        snprintf(buf, len, "none, default, full, or metric keys separated by commas");
        break;
    case RS_FK_SWEEP:
        snprintf(buf, len, "a range like 2^10..2^28, 1K..1G:4, or a list like 1000,2^20,16M");
        break;
    case RS_FK_TEXT:
        snprintf(buf, len, "one line of text up to %zu characters",
                 RS_INI_LINE_MAX - 3 - strlen(f->key));
        break;
    default: buf[0] = '\0'; break; /* the enumerations: answered above */
    }
}

static rs_status bad_value(const rs_field *f, const char *name, const char *value, rs_error *err)
{
    char expect[160];
    rs_field_expect(f, expect, sizeof expect);
    return rs_fail(err, RS_E_USAGE, "bad value '%s' for %s: expected %s", value, name, expect);
}

static rs_status parse_uint(const rs_field *f, const char *name, const char *value, uint64_t *out,
                            rs_error *err)
{
    uint64_t v;
    rs_error sub;
    /* Sizes and counts share one syntax, so "--grid 2^10" works too. */
    if (rs_parse_size(value, &v, &sub) != RS_OK) return bad_value(f, name, value, err);
    if (v < f->min || v > f->max) return bad_value(f, name, value, err);
    *out = v;
    return RS_OK;
}

/* Text must survive an INI file: one line, no " ;" (inih would read the
 * rest as a comment), no edge blanks (inih strips them). */
static rs_status copy_text(char *dst, size_t cap, const rs_field *f, const char *name,
                           const char *value, rs_error *err)
{
    size_t len = strlen(value);
    if (len >= cap || strlen(f->key) + 3 + len > RS_INI_LINE_MAX)
        return rs_fail(err, RS_E_USAGE, "bad value for %s: longer than %zu characters", name,
                       RS_INI_LINE_MAX - 3 - strlen(f->key));
    for (size_t i = 0; i < len; i++) {
        if ((unsigned char)value[i] < 0x20) return bad_value(f, name, value, err);
        if (value[i] == ';' && (i == 0 || isspace((unsigned char)value[i - 1])))
            return rs_fail(err, RS_E_USAGE,
                           "bad value '%s' for %s: a ';' after a blank starts a comment in a "
                           "preset; write ';' right after a word",
                           value, name);
    }
    if (len && (isspace((unsigned char)value[0]) || isspace((unsigned char)value[len - 1])))
        return rs_fail(err, RS_E_USAGE, "bad value '%s' for %s: leading or trailing blanks", value,
                       name);
    memcpy(dst, value, len + 1);
    return RS_OK;
}

static rs_status set_enum(int v, int *dst, const rs_field *f, const char *name, const char *value,
                          rs_error *err)
{
    if (v < 0) return bad_value(f, name, value, err);
    *dst = v;
    return RS_OK;
}

rs_status rs_field_set(rs_request *r, const rs_field *f, const char *value, rs_error *err)
{
    return rs_field_set_as(r, f, value, f->key, err);
}

rs_status rs_field_set_as(rs_request *r, const rs_field *f, const char *value, const char *name,
                          rs_error *err)
{
    uint64_t v = 0;
    rs_status st = RS_OK;
    if (!value) value = "";
    switch (f->kind) {
    case RS_FK_VARIANT:
        return set_enum(rs_variant_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_VARLIST: {
        rs_variant_set mask;
        if ((st = rs_parse_variants(value, &mask, err)) != RS_OK) return st;
        *FIELD_PTR(r, f, rs_variant_set) = mask;
        return RS_OK;
    }
    case RS_FK_DTYPE:
        return set_enum(rs_dtype_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_OP:
        return set_enum(rs_op_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_FINISH:
        return set_enum(rs_finish_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_DIST:
        return set_enum(rs_dist_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_CROSS:
        return set_enum(rs_cross_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_CACHE:
        return set_enum(rs_cache_from_name(value), FIELD_PTR(r, f, int), f, name, value, err);
    case RS_FK_SIZE:
    case RS_FK_U64:
        if ((st = parse_uint(f, name, value, &v, err)) != RS_OK) return st;
        *FIELD_PTR(r, f, uint64_t) = v;
        return RS_OK;
    case RS_FK_UINT:
        if ((st = parse_uint(f, name, value, &v, err)) != RS_OK) return st;
        *FIELD_PTR(r, f, uint32_t) = (uint32_t)v;
        return RS_OK;
    case RS_FK_METRICS: {
        rs_metric_mask m;
        if (rs_metric_parse_set(value, &m, err) != RS_OK) return RS_E_USAGE;
        return copy_text(FIELD_PTR(r, f, char), RS_METRICS_MAX, f, name, value, err);
    }
    case RS_FK_SWEEP: {
        rs_sweep_sizes sizes;
        if (rs_sweep_parse(value, &sizes, err) != RS_OK) return RS_E_USAGE;
        return copy_text(FIELD_PTR(r, f, char), RS_SWEEP_MAX, f, name, value, err);
    }
    case RS_FK_TEXT: return copy_text(FIELD_PTR(r, f, char), RS_NOTE_MAX, f, name, value, err);
    }
    return bad_value(f, name, value, err);
}

static void format_variants(rs_variant_set mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        if (!(mask & RS_VARIANT_BIT(v))) continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", rs_variant_name(v));
        if (w < 0 || (size_t)w >= len - used) break;
        used += (size_t)w;
    }
}

void rs_field_format(const rs_request *r, const rs_field *f, char *buf, size_t len)
{
    switch (f->kind) {
    case RS_FK_VARIANT: snprintf(buf, len, "%s", rs_variant_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_VARLIST: format_variants(*FIELD_CPTR(r, f, rs_variant_set), buf, len); break;
    case RS_FK_DTYPE: snprintf(buf, len, "%s", rs_dtype_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_OP: snprintf(buf, len, "%s", rs_op_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_FINISH: snprintf(buf, len, "%s", rs_finish_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_DIST: snprintf(buf, len, "%s", rs_dist_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_CROSS: snprintf(buf, len, "%s", rs_cross_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_CACHE: snprintf(buf, len, "%s", rs_cache_name(*FIELD_CPTR(r, f, int))); break;
    case RS_FK_SIZE: rs_format_size(*FIELD_CPTR(r, f, uint64_t), buf, len); break;
    case RS_FK_U64:
        snprintf(buf, len, "%llu", (unsigned long long)*FIELD_CPTR(r, f, uint64_t));
        break;
    case RS_FK_UINT: snprintf(buf, len, "%u", *FIELD_CPTR(r, f, uint32_t)); break;
    case RS_FK_METRICS:
    case RS_FK_SWEEP:
    case RS_FK_TEXT: snprintf(buf, len, "%s", FIELD_CPTR(r, f, char)); break;
    }
}

int rs_field_is_default(const rs_request *r, const rs_field *f)
{
    rs_request d;
    char a[512], b[512];
    rs_request_defaults(&d);
    rs_field_format(r, f, a, sizeof a);
    rs_field_format(&d, f, b, sizeof b);
    return strcmp(a, b) == 0;
}

int rs_field_same(const rs_request *a, const rs_request *b, const rs_field *f)
{
    const char *x = (const char *)a + f->offset, *y = (const char *)b + f->offset;
    switch (f->kind) {
    case RS_FK_METRICS:
    case RS_FK_SWEEP:
    case RS_FK_TEXT: return strncmp(x, y, f->size) == 0; /* what follows the text is not */
    default: return memcmp(x, y, f->size) == 0;
    }
}

int rs_request_equal(const rs_request *a, const rs_request *b)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++)
        if (!rs_field_same(a, b, &rs_fields[i])) return 0;
    return 1;
}

int rs_request_same_config(const rs_request *a, const rs_request *b, int sweep)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        if ((f->ident == RS_ID_CONFIG || f->ident == RS_ID_HOW) && !(sweep && f->id == RS_F_n) &&
            !rs_field_same(a, b, f))
            return 0;
    }
    return 1;
}

_Static_assert(RS_FIELD_COUNT <= 64, "rs_request_config_diff: a bit per field");

uint64_t rs_request_config_diff(const rs_request *a, const rs_request *b)
{
    uint64_t m = 0;
    for (int i = 0; i < RS_FIELD_COUNT; i++)
        if (rs_fields[i].ident == RS_ID_CONFIG && !rs_field_same(a, b, &rs_fields[i]))
            m |= UINT64_C(1) << i;
    return m;
}

/* A list item without the blanks around it, cut to fit. */
static void token_name(const char *s, size_t len, char *buf, size_t n)
{
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
}

static int variant_token(const char *s, size_t len, rs_error *err, const char *all)
{
    char name[64];
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len == 0 || len >= sizeof name) {
        rs_fail(err, RS_E_USAGE, "bad variant list '%s': empty name", all);
        return -1;
    }
    memcpy(name, s, len);
    name[len] = '\0';
    int v = rs_variant_from_name(name);
    if (v < 0) rs_fail(err, RS_E_USAGE, "unknown variant '%s' (see: redscope variants)", name);
    return v;
}

rs_status rs_parse_variants(const char *s, rs_variant_set *mask, rs_error *err)
{
    rs_variant_set m = 0;
    const char *p = s ? s : "";
    while (isspace((unsigned char)*p)) p++;
    if (!*p || strcmp(p, "all") == 0 || strcmp(p, "ladder") == 0) {
        *mask = 0;
        return RS_OK;
    }
    while (*p) {
        size_t len = strcspn(p, ",");
        const char *dots = strstr(p, "..");
        if (dots && dots < p + len) {
            rs_error first = {RS_OK, ""};
            int a = variant_token(p, (size_t)(dots - p), &first, s);
            int b = variant_token(dots + 2, len - (size_t)(dots + 2 - p), err, s);
            if (a < 0 && b < 0 && first.msg[0] == 'u' && err->msg[0] == 'u') { /* both unknown */
                char x[64], y[64];
                token_name(p, (size_t)(dots - p), x, sizeof x);
                token_name(dots + 2, len - (size_t)(dots + 2 - p), y, sizeof y);
                return rs_fail(err, RS_E_USAGE,
                               "unknown variants '%s' and '%s' (see: redscope variants)", x, y);
            }
            if (a < 0) return rs_fail(err, RS_E_USAGE, "%s", first.msg);
            if (b < 0) return RS_E_USAGE;
            if (a > b)
                return rs_fail(err, RS_E_USAGE, "bad variant range in '%s': %s comes after %s", s,
                               rs_variant_name(a), rs_variant_name(b));
            for (int v = a; v <= b; v++) m |= RS_VARIANT_BIT(v);
        } else {
            int v = variant_token(p, len, err, s);
            if (v < 0) return RS_E_USAGE;
            m |= RS_VARIANT_BIT(v);
        }
        p += len;
        if (*p == ',') p++;
    }
    *mask = m;
    return RS_OK;
}

int rs_request_variant_list(const rs_request *r, rs_variant *out, int max)
{
    int count = 0;
    for (int v = 0; v < RS_VARIANT_COUNT && count < max; v++) {
        /* The whole ladder leaves out the CPU: every row already shows the
         * speedup over it. */
        int in = r->variants ? (r->variants & RS_VARIANT_BIT(v)) != 0
                             : !rs_variant_has((rs_variant)v, RS_VF_HOST);
        /* a user kernel joins the ladder when a file is given */
        if (v == RS_V_KERNEL) in = r->kernel[0] != 0;
        if (in) out[count++] = (rs_variant)v;
    }
    return count;
}
