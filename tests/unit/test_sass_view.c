/* The SASS of a line (profiling/sass_view): with nvdisasm, sequential's
 * tree line holds its shared loads, its __syncthreads line the barrier,
 * and an instruction's samples come back beside it; without nvdisasm, the
 * reason says so. No GPU needed.
 *   test_sass_view CUBIN_DIR SOURCE_DIR */
#include <stdlib.h>

#include "check.h"
#include "cubin_files.h"
#include "core/ukernel.h"
#include "nvtools/cubin.h"
#include "nvtools/sass_view.h"
#include "read_file.h"

static int holds(const rs_sass_insn *in, int n, const char *op)
{
    for (int i = 0; i < n; i++)
        if (strstr(in[i].text, op)) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc > 2, "usage: test_sass_view CUBIN_DIR SOURCE_DIR");
    if (argc <= 2) return check_report("test_sass_view");
    static rs_stalls s;
    const rs_stall_owner own = {RS_V_SEQUENTIAL, NULL};
    char cache[] = "/tmp/test_sass_view.XXXXXX"; /* no disassembly kept from before */
    CHECK(mkdtemp(cache) != NULL);
    setenv("XDG_CACHE_HOME", cache, 1);
    char path[4096]; /* classic.sm_90.cubin, or classic.compute_90.sm_90.cubin */
    CHECK_MSG(cubin_path(argv[1], "classic.", path), "classic's cubin in %s", argv[1]);
    snprintf(s.cubin, sizeof s.cubin, "%s", path);
    size_t size = 0;
    char *c = read_file(s.cubin, &size);
    static char names[1 << 20];
    CHECK(c && rs_cubin_entries(c, size, names, sizeof names) > 0);
    for (char *t = strtok(names, " "); t; t = strtok(NULL, " "))
        if (strstr(t, "12k_sequentialI") && strstr(t, "SumOpIi"))
            snprintf(s.kernel, sizeof s.kernel, "%s", t);
    free(c);
    CHECK_MSG(s.kernel[0], "k_sequential's int32 sum in %s", s.cubin);
    s.sm = 90;
    char src[4096], why[256] = "";
    snprintf(src, sizeof src, "%s/src/kernels/classic.cu", argv[2]);
    const unsigned tree = line_with(src, "if (tid < stride) s[tid] = op(s[tid], s[tid + stride]);");
    CHECK(tree > 0);
    static rs_sass_insn in[256];
    char tool[4096];
    if (!rs_nvdisasm_path(tool, sizeof tool)) {
        CHECK(rs_sass_of_line(&s, "classic.cu", tree, &own, in, 256, why, sizeof why) == -1);
        CHECK_STR_EQ(
            why, "nvdisasm is not on PATH (the CUDA toolkit's cuda-nvdisasm; add its bin to PATH)");
        printf("test_sass_view: no nvdisasm here: only its absence was checked\n");
        return check_report("test_sass_view");
    }
    int n = rs_sass_of_line(&s, "classic.cu", tree, &own, in, 256, why, sizeof why);
    CHECK_MSG(n > 0 && holds(in, n, "LDS") && holds(in, n, "STS"),
              "the tree line's SASS holds its shared loads and store: %d (%s)", n, why);
    for (int i = 1; i < n; i++) CHECK(in[i].offset > in[i - 1].offset);
    n = rs_sass_of_line(&s, "classic.cu", tree + 1, &own, in, 256, why, sizeof why);
    CHECK_MSG(n > 0 && holds(in, n, "BAR.SYNC"), "__syncthreads is a BAR.SYNC: %d (%s)", n, why);
    /* an instruction's samples */
    if (n > 0) rs_stalls_add_pc(&s, in[0].offset, 42);
    n = rs_sass_of_line(&s, "classic.cu", tree + 1, &own, in, 256, why, sizeof why);
    CHECK(n > 0 && in[0].samples == 42);
    CHECK(rs_sass_of_line(&s, "classic.cu", 1, &own, in, 256, why, sizeof why) == 0);
    CHECK_STR_CONTAINS(why, "no instruction of the kernel is on classic.cu:1");
    snprintf(s.kernel, sizeof s.kernel, "k_nothere");
    s.cubin[0] = '\0';
    CHECK(rs_sass_of_line(&s, "classic.cu", tree, &own, in, 256, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "no cubin on this machine holds k_nothere");
    return check_report("test_sass_view");
}
