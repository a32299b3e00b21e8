/* Test helper for test_gpu_stalls_ncu.py: the line redscope's stall view
 * shows each PC offset of a built-in kernel on (core/stall_owner.h: the
 * step's own line), through the cubins nvcc kept, so Nsight Compute's
 * per-instruction samples can be put on the same lines. The kernel is the
 * instance that ran, by its mangled name (ncu --print-kernel-base mangled).
 *   pc_lines CUBIN_DIR SM VARIANT MANGLED OFFSET...
 * prints "file line" per offset ("? 0" where there is none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/stall_owner.h"
#include "core/stalls.h"
#include "nvtools/builtin_cubins.h"

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: pc_lines CUBIN_DIR SM VARIANT MANGLED OFFSET...\n");
        return 2;
    }
    const int v = rs_variant_from_name(argv[3]);
    if (v < 0) {
        fprintf(stderr, "pc_lines: no variant %s\n", argv[3]);
        return 2;
    }
    const rs_stall_owner o = {(rs_variant)v, NULL};
    char path[4096];
    if (!rs_builtin_cubin_path(argv[1], atoi(argv[2]), argv[4], path, sizeof path)) {
        fprintf(stderr, "pc_lines: no cubin in %s holds %s\n", argv[1], argv[4]);
        return 1;
    }
    for (int i = 5; i < argc; i++) {
        rs_src_frame f[RS_FRAMES_MAX];
        rs_error err;
        const int n = rs_builtin_chain(argv[1], atoi(argv[2]), argv[4], strtoull(argv[i], NULL, 0),
                                       f, RS_FRAMES_MAX, &err);
        if (n)
            printf("%s %u\n", rs_stall_base(f[rs_stall_shown(f, n, &o)].file),
                   f[rs_stall_shown(f, n, &o)].line);
        else
            printf("? 0\n");
    }
    return 0;
}
