#include "preset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "core/text.h"

#ifndef RS_INSTALL_DATA_DIR
#define RS_INSTALL_DATA_DIR ""
#endif

/* ---- where presets live -------------------------------------------------------- */

static int is_dir(const char *p)
{
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void rs_program_dir(char *buf, size_t len)
{
    const ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash) *slash = '\0';
}

int rs_folder_at(const char *path, char *buf, size_t len)
{
    char real[PATH_MAX]; /* realpath writes up to PATH_MAX bytes, whatever len is */
    if (!is_dir(path)) return 0;
    /* "/usr/bin/../share": said as the folder it is */
    snprintf(buf, len, "%s", realpath(path, real) && strlen(real) < len ? real : path);
    return 1;
}

const char *rs_shipped_dir(const char *what, char *buf, size_t len)
{
    char exe[RS_PATH_MAX], in_tree[RS_PATH_MAX + 32], beside[RS_PATH_MAX + 32];
    rs_program_dir(exe, sizeof exe);
    snprintf(in_tree, sizeof in_tree, "%s/share/redscope", exe);
    snprintf(beside, sizeof beside, "%s/../share/redscope", exe);
    const char *bases[] = {getenv("REDSCOPE_DATA_DIR"), exe[0] ? in_tree : NULL,
                           exe[0] ? beside : NULL, RS_INSTALL_DATA_DIR};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        if (!bases[i] || !*bases[i]) continue;
        char raw[RS_PATH_MAX + 64];
        snprintf(raw, sizeof raw, "%s/%s", bases[i], what);
        if (rs_folder_at(raw, buf, len)) return buf;
    }
    buf[0] = '\0';
    return buf;
}

static char template_path[RS_PATH_MAX + 16] = "conf/kernels/template.cu";

static void find_template(void)
{
    char dir[RS_PATH_MAX];
    if (access(template_path, R_OK) == 0 || !*rs_shipped_dir("kernels", dir, sizeof dir)) return;
    snprintf(template_path, sizeof template_path, "%s/template.cu", dir);
}

const char *rs_template_path(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_template);
    return template_path;
}

const char *rs_preset_shipped_dir(void)
{
    static char dir[RS_PATH_MAX];
    return rs_shipped_dir("presets", dir, sizeof dir);
}

rs_status rs_preset_user_dir(char *buf, size_t len, rs_error *err)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int w;
    if (xdg && *xdg == '/')
        w = snprintf(buf, len, "%s/redscope/presets", xdg);
    else if (home && *home)
        w = snprintf(buf, len, "%s/.config/redscope/presets", home);
    else
        return rs_fail(err, RS_E_IO, "neither XDG_CONFIG_HOME nor HOME is set");
    if (w < 0 || (size_t)w >= len) return rs_fail(err, RS_E_IO, "configuration path too long");
    return RS_OK;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Something is there, whatever it is: the reader (formats/files.c) says why a
 * FIFO, a device, a folder or a dangling link is no preset. */
static int present(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

int rs_preset_name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= RS_PRESET_NAME_MAX - 4 || name[0] == '.' || name[0] == '-') return 0;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i])) return 0;
    return 1;
}

/* "mine.ini" names the preset "mine": the suffix is the file's, not the name's. */
static void strip_ini(const char *name, char *out, size_t len)
{
    const size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".ini") == 0)
        snprintf(out, len, "%.*s", (int)(n - 4), name);
    else
        snprintf(out, len, "%s", name);
}

rs_status rs_preset_resolve(const char *given, char *path, size_t len, rs_error *err)
{
    if (is_dir(given))
        return rs_fail(err, RS_E_IO, "'%s' is a directory: give a preset name or an .ini file",
                       given);
    if (strchr(given, '/') || file_exists(given)) {
        if (!present(given)) return rs_fail(err, RS_E_IO, "preset file '%s' not found", given);
        snprintf(path, len, "%s", given);
        return RS_OK;
    }
    char name[RS_PATH_MAX];
    strip_ini(given, name, sizeof name);
    if (!rs_preset_name_ok(name))
        return rs_fail(err, RS_E_USAGE,
                       "bad preset name '%s': use letters, digits, '.', '_' and '-'", name);
    char dir[RS_PATH_MAX];
    if (rs_preset_user_dir(dir, sizeof dir, NULL) == RS_OK) {
        snprintf(path, len, "%s/%s.ini", dir, name);
        if (present(path)) return RS_OK;
    }
    const char *shipped = rs_preset_shipped_dir();
    if (*shipped) {
        snprintf(path, len, "%s/%s.ini", shipped, name);
        if (present(path)) return RS_OK;
    }
    return rs_fail(err, RS_E_USAGE, "no preset named '%s' (see: redscope presets)", name);
}

/* ---- reading ------------------------------------------------------------------------ */

typedef struct reader {
    FILE *f;          /* or */
    const char *text; /* in-memory source */
    int line;
    int long_line;    /* first line longer than inih reads, 0 if none */
    int section_line; /* line of the last [section] header */
    int odd_line;     /* first line that is not text (NUL, not UTF-8), 0 if none */
    const char *odd;  /* what that line holds */
} reader;

static char *read_line(char *str, int num, void *stream)
{
    reader *rd = stream;
    if (num < 2) return NULL;
    size_t n = 0;
    int c = 0, got = 0, truncated = 0, nul = 0;
    for (;;) {
        if (rd->f) {
            c = fgetc(rd->f);
            if (c == EOF) break;
        } else {
            if (!*rd->text) break;
            c = (unsigned char)*rd->text++;
        }
        got = 1;
        nul |= c == 0; /* also past what inih reads: a binary file is one long line */
        if (n + 1 < (size_t)num)
            str[n++] = (char)c;
        else if (c != '\n' && c != '\r')
            truncated = 1;
        if (c == '\n') break;
    }
    if (!got) return NULL;
    str[n] = '\0';
    rd->line++;
    const char *odd = nul ? "a NUL byte" : truncated ? NULL : rs_text_problem(str, n, NULL);
    if (odd && !rd->odd_line) rd->odd_line = rd->line, rd->odd = odd;
    if (str[strspn(str, " \t")] == '[') rd->section_line = rd->line;
    if (truncated && !rd->long_line) rd->long_line = rd->line;
    return str;
}

typedef struct parse_state {
    reader *rd;
    const char *label;
    rs_request req;
    int seen[RS_FIELD_COUNT];
    int err_line;
    rs_error err;
} parse_state;

static int edit_distance(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    int row[64];
    if (lb >= 64) return 99;
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            const int cur = row[j];
            const int sub = prev + (a[i - 1] != b[j - 1]);
            int best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            prev = cur;
        }
    }
    return row[lb];
}

static void suggest(const char *section, const char *key, char *buf, size_t len)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++) /* a flag's name: its key differs */
        if (rs_fields[i].flag && strcmp(rs_fields[i].flag, key) == 0 &&
            strcmp(rs_fields[i].key, key) != 0) {
            snprintf(buf, len, " (the key for --%s is '%s', in [%s])", key, rs_fields[i].key,
                     rs_fields[i].section);
            return;
        }
    const rs_field *best = NULL;
    int best_d = 3;
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const int d = edit_distance(key, rs_fields[i].key);
        if (d < best_d) best_d = d, best = &rs_fields[i];
    }
    buf[0] = '\0';
    if (best && strcmp(best->section, section) == 0)
        snprintf(buf, len, " (did you mean '%s'?)", best->key);
    else if (best)
        snprintf(buf, len, " ('%s' belongs in [%s])", best->key, best->section);
}

static int section_known(const char *s)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++)
        if (strcmp(rs_fields[i].section, s) == 0) return 1;
    return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    parse_state *ps = user;
    const int line = ps->rd->line;
    if (ps->err_line) return 1; /* report the first problem only */
    if (!section_known(section)) {
        ps->err_line = *section ? ps->rd->section_line : line;
        rs_fail(&ps->err, RS_E_USAGE,
                "%s:%d: unknown section [%s] (expected [preset], [run] or [sweep])", ps->label,
                ps->err_line, section);
        return 0;
    }
    const rs_field *f = rs_field_by_key(section, key);
    if (!f) {
        char hint[96];
        suggest(section, key, hint, sizeof hint);
        ps->err_line = line;
        rs_fail(&ps->err, RS_E_USAGE, "%s:%d: unknown key '%s' in [%s]%s", ps->label, line, key,
                section, hint);
        return 0;
    }
    if (ps->seen[f->id]) {
        ps->err_line = line;
        rs_fail(&ps->err, RS_E_USAGE, "%s:%d: key '%s' is set twice (first on line %d)", ps->label,
                line, key, ps->seen[f->id]);
        return 0;
    }
    ps->seen[f->id] = line;
    if (!rs_text_plain(value)) {
        char safe[600];
        ps->err_line = line;
        rs_fail(&ps->err, RS_E_USAGE,
                "%s:%d: the value of '%s' holds a control character or a bidirectional "
                "control ('%s'): a preset is plain text",
                ps->label, line, key, rs_text_safe(value, 0, safe, sizeof safe));
        return 0;
    }
    rs_error verr;
    if (rs_field_set(&ps->req, f, value, &verr) != RS_OK) {
        char expect[160];
        rs_field_expect(f, expect, sizeof expect);
        ps->err_line = line;
        rs_fail(&ps->err, RS_E_USAGE, "%s:%d: [%s] %s = '%s': expected %s", ps->label, line,
                section, key, value, expect);
        return 0;
    }
    return 1;
}

static rs_status parse(reader *rd, const char *label, rs_request *r, rs_error *err)
{
    parse_state *ps = calloc(1, sizeof *ps);
    if (!ps) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    ps->rd = rd;
    ps->label = label;
    rs_request_defaults(&ps->req);
    const int bad = ini_parse_stream(read_line, rd, handler, ps);
    rs_status st = RS_OK;
    /* The earliest of: a line too long, a syntax error, a bad setting. */
    int first = bad > 0 ? bad : 0;
    if (rd->odd_line && (!first || rd->odd_line <= first) &&
        (!rd->long_line || rd->odd_line <= rd->long_line)) {
        st = rs_fail(err, RS_E_USAGE,
                     "%s:%d: not a text preset: the line holds %s (a preset is an INI text "
                     "file)",
                     label, rd->odd_line, rd->odd);
    } else if (rd->long_line && (!first || rd->long_line <= first)) {
        st = rs_fail(err, RS_E_USAGE, "%s:%d: line too long (at most %d characters)", label,
                     rd->long_line, INI_MAX_LINE - 2);
    } else if (ps->err_line && (!first || ps->err_line <= first)) {
        *err = ps->err;
        st = RS_E_USAGE;
    } else if (bad > 0) {
        st = rs_fail(err, RS_E_USAGE,
                     "%s:%d: not an INI line: expected [section], key = value, or a ; comment",
                     label, bad);
    } else if (bad < 0) {
        st = rs_fail(err, RS_E_IO, "%s: could not be read", label);
    }
    if (st == RS_OK) *r = ps->req;
    free(ps);
    return st;
}

rs_status rs_preset_read_file(const char *path, rs_request *r, rs_error *err)
{
    FILE *f = NULL;
    const rs_status opened = rs_file_open(path, "preset", RS_READ_TEXT, &f, err);
    if (opened != RS_OK) return opened;
    reader rd = {f, NULL, 0, 0, 0, 0, NULL};
    rs_status st = parse(&rd, path, r, err);
    if (ferror(f)) st = rs_file_failed(path, "preset", err); /* the cause of what parse saw */
    fclose(f);
    return st;
}

rs_status rs_preset_read_string(const char *text, const char *label, rs_request *r, rs_error *err)
{
    reader rd = {NULL, text, 0, 0, 0, 0, NULL};
    return parse(&rd, label, r, err);
}

/* ---- writing ------------------------------------------------------------------------ */

rs_status rs_preset_format(const rs_request *r, char *buf, size_t len)
{
    static const char *const sections[] = {"preset", "run", "sweep"};
    size_t used = 0;
    int w = snprintf(
        buf, len, "; redscope preset: redscope --preset NAME, or redscope ladder --preset NAME\n");
    if (w < 0 || (size_t)w >= len) return RS_E_IO;
    used = (size_t)w;
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        w = snprintf(buf + used, len - used, "\n[%s]\n", sections[s]);
        if (w < 0 || (size_t)w >= len - used) return RS_E_IO;
        used += (size_t)w;
        for (int i = 0; i < RS_FIELD_COUNT; i++) {
            const rs_field *f = &rs_fields[i];
            if (strcmp(f->section, sections[s]) != 0) continue;
            char value[512];
            rs_field_format(r, f, value, sizeof value);
            w = snprintf(buf + used, len - used, "; %s\n%s = %s\n", f->help, f->key, value);
            if (w < 0 || (size_t)w >= len - used) return RS_E_IO;
            used += (size_t)w;
        }
    }
    return RS_OK;
}

rs_status rs_preset_write(const char *path, const rs_request *r, int force, rs_error *err)
{
    char text[8192];
    if (rs_preset_format(r, text, sizeof text) != RS_OK)
        return rs_fail(err, RS_E_IO, "preset too large to write");
    /* as every output (formats/files.c): a regular file only, no link, FIFO or
     * device; an existing one only with --force; a temporary file renamed */
    const rs_status ok = rs_out_check("preset", path, force, NULL, err);
    if (ok != RS_OK) return ok;
    /* SIGINT, SIGTERM and SIGHUP wait until the file is in place (or not):
     * a signal never leaves a temporary file or half a preset behind. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const rs_status st = rs_out_write("preset", path, text, strlen(text), err);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return st;
}

static rs_status make_dirs(const char *dir, rs_error *err)
{
    char buf[RS_PATH_MAX];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return rs_fail(err, RS_E_IO, "cannot create '%s': %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return rs_fail(err, RS_E_IO, "cannot create '%s': %s", buf, strerror(errno));
    return RS_OK;
}

int rs_preset_would_shadow(const char *given)
{
    char name[RS_PATH_MAX], path[2 * RS_PATH_MAX + 8];
    strip_ini(given, name, sizeof name);
    const char *shipped = rs_preset_shipped_dir();
    if (!rs_preset_name_ok(name) || !*shipped) return 0;
    snprintf(path, sizeof path, "%s/%s.ini", shipped, name);
    if (!file_exists(path)) return 0;
    char dir[RS_PATH_MAX];
    if (rs_preset_user_dir(dir, sizeof dir, NULL) != RS_OK) return 1;
    snprintf(path, sizeof path, "%s/%s.ini", dir, name);
    return !file_exists(path); /* the user's own already hides it: "exists" */
}

rs_status rs_preset_save(const char *given, const rs_request *r, int force, char *path_out,
                         size_t len, rs_error *err)
{
    char name[RS_PATH_MAX];
    strip_ini(given, name, sizeof name);
    if (!rs_preset_name_ok(name))
        return rs_fail(err, RS_E_USAGE,
                       "bad preset name '%s': use letters, digits, '.', '_' and '-' (at most %d)",
                       name, RS_PRESET_NAME_MAX - 5);
    if (!force && rs_preset_would_shadow(name))
        return rs_fail(err, RS_E_USAGE,
                       "'%s' would shadow the shipped preset of that name; use --force to save "
                       "yours over it, or pick another name",
                       name);
    char dir[RS_PATH_MAX];
    rs_status st = rs_preset_user_dir(dir, sizeof dir, err);
    if (st != RS_OK || (st = make_dirs(dir, err)) != RS_OK) return st;
    if (snprintf(path_out, len, "%s/%s.ini", dir, name) >= (int)len)
        return rs_fail(err, RS_E_IO, "preset path too long");
    return rs_preset_write(path_out, r, force, err);
}

/* ---- listing ------------------------------------------------------------------------ */

/* The .ini files of dir (not hidden ones) appended to *out (count, room
 * *cap, grown as needed), name and path only; -1 when out of memory. */
static int scan_dir(const char *dir, int shipped, rs_preset_info **out, int count, int *cap)
{
    DIR *d = is_dir(dir) ? opendir(dir) : NULL;
    if (!d) return count;
    struct dirent *de;
    while (count >= 0 && (de = readdir(d))) {
        const size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".ini") != 0 || de->d_name[0] == '.') continue;
        if (count == *cap) {
            const int more = *cap ? 2 * *cap : 64;
            rs_preset_info *grown = realloc(*out, sizeof **out * (size_t)more);
            if (!grown) {
                count = -1;
                break;
            }
            *out = grown;
            *cap = more;
        }
        rs_preset_info *p = &(*out)[count++];
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%.*s", (int)(len - 4), de->d_name);
        snprintf(p->path, sizeof p->path, "%s/%s", dir, de->d_name);
        p->shipped = shipped;
    }
    closedir(d);
    return count;
}

static int by_kind_then_name(const void *a, const void *b)
{
    const rs_preset_info *x = a, *y = b;
    if (x->shipped != y->shipped) return y->shipped - x->shipped;
    return strcmp(x->name, y->name);
}

rs_preset_info *rs_preset_list(int *n)
{
    char user[RS_PATH_MAX];
    rs_preset_info *out = NULL;
    int cap = 0;
    int count = scan_dir(rs_preset_shipped_dir(), 1, &out, 0, &cap);
    if (count >= 0 && rs_preset_user_dir(user, sizeof user, NULL) == RS_OK)
        count = scan_dir(user, 0, &out, count, &cap);
    if (count < 0) {
        free(out);
        *n = 0;
        return NULL;
    }
    qsort(out, (size_t)count, sizeof *out, by_kind_then_name);
    for (int i = 0; i < count; i++) { /* every one read, each through its bound */
        rs_preset_info *p = &out[i];
        rs_request r;
        rs_error err;
        p->valid = rs_preset_read_file(p->path, &r, &err) == RS_OK;
        if (p->valid)
            snprintf(p->note, sizeof p->note, "%s", r.note);
        else
            snprintf(p->error, sizeof p->error, "%s", err.msg);
    }
    *n = count;
    return out;
}
