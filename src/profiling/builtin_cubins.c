#define _GNU_SOURCE /* readlink's declaration with -std=c11 */
#include "builtin_cubins.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/ukernel.h"
#include "sass_lines.h"

#define MAX_CUBINS 16

typedef struct cubin {
    int sm;
    char *data;
    size_t size;
    char *names; /* its entry points, separated by ' ' */
} cubin;

static struct {
    pthread_mutex_t lock;
    char dir[4096];
    int sm, count, loaded;
    cubin c[MAX_CUBINS];
} cache = {PTHREAD_MUTEX_INITIALIZER, "", 0, 0, 0, {{0}}};

#ifndef RS_INSTALL_DATA_DIR
#define RS_INSTALL_DATA_DIR ""
#endif

/* "cubins" beside the program (a build tree), else where make install put
 * them. */
static void default_dir(char *buf, size_t len)
{
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    const int w = snprintf(buf, len, "%s/cubins", n > 0 ? exe : ".");
    if (w < 0 || (size_t)w >= len) snprintf(buf, len, "cubins");
    DIR *d = opendir(buf);
    if (d)
        closedir(d);
    else if (RS_INSTALL_DATA_DIR[0])
        snprintf(buf, len, "%s/cubins", RS_INSTALL_DATA_DIR);
}

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0)
        b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *size = b ? (size_t)n : 0;
    return b;
}

static void add_cubin(const char *path, int sm)
{
    cubin *c = &cache.c[cache.count];
    c->data = slurp(path, &c->size);
    if (!c->data) return;
    size_t cap = 1 << 16;
    c->names = malloc(cap);
    /* the names of a big cubin (CUB's instantiations) may need more room */
    while (c->names && rs_cubin_entries(c->data, c->size, c->names, cap) >= 0 &&
           strlen(c->names) + 512 > cap && cap < ((size_t)1 << 24)) {
        cap *= 4;
        char *more = realloc(c->names, cap);
        if (!more) break;
        c->names = more;
    }
    if (!c->names || rs_cubin_entries(c->data, c->size, c->names, cap) < 0) {
        free(c->data);
        free(c->names);
        memset(c, 0, sizeof *c);
        return;
    }
    c->sm = sm;
    cache.count++;
}

/* Load dir's cubins for sm once (a later call for another dir or sm reloads). */
static void load(const char *dir, int sm)
{
    if (cache.loaded && cache.sm == sm && strcmp(cache.dir, dir) == 0) return;
    for (int i = 0; i < cache.count; i++) free(cache.c[i].data), free(cache.c[i].names);
    memset(cache.c, 0, sizeof cache.c);
    cache.count = 0;
    snprintf(cache.dir, sizeof cache.dir, "%s", dir);
    cache.sm = sm;
    cache.loaded = 1;
    DIR *d = opendir(dir);
    if (!d) return;
    char suffix[32], path[4096 + 256];
    snprintf(suffix, sizeof suffix, ".sm_%d.cubin", sm);
    const struct dirent *e;
    while ((e = readdir(d)) && cache.count < MAX_CUBINS) {
        const size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        add_cubin(path, sm);
    }
    closedir(d);
}

static int has_name(const char *names, const char *fn)
{
    const size_t n = strlen(fn);
    for (const char *p = strstr(names, fn); p; p = strstr(p + 1, fn))
        if ((p == names || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

rs_status rs_builtin_line(const char *dir, int sm, const char *function, uint64_t pc_offset,
                          char *file, size_t file_len, unsigned *line, rs_error *err)
{
    char where[4096];
    if (dir)
        snprintf(where, sizeof where, "%s", dir);
    else
        default_dir(where, sizeof where);
    if (!function || !*function) return rs_fail(err, RS_E_IO, "no kernel named");
    pthread_mutex_lock(&cache.lock);
    load(where, sm);
    rs_status st =
        rs_fail(err, RS_E_IO, "%s is in none of the sm_%d cubins in %s", function, sm, where);
    for (int i = 0; i < cache.count; i++) {
        if (!has_name(cache.c[i].names, function)) continue;
        st = rs_sass_line(cache.c[i].data, cache.c[i].size, function, pc_offset, file, file_len,
                          line, err);
        break;
    }
    pthread_mutex_unlock(&cache.lock);
    return st;
}
