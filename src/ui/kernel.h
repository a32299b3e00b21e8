/* Your own kernel's state in the explorer (kernel.c, kernel_why.c): the
 * file watched, its text, the result before its last change and the last
 * run when it failed, and what a compile without a run left. */
#ifndef RS_UI_KERNEL_H
#define RS_UI_KERNEL_H

#include "core/row.h"

/* The kernel file as last looked at: a change of any of these is a save. */
typedef struct ui_file_stamp {
    long long mtime_ns, size, ino;
    int exists;
} ui_file_stamp;

typedef struct ui_kernel_state {
    char watch_path[RS_NOTE_MAX];
    ui_file_stamp stamp;
    double watch_next; /* monotonic seconds of the next look at the file */
    int rerun;         /* the file changed: run it when no run is going */
    char *text;
    char read_error[512];
    rs_row prev, fail;
    int has_prev, has_fail;
    /* compiled here, not run (a replay that lacks it, no GPU): built its
     * build facts when it compiled; the Why panel shows the file as it
     * is, not a recorded version */
    rs_row built;
    int compiled, has_built;
    int saved; /* the job going on came from a save of the file */
} ui_kernel_state;

#endif
