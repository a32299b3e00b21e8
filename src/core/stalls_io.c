#include "stalls_io.h"

#include <math.h>
#include <string.h>

#include "format.h"

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

/* The top reasons' columns: key and share each, empty where there is none. */
static void reasons_csv(FILE *f, const int *kinds, const uint64_t *n, int c, uint64_t whole)
{
    for (int k = 0; k < RS_STALL_TOP; k++) {
        const rs_stall_def *d = k < c ? rs_stall_kind_def(kinds[k]) : NULL;
        if (k < c)
            fprintf(f, ",%s,%.2f", d ? d->key : "unknown", share(n[k], whole));
        else
            fprintf(f, ",,");
    }
}

static void print_funcs_csv(FILE *f, const rs_stalls *s)
{
    int order[RS_STALL_FUNCS];
    const int nf = rs_stalls_funcs_sorted(s, order);
    if (!nf) return;
    fprintf(f, "\nfunction,samples,share");
    for (int i = 1; i <= RS_STALL_TOP; i++) fprintf(f, ",reason%d,reason%d_share", i, i);
    fprintf(f, "\n");
    for (int i = 0; i < nf; i++) {
        const rs_stall_func *fn = &s->func[order[i]];
        rs_csv_field(f, fn->name);
        fprintf(f, ",%llu,%.2f", (unsigned long long)fn->samples, share(fn->samples, s->total));
        int kinds[RS_STALL_TOP];
        uint64_t n[RS_STALL_TOP];
        const int c = rs_stalls_top_func(fn, RS_STALL_TOP, kinds, n);
        reasons_csv(f, kinds, n, c, fn->samples);
        fprintf(f, "\n");
    }
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

static void print_csv(FILE *f, const rs_stalls *s)
{
    fprintf(f, "file,line,samples,share");
    for (int i = 1; i <= RS_STALL_TOP; i++) fprintf(f, ",reason%d,reason%d_share", i, i);
    fprintf(f, ",inlined_share\n");
    for (int i = 0; i < s->nlines; i++) {
        const rs_stall_line *l = &s->line[i];
        rs_csv_field(f, l->file);
        fprintf(f, ",%u,%llu,%.2f", l->line, (unsigned long long)l->samples,
                share(l->samples, s->total));
        int kinds[RS_STALL_TOP];
        uint64_t n[RS_STALL_TOP];
        const int c = rs_stalls_top(s, l, RS_STALL_TOP, kinds, n);
        reasons_csv(f, kinds, n, c, l->samples);
        fprintf(f, ",%.2f\n", share(l->inlined, l->samples));
    }
    print_funcs_csv(f, s);
}

void rs_print_stalls(FILE *f, const rs_stalls *s, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *j = rs_stalls_to_json(s);
        char *text = cJSON_Print(j);
        if (text) fprintf(f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(j);
        return;
    }
    if (!s->valid) {
        if (fmt == RS_FMT_TABLE) fprintf(f, "stalls     none: %s\n", s->why);
        return;
    }
    if (fmt == RS_FMT_CSV) {
        print_csv(f, s);
        return;
    }
    char taken[32], dropped[32];
    rs_fmt_count((double)s->total, taken, sizeof taken);
    rs_fmt_count((double)s->dropped, dropped, sizeof dropped);
    fprintf(f, "stalls     %s samples, %s dropped, one every 2^%d cycles\n", taken, dropped,
            5 + s->period);
    const int hot = rs_stalls_hottest(s);
    char words[400];
    for (int i = 0; i < s->nlines; i++) {
        const rs_stall_line *l = &s->line[i];
        top_words(s, l, words, sizeof words);
        char inl[48] = "";
        if (l->inlined)
            snprintf(inl, sizeof inl, " [%.0f%% in inlined library code]",
                     share(l->inlined, l->samples));
        fprintf(f, "%s %22s:%-4u %5.1f%%  %s%s\n", i == hot ? ">" : " ", l->file, l->line,
                share(l->samples, s->total), words, inl);
    }
    if (s->unmapped || s->other_lines)
        fprintf(f, "  %27s %5.1f%%\n", "no line / more lines",
                share(s->unmapped + s->other_lines, s->total));
    top_words(s, NULL, words, sizeof words);
    fprintf(f, "reasons    %s\n", words);
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
    char words[96] = "";
    if (rs_stalls_top(s, l, 1, kind, n) == 1) rs_stall_kind_words(kind[0], words, sizeof words);
    snprintf(buf, len, "%s:%u holds %.0f%% of the samples, %.0f%% %s", l->file, l->line,
             share(l->samples, s->total), share(words[0] ? n[0] : 0, l->samples), words);
}
