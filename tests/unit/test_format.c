/* The notation's cut (core/format.c): at most cols columns with an
 * ellipsis, never a character split, never an escape of outside text
 * split ("\u202e" does not become "\u202"); a change in its one notation. */
#include <math.h>

#include "check.h"
#include "core/format.h"

int main(void)
{
    char buf[128];
    rs_notation_set(1);
    /* one notation for a change, the room choosing the decimals */
    CHECK(rs_fmt_change(7098086, 79860, 0, buf, sizeof buf) < 0);
    CHECK_STR_EQ(buf, "\u25bc99%");
    rs_fmt_change(7098086, 79860, 1, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25bc98.9%");
    CHECK(rs_fmt_change(12.5, 140.3, 0, buf, sizeof buf) > 0);
    CHECK_STR_EQ(buf, "\u25b2\u00d711");
    rs_fmt_change(12.5, 140.3, 1, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25b2\u00d711.2");
    /* a fall that is not to zero never reads as 100% (issue 40) */
    rs_fmt_change(1000, 1, 0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25bc99.9%");
    rs_fmt_change(100000, 1, 0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25bc99.999%");
    rs_fmt_change(1000, 0, 0, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25bc100%");
    CHECK(rs_fmt_change(100, 100.3, 1, buf, sizeof buf) == 0);
    CHECK_STR_EQ(buf, "=");
    rs_fmt_change(0, 5, 1, buf, sizeof buf);
    CHECK_STR_EQ(buf, "\u25b2 from 0");
    rs_fmt_change(NAN, 5, 1, buf, sizeof buf);
    CHECK_STR_EQ(buf, "");
    CHECK_STR_EQ(rs_fmt_cut("classic.cu", 20, buf, sizeof buf), "classic.cu");
    CHECK_STR_EQ(rs_fmt_cut("abcdefghij", 6, buf, sizeof buf), "abcde\u2026");
    CHECK_STR_EQ(rs_fmt_cut("µµµµµµµµ", 4, buf, sizeof buf), "µµµ\u2026");
    /* escapes: cut before the one the cut would split, kept where whole */
    CHECK_STR_EQ(rs_fmt_cut("ab\\u202eXYZ", 6, buf, sizeof buf), "ab\u2026");
    CHECK_STR_EQ(rs_fmt_cut("ab\\u202eXYZ", 9, buf, sizeof buf), "ab\\u202e\u2026");
    CHECK_STR_EQ(rs_fmt_cut("ab\\x1b[2J", 5, buf, sizeof buf), "ab\u2026");
    CHECK_STR_EQ(rs_fmt_cut("ab\\x1b[2J", 8, buf, sizeof buf), "ab\\x1b[\u2026");
    CHECK_STR_EQ(rs_fmt_cut("file\\nname.cu", 6, buf, sizeof buf), "file\u2026");
    CHECK_STR_EQ(rs_fmt_cut("a\\\\bcdef", 4, buf, sizeof buf), "a\\\\\u2026");
    rs_notation_set(0);
    CHECK_STR_EQ(rs_fmt_cut("ab\\u202eXYZ", 7, buf, sizeof buf), "ab...");
    return check_report("test_format");
}
