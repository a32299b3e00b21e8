/* The Present screen's own state (present.c): the deck shown, its slide
 * and how far it is built, what is being typed to jump, and the notes'
 * socket (notes.c). */
#ifndef RS_UI_PRESENT_H
#define RS_UI_PRESENT_H

#include "core/request.h"
#include "ladder.h"

typedef struct ui_present_state {
    int slide;        /* 0: the title */
    int part;         /* parts shown, from 1 */
    int scroll;       /* the body's first line shown where the slide is cut */
    char typed[8];    /* a slide's number being typed */
    int quits;        /* started by `redscope present`: q ends the program, Esc too */
    rs_request asked; /* live: the last run asked for a slide */
    int has_asked;
    int listen_fd;       /* the notes' socket (-1: none) */
    int clients[4];      /* notes panes connected (-1: free) */
    char sent[16384];    /* the notes last sent */
    char sock[108];      /* its path */
    long started;        /* the deck began (seconds since the epoch): the clock */
    int notes_up;        /* 0: not tried yet, 1: listening, -1: not now (tried again) */
    long notes_tried;    /* when it last tried to listen */
    rs_request replayed; /* a replay: the settings its ladder was last asked at */
    int has_replayed;
} ui_present_state;

#endif
