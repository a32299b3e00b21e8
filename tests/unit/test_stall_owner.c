/* The stall view's rule over the cubins this build made, for every step of
 * the ladder (no GPU needed): every instruction of the step's int32-sum
 * kernels is shown on the step's own code (its kernel's line or its key
 * lines), never on the operator every step shares; vectorized's add stands
 * on its vec_reduce line, cooperative groups' code on the cg::reduce
 * lines. Then the cause of a wait, from nvdisasm listings kept in
 * tests/data/sass (nvdisasm 13.0 of these kernels): a long-scoreboard wait
 * names its 16-byte load, a barrier wait its barrier.
 *   test_stall_owner CUBIN_DIR SOURCE_DIR */
#include <stdlib.h>

#include "check.h"
#include "core/catalogue.h"
#include "nvtools/sass_deps.h"
#include "nvtools/cubin.h"
#include "core/snippets.h"
#include "core/stall_owner.h"
#include "core/stalls.h"
#include "core/ukernel.h"
#include "nvtools/builtin_cubins.h"
#include "read_file.h"

static char names[1 << 20];

/* How many instructions of v's int32-sum kernels were walked. */
static int walk_variant(const char *dir, rs_variant v, int *shown_kernel, int *shown_key)
{
    char want[96], path[4096 + 256];
    snprintf(want, sizeof want, "%zuk_%sI", strlen(rs_variant_name(v)) + 2, rs_variant_name(v));
    const rs_stall_owner o = {v, NULL};
    int walked = 0;
    for (int c = 0; rs_builtin_cubin_nth(dir, 90, c, path, sizeof path); c++) {
        size_t size = 0;
        char *bytes = read_file(path, &size);
        if (!bytes || rs_cubin_entries(bytes, size, names, sizeof names) <= 0) {
            free(bytes);
            continue;
        }
        free(bytes);
        for (char *fn = strtok(names, " "); fn; fn = strtok(NULL, " ")) {
            if (!strstr(fn, want) || !strstr(fn, "SumOpIi")) continue;
            rs_src_frame f[RS_FRAMES_MAX];
            rs_error err;
            for (uint64_t pc = 0; pc < (1u << 16); pc += 16) {
                const int n = rs_builtin_chain(dir, 90, fn, pc, f, RS_FRAMES_MAX, &err);
                if (!n) continue;
                walked++;
                const int s = rs_stall_shown(f, n, &o);
                const char *file = rs_stall_base(f[s].file);
                const int key = rs_kernel_key(v, file, (int)f[s].line);
                *shown_kernel += s == n - 1;
                *shown_key += key;
                CHECK_MSG(s == n - 1 || key, "%s +0x%llx: shown on %s:%u", rs_variant_name(v),
                          (unsigned long long)pc, file, f[s].line);
                CHECK_MSG(!strstr(f[s].function, "5SumOpIiEcl"), /* SumOp::operator() */
                          "%s +0x%llx: shown on the shared operator", rs_variant_name(v),
                          (unsigned long long)pc);
            }
        }
    }
    return walked;
}

/* The line vectorized's add (common.cuh's operator, inlined) is shown on. */
static void vectorized_add(const char *dir, const char *src)
{
    const char *fn = "_ZN2rs12k_vectorizedIiiNS_5SumOpIiEEEEvPKT_yNS_3FinIT0_EE";
    const rs_stall_owner o = {RS_V_VECTORIZED, NULL};
    char path[4096];
    snprintf(path, sizeof path, "%s/src/kernels/modern.cu", src);
    const unsigned a = line_with(path, "v = op(v, op(op(vec_reduce<T, A, Op>(a)"),
                   b = line_with(path, "op(vec_reduce<T, A, Op>(c), vec_reduce<T, A, Op>(d))));");
    int adds = 0, on_own = 0;
    for (uint64_t pc = 0; pc < (1u << 14); pc += 16) {
        rs_src_frame f[RS_FRAMES_MAX];
        rs_error err;
        const int n = rs_builtin_chain(dir, 90, fn, pc, f, RS_FRAMES_MAX, &err);
        if (!n || !strstr(f[0].function, "5SumOpIiEcl")) continue;
        const int s = rs_stall_shown(f, n, &o);
        adds++;
        on_own += strcmp(rs_stall_base(f[s].file), "modern.cu") == 0 &&
                  (f[s].line == a || f[s].line == b);
    }
    CHECK_MSG(adds > 0 && on_own > 0,
              "vectorized: its adds stand on its vec_reduce lines %u-%u "
              "(%d of %d)",
              a, b, on_own, adds);
}

static char *listing(const char *src, const char *name, rs_sass_op **ops, int *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/sass/%s", src, name);
    size_t size = 0;
    char *t = read_file(path, &size);
    char *text = t ? realloc(t, size + 1) : NULL;
    if (text) text[size] = '\0';
    *ops = text ? rs_sass_parse(text, n) : NULL;
    CHECK_MSG(*ops && *n > 100, "%s: %d instructions", name, *n);
    return text;
}

static const char *cause(const rs_sass_op *ops, int n, uint64_t pc, int cls)
{
    const int j = rs_sass_cause(ops, n, pc, cls);
    static char buf[128];
    snprintf(buf, sizeof buf, "%llx %s", j >= 0 ? (unsigned long long)ops[j].offset : 0ull,
             j >= 0 ? ops[j].opcode : "-");
    return buf;
}

static void causes(const char *src)
{
    rs_sass_op *ops = NULL;
    int n = 0;
    char *t = listing(src, "k_vectorized_int32_sum.sass", &ops, &n);
    /* IADD3 R0, R17, R16, R0 waits for the 16-byte load into R16..R19 */
    CHECK_STR_EQ(cause(ops, n, 0x510, RS_WAIT_MEMORY), "420 LDG.E.128.CONSTANT");
    CHECK_STR_EQ(cause(ops, n, 0x560, RS_WAIT_MEMORY), "440 LDG.E.128.CONSTANT");
    CHECK_STR_EQ(cause(ops, n, 0x840, RS_WAIT_MEMORY), "7f0 LDG.E.128.CONSTANT");
    /* the warp stands on the instruction after the barrier it waits at */
    CHECK_STR_EQ(cause(ops, n, 0xae0, RS_WAIT_BARRIER), "ad0 BAR.SYNC.DEFER_BLOCKING");
    CHECK_STR_EQ(cause(ops, n, 0xdc0, RS_WAIT_FENCE), "db0 MEMBAR.SC.GPU");
    CHECK_STR_EQ(cause(ops, n, 0xea0, RS_WAIT_MEMORY), "e50 ATOMG.E.ADD.STRONG.GPU");
    CHECK_STR_EQ(cause(ops, n, 0x515, RS_WAIT_MEMORY), "0 -"); /* not an instruction */
    CHECK_STR_EQ(cause(ops, n, 0x0, RS_WAIT_MEMORY), "0 -");   /* nothing before it */
    char what[64];
    rs_sass_what("LDG.E.128.CONSTANT", what, sizeof what);
    CHECK_STR_EQ(what, "16-byte global load");
    rs_sass_what("LDS.U8", what, sizeof what);
    CHECK_STR_EQ(what, "shared-memory load");
    rs_sass_what("LDG.E.U16", what, sizeof what);
    CHECK_STR_EQ(what, "2-byte global load");
    free(ops);
    free(t);
    t = listing(src, "k_sequential_int32_sum.sass", &ops, &n);
    CHECK_STR_EQ(cause(ops, n, 0x1a0, RS_WAIT_MEMORY), "f0 LDG.E.CONSTANT");
    CHECK_STR_EQ(cause(ops, n, 0x230, RS_WAIT_MIO), "220 LDS");
    CHECK_STR_EQ(cause(ops, n, 0x260, RS_WAIT_BARRIER), "250 BAR.SYNC.DEFER_BLOCKING");
    CHECK_STR_EQ(cause(ops, n, 0x1c0, RS_WAIT_BARRIER), "1b0 BAR.SYNC.DEFER_BLOCKING");
    /* a predicate-only write (ISETP) neither hides nor makes a cause */
    CHECK_STR_EQ(cause(ops, n, 0x270, RS_WAIT_MIO), "0 -");
    free(ops);
    free(t);
    /* the text of one function of a whole cubin's listing */
    size_t len = 0;
    const char *whole = "//--------------------- .text.a --\n.text.a:\n /*0000*/ LDS R1, [R2] ;\n"
                        "//--------------------- .text.b --\n.text.b:\n /*0000*/ EXIT ;\n";
    const char *b = rs_sass_function(whole, "b", &len);
    CHECK(b && strncmp(b, ".text.b:", 8) == 0 && len == strlen(b));
    CHECK(rs_sass_function(whole, "c", &len) == NULL);
    ops = rs_sass_parse(whole, &n); /* the first function only */
    CHECK(ops && n == 1 && ops[0].cls == RS_WAIT_MIO);
    free(ops);
}

int main(int argc, char **argv)
{
    CHECK_MSG(argc > 2, "usage: test_stall_owner CUBIN_DIR SOURCE_DIR");
    if (argc <= 2) return check_report("test_stall_owner");
    for (int v = RS_V_ATOMIC; v <= RS_V_VECTORIZED; v++) {
        int kernel = 0, key = 0;
        const int walked = walk_variant(argv[1], (rs_variant)v, &kernel, &key);
        printf("%-22s %5d instructions: %5d on the kernel's lines, %5d on key lines\n",
               rs_variant_name((rs_variant)v), walked, kernel, key);
        CHECK_MSG(walked > 0, "%s: its kernels in %s", rs_variant_name((rs_variant)v), argv[1]);
        CHECK_MSG(key > 0, "%s: some instructions on its key lines",
                  rs_variant_name((rs_variant)v));
    }
    vectorized_add(argv[1], argv[2]);
    causes(argv[2]);
    return check_report("test_stall_owner");
}
