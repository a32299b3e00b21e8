/* Kernel functions' names for people (nvtools/demangle.c): mangled names
 * as redscope's own cubins hold them (in their symbol tables, and in
 * .debug_str for the functions of their line tables) made short, as
 * demangle.h promises; a name that is not mangled kept as it is; garbage,
 * NULL, deep nesting and small buffers survived, never overrun.
 *   test_demangle CUBIN_DIR */
#include <stdlib.h>

#include "check.h"
#include "cubin_files.h"
#include "nvtools/cubin.h"
#include "nvtools/demangle.h"
#include "read_file.h"

static char got[512];

static const char *name(const char *mangled)
{
    rs_function_name(mangled, got, sizeof got);
    return got;
}

/* Names copied from the built cubins (sm_90): _INTERNAL_<hash> is nvcc's
 * namespace for one file's static functions, __v1 and __4 are versioned
 * namespaces, _GLOBAL__N_ an anonymous one. */
static void real_names(void)
{
    static const char *cases[][2] = {
        {"_ZN2rs15tree_sequentialIfNS_5MaxOpIfEEEEvPT_j", "tree_sequential"},
        {"_ZN2rs15tree_sequentialIiNS_5SumOpIiEEEEvPT_j", "tree_sequential"},
        {"_ZNK2rs5MaxOpIfEclEff", "MaxOp::operator()"},
        {"_ZNK2rs5ToAccI13__nv_bfloat16fEclERKS1_", "ToAcc::operator()"},
        {"_ZN18cooperative_groups4__v16reduceINS0_17thread_block_tileILj32EvEERfRKNS0_4plusIfEEEE"
         "DTclfp1_fp0_fp0_EERKT_OT0_OT1_",
         "cg::reduce"},
        {"_ZN18cooperative_groups4__v17details16coalesced_reduceIRdRKNS0_4lessIdEELj32EvEEDTclfp1_"
         "fp0_fp0_EERKNS0_31__single_warp_thread_block_tileIXT1_ET2_EEOT_OT0_",
         "cg::details::coalesced_reduce"},
        {"_ZN18cooperative_groups4__v112thread_block4syncEv", "cg::thread_block::sync"},
        {"_ZNK18cooperative_groups4__v117thread_block_tileILj32ENS0_12thread_blockEEcvNS1_ILj32EvEE"
         "Ev",
         "cg::thread_block_tile::operator thread_block_tile"},
        {"_ZN39_INTERNAL_2e0d5d9d_9_modern_cu_3a3f61b05__ldgEPK5uint4", "__ldg"},
        {"_ZN43_INTERNAL_54ce96cb_12_bandwidth_cu_f8840db75__ldgEPK5uint4", "__ldg"},
        {"_ZN41_INTERNAL_638f076d_10_classic_cu_e85821b26__ldcgEPKf", "__ldcg"},
        {"_ZN39_INTERNAL_2e0d5d9d_9_modern_cu_3a3f61b016__shfl_down_syncEjfji", "__shfl_down_sync"},
        {"_ZN39_INTERNAL_2e0d5d9d_9_modern_cu_3a3f61b09atomicAddEPff", "atomicAdd"},
        {"_ZN41_INTERNAL_9661a700_10_library_cu_e923bbe44cuda3ptx3__415get_sreg_laneidIvEEjv",
         "cuda::ptx::get_sreg_laneid"},
        {"_ZNK4cuda3std3__44plusIfEclERKfS5_", "cuda::std::plus::operator()"},
        {"_ZN2rs11warp_reduceIfNS_5SumOpIfEEEET_S3_", "warp_reduce"},
        {"_ZN2rs12k_sequentialIiiNS_5SumOpIiEEEEvPKT_yNS_3FinIT0_EE", "k_sequential"},
        {"_ZN2rs10k_unrolledILj1024E13__nv_bfloat16fNS_5MaxOpIfEEEEvPKT0_yNS_3FinIT1_EE",
         "k_unrolled"},
        {"_ZN40_GLOBAL__N__82c64ab6_8_multi_cu_2dbfea1d9k_partialIdN2rs6ProdOpIdEEEEvPT_PKS4_",
         "k_partial"},
        {"_Z13k_stream_readPK5uint4mPy", "k_stream_read"},
        {"_Z7k_emptyv", "k_empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR_EQ(name(cases[i][0]), cases[i][1]);
}

/* Not mangled, or not a name: kept as it is. */
static void as_they_are(void)
{
    static const char *kept[] = {
        "k_chain",
        "tree_sequential",
        "main",
        "_",
        "_Z",
        "_Z_",
        "_Zz",
        "Z3foov",
        "__Z3foov",
        "_ZN2rs15tree_sequential", /* cut short */
        "_ZN2rs15tree_sequentialIfNS_5MaxOp",
        "_Z3foo(",
        "_Z\xff\xfe\x01",
        "not a _Z name",
        "MaxOp::operator()", /* already demangled: not touched */
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) CHECK_STR_EQ(name(kept[i]), kept[i]);
    CHECK_STR_EQ(name(""), "");
    CHECK_STR_EQ(name(NULL), "");
    char buf[8] = "#######";
    rs_function_short(NULL, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
}

/* The bytes of buf from len on stay '#'. */
static int untouched(const char *buf, size_t len, size_t size)
{
    for (size_t i = len; i < size; i++)
        if (buf[i] != '#') return 0;
    return 1;
}

static void small_buffers(void)
{
    char buf[32];
    memset(buf, '#', sizeof buf);
    rs_function_name("_ZN2rs15tree_sequentialIfNS_5MaxOpIfEEEEvPT_j", buf, 0);
    CHECK(untouched(buf, 0, sizeof buf));
    rs_function_short("void rs::tree_sequential<float>(float*)", buf, 0);
    CHECK(untouched(buf, 0, sizeof buf));
    rs_function_name("_ZN2rs15tree_sequentialIfNS_5MaxOpIfEEEEvPT_j", buf, 1);
    CHECK(buf[0] == '\0' && untouched(buf, 1, sizeof buf));
    rs_function_name("_ZN2rs15tree_sequentialIfNS_5MaxOpIfEEEEvPT_j", buf, 6);
    CHECK(strcmp(buf, "tree_") == 0 && untouched(buf, 6, sizeof buf));
    memset(buf, '#', sizeof buf);
    rs_function_name("_ZN39_INTERNAL_2e0d5d9d_9_modern_cu_3a3f61b016__shfl_down_syncEjfji", buf, 8);
    CHECK(strcmp(buf, "__shfl_") == 0 && untouched(buf, 8, sizeof buf));
    memset(buf, '#', sizeof buf);
    rs_function_name("_ZN18cooperative_groups4__v112thread_block4syncEv", buf, 5);
    CHECK(strcmp(buf, "cg::") == 0 && untouched(buf, 5, sizeof buf));
    memset(buf, '#', sizeof buf);
    rs_function_name("k_not_mangled_and_long", buf, 8);
    CHECK(strcmp(buf, "k_not_m") == 0 && untouched(buf, 8, sizeof buf));
}

/* Deep or endless mangling, and demangled text no compiler writes: an
 * answer that fits, no crash (the CI runs this under ASan). */
static void garbage(void)
{
    const size_t n = 100000;
    char *s = malloc(4 * n + 16);
    CHECK(s != NULL);
    if (!s) return;
    static const char *const unit[] = {"P", "1a", "N1aI", "I", "("};
    for (size_t u = 0; u < sizeof unit / sizeof unit[0]; u++) {
        const size_t ul = strlen(unit[u]);
        strcpy(s, "_Z1f");
        for (size_t i = 0; i < n; i++) memcpy(s + 4 + i * ul, unit[u], ul);
        strcpy(s + 4 + n * ul, "v");
        CHECK_MSG(strlen(name(s)) < sizeof got, "%zu", strlen(got));
    }
    free(s);
    static const char *odd[] = {
        "))))",         "((((",      "<<<<",        ">>>>",
        "::",           "a::",       "::a",         "rs::",
        "operator",     "operator ", " operator()", "int f(",
        "f()) const &", "  ",        "a<b(c>d)e",   "(anonymous namespace)::"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char buf[24];
        memset(buf, '#', sizeof buf);
        rs_function_short(odd[i], buf, 16);
        CHECK_MSG(memchr(buf, '\0', 16) && untouched(buf, 16, sizeof buf), "'%s'", odd[i]);
    }
}

/* A short name is a name: no return type, template argument, parameter or
 * internal namespace left; "operator()" and a conversion's "operator T"
 * hold its only parentheses and spaces. */
static int short_and_clean(const char *s)
{
    static const char *const banned[] = {"rs::",    "_INTERNAL_", "cooperative_groups::",
                                         "__v1::",  "::__4::",    "(anonymous",
                                         "_GLOBAL_"};
    if (!s[0] || strncmp(s, "_Z", 2) == 0) return 0;
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
        if (strstr(s, banned[i])) return 0;
    for (const char *p = s; *p; p++) {
        const int after_op = p - s >= 8 && strncmp(p - 8, "operator", 8) == 0;
        if (strchr("<>", *p) && !after_op) return 0;
        if (strchr(",*&", *p)) return 0;
        if (*p == ' ' && !after_op) return 0;
        if (*p == '(' && !(after_op && strcmp(p, "()") == 0)) return 0;
        if (*p == ')' && strcmp(p - 1, "()") != 0) return 0;
    }
    return 1;
}

typedef struct seen {
    int kernels, functions;
    unsigned found; /* bits: wanted[] */
} seen;

static const char *const wanted[] = {"tree_sequential", "MaxOp::operator()", "cg::reduce",
                                     "__ldg",           "warp_reduce",       "k_sequential"};

static void one_name(seen *w, const char *path, const char *mangled, int kernel)
{
    const char *s = name(mangled);
    CHECK_MSG(short_and_clean(s), "%s: %s gives '%s'", path, mangled, s);
    if (kernel && strncmp(mangled, "_ZN2rs", 6) == 0) /* redscope's own kernels */
        CHECK_MSG(strncmp(s, "k_", 2) == 0, "%s: kernel %s gives '%s'", path, mangled, s);
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (strcmp(s, wanted[i]) == 0) w->found |= 1u << i;
}

/* Every kernel of a cubin (its symbol table) and every function of its
 * line table (the mangled names in .debug_str). */
static void one_cubin(const char *path, void *ctx)
{
    seen *w = ctx;
    size_t size = 0;
    char *c = read_file(path, &size);
    static char names[1 << 20];
    const int n = c ? rs_cubin_entries(c, size, names, sizeof names) : -1;
    CHECK_MSG(n >= 0, "%s is a 64-bit ELF", path);
    for (char *t = strtok(names, " "); n > 0 && t; t = strtok(NULL, " ")) {
        one_name(w, path, t, 1);
        w->kernels++;
    }
    const unsigned char *sh = c ? elf_section_header(c, size, ".debug_str") : NULL;
    const uint64_t off = sh ? elf_rd(sh + 24, 8) : 0, len = sh ? elf_rd(sh + 32, 8) : 0;
    if (sh && off <= size && len <= size - off && len && c[off + len - 1] == '\0')
        for (const char *p = c + off; p < c + off + len; p += strlen(p) + 1)
            if (strncmp(p, "_Z", 2) == 0) {
                one_name(w, path, p, 0);
                w->functions++;
            }
    free(c);
}

int main(int argc, char **argv)
{
    real_names();
    as_they_are();
    small_buffers();
    garbage();
    CHECK_MSG(argc > 1, "usage: test_demangle CUBIN_DIR");
    if (argc <= 1) return check_report("test_demangle");
    seen w = {0};
    CHECK_MSG(each_cubin(argv[1], NULL, one_cubin, &w) > 0, "no cubin in %s", argv[1]);
    CHECK_MSG(w.kernels > 100 && w.functions > 100, "%d kernels, %d functions", w.kernels,
              w.functions);
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        CHECK_MSG(w.found & (1u << i), "no %s among the cubins' names", wanted[i]);
    printf("test_demangle: %d kernels and %d functions of line tables in %s\n", w.kernels,
           w.functions, argv[1]);
    return check_report("test_demangle");
}
