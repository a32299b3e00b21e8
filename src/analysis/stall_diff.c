#include "stall_diff.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A line's role in its step: the call inlined at it that holds most of its
 * samples ("load_one", "SumOp::operator()"); "" where none. Two kernels'
 * loads are one role whatever their text ("s[tid] = load_one(...)" and
 * "s[threadIdx.x] = load_one(...)"). */
static void role_of(const rs_stalls *s, const rs_stall_line *l, char *buf, size_t len)
{
    uint64_t most = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++) {
        const rs_stall_link *k = &s->link[i];
        if (k->what != RS_LINK_INSIDE || k->line != l->line || strcmp(k->file, l->file) != 0 ||
            k->samples <= most)
            continue;
        most = k->samples;
        snprintf(buf, len, "%.*s", (int)strcspn(k->name, " "), k->name);
    }
}

/* Text that says nothing of what a line does: "}", "{", ");". */
static int punctuation(const char *t)
{
    for (; *t; t++)
        if (isalnum((unsigned char)*t)) return 0;
    return 1;
}

enum { BY_ROLE, BY_TEXT };

/* The line of `before` that line l of `after` is, by its role (by = BY_ROLE)
 * or else by its text (BY_TEXT: the same file and text, a line of
 * punctuation only at its own number; without texts the same number); of
 * several, the nearest number; -1 for none. used[] marks those taken. */
static int match(const rs_stalls *before, const rs_stalls *after, const rs_stall_line *l,
                 const int *used, int by)
{
    char role[RS_STALL_CHAIN], other[RS_STALL_CHAIN];
    if (by == BY_ROLE) role_of(after, l, role, sizeof role);
    if (by == BY_ROLE && !role[0]) return -1;
    const int bare = by == BY_TEXT && l->text[0] && punctuation(l->text); /* "}" */
    int best = -1;
    long gap = 0;
    for (int i = 0; i < before->nlines; i++) {
        const rs_stall_line *b = &before->line[i];
        if (used[i] || strcmp(b->file, l->file) != 0) continue;
        const int texts = b->text[0] && l->text[0];
        if (by == BY_ROLE) {
            role_of(before, b, other, sizeof other);
            if (strcmp(role, other) != 0) continue;
        } else if (texts ? strcmp(b->text, l->text) != 0 : b->line != l->line) {
            continue;
        } else if (bare && b->line != l->line) {
            continue;
        }
        const long g = labs((long)b->line - (long)l->line);
        if (best < 0 || g < gap) best = i, gap = g;
    }
    return best;
}

static int by_change(const void *a, const void *b)
{
    const rs_stall_delta *x = a, *y = b;
    const double dx = fabs(x->after - x->before), dy = fabs(y->after - y->before);
    if (dx != dy) return dx < dy ? 1 : -1;
    if (x->after != y->after) return x->after < y->after ? 1 : -1;
    return strcmp(x->file, y->file) != 0 ? strcmp(x->file, y->file)
                                         : (x->line > y->line) - (x->line < y->line);
}

static void fill(rs_stall_delta *d, const rs_stall_line *l)
{
    snprintf(d->file, sizeof d->file, "%s", l->file);
    snprintf(d->text, sizeof d->text, "%s", l->text);
}

/* Every line of both views into out[] (RS_STALL_DELTAS), unsorted. */
static int deltas(const rs_stalls *before, const rs_stalls *after, rs_stall_delta *out)
{
    int used[RS_STALL_LINES] = {0}, took[RS_STALL_LINES], n = 0;
    const int max = RS_STALL_DELTAS;
    for (int by = BY_ROLE; by <= BY_TEXT; by++) /* every role first, then texts */
        for (int i = 0; i < after->nlines && i < RS_STALL_LINES; i++) {
            if (by == BY_ROLE) took[i] = -1;
            if (took[i] >= 0) continue;
            took[i] = match(before, after, &after->line[i], used, by);
            if (took[i] >= 0) used[took[i]] = 1;
        }
    for (int i = 0; i < after->nlines && i < RS_STALL_LINES && n < max; i++) {
        const rs_stall_line *l = &after->line[i];
        const int m = took[i];
        rs_stall_delta *d = &out[n++];
        memset(d, 0, sizeof *d);
        fill(d, l);
        d->line = l->line;
        d->after = pct(l->samples, after->total);
        if (m < 0) continue;
        d->line_before = before->line[m].line;
        d->before = pct(before->line[m].samples, before->total);
    }
    for (int i = 0; i < before->nlines && n < max; i++) {
        if (used[i]) continue;
        rs_stall_delta *d = &out[n++];
        memset(d, 0, sizeof *d);
        fill(d, &before->line[i]);
        d->line_before = before->line[i].line;
        d->before = pct(before->line[i].samples, before->total);
    }
    return n;
}

int rs_stalls_diff(const rs_stalls *before, const rs_stalls *after, rs_stall_delta *out, int max)
{
    rs_stall_delta *all = malloc(sizeof *all * RS_STALL_DELTAS);
    if (!all || max <= 0) {
        free(all);
        return 0;
    }
    int n = deltas(before, after, all);
    qsort(all, (size_t)n, sizeof *all, by_change); /* the biggest change first, of them all */
    n = n < max ? n : max;
    memcpy(out, all, sizeof *out * (size_t)n);
    free(all);
    return n;
}

double rs_stall_delta_change(const rs_stall_delta *d)
{
    const double c = round((d->after - d->before) * 10.0) / 10.0;
    return c == 0.0 || !isfinite(c) ? 0.0 : c;
}

const char *rs_stall_delta_where(const rs_stall_delta *d, char *buf, size_t len)
{
    if (d->line && d->line_before && d->line != d->line_before)
        snprintf(buf, len, "%s:%u%s%u", d->file, d->line_before, rs_sym(RS_SYM_ARROW), d->line);
    else
        snprintf(buf, len, "%s:%u", d->file, d->line ? d->line : d->line_before);
    return buf;
}

void rs_stall_delta_words(const rs_stall_delta *d, char *buf, size_t len)
{
    char where[200], at[96], cut[RS_STALL_TEXT * 2];
    rs_stall_delta_where(d, at, sizeof at);
    if (d->text[0])
        snprintf(where, sizeof where, "%s (%s)", at, rs_fmt_cut(d->text, 40, cut, sizeof cut));
    else
        snprintf(where, sizeof where, "%s", at);
    if (!d->line_before)
        snprintf(buf, len, "%s is new, with %.1f%% of the samples", where, d->after);
    else if (!d->line)
        snprintf(buf, len, "%s is gone (it held %.1f%% of the samples)", where, d->before);
    else if (fabs(d->after - d->before) < 0.5)
        snprintf(buf, len, "%s stayed at %.1f%% of the samples", where, d->after);
    else
        snprintf(buf, len, "%s %s from %.1f%% to %.1f%% of the samples", where,
                 d->after < d->before ? "fell" : "rose", d->before, d->after);
}
