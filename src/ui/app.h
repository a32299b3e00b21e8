/* The explorer's state. Screens draw from it and change it through
 * actions; only the worker touches the engine. */
#ifndef UI_APP_H
#define UI_APP_H

#include <signal.h>

#include "core/catalogue.h"
#include "ui.h"
#include "formats/preset.h"
#include "formats/record.h"
#include "analysis/sweep.h"
#include "nvtools/sass_view.h"
#include "keys.h"
#include "theme.h"
#include "layout.h"
#include "worker.h"
#include "list.h"

/* Each screen's own state, in its header (a screen's file and those that
 * fill it include it): the shared state holds a pointer to each. */
struct ui_source_state;
struct ui_sweep_state;
struct ui_prompt_state;
struct ui_kernel_state;
struct ui_ladder_state;
struct ui_compare_state;
struct ui_presets_state;
struct ui_replay_state;
struct ui_against_state;
struct ui_present_state;

typedef struct ui_app {
    ui_options opt; /* as the program started the explorer */
    ui_screen screen, back;
    rs_request cfg;
    int sel; /* selected variant */
    unsigned tick;
    int utf8;

    /* the last result of each variant (shown while it matches cfg) */
    rs_row *last;
    int have[RS_VARIANT_COUNT];
    rs_row pinned;
    int has_pin;
    rs_row *failed; /* per variant, its last run that failed (shown while it matches cfg) */
    int has_failed[RS_VARIANT_COUNT];

    /* what compute-sanitizer found per variant (x, X), and at which n */
    rs_check_report *checks;
    uint64_t check_n[RS_VARIANT_COUNT];
    rs_dtype check_type[RS_VARIANT_COUNT];
    rs_request check_asked; /* the check running: its n and type are the report's */

    struct ui_source_state *src;    /* the Source screen (source_screen.h) */
    struct ui_ladder_state *lad;    /* the Ladder screen (ladder.h) */
    struct ui_sweep_state *sweep;   /* the Sweep screen (sweep_screen.h) */
    struct ui_compare_state *cmp;   /* the Compare screen (compare.h) */
    struct ui_presets_state *pre;   /* the Presets screen (presets.h) */
    struct ui_replay_state *rp;     /* the Recording screen (replay.h) */
    struct ui_prompt_state *prompt; /* the prompt on the status row (prompt.h) */
    struct ui_kernel_state *uk;     /* your own kernel (kernel.h) */

    struct ui_against_state *ag;   /* a recording held beside what is shown (against.h) */
    struct ui_present_state *pres; /* the Present screen (present.h) */

    /* the preset loaded */
    char preset_name[RS_PRESET_NAME_MAX];
    rs_request preset_cfg;
    int has_preset;

    /* what the worker sent, taken into the state (events.c; ui.c sets it):
     * a job's last events are taken before a new job is asked for */
    void (*take_events)(struct ui_app *a);

    int why_scroll, help_scroll;
    int counters_scroll, cmp_scroll; /* first row shown of a cut panel */
    char status[512];
    ui_role status_role;
    int status_unbound; /* the status says a key did nothing: the next key that acts clears it */
    int quit_armed;

    /* the device, as the worker reported it */
    rs_device_info dev;
    int dev_ready;
    rs_status gpu_status;
    char gpu_problem[512];
    rs_gpu_facts gpu; /* counters, passes, GPUs and links (a recording: its runs' most) */

    /* replay */
    int replay;
    char replay_path[4096];
    rs_recording rec;

    ui_worker *worker;
    ui_job_kind job;
} ui_app;

void ui_status(ui_app *a, ui_role role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The request a variant runs with under the current configuration. */
void ui_request_for(const ui_app *a, rs_variant v, rs_request *out);
/* The last result of v when it answers the current configuration. */
const rs_result *ui_result_for(const ui_app *a, rs_variant v);
/* The previous ladder step with a result, or -1. */
int ui_previous_step(const ui_app *a, rs_variant v);

/* "pinned atomic", and the settings it was measured at where they are not
 * those of the result shown beside it ("pinned atomic at n 2^24"). */
void ui_pinned_label(const ui_app *a, const rs_request *shown, char *label, size_t len);

/* What Enter can do under the current source, for every hint that names
 * it: measure (a GPU, or while CUDA starts), show what a recording holds
 * (a replay: nothing new runs), or only compile your kernel and run the
 * CPU baseline (no GPU). A hint names only what this says. */
typedef enum { UI_ENTER_RUNS, UI_ENTER_RECORDED, UI_ENTER_COMPILES } ui_enter;
ui_enter ui_enter_does(const ui_app *a);
/* Why a result has no counters, and what would give them here. */
const char *ui_counters_hint(const ui_app *a);

/* Several GPUs (gpus.c): G and c step the GPU count and the cross-GPU
 * finish; a row's links noted; the header's item; a result's line. */
void ui_step_gpus(ui_app *a, int d);
void ui_step_cross(ui_app *a, int d);
void ui_gpus_take(ui_app *a, const rs_row *row);
void ui_gpus_header(const ui_app *a, char *buf, size_t len);
void ui_draw_gpus_line(const ui_app *a, int y, int x, int w, const rs_result *res);

/* Screens, one file each and one row each (screens.h): the table made
 * from the rows (screens.c); opening screen s (0 where its open refused,
 * having said why); the screen act opens, opened (0: act opens none). */
typedef struct ui_screen_def {
    const char *name, *about;
    ui_action opens;
    int (*open)(ui_app *a);
    void (*draw)(const ui_app *a, const ui_layout *l);
    int (*key)(ui_app *a, ui_action act);
} ui_screen_def;
extern const ui_screen_def ui_screens[UI_SCREEN_COUNT];
int ui_screen_open(ui_app *a, ui_screen s);
int ui_screen_opens(ui_app *a, ui_action act);
/* The SASS panel's answer from the worker (UI_EV_SASS; its buffer freed),
 * and a request that waited for the worker sent once it is idle. */
#define UI_SASS_WAIT (-2) /* src.nsass while nvdisasm runs */
void ui_source_take_sass(ui_app *a, const ui_event *ev);
void ui_source_sass_retry(ui_app *a);
/* Its comparison (source_diff.c): the view the shown one is compared with
 * (NULL: none) and its name; the two views line by line (-1: nothing to
 * compare with); drawn in r. */
struct rs_stall_delta;
const rs_result *ui_source_against(const ui_app *a, const rs_result *shown, char *name, size_t len);
int ui_source_diff(const ui_app *a, const rs_result *shown, struct rs_stall_delta *d, int max,
                   char *name, size_t len);
void ui_draw_source_diff(const ui_app *a, const rs_result *res, ui_rect r);
/* The header every screen shares (explorer.c). */
void ui_draw_header(const ui_app *a, const ui_layout *l);

/* Jobs for the worker (jobs.c); 1 while one runs. */
void ui_run_variant(ui_app *a);
/* Variant v on the current configuration; 1 when the worker took it. */
int ui_run_one(ui_app *a, rs_variant v);
/* Your kernel compiled in the worker, not run (a replay, no GPU): 1 when
 * the job was taken. */
int ui_compile_kernel(ui_app *a);
void ui_run_ladder(ui_app *a);
void ui_run_sweep(ui_app *a);
/* The selected variant under compute-sanitizer (x: race, X: memory). */
void ui_run_check(ui_app *a, rs_check_kind kind);
int ui_busy(ui_app *a);
/* 1, said on the status line, while a job runs: what it fills stays. */
int ui_refuse_busy(ui_app *a);
/* Every event the worker has posted, taken into the app (events.c). */
void ui_take_events(ui_app *a);

/* Presets (presets.c): the list read again; the selected one loaded. */
void ui_presets_load(ui_app *a);
void ui_presets_apply(ui_app *a);

/* t o b f i m: one step forward (d = 1) or back (d = -1) (config.c). */
void ui_step_setting(ui_app *a, ui_action act, int d);

/* A recording held against (against.c): set from a path ("" clears; the
 * file is read off the UI thread, and poll, every loop, holds it once
 * read or says why not; 0 with prompt_error while another is read), the
 * prompt for it (A on the Recording screen), its run of a request (NULL:
 * none that ran), and its runs at the ladder's configuration that the
 * ladder lacks, named. */
enum { UI_CMP_PINNED = -1, UI_CMP_AGAINST = -2 };
int ui_against_set(ui_app *a, const char *path);
void ui_against_poll(ui_app *a);
void ui_against_prompt(ui_app *a);
const rs_result *ui_against_result(const ui_app *a, const rs_request *req);
void ui_against_only(const ui_app *a, char *buf, size_t len);

/* Replay (replay.c): open a recording on the first configuration that
 * holds want's settings named in ask (UI_ASK_ bits, ui.h) when it holds one,
 * else (or want NULL) on its first; pick
 * configuration k (show: go to the screen that shows it); Enter on the Sweep
 * screen (1 when a recorded sweep answers the configuration). */
void ui_replay_open(ui_app *a, const char *path, const rs_request *want, unsigned ask);
/* The same with the recording already read (taken: emptied here). */
void ui_replay_use(ui_app *a, const char *path, rs_recording *taken, const rs_request *want,
                   unsigned ask);
void ui_replay_shipped(ui_app *a);
void ui_replay_pick(ui_app *a, int k, int show);
int ui_replay_sweep(ui_app *a);

/* Your own kernel (kernel.c, kernel_why.c). K: the file prompt; Enter on it: the file checked and
 * set ("" clears it); Tab: completion of the path; watch: called every loop, it looks at the file
 * about every 250 ms and runs it again when it changed; take_row: a kernel
 * row as it arrives (the previous version, the failure); replay: the
 * kernel rows of configuration c; show_recorded: row i of the recording,
 * your kernel's, shown at once as Enter would show it. */
void ui_kernel_prompt(ui_app *a);
int ui_kernel_set(ui_app *a, const char *path);
void ui_kernel_complete(ui_app *a);
void ui_kernel_watch(ui_app *a);
void ui_kernel_take_row(ui_app *a, const rs_row *row);
void ui_kernel_replay(ui_app *a, const rs_rec_config *c);
void ui_kernel_show_recorded(ui_app *a, int row);
void ui_kernel_free(ui_app *a);
/* The name a variant's row goes by: the kernel's file, or how to pick one. */
const char *ui_variant_label(const ui_app *a, rs_variant v, char *buf, size_t len);
/* The Why panel of the kernel row, and its length in lines at width w. */
void ui_draw_kernel_why(const ui_app *a, ui_rect r, const rs_result *res);
int ui_kernel_why_lines(const ui_app *a, int w);

/* The settings that select a result (type, op, n, block, finish, reps, and
 * ept, grid or input when set), after lead, in the longest form that fits
 * width columns. */
void ui_settings_title(const rs_request *r, const char *lead, int width, char *buf, size_t len);
/* A result's title: ui_settings_title, but a variant with no finish step
 * says so instead of showing the configuration's finish. */
void ui_result_title(const rs_request *r, const char *lead, int width, char *buf, size_t len);
/* Where what is shown was measured with other repetitions or counters than
 * the configuration now has: 1, and a sentence saying both. */
int ui_other_settings(const rs_request *shown, const rs_request *cfg, char *buf, size_t len);

/* Shared drawing: a result's figures in rows from y, within width w. */
/* The baseline a result's changes are told against (pinned, your kernel's
 * previous version, the previous step) and its name; NULL for none. */
const rs_result *ui_comparison(const ui_app *a, const rs_result *cur, char *label, size_t len);
/* counters_panel.c: the Counters panel, and { } scrolling it. */
void ui_draw_counters(const ui_app *a, ui_rect r, const rs_result *res);
void ui_scroll_counters(ui_app *a, int d);
/* Rows first.. of cur's counters in r; returns how many rows there are. */
int ui_draw_metric_rows(const rs_result *cur, const rs_result *base, ui_rect r, int first);

/* The Present screen (present.c): begun at the selected step (quits: as
 * `redscope present`, from its title slide); every loop, a live step run
 * as its slide opens and the notes served (notes.c); a digit typed to
 * jump; the notes' socket closed. */
struct rs_slide;
void ui_present_begin(ui_app *a, int quits);
void ui_present_tick(ui_app *a);
void ui_present_digit(ui_app *a, int ch);
void ui_notes_serve(ui_app *a, const struct rs_slide *s, int count);
void ui_notes_close(ui_app *a);
#endif
