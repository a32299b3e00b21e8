/* PCs to source lines through a cubin's line information, as the stall
 * view maps PC samples (CUPTI reads the cubin alone: no GPU needed). The
 * cubin is tests/data/pcs_tree.cu, built with -lineinfo. */
#include <stdlib.h>

#include "check.h"
#include "profiling/sass_lines.h"

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    char *b = n > 0 ? malloc((size_t)n) : NULL;
    *size = b && fread(b, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    size_t size = 0;
    char *cubin = argc > 1 ? slurp(argv[1], &size) : NULL;
    CHECK_MSG(cubin && size > 0, "cannot read %s", argc > 1 ? argv[1] : "(no path given)");
    if (!cubin) return check_report("test_sass_lines");
    char file[512];
    unsigned line = 0, seen[32] = {0};
    rs_error err;
    int mapped = 0, outside = 0;
    /* every instruction (16 bytes on sm_90) until the function ends */
    for (uint64_t pc = 0; pc < 64 * 1024; pc += 16) {
        if (rs_sass_line(cubin, size, "k_tree", pc, file, sizeof file, &line, &err) != RS_OK) break;
        mapped++;
        CHECK_MSG(strstr(file, "pcs_tree.cu") != NULL, "pc %llu in %s", (unsigned long long)pc,
                  file);
        if (line < 32) seen[line]++;
        if (line < 4 || line > 17) outside++;
    }
    CHECK_MSG(mapped >= 20, "%d PCs mapped", mapped);
    CHECK_MSG(outside == 0, "%d PCs on lines outside the kernel", outside);
    CHECK_MSG(seen[8] > 0, "no PC on the global load (line 8)");
    CHECK_MSG(seen[13] > 0, "no PC on the shared add (line 13)");
    CHECK_MSG(seen[10] > 0 || seen[14] > 0, "no PC on a __syncthreads (lines 10, 14)");
    CHECK_MSG(seen[16] > 0, "no PC on the block's store (line 16)");
    CHECK(seen[15] == 0 && seen[9] == 0 && seen[2] == 0); /* a brace, a ':' line, a comment */

    /* clear refusals */
    CHECK(rs_sass_line(cubin, size, "k_nothere", 0, file, sizeof file, &line, &err) == RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "k_nothere");
    CHECK(rs_sass_line("not a cubin at all", 18, "k_tree", 0, file, sizeof file, &line, &err) ==
          RS_E_IO);
    CHECK_STR_CONTAINS(err.msg, "not a cubin");
    CHECK(rs_sass_line(NULL, 0, "k_tree", 0, file, sizeof file, &line, &err) == RS_E_IO);
    CHECK(rs_sass_line(cubin, size, "", 0, file, sizeof file, &line, &err) == RS_E_IO);
    free(cubin);
    return check_report("test_sass_lines");
}
