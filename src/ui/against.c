/* A recording held beside what the explorer shows (--against FILE, or A
 * on the Recording screen): its run of a configuration gives the Ladder
 * screen's "vs A" column and a right side on the Compare screen (z). */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "against.h"
#include "prompt.h"
#include "ladder.h"
#include "compare.h"
#include "core/catalogue.h"
#include "formats/files.h"
#include "formats/stalls_io.h"

int ui_against_set(ui_app *a, const char *path)
{
    if (!*path) {
        if (a->ag->has) rs_recording_free(&a->ag->rec);
        a->ag->has = 0;
        a->ag->path[0] = '\0';
        if (a->cmp->b == UI_CMP_AGAINST) a->cmp->b = 0;
        ui_status(a, R_NORMAL, "nothing held against");
        return 1;
    }
    rs_error err;
    FILE *f = NULL; /* what opening tells at once (missing, a directory, too big): in the prompt */
    if (rs_file_open(path, "recording", RS_READ_RECORDING, &f, &err) != RS_OK) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return 0;
    }
    fclose(f);
    if (!ui_reader_start(&a->ag->reader, path, &err)) { /* read off the UI thread */
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return 0;
    }
    ui_status(a, R_NORMAL, "reading %s to hold against: the explorer goes on meanwhile",
              rs_stall_base(path));
    return 1;
}

/* Every loop: A's file, once read, held against (or why not). */
void ui_against_poll(ui_app *a)
{
    ui_reader *r = &a->ag->reader;
    if (!ui_reader_take(r)) return;
    if (r->st != RS_OK) {
        ui_status(a, R_BAD, "not held against: %s", r->err.msg);
        return;
    }
    if (a->ag->has) rs_recording_free(&a->ag->rec);
    a->ag->rec = r->rec;
    a->ag->has = 1;
    snprintf(a->ag->path, sizeof a->ag->path, "%s", r->path);
    ui_status(a, R_NORMAL, "against %s: the Ladder screen's vs A column; z on Compare",
              rs_stall_base(r->path));
}

void ui_against_prompt(ui_app *a)
{
    ui_prompt_open_file(a, UI_PROMPT_AGAINST, a->ag->path, ui_against_set, ui_kernel_complete);
}

const rs_result *ui_against_result(const ui_app *a, const rs_request *req)
{
    if (!a->ag->has) return NULL;
    const rs_row *r = rs_recording_find(&a->ag->rec, req, "ladder");
    if (!r) r = rs_recording_find(&a->ag->rec, req, NULL);
    return r && r->status == RS_OK ? &r->result : NULL;
}

/* The recording's runs at the configuration of the ladder shown that it lacks, by name
 * ("only in A: thrust, cpu"); "" when none. */
void ui_against_only(const ui_app *a, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!a->ag->has || !a->lad->done) return;
    const rs_request *q = &a->lad->rows[0].result.req;
    size_t o = 0;
    for (int i = 0; i < a->ag->rec.count && o < len; i++) {
        const rs_row *b = &a->ag->rec.rows[i];
        const rs_request *r = &b->result.req;
        if (b->status != RS_OK || r->type != q->type || r->op != q->op || r->n != q->n ||
            r->block != q->block || r->dist != q->dist || r->gpus != 1)
            continue;
        int seen = 0; /* in the ladder, or already named */
        for (int k = 0; k < a->lad->done && !seen; k++)
            seen = rs_request_same_run(&a->lad->rows[k].result.req, r);
        for (int k = 0; k < i && !seen; k++)
            seen = a->ag->rec.rows[k].status == RS_OK &&
                   rs_request_same_run(&a->ag->rec.rows[k].result.req, r);
        if (seen) continue;
        o += (size_t)snprintf(buf + o, len - o, "%s%s",
                              o ? ", " : "only in A: ", rs_request_name(r));
    }
}
