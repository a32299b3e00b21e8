#define _GNU_SOURCE /* readlink's declaration with -std=c11 */
#include "builtin_cubins.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvtools/cubin_lines.h"
#include "nvtools/cubin.h"
#include "core/trace.h"
#include "core/ukernel.h"
#include "formats/preset.h"
#include "profiling/sass_lines.h"

#define MAX_CUBINS 16

typedef struct cubin {
    int sm;
    char *data;
    size_t size;
    char *names; /* its entry points, separated by ' ' */
    char path[4096 + 256];
} cubin;

#define MAX_TABLES 4 /* line tables kept: a plan's kernels */

typedef struct table {
    char fn[512];
    rs_line_table *t; /* NULL: its load failed (not tried again) */
    unsigned long used;
} table;

static struct {
    pthread_mutex_t lock;
    char dir[4096];
    int sm, count, loaded;
    cubin c[MAX_CUBINS];
    table tables[MAX_TABLES];
    unsigned long clock;
} cache = {PTHREAD_MUTEX_INITIALIZER, "", 0, 0, 0, {{0}}, {{"", NULL, 0}}, 0};

static int is_folder(const char *p)
{
    DIR *d = opendir(p);
    if (d) closedir(d);
    return d != NULL;
}

/* "cubins" beside the program (a build tree), else ../lib/redscope/cubins
 * (installed under any prefix), else under $REDSCOPE_DATA_DIR. */
static void default_dir(char *buf, size_t len)
{
    char exe[4096], at[4096 + 32];
    rs_program_dir(exe, sizeof exe);
    const int w = snprintf(buf, len, "%s/cubins", exe[0] ? exe : ".");
    if (w < 0 || (size_t)w >= len) snprintf(buf, len, "cubins");
    if (is_folder(buf) || !exe[0]) return;
    snprintf(at, sizeof at, "%s/../lib/redscope/cubins", exe);
    if (!rs_folder_at(at, exe, sizeof exe) && !*rs_shipped_dir("cubins", exe, sizeof exe)) return;
    snprintf(buf, len, "%s", exe);
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
    snprintf(c->path, sizeof c->path, "%s", path);
    cache.count++;
}

/* Load dir's cubins for sm once (a later call for another dir or sm reloads). */
static void load(const char *dir, int sm)
{
    if (cache.loaded && cache.sm == sm && strcmp(cache.dir, dir) == 0) return;
    for (int i = 0; i < cache.count; i++) free(cache.c[i].data), free(cache.c[i].names);
    for (int i = 0; i < MAX_TABLES; i++) rs_line_table_free(cache.tables[i].t);
    memset(cache.tables, 0, sizeof cache.tables);
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
    rs_trace("stalls: %d cubins for sm_%d loaded from %s", cache.count, sm, dir);
}

static int has_name(const char *names, const char *fn)
{
    const size_t n = strlen(fn);
    for (const char *p = strstr(names, fn); p; p = strstr(p + 1, fn))
        if ((p == names || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

static void where_of(const char *dir, char *buf, size_t len)
{
    if (dir)
        snprintf(buf, len, "%s", dir);
    else
        default_dir(buf, len);
}

/* The line table of fn, loaded once (the least recently used one goes). */
static rs_line_table *table_of(const char *fn, rs_error *err)
{
    table *slot = &cache.tables[0];
    for (int i = 0; i < MAX_TABLES; i++) {
        table *t = &cache.tables[i];
        if (t->used && strcmp(t->fn, fn) == 0) {
            t->used = ++cache.clock;
            if (!t->t) rs_fail(err, RS_E_IO, "%s has no line table in its cubin", fn);
            return t->t;
        }
        if (t->used < slot->used) slot = t;
    }
    for (int i = 0; i < cache.count; i++) {
        if (!has_name(cache.c[i].names, fn)) continue;
        rs_line_table_free(slot->t);
        slot->t = rs_line_table_load(cache.c[i].data, cache.c[i].size, fn, err);
        snprintf(slot->fn, sizeof slot->fn, "%s", fn);
        slot->used = ++cache.clock;
        return slot->t;
    }
    rs_fail(err, RS_E_IO, "%s is in none of the sm_%d cubins in %s", fn, cache.sm, cache.dir);
    return NULL;
}

int rs_builtin_chain(const char *dir, int sm, const char *function, uint64_t pc_offset,
                     rs_src_frame *frames, int max, rs_error *err)
{
    char where[4096];
    where_of(dir, where, sizeof where);
    if (!function || !*function) {
        rs_fail(err, RS_E_IO, "no kernel named");
        return 0;
    }
    pthread_mutex_lock(&cache.lock);
    load(where, sm);
    const rs_line_table *t = table_of(function, err);
    int n = t ? rs_line_table_chain(t, pc_offset, frames, max) : 0;
    if (t && !n)
        rs_fail(err, RS_E_IO, "%s + 0x%llx: no source line", function,
                (unsigned long long)pc_offset);
    pthread_mutex_unlock(&cache.lock);
    return n;
}

int rs_builtin_cubin_path(const char *dir, int sm, const char *function, char *path, size_t len)
{
    char where[4096];
    where_of(dir, where, sizeof where);
    if (len) path[0] = '\0';
    pthread_mutex_lock(&cache.lock);
    load(where, sm);
    for (int i = 0; function && i < cache.count && len; i++)
        if (has_name(cache.c[i].names, function)) {
            snprintf(path, len, "%s", cache.c[i].path);
            break;
        }
    pthread_mutex_unlock(&cache.lock);
    return len && path[0];
}

rs_status rs_builtin_line(const char *dir, int sm, const char *function, uint64_t pc_offset,
                          char *file, size_t file_len, unsigned *line, rs_error *err)
{
    char where[4096];
    where_of(dir, where, sizeof where);
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

int rs_builtin_cubin_nth(const char *dir, int sm, int i, char *path, size_t len)
{
    char where[4096];
    where_of(dir, where, sizeof where);
    pthread_mutex_lock(&cache.lock);
    load(where, sm);
    const int ok = i >= 0 && i < cache.count && len;
    if (ok) snprintf(path, len, "%s", cache.c[i].path);
    pthread_mutex_unlock(&cache.lock);
    return ok;
}
