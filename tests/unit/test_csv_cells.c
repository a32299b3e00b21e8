/* CSV's cells (formats/csv_cells.c), one rule for every writer: text quoted
 * with its quotes doubled, so a quote or a comma stays in one field; a
 * figure to 6 significant digits, a whole quantity in full, nothing where
 * a figure is not finite; a header's cells are its commas and one. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "formats/export.h"

static char got[256];

/* What fn printed for v, into got. */
static const char *printed(void (*fn)(FILE *, double), double v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, v);
    fclose(f);
    snprintf(got, sizeof got, "%s", buf);
    free(buf);
    return got;
}

static const char *field(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rs_csv_field(f, s);
    fclose(f);
    snprintf(got, sizeof got, "%s", buf);
    free(buf);
    return got;
}

static void fields(void)
{
    CHECK_STR_EQ(field("sequential"), "\"sequential\"");
    /* a formula from recorded text stays text in a spreadsheet (OWASP) */
    CHECK_STR_EQ(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    CHECK_STR_EQ(field("+1"), "\"'+1\"");
    CHECK_STR_EQ(field("-cmd"), "\"'-cmd\"");
    CHECK_STR_EQ(field("@SUM(A1)"), "\"'@SUM(A1)\"");
    CHECK_STR_EQ(field("a=b"), "\"a=b\"");
    CHECK_STR_EQ(field(""), "\"\"");
    CHECK_STR_EQ(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    CHECK_STR_EQ(field("\""), "\"\"\"\"");
    CHECK_STR_EQ(field("a, b,c"), "\"a, b,c\"");
    /* a note with both: one field, read back by counting quotes */
    CHECK_STR_EQ(field("1,\"2\",3"), "\"1,\"\"2\"\",3\"");
    CHECK_STR_EQ(field("\xc2\xb5s"), "\"\xc2\xb5s\"");
}

static void figures(void)
{
    CHECK_STR_EQ(printed(rs_csv_num, 2.5), "2.5");
    CHECK_STR_EQ(printed(rs_csv_num, 1.0 / 3.0), "0.333333");
    CHECK_STR_EQ(printed(rs_csv_num, 3271.987654), "3271.99");
    CHECK_STR_EQ(printed(rs_csv_num, 16777216.0), "1.67772e+07");
    CHECK_STR_EQ(printed(rs_csv_num, -0.000123456789), "-0.000123457");
    CHECK_STR_EQ(printed(rs_csv_num, 0.0), "0");
    CHECK_STR_EQ(printed(rs_csv_num, NAN), "");
    CHECK_STR_EQ(printed(rs_csv_num, INFINITY), "");
    CHECK_STR_EQ(printed(rs_csv_num, -INFINITY), "");
}

static void wholes(void)
{
    CHECK_STR_EQ(printed(rs_csv_whole, 16777216.0), "16777216");
    CHECK_STR_EQ(printed(rs_csv_whole, 1099511627776.0), "1099511627776");
    CHECK_STR_EQ(printed(rs_csv_whole, 123456789012345.0), "123456789012345");
    CHECK_STR_EQ(printed(rs_csv_whole, 0.0), "0");
    CHECK_STR_EQ(printed(rs_csv_whole, NAN), "");
    CHECK_STR_EQ(printed(rs_csv_whole, INFINITY), "");
}

static void cells(void)
{
    CHECK(rs_csv_cells("variant,n,median_ms") == 3);
    CHECK(rs_csv_cells("variant") == 1);
    CHECK(rs_csv_cells("a,,b,") == 4);
    CHECK(rs_csv_cells("") == 1);
}

int main(void)
{
    fields();
    figures();
    wholes();
    cells();
    return check_report("test_csv_cells");
}
