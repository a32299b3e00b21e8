/* A document written for people, Markdown or HTML (the lecture handout):
 * where it goes, and its one escape for text. */
#ifndef RS_DOC_H
#define RS_DOC_H

#include <stdio.h>

typedef struct rs_doc {
    FILE *f;
    int html;
} rs_doc;

/* Text as the document reads it, one line: HTML escaped; in Markdown the
 * characters that would start markup (a table's pipe, emphasis, code, an
 * HTML tag: source text such as static_cast<float>) escaped. */
void rs_doc_text(const rs_doc *d, const char *s);

#endif
