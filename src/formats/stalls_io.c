#include "stalls_io.h"

#include <math.h>
#include <string.h>

#include "core/format.h"

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void words_of(const int *kinds, const uint64_t *n, int c, uint64_t whole, char *buf,
                     size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < c; i++) {
        char w[96];
        rs_stall_kind_words(kinds[i], w, sizeof w);
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%.0f%% %s", i ? ", " : "", share(n[i], whole), w);
    }
}

static void top_words(const rs_stalls *s, const rs_stall_line *l, char *buf, size_t len)
{
    int kinds[RS_STALL_TOP];
    uint64_t n[RS_STALL_TOP];
    const int c = rs_stalls_top(s, l, RS_STALL_TOP, kinds, n);
    words_of(kinds, n, c, l ? l->samples : s->total, buf, len);
}

/* The reasons of a function: its top one, or all top three. */
static void func_words(const rs_stall_func *fn, int max, char *buf, size_t len)
{
    int kinds[RS_STALL_TOP];
    uint64_t n[RS_STALL_TOP];
    const int c = rs_stalls_top_func(fn, max < RS_STALL_TOP ? max : RS_STALL_TOP, kinds, n);
    words_of(kinds, n, c, fn->samples, buf, len);
}

static void print_funcs(FILE *f, const rs_stalls *s)
{
    int order[RS_STALL_FUNCS];
    const int nf = rs_stalls_funcs_sorted(s, order);
    if (nf) fprintf(f, "by function (library code under the call on your line)\n");
    char words[200];
    for (int i = 0; i < nf; i++) {
        const rs_stall_func *fn = &s->func[order[i]];
        func_words(fn, 1, words, sizeof words);
        fprintf(f, "  %5.1f%%  %-28s  %s\n", share(fn->samples, s->total), fn->name, words);
    }
    if (s->other_funcs)
        fprintf(f, "  %5.1f%%  %s\n", share(s->other_funcs, s->total), "more functions");
}

#define TEXT_COLS 56  /* a line's text in the table */
#define BIG_SHARE 1.0 /* lines with this share of the samples (%) get their reasons in words */

/* One line of the table: where, share, text; a line with a real share of
 * the samples adds its reasons, what it waits for and what is inside it. */
static void print_line(FILE *f, const rs_stalls *s, int i, int hot)
{
    const rs_stall_line *l = &s->line[i];
    char where[32], cut[RS_STALL_TEXT * 2], words[400];
    snprintf(where, sizeof where, "%s:%u", l->file, l->line);
    const double sh = share(l->samples, s->total);
    int kind[1];
    uint64_t n[1];
    const rs_stall_def *d = rs_stalls_top(s, l, 1, kind, n) ? rs_stall_kind_def(kind[0]) : NULL;
    fprintf(f, "%s %20s %5.1f%%  %s", hot ? ">" : " ", where, sh,
            rs_fmt_cut(l->text, TEXT_COLS, cut, sizeof cut));
    if (sh < BIG_SHARE) {
        char name[48];
        fprintf(f, "%s(%s)\n", l->text[0] ? "  " : "", rs_stall_name(d, name, sizeof name));
        return;
    }
    fprintf(f, "\n");
    top_words(s, l, words, sizeof words);
    fprintf(f, "%30s%s\n", "", words);
    int k[2];
    const int nw = rs_stalls_links_of(s, l, RS_LINK_WAITS, k, 2);
    for (int j = 0; j < nw; j++) {
        const rs_stall_link *w = &s->link[k[j]];
        char what[200];
        rs_stall_link_words(w, what, sizeof what);
        fprintf(f, "%30s%.0f%% wait for %s: %s\n", "", share(w->samples, l->samples), what,
                rs_fmt_cut(w->text, TEXT_COLS, cut, sizeof cut));
    }
    if (rs_stalls_links_of(s, l, RS_LINK_INSIDE, k, 1) == 1)
        fprintf(f, "%30s%.0f%% inside %s\n", "", share(s->link[k[0]].samples, l->samples),
                s->link[k[0]].name);
}

void rs_print_stalls(FILE *f, const rs_stalls *s, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *j = rs_stalls_to_json(s);
        char *text = rs_json_print(j);
        if (text) fprintf(f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(j);
        return;
    }
    if (fmt != RS_FMT_TABLE) return; /* CSV: formats/stalls_csv.c */
    if (!s->valid) {
        fprintf(f, "stalls     none: %s\n", s->why);
        return;
    }
    char taken[32], dropped[32];
    rs_fmt_count((double)s->total, taken, sizeof taken);
    rs_fmt_count((double)s->dropped, dropped, sizeof dropped);
    char runs[32] = "";
    if (s->runs > 1) snprintf(runs, sizeof runs, " over %d runs", s->runs);
    fprintf(f, "stalls     %s sample%s%s, %s dropped, one every 2^%d cycles\n", taken,
            s->total == 1 ? "" : "s", runs, dropped, 5 + s->period);
    const int hot = rs_stalls_hottest(s);
    for (int i = 0; i < s->nlines; i++) print_line(f, s, i, i == hot);
    if (s->unmapped || s->other_lines)
        fprintf(f, "  %20s %5.1f%%\n", "no line / more lines",
                share(s->unmapped + s->other_lines, s->total));
    char words[400];
    top_words(s, NULL, words, sizeof words);
    fprintf(f, "reasons    %s\n", words);
    rs_stalls_wait_words(s, words, sizeof words);
    if (words[0])
        fprintf(f, "waits      %s\n", words);
    else if (!s->causes && s->causes_why[0])
        fprintf(f, "waits      not traced: %s\n", s->causes_why);
    print_funcs(f, s);
}

void rs_stalls_hot_words(const rs_stalls *s, char *buf, size_t len)
{
    if (len) buf[0] = '\0';
    const int hot = s->valid ? rs_stalls_hottest(s) : -1;
    if (hot < 0) return;
    const rs_stall_line *l = &s->line[hot];
    int kind[1];
    uint64_t n[1];
    char words[96] = "", cut[RS_STALL_TEXT * 2], text[RS_STALL_TEXT * 2 + 8] = "";
    if (rs_stalls_top(s, l, 1, kind, n) == 1) rs_stall_kind_words(kind[0], words, sizeof words);
    if (l->text[0]) snprintf(text, sizeof text, " (%s)", rs_fmt_cut(l->text, 40, cut, sizeof cut));
    snprintf(buf, len, "%s:%u%s holds %.0f%% of the samples, %.0f%% %s", l->file, l->line, text,
             share(l->samples, s->total), share(words[0] ? n[0] : 0, l->samples), words);
}

cJSON *rs_stall_diff_to_json(const char *against, const rs_stall_delta *d, int n)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", against);
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", d[i].file);
        cJSON_AddNumberToObject(o, "line", d[i].line);
        cJSON_AddNumberToObject(o, "line_before", d[i].line_before);
        cJSON_AddStringToObject(o, "text", d[i].text);
        cJSON_AddNumberToObject(o, "share_before", d[i].before);
        cJSON_AddNumberToObject(o, "share_after", d[i].after);
        cJSON_AddItemToArray(lines, o);
    }
    if (n > 0) {
        char words[300];
        rs_stall_delta_words(&d[0], words, sizeof words);
        cJSON_AddStringToObject(j, "biggest_change", words);
    }
    return j;
}

void rs_print_stall_diff(FILE *f, const char *against, const rs_stall_delta *d, int n,
                         rs_format fmt)
{
    if (fmt != RS_FMT_TABLE) return; /* CSV: formats/stalls_csv.c */
    fprintf(f, "against    %s: line by line, each run's share of its own samples\n", against);
    for (int i = 0; i < n; i++) {
        char where[96], cut[RS_STALL_TEXT * 2], pad[128];
        rs_stall_delta_where(&d[i], where, sizeof where);
        char before[16], after[16];
        snprintf(before, sizeof before, d[i].line_before ? "%5.1f%%" : "     -", d[i].before);
        snprintf(after, sizeof after, d[i].line ? "%5.1f%%" : "     -", d[i].after);
        fprintf(f, "  %s %s %s %s  %+6.1f  %s\n", rs_pad(where, 20, 1, pad, sizeof pad), before,
                rs_sym(RS_SYM_ARROW), after, rs_stall_delta_change(&d[i]),
                rs_fmt_cut(d[i].text, TEXT_COLS, cut, sizeof cut));
    }
    if (n > 0) {
        char words[300];
        rs_stall_delta_words(&d[0], words, sizeof words);
        fprintf(f, "change     %s\n", words);
    }
}
