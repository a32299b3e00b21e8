/* What a stall view's lines lead to: the code inlined inside a line, the
 * instruction its waits stand on, and the source text of every line named. */
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/sass_op.h"
#include "core/stalls.h"

int rs_stall_wait_class(int kind)
{
    const rs_stall_def *d = rs_stall_kind_def(kind);
    if (!d) return RS_WAIT_NONE;
    if (strcmp(d->key, "long_scoreboard") == 0) return RS_WAIT_MEMORY;
    if (strcmp(d->key, "short_scoreboard") == 0) return RS_WAIT_MIO;
    if (strcmp(d->key, "barrier") == 0) return RS_WAIT_BARRIER;
    if (strcmp(d->key, "membar") == 0) return RS_WAIT_FENCE;
    return RS_WAIT_NONE;
}

static int same_link(const rs_stall_link *a, const rs_stall_link *b)
{
    return a->line == b->line && a->what == b->what && a->kind == b->kind &&
           a->to_line == b->to_line && strcmp(a->file, b->file) == 0 &&
           strcmp(a->to_file, b->to_file) == 0 && strcmp(a->name, b->name) == 0;
}

void rs_stalls_link(rs_stalls *s, const rs_stall_link *l)
{
    if (!l->samples) return;
    for (int i = 0; i < s->nlinks; i++)
        if (same_link(&s->link[i], l)) {
            s->link[i].samples += l->samples;
            return;
        }
    if (s->nlinks == RS_STALL_LINKS) {
        s->other_links += l->samples;
        return;
    }
    s->link[s->nlinks++] = *l;
}

int rs_stalls_links_of(const rs_stalls *s, const rs_stall_line *l, int what, int *order, int max)
{
    int n = 0;
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++) {
        const rs_stall_link *k = &s->link[i];
        if (k->what != what || k->line != l->line || strcmp(k->file, l->file) != 0) continue;
        int at = n < max ? n : max;
        while (at > 0 && s->link[order[at - 1]].samples < k->samples) at--;
        if (at >= max) continue;
        for (int j = (n < max ? n : max - 1); j > at; j--) order[j] = order[j - 1];
        order[at] = i;
        if (n < max) n++;
    }
    return n;
}

const char *rs_stalls_text(const rs_stalls *s, const char *file, uint32_t line)
{
    for (int i = 0; i < s->nlines; i++)
        if (s->line[i].line == line && strcmp(s->line[i].file, file) == 0 && s->line[i].text[0])
            return s->line[i].text;
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++)
        if (s->link[i].to_line == line && strcmp(s->link[i].to_file, file) == 0 &&
            s->link[i].text[0])
            return s->link[i].text;
    return "";
}

void rs_stall_link_words(const rs_stall_link *k, char *buf, size_t len)
{
    char what[64];
    rs_sass_what(k->name, what, sizeof what);
    snprintf(buf, len, "the %s (%s) on %s:%u", what, k->name, k->to_file, k->to_line);
}

/* The waits' targets grouped by file and what they are. */
typedef struct group {
    char file[RS_STALL_FILE];
    char what[64];
    uint32_t line[8]; /* distinct, ascending */
    int lines;
    uint64_t samples;
    const rs_stall_link *top; /* its link with the most samples: its text is quoted */
} group;

static void group_add(group *g, uint32_t line)
{
    int at = 0;
    while (at < g->lines && g->line[at] < line) at++;
    if ((at < g->lines && g->line[at] == line) || g->lines == 8) return;
    memmove(&g->line[at + 1], &g->line[at], sizeof g->line[0] * (size_t)(g->lines - at));
    g->line[at] = line;
    g->lines++;
}

/* "modern.cu:102-103" for lines that run on, else "modern.cu:21, 30". */
static void lines_words(const group *g, char *buf, size_t len)
{
    const int run = g->line[g->lines - 1] - g->line[0] == (uint32_t)(g->lines - 1);
    if (g->lines > 1 && run) {
        snprintf(buf, len, "%s:%u-%u", g->file, g->line[0], g->line[g->lines - 1]);
        return;
    }
    snprintf(buf, len, "%s:%u", g->file, g->line[0]);
    for (int i = 1; i < g->lines; i++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, ", %u", g->line[i]);
    }
}

void rs_stalls_wait_words(const rs_stalls *s, char *buf, size_t len)
{
    if (len) buf[0] = '\0';
    group g[RS_STALL_LINKS];
    int ng = 0;
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++) {
        const rs_stall_link *k = &s->link[i];
        if (k->what != RS_LINK_WAITS) continue;
        char what[64];
        rs_sass_what(k->name, what, sizeof what);
        int j = 0;
        while (j < ng && !(strcmp(g[j].file, k->to_file) == 0 && strcmp(g[j].what, what) == 0)) j++;
        if (j == ng) {
            memset(&g[j], 0, sizeof g[j]);
            snprintf(g[j].file, sizeof g[j].file, "%s", k->to_file);
            snprintf(g[j].what, sizeof g[j].what, "%s", what);
            ng++;
        }
        group_add(&g[j], k->to_line);
        g[j].samples += k->samples;
        if (!g[j].top || k->samples > g[j].top->samples) g[j].top = k;
    }
    int best = -1;
    for (int j = 0; j < ng; j++)
        if (best < 0 || g[j].samples > g[best].samples) best = j;
    if (best < 0 || !s->total) return;
    char where[96], cut[RS_STALL_TEXT * 2], text[RS_STALL_TEXT * 2 + 8] = "";
    lines_words(&g[best], where, sizeof where);
    if (g[best].top->text[0])
        snprintf(text, sizeof text, " (%s)", rs_fmt_cut(g[best].top->text, 40, cut, sizeof cut));
    snprintf(buf, len, "%.0f%% of the samples wait for the %s%s on %s%s",
             100.0 * (double)g[best].samples / (double)s->total, g[best].what,
             g[best].lines > 1 ? "s" : "", where, text);
}
