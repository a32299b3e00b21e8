/* The cubin's own line table with its inline chains (nvtools/cubin_lines),
 * no GPU needed: tests/data/inline_chain.cu built with -lineinfo, whose
 * "@" markers say where each chain must lead; the innermost line of every
 * PC against CUPTI's SASS-to-source correlation, for that kernel and for
 * the built-in ladder kernels; hostile bytes; the short function names.
 *   test_line_table CHAIN_CUBIN CUBIN_DIR SOURCE_DIR */
#include <stdlib.h>

#include "check.h"
#include "cubin_files.h"
#include "nvtools/cubin_lines.h"
#include "nvtools/cubin.h"
#include "core/ukernel.h"
#include "nvtools/builtin_cubins.h"
#include "nvtools/demangle.h"
#include "profiling/sass_lines.h"
#include "read_file.h"

static int ends_with(const char *s, const char *tail)
{
    const size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static int own_chain_file(const void *ctx, const char *file)
{
    (void)ctx;
    return ends_with(file, "/inline_chain.cu");
}

static char name_buf[256];
static const char *short_name(const char *mangled)
{
    rs_function_name(mangled, name_buf, sizeof name_buf);
    return name_buf;
}

typedef struct marks {
    unsigned plus, scaled, call, reduce, first, end;
} marks;

/* One PC's chain against the markers; counts what it showed. */
static void check_chain(const rs_src_frame *f, int n, const marks *m, int *plus, int *cg)
{
    const rs_src_frame *last = &f[n - 1];
    CHECK_MSG(own_chain_file(NULL, last->file) && strcmp(last->function, "k_chain") == 0 &&
                  last->line >= m->first && last->line <= m->end,
              "the outermost frame is the kernel's own line: %s:%u %s", last->file, last->line,
              last->function);
    if (own_chain_file(NULL, f[0].file) && f[0].line == m->plus) {
        (*plus)++;
        CHECK_MSG(n == 3 && f[1].line == m->scaled && f[2].line == m->call,
                  "@plus inlined at @scaled inlined at @call: %d frames, %u %u", n,
                  n > 1 ? f[1].line : 0, n > 2 ? f[2].line : 0);
        CHECK_STR_EQ(short_name(f[0].function), "demo::Plus::operator()");
        if (n > 1) CHECK_STR_EQ(short_name(f[1].function), "demo::scaled");
    }
    const int pick = rs_frames_pick(f, n, own_chain_file, NULL);
    CHECK(own_chain_file(NULL, f[pick].file));
    if (f[pick].line == m->reduce && pick > 0 &&
        strcmp(short_name(f[pick - 1].function), "cg::reduce") == 0)
        (*cg)++;
}

static void chains(const char *cubin_path, const char *src)
{
    const marks m = {line_with(src, "@plus"),   line_with(src, "@scaled"),  line_with(src, "@call"),
                     line_with(src, "@reduce"), line_with(src, "k_chain("), line_with(src, "@end")};
    CHECK(m.plus && m.scaled && m.call && m.reduce && m.first && m.end > m.first);
    size_t size = 0;
    char *cubin = read_file(cubin_path, &size);
    CHECK_MSG(cubin, "cannot read %s", cubin_path);
    rs_error err;
    rs_line_table *t = cubin ? rs_line_table_load(cubin, size, "k_chain", &err) : NULL;
    CHECK_MSG(t, "k_chain's line table: %s", t ? "" : err.msg);
    int pcs = 0, plus = 0, cg = 0, agree = 0;
    rs_src_frame f[RS_FRAMES_MAX];
    for (uint64_t pc = 0; t && pc < rs_line_table_end(t); pc += 16) {
        const int n = rs_line_table_chain(t, pc, f, RS_FRAMES_MAX);
        if (!n) continue;
        pcs++;
        check_chain(f, n, &m, &plus, &cg);
        char file[512];
        unsigned line = 0;
        if (rs_sass_line(cubin, size, "k_chain", pc, file, sizeof file, &line, &err) == RS_OK)
            agree += line == f[0].line && strcmp(file, f[0].file) == 0;
    }
    CHECK_MSG(pcs >= 20 && agree == pcs, "%d of %d PCs on CUPTI's innermost line", agree, pcs);
    CHECK_MSG(plus > 0, "no PC on @plus (line %u)", m.plus);
    CHECK_MSG(cg > 0, "no cooperative-groups PC shown on @reduce under cg::reduce");
    CHECK(t && rs_line_table_chain(t, rs_line_table_end(t), f, RS_FRAMES_MAX) == 0);
    CHECK(t && rs_line_table_chain(t, 0, f, 0) == 0);
    rs_line_table_free(t);
    CHECK(!rs_line_table_load(cubin, size, "k_nothere", &err));
    CHECK_STR_CONTAINS(err.msg, "k_nothere");
    CHECK(!rs_line_table_load("not a cubin at all", 18, "k_chain", &err));
    CHECK_STR_CONTAINS(err.msg, "-lineinfo");
    CHECK(!rs_line_table_load(NULL, 0, "k_chain", &err));
    CHECK(!rs_line_table_load(cubin, size, "", &err));
    free(cubin);
}

/* Every frame of every PC's chain, added up (0: no table); *pcs: the PCs
 * with a line. */
static long frames_of(const char *cubin, size_t size, long *pcs)
{
    rs_error err;
    rs_line_table *t = rs_line_table_load(cubin, size, "k_chain", &err);
    rs_src_frame f[RS_FRAMES_MAX];
    long total = 0, with = 0;
    for (uint64_t pc = 0; t && pc < rs_line_table_end(t) && pc < 65536; pc += 16) {
        const int n = rs_line_table_chain(t, pc, f, RS_FRAMES_MAX);
        total += n;
        with += n > 0;
    }
    if (pcs) *pcs = with;
    rs_line_table_free(t);
    return total;
}

/* Cut short or with a byte changed, a cubin never crashes or hangs the
 * reader (ASan and UBSan judge that in CI). A context that points forward,
 * past its own row, ends the chain there instead of looping or reading
 * outside the table. */
static void hostile(const char *cubin_path)
{
    size_t size = 0;
    char *cubin = read_file(cubin_path, &size);
    char *copy = cubin ? malloc(size) : NULL;
    if (!copy) return;
    for (size_t cut = 0; cut < size; cut += 1 + cut / 16) {
        memcpy(copy, cubin, cut);
        frames_of(copy, cut, NULL);
    }
    for (size_t at = 0; at < size; at += 3) {
        memcpy(copy, cubin, size);
        copy[at] = (char)(copy[at] ^ 0xA5);
        frames_of(copy, size, NULL);
    }
    long pcs = 0;
    const long whole = frames_of(cubin, size, NULL);
    memcpy(copy, cubin, size);
    int patched = 0; /* every "context" opcode (00 LEN 90 ctx name) made to point forward */
    for (size_t i = 0; i + 4 < size; i++) {
        const unsigned char *b = (const unsigned char *)copy + i;
        if (b[0] == 0 && b[1] >= 3 && b[1] <= 8 && b[2] == 0x90 && b[3]) {
            copy[i + 3] = (char)(0x7f | (b[3] & 0x80)); /* the same length, 127 or more */
            patched++;
        }
    }
    const long cut = frames_of(copy, size, &pcs);
    CHECK_MSG(patched > 0 && whole > pcs && cut == pcs,
              "forward contexts end every chain at its own line: %d patched, %ld frames in %ld "
              "PCs, then %ld",
              patched, whole, pcs, cut);
    free(copy);
    free(cubin);
}

/* The int32-sum instance of a ladder kernel in the built cubins. */
static int find_kernel(const char *dir, const char *mangled, char *out, size_t len, uint64_t *code)
{
    static const char *files[] = {"classic.", "modern.", "unrolled."};
    static char names[1 << 20];
    out[0] = '\0';
    for (int i = 0; i < 3 && !out[0]; i++) {
        char path[4096];
        size_t size = 0;
        char *c = cubin_path(dir, files[i], path) ? read_file(path, &size) : NULL;
        if (c && rs_cubin_entries(c, size, names, sizeof names) > 0)
            for (char *t = strtok(names, " "); t; t = strtok(NULL, " "))
                if (strstr(t, mangled) && strstr(t, "SumOpIi")) snprintf(out, len, "%s", t);
        if (out[0]) *code = rs_cubin_entry_size(c, size, out);
        free(c);
    }
    return out[0] != '\0';
}

/* Every PC of the ladder's kernels: the innermost frame is CUPTI's line;
 * the outermost is in the kernel's own file. */
static void builtin(const char *dir)
{
    static const char *kernels[] = {"k_sequentialI",         "k_interleavedI", "k_vectorizedI",
                                    "k_cooperative_groupsI", "k_unrolledI",    "k_warp_shuffleI"};
    for (int k = 0; k < 6; k++) {
        char fn[512];
        uint64_t code = 0; /* CUPTI maps offsets past the kernel's end too: stop there */
        CHECK_MSG(find_kernel(dir, kernels[k], fn, sizeof fn, &code), "%s in %s", kernels[k], dir);
        int pcs = 0, agree = 0, deep = 0;
        for (uint64_t pc = 0; fn[0] && pc < code; pc += 16) {
            rs_src_frame f[RS_FRAMES_MAX];
            rs_error err;
            char file[512];
            unsigned line = 0;
            const int n = rs_builtin_chain(dir, 90, fn, pc, f, RS_FRAMES_MAX, &err);
            const rs_status st = rs_builtin_line(dir, 90, fn, pc, file, sizeof file, &line, &err);
            if (!n && st != RS_OK) continue;
            pcs++;
            agree += n && st == RS_OK && line == f[0].line && strcmp(file, f[0].file) == 0;
            deep += n > 1;
            if (n) CHECK(strstr(f[n - 1].file, "src/kernels/") && !strcmp(f[n - 1].function, fn));
        }
        CHECK_MSG(pcs > 20 && agree == pcs && deep > 0, "%s: %d of %d PCs agree, %d inlined",
                  kernels[k], agree, pcs, deep);
    }
}

static void names(void)
{
    static const char *cases[][2] = {
        {"void rs::tree_sequential<float, rs::MaxOp<float> >(float*, unsigned int)",
         "tree_sequential"},
        {"rs::MaxOp<float>::operator()(float, float) const", "MaxOp::operator()"},
        {"decltype ({parm#3}({parm#2}, {parm#2})) cooperative_groups::__v1::reduce<"
         "cooperative_groups::__v1::thread_block_tile<32u, cooperative_groups::__v1::"
         "thread_block>, float&, cooperative_groups::__v1::plus<float> >(a const&, b&&, c&&)",
         "cg::reduce"},
        {"_INTERNAL_ab899c07_9_modern_cu_3a3f61b0::__ldg(float const*)", "__ldg"},
        {"cuda::std::__4::plus<float>::operator()(float const&, float const&) const",
         "cuda::std::plus::operator()"},
        {"(anonymous namespace)::helper(int)", "helper"},
        {"k_plain", "k_plain"},
        {"", ""},
        {"bool operator< <int>(a, b)", "operator<"},
        {"cooperative_groups::__v1::thread_block_tile<32u, void>::operator cooperative_groups::"
         "__v1::thread_block_tile<32u, cooperative_groups::__v1::thread_block>() const",
         "cg::thread_block_tile::operator thread_block_tile"},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rs_function_short(cases[i][0], buf, sizeof buf);
        CHECK_STR_EQ(buf, cases[i][1]);
    }
    rs_function_short("void rs::tree_sequential<float>(float*)", buf, 6);
    CHECK_STR_EQ(buf, "tree_");
    rs_function_name("_ZN4demo6scaledEPKfi", buf, sizeof buf);
    CHECK_STR_EQ(buf, "demo::scaled");
    rs_function_name("k_chain", buf, sizeof buf); /* extern "C": as it is */
    CHECK_STR_EQ(buf, "k_chain");
    rs_function_name("_Znot a name", buf, sizeof buf);
    CHECK_STR_EQ(buf, "_Znot a name");
    rs_function_name(NULL, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
}

int main(int argc, char **argv)
{
    names();
    CHECK_MSG(argc > 3, "usage: test_line_table CHAIN_CUBIN CUBIN_DIR SOURCE_DIR");
    if (argc <= 3) return check_report("test_line_table");
    char src[4096];
    snprintf(src, sizeof src, "%s/tests/data/inline_chain.cu", argv[3]);
    chains(argv[1], src);
    hostile(argv[1]);
    builtin(argv[2]);
    return check_report("test_line_table");
}
