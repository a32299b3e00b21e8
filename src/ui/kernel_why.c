/* The Why panel of your own kernel: its file, how it built, what the last
 * change to the file did to the time, and then its source with line
 * numbers (live: the file as it is now; in replay: the version recorded).
 * When its last run failed: the whole message instead (file:line, the
 * line, the caret), and the line it names marked in the source. The head
 * is built each frame; the source lines are found in the text as drawn,
 * so a long file scrolls to its end. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/preset.h"
#include "app.h"
#include "kernel.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "core/text.h"
#include "core/ukernel.h"
#include "draw.h"
#include "lecture/why.h"

#define HEAD_MAX 64

typedef struct kwhy {
    char lines[HEAD_MAX][256];
    ui_role role[HEAD_MAX];
    int n;
    const char *src; /* the source shown, or NULL */
    int src_lines;
    int mark; /* the source line a compile error names (0: none) */
} kwhy;

static void add(kwhy *k, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(kwhy *k, ui_role role, const char *fmt, ...)
{
    if (k->n >= HEAD_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->lines[k->n], sizeof k->lines[0], fmt, ap);
    va_end(ap);
    k->role[k->n++] = role;
}

static void add_wrapped(kwhy *k, ui_role role, const char *text, int w)
{
    const int m = ui_wrap(text, w > 8 ? w : 8, &k->lines[k->n], HEAD_MAX - k->n);
    for (int i = 0; i < m; i++) k->role[k->n + i] = role;
    k->n += m;
}

/* One line of source as the screen can show it: tabs to spaces, control
 * bytes and (without UTF-8) other bytes as '?'. */
static void printable(const char *s, size_t len, char *out, size_t cap)
{
    size_t o = 0, col = 0;
    const int utf8 = ui_theme_utf8();
    for (size_t i = 0; i < len && o + 5 < cap;) {
        const unsigned char c = (unsigned char)s[i];
        const int n = c >= 0x80 ? (int)rs_utf8_len(s + i, len - i) : 0;
        if (c == '\t') {
            do out[o++] = ' ';
            while (++col % 8 && o + 1 < cap);
            i++;
        } else if (n > 0) { /* one character: itself, or one '?' without UTF-8 */
            if (utf8) memcpy(out + o, s + i, (size_t)n);
            if (!utf8) out[o] = '?';
            o += utf8 ? (size_t)n : 1, i += (size_t)n, col++;
        } else {
            out[o++] = c < 32 || c >= 127 ? '?' : (char)c;
            i++, col++;
        }
    }
    out[o] = '\0';
}

/* The line a compile error names: "file:12: error: ..." gives 12. */
static int error_line(const char *e)
{
    const char *p = strstr(e, ": error");
    if (!p) return 0;
    const char *q = p;
    while (q > e && q[-1] >= '0' && q[-1] <= '9') q--;
    return q < p && q > e && q[-1] == ':' ? atoi(q) : 0;
}

#define FRESH_CONTEXT "; the next run starts with a fresh GPU context" /* live advice */

static void say_failure(kwhy *k, const rs_row *f, int w, int replay, int runs)
{
    add(k, R_BAD, "%s",
        f->status == RS_E_KERNEL
            ? (replay ? "Its recorded run stopped on the GPU:" : "Its last run stopped on the GPU:")
        : replay ? "Its recorded run did not build or was refused:"
                 : "Its last run did not build or was refused:");
    int first = 1;
    for (const char *p = f->error; *p && k->n < HEAD_MAX;) {
        size_t len = strcspn(p, "\n");
        const size_t advice = strlen(FRESH_CONTEXT); /* what a replay cannot do: not said */
        if (replay && len >= advice && strncmp(p + len - advice, FRESH_CONTEXT, advice) == 0)
            len -= advice;
        char line[256];
        printable(p, len, line, sizeof line);
        if (first) /* the message wraps; the source line and its caret keep their columns */
            add_wrapped(k, R_BAD, line, w);
        else
            add(k, R_BAD, "%s", line);
        first = 0;
        p += strcspn(p, "\n");
        if (*p == '\n') p++;
    }
    if (!replay)
        add_wrapped(k, R_DIM,
                    runs ? "The explorer goes on: fix the file and save it (it runs again), or "
                           "pick another variant."
                         : "The explorer goes on: fix the file and save it (it compiles again), "
                           "or pick another variant.",
                    w);
    k->mark = error_line(f->error);
}

static void say_build(kwhy *k, const rs_result *r, int w)
{
    const rs_ukernel_result *u = &r->uk;
    const char *sep = ui_glyph(G_SEP);
    char text[512], smem[32], spills[96], compiled[64];
    rs_fmt_bytes(u->smem, smem, sizeof smem);
    rs_ukernel_spills(u->spill_st, u->spill_ld, u->local, spills, sizeof spills);
    if (u->compile_ms > 0)
        snprintf(compiled, sizeof compiled, "compiled in %.0f ms", u->compile_ms);
    else
        snprintf(compiled, sizeof compiled, "compiled earlier (cached)");
    snprintf(text, sizeof text,
             "Built: entry %s %s %d registers %s %s %s %s static shared %s %s for sm_%d",
             u->entry[0] ? u->entry : "?", sep, u->regs, sep, spills, sep, smem, sep, compiled,
             u->arch);
    add_wrapped(k, R_ACCENT, text, w);
}

/* The file's last change: time before and after, the ratio, GB/s. */
static void say_versions(kwhy *k, const ui_app *a, const rs_result *cur, int w)
{
    const rs_result *p = &a->uk->prev.result;
    if (!a->uk->has_prev || !rs_request_same_run(&p->req, &cur->req) || !(p->t_median_ms > 0) ||
        !(cur->t_median_ms > 0))
        return;
    const int utf8 = ui_theme_utf8();
    const char *arrow = rs_sym(RS_SYM_ARROW);
    char before[32], after[32], x[32], text[256];
    rs_fmt_time(p->t_median_ms, utf8, before, sizeof before);
    rs_fmt_time(cur->t_median_ms, utf8, after, sizeof after);
    const double ratio = p->t_median_ms / cur->t_median_ms;
    rs_fmt_ratio(ratio >= 1.0 ? ratio : 1.0 / ratio, utf8, x, sizeof x);
    snprintf(text, sizeof text, "Previous version: %s %s %s (%s %s); %.0f %s %.0f GB/s.", before,
             arrow, after, x, ratio >= 1.0 ? "faster" : "slower", p->gbps, arrow, cur->gbps);
    add_wrapped(k, ratio >= 1.0 ? R_GOOD : R_WARN, text, w);
}

/* The time against the step before, and what else the numbers say. */
static void say_measured(kwhy *k, const ui_app *a, const rs_result *res, int w)
{
    char said[8][256];
    const int prev = ui_previous_step(a, RS_V_KERNEL);
    const rs_result *base = prev >= 0 ? ui_result_for(a, (rs_variant)prev) : NULL;
    const int ns = rs_why_measured(res, base, prev >= 0 ? rs_variant_name(prev) : NULL,
                                   ui_counters_hint(a), said, 8);
    for (int s = 0; s < ns; s++) add_wrapped(k, res->correct ? R_ACCENT : R_BAD, said[s], w);
}

/* The source shown: the file as now (live) or as recorded (replay). */
static void find_source(kwhy *k, const ui_app *a, const rs_row *shown)
{
    const char *name = rs_ukernel_basename(a->cfg.kernel);
    int recorded = a->replay && !a->uk->compiled && shown;
    k->src = recorded ? rs_recording_kernel_source(&a->rec, shown->result.uk.hash) : NULL;
    if (recorded && !k->src) { /* not recorded: the file here, said to be so */
        add(k, R_DIM, "%s: source not recorded%s", name, a->uk->text ? "; the file here:" : "");
        recorded = 0;
        if (!a->uk->text) return;
    }
    if (!k->src) k->src = a->uk->text;
    if (!k->src)
        add(k, R_BAD, "%s", a->uk->read_error[0] ? a->uk->read_error : "the file is not read yet");
    if (!k->src) return;
    int lines = 0;
    for (const char *p = k->src; *p; lines++) {
        p += strcspn(p, "\n");
        if (*p) p++;
    }
    k->src_lines = lines;
    add(k, R_TITLE, "%s, %d line%s %s:", name, lines, lines == 1 ? "" : "s",
        recorded ? "as recorded" : "as it is now");
}

/* The last result of this file (any settings), for its build facts. */
static const rs_row *last_row(const ui_app *a)
{
    const rs_row *r = &a->last[RS_V_KERNEL];
    return a->have[RS_V_KERNEL] && strcmp(r->result.req.kernel, a->cfg.kernel) == 0 ? r : NULL;
}

static void build(kwhy *k, const ui_app *a, int w, const rs_result *res)
{
    const rs_variant_info *vi = rs_catalogue_get(RS_V_KERNEL);
    k->n = k->src_lines = k->mark = 0;
    k->src = NULL;
    if (!a->cfg.kernel[0]) {
        add(k, R_TITLE, "%d %s: %s", vi->step, vi->name, vi->idea);
        add_wrapped(k, R_NORMAL, vi->change, w);
        char hint[RS_PATH_MAX + 160];
        snprintf(hint, sizeof hint,
                 "K picks your .cu file: copy %s, pick the copy, and edit it while the "
                 "explorer runs it each time you save.",
                 rs_template_path());
        add_wrapped(
            k, R_ACCENT,
            a->replay ? "This configuration of the recording holds no kernel of yours." : hint, w);
        return;
    }
    add(k, R_TITLE, "%d %s: %s", vi->step, rs_ukernel_basename(a->cfg.kernel), vi->idea);
    const rs_row *last = last_row(a);
    /* a replay's row of this file: "recorded from"; a file it never ran is just a file */
    const int recorded = a->replay && !a->uk->compiled && (a->uk->has_fail || last);
    add(k, R_DIM, "%s %s", recorded ? "recorded from" : "file", a->cfg.kernel);
    if (recorded && last && a->uk->text &&
        rs_ukernel_hash(a->uk->text, strlen(a->uk->text)) != last->result.uk.hash)
        add_wrapped(k, R_WARN,
                    "The file here has changed since it was recorded: the run and the source "
                    "shown are the recorded version's (save it to compile it as it is now).",
                    w);
    if (a->uk->has_fail) {
        say_failure(k, &a->uk->fail, w, recorded, ui_enter_does(a) == UI_ENTER_RUNS);
    } else if (a->uk->compiled && a->uk->has_built) { /* compiled here, not run */
        say_build(k, &a->uk->built.result, w);
        add_wrapped(k, R_DIM,
                    a->replay ? "Compiled, not run: this recording holds no run of it, and a "
                                "replay runs nothing new."
                              : "Compiled, not run: running it needs an NVIDIA GPU.",
                    w);
    } else if (last) {
        say_build(k, &last->result, w);
        if (res) say_versions(k, a, res, w);
        if (res) say_measured(k, a, res, w);
    } else {
        add_wrapped(k, R_DIM,
                    a->replay ? "This recording holds no run of it in this configuration: "
                                "Enter compiles it (a replay runs nothing new)."
                    : ui_enter_does(a) == UI_ENTER_COMPILES
                        ? "Not run: running it needs an NVIDIA GPU; Enter compiles it."
                        : "Not run yet: Enter compiles and runs it.",
                    w);
    }
    find_source(k, a, a->uk->has_fail ? &a->uk->fail : last);
}

int ui_kernel_why_lines(const ui_app *a, int w)
{
    static kwhy k;
    build(&k, a, w, ui_result_for(a, RS_V_KERNEL));
    return k.n + k.src_lines;
}

/* Source line i (from 0) of text, and its length. */
static const char *nth_line(const char *text, int i, size_t *len)
{
    const char *p = text;
    for (; i > 0 && *p; i--) {
        p += strcspn(p, "\n");
        if (*p) p++;
    }
    *len = strcspn(p, "\n");
    return p;
}

static void draw_source_line(const kwhy *k, int y, int x, int w, int i, const char *line,
                             size_t len)
{
    char text[256], num[16], out[300];
    const int digits = snprintf(num, sizeof num, "%d", k->src_lines);
    const int own = snprintf(num, sizeof num, "%d", i + 1);
    printable(line, len, text, sizeof text);
    const int marked = i + 1 == k->mark;
    snprintf(out, sizeof out, "%s%.*s%s  %s", marked ? ">" : " ", digits > own ? digits - own : 0,
             "          ", num, text);
    ui_put(y, x, w, marked ? R_BAD : R_CODE, out);
}

void ui_draw_kernel_why(const ui_app *a, ui_rect r, const rs_result *res)
{
    static kwhy k;
    const int w = r.w - 4, x = r.x + 2, rows = r.h - 2;
    build(&k, a, w, res);
    ui_box(r, "Why", R_TITLE);
    const int total = k.n + k.src_lines;
    const int first = ui_scroll_first(a->why_scroll, total, rows); /* not stored */
    const char *line = NULL;
    size_t len = 0;
    for (int i = 0; i < rows && first + i < total; i++) {
        const int j = first + i, y = r.y + 1 + i;
        if (j < k.n) {
            ui_put(y, x, w, k.role[j], k.lines[j]);
            continue;
        }
        if (!line)
            line = nth_line(k.src, j - k.n, &len);
        else
            line = nth_line(line, 1, &len);
        draw_source_line(&k, y, x, w, j - k.n, line, len);
    }
    if (total > rows && r.w > 20)
        ui_putf(r.y + r.h - 1, r.x + r.w - 16, 14, R_DIM, " %s more [ ] ",
                first + rows < total ? "v" : "^");
}
