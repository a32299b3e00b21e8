/* A cubin's kernels read from its ELF, without a GPU or CUPTI: the entry
 * points and their sizes from the symbol table, each kernel's parameters
 * from its .nv.info section. Bounds are checked against the file's length
 * at every step: a cubin may come from a user's kernel or a damaged file. */
#include "cubin.h"

#include <stdio.h>
#include <string.h>

static uint64_t rd(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Calls fn for every function symbol marked as an entry (st_other bit
 * 0x10): a kernel, global or local (an anonymous namespace, `static
 * __global__`). Returns their count, -1 when it is not a 64-bit ELF. */
static int each_entry(const void *cubin, size_t len,
                      void (*fn)(void *ctx, const char *name, uint64_t size), void *ctx)
{
    const unsigned char *e = cubin;
    int count = 0;
    if (!e || len < 64 || memcmp(e, "\177ELF", 4) != 0 || e[4] != 2) return -1;
    const uint64_t shoff = rd(e + 40, 8), shent = rd(e + 58, 2), shnum = rd(e + 60, 2);
    if (shent < 64 || shoff > len || shnum > (len - shoff) / shent) return -1;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = e + shoff + i * shent;
        if (rd(sh + 4, 4) != 2) continue; /* SHT_SYMTAB */
        const uint64_t off = rd(sh + 24, 8), size = rd(sh + 32, 8), link = rd(sh + 40, 4);
        const uint64_t entsize = rd(sh + 56, 8);
        if (link >= shnum || entsize < 24 || off > len || size > len - off) return -1;
        const unsigned char *st = e + shoff + link * shent;
        const uint64_t soff = rd(st + 24, 8), ssize = rd(st + 32, 8);
        if (soff > len || ssize > len - soff) return -1;
        for (uint64_t k = 0; k < size / entsize; k++) {
            const unsigned char *sym = e + off + k * entsize;
            const uint64_t name = rd(sym, 4);
            const int info = sym[4], other = sym[5];
            const int bind = info >> 4; /* STB_LOCAL 0, STB_GLOBAL 1 */
            if ((info & 0xf) != 2 || bind > 1 || !(other & 0x10) || name >= ssize) continue;
            const char *n = (const char *)e + soff + name;
            if (memchr(n, '\0', ssize - name)) fn(ctx, n, rd(sym + 16, 8)); /* st_size */
            count++;
        }
    }
    return count;
}

typedef struct names_ctx {
    char *names;
    size_t len;
} names_ctx;

static void add_name(void *ctx, const char *n, uint64_t size)
{
    names_ctx *c = ctx;
    (void)size;
    if (!c->names || !c->len) return; /* counted, nowhere to write */
    const size_t used = strlen(c->names);
    if (used < c->len) snprintf(c->names + used, c->len - used, "%s%s", used ? " " : "", n);
}

int rs_cubin_entries(const void *cubin, size_t len, char *names, size_t names_len)
{
    if (names && names_len) names[0] = '\0';
    names_ctx c = {names, names_len};
    return each_entry(cubin, len, add_name, &c);
}

typedef struct size_ctx {
    const char *name;
    uint64_t size;
} size_ctx;

static void find_size(void *ctx, const char *n, uint64_t size)
{
    size_ctx *c = ctx;
    if (strcmp(n, c->name) == 0) c->size = size;
}

uint64_t rs_cubin_entry_size(const void *cubin, size_t len, const char *name)
{
    size_ctx c = {name, 0};
    return name && each_entry(cubin, len, find_size, &c) > 0 ? c.size : 0;
}

/* The section named `want` of a 64-bit ELF: its bytes and size; NULL where
 * there is none or the file is not one. */
static const unsigned char *elf_section(const void *cubin, size_t len, const char *want,
                                        uint64_t *size)
{
    const unsigned char *e = cubin;
    if (!e || len < 64 || memcmp(e, "\177ELF", 4) != 0 || e[4] != 2) return NULL;
    const uint64_t shoff = rd(e + 40, 8), shent = rd(e + 58, 2), shnum = rd(e + 60, 2);
    const uint64_t strndx = rd(e + 62, 2);
    if (shent < 64 || shoff > len || shnum > (len - shoff) / shent || strndx >= shnum) return NULL;
    const unsigned char *strs = e + shoff + strndx * shent;
    const uint64_t soff = rd(strs + 24, 8), ssize = rd(strs + 32, 8);
    if (soff > len || ssize > len - soff) return NULL;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = e + shoff + i * shent;
        const uint64_t name = rd(sh, 4), off = rd(sh + 24, 8), sz = rd(sh + 32, 8);
        if (name >= ssize || off > len || sz > len - off) continue;
        const char *n = (const char *)e + soff + name;
        if (!memchr(n, '\0', ssize - name) || strcmp(n, want) != 0) continue;
        *size = sz;
        return e + off;
    }
    return NULL;
}

int rs_cubin_params(const void *cubin, size_t len, const char *entry, int *sizes, int max)
{
    char want[4096]; /* CUB's kernels have names of 200 bytes and more */
    if (!entry || strlen(entry) + 10 > sizeof want) return -1;
    snprintf(want, sizeof want, ".nv.info.%s", entry);
    uint64_t size = 0;
    const unsigned char *d = elf_section(cubin, len, want, &size);
    if (!d) return -1;
    int count = -1;                        /* no EIATTR_KPARAM_INFO: the cubin does not say */
    for (uint64_t i = 0; i + 4 <= size;) { /* records: format, attribute, then its value */
        const int fmt = d[i], attr = d[i + 1];
        if (fmt != 4) { /* a value of two bytes or none */
            i += 4;
            continue;
        }
        const uint64_t n = rd(d + i + 2, 2);
        if (n > size - i - 4) return -1;
        if (attr == 0x17 && n >= 12) { /* EIATTR_KPARAM_INFO: ordinal, offset, size<<18 */
            const uint64_t ordinal = rd(d + i + 8, 2), bytes = rd(d + i + 12, 4) >> 18;
            if (ordinal < (uint64_t)max) sizes[ordinal] = (int)bytes;
            if (ordinal < 4096 && (int)ordinal + 1 > count) count = (int)ordinal + 1;
        }
        i += 4 + n;
    }
    return count;
}
