#include "doc.h"

#include <string.h>

void rs_doc_text(const rs_doc *d, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r')
            fputc(' ', d->f);
        else if (d->html && *s == '<')
            fputs("&lt;", d->f);
        else if (d->html && *s == '>')
            fputs("&gt;", d->f);
        else if (d->html && *s == '&')
            fputs("&amp;", d->f);
        else if (!d->html && strchr("\\|<>*`[]", *s))
            fprintf(d->f, "\\%c", *s);
        else
            fputc(*s, d->f);
    }
}
