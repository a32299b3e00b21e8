/* Whether bytes are text: files redscope reads as text (recordings,
 * presets) are refused, with their line, when they are not. */
#ifndef RS_TEXT_H
#define RS_TEXT_H

#include <stddef.h>

/* NULL when buf[0..len) is UTF-8 text without NUL bytes; else what it
 * holds instead, in a few words ("a NUL byte", "bytes that are not
 * UTF-8"), and where (*at, when at is not NULL). */
const char *rs_text_problem(const char *buf, size_t len, size_t *at);

/* The one way text from outside (kernels and compiler logs, presets,
 * recordings, file names, option values) leaves for a terminal, a table
 * or a chart: s into out with every control character (C0 but newline and
 * tab when keep_lines, DEL, C1 U+0080..U+009F), every bidirectional
 * control (U+202E and its kin) and every byte that is not UTF-8 written
 * as an escape ("\x1b", "\u202e", "\n", "\t"), so it is seen, not
 * obeyed; one field is one line unless keep_lines (which keeps newline
 * and tab, and drops a CR before a newline). Cut to len - 1 bytes, never
 * inside an escape or a character. Returns out. */
const char *rs_text_safe(const char *s, int keep_lines, char *out, size_t len);
/* The same into a malloc'd string (NULL: out of memory). */
char *rs_text_safe_dup(const char *s, int keep_lines);
/* The same in place, cut to s's own length. */
void rs_text_scrub(char *s, int keep_lines);
/* Whether s would pass rs_text_safe unchanged (one line, no control,
 * C1 or bidirectional character, all UTF-8): how a value or a name from
 * outside is refused rather than escaped. NULL is plain. */
int rs_text_plain(const char *s);
/* src into dst (len bytes), cut where it must be at a character's
 * boundary: never half of a UTF-8 character (a lone 0xce). */
void rs_text_copy(char *dst, size_t len, const char *src);
/* Whether code point c is a bidirectional control (U+202A..U+202E,
 * U+2066..U+2069, U+200E, U+200F, U+061C). */
int rs_text_bidi(unsigned c);
/* Whether code point c is invisible: zero-width spaces and joiners, the
 * byte-order mark, the soft hyphen, tags (U+E0000..E007F). */
int rs_text_invisible(unsigned c);

/* The length of the UTF-8 character at s (at most n bytes), 0 if it is
 * not one: no overlong forms, surrogates or code points above U+10FFFF. */
size_t rs_utf8_len(const char *s, size_t n);

/* The 1-based line of buf that offset falls on. */
int rs_text_line(const char *buf, size_t offset);

/* A path's last part: after its last '/', the whole path without one ("" for NULL). */
const char *rs_path_base(const char *path);

#endif
