/* CSV's cells, one rule for every writer (docs/formats.md): text quoted
 * with quotes doubled, whole quantities in full, other figures to 6
 * significant digits, nothing where a figure is not finite. */
#include <math.h>
#include <string.h>

#include "export.h"

void rs_csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    /* a cell a spreadsheet would take for a formula (OWASP: = + - @, a tab
     * or a carriage return first) is text: a quote before it */
    if (*s && strchr("=+-@\t\r", *s)) fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void rs_csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.6g", v);
}

void rs_csv_whole(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.15g", v);
}

int rs_csv_cells(const char *header)
{
    int n = 1;
    for (; *header; header++) n += *header == ',';
    return n;
}
