/* libFuzzer target: outside text on its way to a terminal, and file names
 * on their way to a file redscope writes.
 *
 * The first byte picks what the rest is:
 *   even: text through rs_text_safe (text.c), both with and without lines
 *         kept, into buffers of several sizes. What comes out must be
 *         UTF-8 with no control character (newline and tab only where
 *         lines are kept), no C1 character and no bidirectional control;
 *         it must fit its buffer, pass printable ASCII through unchanged,
 *         be its own escape, match rs_text_scrub's in-place result, and be
 *         unchanged exactly when rs_text_plain says the text is plain.
 *   odd:  a file name through rs_out_check (files.c), in a folder of its
 *         own that holds a FIFO "f", a link "l", a folder "d" and a file
 *         "e". Refused or accepted, never crashed; what it accepts has no
 *         control character, is never f, l or d, is e only with --force,
 *         never the file being read; checking creates nothing. A plain
 *         name (no '/') it accepts is then written, through a temporary
 *         file, and must read back whole with no temporary file left. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/files.h"
#include "core/text.h"

#define must(ok) ((ok) ? (void)0 : broken(#ok, __LINE__))
static void broken(const char *what, int line)
{
    fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, line, what);
    abort();
}

/* The code point of the UTF-8 character of k bytes at s. */
static unsigned code_point(const unsigned char *s, size_t k)
{
    unsigned cp = k == 2 ? s[0] & 0x1fu : k == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
    for (size_t i = 1; i < k; i++) cp = (cp << 6) | (s[i] & 0x3fu);
    return cp;
}

static void safe_output(const char *out, int keep_lines)
{
    const size_t n = strlen(out);
    must(rs_text_problem(out, n, NULL) == NULL);
    for (size_t i = 0, k; i < n; i += k) {
        const unsigned char c = (unsigned char)out[i];
        k = rs_utf8_len(out + i, n - i);
        must(k >= 1);
        if (k == 1) {
            must(c != 0x7f);
            must(c >= 0x20 || (keep_lines && (c == '\n' || c == '\t')));
        } else {
            const unsigned cp = code_point((const unsigned char *)out + i, k);
            must(!(cp >= 0x80 && cp <= 0x9f) && !rs_text_bidi(cp) && !rs_text_invisible(cp));
        }
    }
}

static void text_case(const char *s, size_t n)
{
    int plain = 1;
    for (size_t i = 0; i < n; i++) plain &= s[i] >= 0x20 && s[i] < 0x7f;
    for (int keep = 0; keep <= 1; keep++) {
        char *all = rs_text_safe_dup(s, keep);
        if (!all) return;
        safe_output(all, keep);
        if (plain) must(strcmp(all, s) == 0);
        if (!keep) must(rs_text_plain(s) == (strcmp(all, s) == 0));
        char *again = rs_text_safe_dup(all, keep);
        must(again && strcmp(again, all) == 0);
        free(again);
        static const size_t sizes[] = {1, 2, 5, 16, 61};
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
            char cut[64];
            memset(cut, 'Z', sizeof cut);
            rs_text_safe(s, keep, cut, sizes[j]);
            must(strlen(cut) < sizes[j] && cut[sizes[j]] == 'Z');
            safe_output(cut, keep);
            must(strncmp(cut, all, strlen(cut)) == 0); /* cut, never changed */
        }
        char *place = strdup(s);
        if (place) {
            rs_text_scrub(place, keep);
            safe_output(place, keep);
            must(strlen(place) <= n && strncmp(place, all, strlen(place)) == 0);
            free(place);
        }
        free(all);
    }
}

static size_t entries(void)
{
    DIR *d = opendir(".");
    size_t k = 0;
    if (!d) return 0;
    while (readdir(d)) k++;
    closedir(d);
    return k;
}

static char folder[] = "/tmp/rs_fuzz_names.XXXXXX";

/* At exit: the neighbours and the folder removed (a write the fuzzer
 * stopped halfway may leave a file more: the folder then stays). */
static void leave_folder(void)
{
    if (chdir("/tmp") != 0) return;
    char p[sizeof folder + 4];
    for (const char *n = "fled"; *n; n++) {
        snprintf(p, sizeof p, "%s/%c", folder, *n);
        if (*n == 'd' ? rmdir(p) : unlink(p)) return;
    }
    rmdir(folder);
}

/* The folder of hostile neighbours, made once; the fuzzer works in it. */
static void enter_folder(void)
{
    static int made;
    if (made) return;
    must(mkdtemp(folder) != NULL && chdir(folder) == 0);
    atexit(leave_folder);
    must(mkfifo("f", 0600) == 0 && symlink("e", "l") == 0 && mkdir("d", 0700) == 0);
    FILE *e = fopen("e", "w");
    must(e && fputs("e\n", e) >= 0 && fclose(e) == 0);
    made = 1;
}

static void name_case(const char *name, int force, int reading_e)
{
    enter_folder();
    const size_t before = entries();
    rs_error err;
    const rs_status st = rs_out_check("recording", name, force, reading_e ? "e" : NULL, &err);
    must(entries() == before);
    if (st != RS_OK) {
        must(err.msg[0] != '\0');
        return;
    }
    char *safe = rs_text_safe_dup(name, 0);
    must(safe && strcmp(safe, name) == 0);
    free(safe);
    must(strcmp(name, "f") && strcmp(name, "l") && strcmp(name, "d"));
    if (!strcmp(name, "e") || !strcmp(name, "./e")) must(force && !reading_e);
    if (strchr(name, '/') || !strcmp(name, "e")) return; /* written only here, never e */
    must(rs_out_write("recording", name, "ok\n", 3, &err) == RS_OK);
    struct stat sb;
    must(lstat(name, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 3);
    must(unlink(name) == 0);
    must(entries() == before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) return 0;
    char *s = malloc(size);
    if (!s) return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    const size_t n = strlen(s);
    if (data[0] % 2 == 0)
        text_case(s, n);
    else
        name_case(s, (data[0] >> 1) & 1, (data[0] >> 2) & 1);
    free(s);
    return 0;
}
