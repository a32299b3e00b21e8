/* Text that does not fit: where it is cut, and what is never cut. Pure
 * parts of src/ui/draw.c (no terminal needed), and the notation of ratios
 * and device memory they show. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/format.h"
#include "ui/draw.h"

/* The text ui_put would show in w columns, with "~" for the ellipsis. */
static const char *shown(const char *s, int w, char *buf)
{
    int cols, cut;
    const size_t n = ui_cut(s, w, &cols, &cut);
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (cut) strcat(buf, "~");
    return buf;
}

/* One row of text: tabs are blanks, a control character ends it. */
static void row_text(void)
{
    char line[64];
    const char *s = "abc\tdef\nghi";
    CHECK(ui_row_text(&s, line, sizeof line) == 1 && strcmp(s, "abc def") == 0);
    s = "a\x1b[2J";
    CHECK(ui_row_text(&s, line, sizeof line) == 1 && strcmp(s, "a") == 0);
    s = "done\n";
    CHECK(ui_row_text(&s, line, sizeof line) == 0 && strcmp(s, "done") == 0);
    const char *plain = "block 256 \xc2\xb5s";
    s = plain;
    CHECK(ui_row_text(&s, line, sizeof line) == 0 && s == plain);
}

/* Wrapped text cut to fewer lines than it needs ends in an ellipsis (here,
 * without a theme, "..."), within the width; text that fits does not. */
static void wrap_cut(void)
{
    char lines[3][256];
    int n = ui_wrap("the streaming read: 3086 GB/s measured", 12, lines, 2);
    CHECK_MSG(n == 2 && strcmp(lines[0], "the") == 0 && strcmp(lines[1], "streaming...") == 0,
              "%d [%s] [%s]", n, lines[0], lines[1]);
    n = ui_wrap("the streaming read", 10, lines, 2); /* "streaming" and the dots would be 12 */
    CHECK_MSG(n == 2 && strcmp(lines[1], "streami...") == 0 && ui_width(lines[1]) <= 10, "%d [%s]",
              n, lines[1]);
    n = ui_wrap("fits in two lines", 12, lines, 2);
    CHECK_MSG(n == 2 && strcmp(lines[1], "lines") == 0, "%d [%s]", n, lines[1]);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    char b[256];
    row_text();
    wrap_cut();
    CHECK(strcmp(shown("block 256", 20, b), "block 256") == 0);
    /* a number is never cut: "block 25" for "block 256" would lie */
    CHECK_MSG(strcmp(shown("n 2^24 block 256", 15, b), "n 2^24 block~") == 0, "%s", b);
    CHECK_MSG(strcmp(shown("15.9% of 4814", 11, b), "15.9% of~") == 0, "%s", b);
    /* nor a word that holds one */
    CHECK_MSG(strcmp(shown("grid 65536 1.0/thread", 19, b), "grid 65536~") == 0, "%s", b);
    /* words are cut with an ellipsis, no blank before it */
    CHECK_MSG(strcmp(shown("counters recorded", 12, b), "counters re~") == 0, "%s", b);
    CHECK_MSG(strcmp(shown("counters recorded", 10, b), "counters~") == 0, "%s", b);
    /* widths are columns, not bytes */
    CHECK(ui_width("87.9 \xc2\xb5s") == 7);
    CHECK(ui_width("\xe2\x96\xbc 99.2%") == 7);
    CHECK_MSG(strcmp(shown("87.9 \xc2\xb5s", 7, b), "87.9 \xc2\xb5s") == 0, "%s", b);
    /* padding counts columns: the micro sign does not shift a column */
    char p1[64], p2[64];
    CHECK(ui_width(ui_pad("87.9 \xc2\xb5s", 10, p1, sizeof p1)) == 10);
    CHECK(ui_width(ui_pad("67.2 MB", 10, p2, sizeof p2)) == 10);
    /* degenerate widths */
    CHECK(ui_cut("abc", 0, &(int){0}, &(int){0}) == 0);
    CHECK(ui_cut("", 5, &(int){0}, &(int){0}) == 0);
    /* a ratio below a tenth reads as its inverse: 1.59 ms / 471 ms is
     * /296 (never x0.00, nor x0.0034, which reads as a speedup) */
    rs_fmt_ratio(1.59 / 471.0, 1, b, sizeof b);
    CHECK_MSG(strcmp(b, "\xc3\xb7"
                        "296") == 0,
              "%s", b);
    rs_fmt_ratio(0.05, 0, b, sizeof b);
    CHECK_MSG(strcmp(b, "/20.0") == 0, "%s", b);
    rs_fmt_ratio(0.93, 0, b, sizeof b);
    CHECK_MSG(strcmp(b, "x0.93") == 0, "%s", b);
    rs_fmt_ratio(1622.4, 0, b, sizeof b);
    CHECK_MSG(strcmp(b, "x1622") == 0, "%s", b);
    /* device memory in GiB as the driver counts it: an H200's 150109880320
     * bytes are 140 GiB (not "150 GB"), an H100 80GB HBM3 reports 85029158912: 79 */
    rs_fmt_mem(150109880320.0, b, sizeof b);
    CHECK_MSG(strcmp(b, "140 GiB") == 0, "%s", b);
    rs_fmt_mem(85029158912.0, b, sizeof b);
    CHECK_MSG(strcmp(b, "79 GiB") == 0, "%s", b);
    return check_report("test_draw");
}
