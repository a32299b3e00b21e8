/* The stall reasons of PC sampling: CUPTI's names, with or without their
 * prefix and "_not_issued", in plain words and in Nsight Compute's. */
#include <stdlib.h>

#include "check.h"
#include "core/stall_table.h"
#include "analysis/stall_diff.h"
#include "formats/stalls_io.h"

static char *printed(const rs_stalls *s, rs_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rs_print_stalls(f, s, fmt);
    fclose(f);
    return buf;
}

/* The view's rows of run --stalls's CSV under their header (no run columns). */
static char *printed_csv(const rs_stalls *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fputs("table", f);
    rs_stalls_csv_header(f);
    fputc('\n', f);
    rs_stalls_csv_rows(f, s, 0);
    fclose(f);
    return buf;
}

/* Samples gathered by line and reason, the hottest line, the top reasons. */
static void aggregate(void)
{
    static rs_stalls s;
    memset(&s, 0, sizeof s);
    const int lsb = rs_stall_kind("smsp__pcsamp_warps_issue_stalled_long_scoreboard");
    const int ssb = rs_stall_kind("smsp__pcsamp_warps_issue_stalled_short_scoreboard");
    const int bar = rs_stall_kind("barrier_not_issued");
    const int odd = rs_stall_kind("smsp__pcsamp_warps_issue_stalled_warp_teleport");
    CHECK(lsb >= 0 && ssb >= 0 && bar >= 0 && odd == RS_STALL_KINDS - 1);
    CHECK(rs_stall_kind_def(odd) == NULL &&
          strcmp(rs_stall_kind_def(lsb)->key, "long_scoreboard") == 0);
    rs_stalls_add(&s, "/src/kernels/classic.cu", 40, lsb, 300);
    rs_stalls_add(&s, "classic.cu", 40, ssb, 100); /* the same line: no directory kept */
    rs_stalls_add(&s, "classic.cu", 12, bar, 250);
    rs_stalls_add(&s, "classic.cu", 41, odd, 50);
    rs_stalls_add(&s, NULL, 0, lsb, 10);        /* no line: unmapped */
    rs_stalls_add(&s, "classic.cu", 9, lsb, 0); /* nothing: no line made */
    CHECK(s.nlines == 3 && s.total == 710 && s.unmapped == 10);
    CHECK(s.line[0].line == 12 && s.line[1].line == 40 && s.line[2].line == 41); /* in order */
    CHECK(strcmp(s.line[1].file, "classic.cu") == 0 && s.line[1].samples == 400);
    CHECK(rs_stalls_hottest(&s) == 1);
    int kinds[3];
    uint64_t n[3];
    CHECK(rs_stalls_top(&s, &s.line[1], 3, kinds, n) == 2);
    CHECK(kinds[0] == lsb && n[0] == 300 && kinds[1] == ssb && n[1] == 100);
    CHECK(rs_stalls_top(&s, NULL, 2, kinds, n) == 2); /* the run: long 310, barrier 250 */
    CHECK(kinds[0] == lsb && n[0] == 310 && kinds[1] == bar && n[1] == 250);
    CHECK(rs_stalls_top(&s, NULL, 1, kinds, n) == 1 && kinds[0] == lsb);

    /* past RS_STALL_LINES lines the rest is counted, not lost */
    static rs_stalls full;
    memset(&full, 0, sizeof full);
    for (uint32_t i = 1; i <= RS_STALL_LINES + 5; i++) rs_stalls_add(&full, "k.cu", i, lsb, 2);
    CHECK(full.nlines == RS_STALL_LINES && full.other_lines == 10 &&
          full.total == 2 * (RS_STALL_LINES + 5));

    /* JSON round trip, then out again the same */
    s.valid = s.requested = 1;
    s.period = 7;
    s.dropped = 3;
    cJSON *j = rs_stalls_to_json(&s);
    static rs_stalls back;
    rs_stalls_from_json(j, &back);
    CHECK(back.valid && back.total == s.total && back.unmapped == s.unmapped && back.nlines == 3);
    CHECK(back.period == 7 && back.dropped == 3 && back.line[1].by_reason[ssb] == 100);
    CHECK(back.by_reason[odd] == 50);
    CHECK(back.runs == 0 && !cJSON_GetObjectItemCaseSensitive(j, "runs")); /* one: not said */
    cJSON_Delete(j);
    s.runs = 4; /* a short kernel sampled four times */
    j = rs_stalls_to_json(&s);
    rs_stalls_from_json(j, &back);
    CHECK(back.runs == 4);
    cJSON_Delete(j);
    char *t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(t, "710 samples over 4 runs, 3 dropped, one every 2^12 cycles");
    free(t);
    s.runs = 0;

    t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(t, "710 samples, 3 dropped, one every 2^12 cycles");
    CHECK_STR_CONTAINS(t, ">        classic.cu:40  56.3%  \n");
    CHECK_STR_CONTAINS(t, "\n                              75% waiting for global memory "
                          "(long scoreboard), 25% waiting for shared memory (short scoreboard)\n");
    CHECK_STR_CONTAINS(t, "waiting at __syncthreads (barrier)");
    CHECK_STR_CONTAINS(t, "\n         classic.cu:41   7.0%  \n                              100% a "
                          "reason redscope does not know\n");
    CHECK(!strstr(t, "waits ")); /* no view of causes, and no reason given: nothing said */
    free(t);
    t = printed_csv(&s);
    CHECK_STR_CONTAINS(t,
                       "table,file,line,text,function,samples,share_pct,reason1,reason1_share_pct");
    CHECK_STR_CONTAINS(t, ",waits_for_file,waits_for_line,waits_for_text,waits_for_instruction,"
                          "waits_for_share_pct,compared_with,");
    CHECK_STR_CONTAINS(
        t, "\nline,\"classic.cu\",40,\"\",,400,56.338,long_scoreboard,75,short_scoreboard,25,,");
    free(t);
    s.valid = 0;
    snprintf(s.why, sizeof s.why, "PC sampling needs root here");
    t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(t, "stalls     none: PC sampling needs root here");
    free(t);
}

/* By function, the inlined share of a line, the instructions: counted,
 * carried through JSON, printed. */
static void functions(void)
{
    static rs_stalls s, back;
    memset(&s, 0, sizeof s);
    const int lsb = rs_stall_kind("smsp__pcsamp_warps_issue_stalled_long_scoreboard");
    const int bar = rs_stall_kind("smsp__pcsamp_warps_issue_stalled_barrier");
    const rs_stall_at own = {"/src/kernels/modern.cu", 102, "vec_reduce", 0};
    const rs_stall_at ldg = {"/src/kernels/modern.cu", 102, "__ldg", 1};
    const rs_stall_at cg = {"/src/kernels/common.cuh", 250, "cg::reduce", 1};
    rs_stalls_add_at(&s, &own, lsb, 100);
    rs_stalls_add_at(&s, &ldg, lsb, 300);
    rs_stalls_add_at(&s, &cg, bar, 100);
    CHECK(s.nlines == 2 && s.nfuncs == 3 && s.total == 500);
    CHECK(s.line[1].file[0] == 'm' && s.line[1].samples == 400 && s.line[1].inlined == 300);
    int order[RS_STALL_FUNCS];
    CHECK(rs_stalls_funcs_sorted(&s, order) == 3 && strcmp(s.func[order[0]].name, "__ldg") == 0);
    rs_stalls_add_pc(&s, 0x40, 7);
    rs_stalls_add_pc(&s, 0x10, 5);
    rs_stalls_add_pc(&s, 0x40, 1);
    CHECK(s.npcs == 2 && s.pc[0].offset == 0x10 && rs_stalls_pc(&s, 0x40) == 8);
    CHECK(rs_stalls_pc(&s, 0x20) == 0);
    snprintf(s.kernel, sizeof s.kernel, "_ZN2rs12k_vectorized");
    s.sm = 90;
    s.valid = s.requested = 1;
    cJSON *j = rs_stalls_to_json(&s);
    rs_stalls_from_json(j, &back);
    cJSON_Delete(j);
    CHECK(back.nfuncs == 3 && back.line[1].inlined == 300 && back.npcs == 2);
    CHECK(back.sm == 90 && strcmp(back.kernel, s.kernel) == 0 && rs_stalls_pc(&back, 0x40) == 8);
    char *t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(t, "modern.cu:102  80.0%  \n                              100% waiting for "
                          "global memory (long scoreboard)\n");
    CHECK_STR_CONTAINS(t, "by function");
    CHECK_STR_CONTAINS(t, "   60.0%  __ldg                         100% waiting for global memory");
    free(t);
    t = printed_csv(&s);
    CHECK_STR_CONTAINS(t, ",inlined_share_pct,waits_for_file");
    CHECK_STR_CONTAINS(t, "long_scoreboard,100,,,,,75,,,,,,,,,,\n");
    CHECK_STR_CONTAINS(t, "\nfunction,,,,\"__ldg\",300,60,long_scoreboard,100,");
    CHECK_STR_CONTAINS(t, "\nfunction,,,,\"cg::reduce\",100,20,barrier,100,");
    free(t);
    /* a full function table counts the rest */
    static rs_stalls full;
    memset(&full, 0, sizeof full);
    char name[16];
    for (int i = 0; i < RS_STALL_FUNCS + 2; i++) {
        snprintf(name, sizeof name, "f%d", i);
        rs_stalls_add_func(&full, name, lsb, 3);
    }
    CHECK(full.nfuncs == RS_STALL_FUNCS && full.other_funcs == 6);
    for (uint64_t pc = 0; pc < 16 * (RS_STALL_PCS + 4); pc += 16) rs_stalls_add_pc(&full, pc, 1);
    CHECK(full.npcs == RS_STALL_PCS);
}

/* A recording anyone may write: nothing in it is trusted. */
static void hostile_json(void)
{
    static rs_stalls s;
    const char *bad[] = {
        "[]",
        "{\"valid\": true, \"lines\": 7}",
        "{\"valid\": true, \"period\": 1e300, \"lines\": [{\"file\": 3, \"line\": 1}]}",
        "{\"valid\": true, \"runs\": -3, \"lines\": []}",
        "{\"valid\": true, \"runs\": 1e300, \"lines\": []}",
        "{\"valid\": true, \"lines\": [{\"file\": \"k.cu\", \"line\": -4, \"reasons\": "
        "{\"barrier\": 5}}]}",
        "{\"valid\": true, \"lines\": [{\"file\": \"k.cu\", \"line\": 3, \"reasons\": "
        "{\"barrier\": -5, \"x\": 1e300}}]}",
        "{\"valid\": false}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *j = cJSON_Parse(bad[i]);
        rs_stalls_from_json(j, &s);
        CHECK_MSG(s.nlines == 0 && s.total == 0 && s.period >= 0 && s.period <= 31 && s.runs >= 0 &&
                      s.runs <= 1000,
                  "%s", bad[i]);
        cJSON_Delete(j);
    }
    cJSON *j = cJSON_Parse("{\"valid\": false}");
    rs_stalls_from_json(j, &s);
    CHECK(!s.valid && s.requested && strcmp(s.why, "not recorded") == 0);
    cJSON_Delete(j);
}

/* What a line leads to (the code inside it, the instruction its waits
 * stand on), the lines' texts: kept, merged, printed, through JSON. */
static void links(void)
{
    static rs_stalls s, back;
    memset(&s, 0, sizeof s);
    const int lsb = rs_stall_kind("long_scoreboard"), bar = rs_stall_kind("barrier");
    CHECK(rs_stall_wait_class(lsb) && rs_stall_wait_class(bar) &&
          !rs_stall_wait_class(rs_stall_kind("selected")));
    rs_stalls_add(&s, "modern.cu", 105, lsb, 900);
    rs_stalls_add(&s, "modern.cu", 110, bar, 100);
    snprintf(s.line[0].text, sizeof s.line[0].text,
             "op(vec_reduce<T, A, Op>(c), vec_reduce<T, A, "
             "Op>(d))));");
    rs_stall_link w = {"modern.cu", 105, RS_LINK_WAITS,        lsb,
                       "modern.cu", 102, "LDG.E.128.CONSTANT", "const uint4 a = __ldg(vin + i);",
                       500};
    rs_stalls_link(&s, &w);
    w.to_line = 103;
    snprintf(w.text, sizeof w.text, "const uint4 c = __ldg(vin + i + 2 * nthreads);");
    w.samples = 300;
    rs_stalls_link(&s, &w);
    w.samples = 100; /* the same link again: merged */
    rs_stalls_link(&s, &w);
    const rs_stall_link in = {"modern.cu",
                              105,
                              RS_LINK_INSIDE,
                              0,
                              "common.cuh",
                              65,
                              "vec_reduce (modern.cu:81) > SumOp::operator() (common.cuh:65)",
                              "return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));",
                              880};
    rs_stalls_link(&s, &in);
    CHECK(s.nlinks == 3 && s.link[1].samples == 400);
    int order[4];
    CHECK(rs_stalls_links_of(&s, &s.line[0], RS_LINK_WAITS, order, 4) == 2 && order[0] == 0);
    CHECK(rs_stalls_links_of(&s, &s.line[1], RS_LINK_WAITS, order, 4) == 0);
    CHECK_STR_EQ(rs_stalls_text(&s, "modern.cu", 103),
                 "const uint4 c = __ldg(vin + i + 2 * nthreads);");
    CHECK_STR_EQ(rs_stalls_text(&s, "modern.cu", 9), "");
    char words[300];
    rs_stalls_wait_words(&s, words, sizeof words);
    CHECK_STR_EQ(words, "90% of the samples wait for the 16-byte global loads on modern.cu:102-103 "
                        "(const uint4 a = __ldg(vin + i);)");
    rs_stall_link_words(&s.link[0], words, sizeof words);
    CHECK_STR_EQ(words, "the 16-byte global load (LDG.E.128.CONSTANT) on modern.cu:102");
    for (int i = 0; i < RS_STALL_LINKS + 3; i++) { /* past the table: counted, not lost */
        rs_stall_link more = w;
        more.to_line = 1000 + (uint32_t)i;
        more.samples = 1;
        rs_stalls_link(&s, &more);
    }
    CHECK(s.nlinks == RS_STALL_LINKS && s.other_links == 6);
    s.valid = s.requested = s.causes = 1;
    char *t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(
        t, ">        modern.cu:105  90.0%  op(vec_reduce<T, A, Op>(c), vec_reduce<T, A, "
           "Op>(d))));\n");
    CHECK_STR_CONTAINS(t,
                       "\n                              56% wait for the 16-byte global load "
                       "(LDG.E.128.CONSTANT) on modern.cu:102: const uint4 a = __ldg(vin + i);\n");
    CHECK_STR_CONTAINS(t, "\n                              98% inside vec_reduce (modern.cu:81) > "
                          "SumOp::operator() (common.cuh:65)\n");
    CHECK_STR_CONTAINS(t, "\nwaits      96% of the samples wait for the 16-byte global loads on "
                          "modern.cu:102, 103, 1000, 1001, 1002, 1003, 1004, 1005 (const uint4 a = "
                          "__ldg(vin + i);)\n");
    free(t);
    t = printed_csv(&s);
    CHECK_STR_CONTAINS(t,
                       "\nline,\"modern.cu\",105,\"op(vec_reduce<T, A, Op>(c), vec_reduce<T, A, "
                       "Op>(d))));\",,900,90,long_scoreboard,100,,,,,0,\"modern.cu\",102,"
                       "\"const uint4 a = __ldg(vin + i);\",\"LDG.E.128.CONSTANT\",55.5556,,,,,\n");
    free(t);
    cJSON *j = rs_stalls_to_json(&s);
    rs_stalls_from_json(j, &back);
    cJSON_Delete(j);
    CHECK(back.nlinks == s.nlinks && back.causes && back.other_links == 6);
    CHECK(back.link[2].what == RS_LINK_INSIDE && strcmp(back.link[2].name, in.name) == 0);
    CHECK(back.link[0].kind == lsb && strcmp(back.link[0].text, w.text) != 0 &&
          strcmp(back.line[0].text, s.line[0].text) == 0);
    /* without causes, the table says why */
    s.causes = 0;
    s.nlinks = 0;
    snprintf(s.causes_why, sizeof s.causes_why, "nvdisasm is not on PATH");
    t = printed(&s, RS_FMT_TABLE);
    CHECK_STR_CONTAINS(t, "\nwaits      not traced: nvdisasm is not on PATH\n");
    free(t);
    /* a hostile link: a newline in a text is one line, a bad number drops it */
    j = cJSON_Parse("{\"valid\": true, \"links\": [{\"file\": \"k.cu\", \"line\": 3, "
                    "\"link\": \"waits\", \"reason\": \"barrier\", \"to_file\": \"k.cu\", "
                    "\"to_line\": 2, \"to_text\": \"a\\nFORGED\", \"instruction\": \"BAR\", "
                    "\"samples\": 4}, {\"file\": \"k.cu\", \"line\": -1, \"link\": \"waits\", "
                    "\"to_file\": \"k.cu\", \"to_line\": 2, \"instruction\": \"BAR\"}]}");
    rs_stalls_from_json(j, &back);
    cJSON_Delete(j);
    CHECK(back.nlinks == 1 && !strchr(back.link[0].text, '\n') && !back.causes &&
          strstr(back.causes_why, "recorded before"));
}

/* Two views line by line: matched by text when a line moved, the
 * biggest change first, in words. */
static void diff(void)
{
    static rs_stalls a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    const int bar = rs_stall_kind("barrier");
    rs_stalls_add(&a, "k.cu", 10, bar, 410); /* the barrier line */
    rs_stalls_add(&a, "k.cu", 12, bar, 590);
    rs_stalls_add(&b, "k.cu", 11, bar, 60); /* the same text, a line lower after an edit */
    rs_stalls_add(&b, "k.cu", 13, bar, 590);
    rs_stalls_add(&b, "k.cu", 20, bar, 340); /* new */
    rs_stalls_add(&b, "k.cu", 21, bar, 10);
    rs_stalls_add(&b, "k.cu", 30, bar, 0); /* nothing: no line */
    snprintf(a.line[0].text, sizeof a.line[0].text, "__syncthreads();");
    snprintf(a.line[1].text, sizeof a.line[1].text, "s[tid] += s[tid + s];");
    snprintf(b.line[0].text, sizeof b.line[0].text, "__syncthreads();");
    snprintf(b.line[1].text, sizeof b.line[1].text, "s[tid] += s[tid + s];");
    snprintf(b.line[2].text, sizeof b.line[2].text, "v = warp_reduce(v);");
    rs_stall_delta d[RS_STALL_DELTAS];
    const int n = rs_stalls_diff(&a, &b, d, RS_STALL_DELTAS);
    CHECK(n == 4);
    CHECK(d[0].line == 11 && d[0].line_before == 10 && d[0].before > 40.9 && d[0].after < 6.1);
    CHECK(d[1].line == 20 && d[1].line_before == 0 && d[1].after > 33.9);
    CHECK(d[2].line == 21 && d[3].line == 13 && d[3].line_before == 12);
    char words[300];
    rs_stall_delta_words(&d[0], words, sizeof words);
    CHECK_STR_EQ(words, "k.cu:10->11 (__syncthreads();) fell from 41.0% to 6.0% of the samples");
    rs_stall_delta_words(&d[1], words, sizeof words);
    CHECK_STR_EQ(words, "k.cu:20 (v = warp_reduce(v);) is new, with 34.0% of the samples");
    rs_stall_delta_words(&d[3], words, sizeof words);
    CHECK_STR_EQ(words, "k.cu:12->13 (s[tid] += s[tid + s];) stayed at 59.0% of the samples");
    CHECK(rs_stalls_diff(&b, &a, d, RS_STALL_DELTAS) == 4 && d[1].line == 0 &&
          d[1].line_before == 20);
    rs_stall_delta_words(&d[1], words, sizeof words);
    CHECK_STR_EQ(words, "k.cu:20 (v = warp_reduce(v);) is gone (it held 34.0% of the samples)");
    CHECK(rs_stalls_diff(&a, &b, d, 1) == 1); /* never past max */
    /* without texts, lines match by number */
    for (int i = 0; i < 4; i++) a.line[i].text[0] = b.line[i].text[0] = '\0';
    CHECK(rs_stalls_diff(&a, &b, d, RS_STALL_DELTAS) == 6);
}

int main(void)
{
    int ni = -1;
    const rs_stall_def *d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_long_scoreboard", &ni);
    CHECK(d && strcmp(d->key, "long_scoreboard") == 0 && ni == 0 && d->waiting);
    d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_barrier_not_issued", &ni);
    CHECK(d && strcmp(d->key, "barrier") == 0 && ni == 1);
    d = rs_stall_find("short_scoreboard", &ni);
    CHECK(d && strcmp(d->ncu, "Stall Short Scoreboard") == 0 && ni == 0);
    d = rs_stall_find("selected", NULL);
    CHECK(d && !d->waiting);
    /* a key is matched whole: "not_selected" is not "selected" */
    d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_not_selected", NULL);
    CHECK(d && strcmp(d->key, "not_selected") == 0);
    CHECK(rs_stall_find("smsp__pcsamp_warps_issue_stalled_warp_teleport", NULL) == NULL);
    CHECK(rs_stall_find("", NULL) == NULL && rs_stall_find(NULL, &ni) == NULL && ni == 0);
    CHECK(rs_stall_find("_not_issued", NULL) == NULL);

    char buf[96];
    rs_stall_describe("smsp__pcsamp_warps_issue_stalled_long_scoreboard", buf, sizeof buf);
    CHECK_STR_EQ(buf, "waiting for global memory (long scoreboard)");
    rs_stall_describe("short_scoreboard_not_issued", buf, sizeof buf);
    CHECK_STR_EQ(buf, "waiting for shared memory (short scoreboard)");
    rs_stall_describe("smsp__pcsamp_warps_issue_stalled_warp_teleport", buf, sizeof buf);
    CHECK_STR_EQ(buf, "warp_teleport"); /* unknown: as it came, without the prefix */
    rs_stall_describe("barrier", buf, 8);
    CHECK(strlen(buf) == 7); /* cut, never past the buffer */

    size_t count = 0;
    const rs_stall_def *all = rs_stall_table(&count);
    CHECK(count >= 18);
    for (size_t i = 0; i < count; i++) {
        CHECK(all[i].key[0] && all[i].ncu[0] && all[i].words[0]);
        CHECK(rs_stall_find(all[i].key, NULL) == &all[i]); /* every key finds itself */
    }
    aggregate();
    hostile_json();
    functions();
    links();
    diff();
    return check_report("test_stalls");
}
