#include "stalls.h"

#include <stdio.h>
#include <string.h>

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

static const char *base_name(const char *path)
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
    snprintf(name, sizeof name, "%s", base_name(file));
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

int rs_stalls_top(const rs_stalls *s, const rs_stall_line *line, int max, int *kinds, uint64_t *n)
{
    const uint64_t *by = line ? line->by_reason : s->by_reason;
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
