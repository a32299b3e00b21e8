/* The handout's sweep section (handout_sweep.c), written to the handout's
 * document (formats/writer.h). */
#ifndef RS_CMD_HANDOUT_H
#define RS_CMD_HANDOUT_H

#include "core/request.h"
#include "core/row.h"
#include "formats/doc.h"
#include "formats/writer.h"

/* With --replay FILE: where FILE holds a sweep of the ladder's type,
 * operation, block and input (q), the handout's last section: its times
 * over n as a table, its crossovers, and in HTML a log-log chart. 1 when
 * it wrote one. */
int rs_handout_sweep(rs_writer *w, const char *replay, const rs_request *q);

/* The deck of rows (lecture/deck.h) in print, every slide after the
 * title (handout_deck.c): checks, the racecheck runs held; from, where
 * the numbers come from. 0, or RS_E_NOMEM with nothing of the deck written. */
struct rs_recorded_check;
int rs_handout_deck(rs_writer *w, const rs_row *rows, int n, const struct rs_recorded_check *checks,
                    int nchecks, const char *from);

#endif
