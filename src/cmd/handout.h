/* The handout's parts (handout.c, handout_sweep.c): the document it is
 * written to and its one escape for text. */
#ifndef RS_CMD_HANDOUT_H
#define RS_CMD_HANDOUT_H

#include <stdio.h>

#include "core/request.h"

typedef struct rs_doc {
    FILE *f;
    int html;
} rs_doc;

/* Text as the document reads it, one line: HTML escaped; in Markdown the
 * characters that would start markup (a table's pipe, emphasis, code, an
 * HTML tag: source text such as static_cast<float>) escaped. */
void rs_doc_text(const rs_doc *d, const char *s);

/* With --replay FILE: where FILE holds a sweep of the ladder's type,
 * operation, block and input (q), the handout's last section: its times
 * over n as a table, its crossovers, and in HTML a log-log chart. 1 when
 * it wrote one. */
int rs_handout_sweep(const rs_doc *d, const char *replay, const rs_request *q);

#endif
