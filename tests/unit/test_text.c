/* Text from outside (core/text.c): a path's last part; every control
 * character, C1 and bidirectional control and every byte that is not UTF-8
 * shown as an escape, one line unless keep_lines keeps newlines and tabs,
 * cut never inside an escape or a character; what is plain; UTF-8's
 * character lengths, strict; and where bytes stop being text. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/text.h"

static char out[256];

static const char *safe(const char *s, int keep_lines)
{
    return rs_text_safe(s, keep_lines, out, sizeof out);
}

static void path_base(void)
{
    CHECK_STR_EQ(rs_path_base("/home/me/kernels/mine.cu"), "mine.cu");
    CHECK_STR_EQ(rs_path_base("a/b/c"), "c");
    CHECK_STR_EQ(rs_path_base("mine.cu"), "mine.cu");
    CHECK_STR_EQ(rs_path_base("kernels/"), "");
    CHECK_STR_EQ(rs_path_base(""), "");
    CHECK_STR_EQ(rs_path_base(NULL), "");
}

static void escapes(void)
{
    CHECK_STR_EQ(safe("H200 \xc2\xb5s \xc3\x97 \xe2\x80\xa6", 0),
                 "H200 \xc2\xb5s \xc3\x97 \xe2\x80\xa6");
    CHECK_STR_EQ(safe("a\x1b[2Jb", 0), "a\\x1b[2Jb");
    CHECK_STR_EQ(safe("\x01z\x7f", 0), "\\x01z\\x7f");
    CHECK_STR_EQ(safe("c1 \xc2\x85 \xc2\x9b", 0), "c1 \\u0085 \\u009b");
    CHECK_STR_EQ(safe("left \xe2\x80\xae right", 0), "left \\u202e right");
    CHECK_STR_EQ(safe("\xe2\x81\xa6\xe2\x81\xa9\xd8\x9c\xe2\x80\x8f", 0),
                 "\\u2066\\u2069\\u061c\\u200f");
    CHECK_STR_EQ(safe("para\xe2\x80\xa8", 0), "para\\u2028");
    CHECK_STR_EQ(safe("bad \xff\xc3 end", 0), "bad \\xff\\xc3 end");
    CHECK_STR_EQ(safe(NULL, 0), "");
    /* one field, one line */
    CHECK_STR_EQ(safe("x\ty\nz", 0), "x\\ty\\nz");
    CHECK_STR_EQ(safe("a\r\nb", 0), "a\\x0d\\nb");
}

static void keep_lines(void)
{
    CHECK_STR_EQ(safe("x\ty\nz", 1), "x\ty\nz");
    CHECK_STR_EQ(safe("a\r\nb\r\n", 1), "a\nb\n");
    CHECK_STR_EQ(safe("a\rb", 1), "a\\x0db"); /* a CR alone is no line end */
    CHECK_STR_EQ(safe("\x1b[0m\n\xe2\x80\xae", 1), "\\x1b[0m\n\\u202e");
}

static void cut(void)
{
    char small[8];
    CHECK_STR_EQ(rs_text_safe("ab\x1b", 0, small, 6), "ab"); /* "\x1b" would not fit whole */
    CHECK_STR_EQ(rs_text_safe("ab\x1b", 0, small, 7), "ab\\x1b");
    CHECK_STR_EQ(rs_text_safe("a\xc3\x97\xc3\x97", 0, small, 5), "a\xc3\x97");
    CHECK_STR_EQ(rs_text_safe("abcdefghij", 0, small, sizeof small), "abcdefg");
    small[0] = 'x';
    rs_text_safe("abc", 0, small, 0); /* no room: nothing written */
    CHECK(small[0] == 'x');
    char *dup = rs_text_safe_dup("\xe2\x80\xae\x1b", 0);
    CHECK(dup && strcmp(dup, "\\u202e\\x1b") == 0);
    free(dup);
    char in_place[] = "ok\x1b!";
    rs_text_scrub(in_place, 0); /* what fits in its own room */
    CHECK_STR_EQ(in_place, "ok");
}

static void plain(void)
{
    CHECK(rs_text_plain("vectorized \xc2\xb5s \xe2\x96\xb2"));
    CHECK(rs_text_plain(""));
    CHECK(rs_text_plain(NULL));
    CHECK(!rs_text_plain("a\nb"));
    CHECK(!rs_text_plain("a\tb"));
    CHECK(!rs_text_plain("\x1b[2J"));
    CHECK(!rs_text_plain("del\x7f"));
    CHECK(!rs_text_plain("c1\xc2\x9b"));
    CHECK(!rs_text_plain("bidi\xe2\x80\xae"));
    CHECK(!rs_text_plain("bad\xff"));
    CHECK(rs_text_bidi(0x202e) && rs_text_bidi(0x2066) && !rs_text_bidi(0x2070));
    /* invisible text reads as other text: a zero-width space, a BOM, a tag */
    CHECK(!rs_text_plain("zw\xe2\x80\x8b"
                         "sp") &&
          !rs_text_plain("\xef\xbb\xbf"
                         "bom"));
    CHECK(!rs_text_plain("tag\xf3\xa0\x81\x81") && rs_text_plain("caf\xc3\xa9 \xce\xbcs"));
    char cut[5];
    rs_text_copy(cut, sizeof cut,
                 "ab\xce\xbc"
                 "c"); /* "abμc" in 5 bytes: μ would be halved */
    CHECK_STR_EQ(cut, "ab\xce\xbc");
    rs_text_copy(cut, 4, "ab\xce\xbc");
    CHECK_STR_EQ(cut, "ab");
    rs_text_copy(cut, sizeof cut, NULL);
    CHECK_STR_EQ(cut, "");
    char shown[64];
    CHECK_STR_EQ(rs_text_safe("a\xe2\x80\x8b"
                              "b\xf3\xa0\x81\x81"
                              "c",
                              0, shown, sizeof shown),
                 "a\\u200bb\\U000e0041c");
}

static void utf8(void)
{
    CHECK(rs_utf8_len("a", 1) == 1);
    CHECK(rs_utf8_len("\xc2\xb5", 2) == 2);
    CHECK(rs_utf8_len("\xe2\x82\xac", 3) == 3);
    CHECK(rs_utf8_len("\xf0\x9f\x98\x80", 4) == 4);
    CHECK(rs_utf8_len("\xf4\x8f\xbf\xbf", 4) == 4); /* U+10FFFF, the last */
    CHECK(rs_utf8_len("\xe2\x82\xac", 2) == 0);     /* cut short by n */
    CHECK(rs_utf8_len("a", 0) == 0);
    CHECK(rs_utf8_len("\xe2\x82z", 3) == 0); /* cut short by the text */
    CHECK(rs_utf8_len("\x80", 1) == 0);      /* a continuation alone */
    CHECK(rs_utf8_len("\xc0\x80", 2) == 0);  /* overlong NUL */
    CHECK(rs_utf8_len("\xc1\xbf", 2) == 0);
    CHECK(rs_utf8_len("\xe0\x80\xaf", 3) == 0);
    CHECK(rs_utf8_len("\xf0\x8f\xbf\xbf", 4) == 0);
    CHECK(rs_utf8_len("\xed\xa0\x80", 3) == 0);     /* a surrogate */
    CHECK(rs_utf8_len("\xed\x9f\xbf", 3) == 3);     /* U+D7FF, just below */
    CHECK(rs_utf8_len("\xf4\x90\x80\x80", 4) == 0); /* above U+10FFFF */
    CHECK(rs_utf8_len("\xf5\x80\x80\x80", 4) == 0);
    CHECK(rs_utf8_len("\xff", 1) == 0);
}

static void problem(void)
{
    size_t at = 99;
    CHECK(rs_text_problem("a text\n\xc2\xb5s\n", 11, &at) == NULL);
    CHECK(rs_text_problem("", 0, &at) == NULL);
    const char *p = rs_text_problem("ab\0cd", 5, &at);
    CHECK(p && strcmp(p, "a NUL byte") == 0);
    CHECK_MSG(at == 2, "the NUL at %zu, not 2", at);
    p = rs_text_problem("\xc2\xb5\xc2\xb5z\xff", 6, &at);
    CHECK(p && strcmp(p, "bytes that are not UTF-8") == 0);
    CHECK_MSG(at == 5, "the bad byte at %zu, not 5", at);
    p = rs_text_problem("ok \xe2\x82", 5, &at); /* a character cut at the end */
    CHECK(p && strcmp(p, "bytes that are not UTF-8") == 0 && at == 3);
    CHECK(rs_text_problem("ab\0cd", 2, &at) == NULL); /* only the len given */
    CHECK(rs_text_problem("\xed\xa0\x80", 3, NULL) != NULL);
    CHECK(rs_text_line("one\ntwo\nthree", 9) == 3 && rs_text_line("one\n", 0) == 1);
}

int main(void)
{
    path_base();
    escapes();
    keep_lines();
    cut();
    plain();
    utf8();
    problem();
    return check_report("test_text");
}
