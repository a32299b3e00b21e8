/* Where a command's time goes: REDSCOPE_TRACE=1 prints each stage with the
 * milliseconds since the first process started (its children inherit the
 * start through REDSCOPE_TRACE_T0), to standard error. */
#ifndef RS_TRACE_H
#define RS_TRACE_H

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void rs_trace(const char *fmt, ...);

#endif
