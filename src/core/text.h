/* Whether bytes are text: files redscope reads as text (recordings,
 * presets) are refused, with their line, when they are not. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stddef.h>

/* NULL when buf[0..len) is UTF-8 text without NUL bytes; else what it
 * holds instead, in a few words ("a NUL byte", "bytes that are not
 * UTF-8"), and where (*at, when at is not NULL). */
const char *rs_text_problem(const char *buf, size_t len, size_t *at);

/* Control characters in s (C0 but newline and tab when keep_lines, DEL,
 * and C1, U+0080..U+009F) each become '?', in place (with keep_lines a CR
 * before a newline goes): a recorded string
 * may reach a terminal or a gnuplot script, and an escape sequence or a
 * newline there is a command, not text. */
void rs_text_scrub(char *s, int keep_lines);

/* The length of the UTF-8 character at s (at most n bytes), 0 if it is
 * not one: no overlong forms, surrogates or code points above U+10FFFF. */
size_t rs_utf8_len(const char *s, size_t n);

/* The 1-based line of buf that offset falls on. */
int rs_text_line(const char *buf, size_t offset);

#endif
