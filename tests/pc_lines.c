/* Test helper for test_gpu_stalls_ncu.py: the source line of PC offsets of
 * a built-in kernel, through the cubins nvcc kept, as redscope's stall view
 * shows it (the innermost line of its inline chain in a kernel source of
 * redscope's own), so Nsight Compute's per-instruction samples can be put
 * on the same lines.
 *   pc_lines CUBIN_DIR SM VARIANT[:PART|PART] OFFSET...   (int32 sum instance;
 *   PART: a piece of its mangled name, as Lj256E for a blockDim argument)
 * prints "file line" per offset ("? 0" where there is none); with the
 * single offset "first", the first offset that has a line (a source view
 * lists instructions from there). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snippets.h"
#include "core/ukernel.h"
#include "profiling/builtin_cubins.h"
#include "read_file.h"

/* Whether a mangled name holds one of the '|'-separated parts of `any`
 * (an empty `any`: yes). */
static int holds_any(const char *name, const char *any)
{
    if (!any[0]) return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", any);
    for (char *save = NULL, *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
        if (strstr(name, t)) return 1;
    return 0;
}

/* The int32-sum instance of k_VARIANT among the cubins' entry points (with
 * a template argument: VARIANT:PART|PART, one part in its mangled name). */
static int find_entry(const char *dir, const char *variant_arg, char *out, size_t len)
{
    char variant[128];
    snprintf(variant, sizeof variant, "%s", variant_arg);
    char *colon = strchr(variant, ':');
    const char *any = colon ? colon + 1 : "";
    if (colon) *colon = '\0';
    char want[160];
    snprintf(want, sizeof want, "%zuk_%sI", strlen(variant) + 2, variant);
    DIR *d = opendir(dir);
    const struct dirent *e;
    static char names[1 << 20];
    while (d && (e = readdir(d)) && !out[0]) {
        if (!strstr(e->d_name, ".cubin")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t size = 0;
        char *c = read_file(path, &size);
        if (c && rs_cubin_entries(c, size, names, sizeof names) > 0)
            for (char *t = strtok(names, " "); t; t = strtok(NULL, " "))
                if (strstr(t, want) && strstr(t, "SumOpIi") && holds_any(t, any))
                    snprintf(out, len, "%s", t);
        free(c);
    }
    if (d) closedir(d);
    return out[0] != '\0';
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int own(const void *ctx, const char *file)
{
    (void)ctx;
    return rs_kernel_source(base_of(file)) != NULL;
}

/* "file line" of an offset as the stall view shows it, or "? 0". */
static void print_line(const char *dir, int sm, const char *fn, unsigned long long pc)
{
    rs_src_frame f[RS_FRAMES_MAX];
    rs_error err;
    const int n = rs_builtin_chain(dir, sm, fn, pc, f, RS_FRAMES_MAX, &err);
    const int pick = n ? rs_frames_pick(f, n, own, NULL) : 0;
    if (n)
        printf("%s %u\n", base_of(f[pick].file), f[pick].line);
    else
        printf("? 0\n");
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: pc_lines CUBIN_DIR SM VARIANT OFFSET...\n");
        return 2;
    }
    char fn[512] = "";
    if (!find_entry(argv[1], argv[3], fn, sizeof fn)) {
        fprintf(stderr, "pc_lines: no int32 sum k_%s in %s\n", argv[3], argv[1]);
        return 1;
    }
    if (argc == 5 && strcmp(argv[4], "first") == 0) { /* the first offset with a line */
        for (unsigned long long pc = 0; pc < 4096; pc += 16) {
            char file[512];
            unsigned line = 0;
            rs_error err;
            if (rs_builtin_line(argv[1], atoi(argv[2]), fn, pc, file, sizeof file, &line, &err) ==
                RS_OK) {
                printf("%llu\n", pc);
                return 0;
            }
        }
        return 1;
    }
    for (int i = 4; i < argc; i++)
        print_line(argv[1], atoi(argv[2]), fn, strtoull(argv[i], NULL, 0));
    return 0;
}
