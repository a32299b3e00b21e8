/* A recording read on a thread of its own (reader.h). The thread touches
 * only the reader: the path it was given, the recording it fills, its
 * error; `done` hands them over. */
#include "reader.h"

#include <stdio.h>
#include <string.h>

static void *read_thread(void *arg)
{
    ui_reader *r = arg;
    r->st = rs_recording_load(r->path, &r->rec, &r->err);
    atomic_store(&r->done, 1);
    return NULL;
}

int ui_reader_start(ui_reader *r, const char *path, rs_error *err)
{
    if (r->busy) {
        rs_fail(err, RS_E_USAGE, "still reading %s: wait for it, or q", r->path);
        return 0;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    memset(&r->rec, 0, sizeof r->rec);
    atomic_store(&r->done, 0);
    if (pthread_create(&r->thread, NULL, read_thread, r) != 0) {
        rs_fail(err, RS_E_NOMEM, "cannot start a thread to read %s", path);
        return 0;
    }
    r->busy = 1;
    return 1;
}

int ui_reader_take(ui_reader *r)
{
    if (!r->busy || !atomic_load(&r->done)) return 0;
    pthread_join(r->thread, NULL);
    r->busy = 0;
    return 1;
}

int ui_reader_stop(ui_reader *r)
{
    if (!r || !r->busy) return 1;
    if (!atomic_load(&r->done)) return 0; /* reading still: left to the process's end */
    pthread_join(r->thread, NULL);
    if (r->st == RS_OK) rs_recording_free(&r->rec);
    r->busy = 0;
    return 1;
}
