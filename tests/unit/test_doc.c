/* A document's one escape for text (formats/doc.c): one line, newlines
 * and carriage returns as spaces; in HTML <, > and & as entities; in
 * Markdown \ | < > * ` [ ] each behind a backslash, so source text such as
 * static_cast<float> or a pipe never starts markup or a table cell. */
#include <stdlib.h>

#include "check.h"
#include "formats/doc.h"

static char got[512];

/* What rs_doc_text wrote for s, HTML or Markdown, into got. */
static const char *text(int html, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    rs_doc d = {open_memstream(&buf, &len), html};
    rs_doc_text(&d, s);
    fclose(d.f);
    snprintf(got, sizeof got, "%s", buf);
    free(buf);
    return got;
}

static void html(void)
{
    CHECK_STR_EQ(text(1, "plain words, 42%"), "plain words, 42%");
    CHECK_STR_EQ(text(1, "a<b>&c"), "a&lt;b&gt;&amp;c");
    CHECK_STR_EQ(text(1, "static_cast<float>(x)"), "static_cast&lt;float&gt;(x)");
    CHECK_STR_EQ(text(1, "&amp;"), "&amp;amp;");
    /* Markdown's characters mean nothing in HTML: left as they are */
    CHECK_STR_EQ(text(1, "a|b*c`d[e]f\\g"), "a|b*c`d[e]f\\g");
}

static void markdown(void)
{
    CHECK_STR_EQ(text(0, "plain words, 42%"), "plain words, 42%");
    CHECK_STR_EQ(text(0, "a|b"), "a\\|b");
    CHECK_STR_EQ(text(0, "*bold* `code`"), "\\*bold\\* \\`code\\`");
    CHECK_STR_EQ(text(0, "[link]"), "\\[link\\]");
    CHECK_STR_EQ(text(0, "static_cast<float>"), "static_cast\\<float\\>");
    CHECK_STR_EQ(text(0, "a\\b"), "a\\\\b");
    CHECK_STR_EQ(text(0, "a & b"), "a & b");
}

static void one_line(void)
{
    CHECK_STR_EQ(text(0, "one\ntwo"), "one two");
    CHECK_STR_EQ(text(1, "one\ntwo"), "one two");
    CHECK_STR_EQ(text(0, "one\r\ntwo\rthree"), "one  two three");
    CHECK_STR_EQ(text(1, "<a>\n&"), "&lt;a&gt; &amp;");
    CHECK_STR_EQ(text(0, ""), "");
}

int main(void)
{
    html();
    markdown();
    one_line();
    return check_report("test_doc");
}
