/* SASS opcodes in words (core/sass_op.c): the base name without modifiers,
 * and what an instruction is in a student's words; a small buffer is cut,
 * never overrun. */
#include "check.h"
#include "core/sass_op.h"

static char got[128];

static const char *base(const char *opcode)
{
    rs_sass_base(opcode, got, sizeof got);
    return got;
}

static const char *what(const char *opcode)
{
    rs_sass_what(opcode, got, sizeof got);
    return got;
}

/* fn's output in a buffer of len bytes inside a larger one: the bytes
 * after len stay as they were; returns whether they did. */
static int stays_in(void (*fn)(const char *, char *, size_t), const char *opcode, size_t len,
                    char *out, size_t out_len)
{
    char buf[64];
    memset(buf, '#', sizeof buf);
    fn(opcode, buf, len);
    for (size_t i = len; i < sizeof buf; i++)
        if (buf[i] != '#') return 0;
    snprintf(out, out_len, "%.*s", (int)len, buf);
    return len == 0 || memchr(buf, '\0', len) != NULL;
}

static void bases(void)
{
    CHECK_STR_EQ(base("LDG.E.128.CONSTANT"), "LDG");
    CHECK_STR_EQ(base("BAR.SYNC.DEFER_BLOCKING"), "BAR");
    CHECK_STR_EQ(base("FADD"), "FADD"); /* no modifiers */
    CHECK_STR_EQ(base(""), "");
    CHECK_STR_EQ(base(".E"), "");
    char cut[16];
    CHECK(stays_in(rs_sass_base, "LDG.E.128", 3, cut, sizeof cut));
    CHECK_STR_EQ(cut, "LD");
    CHECK(stays_in(rs_sass_base, "MEMBAR.SC.GPU", 4, cut, sizeof cut));
    CHECK_STR_EQ(cut, "MEM");
    CHECK(stays_in(rs_sass_base, "LDG.E", 1, cut, sizeof cut));
    CHECK_STR_EQ(cut, "");
    CHECK(stays_in(rs_sass_base, "LDG.E", 0, cut, sizeof cut)); /* nothing written */
}

static void loads(void)
{
    CHECK_STR_EQ(what("LDG.E.128.CONSTANT"), "16-byte global load");
    CHECK_STR_EQ(what("LDG.E.128"), "16-byte global load");
    CHECK_STR_EQ(what("LDG.E.64.CONSTANT"), "8-byte global load");
    CHECK_STR_EQ(what("LDG.E.CONSTANT"), "4-byte global load");
    CHECK_STR_EQ(what("LDG.E"), "4-byte global load");
    CHECK_STR_EQ(what("LDG"), "4-byte global load");
    CHECK_STR_EQ(what("LDG.E.U8"), "1-byte global load");
    CHECK_STR_EQ(what("LDG.E.S8.CONSTANT"), "1-byte global load");
    CHECK_STR_EQ(what("LDG.E.U16"), "2-byte global load");
    CHECK_STR_EQ(what("LDG.E.S16"), "2-byte global load");
    CHECK_STR_EQ(what("LD.E.64"), "8-byte global load");
    CHECK_STR_EQ(what("LDS"), "shared-memory load");
    CHECK_STR_EQ(what("LDS.U.128"), "shared-memory load"); /* the size is for global loads */
    CHECK_STR_EQ(what("LDSM.16.M88.4"), "shared-memory load");
    CHECK_STR_EQ(what("LDL.64"), "local-memory load");
    CHECK_STR_EQ(what("LDC.64"), "constant load");
}

static void others(void)
{
    CHECK_STR_EQ(what("ATOMS.ADD"), "shared-memory atomic");
    CHECK_STR_EQ(what("ATOMS.CAS.64"), "shared-memory atomic");
    CHECK_STR_EQ(what("ATOMG.E.ADD.STRONG.GPU"), "atomic");
    CHECK_STR_EQ(what("ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU"), "atomic");
    CHECK_STR_EQ(what("SHFL.BFLY.PT"), "shuffle");
    CHECK_STR_EQ(what("SHFL.DOWN"), "shuffle");
    CHECK_STR_EQ(what("REDUX.SUM.S32"), "warp reduction (redux.sync)");
    CHECK_STR_EQ(what("MUFU.RCP"), "special-function op");
    CHECK_STR_EQ(what("BAR.SYNC.DEFER_BLOCKING"), "barrier");
    CHECK_STR_EQ(what("BAR.SYNC"), "barrier");
    CHECK_STR_EQ(what("MEMBAR.SC.GPU"), "memory fence");
    CHECK_STR_EQ(what("MEMBAR.ALL.CTA"), "memory fence");
    CHECK_STR_EQ(what("S2R"), "special-register read");
    CHECK_STR_EQ(what("F2I.TRUNC.NTZ"), "conversion");
    CHECK_STR_EQ(what("I2F.S64"), "conversion");
    CHECK_STR_EQ(what("F2F.F64.F32"), "conversion");
    /* anything else: its base name */
    CHECK_STR_EQ(what("FADD.FTZ"), "FADD");
    CHECK_STR_EQ(what("IMAD.WIDE.U32"), "IMAD");
    CHECK_STR_EQ(what("STG.E.128"), "STG");
    CHECK_STR_EQ(what("FX2"), "FX2");
    CHECK_STR_EQ(what(""), "");
}

/* A long opcode, and buffers of 1 and 8 bytes: cut, never overrun. */
static void small_buffers(void)
{
    char cut[16];
    CHECK(stays_in(rs_sass_what, "LDG.E.128.CONSTANT", 1, cut, sizeof cut));
    CHECK_STR_EQ(cut, "");
    CHECK(stays_in(rs_sass_what, "LDG.E.128.CONSTANT", 8, cut, sizeof cut));
    CHECK_STR_EQ(cut, "16-byte");
    CHECK(stays_in(rs_sass_what, "MEMBAR.SC.GPU", 8, cut, sizeof cut));
    CHECK_STR_EQ(cut, "memory ");
    CHECK(stays_in(rs_sass_what, "ATOMS.ADD", 8, cut, sizeof cut));
    CHECK_STR_EQ(cut, "shared-");
    CHECK(stays_in(rs_sass_what, "XYZZYXYZZYXYZZY.E", 8, cut, sizeof cut));
    CHECK_STR_EQ(cut, "XYZZYXY");
    CHECK(stays_in(rs_sass_what, "SHFL.BFLY.PT", 0, cut, sizeof cut));
    /* a base name longer than the module's own 40 bytes: cut to 39 */
    char op[200];
    memset(op, 'Q', sizeof op - 1);
    op[sizeof op - 1] = '\0';
    op[120] = '.';
    CHECK_MSG(strlen(what(op)) == 39 && got[0] == 'Q', "%zu bytes", strlen(got));
}

int main(void)
{
    bases();
    loads();
    others();
    small_buffers();
    return check_report("test_sass_op");
}
