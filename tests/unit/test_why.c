/* The "why" sentences on results recorded on a real H200 (the shipped
 * recording): they quote the numbers measured, and say so where the
 * counters contradict the textbook. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/format.h"
#include "formats/record.h"
#include "lecture/why.h"

static const rs_result *find(const rs_recording *rec, rs_variant v, rs_dtype t, uint64_t n,
                             unsigned block)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.type = t;
    r.n = n;
    r.block = block;
    const rs_row *row = rs_recording_find(rec, &r, "ladder");
    return row && row->status == RS_OK ? &row->result : NULL;
}

static int said(char (*lines)[256], int n, const char *needle)
{
    for (int i = 0; i < n; i++)
        if (strstr(lines[i], needle)) return 1;
    return 0;
}

/* The stall views of the recorded ladder (int32 2^24, --stalls): the panel
 * quotes the hottest line with its text and what the samples wait for
 * (vectorized: its 16-byte loads); a view asked for but not taken says why
 * not; none asked for, nothing. */
static void stall_sentence(const rs_recording *rec)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = RS_V_VECTORIZED;
    r.stalls = 1;
    const rs_row *row = rs_recording_find(rec, &r, NULL); /* recorded by a ladder */
    CHECK(row && row->status == RS_OK && rs_result_stalls(&row->result)->valid);
    char lines[16][256];
    if (row) {
        const int n = rs_why_measured(&row->result, NULL, NULL, NULL, lines, 16);
        CHECK(said(lines, n, "PC sampling: modern.cu:105 (op(vec_reduce<T, A, Op>(c)"));
        CHECK(said(lines, n,
                   "% of the samples wait for the 16-byte global loads on modern.cu:102, "
                   "103"));
    }
    r.variant = RS_V_INTERLEAVED;
    row = rs_recording_find(rec, &r, NULL);
    CHECK(row && row->status == RS_OK && rs_result_stalls(&row->result)->valid);
    if (row) {
        int n = rs_why_measured(&row->result, NULL, NULL, NULL, lines, 16);
        CHECK(said(lines, n, "PC sampling: classic.cu:28 (if (tid % (2 * stride) == 0)"));
        rs_result none = row->result;
        static rs_stalls view; /* the recorded view, refused */
        view = *row->result.stalls;
        view.valid = 0;
        snprintf(view.why, sizeof view.why, "no permission");
        none.stalls = &view;
        n = rs_why_measured(&none, NULL, NULL, NULL, lines, 16);
        CHECK(said(lines, n, "No stall view: no permission.") && !said(lines, n, "PC sampling"));
        view.requested = 0;
        n = rs_why_measured(&none, NULL, NULL, NULL, lines, 16);
        CHECK(!said(lines, n, "stall view"));
    }
}

/* A run over several GPUs (a recorded one-GPU result given two GPUs'
 * parts): the panel says which part dominates, and whose counters it
 * shows. */
static void gpus_sentences(const rs_result *one)
{
    rs_result r = *one;
    char lines[16][256];
    r.metrics.valid = r.metrics.requested = 0;
    r.multi.gpus = 2;
    r.multi.cross = RS_CROSS_P2P;
    snprintf(r.multi.links, sizeof r.multi.links, "NVLink between every pair");
    r.multi.shard_ms = 0.95 * r.t_median_ms;
    r.multi.finish_ms = 0.05 * r.t_median_ms;
    int n = rs_why_measured(&r, NULL, NULL, "press m, then Enter", lines, 16);
    CHECK(said(lines, n, "Over 2 GPUs: the slowest GPU reduced its share in"));
    CHECK(said(lines, n, "(p2p) took") && said(lines, n, ", 5% of the whole."));
    CHECK(said(lines, n, "only 2 values cross NVLink between every pair"));
    CHECK(said(lines, n, "press m") && !said(lines, n, "GPU 0's, for its share"));
    r.metrics.valid = one->metrics.valid; /* counters read: GPU 0's, said so */
    n = rs_why_measured(&r, NULL, NULL, NULL, lines, 16);
    CHECK(said(lines, n, "The counters panel shows GPU 0's, for its share"));
    r.metrics.valid = 0;
    r.multi.shard_ms = 0.3 * r.t_median_ms;
    r.multi.finish_ms = 0.7 * r.t_median_ms;
    n = rs_why_measured(&r, NULL, NULL, NULL, lines, 16);
    CHECK(said(lines, n, "The finish dominates") && !said(lines, n, "values cross"));
    r.multi.gpus = 0; /* one GPU: none of it */
    n = rs_why_measured(&r, NULL, NULL, "press m, then Enter", lines, 16);
    CHECK(!said(lines, n, "GPUs") && said(lines, n, "press m"));
    /* the hint is the caller's, as its source can honour it: a replay's */
    n = rs_why_measured(&r, NULL, NULL, "recorded without them", lines, 16);
    CHECK(said(lines, n, "(recorded without them)") && !said(lines, n, "press m"));
}

/* One precision for GB/s in the panel: the atomic's sentence quotes the
 * time line's figure (400 µs: 168 GB/s, not 167.7 beside it). */
static void gbps_precision(const rs_recording *rec)
{
    const rs_result *atom = find(rec, RS_V_ATOMIC, RS_INT32, 1u << 24, 256);
    CHECK(atom);
    if (!atom) return;
    char want[64], lines[16][256];
    rs_result bare = *atom; /* without counters the sentence quotes the GB/s */
    bare.metrics.valid = 0;
    snprintf(want, sizeof want, "One atomic per element: %.0f GB/s,", atom->gbps);
    int n = rs_why_measured(&bare, NULL, NULL, NULL, lines, 16);
    CHECK_MSG(said(lines, n, want), "no '%s'", want);
    /* with them, the DRAM's idle share beside the atomic unit (issue 40) */
    n = rs_why_measured(atom, NULL, NULL, NULL, lines, 16);
    CHECK(said(lines, n, "DRAM throughput is 4%, the DRAM mostly idle."));
}

/* Sentences each figure once: cooperative_groups' warp instructions are
 * said in the story and only their move in the textbook's caveat; thrust
 * tells its kernels' time against the whole call's. */
static void figures_once(const rs_recording *rec)
{
    const rs_result *cg = find(rec, RS_V_COOPERATIVE_GROUPS, RS_INT32, 1u << 24, 256);
    const rs_result *ws = find(rec, RS_V_WARP_SHUFFLE, RS_INT32, 1u << 24, 256);
    const rs_result *th = find(rec, RS_V_THRUST, RS_INT32, 1u << 24, 256);
    CHECK(cg && ws && th);
    if (!cg || !ws || !th) return;
    char lines[16][256], w[32];
    int n = rs_why_measured(cg, ws, "warp_shuffle", NULL, lines, 16);
    rs_fmt_count(cg->metrics.value[RS_M_WARP_INST], w, sizeof w);
    int times = 0;
    for (int i = 0; i < n; i++)
        for (const char *p = strstr(lines[i], w); p; p = strstr(p + 1, w)) times++;
    CHECK_MSG(times == 1, "%s said %d times", w, times);
    CHECK(said(lines, n, "on this GPU they fell"));
    /* against a pinned step that is not the one before, no story is told:
     * unroll_warp_volatile against multi_element said "the textbook
     * expects warp instructions to fall; they rose 4.6-fold" */
    const rs_result *uwv = find(rec, RS_V_UNROLL_WARP_VOLATILE, RS_INT32, 1u << 24, 256);
    const rs_result *me = find(rec, RS_V_MULTI_ELEMENT, RS_INT32, 1u << 24, 256);
    const rs_result *fa = find(rec, RS_V_FIRST_ADD, RS_INT32, 1u << 24, 256);
    CHECK(uwv && me && fa);
    if (uwv && me && fa) {
        n = rs_why_measured(uwv, me, "pinned multi_element", NULL, lines, 16);
        CHECK(!said(lines, n, "textbook expects") && !said(lines, n, "last six levels"));
        n = rs_why_measured(uwv, fa, "first_add", NULL, lines, 16);
        CHECK(said(lines, n, "last six levels"));
    }
    n = rs_why_measured(th, NULL, NULL, NULL, lines, 16);
    CHECK(said(lines, n, "Its kernels run 21.1 \u00b5s of the 38.0 \u00b5s measured") ||
          said(lines, n, "Its kernels run 21.1 us of the 38.0 us measured"));
}

/* The warm recording beside the demo (h200-warm.jsonl): LeetGPU's float32
 * 2^22 ladder warm and cold. Warm says what the L2 did, measured; against
 * the cold run pinned, energy per GB warm against cold. */
static void warm_sentences(const char *demo)
{
    char path[4096];
    const char *slash = strrchr(demo, '/');
    snprintf(path, sizeof path, "%.*sh200-warm.jsonl", slash ? (int)(slash - demo + 1) : 0, demo);
    rs_recording rec;
    rs_error err;
    CHECK_MSG(rs_recording_load(path, &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return;
    rs_request r;
    rs_request_defaults(&r);
    r.variant = RS_V_VECTORIZED, r.type = RS_FLOAT32, r.n = 1u << 22, r.metrics[0] = '\0';
    snprintf(r.metrics, sizeof r.metrics, "default");
    r.energy = 1;
    r.cache = RS_CACHE_WARM;
    const rs_row *w = rs_recording_find(&rec, &r, "ladder");
    r.cache = RS_CACHE_COLD;
    const rs_row *c = rs_recording_find(&rec, &r, "ladder");
    CHECK(w && c && w->status == RS_OK && c->status == RS_OK);
    if (!w || !c || w->status != RS_OK || c->status != RS_OK) return;
    char lines[16][256];
    int n = rs_why_measured(&w->result, NULL, NULL, NULL, lines, 16);
    CHECK(said(lines, n, "Warm: the input (16.0 MiB) was read into the 60.0 MiB L2 just before"));
    CHECK(said(lines, n, "of the L2 read") || said(lines, n, "data in the L2"));
    CHECK(said(lines, n, "The L2 held"));
    n = rs_why_measured(&w->result, &c->result, "vectorized", NULL, lines, 16);
    CHECK(said(lines, n, "Against vectorized, cold: J/GB"));
    CHECK(said(lines, n, "gone from the bill"));
    n = rs_why_measured(&c->result, NULL, NULL, NULL, lines, 16);
    CHECK(!said(lines, n, "Warm") && said(lines, n, "plain streaming read"));
    rs_recording_free(&rec);
}

int main(int argc, char **argv)
{
    rs_recording rec;
    rs_error err;
    CHECK_MSG(argc > 1 && rs_recording_load(argv[1], &rec, &err) == RS_OK, "%s", err.msg);
    if (check_failures) return check_report("test_why");
    char lines[16][256];
    const rs_result *strided = find(&rec, RS_V_INTERLEAVED_STRIDED, RS_INT32, 1u << 24, 256);
    const rs_result *seq = find(&rec, RS_V_SEQUENTIAL, RS_INT32, 1u << 24, 256);
    const rs_result *inter = find(&rec, RS_V_INTERLEAVED, RS_INT32, 1u << 24, 256);
    const rs_result *fa = find(&rec, RS_V_FIRST_ADD, RS_INT32, 1u << 24, 256);
    CHECK(strided && seq && inter && fa);
    if (check_failures) return check_report("test_why");
    gpus_sentences(seq);
    CHECK(seq->metrics.valid & RS_METRIC_BIT(RS_M_SHLD_CONFLICTS));

    int n = rs_why_measured(seq, strided, "interleaved_strided", NULL, lines, 16);
    char a[64], b[64], change[192];
    rs_fmt_count(strided->metrics.value[RS_M_SHLD_CONFLICTS] +
                     strided->metrics.value[RS_M_SHST_CONFLICTS],
                 a, sizeof a);
    rs_fmt_count(seq->metrics.value[RS_M_SHLD_CONFLICTS] + seq->metrics.value[RS_M_SHST_CONFLICTS],
                 b, sizeof b);
    snprintf(change, sizeof change, "Bank conflicts %s %s %s", a, rs_sym(RS_SYM_ARROW), b);
    CHECK_MSG(said(lines, n, change), "no '%s' in: %s", change, lines[n > 2 ? 2 : 0]);
    CHECK(said(lines, n, "32 different banks"));
    CHECK(said(lines, n, "against interleaved_strided"));
    CHECK(!said(lines, n, "textbook expects"));

    n = rs_why_measured(fa, seq, "sequential", NULL, lines, 16);
    CHECK(said(lines, n, "Warp instructions") && said(lines, n, "DRAM read"));

    gbps_precision(&rec);
    figures_once(&rec);
    warm_sentences(argv[1]);

    /* Divergence of interleaved: the counters show none (predication). */
    if (inter->metrics.valid & RS_METRIC_BIT(RS_M_DIVERGENT_BRANCHES)) {
        n = rs_why_measured(inter, NULL, NULL, NULL, lines, 16);
        CHECK(inter->metrics.value[RS_M_DIVERGENT_BRANCHES] != 0.0 ||
              said(lines, n, "0 divergent branches"));
    }

    /* Where the counters contradict the story, the tool says what they show. */
    rs_result fake = *seq;
    fake.metrics.value[RS_M_SHLD_CONFLICTS] = strided->metrics.value[RS_M_SHLD_CONFLICTS];
    fake.metrics.value[RS_M_SHST_CONFLICTS] = strided->metrics.value[RS_M_SHST_CONFLICTS];
    n = rs_why_measured(&fake, strided, "interleaved_strided", NULL, lines, 16);
    CHECK(said(lines, n, "The textbook expects bank conflicts to fall here"));

    /* Without counters: times only, and why. */
    fake = *seq;
    fake.metrics.valid = 0;
    fake.metrics.requested = 0;
    n = rs_why_measured(&fake, strided, "interleaved_strided", NULL, lines, 16);
    CHECK(said(lines, n, "Counters were not collected") && said(lines, n, "Time "));

    /* A wrong result is said first. */
    fake = *seq;
    fake.correct = 0;
    fake.bad_reps = 3;
    n = rs_why_measured(&fake, NULL, NULL, NULL, lines, 16);
    CHECK(n > 0 && strncmp(lines[0], "WRONG in 3 of", 13) == 0);
    const rs_result *atom = find(&rec, RS_V_ATOMIC, RS_FLOAT32, 1u << 28, 256);
    if (atom && !atom->correct) {
        n = rs_why_measured(atom, NULL, NULL, NULL, lines, 16);
        CHECK(said(lines, n, "2^24"));
    }
    /* vectorized's own launch: said where it differs from the request */
    const rs_result *vec = find(&rec, RS_V_VECTORIZED, RS_INT32, 1u << 24, 256);
    CHECK(vec != NULL);
    if (vec) {
        n = rs_why_measured(vec, NULL, NULL, NULL, lines, 16);
        CHECK(
            said(lines, n, "chose its own launch, 264 blocks of 1024 threads (you asked for 256)"));
        fake = *vec;
        fake.block = 1024;
        fake.grid = 264;
        n = rs_why_measured(&fake, NULL, NULL, NULL, lines, 16);
        CHECK(
            said(lines, n, "chose its own launch, 264 blocks of 1024 threads (you asked for 256)"));
        CHECK(said(lines, n, "last-block ticket"));
        fake.block = 256; /* the request's own: nothing to say */
        n = rs_why_measured(&fake, NULL, NULL, NULL, lines, 16);
        CHECK(!said(lines, n, "chose its own launch"));
        /* over 2 GPUs the % is of both GPUs' reads: the sentence names that sum */
        fake.multi.gpus = 2;
        fake.multi.shard_ms = 0.8 * fake.t_median_ms;
        fake.multi.finish_ms = 0.2 * fake.t_median_ms;
        fake.gbps = 1.1 * fake.device.measured_gbps;
        fake.pct_measured = 55.0;
        char want[160];
        snprintf(want, sizeof want,
                 "is 55%% of the %.0f GB/s that 2 GPUs' plain streaming reads reach together "
                 "(%.0f GB/s each)",
                 2 * fake.device.measured_gbps, fake.device.measured_gbps);
        n = rs_why_measured(&fake, NULL, NULL, NULL, lines, 16);
        CHECK_MSG(said(lines, n, want) && !said(lines, n, "a plain streaming read reaches"),
                  "no '%s'", want);
    }
    stall_sentence(&rec);
    rs_recording_free(&rec);
    return check_report("test_why");
}
