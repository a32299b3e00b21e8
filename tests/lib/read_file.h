/* Files for the tests and their helpers that read cubins and sources: a
 * whole file into memory (the bytes, free them, and their count, or NULL),
 * and the line that holds a marker. */
#ifndef RS_TEST_READ_FILE_H
#define RS_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *read_file(const char *path, size_t *size)
{
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    char *b = n > 0 ? malloc((size_t)n) : NULL;
    *size = b && fread(b, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return b;
}

/* The number of the first line of a text file that holds `text` (0: none). */
static inline unsigned line_with(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char buf[512];
    unsigned n = 0, at = 0;
    while (f && !at && fgets(buf, sizeof buf, f))
        if (++n && strstr(buf, text)) at = n;
    if (f) fclose(f);
    return at;
}

#endif
