/* A whole file into memory, for the tests and their helpers that read
 * cubins: the bytes (free them) and their count, or NULL. */
#ifndef RS_TEST_READ_FILE_H
#define RS_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
