/* Errors are values: a status code and one line of text for the user. */
#ifndef RS_ERROR_H
#define RS_ERROR_H

/* The status doubles as the process exit code (see README, "Exit codes"). */
typedef enum {
    RS_OK = 0,
    RS_E_MISMATCH = 1,    /* a run finished but its result is wrong */
    RS_E_USAGE = 2,       /* bad argument, bad preset, refused configuration */
    RS_E_NODRIVER = 3,    /* no usable NVIDIA driver (or NCCL library) */
    RS_E_NODEVICE = 4,    /* no CUDA device, or no device with that index */
    RS_E_NOMEM = 5,       /* out of device or host memory */
    RS_E_CUDA = 6,        /* a CUDA call failed (kernel fault, ...) */
    RS_E_IO = 7,          /* a file could not be read or written */
    RS_E_KERNEL = 8,      /* a user kernel faulted, trapped or ran past its timeout */
    RS_E_FOUND = 9,       /* --check found races or memory errors */
    RS_E_SLOWER = 10,     /* diff --fail-slower: a configuration got slower */
    RS_E_TERMINAL = 11,   /* the terminal cannot show the explorer (TERM) */
    RS_E_CANCELLED = 130, /* stopped by the user */
} rs_status;

typedef struct {
    rs_status code;
    char msg[512];
} rs_error;

/* Fill err (when not NULL) and return code. */
rs_status rs_fail(rs_error *err, rs_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void rs_error_clear(rs_error *err);

/* A status in a few words ("out of memory"). */
const char *rs_status_name(rs_status st);

#endif
