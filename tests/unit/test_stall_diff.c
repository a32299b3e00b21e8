/* Two stall views line by line (analysis/stall_diff.c), on the views
 * recorded on a real H200 (the shipped recording, int32 2^24): steps of
 * the ladder held against each other, a step against itself and against
 * its float32 run, kernels of other files; the biggest mover first and in
 * words; empty views and views of no samples without a NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "analysis/stall_diff.h"
#include "core/format.h"
#include "formats/record.h"
#include "stall_view.h"

static rs_stall_delta d[RS_STALL_DELTAS];

static double share(const rs_stalls *s, uint32_t line)
{
    for (int i = 0; i < s->nlines; i++)
        if (s->line[i].line == line)
            return s->total ? 100.0 * (double)s->line[i].samples / (double)s->total : 0.0;
    return -1.0;
}

static const char *words(const rs_stall_delta *x)
{
    static char buf[300];
    rs_stall_delta_words(x, buf, sizeof buf);
    return buf;
}

static const rs_stall_delta *find(int n, uint32_t before, uint32_t after)
{
    for (int i = 0; i < n; i++)
        if (d[i].line_before == before && d[i].line == after) return &d[i];
    return NULL;
}

/* What holds for every comparison: each line of both views once, the
 * shares each view's own (100% in all where every sample is on a line),
 * the biggest change first, every sentence finite. */
static void whole(const rs_stalls *a, const rs_stalls *b, int n)
{
    double sa = 0, sb = 0;
    int na = 0, nb = 0;
    for (int i = 0; i < n; i++) {
        na += d[i].line_before != 0;
        nb += d[i].line != 0;
        sa += d[i].before;
        sb += d[i].after;
        CHECK(d[i].line || d[i].line_before);
        CHECK(i == 0 || fabs(d[i].after - d[i].before) <= fabs(d[i - 1].after - d[i - 1].before));
        CHECK(!d[i].line_before || fabs(d[i].before - share(a, d[i].line_before)) < 1e-9);
        CHECK(!d[i].line || fabs(d[i].after - share(b, d[i].line)) < 1e-9);
        CHECK_FINITE_TEXT(words(&d[i]));
    }
    CHECK_MSG(na == a->nlines && nb == b->nlines, "%d of %d lines before, %d of %d after", na,
              a->nlines, nb, b->nlines);
    CHECK(!a->total || fabs(sa - 100.0) < 1e-6);
    CHECK(!b->total || fabs(sb - 100.0) < 1e-6);
}

/* interleaved -> sequential: lines pair by their role first (issue 40):
 * the tree's add step (op() inlined, the modulo's line in interleaved)
 * falls from 54% to 32%, the loads of load_one pair whatever their text
 * (it was "new, with 39.5%"), and the loop header, whose code differs and
 * inlines nothing, is new. */
static void interleaved_to_sequential(const rs_stalls *in, const rs_stalls *sq)
{
    const int n = rs_stalls_diff(in, sq, d, RS_STALL_DELTAS);
    CHECK(n == 10);
    whole(in, sq, n);
    CHECK(d[0].line_before == 28 && d[0].line == 59 && fabs(d[0].before - 54.39) < 0.01);
    CHECK_STR_EQ(words(&d[0]), "classic.cu:28->59 (if (tid < stride) s[tid] = op(s[tid],...) fell "
                               "from 54.4% to 31.9% of the samples");
    CHECK(d[1].line == 58 && d[1].line_before == 0);
    const rs_stall_delta *load = find(n, 24, 69);
    CHECK(load != NULL);
    if (load)
        CHECK_STR_EQ(words(load), "classic.cu:24->69 (s[threadIdx.x] = load_one<T, A, Op>(i...) "
                                  "rose from 26.7% to 39.5% of the samples");
    const rs_stall_delta *fin = find(n, 32, 72);
    CHECK(fin != NULL);
    if (fin) {
        char where[96];
        CHECK_STR_EQ(rs_stall_delta_where(fin, where, sizeof where), "classic.cu:32->72");
        CHECK_STR_EQ(words(fin), "classic.cu:32->72 (finish_block<A, Op>(s[0], fin);) rose from "
                                 "4.1% to 8.8% of the samples");
    }
    /* the in-loop barrier with the in-loop barrier, the load's with the load's */
    CHECK(find(n, 29, 60) && find(n, 25, 70));
    /* room for one: the biggest change of them all, not the first line's */
    rs_stall_delta one[1];
    CHECK(rs_stalls_diff(in, sq, one, 1) == 1 && one[0].line_before == 28 && one[0].line == 59);
}

/* interleaved -> interleaved_strided: the add step moves to the strided
 * index's line and falls; the index's own line is new; the loop's own
 * line rises; the loads pair. */
static void interleaved_to_strided(const rs_stalls *in, const rs_stalls *st)
{
    const int n = rs_stalls_diff(in, st, d, RS_STALL_DELTAS);
    CHECK(n == 10);
    whole(in, st, n);
    CHECK(d[0].line_before == 28 && d[0].line == 46 && fabs(d[0].after - 35.84) < 0.01);
    CHECK(d[1].line_before == 27 && d[1].line == 44);
    CHECK_STR_EQ(words(&d[1]), "classic.cu:27->44 (for (unsigned stride = 1; stride < bl...) rose "
                               "from 13.0% to 19.9% of the samples");
    CHECK(d[2].line == 45 && d[2].line_before == 0);
    const rs_stall_delta *load = find(n, 24, 41);
    CHECK(load && load->after > load->before);
}

/* interleaved_strided -> sequential: the header's own example, the loop's
 * barrier 47 -> 60; the loads pair by role (41 -> 69). */
static void strided_to_sequential(const rs_stalls *st, const rs_stalls *sq)
{
    const int n = rs_stalls_diff(st, sq, d, RS_STALL_DELTAS);
    CHECK(n == 11);
    whole(st, sq, n);
    CHECK(find(n, 41, 69) != NULL && find(n, 46, 59) != NULL);
    for (int i = 0; i < n; i++) CHECK(d[i].line != 69 || d[i].line_before == 41);
    const rs_stall_delta *sync = find(n, 47, 60);
    CHECK(sync != NULL);
    if (sync)
        CHECK_STR_EQ(words(sync), "classic.cu:47->60 (__syncthreads();) stayed at 0.4% of the "
                                  "samples");
    rs_notation_set(1);
    char where[96];
    if (sync) CHECK_STR_EQ(rs_stall_delta_where(sync, where, sizeof where), "classic.cu:47→60");
    rs_notation_set(0);
}

/* A line of punctuation pairs only at its own number ("}" of unrelated
 * code does not; a kernel's closing brace, its exit, against itself does),
 * and a change that rounds to nothing is +0.0, never -0.0. */
static void punctuation_and_zero(void)
{
    static rs_stalls a, b;
    a.total = b.total = 1000;
    a.nlines = b.nlines = 2;
    snprintf(a.line[0].file, sizeof a.line[0].file, "mine.cu");
    b.line[0] = b.line[1] = a.line[1] = a.line[0];
    a.line[0].line = 56, b.line[0].line = 34;
    snprintf(a.line[0].text, sizeof a.line[0].text, "}");
    snprintf(b.line[0].text, sizeof b.line[0].text, "}");
    a.line[0].samples = 5, b.line[0].samples = 0;
    a.line[1].line = b.line[1].line = 10;
    snprintf(a.line[1].text, sizeof a.line[1].text, "x += y;");
    snprintf(b.line[1].text, sizeof b.line[1].text, "x += y;");
    a.line[1].samples = 995, b.line[1].samples = 1000;
    const int n = rs_stalls_diff(&a, &b, d, RS_STALL_DELTAS);
    CHECK(n == 3 && find(n, 10, 10) && find(n, 56, 0) && find(n, 0, 34));
    CHECK(rs_stalls_diff(&a, &a, d, RS_STALL_DELTAS) == 2 && find(2, 56, 56));
    rs_stall_delta x = {.before = 0.54, .after = 0.5};
    CHECK(rs_stall_delta_change(&x) == 0.0 && !signbit(rs_stall_delta_change(&x)));
    x.after = 0.6;
    CHECK(fabs(rs_stall_delta_change(&x) - 0.1) < 1e-12);
}

/* The same kernel: against itself nothing moves; against its float32 run
 * every line matches at its own number, and none moves half a point. */
static void same_kernel(const rs_stalls *in, const rs_stalls *fl)
{
    int n = rs_stalls_diff(in, in, d, RS_STALL_DELTAS);
    CHECK(n == in->nlines);
    whole(in, in, n);
    for (int i = 0; i < n; i++) CHECK(d[i].line == d[i].line_before && d[i].before == d[i].after);
    CHECK_STR_EQ(words(&d[0]), "classic.cu:28 (if (tid % (2 * stride) == 0) s[tid] =...) stayed at "
                               "54.4% of the samples");
    n = rs_stalls_diff(in, fl, d, RS_STALL_DELTAS);
    CHECK(n == 8);
    whole(in, fl, n);
    char where[96];
    for (int i = 0; i < n; i++) {
        CHECK(d[i].line == d[i].line_before && fabs(d[i].after - d[i].before) < 0.5);
        CHECK(!strstr(rs_stall_delta_where(&d[i], where, sizeof where), "->"));
        CHECK(strstr(words(&d[i]), " stayed at "));
    }
    /* without texts, lines match by number alone */
    static rs_stalls a, b;
    a = *in;
    b = *fl;
    for (int i = 0; i < a.nlines; i++) a.line[i].text[0] = '\0';
    CHECK(rs_stalls_diff(&a, &b, d, RS_STALL_DELTAS) == 8 && d[0].line == d[0].line_before);
    for (int i = 0; i < b.nlines; i++) b.line[i].text[0] = '\0';
    CHECK(rs_stalls_diff(&a, &b, d, RS_STALL_DELTAS) == 8);
    CHECK_STR_EQ(words(&d[7]), "classic.cu:25 stayed at 0.0% of the samples");
}

/* Kernels of other files share no line: all gone, all new. */
static void other_files(const rs_stalls *atom, const rs_stalls *vec)
{
    const int n = rs_stalls_diff(atom, vec, d, RS_STALL_DELTAS);
    CHECK(n == atom->nlines + vec->nlines && n == 24);
    whole(atom, vec, n);
    for (int i = 0; i < n; i++) CHECK(!d[i].line || !d[i].line_before);
    CHECK_STR_EQ(words(&d[0]), "classic.cu:14 (if (i < n) atomic_op(Op(), out, to_ac...) is gone "
                               "(it held 98.9% of the samples)");
    CHECK_STR_EQ(words(&d[1]), "modern.cu:105 (op(vec_reduce<T, A, Op>(c), vec_reduc...) is new, "
                               "with 64.2% of the samples");
}

/* No view, a view of no samples, a short table, small buffers: no line
 * invented, no 0/0, nothing written past what is given. */
static void empty_and_zero(const rs_stalls *in)
{
    static rs_stalls none, zero;
    memset(&none, 0, sizeof none);
    CHECK(rs_stalls_diff(&none, &none, d, RS_STALL_DELTAS) == 0);
    int n = rs_stalls_diff(&none, in, d, RS_STALL_DELTAS);
    CHECK(n == in->nlines);
    whole(&none, in, n);
    for (int i = 0; i < n; i++) CHECK(!d[i].line_before && strstr(words(&d[i]), " is new, with "));
    n = rs_stalls_diff(in, &none, d, RS_STALL_DELTAS);
    CHECK(n == in->nlines);
    whole(in, &none, n);
    CHECK_STR_EQ(words(&d[0]), "classic.cu:28 (if (tid % (2 * stride) == 0) s[tid] =...) is gone "
                               "(it held 54.4% of the samples)");
    zero = *in; /* the same lines, no sample on any */
    zero.total = 0;
    for (int i = 0; i < zero.nlines; i++) zero.line[i].samples = 0;
    n = rs_stalls_diff(&zero, in, d, RS_STALL_DELTAS);
    CHECK(n == in->nlines);
    whole(&zero, in, n);
    CHECK_STR_EQ(words(&d[0]), "classic.cu:28 (if (tid % (2 * stride) == 0) s[tid] =...) rose "
                               "from 0.0% to 54.4% of the samples");
    n = rs_stalls_diff(&zero, &zero, d, RS_STALL_DELTAS);
    CHECK(n == zero.nlines);
    whole(&zero, &zero, n);
    for (int i = 0; i < n; i++) CHECK(strstr(words(&d[i]), " stayed at 0.0% of the samples"));
    d[1].line = 12345; /* a short table: never past max */
    CHECK(rs_stalls_diff(in, &zero, d, 1) == 1 && d[1].line == 12345);
    CHECK(rs_stalls_diff(in, in, d, 0) == 0 && d[1].line == 12345);
    char small[16];
    memset(small, 'x', sizeof small);
    rs_stall_delta_words(&d[0], small, 10);
    CHECK(strlen(small) == 9 && small[10] == 'x');
    rs_stall_delta_where(&d[0], small, 6);
    CHECK_STR_EQ(small, "class");
}

int main(int argc, char **argv)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(argc > 1 && rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_stall_diff");
    rs_notation_set(0);
    const rs_stalls *in = view(&rec, RS_V_INTERLEAVED, RS_INT32);
    const rs_stalls *st = view(&rec, RS_V_INTERLEAVED_STRIDED, RS_INT32);
    const rs_stalls *sq = view(&rec, RS_V_SEQUENTIAL, RS_INT32);
    const rs_stalls *fl = view(&rec, RS_V_INTERLEAVED, RS_FLOAT32);
    const rs_stalls *atom = view(&rec, RS_V_ATOMIC, RS_INT32);
    const rs_stalls *vec = view(&rec, RS_V_VECTORIZED, RS_INT32);
    CHECK(in && st && sq && fl && atom && vec);
    if (check_failures) return check_report("test_stall_diff");
    interleaved_to_sequential(in, sq);
    interleaved_to_strided(in, st);
    strided_to_sequential(st, sq);
    punctuation_and_zero();
    same_kernel(in, fl);
    other_files(atom, vec);
    empty_and_zero(in);
    rs_recording_free(&rec);
    return check_report("test_stall_diff");
}
