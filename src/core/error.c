/* Errors as values: a status and a sentence (error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

rs_status rs_fail(rs_error *err, rs_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void rs_error_clear(rs_error *err)
{
    if (err) {
        err->code = RS_OK;
        err->msg[0] = '\0';
    }
}

const char *rs_status_name(rs_status st)
{
    switch (st) {
    case RS_OK: return "ok";
    case RS_E_MISMATCH: return "wrong result";
    case RS_E_USAGE: return "refused";
    case RS_E_NODRIVER: return "no NVIDIA driver";
    case RS_E_NODEVICE: return "no CUDA device";
    case RS_E_NOMEM: return "out of memory";
    case RS_E_CUDA: return "CUDA error";
    case RS_E_IO: return "file error";
    case RS_E_KERNEL: return "kernel failed";
    case RS_E_FOUND: return "check found errors";
    case RS_E_SLOWER: return "slower than its baseline";
    case RS_E_TERMINAL: return "the terminal cannot show the explorer";
    case RS_E_CANCELLED: return "cancelled";
    }
    return "error";
}
