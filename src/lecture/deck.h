/* The lecture's deck: a ladder told as slides, one source for the
 * presenter (ui/present.c), the speaker notes (ui/notes.c) and the handout
 * (cmd/handout.c). A title slide (device, configuration, the measured
 * limit), one slide per step built up a part at a time (the idea and the
 * code change, the question, the answer, where warps wait, the ladder so
 * far, the caveats) and a closing slide (the whole ladder against the
 * wall, the biggest steps, energy where measured). Its sentences are the
 * Why's (lecture/why.c). Pure: no terminal, no GPU; tested on recordings. */
#ifndef RS_LECTURE_DECK_H
#define RS_LECTURE_DECK_H

#include "core/row.h"
#include "formats/record.h"

enum {
    RS_DECK_TEXT = 720, /* one item's text, bytes */
    RS_DECK_ITEMS = 40, /* items of one part */
    RS_DECK_PARTS = 6,  /* parts of one slide */
    RS_DECK_NOTES = 24, /* lines of one slide's notes */
    RS_DECK_STEPS = 48  /* step slides */
};

typedef enum {
    RS_DK_SAY,   /* a sentence */
    RS_DK_BIG,   /* a figure for the back of the room; label: what it is */
    RS_DK_CODE,  /* a key line the step keeps from the step before */
    RS_DK_ADD,   /* a key line the step adds */
    RS_DK_DEL,   /* a key line the step drops */
    RS_DK_BAR,   /* a step's GB/s: label its name, value, frac of the scale */
    RS_DK_LIMIT, /* the limit the bars stand against: value, frac */
    RS_DK_WARN,  /* a caveat: a race, an expectation this GPU does not meet */
    RS_DK_BAD    /* a wrong result and why */
} rs_deck_kind;

typedef struct rs_deck_item {
    rs_deck_kind kind;
    int current; /* BAR: this slide's own step */
    double value, frac;
    char label[240];
    char text[RS_DECK_TEXT];
} rs_deck_item;

typedef struct rs_deck_part {
    char name[48]; /* "The idea", "The question", ... */
    int count;
    rs_deck_item item[RS_DECK_ITEMS];
} rs_deck_part;

typedef struct rs_slide {
    char title[200];
    int row; /* a step's row in the ladder; -1: the title or closing slide */
    int nparts;
    rs_deck_part part[RS_DECK_PARTS];
    int nnotes;
    char notes[RS_DECK_NOTES][RS_DECK_TEXT];
} rs_slide;

typedef struct rs_deck {
    const rs_row *rows; /* the ladder, in its order (the CPU baseline may be among them) */
    int n;
    const rs_recorded_check *checks; /* racecheck and memcheck runs held (may be NULL) */
    int nchecks;
    char from[300];          /* where the numbers come from: "recorded in FILE", "measured ..." */
    rs_device_info dev;      /* the GPU: the first result's (a caller may set it where none ran) */
    rs_request req;          /* the configuration: the first step's */
    int step[RS_DECK_STEPS]; /* the rows told as step slides */
    int nsteps;
} rs_deck;

/* The deck of rows[0..n-1]: every row with a result or a failure (one not
 * run yet: a failure that says so) that is not the CPU baseline is a step.
 * from: as the title slide says it. */
void rs_deck_init(rs_deck *d, const rs_row *rows, int n, const rs_recorded_check *checks,
                  int nchecks, const char *from);

/* Slides: the title, the steps, the closing; 0 when there is no step. */
int rs_deck_count(const rs_deck *d);

/* Slide k (0 the title) into out; out->nparts is how many keys build it. */
void rs_deck_slide(const rs_deck *d, int k, rs_slide *out);

/* The slide of ladder row i, or -1. */
int rs_deck_slide_of_row(const rs_deck *d, int row);

/* A slide's title alone (the notes' "next"). */
void rs_deck_title(const rs_deck *d, int k, char *buf, size_t len);

/* deck_step.c: a step's slide (k its index among the steps). */
void rs_deck_step_slide(const rs_deck *d, int k, rs_slide *out);

/* Shared by the slides' builders: a part begun, an item added (NULL when
 * the part is full), a sentence added. */
rs_deck_part *rs_deck_part_new(rs_slide *s, const char *name);
rs_deck_item *rs_deck_add(rs_deck_part *p, rs_deck_kind kind, const char *text);
void rs_deck_note(rs_slide *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The bars of the steps up to slide step `upto` (all: nsteps - 1) against
 * the measured streaming read, into p. */
void rs_deck_bars(const rs_deck *d, int upto, rs_deck_part *p);
/* The row step k is told against (the one above; a user kernel's: the
 * kernel base), or NULL. */
const rs_row *rs_deck_base(const rs_deck *d, int row);

#endif
