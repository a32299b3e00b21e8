/* What the stall view's waits stand on: each sampled PC that waited on a
 * scoreboard, a barrier or a fence is traced through its kernel's SASS
 * (nvdisasm, nvtools/sass_deps.c) to the instruction it waits for, and that
 * instruction's line becomes a link of the line the sample is shown on.
 * Then every line the view names gets its source text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtools/sass_deps.h"
#include "core/snippets.h"
#include "core/trace.h"
#include "internal.h"
#include "nvtools/builtin_cubins.h"
#include "nvtools/sass_view.h"
#include "stalls_cause.h"

void rs_waits_add(rs_waits *w, const char *fn, uint64_t pc, int kind, const char *file,
                  uint32_t line, uint64_t samples)
{
    int k = 0;
    while (k < w->nk && strcmp(w->k[k].fn, fn) != 0) k++;
    if (k == w->nk) {
        if (w->nk == RS_WAIT_KERNELS) return;
        snprintf(w->k[k].fn, sizeof w->k[k].fn, "%s", fn);
        w->nk++;
    }
    rs_wait_kernel *kk = &w->k[k];
    for (int i = 0; i < kk->n; i++)
        if (kk->w[i].pc == pc && kk->w[i].kind == kind) {
            kk->w[i].samples += samples;
            return;
        }
    if (kk->n == kk->cap) {
        const int cap = kk->cap ? kk->cap * 2 : 64;
        rs_wait_pc *more = realloc(kk->w, sizeof *more * (size_t)cap);
        if (!more) return;
        kk->w = more;
        kk->cap = cap;
    }
    rs_wait_pc *p = &kk->w[kk->n++];
    p->pc = pc;
    p->kind = kind;
    p->line = line;
    p->samples = samples;
    snprintf(p->file, sizeof p->file, "%s", file ? rs_stall_base(file) : "");
}

void rs_waits_clear(rs_waits *w)
{
    for (int k = 0; k < w->nk; k++) free(w->k[k].w);
    memset(w, 0, sizeof *w);
}

/* The chain of an instruction of fn: the user's kernel, else a built-in. */
static int chain_of(rs_engine *e, int sm, const char *fn, uint64_t pc, rs_src_frame *f)
{
    rs_error err;
    const int n = rs_uk_chain(e, fn, pc, f, RS_FRAMES_MAX, &err);
    return n ? n : rs_builtin_chain(NULL, sm, fn, pc, f, RS_FRAMES_MAX, &err);
}

/* The kernel's cubin on disk: the user's saved to the cache, or a built-in's. */
static int cubin_of(rs_engine *e, int sm, const char *fn, char *path, size_t len)
{
    return rs_uk_save_cubin(e, fn, path, len) || rs_builtin_cubin_path(NULL, sm, fn, path, len);
}

/* One kernel's waits traced; 0 with why when its SASS is not to be had. */
static int trace_kernel(rs_engine *e, int sm, const rs_stall_owner *o, const rs_wait_kernel *k,
                        rs_stalls *s, char *why, size_t why_len)
{
    char path[4096];
    if (!cubin_of(e, sm, k->fn, path, sizeof path)) {
        snprintf(why, why_len, "no cubin holds %.120s", k->fn);
        return 0;
    }
    char *text = rs_sass_text(path, k->fn, why, why_len);
    int nops = 0;
    rs_sass_op *ops = text ? rs_sass_parse(text, &nops) : NULL;
    free(text);
    if (!ops) {
        if (!why[0]) snprintf(why, why_len, "nvdisasm gave no instructions of %.100s", k->fn);
        return 0;
    }
    for (int i = 0; i < k->n; i++) {
        const rs_wait_pc *w = &k->w[i];
        const int j = rs_sass_cause(ops, nops, w->pc, rs_stall_wait_class(w->kind));
        rs_src_frame f[RS_FRAMES_MAX];
        const int nf = j >= 0 && w->file[0] ? chain_of(e, sm, k->fn, ops[j].offset, f) : 0;
        if (!nf) continue;
        const rs_src_frame *at = &f[rs_stall_source(f, nf, o)];
        rs_stall_link l;
        memset(&l, 0, sizeof l);
        snprintf(l.file, sizeof l.file, "%s", w->file);
        l.line = w->line;
        l.what = RS_LINK_WAITS;
        l.kind = w->kind;
        snprintf(l.to_file, sizeof l.to_file, "%s", rs_stall_base(at->file));
        l.to_line = at->line;
        snprintf(l.name, sizeof l.name, "%s", ops[j].opcode);
        l.samples = w->samples;
        rs_stalls_link(s, &l);
    }
    free(ops);
    return 1;
}

void rs_engine_causes(rs_engine *e, int sm, const rs_stall_owner *o, const rs_waits *w,
                      rs_stalls *s)
{
    char why[sizeof s->causes_why] = "";
    for (int k = 0; k < w->nk; k++) {
        char one[sizeof why] = "";
        if (trace_kernel(e, sm, o, &w->k[k], s, one, sizeof one))
            s->causes = 1;
        else if (!why[0])
            snprintf(why, sizeof why, "%s", one);
    }
    if (!s->causes)
        snprintf(s->causes_why, sizeof s->causes_why, "%s",
                 why[0] ? why : "no sample waited on a scoreboard, a barrier or a fence");
    rs_trace("stalls: causes %s", s->causes ? "traced" : s->causes_why);
}

/* Line n of a text, trimmed and cut (UTF-8 kept whole) into buf. */
static void nth_line(const char *text, uint32_t n, char *buf, size_t len)
{
    buf[0] = '\0';
    for (uint32_t i = 1; text && i < n; i++) {
        const char *nl = strchr(text, '\n');
        text = nl ? nl + 1 : NULL;
    }
    if (!text || !*text || n == 0) return;
    text += strspn(text, " \t");
    size_t k = strcspn(text, "\r\n");
    while (k && (text[k - 1] == ' ' || text[k - 1] == '\t')) k--;
    if (k >= len) {
        k = len - 1;
        while (k && ((unsigned char)text[k] & 0xC0) == 0x80) k--; /* not inside a character */
    }
    snprintf(buf, len, "%.*s", (int)k, text);
}

static const char *source_of(rs_engine *e, const char *file)
{
    const char *text = rs_kernel_source(file);
    const char *user = rs_uk_path(e);
    if (!text && user && strcmp(rs_stall_base(user), file) == 0) text = rs_uk_text(e);
    return text;
}

void rs_engine_stall_texts(rs_engine *e, rs_stalls *s)
{
    for (int i = 0; i < s->nlines; i++)
        nth_line(source_of(e, s->line[i].file), s->line[i].line, s->line[i].text,
                 sizeof s->line[i].text);
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++)
        nth_line(source_of(e, s->link[i].to_file), s->link[i].to_line, s->link[i].text,
                 sizeof s->link[i].text);
}
