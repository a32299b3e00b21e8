#include "check.h"
#include "core/text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "core/format.h"

int rs_check_from_name(const char *s)
{
    if (!s) return -1;
    if (strcmp(s, "race") == 0) return RS_CHECK_RACE;
    if (strcmp(s, "memory") == 0) return RS_CHECK_MEMORY;
    return -1;
}

const char *rs_check_name(rs_check_kind k)
{
    return k == RS_CHECK_RACE ? "race" : k == RS_CHECK_MEMORY ? "memory" : "none";
}

void rs_check_report_init(rs_check_report *r, rs_check_kind kind)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->correct = -1;
    snprintf(r->tools, sizeof r->tools, "%s",
             kind == RS_CHECK_RACE ? "racecheck" : "memcheck+initcheck");
}

/* ---- reading the log ------------------------------------------------------------- */

/* "... at void rs::k_name<int, ...>(...)+0x4b0 in classic.cu:111": the
 * kernel's short name, the file and the line; 0 when the line has none. */
static int site(const char *s, char *kernel, size_t klen, char *file, size_t flen, int *line)
{
    const char *at = strstr(s, " at ");
    const char *in = NULL;
    for (const char *p = strstr(s, " in "); p; p = strstr(p + 1, " in ")) in = p;
    if (!in) return 0;
    char f[128] = "";
    int l = 0;
    if (sscanf(in + 4, "%127[^: \n]:%d", f, &l) != 2 || l <= 0) return 0;
    snprintf(file, flen, "%s", strrchr(f, '/') ? strrchr(f, '/') + 1 : f);
    *line = l;
    kernel[0] = '\0';
    if (at && at < in) {
        const char *k = at + 4;
        if (strncmp(k, "void ", 5) == 0) k += 5;
        const size_t end = strcspn(k, "<( \n");
        const char *name = k;
        for (const char *c = k; c < k + end; c++)
            if (c[0] == ':' && c[1] == ':') name = c + 2;
        snprintf(kernel, klen, "%.*s", (int)(k + end - name), name);
    }
    return 1;
}

static void add(rs_check_report *r, const rs_finding *f)
{
    for (int i = 0; i < r->count; i++) {
        rs_finding *g = &r->findings[i];
        if (g->line == f->line && g->line2 == f->line2 && strcmp(g->file, f->file) == 0 &&
            strcmp(g->file2, f->file2) == 0 && strcmp(g->what, f->what) == 0) {
            g->count += f->count;
            return;
        }
    }
    if (r->count < RS_CHECK_MAX_FINDINGS)
        r->findings[r->count++] = *f;
    else
        r->more++;
}

/* The next line of the log (without its "=========" prefix) into buf. */
static const char *next_line(const char *p, char *buf, size_t len)
{
    if (!p || !*p) return NULL;
    const size_t n = strcspn(p, "\n");
    const char *s = p;
    size_t skip = 0;
    while (skip < n && s[skip] == '=') skip++;
    while (skip < n && s[skip] == ' ') skip++;
    snprintf(buf, len, "%.*s", (int)(n - skip), s + skip);
    return p[n] ? p + n + 1 : p + n;
}

/* "Race reported between Write access at ... in f:l" + "and Read access at
 * ... in f:l [N hazards]" */
static const char *race(rs_check_report *r, const char *line, const char *p)
{
    rs_finding f;
    memset(&f, 0, sizeof f);
    char a[16] = "", b[16] = "", next[1024];
    sscanf(strstr(line, "between ") + 8, "%15s", a);
    if (!site(line, f.kernel, sizeof f.kernel, f.file, sizeof f.file, &f.line)) return p;
    const char *after = next_line(p, next, sizeof next);
    char k2[64];
    if (!after || sscanf(next, "and %15s", b) != 1 ||
        !site(next, k2, sizeof k2, f.file2, sizeof f.file2, &f.line2))
        return p;
    const char *h = strrchr(next, '[');
    unsigned long long n = 1;
    if (h) sscanf(h, "[%llu", &n);
    f.count = n;
    r->total += n;
    snprintf(f.what, sizeof f.what, "%s / %s", a, b);
    add(r, &f);
    return after;
}

/* "Invalid __global__ read of size 4 bytes" + "at k(...)+0x.. in f:l" */
static const char *memory_error(rs_check_report *r, const char *line, const char *p)
{
    rs_finding f;
    memset(&f, 0, sizeof f);
    snprintf(f.what, sizeof f.what, "%.95s", line);
    f.count = 1;
    char next[1024];
    const char *after = next_line(p, next, sizeof next);
    if (after && strncmp(next, "at ", 3) == 0) {
        char with_space[1030];
        snprintf(with_space, sizeof with_space, " %s", next);
        site(with_space, f.kernel, sizeof f.kernel, f.file, sizeof f.file, &f.line);
        p = after;
    }
    add(r, &f);
    return p;
}

static int memory_headline(const char *s)
{
    static const char *const starts[] = {"Invalid ",     "Uninitialized ", "Misaligned ",
                                         "Out-of-range", "Program hit ",   "Malloc/Free",
                                         "Leaked "};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (strncmp(s, starts[i], strlen(starts[i])) == 0) return 1;
    return 0;
}

int rs_check_parse_log(rs_check_report *r, const char *log)
{
    char line[1024];
    int summary = 0;
    const char *p = log;
    while ((p = next_line(p, line, sizeof line)) != NULL) {
        const char *s = line;
        if (strncmp(s, "Warning: ", 9) == 0) s += 9;
        if (strncmp(s, "Error: ", 7) == 0) s += 7;
        unsigned long long n = 0;
        if (strncmp(s, "Race reported between ", 22) == 0) {
            p = race(r, s, p);
        } else if (r->kind == RS_CHECK_MEMORY && memory_headline(s)) {
            p = memory_error(r, s, p);
        } else if (sscanf(s, "ERROR SUMMARY: %llu", &n) == 1) {
            if (r->kind == RS_CHECK_MEMORY) r->total += n;
            summary = 1;
        } else if (strncmp(s, "RACECHECK SUMMARY:", 18) == 0) {
            summary = 1;
        }
        if (!*p) break;
    }
    return summary;
}

/* ---- saying it ------------------------------------------------------------------- */

/* "lines 107-112 of classic.cu" over every finding of the first file. */
static void line_span(const rs_check_report *r, char *buf, size_t len)
{
    int lo = 0, hi = 0;
    for (int i = 0; i < r->count; i++) {
        const rs_finding *f = &r->findings[i];
        if (strcmp(f->file, r->findings[0].file) != 0) continue;
        for (int k = 0; k < 2; k++) {
            const int l = k ? f->line2 : f->line;
            if (l <= 0 || (k && strcmp(f->file2, f->file) != 0)) continue;
            if (!lo || l < lo) lo = l;
            if (l > hi) hi = l;
        }
    }
    if (!lo)
        snprintf(buf, len, "no kernel source line");
    else if (lo == hi)
        snprintf(buf, len, "line %d of %s", lo, r->findings[0].file);
    else
        snprintf(buf, len, "lines %d%s%d of %s", lo, rs_sym(RS_SYM_DASH), hi, r->findings[0].file);
}

void rs_check_sentence(const rs_check_report *r, char *buf, size_t len)
{
    char where[96], total[32];
    if (!r->ran) {
        snprintf(buf, len, "not checked: %s",
                 r->note[0] ? r->note : "compute-sanitizer did not finish");
        return;
    }
    rs_fmt_count((double)r->total, total, sizeof total);
    line_span(r, where, sizeof where);
    const char *result = r->correct == 1   ? "The result is right on this GPU, but "
                         : r->correct == 0 ? "The result is wrong, and "
                                           : "";
    /* racecheck stops counting at ten million */
    const char *least = r->kind == RS_CHECK_RACE && r->total >= 10000000 ? "at least " : "";
    if (r->kind == RS_CHECK_RACE && r->total)
        snprintf(buf, len,
                 "%sthreads of one warp read shared memory that others of the warp write "
                 "without synchronisation: %s%s hazard%s on %s.",
                 *result ? result : "Threads of one warp race: ", least, total,
                 r->total == 1 ? "" : "s", where);
    else if (r->kind == RS_CHECK_RACE)
        snprintf(buf, len,
                 "No shared-memory hazard: every read of shared memory is ordered after the "
                 "write it needs (a barrier or __syncwarp between them).");
    else if (r->total)
        snprintf(buf, len,
                 "%s%s memory error%s (bad accesses, and the CUDA errors they cause) on "
                 "%s: a kernel reads or writes memory it does not own, or reads what was never "
                 "written.",
                 r->correct == 0 ? "The run did not give a right result: " : "", total,
                 r->total == 1 ? "" : "s", where);
    else
        snprintf(buf, len,
                 "No invalid or uninitialized device-memory access (memcheck and "
                 "initcheck).");
}

/* ---- JSON ------------------------------------------------------------------------ */

cJSON *rs_check_to_json(const rs_check_report *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", rs_check_name(r->kind));
    cJSON_AddStringToObject(j, "tools", r->tools);
    cJSON_AddBoolToObject(j, "ran", r->ran);
    cJSON_AddNumberToObject(j, "total", (double)r->total);
    cJSON_AddNumberToObject(j, "correct", r->correct);
    if (r->note[0]) cJSON_AddStringToObject(j, "note", r->note);
    if (r->more) cJSON_AddNumberToObject(j, "more_groups", r->more);
    char sentence[512];
    rs_check_sentence(r, sentence, sizeof sentence);
    cJSON_AddStringToObject(j, "sentence", sentence);
    cJSON *a = cJSON_AddArrayToObject(j, "findings");
    for (int i = 0; i < r->count; i++) {
        const rs_finding *f = &r->findings[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "what", f->what);
        cJSON_AddStringToObject(o, "kernel", f->kernel);
        cJSON_AddStringToObject(o, "file", f->file);
        cJSON_AddNumberToObject(o, "line", f->line);
        if (f->file2[0]) {
            cJSON_AddStringToObject(o, "file2", f->file2);
            cJSON_AddNumberToObject(o, "line2", f->line2);
        }
        cJSON_AddNumberToObject(o, "count", (double)f->count);
        cJSON_AddItemToArray(a, o);
    }
    return j;
}

static void text(const cJSON *j, const char *key, char *dst, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    rs_text_copy(dst, len, cJSON_IsString(v) ? v->valuestring : "");
}

static double number(const cJSON *j, const char *key, double lo, double hi)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    const double d = cJSON_IsNumber(v) ? v->valuedouble : 0.0;
    return d >= lo && d <= hi ? d : 0.0; /* NaN and out of range: 0 */
}

/* The figures a recorded check must hold: a whole total, correct -1, 0 or
 * 1, and findings the total covers. */
static rs_status check_figures(const cJSON *j, rs_error *err)
{
    static const rs_figure figs[] = {
        {"total", 0, 1e18, 0, 1, 1, "a whole number of hazards or errors from 0 to 10^18"},
        {"correct", -1, 1, 0, 1, 0, "-1 (not known), 0 (wrong) or 1 (right)"},
        {"more_groups", 0, 1e9, 0, 1, 0, "a whole number of groups"},
    };
    for (size_t i = 0; i < sizeof figs / sizeof *figs; i++)
        if (rs_figure_check(j, "check.", &figs[i], err) != RS_OK) return err->code;
    const double total = cJSON_GetObjectItemCaseSensitive(j, "total")->valuedouble;
    static const rs_figure count = {"count", 0, 1e18, 0, 1, 1, "a whole number from 0 to 10^18"};
    const cJSON *f;
    int n = 0;
    double most = 0; /* the findings' counts summed: a total covers them all */
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "findings"))
    {
        if (rs_figure_check(f, "check.findings[].", &count, err) != RS_OK) return err->code;
        most += cJSON_GetObjectItemCaseSensitive(f, "count")->valuedouble;
        n++;
    }
    if (n && total == 0)
        return rs_fail(err, RS_E_USAGE, "check.total is 0 but it lists %d finding%s", n,
                       n == 1 ? "" : "s");
    if (most > total)
        return rs_fail(err, RS_E_USAGE,
                       "check.total is %.0f but its findings count %.0f: a total covers its "
                       "findings",
                       total, most);
    return RS_OK;
}

rs_status rs_check_from_json(const cJSON *j, rs_check_report *r, rs_error *err)
{
    char kind[16];
    text(j, "kind", kind, sizeof kind);
    const int k = rs_check_from_name(kind);
    if (!cJSON_IsObject(j) || k < 0) return rs_fail(err, RS_E_IO, "a check without a kind");
    if (check_figures(j, err) != RS_OK) return err->code;
    rs_check_report_init(r, (rs_check_kind)k);
    r->ran = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "ran"));
    r->total = (uint64_t)number(j, "total", 0, 1e18);
    r->correct = (int)number(j, "correct", -1, 1);
    r->more = (int)number(j, "more_groups", 0, 1e9);
    text(j, "note", r->note, sizeof r->note);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "findings"))
    {
        if (r->count == RS_CHECK_MAX_FINDINGS) { /* kept out, but said: "and N more" */
            r->more++;
            continue;
        }
        rs_finding *g = &r->findings[r->count++];
        text(f, "what", g->what, sizeof g->what);
        text(f, "kernel", g->kernel, sizeof g->kernel);
        text(f, "file", g->file, sizeof g->file);
        text(f, "file2", g->file2, sizeof g->file2);
        g->line = (int)number(f, "line", 0, 1e9);
        g->line2 = (int)number(f, "line2", 0, 1e9);
        g->count = (uint64_t)number(f, "count", 0, 1e18);
    }
    if (!r->ran && (r->total > 0 || r->count > 0))
        return rs_fail(err, RS_E_USAGE,
                       "check.ran is false, yet it lists findings: a check that did not finish "
                       "found nothing to count");
    return RS_OK;
}
