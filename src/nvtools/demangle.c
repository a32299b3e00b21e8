#define _POSIX_C_SOURCE 200809L /* strdup */
#include "demangle.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's demangler, in libstdc++ (C linkage). */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

/* s without its trailing parameter list and qualifiers, in place. */
static void drop_parameters(char *s)
{
    size_t n = strlen(s);
    for (;;) { /* " const", " volatile", "&", "&&" after the parameters */
        while (n && (s[n - 1] == ' ' || s[n - 1] == '&')) s[--n] = '\0';
        if (n >= 6 && strcmp(s + n - 6, " const") == 0)
            s[n -= 6] = '\0';
        else if (n >= 9 && strcmp(s + n - 9, " volatile") == 0)
            s[n -= 9] = '\0';
        else
            break;
    }
    if (!n || s[n - 1] != ')') return;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
        if (depth == 0) {
            s[i] = '\0';
            return;
        }
    }
}

/* s without template arguments (balanced <...>), "operator<" kept. */
static void drop_templates(char *s)
{
    char *w = s;
    int depth = 0;
    for (const char *r = s; *r; r++) {
        const int op = r - s >= 8 && strncmp(r - 8, "operator", 8) == 0;
        if (*r == '<' && !op)
            depth++;
        else if (*r == '>' && depth > 0 && !op)
            depth--;
        else if (depth == 0)
            *w++ = *r;
    }
    *w = '\0';
}

/* The last space-separated word outside parentheses (the return type and a
 * decltype(...) before the name go). */
static const char *last_word(const char *s)
{
    const char *word = s;
    int depth = 0;
    for (const char *p = s; *p; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (*p == ' ' && depth == 0 && strncmp(p - (p - s >= 8 ? 8 : 0), "operator", 8) != 0)
            word = p + 1;
    }
    return word;
}

static int internal_namespace(const char *seg, size_t n)
{
    if (n == 2 && strncmp(seg, "rs", 2) == 0) return 1;
    if (n > 10 && strncmp(seg, "_INTERNAL_", 10) == 0) return 1;
    if (n >= 3 && seg[0] == '_' && seg[1] == '_') { /* __v1, __4: versioned namespaces */
        size_t i = 2 + (seg[2] == 'v');
        while (i < n && isdigit((unsigned char)seg[i])) i++;
        return i == n && isdigit((unsigned char)seg[n - 1]);
    }
    return 0;
}

void rs_function_short(const char *demangled, char *buf, size_t len)
{
    if (!len) return;
    char *s = strdup(demangled ? demangled : "");
    if (!s) {
        snprintf(buf, len, "%s", demangled ? demangled : "");
        return;
    }
    char *anon = strstr(s, "(anonymous namespace)::");
    while (anon) {
        memmove(anon, anon + 23, strlen(anon + 23) + 1);
        anon = strstr(s, "(anonymous namespace)::");
    }
    drop_parameters(s);
    drop_templates(s);
    for (size_t n = strlen(s); n && s[n - 1] == ' ';) s[--n] = '\0';
    buf[0] = '\0';
    size_t used = 0;
    for (const char *seg = last_word(s); *seg;) {
        if (strncmp(seg, "operator ", 9) == 0) { /* a conversion: its type's last name */
            const char *type = seg + 9, *last = type;
            for (const char *q = strstr(type, "::"); q; q = strstr(q + 2, "::")) last = q + 2;
            snprintf(buf + used, len - used, "%soperator %s", used ? "::" : "", last);
            break;
        }
        const char *sep = strstr(seg, "::");
        const size_t n = sep ? (size_t)(sep - seg) : strlen(seg);
        if (!internal_namespace(seg, n) || !sep) {
            const int cg = n == 18 && strncmp(seg, "cooperative_groups", 18) == 0;
            const int w = snprintf(buf + used, len - used, "%s%.*s", used ? "::" : "",
                                   cg ? 2 : (int)n, cg ? "cg" : seg);
            used = w > 0 && used + (size_t)w < len ? used + (size_t)w : len - 1;
        }
        seg = sep ? sep + 2 : seg + n;
    }
    free(s);
}

void rs_function_name(const char *mangled, char *buf, size_t len)
{
    if (!len) return;
    int status = -1;
    char *d = mangled && strncmp(mangled, "_Z", 2) == 0
                  ? __cxa_demangle(mangled, NULL, NULL, &status)
                  : NULL;
    if (d && status == 0)
        rs_function_short(d, buf, len);
    else
        snprintf(buf, len, "%s", mangled ? mangled : "");
    free(d);
}
