/* Build-time tool: pull the key lines of each kernel out of the sources.
 *
 * usage: extract_snippets OUT.c SOURCE...
 *
 * Lines between "// rs:key MARKER" and "// rs:end" are collected (but those
 * with an rs:hide block comment: a macro's plumbing), their
 * common indentation removed, and OUT.c defines rs_kernel_snippet() with one
 * entry per variant, in the order of the list of variants (core/variants.h),
 * each its row's markers joined,
 * and rs_kernel_line(), each key line by its file and line number (what
 * compute-sanitizer and PC sampling name), and rs_kernel_key(), whether a
 * line lies in one of a variant's key regions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/variants.h"

/* Each variant's name and the markers of the lines shown for it. */
static const struct {
    const char *name, *markers;
} variants[] = {
#define RS_X_MARKERS(id, name, group, kernel, markers, ...) {name, markers},
    RS_VARIANTS(RS_X_MARKERS)
#undef RS_X_MARKERS
};
#define VARIANT_COUNT ((int)(sizeof variants / sizeof variants[0]))

#define MAX_MARKERS 64
#define MAX_TEXT    8192

struct marker {
    char name[64];
    char file[64];   /* the source's name, without its directory */
    int first, last; /* the lines between rs:key and rs:end */
    char text[MAX_TEXT];
};

static struct marker markers[MAX_MARKERS];
static int marker_count;

#define MAX_LINES 2048
struct key_line {
    char file[64];
    int line;
    char text[160];
};
static struct key_line key_lines[MAX_LINES];
static int key_line_count;

static void keep_line(const char *path, int number, const char *text)
{
    if (key_line_count == MAX_LINES) return;
    struct key_line *k = &key_lines[key_line_count++];
    const char *base = strrchr(path, '/');
    snprintf(k->file, sizeof k->file, "%s", base ? base + 1 : path);
    k->line = number;
    text += strspn(text, " ");
    snprintf(k->text, sizeof k->text, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Remove the indentation the lines share; preprocessor lines (#pragma),
 * which sit in column 0 whatever the code's depth, do not count. */
static void dedent(char *text)
{
    size_t min = (size_t)-1;
    for (char *line = text; *line;) {
        size_t ind = strspn(line, " ");
        if (line[ind] != '\n' && line[ind] && line[ind] != '#' && ind < min) min = ind;
        char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    if (min == (size_t)-1 || min == 0) return;
    char *out = text;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        size_t skip = strspn(line, " ") < min ? strspn(line, " ") : min;
        memmove(out, line + skip, len - skip);
        out += len - skip;
        line += len;
    }
    *out = '\0';
}

static int scan(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    char line[1024];
    struct marker *cur = NULL;
    int number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        const char *key = strstr(line, "// rs:key ");
        if (key) {
            if (marker_count == MAX_MARKERS) {
                fprintf(stderr, "%s: too many markers\n", path);
                fclose(f);
                return -1;
            }
            cur = &markers[marker_count++];
            sscanf(key + strlen("// rs:key "), "%63s", cur->name);
            const char *base = strrchr(path, '/');
            snprintf(cur->file, sizeof cur->file, "%s", base ? base + 1 : path);
            cur->first = number + 1;
            cur->text[0] = '\0';
        } else if (strstr(line, "// rs:end")) {
            if (cur) {
                dedent(cur->text);
                cur->last = number - 1;
            }
            cur = NULL;
        } else if (strstr(line, "clang-format") || strstr(line, "/* rs:hide */")) {
            continue; /* formatting switches and plumbing are not part of the lesson */
        } else if (cur && strlen(cur->text) + strlen(line) < MAX_TEXT) {
            keep_line(path, number, line);
            /* Macro bodies: drop the line continuations. */
            size_t len = strcspn(line, "\n");
            if (len > 0 && line[len - 1] == '\\') {
                len--;
                while (len > 0 && line[len - 1] == ' ') len--;
                line[len++] = '\n';
                line[len] = '\0';
            }
            strcat(cur->text, line);
        }
    }
    fclose(f);
    if (cur) {
        fprintf(stderr, "%s: marker '%s' has no rs:end\n", path, cur->name);
        return -1;
    }
    return 0;
}

static const struct marker *find(const char *name, size_t len)
{
    for (int i = 0; i < marker_count; i++)
        if (strlen(markers[i].name) == len && strncmp(markers[i].name, name, len) == 0)
            return &markers[i];
    return NULL;
}

static void emit_c_string(FILE *out, const char *s)
{
    fputs("    \"", out);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs(s[1] ? "\\n\"\n    \"" : "\\n", out);
        } else if (*s == '"' || *s == '\\' || *s == '?') { /* "\?": no trigraph under -std=c11 */
            fputc('\\', out);
            fputc(*s, out);
        } else {
            fputc(*s, out);
        }
    }
    fputs("\"", out);
}

static void emit_lines(FILE *out)
{
    fprintf(out, "\nstatic const struct {\n    const char *file;\n    int line;\n"
                 "    const char *text;\n} key_lines[] = {\n");
    for (int i = 0; i < key_line_count; i++) {
        fprintf(out, "    {\"%s\", %d,\n", key_lines[i].file, key_lines[i].line);
        emit_c_string(out, key_lines[i].text);
        fputs("},\n", out);
    }
    fprintf(out,
            "    {\"\", 0, \"\"},\n};\n\nconst char *rs_kernel_line(const char *file, int line)\n"
            "{\n    for (int i = 0; key_lines[i].line; i++)\n"
            "        if (key_lines[i].line == line && strcmp(key_lines[i].file, file) == 0)\n"
            "            return key_lines[i].text;\n    return NULL;\n}\n");
}

/* Each variant's key regions by file and line range: the step's own
 * lines, where the stall view shows its samples (rs_kernel_key). */
static void emit_ranges(FILE *out)
{
    fprintf(out, "\nstatic const struct {\n    int variant;\n    const char *file;\n"
                 "    int first, last;\n} key_ranges[] = {\n");
    for (int v = 0; v < VARIANT_COUNT; v++) {
        for (const char *p = variants[v].markers; *p;) {
            const size_t len = strcspn(p, "+");
            const struct marker *m = find(p, len);
            if (m) fprintf(out, "    {%d, \"%s\", %d, %d},\n", v, m->file, m->first, m->last);
            p += len + (p[len] == '+');
        }
    }
    fprintf(out,
            "    {-1, \"\", 0, 0},\n};\n\nint rs_kernel_key(rs_variant v, const char *file, "
            "int line)\n{\n    for (int i = 0; key_ranges[i].variant >= 0; i++)\n"
            "        if (key_ranges[i].variant == (int)v && line >= key_ranges[i].first &&\n"
            "            line <= key_ranges[i].last && strcmp(key_ranges[i].file, file) == 0)\n"
            "            return 1;\n    return 0;\n}\n");
}

/* The whole text of every source, by its file name: the stall view's
 * Source screen shows a built-in kernel's lines where no source tree is. */
static int emit_sources(FILE *out, char **paths, int count)
{
    fprintf(out, "\nstatic const struct {\n    const char *file;\n    const char *text;\n}"
                 " sources[] = {\n");
    for (int i = 0; i < count; i++) {
        FILE *f = fopen(paths[i], "r");
        if (!f) {
            perror(paths[i]);
            return 1;
        }
        static char text[1 << 20];
        const size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        if (n == sizeof text - 1) {
            fprintf(stderr, "%s: over 1 MiB\n", paths[i]);
            return 1;
        }
        text[n] = '\0';
        const char *slash = strrchr(paths[i], '/');
        fprintf(out, "    {\"%s\",\n", slash ? slash + 1 : paths[i]);
        emit_c_string(out, text);
        fputs("},\n", out);
    }
    fprintf(out, "    {\"\", \"\"},\n};\n\nconst char *rs_kernel_source(const char *file)\n"
                 "{\n    for (int i = 0; sources[i].file[0]; i++)\n"
                 "        if (strcmp(sources[i].file, file) == 0) return sources[i].text;\n"
                 "    return NULL;\n}\n");
    return 0;
}

/* One variant's snippet: its markers' lines joined, "" for none. */
static int emit_snippet(FILE *out, int v)
{
    fprintf(out, "    /* %s */\n", variants[v].name);
    const char *p = variants[v].markers;
    if (!*p) fputs("    \"\"", out);
    for (int first = 1; *p; first = 0) {
        size_t len = strcspn(p, "+");
        const struct marker *m = find(p, len);
        if (!m) {
            fprintf(stderr, "%s: no marker '%.*s' in the sources\n", variants[v].name, (int)len, p);
            return 1;
        }
        if (!first) fputs("\n    \"\\n\"\n", out);
        emit_c_string(out, m->text);
        p += len + (p[len] == '+');
    }
    fputs(",\n", out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUT.c SOURCE...\n", argv[0]);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (scan(argv[i])) return 1;
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by tools/extract_snippets.c from the kernel sources. */\n"
                 "#include \"core/snippets.h\"\n\n#include <string.h>\n\nstatic const char *const "
                 "snippets[] = {\n");
    for (int v = 0; v < VARIANT_COUNT; v++)
        if (emit_snippet(out, v)) {
            fclose(out);
            return 1;
        }
    fprintf(out, "};\n\nconst char *rs_kernel_snippet(rs_variant v)\n{\n"
                 "    return ((unsigned)v < sizeof snippets / sizeof snippets[0]) ? snippets[v] "
                 ": \"\";\n}\n");
    emit_lines(out);
    emit_ranges(out);
    const int bad = emit_sources(out, argv + 2, argc - 2);
    return fclose(out) || bad ? 1 : 0;
}
