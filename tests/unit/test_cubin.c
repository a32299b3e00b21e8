/* A cubin's kernels from its ELF (nvtools/cubin.c), on the kernels' cubins
 * the build copies beside the program: the entry points and their names,
 * each one's code size, its parameters' sizes. Then damaged bytes: cut
 * short at every length, not an ELF, a 32-bit ELF, offsets and counts past
 * the end, every byte of the headers and tables changed; each in a buffer
 * of its exact size, so that ASan (CI) sees any read past it.
 *   test_cubin CUBIN_DIR */
#include <stdlib.h>

#include "check.h"
#include "cubin_files.h"
#include "nvtools/cubin.h"
#include "read_file.h"

#define K_FAULT  "_Z7k_faultPi"
#define K_EMPTY  "_Z7k_emptyv"
#define K_STREAM "_Z13k_stream_readPK5uint4mPy" /* (const uint4 *, size_t, u64 *) */

static char names[1 << 20];

/* The number of space-separated words in s; whether one of them is w. */
static int words(const char *s, const char *w, int *has)
{
    int n = 0;
    *has = 0;
    for (const char *p = s; *p;) {
        const size_t len = strcspn(p, " ");
        if (len) n++;
        if (w && len == strlen(w) && strncmp(p, w, len) == 0) *has = 1;
        p += len + (p[len] == ' ');
    }
    return n;
}

static void wr(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* What the three readers say of bytes, copied to a buffer of exactly len. */
typedef struct seen {
    int entries, params;
    uint64_t code;
} seen;

static seen probe(const void *bytes, size_t len)
{
    unsigned char *b = malloc(len ? len : 1);
    seen s = {-2, -2, 0};
    if (!b) return s;
    memcpy(b, bytes, len);
    char few[64];
    int sizes[4];
    s.entries = rs_cubin_entries(b, len, few, sizeof few);
    s.code = rs_cubin_entry_size(b, len, K_STREAM);
    s.params = rs_cubin_params(b, len, K_STREAM, sizes, 4);
    free(b);
    return s;
}

static int refused(seen s)
{
    return s.entries == -1 && s.code == 0 && s.params == -1;
}

/* bandwidth.cu's three kernels, whose mangled names nothing changes. */
static void bandwidth_kernels(const char *c, size_t size)
{
    int has = 0;
    CHECK(rs_cubin_entries(c, size, names, sizeof names) == 3);
    CHECK(words(names, NULL, &has) == 3);
    static const char *const k[] = {K_FAULT, K_EMPTY, K_STREAM};
    uint64_t total = 0;
    for (int i = 0; i < 3; i++) {
        words(names, k[i], &has);
        CHECK_MSG(has, "%s not in '%s'", k[i], names);
        const uint64_t code = rs_cubin_entry_size(c, size, k[i]);
        CHECK_MSG(code > 0 && code % 16 == 0, "%s: %llu bytes", k[i], (unsigned long long)code);
        total += code;
    }
    CHECK(total < size);
    CHECK(rs_cubin_entry_size(c, size, "_Z7k_fault") == 0); /* a name's start is not a name */
    CHECK(rs_cubin_entry_size(c, size, "k_nothere") == 0);
    CHECK(rs_cubin_entry_size(c, size, "") == 0);
    CHECK(rs_cubin_entry_size(c, size, NULL) == 0);
    /* a small buffer: the first names, cut and ended; the count all the same */
    char small[24];
    memset(small, '#', sizeof small);
    CHECK(rs_cubin_entries(c, size, small, 12) == 3);
    CHECK(strlen(small) == 11 && strncmp(small, names, 11) == 0 && small[12] == '#');
    memset(small, '#', sizeof small);
    CHECK(rs_cubin_entries(c, size, small, 1) == 3 && small[0] == '\0' && small[1] == '#');
}

static void bandwidth_params(const char *c, size_t size)
{
    int sizes[8] = {0};
    CHECK(rs_cubin_params(c, size, K_STREAM, sizes, 8) == 3);
    CHECK(sizes[0] == 8 && sizes[1] == 8 && sizes[2] == 8);
    CHECK(rs_cubin_params(c, size, K_FAULT, sizes, 8) == 1 && sizes[0] == 8);
    /* no parameter: no EIATTR_KPARAM_INFO record, "the cubin does not say" */
    CHECK(rs_cubin_params(c, size, K_EMPTY, sizes, 8) == -1);
    CHECK(rs_cubin_params(c, size, "k_nothere", sizes, 8) == -1);
    CHECK(rs_cubin_params(c, size, "", sizes, 8) == -1);
    CHECK(rs_cubin_params(c, size, NULL, sizes, 8) == -1);
    /* max under the count: the count, and sizes past max never written */
    int few[3] = {-7, -7, -7};
    CHECK(rs_cubin_params(c, size, K_STREAM, few, 1) == 3 && few[0] == 8 && few[1] == -7);
    CHECK(rs_cubin_params(c, size, K_STREAM, few + 1, 0) == 3 && few[1] == -7);
}

/* classic.cu: the ladder's first kernels, templates in namespace rs. */
static void classic(const char *c, size_t size)
{
    int has = 0;
    const int n = rs_cubin_entries(c, size, names, sizeof names);
    CHECK_MSG(n > 100 && words(names, NULL, &has) == n, "%d entries", n);
    char seq[512] = "", atomic[512] = "";
    for (char *t = strtok(names, " "); t; t = strtok(NULL, " ")) {
        if (strstr(t, "12k_sequentialI") && strstr(t, "SumOpIi"))
            snprintf(seq, sizeof seq, "%s", t);
        if (strstr(t, "8k_atomicI") && strstr(t, "SumOpIi"))
            snprintf(atomic, sizeof atomic, "%s", t);
    }
    CHECK_MSG(seq[0] && atomic[0], "k_sequential's and k_atomic's int32 sums are listed");
    CHECK(rs_cubin_entry_size(c, size, seq) > 0 && rs_cubin_entry_size(c, size, atomic) > 0);
    int sizes[8] = {0};
    /* k_sequential(const T *in, unsigned long long n, Fin fin) */
    CHECK(rs_cubin_params(c, size, seq, sizes, 8) == 3 && sizes[0] == 8 && sizes[1] == 8);
    /* k_atomic(const T *in, unsigned long long n, Acc *out) */
    CHECK(rs_cubin_params(c, size, atomic, sizes, 8) == 3);
    CHECK(sizes[0] == 8 && sizes[1] == 8 && sizes[2] == 8);
}

/* Every cubin in the folder: the count is the names listed; each kernel
 * has code; its parameters are a count with sizes, or -1. */
static void every(const char *path, void *ctx)
{
    int *kernels = ctx, has = 0;
    size_t size = 0;
    char *c = read_file(path, &size);
    const int n = c ? rs_cubin_entries(c, size, names, sizeof names) : -1;
    CHECK_MSG(n >= 0 && words(names, NULL, &has) == n, "%s: %d entries", path, n);
    for (char *t = strtok(names, " "); n > 0 && t; t = strtok(NULL, " ")) {
        int sizes[16] = {0};
        const int np = rs_cubin_params(c, size, t, sizes, 16);
        CHECK_MSG(rs_cubin_entry_size(c, size, t) > 0 && np >= -1 && np <= 16, "%s: %s", path, t);
        for (int i = 0; i < np; i++) CHECK(sizes[i] > 0 && sizes[i] <= 4096);
        (*kernels)++;
    }
    free(c);
}

static int same(seen a, seen b)
{
    return a.entries == b.entries && a.params == b.params && a.code == b.code;
}

/* Cut short: the first 100 bytes, the first half, and every other length:
 * refused while the section headers are cut, read whole once every
 * section is in, one or the other in between. */
static void truncated(const unsigned char *c, size_t size)
{
    const seen whole = probe(c, size);
    CHECK(whole.entries == 3 && whole.code > 0 && whole.params == 3);
    CHECK(refused(probe(c, 100)));
    CHECK(refused(probe(c, size / 2)));
    CHECK(refused(probe(c, 0)));
    const uint64_t shoff = elf_rd(c + 40, 8), shnum = elf_rd(c + 60, 2);
    const uint64_t table_end = shoff + shnum * 64;
    uint64_t all = table_end;
    for (uint64_t i = 0; table_end <= size && i < shnum; i++) {
        const unsigned char *sh = c + shoff + i * 64;
        const uint64_t end = elf_rd(sh + 24, 8) + elf_rd(sh + 32, 8);
        if (elf_rd(sh + 4, 4) != 8 && end > all) all = end; /* not SHT_NOBITS */
    }
    int wrong = 0;
    for (size_t len = 1; len < size; len++) {
        const seen s = probe(c, len);
        wrong += len < table_end ? !refused(s)
                 : len >= all    ? !same(s, whole)
                                 : !refused(s) && !same(s, whole);
    }
    CHECK_MSG(table_end <= size && wrong == 0, "%d lengths of %zu read wrong", wrong, size);
}

static void not_elf(void)
{
    static const char text[] = "This is not an ELF file: only text, long enough to be read as one "
                               "if nothing looked at its first bytes.";
    CHECK(refused(probe(text, sizeof text)));
    unsigned char zero[64] = {0};
    CHECK(refused(probe(zero, sizeof zero)));
    memcpy(zero, "\177ELF", 4); /* the magic, no class */
    CHECK(refused(probe(zero, sizeof zero)));
    zero[4] = 2; /* a 64-bit ELF with no section */
    zero[58] = 64;
    const seen s = probe(zero, sizeof zero);
    CHECK(s.entries == 0 && s.code == 0 && s.params == -1);
    char out[8] = "#######";
    int sizes[2];
    CHECK(rs_cubin_entries(NULL, 0, out, sizeof out) == -1 && out[0] == '\0');
    CHECK(rs_cubin_entry_size(NULL, 0, K_STREAM) == 0);
    CHECK(rs_cubin_params(NULL, 0, K_STREAM, sizes, 2) == -1);
}

/* c with the value v (bytes wide) at offset at, probed. */
static seen patched(const unsigned char *c, size_t size, size_t at, uint64_t v, int bytes)
{
    unsigned char *b = malloc(size);
    seen s = {-2, -2, 0};
    if (!b) return s;
    memcpy(b, c, size);
    wr(b + at, v, bytes);
    s = probe(b, size);
    free(b);
    return s;
}

/* The ELF header's fields: class, section header offset, size, count. */
static void bad_header(const unsigned char *c, size_t size)
{
    CHECK(refused(patched(c, size, 4, 1, 1))); /* ELFCLASS32 */
    CHECK(refused(patched(c, size, 40, size + 64, 8)));
    CHECK(refused(patched(c, size, 40, size, 8)));
    CHECK(refused(patched(c, size, 40, size - 32, 8)));
    CHECK(refused(patched(c, size, 40, UINT64_MAX - 63, 8)));
    CHECK(refused(patched(c, size, 60, 0xffff, 2))); /* section count */
    CHECK(refused(patched(c, size, 58, 32, 2)));     /* section header size */
    CHECK(refused(patched(c, size, 58, 0, 2)));
    const seen s = patched(c, size, 62, 0xffff, 2); /* no section names: no .nv.info */
    CHECK(s.entries == 3 && s.code > 0 && s.params == -1);
    const seen over = patched(c, size, 40, 0, 8); /* the headers over the ELF's own */
    CHECK(over.entries >= -1 && over.params >= -1);
}

/* The offset in c of section name's header (0: none). */
static size_t header_at(const unsigned char *c, size_t size, const char *name)
{
    unsigned char *sh = elf_section_header((void *)c, size, name);
    return sh ? (size_t)(sh - c) : 0;
}

/* The symbol and string tables and a kernel's .nv.info, pointed past the
 * end or at nonsense. */
static void bad_sections(const unsigned char *c, size_t size)
{
    const size_t sym = header_at(c, size, ".symtab"), str = header_at(c, size, ".strtab");
    const size_t info = header_at(c, size, ".nv.info." K_STREAM);
    CHECK_MSG(sym && str && info, "the sections are found: %zu %zu %zu", sym, str, info);
    if (!sym || !str || !info) return;
    seen s = patched(c, size, sym + 24, size + 1, 8); /* the symbols' offset */
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, sym + 32, size, 8); /* their size */
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, sym + 40, 0xffffffff, 4); /* their string table's index */
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, sym + 56, 8, 8); /* a symbol smaller than one */
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, str + 24, size, 8); /* the strings' offset */
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, str + 32, UINT64_MAX, 8);
    CHECK(s.entries == -1 && s.code == 0);
    s = patched(c, size, info + 24, size - 4, 8); /* .nv.info past the end */
    CHECK(s.entries == 3 && s.params == -1);
}

/* The offset of the first EIATTR_KPARAM_INFO record (format 4, attribute
 * 0x17) in the .nv.info bytes d, or len when there is none. */
static uint64_t kparam_at(const unsigned char *d, uint64_t len)
{
    for (uint64_t i = 0; i + 4 <= len;) {
        if (d[i] != 4) {
            i += 4;
            continue;
        }
        if (d[i + 1] == 0x17) return i;
        i += 4 + elf_rd(d + i + 2, 2);
    }
    return len;
}

/* Symbols whose names are past the strings; a parameter's record longer
 * than its section. */
static void bad_records(const unsigned char *c, size_t size)
{
    const size_t sym = header_at(c, size, ".symtab"),
                 info = header_at(c, size, ".nv.info." K_STREAM);
    unsigned char *b = sym && info ? malloc(size) : NULL;
    if (!b) return;
    memcpy(b, c, size);
    const uint64_t off = elf_rd(c + sym + 24, 8), n = elf_rd(c + sym + 32, 8) / 24;
    for (uint64_t i = 0; i < n && off + (i + 1) * 24 <= size; i++) wr(b + off + i * 24, ~0u, 4);
    const seen s = probe(b, size);
    CHECK(s.entries == 0 && s.code == 0 && s.params == 3);
    free(b);
    const uint64_t io = elf_rd(c + info + 24, 8), isz = elf_rd(c + info + 32, 8);
    const uint64_t r = io + isz <= size ? kparam_at(c + io, isz) : isz;
    CHECK_MSG(r < isz, "%s has a parameter record", K_STREAM);
    if (r >= isz) return;
    CHECK(patched(c, size, io + r + 2, 0xffff, 2).params == -1); /* its length */
    CHECK(patched(c, size, info + 32, r + 4, 8).params == -1);   /* the section cut in it */
    CHECK(patched(c, size, info + 32, r + 15, 8).params == -1);
}

/* Every byte of the ELF header, the section headers, the symbols and a
 * kernel's .nv.info set to 0, 0x7f, 0x80 and 0xff in turn: an answer in
 * range, and nothing read past the buffer. */
static void each_byte(const unsigned char *c, size_t size)
{
    const size_t sym = header_at(c, size, ".symtab"),
                 info = header_at(c, size, ".nv.info." K_STREAM);
    uint64_t from[4] = {0, elf_rd(c + 40, 8)}, to[4] = {64, from[1] + elf_rd(c + 60, 2) * 64};
    for (int k = 2; k < 4; k++) {
        const size_t sh = k == 2 ? sym : info;
        from[k] = sh ? elf_rd(c + sh + 24, 8) : 0;
        to[k] = sh ? from[k] + elf_rd(c + sh + 32, 8) : 0;
    }
    static const unsigned char values[] = {0x00, 0x7f, 0x80, 0xff};
    unsigned char *b = malloc(size);
    int probes = 0, odd = 0;
    for (int k = 0; b && k < 4; k++)
        for (uint64_t at = from[k]; at < to[k] && at < size; at++)
            for (int v = 0; v < 4; v++) {
                memcpy(b, c, size);
                b[at] = values[v];
                const seen s = probe(b, size);
                odd += s.entries < -1 || s.entries > 1000 || s.params < -1 || s.params > 4096;
                probes++;
            }
    free(b);
    CHECK_MSG(probes > 4 * (64 + 64 * 10) && odd == 0, "%d answers out of range in %d", odd,
              probes);
}

/* Kernels in an anonymous namespace (multi.cu's) are local symbols, and
 * CUB's names run past 200 bytes: both are kernels with parameters; a
 * count without a buffer writes nothing. */
static void local_and_long(const char *dir)
{
    char path[4096];
    size_t size = 0;
    CHECK_MSG(cubin_path(dir, "multi.", path), "multi's cubin in %s", dir);
    char *c = read_file(path, &size);
    const int n = c ? rs_cubin_entries(c, size, names, sizeof names) : -1;
    CHECK_MSG(n > 0 && strstr(names, "k_fill") && strstr(names, "k_check"),
              "multi.cu's local kernels listed: %d (%.200s)", n, names);
    CHECK(c && rs_cubin_entries(c, size, NULL, 0) == n);
    char one = 'x';
    CHECK(c && rs_cubin_entries(c, size, &one, 0) == n && one == 'x');
    free(c);
    CHECK_MSG(cubin_path(dir, "library.", path), "library's cubin in %s", dir);
    c = read_file(path, &size);
    int longest = 0, sizes[16];
    if (c && rs_cubin_entries(c, size, names, sizeof names) > 0)
        for (char *t = strtok(names, " "); t; t = strtok(NULL, " "))
            if ((int)strlen(t) > longest && strlen(t) > 150) {
                longest = (int)strlen(t);
                CHECK_MSG(rs_cubin_params(c, size, t, sizes, 16) > 0,
                          "a %d-byte kernel name keeps its parameters: %s", longest, t);
            }
    CHECK_MSG(longest > 150, "library.cu has a kernel named in more than 150 bytes");
    free(c);
}

int main(int argc, char **argv)
{
    not_elf();
    CHECK_MSG(argc > 1, "usage: test_cubin CUBIN_DIR");
    if (argc <= 1) return check_report("test_cubin");
    char path[4096];
    size_t size = 0;
    CHECK_MSG(cubin_path(argv[1], "bandwidth.", path), "bandwidth's cubin in %s", argv[1]);
    unsigned char *c = (unsigned char *)read_file(path, &size);
    CHECK_MSG(c != NULL, "%s", path);
    if (c) {
        bandwidth_kernels((const char *)c, size);
        bandwidth_params((const char *)c, size);
        truncated(c, size);
        bad_header(c, size);
        bad_sections(c, size);
        bad_records(c, size);
        each_byte(c, size);
    }
    free(c);
    CHECK_MSG(cubin_path(argv[1], "classic.", path), "classic's cubin in %s", argv[1]);
    c = (unsigned char *)read_file(path, &size);
    CHECK_MSG(c != NULL, "%s", path);
    if (c) classic((const char *)c, size);
    free(c);
    local_and_long(argv[1]);
    int kernels = 0;
    const int cubins = each_cubin(argv[1], NULL, every, &kernels);
    CHECK_MSG(cubins >= 5 && kernels > 100, "%d kernels in %d cubins", kernels, cubins);
    printf("test_cubin: %s and %d kernels in %d cubins\n", path, kernels, cubins);
    return check_report("test_cubin");
}
