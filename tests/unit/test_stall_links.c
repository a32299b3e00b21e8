/* What a stall view's lines lead to (analysis/stall_links.c), on the views
 * recorded on a real H200 (the shipped recording, int32 and float32 2^24):
 * the instructions a line's waits stand on and the code inlined inside it,
 * most samples first; the source text of every line named; the sentence of
 * where the run's waits go, with the share the recording gives. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/format.h"
#include "core/sass_op.h"
#include "core/stalls.h"
#include "formats/record.h"
#include "stall_view.h"

static const rs_stall_line *line_at(const rs_stalls *s, const char *file, uint32_t n)
{
    for (int i = 0; i < s->nlines; i++)
        if (s->line[i].line == n && strcmp(s->line[i].file, file) == 0) return &s->line[i];
    return NULL;
}

/* The reasons that wait on an instruction, and those that do not. */
static void wait_classes(void)
{
    size_t count = 0;
    const rs_stall_def *t = rs_stall_table(&count);
    int seen = 0;
    for (size_t k = 0; k < count; k++) {
        const char *key = t[k].key;
        const int want = strcmp(key, "long_scoreboard") == 0    ? RS_WAIT_MEMORY
                         : strcmp(key, "short_scoreboard") == 0 ? RS_WAIT_MIO
                         : strcmp(key, "barrier") == 0          ? RS_WAIT_BARRIER
                         : strcmp(key, "membar") == 0           ? RS_WAIT_FENCE
                                                                : RS_WAIT_NONE;
        seen += want != RS_WAIT_NONE;
        CHECK_MSG(rs_stall_wait_class((int)k) == want, "%s: class %d, not %d", key,
                  rs_stall_wait_class((int)k), want);
    }
    CHECK(seen == 4);
    /* the unknown kind and kinds past the table: no class, no crash */
    CHECK(rs_stall_wait_class(RS_STALL_KINDS - 1) == RS_WAIT_NONE);
    CHECK(rs_stall_wait_class(-1) == RS_WAIT_NONE && rs_stall_wait_class(1 << 20) == RS_WAIT_NONE);
}

/* interleaved's hottest line, classic.cu:28 (the modulo): its waits stand
 * on its own shared-memory load first (3291 samples), then the reciprocal
 * the modulo compiles to (2428); inside it, SumOp (3909). The loop's line
 * 27 waits at the barriers of lines 29 (7090) and 25 (2380). */
static void interleaved_links(const rs_stalls *s)
{
    const rs_stall_line *hot = &s->line[rs_stalls_hottest(s)];
    CHECK(hot->line == 28 && strcmp(hot->file, "classic.cu") == 0);
    int order[RS_STALL_LINKS];
    CHECK(rs_stalls_links_of(s, hot, RS_LINK_WAITS, order, RS_STALL_LINKS) == 4);
    const rs_stall_link *top = &s->link[order[0]];
    CHECK(top->samples == 3291 && strcmp(top->name, "LDS") == 0);
    CHECK(rs_stall_wait_class(top->kind) == RS_WAIT_MIO);
    CHECK(s->link[order[1]].samples == 2428 && strcmp(s->link[order[1]].name, "MUFU.RCP") == 0);
    CHECK(s->link[order[3]].samples == 54); /* the conversion, last */
    char words[300];
    rs_stall_link_words(top, words, sizeof words);
    CHECK_STR_EQ(words, "the shared-memory load (LDS) on classic.cu:28");
    rs_stall_link_words(&s->link[order[1]], words, sizeof words);
    CHECK_STR_EQ(words, "the special-function op (MUFU.RCP) on classic.cu:28");
    /* fewer asked for: the biggest kept, in order; none asked for: none */
    int two[2] = {-1, -1};
    CHECK(rs_stalls_links_of(s, hot, RS_LINK_WAITS, two, 2) == 2 && two[0] == order[0] &&
          two[1] == order[1]);
    CHECK(rs_stalls_links_of(s, hot, RS_LINK_WAITS, two, 1) == 1 && two[0] == order[0]);
    CHECK(rs_stalls_links_of(s, hot, RS_LINK_WAITS, two, 0) == 0);
    CHECK(rs_stalls_links_of(s, hot, RS_LINK_INSIDE, order, 4) == 1);
    CHECK(s->link[order[0]].samples == 3909 &&
          strcmp(s->link[order[0]].name, "SumOp::operator() (common.cuh:65)") == 0);

    const rs_stall_line *loop = line_at(s, "classic.cu", 27);
    CHECK(loop != NULL);
    if (!loop) return;
    CHECK(rs_stalls_links_of(s, loop, RS_LINK_WAITS, order, 4) == 2);
    CHECK(s->link[order[0]].to_line == 29 && s->link[order[0]].samples == 7090 &&
          s->link[order[1]].to_line == 25 && s->link[order[1]].samples == 2380);
    CHECK(rs_stall_wait_class(s->link[order[0]].kind) == RS_WAIT_BARRIER);
    rs_stall_link_words(&s->link[order[0]], words, sizeof words);
    CHECK_STR_EQ(words, "the barrier (BAR.SYNC.DEFER_BLOCKING) on classic.cu:29");
    CHECK(rs_stalls_links_of(s, loop, RS_LINK_INSIDE, order, 4) == 0);
    /* the load line waits on the global load inlined from common.cuh */
    const rs_stall_line *load = line_at(s, "classic.cu", 24);
    CHECK(load && rs_stalls_links_of(s, load, RS_LINK_WAITS, order, 1) == 1);
    if (!load) return;
    rs_stall_link_words(&s->link[order[0]], words, sizeof words);
    CHECK_STR_EQ(words, "the 4-byte global load (LDG.E.CONSTANT) on common.cuh:332");
    CHECK(s->link[order[0]].samples == load->by_reason[rs_stall_kind("long_scoreboard")]);
}

/* Lines that lead nowhere: one with no link (a __syncthreads), one the
 * view lacks, one of another file with the same number. */
static void absent_lines(const rs_stalls *s)
{
    int order[4] = {-1, -1, -1, -1};
    const rs_stall_line *sync = line_at(s, "classic.cu", 25);
    CHECK(sync && rs_stalls_links_of(s, sync, RS_LINK_WAITS, order, 4) == 0 &&
          rs_stalls_links_of(s, sync, RS_LINK_INSIDE, order, 4) == 0);
    rs_stall_line ghost;
    memset(&ghost, 0, sizeof ghost);
    snprintf(ghost.file, sizeof ghost.file, "classic.cu");
    ghost.line = 999;
    CHECK(rs_stalls_links_of(s, &ghost, RS_LINK_WAITS, order, 4) == 0);
    snprintf(ghost.file, sizeof ghost.file, "modern.cu");
    ghost.line = 28;
    CHECK(rs_stalls_links_of(s, &ghost, RS_LINK_WAITS, order, 4) == 0);
    CHECK(rs_stalls_links_of(s, &s->line[0], 7, order, 4) == 0); /* no such kind of link */
    CHECK(order[0] == -1);                                       /* nothing written */
}

/* Every line of every recorded view: its links of each kind, all of them,
 * each once, most samples first; every wait on a reason that waits. */
static void every_view_in_order(const rs_recording *rec)
{
    int views = 0;
    for (int r = 0; r < rec->count; r++) {
        const rs_stalls *s = rs_result_stalls(&rec->rows[r].result);
        if (rec->rows[r].status != RS_OK || !s->valid) continue;
        views++;
        int listed = 0;
        for (int i = 0; i < s->nlines; i++)
            for (int what = RS_LINK_INSIDE; what <= RS_LINK_WAITS; what++) {
                int order[RS_STALL_LINKS];
                const int n = rs_stalls_links_of(s, &s->line[i], what, order, RS_STALL_LINKS);
                listed += n;
                for (int j = 0; j < n; j++) {
                    const rs_stall_link *k = &s->link[order[j]];
                    CHECK(k->what == what && k->line == s->line[i].line &&
                          strcmp(k->file, s->line[i].file) == 0);
                    CHECK(j == 0 || s->link[order[j - 1]].samples >= k->samples);
                    CHECK(what != RS_LINK_WAITS || rs_stall_wait_class(k->kind) != RS_WAIT_NONE);
                }
            }
        CHECK_MSG(listed == s->nlinks, "row %d: %d of %d links listed", r, listed, s->nlinks);
    }
    CHECK(views == 40); /* the lecture's two ladders but thrust (its kernels are not
                         * sampled), Harris' eight steps and the lab's six */
}

/* The text of a line named: the view's own, else a link target's. */
static void texts(const rs_stalls *s)
{
    CHECK_STR_EQ(rs_stalls_text(s, "classic.cu", 28),
                 "if (tid % (2 * stride) == 0) s[tid] = op(s[tid], s[tid + stride]);");
    /* common.cuh:332 is no line of the view: the load it leads to is */
    CHECK(line_at(s, "common.cuh", 332) == NULL);
    CHECK_STR_EQ(rs_stalls_text(s, "common.cuh", 332),
                 "return i < n ? to_acc<A>(in[i]) : Op::identity();");
    CHECK_STR_EQ(rs_stalls_text(s, "classic.cu", 999), "");
    CHECK_STR_EQ(rs_stalls_text(s, "modern.cu", 28), "");
    CHECK_STR_EQ(rs_stalls_text(s, "", 0), "");
    /* a line whose text is not known: the barrier it is, through a link */
    static rs_stalls copy;
    copy = *s;
    rs_stall_line *l = (rs_stall_line *)line_at(&copy, "classic.cu", 29);
    CHECK(l != NULL);
    if (l) l->text[0] = '\0';
    CHECK_STR_EQ(rs_stalls_text(&copy, "classic.cu", 29), "__syncthreads();");
}

static void said(const rs_stalls *s, const char *want)
{
    char words[400];
    rs_stalls_wait_words(s, words, sizeof words);
    CHECK_STR_EQ(words, want);
}

/* Where each step's waits go: the group of targets (file, kind of
 * instruction) with the most samples, its share of all the run's. */
static void wait_sentences(const rs_recording *rec)
{
    const rs_stalls *in = view(rec, RS_V_INTERLEAVED, RS_INT32);
    const rs_stalls *st = view(rec, RS_V_INTERLEAVED_STRIDED, RS_INT32);
    const rs_stalls *sq = view(rec, RS_V_SEQUENTIAL, RS_INT32);
    const rs_stalls *me = view(rec, RS_V_MULTI_ELEMENT, RS_INT32);
    const rs_stalls *ws = view(rec, RS_V_WARP_SHUFFLE, RS_INT32);
    CHECK(in && st && sq && me && ws);
    if (!in || !st || !sq || !me || !ws) return;
    /* the barriers of lines 25 and 29: 2380 + 7090 of 86229 samples */
    CHECK(in->total == 86229);
    said(in, "11% of the samples wait for the barriers on classic.cu:25, 29 (__syncthreads();)");
    /* the global load (10910 of 51077) just outweighs the conflicted shared
     * loads of line 46 (10328) */
    said(st, "21% of the samples wait for the 4-byte global load on common.cuh:332 (return i < n "
             "? to_acc<A>(in[i]) : Op:...)");
    said(sq, "29% of the samples wait for the 4-byte global load on common.cuh:332 (return i < n "
             "? to_acc<A>(in[i]) : Op:...)");
    /* several loads a thread: lines that run on, and lines apart */
    said(me, "81% of the samples wait for the 4-byte global loads on unrolled.cu:63-64 (v = op(v, "
             "to_acc<A>(in[i]));)");
    said(ws, "84% of the samples wait for the 4-byte global loads on modern.cu:22, 23, 26 (const A "
             "a = to_acc<A>(in[i]), b = to_...)");
    /* every view: a share of at most 100%, never a NaN */
    for (int r = 0; r < rec->count; r++) {
        char words[400];
        rs_stalls_wait_words(rs_result_stalls(&rec->rows[r].result), words, sizeof words);
        CHECK_FINITE_TEXT(words);
        CHECK(!words[0] || (atoi(words) >= 0 && atoi(words) <= 100 &&
                            strstr(words, "% of the samples wait for the ")));
    }
}

/* No view, no samples, no waits traced, a small buffer: an empty or cut
 * sentence, never a division by zero. */
static void wait_edges(const rs_stalls *s)
{
    static rs_stalls e;
    memset(&e, 0, sizeof e);
    char words[400] = "x";
    rs_stalls_wait_words(&e, words, sizeof words);
    CHECK_STR_EQ(words, "");
    e = *s; /* the links kept, the samples gone */
    e.total = 0;
    for (int i = 0; i < e.nlines; i++) e.line[i].samples = 0;
    rs_stalls_wait_words(&e, words, sizeof words);
    CHECK_STR_EQ(words, "");
    e = *s; /* what is inside lines, no wait traced */
    int keep = 0;
    for (int i = 0; i < e.nlinks; i++)
        if (e.link[i].what == RS_LINK_INSIDE) e.link[keep++] = e.link[i];
    e.nlinks = keep;
    CHECK(keep == 5);
    rs_stalls_wait_words(&e, words, sizeof words);
    CHECK_STR_EQ(words, "");
    char small[12];
    memset(small, 'x', sizeof small);
    rs_stalls_wait_words(s, small, 8);
    CHECK_STR_EQ(small, "11% of ");
    CHECK(small[8] == 'x'); /* nothing past the length given */
    small[0] = 'x';
    rs_stalls_wait_words(s, small, 0);
    CHECK(small[0] == 'x');
    int order[1];
    CHECK(rs_stalls_links_of(s, &s->line[rs_stalls_hottest(s)], RS_LINK_WAITS, order, 1) == 1);
    rs_stall_link_words(&s->link[order[0]], small, 8);
    CHECK_STR_EQ(small, "the sha");
}

/* Links counted into a real view: the same link merged, a link of no
 * samples ignored, another reason a link of its own. */
static void merged(const rs_stalls *s)
{
    static rs_stalls c;
    c = *s;
    const int n = c.nlinks;
    rs_stall_link l = c.link[n - 1];
    const uint64_t had = l.samples;
    rs_stalls_link(&c, &l);
    CHECK(c.nlinks == n && c.link[n - 1].samples == 2 * had);
    l.samples = 0;
    rs_stalls_link(&c, &l);
    CHECK(c.nlinks == n && c.link[n - 1].samples == 2 * had);
    l.samples = 5;
    l.kind = rs_stall_kind("long_scoreboard");
    rs_stalls_link(&c, &l);
    CHECK(c.nlinks == n + 1 && c.link[n].samples == 5 && c.other_links == s->other_links);
}

int main(int argc, char **argv)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(argc > 1 && rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_stall_links");
    rs_notation_set(0);
    wait_classes();
    const rs_stalls *in = view(&rec, RS_V_INTERLEAVED, RS_INT32);
    CHECK(in != NULL);
    if (in) {
        interleaved_links(in);
        absent_lines(in);
        texts(in);
        wait_edges(in);
        merged(in);
    }
    every_view_in_order(&rec);
    wait_sentences(&rec);
    rs_recording_free(&rec);
    return check_report("test_stall_links");
}
