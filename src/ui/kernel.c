/* Your own kernel in the explorer: K and its prompt (the file checked
 * before it is set, Tab completing the path), the file watched while it is
 * set (a save runs it again), and its rows as they arrive: the result
 * before the file's last change kept as the previous version, a failed run
 * kept for the Why panel. */
#define _POSIX_C_SOURCE 200809L /* st_mtim, clock_gettime */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app.h"
#include "prompt.h"
#include "kernel.h"
#include "core/catalogue.h"
#include "core/ukernel.h"

#define WATCH_PERIOD_S 0.25 /* how often the file is looked at */
#define SHOWN_MATCHES  4    /* Tab: names shown beside the prompt */

const char *ui_variant_label(const ui_app *a, rs_variant v, char *buf, size_t len)
{
    if (v != RS_V_KERNEL) return rs_variant_name(v);
    if (a->cfg.kernel[0])
        snprintf(buf, len, "%s", rs_ukernel_basename(a->cfg.kernel));
    else
        snprintf(buf, len, "kernel (K: your .cu)");
    return buf;
}

/* K, live or in a replay: a file the recording lacks is compiled, not run
 * (ui_run_one), so the prompt is the same everywhere. */
void ui_kernel_prompt(ui_app *a)
{
    ui_prompt_open_file(a, UI_PROMPT_KERNEL, a->cfg.kernel, ui_kernel_set, ui_kernel_complete);
}

void ui_kernel_free(ui_app *a)
{
    free(a->uk->text);
    a->uk->text = NULL;
}

/* ---- the file watched ------------------------------------------------------------------ */

static ui_file_stamp stamp_of(const char *path)
{
    ui_file_stamp s;
    struct stat st;
    memset(&s, 0, sizeof s);
    if (!path[0] || stat(path, &st) != 0) return s;
    s.exists = 1;
    s.size = (long long)st.st_size;
    s.ino = (long long)st.st_ino;
    s.mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return s;
}

static int same_stamp(const ui_file_stamp *x, const ui_file_stamp *y)
{
    return x->exists == y->exists && x->size == y->size && x->ino == y->ino &&
           x->mtime_ns == y->mtime_ns;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The file's text for the Why panel, or why it cannot be read. */
static int load_text(ui_app *a)
{
    char *text = NULL;
    size_t len = 0;
    rs_error err;
    ui_kernel_free(a);
    a->uk->read_error[0] = '\0';
    if (rs_ukernel_read(a->cfg.kernel, &text, &len, &err) != RS_OK) {
        snprintf(a->uk->read_error, sizeof a->uk->read_error, "%s", err.msg);
        return 0;
    }
    a->uk->text = text;
    return 1;
}

/* A new file (K, a preset, the command line): looked at, not run. */
static void watch_new_file(ui_app *a)
{
    snprintf(a->uk->watch_path, sizeof a->uk->watch_path, "%s", a->cfg.kernel);
    a->uk->stamp = stamp_of(a->cfg.kernel);
    a->uk->watch_next = now_s() + WATCH_PERIOD_S;
    a->uk->rerun = a->uk->has_prev = a->uk->has_fail = 0;
    ui_kernel_free(a);
    a->uk->read_error[0] = '\0';
    if (a->cfg.kernel[0]) load_text(a);
}

static void rerun(ui_app *a)
{
    const char *name = rs_ukernel_basename(a->cfg.kernel);
    a->uk->rerun = 0;
    a->uk->saved = 1;
    /* in a replay a save compiles the file as it is now: a recorded run of
     * the same path is not this version */
    if (a->replay ? ui_compile_kernel(a) : ui_run_one(a, RS_V_KERNEL)) {
        ui_status(a, R_NORMAL, "%s changed: compiling%s", name,
                  a->job == UI_JOB_COMPILE ? "" : " and running");
    } else {
        a->uk->saved = 0;
        char why[sizeof a->status];
        snprintf(why, sizeof why, "%s", a->status);
        ui_status(a, R_BAD, "%s changed, not run: %s", name, why);
    }
}

/* Called every loop: a stat about every 250 ms; a change runs the kernel
 * again on the current configuration, now or when the run going ends. */
void ui_kernel_watch(ui_app *a)
{
    if (strcmp(a->uk->watch_path, a->cfg.kernel) != 0) {
        watch_new_file(a);
        return;
    }
    if (!a->cfg.kernel[0]) return;
    const double t = now_s();
    if (t >= a->uk->watch_next) {
        a->uk->watch_next = t + WATCH_PERIOD_S;
        const ui_file_stamp s = stamp_of(a->cfg.kernel);
        if (!same_stamp(&s, &a->uk->stamp)) {
            a->uk->stamp = s;
            a->uk->rerun = load_text(a); /* empty or unreadable: said, and the next save runs */
            if (!a->uk->rerun) ui_status(a, R_BAD, "%s", a->uk->read_error);
        }
    }
    if (a->uk->rerun && a->worker && !ui_busy(a)) rerun(a);
}

/* ---- the prompt -------------------------------------------------------------------------- */

/* Enter on the prompt: the file read and its header parsed before it is
 * set; a bad one keeps the prompt open with the reason. */
int ui_kernel_set(ui_app *a, const char *path)
{
    while (*path == ' ') path++;
    if (!*path) {
        a->cfg.kernel[0] = '\0';
        watch_new_file(a);
        ui_status(a, R_NORMAL, "no kernel of yours now (K picks a .cu file)");
        return 1;
    }
    char *text = NULL;
    size_t len = 0;
    rs_ukernel_spec spec;
    rs_error err;
    if (strlen(path) >= sizeof a->cfg.kernel) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "the path is over %zu characters",
                 sizeof a->cfg.kernel - 1);
        return 0;
    }
    rs_request probe = a->cfg; /* what a preset can hold: its length, no " ;" */
    if (rs_field_set(&probe, rs_field_by_key("run", "kernel"), path, &err) != RS_OK) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return 0;
    }
    if (rs_ukernel_read(path, &text, &len, &err) != RS_OK ||
        rs_ukernel_parse(path, text, &spec, &err) != RS_OK) {
        free(text);
        /* the prompt shows the path: the reason names the file alone */
        const size_t plen = strlen(path);
        const char *m = strncmp(err.msg, path, plen) == 0 ? err.msg + plen : err.msg;
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s%s",
                 m != err.msg ? rs_ukernel_basename(path) : "", m);
        return 0;
    }
    free(text);
    snprintf(a->cfg.kernel, sizeof a->cfg.kernel, "%s", path);
    if (strcmp(a->uk->watch_path, a->cfg.kernel) != 0) watch_new_file(a);
    a->sel = RS_V_KERNEL;
    a->why_scroll = 0;
    rs_request r;
    ui_request_for(a, RS_V_KERNEL, &r);
    const char *name = rs_ukernel_basename(path);
    const rs_row *rec = a->replay ? rs_recording_find(&a->rec, &r, NULL) : NULL;
    const int runs = a->replay ? rec != NULL : !a->dev_ready || a->gpu_status == RS_OK;
    if (rec) ui_kernel_show_recorded(a, (int)(rec - a->rec.rows)); /* as Enter would */
    if (rs_ukernel_check(path, &spec, &r, &err) != RS_OK)
        ui_status(a, R_WARN, "kernel %s: %s", name, err.msg);
    else if (rec)
        ui_status(a, R_GOOD, "kernel %s: its recorded %s shown", name,
                  rec->status == RS_OK ? "run" : "failure");
    else if (runs)
        ui_status(a, R_GOOD, "kernel %s: Enter runs it", name);
    else
        ui_status(a, R_GOOD, "kernel %s: Enter compiles it (%s)", name,
                  a->replay ? "this replay holds no run of it" : "running needs an NVIDIA GPU");
    return 1;
}

static int is_dir(const char *dir, const char *name)
{
    char path[2 * RS_NOTE_MAX + 2];
    struct stat st;
    snprintf(path, sizeof path, "%s%s", dir, name);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first few matches in name order, to show. */
static void keep_shown(char (*shown)[64], int *count, const char *name)
{
    int at = *count;
    while (at > 0 && strcmp(name, shown[at - 1]) < 0) at--;
    if (at >= SHOWN_MATCHES) return;
    const int last = *count < SHOWN_MATCHES ? *count : SHOWN_MATCHES - 1;
    for (int i = last; i > at; i--) memcpy(shown[i], shown[i - 1], 64);
    snprintf(shown[at], 64, "%.63s", name);
    if (*count < SHOWN_MATCHES) (*count)++;
}

typedef struct matches {
    int count, nshown;
    char common[RS_NOTE_MAX];
    char shown[SHOWN_MATCHES][64];
} matches;

/* The entries of dir that start with prefix (hidden ones only when asked). */
static int list_matches(const char *dir, const char *prefix, matches *m)
{
    DIR *d = opendir(dir[0] ? dir : ".");
    if (!d) return -1;
    const size_t plen = strlen(prefix);
    struct dirent *e;
    memset(m, 0, sizeof *m);
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
        if ((name[0] == '.' && prefix[0] != '.') || strncmp(name, prefix, plen) != 0) continue;
        if (m->count++ == 0) {
            snprintf(m->common, sizeof m->common, "%s", name);
        } else {
            size_t k = 0;
            while (m->common[k] && m->common[k] == name[k]) k++;
            m->common[k] = '\0';
        }
        keep_shown(m->shown, &m->nshown, name);
    }
    closedir(d);
    return m->count;
}

static void show_matches(ui_app *a, const char *dir, const matches *m)
{
    size_t off = (size_t)snprintf(a->prompt->hint, sizeof a->prompt->hint, "%d matches:", m->count);
    for (int i = 0; i < m->nshown && off < sizeof a->prompt->hint; i++)
        off += (size_t)snprintf(a->prompt->hint + off, sizeof a->prompt->hint - off, " %s%s",
                                m->shown[i], is_dir(dir, m->shown[i]) ? "/" : "");
    if (m->count > m->nshown && off < sizeof a->prompt->hint)
        snprintf(a->prompt->hint + off, sizeof a->prompt->hint - off, " ...");
}

/* Tab: the longest common prefix of the matching entries; one match is
 * completed whole (a directory with a '/'); several are shown. */
void ui_kernel_complete(ui_app *a)
{
    char *buf = a->prompt->buf;
    const char *slash = strrchr(buf, '/');
    const size_t dlen = slash ? (size_t)(slash - buf) + 1 : 0;
    char dir[RS_NOTE_MAX], prefix[RS_NOTE_MAX];
    snprintf(dir, sizeof dir, "%.*s", (int)dlen, buf);
    snprintf(prefix, sizeof prefix, "%s", buf + dlen);
    static matches m; /* one prompt at a time */
    a->prompt->hint[0] = '\0';
    const int count = list_matches(dir, prefix, &m);
    if (count < 0) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "cannot list %s: %s",
                 dir[0] ? dir : ".", strerror(errno));
        return;
    }
    if (count == 0) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "nothing here starts with '%s'",
                 prefix);
        return;
    }
    const int dir_match = count == 1 && is_dir(dir, m.common);
    if (dlen + strlen(m.common) + (size_t)dir_match >= sizeof a->prompt->buf) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "the path would be too long");
        return;
    }
    snprintf(buf + dlen, sizeof a->prompt->buf - dlen, "%s%s", m.common, dir_match ? "/" : "");
    if (count > 1) show_matches(a, dir, &m);
}

/* ---- rows ------------------------------------------------------------------------------ */

/* Before last[RS_V_KERNEL] takes the row: a new version of the same file
 * keeps the one it replaces; a failure is kept for the Why panel. */
void ui_kernel_take_row(ui_app *a, const rs_row *row)
{
    const rs_result *r = &row->result;
    if (a->uk->has_prev && strcmp(a->uk->prev.result.req.kernel, r->req.kernel) != 0)
        a->uk->has_prev = 0;
    if (row->status != RS_OK) {
        a->uk->fail = *row;
        a->uk->has_fail = 1;
        return;
    }
    a->uk->has_fail = 0;
    const rs_row *last = &a->last[RS_V_KERNEL];
    if (a->have[RS_V_KERNEL] && strcmp(last->result.req.kernel, r->req.kernel) == 0 &&
        last->result.uk.hash != r->uk.hash) {
        a->uk->prev = *last;
        a->uk->has_prev = 1;
    }
}

/* Replay: the kernel row of configuration c (its file named in cfg), a
 * recorded failure, and the version of the same file recorded before it. */
void ui_kernel_replay(ui_app *a, const rs_rec_config *c)
{
    int shown = -1;
    for (int i = c->first; i < c->first + c->count && i < a->rec.count; i++) {
        const rs_request *q = &a->rec.rows[i].result.req;
        if (q->variant == RS_V_KERNEL && q->n == a->cfg.n && shown < 0) shown = i; /* the first */
    }
    if (shown < 0) return;
    ui_kernel_show_recorded(a, shown);
}

/* A recorded row of your kernel shown as Enter would show it: its file
 * named (and watched, so the watch does not take it for a new file), a
 * failure kept for the Why panel, and the version recorded before it. */
void ui_kernel_show_recorded(ui_app *a, int at)
{
    if (at < 0 || at >= a->rec.count) return;
    const rs_row *row = &a->rec.rows[at];
    snprintf(a->cfg.kernel, sizeof a->cfg.kernel, "%s", row->result.req.kernel);
    if (strcmp(a->uk->watch_path, a->cfg.kernel) != 0) watch_new_file(a);
    a->uk->has_prev = a->uk->has_fail = a->uk->compiled = a->uk->has_built = 0;
    if (row->status != RS_OK) {
        a->uk->fail = *row;
        a->uk->has_fail = 1;
        return;
    }
    a->last[RS_V_KERNEL] = *row;
    a->have[RS_V_KERNEL] = 1;
    for (int i = at - 1; i >= 0; i--) {
        const rs_row *p = &a->rec.rows[i];
        if (p->status == RS_OK && p->result.req.variant == RS_V_KERNEL &&
            p->result.uk.hash != row->result.uk.hash &&
            rs_request_same_run(&p->result.req, &row->result.req)) {
            a->uk->prev = *p;
            a->uk->has_prev = 1;
            return;
        }
    }
}
