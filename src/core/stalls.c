#include "stalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h" /* rs_keep */

#define UNKNOWN (RS_STALL_KINDS - 1)

int rs_stall_kind(const char *cupti_name)
{
    size_t count = 0;
    const rs_stall_def *table = rs_stall_table(&count);
    const rs_stall_def *d = rs_stall_find(cupti_name, NULL);
    return d ? (int)(d - table) : UNKNOWN;
}

const rs_stall_def *rs_stall_kind_def(int kind)
{
    size_t count = 0;
    const rs_stall_def *table = rs_stall_table(&count);
    return kind >= 0 && (size_t)kind < count ? &table[kind] : NULL;
}

void rs_stall_kind_words(int kind, char *buf, size_t len)
{
    const rs_stall_def *d = rs_stall_kind_def(kind);
    if (d)
        rs_stall_describe(d->key, buf, len);
    else
        snprintf(buf, len, "a reason redscope does not know");
}

const char *rs_stall_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The line's slot, kept in (file, line) order; NULL when the table is full. */
static rs_stall_line *slot(rs_stalls *s, const char *file, uint32_t line)
{
    int at = 0;
    for (; at < s->nlines; at++) {
        const int c = strcmp(s->line[at].file, file);
        if (c == 0 && s->line[at].line == line) return &s->line[at];
        if (c > 0 || (c == 0 && s->line[at].line > line)) break;
    }
    if (s->nlines == RS_STALL_LINES) return NULL;
    memmove(&s->line[at + 1], &s->line[at], sizeof s->line[0] * (size_t)(s->nlines - at));
    memset(&s->line[at], 0, sizeof s->line[at]);
    snprintf(s->line[at].file, sizeof s->line[at].file, "%s", file);
    s->line[at].line = line;
    s->nlines++;
    return &s->line[at];
}

void rs_stalls_add(rs_stalls *s, const char *file, uint32_t line, int kind, uint64_t samples)
{
    if (!samples) return;
    if (kind < 0 || kind >= RS_STALL_KINDS) kind = UNKNOWN;
    s->total += samples;
    s->by_reason[kind] += samples;
    if (!file || !*file || line == 0) {
        s->unmapped += samples;
        return;
    }
    char name[RS_STALL_FILE];
    snprintf(name, sizeof name, "%s", rs_stall_base(file));
    rs_stall_line *l = slot(s, name, line);
    if (!l) {
        s->other_lines += samples;
        return;
    }
    l->samples += samples;
    l->by_reason[kind] += samples;
}

int rs_stalls_hottest(const rs_stalls *s)
{
    int best = -1;
    for (int i = 0; i < s->nlines; i++)
        if (s->line[i].samples && (best < 0 || s->line[i].samples > s->line[best].samples))
            best = i;
    return best;
}

static int top_of(const uint64_t *by, int max, int *kinds, uint64_t *n)
{
    int count = 0;
    for (int k = 0; k < RS_STALL_KINDS; k++) {
        if (!by[k]) continue;
        int at = count < max ? count : max; /* insertion, most samples first */
        while (at > 0 && by[kinds[at - 1]] < by[k]) at--;
        if (at >= max) continue;
        const int last = count < max ? count : max - 1;
        for (int j = last; j > at; j--) kinds[j] = kinds[j - 1], n[j] = n[j - 1];
        kinds[at] = k;
        n[at] = by[k];
        if (count < max) count++;
    }
    return count;
}

int rs_stalls_top(const rs_stalls *s, const rs_stall_line *line, int max, int *kinds, uint64_t *n)
{
    return top_of(line ? line->by_reason : s->by_reason, max, kinds, n);
}

int rs_stalls_top_func(const rs_stall_func *f, int max, int *kinds, uint64_t *n)
{
    return top_of(f->by_reason, max, kinds, n);
}

void rs_stalls_add_func(rs_stalls *s, const char *name, int kind, uint64_t samples)
{
    if (!samples || !name || !*name) return;
    if (kind < 0 || kind >= RS_STALL_KINDS) kind = UNKNOWN;
    char kept[RS_STALL_NAME]; /* compared as it is kept */
    snprintf(kept, sizeof kept, "%s", name);
    int i = 0;
    while (i < s->nfuncs && strcmp(s->func[i].name, kept) != 0) i++;
    if (i == s->nfuncs) {
        if (s->nfuncs == RS_STALL_FUNCS) {
            s->other_funcs += samples;
            return;
        }
        memset(&s->func[i], 0, sizeof s->func[i]);
        snprintf(s->func[i].name, sizeof s->func[i].name, "%s", kept);
        s->nfuncs++;
    }
    s->func[i].samples += samples;
    s->func[i].by_reason[kind] += samples;
}

void rs_stalls_add_at(rs_stalls *s, const rs_stall_at *at, int kind, uint64_t samples)
{
    rs_stalls_add(s, at->file, at->line, kind, samples);
    rs_stalls_add_func(s, at->function, kind, samples);
    if (!samples || !at->inlined || !at->file || !at->line) return;
    char name[RS_STALL_FILE];
    snprintf(name, sizeof name, "%s", rs_stall_base(at->file));
    for (int i = 0; i < s->nlines; i++)
        if (s->line[i].line == at->line && strcmp(s->line[i].file, name) == 0)
            s->line[i].inlined += samples;
}

void rs_stalls_add_pc(rs_stalls *s, uint64_t offset, uint64_t samples)
{
    if (!samples) return;
    int lo = 0, hi = s->npcs; /* kept by offset */
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (s->pc[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->npcs && s->pc[lo].offset == offset) {
        s->pc[lo].samples += samples;
        return;
    }
    if (s->npcs == RS_STALL_PCS) return;
    memmove(&s->pc[lo + 1], &s->pc[lo], sizeof s->pc[0] * (size_t)(s->npcs - lo));
    s->pc[lo] = (rs_stall_pc){offset, samples};
    s->npcs++;
}

uint64_t rs_stalls_pc(const rs_stalls *s, uint64_t offset)
{
    for (int i = 0; i < s->npcs; i++)
        if (s->pc[i].offset == offset) return s->pc[i].samples;
    return 0;
}

int rs_stalls_funcs_sorted(const rs_stalls *s, int *order)
{
    int n = 0;
    for (int i = 0; i < s->nfuncs && i < RS_STALL_FUNCS; i++) {
        int at = n;
        while (at > 0 && s->func[order[at - 1]].samples < s->func[i].samples) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
        n++;
    }
    return n;
}

/* ---- kept views ---------------------------------------------------------------- */

const rs_stalls *rs_stalls_keep(const rs_stalls *s)
{
    return s ? rs_keep(s, sizeof *s) : NULL; /* kept as a result's other parts are */
}
