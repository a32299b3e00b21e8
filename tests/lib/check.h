/* A few assertion macros for the C unit tests: print where and why, count
 * failures, exit non-zero at the end. */
#ifndef RS_CHECK_H
#define RS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                            \
    CHECK_MSG(strstr((hay), (needle)) != NULL, "'%s' not in '%s'", (needle), (hay))

#define CHECK_STR_EQ(got, want)                                                                    \
    CHECK_MSG(strcmp((got), (want)) == 0, "'%s', not '%s'", (got), (want))

/* Printed text holds no figure printf could not write as a number: no
 * "nan", "-nan" or "inf" (any case) as a word of its own. */
static inline int check_letter(char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

static inline int check_finite_text(const char *s)
{
    for (const char *p = s; p[0] && p[1] && p[2]; p++) {
        if (p > s && check_letter(p[-1])) continue;
        const char a = (char)(p[0] | 0x20), b = (char)(p[1] | 0x20), c = (char)(p[2] | 0x20);
        const int nan = a == 'n' && b == 'a' && c == 'n', inf = a == 'i' && b == 'n' && c == 'f';
        if ((nan || inf) && !check_letter(p[3])) return 0;
    }
    return 1;
}

#define CHECK_FINITE_TEXT(text) CHECK_MSG(check_finite_text(text), "a NaN or inf in '%s'", (text))

static inline int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
