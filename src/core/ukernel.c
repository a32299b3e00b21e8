#include "ukernel.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"

const char *rs_ukernel_basename(const char *path)
{
    return rs_path_base(path);
}

uint64_t rs_ukernel_hash(const char *text, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    return h;
}

int rs_ukernel_changed(const char *path, uint64_t hash)
{
    char *text = NULL;
    size_t len = 0;
    rs_error err;
    if (!hash || rs_ukernel_read(path, &text, &len, &err) != RS_OK) return 0;
    const int changed = rs_ukernel_hash(text, len) != hash;
    free(text);
    return changed;
}

rs_status rs_ukernel_read(const char *path, char **text, size_t *len, rs_error *err)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    if (!path || !*path) return rs_fail(err, RS_E_USAGE, "no kernel file given");
    if (stat(path, &st) != 0) return rs_fail(err, RS_E_IO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return rs_fail(err, RS_E_USAGE, "%s is a directory: give a .cu file", path);
    if (!S_ISREG(st.st_mode)) return rs_fail(err, RS_E_USAGE, "%s is not a regular file", path);
    if (st.st_size > (off_t)RS_UKERNEL_MAX_BYTES)
        return rs_fail(err, RS_E_USAGE,
                       "%s is %lld bytes: a kernel file is at most %u bytes (is it the right "
                       "file?)",
                       path, (long long)st.st_size, RS_UKERNEL_MAX_BYTES);
    FILE *f = fopen(path, "rb");
    if (!f) return rs_fail(err, RS_E_IO, "%s: %s", path, strerror(errno));
    char *buf = malloc((size_t)st.st_size + 1);
    const size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!buf) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    buf[got] = '\0';
    if (got == 0 || strspn(buf, " \t\r\n") == got) {
        free(buf);
        return rs_fail(err, RS_E_USAGE,
                       "%s is empty: a kernel file holds one extern \"C\" __global__ function "
                       "(start from conf/kernels/template.cu)",
                       path);
    }
    if (memchr(buf, '\0', got)) {
        free(buf);
        return rs_fail(err, RS_E_USAGE, "%s is a binary file, not CUDA C source", path);
    }
    size_t at = 0;
    if (rs_text_problem(buf, got, &at)) { /* NVRTC would take part of it, silently */
        const int line = rs_text_line(buf, at);
        const unsigned byte = (unsigned char)buf[at];
        free(buf);
        return rs_fail(err, RS_E_USAGE,
                       "%s:%d: a byte that is not UTF-8 (0x%02x): save the file as UTF-8 (a "
                       "kernel is UTF-8 text, its comments too)",
                       path, line, byte);
    }
    *text = buf;
    *len = got;
    return RS_OK;
}

/* ---- the header ------------------------------------------------------------------- */

/* Names separated by commas or spaces into a bit set; -1 on an unknown one. */
static int name_set(const char *v, int (*lookup)(const char *), char *bad, size_t badlen)
{
    int set = 0;
    char tok[32];
    while (*v) {
        const size_t n = strcspn(v, ", \t");
        if (n > 0) {
            snprintf(tok, sizeof tok, "%.*s", (int)(n < 31 ? n : 31), v);
            const int x = lookup(tok);
            if (x < 0) {
                snprintf(bad, badlen, "%s", tok);
                return -1;
            }
            set |= 1 << x;
        }
        v += n;
        v += strspn(v, ", \t");
    }
    return set;
}

static rs_status directive(const char *path, int line, const char *key, const char *val,
                           rs_ukernel_spec *s, rs_error *err)
{
    char bad[32] = "";
    char *end = NULL;
    if (strcmp(key, "block") == 0) {
        if (strcmp(val, "pow2") == 0)
            s->block_rule = RS_UB_POW2;
        else if (strcmp(val, "warp") == 0)
            s->block_rule = RS_UB_WARP;
        else if (strcmp(val, "any") == 0)
            s->block_rule = RS_UB_ANY;
        else {
            const unsigned long b = strtoul(val, &end, 10);
            if (!*val || *end || b < 32 || b > 1024)
                return rs_fail(err, RS_E_USAGE,
                               "%s:%d: 'block' takes pow2, warp, any or a size from 32 to 1024, "
                               "not '%s'",
                               path, line, val);
            s->block_rule = RS_UB_EXACT;
            s->block_exact = (unsigned)b;
        }
    } else if (strcmp(key, "elements-per-thread") == 0) {
        const unsigned long e = strtoul(val, &end, 10);
        if (!*val || *end || e < 1 || e > 4096)
            return rs_fail(err, RS_E_USAGE,
                           "%s:%d: 'elements-per-thread' takes a number from 1 to 4096, not '%s'",
                           path, line, val);
        s->ept = (unsigned)e;
    } else if (strcmp(key, "grid-stride") == 0) {
        if (*val)
            return rs_fail(err, RS_E_USAGE, "%s:%d: 'grid-stride' takes no value, not '%s'", path,
                           line, val);
        s->ept = 0;
    } else if (strcmp(key, "ops") == 0) {
        const int m = name_set(val, rs_op_from_name, bad, sizeof bad);
        if (m <= 0)
            return rs_fail(err, RS_E_USAGE, "%s:%d: 'ops' takes sum, min, max, product; not '%s'",
                           path, line, m < 0 ? bad : val);
        s->ops = (unsigned)m;
    } else if (strcmp(key, "types") == 0) {
        const int m = name_set(val, rs_dtype_from_name, bad, sizeof bad);
        if (m <= 0)
            return rs_fail(err, RS_E_USAGE,
                           "%s:%d: 'types' takes int32 int64 float32 float64 float16 bfloat16; "
                           "not '%s'",
                           path, line, m < 0 ? bad : val);
        s->types = (unsigned)m;
    } else if (strcmp(key, "finish") == 0) {
        const int f = rs_finish_from_name(val);
        if (f <= RS_FINISH_AUTO)
            return rs_fail(err, RS_E_USAGE,
                           "%s:%d: 'finish' takes relaunch, cpu, atomic or single_pass, not '%s'",
                           path, line, val);
        s->finish = (rs_finish)f;
    } else {
        return rs_fail(err, RS_E_USAGE,
                       "%s:%d: unknown directive '%s' (known: block, elements-per-thread, "
                       "grid-stride, ops, types, finish)",
                       path, line, key);
    }
    return RS_OK;
}

rs_status rs_ukernel_parse(const char *path, const char *text, rs_ukernel_spec *s, rs_error *err)
{
    *s = (rs_ukernel_spec){
        RS_UB_ANY, 0, 1, (1u << RS_OP_COUNT) - 1, (1u << RS_DTYPE_COUNT) - 1, RS_FINISH_RELAUNCH};
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *eol = strchr(p, '\n');
        const size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < 255 ? n : 255), p);
        p += n + (eol ? 1 : 0);
        const char *q = buf + strspn(buf, " \t");
        if (strncmp(q, "//", 2) != 0) continue;
        q += 2 + strspn(q + 2, " \t");
        if (strncmp(q, "redscope:", 9) != 0) continue;
        q += 9 + strspn(q + 9, " \t");
        char key[40] = "", val[200] = "";
        const size_t kn = strcspn(q, " \t\r");
        snprintf(key, sizeof key, "%.*s", (int)(kn < 39 ? kn : 39), q);
        q += kn + strspn(q + kn, " \t");
        snprintf(val, sizeof val, "%s", q);
        for (size_t k = strlen(val); k > 0 && isspace((unsigned char)val[k - 1]); k--)
            val[k - 1] = '\0';
        rs_status st = directive(path, line, key, val, s, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

static void list_names(unsigned set, int count, const char *(*name)(int), char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used < len; i++)
        if (set & (1u << i))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name(i));
}

static const char *op_name_i(int i)
{
    return rs_op_name((rs_op)i);
}

static const char *type_name_i(int i)
{
    return rs_dtype_name((rs_dtype)i);
}

rs_status rs_ukernel_check(const char *path, const rs_ukernel_spec *s, const rs_request *r,
                           rs_error *err)
{
    const char *f = rs_ukernel_basename(path);
    char list[160];
    const unsigned b = r->block;
    if (!(s->ops & (1u << r->op))) {
        list_names(s->ops, RS_OP_COUNT, op_name_i, list, sizeof list);
        return rs_fail(err, RS_E_USAGE, "%s does not do %s (its header says ops: %s)", f,
                       rs_op_name(r->op), list);
    }
    if (!(s->types & (1u << r->type))) {
        list_names(s->types, RS_DTYPE_COUNT, type_name_i, list, sizeof list);
        return rs_fail(err, RS_E_USAGE, "%s does not take %s (its header says types: %s)", f,
                       rs_dtype_name(r->type), list);
    }
    if (s->block_rule == RS_UB_POW2 && (b & (b - 1)))
        return rs_fail(err, RS_E_USAGE, "%s needs a power-of-two blockDim; %u is not one", f, b);
    if (s->block_rule == RS_UB_WARP && b % 32)
        return rs_fail(err, RS_E_USAGE, "%s needs a blockDim that is a multiple of 32, not %u", f,
                       b);
    if (s->block_rule == RS_UB_EXACT && b != s->block_exact)
        return rs_fail(err, RS_E_USAGE, "%s is written for blockDim %u only, not %u", f,
                       s->block_exact, b);
    if (s->ept && (r->grid || r->ept))
        return rs_fail(err, RS_E_USAGE,
                       "%s takes no --grid or --ept: its header fixes %u element%s per thread "
                       "(say '// redscope: grid-stride' for a kernel that takes any grid)",
                       f, s->ept, s->ept == 1 ? "" : "s");
    const rs_finish fin = r->finish == RS_FINISH_AUTO ? s->finish : r->finish;
    if (fin == RS_FINISH_SINGLE_PASS && b % 32)
        return rs_fail(err, RS_E_USAGE,
                       "the single_pass finish of a user kernel reduces with warp shuffles: it "
                       "needs a blockDim that is a multiple of 32, not %u",
                       b);
    return RS_OK;
}

void rs_ukernel_info(const char *path, const rs_ukernel_spec *s, rs_variant_info *vi,
                     char *name_buf, size_t name_len)
{
    *vi = *rs_catalogue_get(RS_V_KERNEL);
    snprintf(name_buf, name_len, "%s", rs_ukernel_basename(path));
    vi->name = name_buf;
    vi->flags = RS_VF_FINISH | (s->ept ? 0u : RS_VF_GRID_STRIDE);
    if (s->block_rule == RS_UB_POW2) vi->flags |= RS_VF_POW2_BLOCK;
    if (s->block_rule == RS_UB_WARP) vi->flags |= RS_VF_WARP_BLOCK;
    vi->default_finish = s->finish;
    vi->elems_per_thread = s->ept;
}

/* ---- NVRTC's log ------------------------------------------------------------------- */

/* A caret line ("    ^") under the source line it points into: NVRTC
 * counts bytes, a terminal columns, so "µs" before the error moved the
 * caret one to the right. The columns of the first `bytes` bytes of src. */
static size_t caret_cols(const char *src, size_t src_len, size_t bytes)
{
    size_t cols = 0;
    for (size_t i = 0; i < bytes && i < src_len; i++)
        cols += ((unsigned char)src[i] & 0xc0) != 0x80; /* a lead byte starts a character */
    return cols + (bytes > src_len ? bytes - src_len : 0);
}

static int is_caret(const char *p, size_t n)
{
    const size_t sp = strspn(p, " ");
    return sp < n && p[sp] == '^';
}

void rs_ukernel_format_log(const char *log, char *out, size_t len)
{
    size_t o = 0, prev_n = 0;
    const char *prev = NULL;
    if (!len) return;
    for (const char *p = log ? log : ""; *p && o + 1 < len;) {
        const char *eol = strchr(p, '\n');
        const size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
        if (prev && is_caret(p, n)) {
            const size_t sp = strspn(p, " ");
            o += (size_t)snprintf(out + o, len - o, "%*s%.*s", (int)caret_cols(prev, prev_n, sp),
                                  "", (int)(n - sp), p + sp);
            prev = NULL;
            p += n;
            continue;
        }
        if (strncmp(p, "Remark: The warnings can be suppressed with", 43) == 0) {
            p += n; /* NVRTC's hint names an option redscope does not take */
            continue;
        }
        prev = p;
        prev_n = n;
        /* "NAME(LINE): " at the start of a line */
        const char *paren = memchr(p, '(', n);
        size_t digits = 0;
        /* a diagnostic starts its line with a name (no blank); echoed
         * source lines are indented */
        if (paren && paren > p && p[0] != ' ' && !memchr(p, ' ', (size_t)(paren - p)))
            digits = strspn(paren + 1, "0123456789");
        if (paren && digits && paren[1 + digits] == ')' && paren[2 + digits] == ':') {
            o += (size_t)snprintf(out + o, len - o, "%.*s:%.*s%.*s", (int)(paren - p), p,
                                  (int)digits, paren + 1,
                                  (int)(n - (size_t)(paren - p) - digits - 2), paren + 2 + digits);
        } else {
            o += (size_t)snprintf(out + o, len - o, "%.*s", (int)n, p);
        }
        p += n;
    }
    if (o >= len) o = len - 1;
    out[o] = '\0';
}

static int after_int(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    if (!p) return 0;
    while (p > s && p[-1] == ' ') p--;
    while (p > s && isdigit((unsigned char)p[-1])) p--;
    return atoi(p);
}

void rs_ukernel_ptxas(const char *log, rs_kernel_build *b)
{
    memset(b, 0, sizeof *b);
    b->spill_st = b->spill_ld = -1; /* unknown until ptxas says */
    for (const char *p = log ? log : ""; *p;) {
        const char *eol = strchr(p, '\n');
        const size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[320];
        snprintf(line, sizeof line, "%.*s", (int)(n < 319 ? n : 319), p);
        p += n + (eol ? 1 : 0);
        const char *q = strstr(line, "Compiling entry function '");
        if (q) {
            q += strlen("Compiling entry function '");
            const size_t k = strcspn(q, "'");
            const size_t used = strlen(b->entry);
            snprintf(b->entry + used, sizeof b->entry - used, "%s%.*s", used ? " " : "", (int)k, q);
            b->entries++;
        }
        if (strstr(line, "bytes stack frame")) {
            b->stack = after_int(line, " bytes stack frame");
            b->spill_st = after_int(line, " bytes spill stores");
            b->spill_ld = after_int(line, " bytes spill loads");
        }
        if ((q = strstr(line, "Used ")) != NULL && strstr(line, "registers")) {
            b->regs = atoi(q + 5);
            b->smem = after_int(line, " bytes smem");
        }
    }
}

/* Past a comment or a literal starting at p, or p itself when none does. */
static const char *skip_non_code(const char *p)
{
    if (p[0] == '/' && p[1] == '/') return p + strcspn(p, "\n");
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : p + strlen(p);
    }
    if (*p != '"' && *p != '\'') return p;
    const char q = *p++;
    while (*p && *p != q && *p != '\n') p += p[0] == '\\' && p[1] ? 2 : 1;
    return *p == q ? p + 1 : p;
}

int rs_ukernel_word(const char *text, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = text ? text : ""; *p;) {
        const char *q = skip_non_code(p);
        if (q != p) {
            p = q;
            continue;
        }
        if (isalpha((unsigned char)*p) || *p == '_') {
            size_t k = 1;
            while (isalnum((unsigned char)p[k]) || p[k] == '_') k++;
            if (k == n && strncmp(p, word, n) == 0) {
                int line = 1;
                for (const char *c = text; c < p; c++) line += *c == '\n';
                return line;
            }
            p += k;
            continue;
        }
        if (isdigit((unsigned char)*p)) { /* a number, 1'000 (a separator, no literal) too */
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '\'') p++;
            continue;
        }
        p++;
    }
    return 0;
}

void rs_ukernel_spills(int spill_st, int spill_ld, int local, char *buf, size_t len)
{
    if (spill_st < 0 || spill_ld < 0)
        snprintf(buf, len, "spills not reported (local memory %d B per thread)", local);
    else if (spill_st == 0 && spill_ld == 0)
        snprintf(buf, len, "no spills");
    else
        snprintf(buf, len, "spills %d B stored, %d B loaded", spill_st, spill_ld);
}
