/* A recording read off the UI thread (reader.c): a file of a gigabyte
 * takes seconds to read and check, and the explorer goes on drawing and
 * taking keys meanwhile (q quits). One read at a time; the main loop takes
 * it when it is done. */
#ifndef RS_UI_READER_H
#define RS_UI_READER_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/request.h"
#include "formats/record.h"

typedef struct ui_reader {
    pthread_t thread;
    int busy;        /* a read was started and not yet taken */
    atomic_int done; /* its thread has finished */
    char path[RS_NOTE_MAX];
    rs_recording rec; /* what it read: the taker's to keep or free */
    rs_error err;
    rs_status st;
} ui_reader;

/* Start reading path; 0 (and why in err) when a read is going on or no
 * thread can be had. */
int ui_reader_start(ui_reader *r, const char *path, rs_error *err);
/* 1 when the read is over: st, and rec (RS_OK) or err. Not busy after. */
int ui_reader_take(ui_reader *r);
/* At exit: 1 when nothing is left running (r may be freed); 0 while a
 * read runs (its memory must outlive the process). */
int ui_reader_stop(ui_reader *r);

#endif
