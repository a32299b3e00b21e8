/* The cubins the build copies beside the program (cubins/NAME.ARCH.cubin,
 * ARCH as nvcc names it: sm_90, or compute_90.sm_90) and the sections of
 * their ELF, for the tests that read them. */
#ifndef RS_TEST_CUBIN_FILES_H
#define RS_TEST_CUBIN_FILES_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Calls fn with the path of every *.cubin in dir whose name begins with
 * stem (NULL: any); returns how many. */
static inline int each_cubin(const char *dir, const char *stem,
                             void (*fn)(const char *path, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (const struct dirent *e; d && (e = readdir(d));) {
        const size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".cubin") != 0) continue;
        if (stem && strncmp(e->d_name, stem, strlen(stem)) != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path, ctx);
        n++;
    }
    if (d) closedir(d);
    return n;
}

static inline void keep_sm90(const char *path, void *ctx)
{
    char *want = ctx;
    if (!want[0] || strstr(path, ".sm_90.")) snprintf(want, 4096, "%s", path);
}

/* The path (4096 bytes) of dir's stem cubin for sm_90, or any of stem's
 * when there is none for sm_90; 0 when there is no stem cubin at all. */
static inline int cubin_path(const char *dir, const char *stem, char *path)
{
    path[0] = '\0';
    return each_cubin(dir, stem, keep_sm90, path) > 0;
}

static inline uint64_t elf_rd(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* The header (64 bytes) of section `name` of a sound 64-bit ELF, or NULL:
 * for the tests to find what to read or to damage. */
static inline unsigned char *elf_section_header(void *elf, size_t len, const char *name)
{
    unsigned char *e = elf;
    if (len < 64 || memcmp(e, "\177ELF\2", 5) != 0) return NULL;
    const uint64_t shoff = elf_rd(e + 40, 8), shnum = elf_rd(e + 60, 2), strndx = elf_rd(e + 62, 2);
    if (elf_rd(e + 58, 2) != 64 || shoff > len || shnum > (len - shoff) / 64 || strndx >= shnum)
        return NULL;
    const unsigned char *strs = e + shoff + strndx * 64;
    const uint64_t soff = elf_rd(strs + 24, 8), ssize = elf_rd(strs + 32, 8);
    for (uint64_t i = 0; soff <= len && ssize <= len - soff && i < shnum; i++) {
        unsigned char *sh = e + shoff + i * 64;
        const uint64_t at = elf_rd(sh, 4);
        if (at < ssize && strncmp((const char *)e + soff + at, name, ssize - at) == 0) return sh;
    }
    return NULL;
}

#endif
