#define _POSIX_C_SOURCE 200809L /* strdup */
#include "cubin_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXT_CONTEXT 0x90 /* NVIDIA: inline context (row, function name) */

typedef struct row {
    uint64_t addr;
    uint32_t file, line, ctx, name; /* name: index into names, or UINT32_MAX */
} row;

struct rs_line_table {
    row *rows;
    size_t nrows;
    char **files; /* the unit's files, 1-based in rows */
    size_t nfiles;
    char **names; /* inlined functions' names; names[NAMES_MAX] is "?" */
    size_t nnames;
    char kernel[512];
};

/* ---- reading bytes, every read bounded ---------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n, i;
    int bad;
} rd;

static uint64_t fixed(rd *r, int bytes)
{
    if (r->i + (size_t)bytes > r->n) {
        r->bad = 1;
        r->i = r->n;
        return 0;
    }
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; k--) v = (v << 8) | r->p[r->i + (size_t)k];
    r->i += (size_t)bytes;
    return v;
}

static uint64_t uleb(rd *r)
{
    uint64_t v = 0;
    for (int shift = 0; r->i < r->n; shift += 7) {
        const uint8_t b = r->p[r->i++];
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    r->bad = 1;
    return 0;
}

static int64_t sleb(rd *r)
{
    uint64_t v = 0;
    int shift = 0;
    while (r->i < r->n) {
        const uint8_t b = r->p[r->i++];
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) {
            if ((b & 0x40) && shift < 64) v |= ~(uint64_t)0 << shift;
            return (int64_t)v;
        }
    }
    r->bad = 1;
    return 0;
}

/* A NUL-terminated string at the cursor ("" and bad past the end). */
static const char *cstr(rd *r)
{
    const uint8_t *z = r->i < r->n ? memchr(r->p + r->i, 0, r->n - r->i) : NULL;
    if (!z) {
        r->bad = 1;
        r->i = r->n;
        return "";
    }
    const char *s = (const char *)r->p + r->i;
    r->i = (size_t)(z - r->p) + 1;
    return s;
}

/* ---- the ELF sections ----------------------------------------------------------------- */

typedef struct sect {
    const uint8_t *p;
    size_t n;
} sect;

/* A relocation of .debug_line resolved to its symbol. */
typedef struct rel {
    uint64_t off, value;
    const char *name;
} rel;

typedef struct elf {
    sect line, rela, str, sym, symstr;
    rel *rels; /* by offset */
    size_t nrels;
} elf;

static int section(const uint8_t *e, size_t len, uint64_t shoff, uint64_t shent, uint64_t i,
                   sect *out)
{
    rd h = {e + shoff + i * shent, shent, 24, 0};
    const uint64_t off = fixed(&h, 8), size = fixed(&h, 8);
    if (h.bad || off > len || size > len - off) return 0;
    out->p = e + off;
    out->n = size;
    return 1;
}

static int read_elf(const uint8_t *e, size_t len, elf *out)
{
    memset(out, 0, sizeof *out);
    if (!e || len < 64 || memcmp(e, "\177ELF", 4) != 0 || e[4] != 2 || e[5] != 1) return 0;
    rd h = {e, len, 40, 0};
    const uint64_t shoff = fixed(&h, 8);
    h.i = 58;
    const uint64_t shent = fixed(&h, 2), shnum = fixed(&h, 2), shstr = fixed(&h, 2);
    if (shent < 64 || shoff > len || shnum > (len - shoff) / shent || shstr >= shnum) return 0;
    sect names;
    if (!section(e, len, shoff, shent, shstr, &names)) return 0;
    for (uint64_t i = 0; i < shnum; i++) {
        rd s = {e + shoff + i * shent, shent, 0, 0};
        const uint64_t name = fixed(&s, 4), type = fixed(&s, 4);
        s.i = 40;
        const uint64_t link = fixed(&s, 4);
        if (name >= names.n || !memchr(names.p + name, 0, names.n - name)) continue;
        const char *n = (const char *)names.p + name;
        sect *dst = strcmp(n, ".debug_line") == 0        ? &out->line
                    : strcmp(n, ".rela.debug_line") == 0 ? &out->rela
                    : strcmp(n, ".debug_str") == 0       ? &out->str
                    : type == 2                          ? &out->sym /* SHT_SYMTAB */
                                                         : NULL;
        if (dst && !section(e, len, shoff, shent, i, dst)) return 0;
        if (type == 2 && (link >= shnum || !section(e, len, shoff, shent, link, &out->symstr)))
            return 0;
    }
    return 1;
}

static int by_offset(const void *a, const void *b)
{
    const rel *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* .debug_line's relocations, each with its symbol's name and value, sorted
 * (one search per sequence). 0 when out of memory. */
static int read_relocations(elf *f)
{
    const size_t n = f->rela.n / 24;
    f->rels = n ? malloc(n * sizeof *f->rels) : NULL;
    if (n && !f->rels) return 0;
    for (size_t k = 0; k < n; k++) {
        rd r = {f->rela.p + k * 24, 24, 0, 0};
        const uint64_t off = fixed(&r, 8), info = fixed(&r, 8), addend = fixed(&r, 8);
        const uint64_t sym = (info >> 32) * 24;
        if (sym + 24 > f->sym.n) continue;
        rd s = {f->sym.p + sym, 24, 0, 0};
        const uint64_t name = fixed(&s, 4);
        s.i = 8;
        const uint64_t value = fixed(&s, 8) + addend;
        if (name >= f->symstr.n || !memchr(f->symstr.p + name, 0, f->symstr.n - name)) continue;
        f->rels[f->nrels++] = (rel){off, value, (const char *)f->symstr.p + name};
    }
    if (f->nrels) qsort(f->rels, f->nrels, sizeof *f->rels, by_offset);
    return 1;
}

/* The name and value of the symbol the relocation at `where` in
 * .debug_line points at (NULL: none). */
static const char *reloc_symbol(const elf *f, size_t where, uint64_t *value)
{
    const rel key = {where, 0, NULL};
    const rel *r = f->nrels ? bsearch(&key, f->rels, f->nrels, sizeof key, by_offset) : NULL;
    if (!r) return NULL;
    *value = r->value;
    return r->name;
}

/* ---- the line program ----------------------------------------------------------------- */

typedef struct header {
    unsigned min_inst, line_range, opcode_base;
    int line_base;
    uint8_t std_len[256];
    size_t dirs, prog, end; /* offsets in .debug_line */
} header;

static int read_header(const sect *s, size_t u, header *h)
{
    rd r = {s->p, s->n, u, 0};
    const uint64_t len = fixed(&r, 4);
    if (len >= 0xfffffff0u || len > s->n - r.i) return 0; /* 64-bit DWARF is not used */
    h->end = r.i + len;
    const uint64_t version = fixed(&r, 2), hlen = fixed(&r, 4);
    h->prog = r.i + hlen;
    h->min_inst = (unsigned)fixed(&r, 1);
    if (version >= 4) fixed(&r, 1); /* maximum operations per instruction */
    fixed(&r, 1);                   /* default is_stmt */
    h->line_base = (int8_t)fixed(&r, 1);
    h->line_range = (unsigned)fixed(&r, 1);
    h->opcode_base = (unsigned)fixed(&r, 1);
    memset(h->std_len, 0, sizeof h->std_len);
    for (unsigned k = 1; k < h->opcode_base; k++) h->std_len[k] = (uint8_t)fixed(&r, 1);
    h->dirs = r.i;
    return !r.bad && version >= 2 && version <= 4 && h->line_range > 0 && h->opcode_base > 0 &&
           h->prog <= h->end && h->end <= s->n;
}

/* "a/b/../c" as "a/c" and "a/./c" as "a/c" (as CUPTI names files), into
 * out (room for strlen(in) + 2). */
static void normalize(const char *in, char *out)
{
    char *base = out, *w = out;
    if (in[0] == '/') *w++ = '/', base++;
    for (const char *r = in; *r;) {
        const size_t n = strcspn(r, "/");
        const int dot = n == 1 && r[0] == '.', up = n == 2 && r[0] == '.' && r[1] == '.';
        const int after_up =
            w - base >= 3 && memcmp(w - 3, "../", 3) == 0 && (w - 3 == base || w[-4] == '/');
        if (up && w > base && !after_up) {
            w--; /* the '/' after the last segment, then the segment */
            while (w > base && w[-1] != '/') w--;
        } else if (n && !dot) {
            memcpy(w, r, n);
            w += n;
            *w++ = '/';
        }
        r += n + (r[n] == '/');
    }
    if (w > base) w--; /* the last '/' */
    *w = '\0';
}

static char *join(const char *dir, const char *name)
{
    const int abs = name[0] == '/' || !dir[0];
    const size_t n = strlen(dir) + strlen(name) + 3;
    char *p = malloc(n), *q = malloc(n);
    if (p && q) {
        snprintf(p, n, "%s%s%s", abs ? "" : dir, abs ? "" : "/", name);
        normalize(p, q);
    } else {
        free(q);
        q = NULL;
    }
    free(p);
    return q;
}

/* The unit's include directories and files, each file joined with its. */
static int read_files(const sect *s, const header *h, rs_line_table *t)
{
    rd r = {s->p, h->prog, h->dirs, 0};
    const char *dirs[256];
    size_t nd = 0;
    for (const char *d = cstr(&r); !r.bad && d[0]; d = cstr(&r))
        if (nd < 256) dirs[nd++] = d;
    for (const char *f = cstr(&r); !r.bad && f[0]; f = cstr(&r)) {
        const uint64_t dir = uleb(&r);
        uleb(&r); /* modification time */
        uleb(&r); /* length */
        char **more = realloc(t->files, (t->nfiles + 1) * sizeof *more);
        if (!more) return 0;
        t->files = more;
        t->files[t->nfiles] = join(dir >= 1 && dir <= nd ? dirs[dir - 1] : "", f);
        if (!t->files[t->nfiles++]) return 0;
    }
    return !r.bad;
}

typedef struct state {
    uint64_t addr;
    uint32_t file, line, ctx, name;
    int mine; /* in the function's sequence */
} state;

static const state fresh = {0, 1, 1, 0, UINT32_MAX, 0};

static int emit(rs_line_table *t, const state *st)
{
    if (!st->mine) return 1;
    if (t->nrows % 1024 == 0) {
        if (t->nrows >= ((size_t)1 << 22)) return 0;
        row *more = realloc(t->rows, (t->nrows + 1024) * sizeof *more);
        if (!more) return 0;
        t->rows = more;
    }
    t->rows[t->nrows++] = (row){st->addr, st->file, st->line, st->ctx, st->name};
    return 1;
}

/* An extended opcode; returns 0 on a malformed one, 2 when the function's
 * sequence ended. */
static int extended(const elf *f, rd *r, state *st, rs_line_table *t)
{
    const uint64_t len = uleb(r);
    const size_t end = r->i + len;
    if (r->bad || len == 0 || len > r->n - r->i) return 0;
    const unsigned op = (unsigned)fixed(r, 1);
    int ret = 1;
    if (op == 1) { /* end of sequence */
        if (!emit(t, st)) return 0;
        ret = st->mine ? 2 : 1;
        *st = fresh;
    } else if (op == 2) { /* set address: relocated to a kernel's symbol */
        uint64_t base = 0;
        const char *sym = reloc_symbol(f, r->i, &base);
        st->addr = fixed(r, 8) + (sym ? base : 0);
        st->mine = sym && strcmp(sym, t->kernel) == 0;
    } else if (op == EXT_CONTEXT) {
        st->ctx = (uint32_t)uleb(r);
        st->name = (uint32_t)uleb(r);
        if (st->ctx == 0) st->name = UINT32_MAX;
    }
    r->i = end;
    return r->bad ? 0 : ret;
}

/* A standard opcode (op below the opcode base). */
static int standard(const header *h, rd *r, unsigned op, state *st, rs_line_table *t)
{
    switch (op) {
    case 1: return emit(t, st);
    case 2: st->addr += uleb(r) * h->min_inst; break;
    case 3: st->line += (uint32_t)sleb(r); break; /* unsigned: hostile input wraps */
    case 4: st->file = (uint32_t)uleb(r); break;
    case 8: st->addr += (uint64_t)((255 - h->opcode_base) / h->line_range) * h->min_inst; break;
    case 9: st->addr += fixed(r, 2); break;
    default:
        for (unsigned k = 0; k < h->std_len[op]; k++) uleb(r);
    }
    return !r->bad;
}

/* Runs one unit's program; 1 when the function's sequence was in it. */
static int run_unit(const elf *f, const header *h, rs_line_table *t)
{
    rd r = {f->line.p, h->end, h->prog, 0};
    state st = fresh;
    while (r.i < r.n) {
        const unsigned op = (unsigned)fixed(&r, 1);
        int ok = 1;
        if (op >= h->opcode_base) {
            const unsigned adj = op - h->opcode_base;
            st.addr += (uint64_t)(adj / h->line_range) * h->min_inst;
            st.line += (uint32_t)h->line_base + adj % h->line_range;
            ok = emit(t, &st);
        } else if (op == 0) {
            ok = extended(f, &r, &st, t);
            if (ok == 2) return 1;
        } else {
            ok = standard(h, &r, op, &st, t);
        }
        if (!ok) return -1;
    }
    return t->nrows ? -1 : 0; /* a sequence of the function without its end */
}

#define NAMES_MAX 4096 /* distinct inlined functions kept; the rest share "?" */
#define NAME_LEN  4096 /* a name's longest copy (CUB's run past 1000 characters) */
#define SLOTS     (2 * NAMES_MAX)

/* The copied name of a .debug_str offset: index into t->names. */
static uint32_t name_index(const elf *f, rs_line_table *t, uint32_t *slot_off, uint32_t *slot_idx,
                           uint32_t off)
{
    uint32_t h = (off * 2654435761u) % SLOTS;
    while (slot_idx[h] != UINT32_MAX && slot_off[h] != off) h = (h + 1) % SLOTS;
    if (slot_idx[h] != UINT32_MAX) return slot_idx[h];
    if (t->nnames >= NAMES_MAX) return NAMES_MAX; /* "?" */
    const int ok = off < f->str.n && memchr(f->str.p + off, 0, f->str.n - off);
    t->names[t->nnames] = strndup(ok ? (const char *)f->str.p + off : "?", NAME_LEN);
    if (!t->names[t->nnames]) return UINT32_MAX;
    slot_off[h] = off;
    slot_idx[h] = (uint32_t)t->nnames;
    return (uint32_t)t->nnames++;
}

/* Turns the rows' .debug_str offsets into indices of copied names. */
static int resolve_names(const elf *f, rs_line_table *t)
{
    uint32_t *slot_off = malloc(SLOTS * sizeof *slot_off);
    uint32_t *slot_idx = malloc(SLOTS * sizeof *slot_idx);
    t->names = calloc(NAMES_MAX + 1, sizeof *t->names);
    int ok = slot_off && slot_idx && t->names;
    if (ok) memset(slot_idx, 0xff, SLOTS * sizeof *slot_idx);
    if (ok) ok = (t->names[NAMES_MAX] = strdup("?")) != NULL;
    for (size_t k = 0; ok && k < t->nrows; k++) {
        if (t->rows[k].name == UINT32_MAX) continue;
        t->rows[k].name = name_index(f, t, slot_off, slot_idx, t->rows[k].name);
        ok = t->rows[k].name != UINT32_MAX;
    }
    free(slot_off);
    free(slot_idx);
    return ok;
}

rs_line_table *rs_line_table_load(const void *cubin, size_t size, const char *function,
                                  rs_error *err)
{
    elf f;
    memset(&f, 0, sizeof f);
    rs_line_table *t = NULL;
    if (!function || !*function)
        rs_fail(err, RS_E_IO, "no kernel named");
    else if (!read_elf(cubin, size, &f) || !f.line.n)
        rs_fail(err, RS_E_IO, "no line table in the cubin (is it built with -lineinfo?)");
    else if (!read_relocations(&f) || !(t = calloc(1, sizeof *t)))
        rs_fail(err, RS_E_NOMEM, "out of memory reading a line table");
    if (!t) {
        free(f.rels);
        return NULL;
    }
    snprintf(t->kernel, sizeof t->kernel, "%s", function);
    int found = 0;
    for (size_t u = 0; u < f.line.n && !found;) {
        header h;
        if (!read_header(&f.line, u, &h)) break;
        found = run_unit(&f, &h, t);
        if (found == 1 && !read_files(&f.line, &h, t)) found = -1;
        u = h.end;
    }
    if (found == 1) { /* exactly the rows read: nothing past them to wander into */
        row *fit = realloc(t->rows, t->nrows * sizeof *t->rows);
        if (fit) t->rows = fit;
    }
    if (found == 1 && !resolve_names(&f, t)) found = -1;
    free(f.rels);
    if (found != 1) {
        rs_fail(err, RS_E_IO,
                found ? "the cubin's line table for %s is malformed" : "%s has no line table rows",
                function);
        rs_line_table_free(t);
        return NULL;
    }
    return t;
}

static void frame(const rs_line_table *t, const row *r, rs_src_frame *out)
{
    const char *file = r->file >= 1 && r->file <= t->nfiles ? t->files[r->file - 1] : "?";
    snprintf(out->file, sizeof out->file, "%s", file);
    out->line = r->line;
    const int named = r->ctx && (r->name < t->nnames || r->name == NAMES_MAX);
    out->function = named ? t->names[r->name] : t->kernel;
}

int rs_line_table_chain(const rs_line_table *t, uint64_t pc_offset, rs_src_frame *frames, int max)
{
    if (!t || !t->nrows || max <= 0 || pc_offset >= t->rows[t->nrows - 1].addr) return 0;
    size_t lo = 0, hi = t->nrows - 1; /* the last row (the end) holds no instruction */
    while (lo < hi) {                 /* the first row past pc_offset */
        const size_t mid = lo + (hi - lo) / 2;
        if (t->rows[mid].addr <= pc_offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) return 0; /* before the first row */
    size_t k = lo - 1;
    int n = 0;
    for (;;) {
        const row *r = &t->rows[k];
        if (r->line == 0) return n;
        frame(t, r, &frames[n++]);
        /* the call site is an earlier row of the sequence: no cycle */
        if (!r->ctx || r->ctx - 1 >= k || n == max) return n;
        k = r->ctx - 1;
    }
}

int rs_frames_pick(const rs_src_frame *frames, int n, int (*own)(const void *ctx, const char *file),
                   const void *ctx)
{
    int pick = 0;
    while (pick < n - 1 && !own(ctx, frames[pick].file)) pick++;
    return pick;
}

uint64_t rs_line_table_end(const rs_line_table *t)
{
    return t && t->nrows ? t->rows[t->nrows - 1].addr : 0;
}

void rs_line_table_free(rs_line_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nfiles; i++) free(t->files[i]);
    for (size_t i = 0; t->names && i < t->nnames; i++) free(t->names[i]);
    if (t->names) free(t->names[NAMES_MAX]);
    free(t->files);
    free(t->names);
    free(t->rows);
    free(t);
}

long rs_cubin_symbol_index(const void *cubin, size_t size, const char *function)
{
    elf f;
    if (!function || !read_elf(cubin, size, &f)) return -1;
    for (size_t k = 0; k + 24 <= f.sym.n; k += 24) {
        rd s = {f.sym.p + k, 24, 0, 0};
        const uint64_t name = fixed(&s, 4);
        if (name < f.symstr.n && memchr(f.symstr.p + name, 0, f.symstr.n - name) &&
            strcmp((const char *)f.symstr.p + name, function) == 0)
            return (long)(k / 24);
    }
    return -1;
}
