#define _POSIX_C_SOURCE 200809L
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void rs_trace(const char *fmt, ...)
{
    static int on = -1;
    static long long t0;
    if (on < 0) {
        const char *v = getenv("REDSCOPE_TRACE");
        on = v && *v && *v != '0';
        if (!on) return;
        const char *s = getenv("REDSCOPE_TRACE_T0");
        char *end = NULL;
        t0 = s ? strtoll(s, &end, 10) : 0;
        if (!s || !end || *end || t0 <= 0 || t0 > now_ns()) {
            char buf[32];
            t0 = now_ns();
            snprintf(buf, sizeof buf, "%lld", t0);
            setenv("REDSCOPE_TRACE_T0", buf, 1); /* the GPU process counts from here too */
        }
    }
    if (!on) return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "redscope trace %8.1f ms  [%d] %s\n", (now_ns() - t0) / 1e6, (int)getpid(),
            what);
}
