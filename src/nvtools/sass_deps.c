#include "sass_deps.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOOK_BACK 4 /* instructions before a barrier wait searched for its barrier */

static void bit_set(uint64_t *set, int r)
{
    if (r >= 0 && r < 256) set[r / 64] |= 1ull << (r % 64);
}

static int any(const uint64_t *a)
{
    return (a[0] | a[1] | a[2] | a[3]) != 0;
}

static int is_one_of(const char *base, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(base, names[i]) == 0) return 1;
    return 0;
}

static int wait_class(const char *opcode)
{
    static const char *const memory[] = {"LDG",  "LD",  "LDL", "ATOMG", "ATOM",   "TEX", "TLD",
                                         "TLD4", "TXD", "TXQ", "SULD",  "SUATOM", NULL};
    static const char *const mio[] = {"LDS", "LDSM",  "ATOMS", "SHFL",  "MUFU",
                                      "S2R", "REDUX", "LDC",   "MATCH", "F2I",
                                      "I2F", "F2F",   "FRND",  "I2I",   NULL};
    char base[40];
    rs_sass_base(opcode, base, sizeof base);
    if (is_one_of(base, memory)) return RS_WAIT_MEMORY;
    if (is_one_of(base, mio)) return RS_WAIT_MIO;
    if (strcmp(base, "BAR") == 0) return RS_WAIT_BARRIER;
    if (strcmp(base, "MEMBAR") == 0) return RS_WAIT_FENCE;
    return RS_WAIT_NONE;
}

/* How many registers the destination spans: 4 for 128-bit, 2 for 64-bit
 * (.64, IMAD.WIDE, the double-precision units, a conversion to F64). */
static int dst_width(const char *opcode)
{
    if (strstr(opcode, ".128")) return 4;
    char base[40];
    rs_sass_base(opcode, base, sizeof base);
    const char *type = strchr(opcode, '.');
    if (strstr(opcode, ".64") || strstr(opcode, ".WIDE") ||
        (base[0] == 'D' && strcmp(base, "DEPBAR") != 0) ||
        (type && strncmp(type, ".F64", 4) == 0 && base[0] != 'I'))
        return 2;
    return 1;
}

/* Instructions that write predicates only, or nothing: their first
 * register operand is read. */
static int writes_no_register(const char *opcode)
{
    static const char *const none[] = {"PLOP3",     "WARPSYNC", "BRA",           "BRX",   "CALL",
                                       "RET",       "EXIT",     "BSSY",          "BSYNC", "BAR",
                                       "MEMBAR",    "NOP",      "DEPBAR",        "YIELD", "ERRBAR",
                                       "CGAERRBAR", "CCTL",     "ENDCOLLECTIVE", NULL};
    char base[40];
    rs_sass_base(opcode, base, sizeof base);
    const size_t len = strlen(base);
    return is_one_of(base, none) || (len >= 4 && strcmp(base + len - 4, "SETP") == 0);
}

static int is_predicate(const char *op)
{
    if (*op == '!') op++;
    if (*op == 'U') op++;
    return op[0] == 'P' && (op[1] == 'T' || isdigit((unsigned char)op[1])) &&
           (op[2] == '\0' || !isalnum((unsigned char)op[2]));
}

/* Every general register named in an operand ("R2", "[R2.64+0x10]"):
 * R2.64 names a pair; `pairs` reads each as a pair (double precision). */
static void regs_of(const char *op, uint64_t *set, int pairs)
{
    for (const char *p = op; *p; p++) {
        if (*p != 'R' || !isdigit((unsigned char)p[1])) continue;
        if (p > op && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue; /* UR4, SR_TID */
        char *end = NULL;
        const long r = strtol(p + 1, &end, 10);
        const int wide = pairs || strncmp(end, ".64", 3) == 0;
        bit_set(set, (int)r);
        if (wide) bit_set(set, (int)r + 1);
        p = end - 1;
    }
}

/* Operands of an instruction's text after its opcode, split at commas
 * outside brackets, into ops[] (at most max); returns how many. */
static int split_operands(char *s, char **ops, int max)
{
    int n = 0, depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '[') depth++;
        if (*p == ']' && depth) depth--;
        if ((*p == ',' && !depth) || *p == '\0') {
            const int end = *p == '\0';
            *p = '\0';
            while (*start == ' ') start++;
            if (*start && n < max) ops[n++] = start;
            if (end) break;
            start = p + 1;
        }
    }
    return n;
}

/* One instruction line: "/" "*0510*" "/  @!P0 IADD3 R0, R17, R16, R0 ;". */
static int parse_line(const char *line, size_t len, rs_sass_op *op)
{
    char l[512];
    if (len >= sizeof l) return 0;
    memcpy(l, line, len);
    l[len] = '\0';
    char *open = strstr(l, "/*"), *end = NULL;
    if (!open) return 0;
    const uint64_t off = strtoull(open + 2, &end, 16);
    if (end == open + 2 || strncmp(end, "*/", 2) != 0) return 0;
    char *t = end + 2;
    char *semi = strchr(t, ';');
    if (!semi) return 0;
    *semi = '\0';
    while (*t == ' ' || *t == '\t') t++;
    memset(op, 0, sizeof *op);
    op->offset = off;
    if (*t == '@') {
        op->predicated = 1;
        t += strcspn(t, " \t");
        while (*t == ' ' || *t == '\t') t++;
    }
    const size_t olen = strcspn(t, " \t");
    if (!olen || olen >= sizeof op->opcode) return 0;
    snprintf(op->opcode, sizeof op->opcode, "%.*s", (int)olen, t);
    op->cls = wait_class(op->opcode);
    char *ops[16];
    const int n = split_operands(t + olen, ops, 16);
    int first = 0;
    while (first < n && is_predicate(ops[first])) first++;
    const int has_dst = !writes_no_register(op->opcode) && first < n && ops[first][0] == 'R' &&
                        isdigit((unsigned char)ops[first][1]);
    char base[40];
    rs_sass_base(op->opcode, base, sizeof base);
    const int pairs = base[0] == 'D' && strcmp(base, "DEPBAR") != 0;
    if (has_dst) {
        const int r = atoi(ops[first] + 1);
        for (int k = 0; k < dst_width(op->opcode); k++) bit_set(op->dst, r + k);
    }
    for (int i = has_dst ? first + 1 : 0; i < n; i++) regs_of(ops[i], op->src, pairs);
    return 1;
}

const char *rs_sass_function(const char *text, const char *fn, size_t *len)
{
    if (!text || !fn || !*fn) return NULL;
    char label[600];
    snprintf(label, sizeof label, ".text.%s:", fn);
    const char *start = strstr(text, label);
    if (!start) return NULL;
    const char *next = strstr(start, "\n//----");
    *len = next ? (size_t)(next - start) : strlen(start);
    return start;
}

rs_sass_op *rs_sass_parse(const char *text, int *n)
{
    *n = 0;
    if (!text) return NULL;
    const char *stop = strstr(text, "\n//----"); /* a second function's header */
    const char *label = strstr(text, ".text.");
    if (stop && label && stop < label) stop = strstr(label, "\n//----");
    int cap = 256, count = 0;
    rs_sass_op *ops = malloc(sizeof *ops * (size_t)cap);
    for (const char *l = text; ops && *l && (!stop || l < stop);) {
        const size_t len = strcspn(l, "\n");
        if (count == cap) {
            rs_sass_op *more = realloc(ops, sizeof *ops * (size_t)(cap *= 2));
            if (!more) break;
            ops = more;
        }
        if (parse_line(l, len, &ops[count])) count++;
        l += len + (l[len] == '\n');
    }
    if (ops && !count) {
        free(ops);
        ops = NULL;
    }
    *n = ops ? count : 0;
    return ops;
}

static int index_of(const rs_sass_op *ops, int n, uint64_t offset)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (ops[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ops[lo].offset == offset ? lo : -1;
}

int rs_sass_cause(const rs_sass_op *ops, int n, uint64_t offset, int cls)
{
    const int at = ops ? index_of(ops, n, offset) : -1;
    if (at < 0 || cls == RS_WAIT_NONE) return -1;
    if (cls == RS_WAIT_BARRIER || cls == RS_WAIT_FENCE) {
        for (int j = at; j >= 0 && j >= at - LOOK_BACK; j--)
            if (ops[j].cls == cls) return j;
        return -1;
    }
    /* the nearest earlier writer of each register it reads: the first of
     * them that makes this class of wait is the one still outstanding
     * (loads complete in the order they were issued, most recent last) */
    uint64_t pending[4];
    memcpy(pending, ops[at].src, sizeof pending);
    for (int j = at - 1; j >= 0 && any(pending); j--) {
        uint64_t hit[4];
        for (int w = 0; w < 4; w++) hit[w] = ops[j].dst[w] & pending[w];
        if (!any(hit)) continue;
        if (ops[j].cls == cls) return j;
        if (!ops[j].predicated) /* it may not have written: the older writer still counts */
            for (int w = 0; w < 4; w++) pending[w] &= ~ops[j].dst[w];
    }
    return -1;
}
