/* The explorer's main loop: curses set-up and teardown, signals, the
 * worker's events, keys and prompts. Drawing lives in the screen files. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "against.h"
#include "kernel.h"
#include "source_screen.h"
#include "sweep_screen.h"
#include "prompt.h"
#include "ladder.h"
#include "compare.h"
#include "presets.h"
#include "replay.h"
#include "present.h"
#include "core/catalogue.h"
#include "draw.h"

static volatile sig_atomic_t got_signal;
static int curses_on;

/* One line on stderr, before curses takes the screen or after it left. */
static void ui_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ui_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("redscope: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void on_signal(int sig)
{
    got_signal = sig;
}

static void restore_terminal(void)
{
    if (curses_on) {
        endwin();
        curses_on = 0;
    }
}

/* ---- actions ------------------------------------------------------------------------- */

static void pin(ui_app *a)
{
    const rs_result *r = ui_result_for(a, (rs_variant)a->sel);
    if (!r) {
        ui_status(a, R_WARN, "run %s first, then pin it", rs_variant_name(a->sel));
        return;
    }
    a->pinned = a->last[a->sel];
    a->has_pin = 1;
    char what[128];
    ui_status(a, R_GOOD, "pinned %s: changes are now shown against it (p again on it unpins)",
              rs_request_label(&a->pinned.result.req, what, sizeof what));
}

static void cancel_or_back(ui_app *a)
{
    if (ui_busy(a)) {
        ui_worker_cancel(a->worker);
        ui_status(a, R_WARN, "cancelling after the current launch");
    } else if (a->screen != UI_SCREEN_EXPLORER) {
        a->screen = a->screen == UI_SCREEN_HELP ? a->back : UI_SCREEN_EXPLORER;
    }
}

/* E off: the energy of every result shown goes, as if never asked. */
static void hide_energy(ui_app *a)
{
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        memset(&a->last[v].result.energy, 0, sizeof(rs_energy));
    for (int i = 0; i < a->lad->done; i++)
        memset(&a->lad->rows[i].result.energy, 0, sizeof(rs_energy));
    for (int i = 0; i < a->sweep->data.done; i++)
        memset(&a->sweep->data.rows[i].result.energy, 0, sizeof(rs_energy));
    memset(&a->pinned.result.energy, 0, sizeof(rs_energy));
}

/* The screen's keys first, then those every screen shares. */
/* The action on the current screen; 0 when it does nothing there. */
static int action(ui_app *a, ui_action act)
{
    if ((unsigned)a->screen < UI_SCREEN_COUNT && ui_screens[a->screen].key(a, act)) return 1;
    if (ui_screen_opens(a, act)) return 1;
    switch (act) {
    case UI_ACT_CANCEL: cancel_or_back(a); break;
    case UI_ACT_PIN:
        if (a->has_pin && a->pinned.result.req.variant == (rs_variant)a->sel) {
            a->has_pin = 0;
            ui_status(a, R_NORMAL, "unpinned: changes are shown against the previous step");
        } else {
            pin(a);
        }
        break;
    case UI_ACT_TYPE:
    case UI_ACT_OP:
    case UI_ACT_BLOCK:
    case UI_ACT_FINISH:
    case UI_ACT_METRICS:
    case UI_ACT_CACHE:
    case UI_ACT_INPUT: ui_step_setting(a, act, +1); break;
    case UI_ACT_TYPE_BACK: ui_step_setting(a, UI_ACT_TYPE, -1); break;
    case UI_ACT_OP_BACK: ui_step_setting(a, UI_ACT_OP, -1); break;
    case UI_ACT_BLOCK_BACK: ui_step_setting(a, UI_ACT_BLOCK, -1); break;
    case UI_ACT_FINISH_BACK: ui_step_setting(a, UI_ACT_FINISH, -1); break;
    case UI_ACT_METRICS_BACK: ui_step_setting(a, UI_ACT_METRICS, -1); break;
    case UI_ACT_INPUT_BACK: ui_step_setting(a, UI_ACT_INPUT, -1); break;
    case UI_ACT_GPUS: ui_step_gpus(a, +1); break;
    case UI_ACT_CROSS: ui_step_cross(a, +1); break;
    case UI_ACT_CHECK_RACE: ui_run_check(a, RS_CHECK_RACE); break;
    case UI_ACT_CHECK_MEMORY: ui_run_check(a, RS_CHECK_MEMORY); break;
    case UI_ACT_KERNEL: ui_kernel_prompt(a); break;
    case UI_ACT_STALLS:
        a->cfg.stalls = !a->cfg.stalls;
        ui_status(a, R_NORMAL, "%s",
                  a->cfg.stalls
                      ? "PC sampling on: each run also samples where warps wait (W shows it)"
                      : "PC sampling off");
        break;
    case UI_ACT_ENERGY:
        a->cfg.energy = !a->cfg.energy;
        if (!a->cfg.energy) hide_energy(a);
        ui_status(a, R_NORMAL, "%s",
                  !a->cfg.energy ? "energy off"
                  : a->replay    ? "energy on: Enter shows what the recording measured"
                                 : "energy on: each run also measures joules per reduction "
                                   "(NVML)");
        break;
    default: return ui_prompt_for(a, act);
    }
    return 1;
}

/* ---- the loop --------------------------------------------------------------------------- */

static void draw_status(ui_app *a, const ui_layout *l)
{
    double progress = 0.0;
    char what[96];
    ui_blank(l->status.y, 0, l->cols, R_NORMAL);
    if (a->quit_armed) { /* the question is what matters now, not the progress */
        ui_blank(l->status.y, 0, l->cols, R_WARN);
        ui_put(l->status.y, 1, l->cols - 2, R_WARN,
               "A run is going on: q again quits, any other key stays.");
        return;
    }
    if (ui_busy(a) && ui_worker_busy(a->worker, &progress, what, sizeof what)) {
        const int x =
            ui_putf(l->status.y, 1, l->cols - 1, R_ACCENT, "%s %s %3.0f%% %s ", ui_spinner(a->tick),
                    a->job == UI_JOB_RUN ? "running" : "working", 100.0 * progress, what);
        const int barw = l->cols - x - 22;
        if (barw > 5) ui_bar(l->status.y, 1 + x, barw, progress, R_BAR);
        ui_put(l->status.y, l->cols - 20, 20, R_DIM, " Esc cancels");
        return;
    }
    ui_put(l->status.y, 1, l->cols - 2, a->status_role, a->status);
}

static void draw_footer(ui_app *a, const ui_layout *l)
{
    char text[512];
    const ui_enter e = ui_enter_does(a);
    const char *run = e == UI_ENTER_RECORDED                                     ? "show"
                      : e == UI_ENTER_RUNS                                       ? NULL
                      : a->sel == RS_V_CPU && a->screen == UI_SCREEN_EXPLORER    ? "run"
                      : a->sel == RS_V_KERNEL && a->screen == UI_SCREEN_EXPLORER ? "compile"
                                                                                 : "";
    ui_footer_text(a->screen, l->cols, run, text, sizeof text);
    ui_blank(l->footer.y, 0, l->cols, R_HEADER);
    ui_put(l->footer.y, 0, l->cols, R_HEADER, text);
}

static void draw(ui_app *a)
{
    ui_layout l;
    erase();
    ui_layout_compute(LINES, COLS, a->screen, &l);
    if (l.too_small) {
        ui_putf(0, 0, COLS, R_BAD, "Terminal too small: %dx%d.", COLS, LINES);
        ui_putf(1, 0, COLS, R_NORMAL, "redscope needs %dx%d;", UI_MIN_COLS, UI_MIN_ROWS);
        ui_put(2, 0, COLS, R_NORMAL, "enlarge it, or q to quit.");
        ui_put(3, 0, COLS, R_DIM, "Other keys are ignored until it fits.");
        if (a->quit_armed) ui_put(5, 0, COLS, R_WARN, "A run is going on: q again quits.");
        refresh();
        return;
    }
    ui_draw_header(a, &l);
    if ((unsigned)a->screen < UI_SCREEN_COUNT) ui_screens[a->screen].draw(a, &l);
    draw_footer(a, &l);
    curs_set(a->prompt->kind ? 1 : 0);
    if (a->prompt->kind)
        ui_draw_prompt(a, &l);
    else
        draw_status(a, &l);
    refresh();
}

/* Below the smallest size nothing is seen: only q acts (and the signals),
 * so no key changes what the screen will show once it fits. */
static int too_small(void)
{
    return LINES < UI_MIN_ROWS || COLS < UI_MIN_COLS;
}

/* A key as the help names it ("p", "Enter", "PgDn"); 0 for none. */
static int unbound_name(int ch, char *buf, size_t len)
{
    static const struct {
        int key;
        const char *name;
    } named[] = {{'\n', "Enter"},      {'\r', "Enter"},     {KEY_ENTER, "Enter"},
                 {' ', "Space"},       {'\t', "Tab"},       {KEY_BTAB, "Shift-Tab"},
                 {KEY_UP, "Up"},       {KEY_DOWN, "Down"},  {KEY_LEFT, "Left"},
                 {KEY_RIGHT, "Right"}, {KEY_PPAGE, "PgUp"}, {KEY_NPAGE, "PgDn"},
                 {KEY_HOME, "Home"},   {KEY_END, "End"},    {KEY_BACKSPACE, "Backspace"},
                 {KEY_DC, "Delete"},   {KEY_IC, "Insert"}};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (named[i].key == ch) return snprintf(buf, len, "%s", named[i].name) > 0;
    if (ch > ' ' && ch < 127) return snprintf(buf, len, "%c", ch) > 0;
    if (ch >= KEY_F(1) && ch <= KEY_F(24)) return snprintf(buf, len, "F%d", ch - KEY_F0) > 0;
    return 0;
}

static int handle_key(ui_app *a, int ch)
{
    if (ch == KEY_RESIZE) return 0;
    if (too_small() && ui_key_action(UI_SCREEN_EXPLORER, ch) != UI_ACT_QUIT) return 0;
    if (a->prompt->kind && !too_small()) {
        ui_prompt_key(a, ch);
        return 0;
    }
    if (a->screen == UI_SCREEN_PRESENT && ch >= '0' && ch <= '9') ui_present_digit(a, ch);
    const ui_action act = too_small() ? UI_ACT_QUIT
                          : a->screen == UI_SCREEN_PRESENT && ch >= '0' && ch <= '9'
                              ? UI_ACT_DIGIT
                              : ui_key_action(a->screen, ch);
    if (act == UI_ACT_QUIT) {
        if (!ui_busy(a) || a->quit_armed) return 1;
        a->quit_armed = 1;
        return 0;
    }
    if (a->quit_armed) { /* any other key answers "stay" */
        a->quit_armed = 0;
        ui_status(a, R_NORMAL, "staying: the run goes on (Esc cancels it)");
        return 0;
    }
    char name[24];
    const int unbound = a->status_unbound;
    a->status_unbound = 0;
    if (unbound) ui_status(a, R_NORMAL, "%s", ""); /* it is no longer true */
    if ((act == UI_ACT_NONE || !action(a, act)) && unbound_name(ch, name, sizeof name)) {
        /* the status line says what every key did */
        ui_status(a, R_NORMAL, "%s does nothing on the %s screen (? lists its keys)", name,
                  ui_screen_name(a->screen));
        a->status_unbound = 1;
    }
    return 0;
}

static int init_app(ui_app *a, const ui_options *cli)
{
    memset(a, 0, sizeof *a);
    a->opt = *cli;
    a->take_events = ui_take_events;
    a->cfg = cli->req;
    a->sel = (int)cli->req.variant;
    /* each screen's own state (its header), and the kernel's and the prompt's */
    a->src = calloc(1, sizeof *a->src);
    a->lad = calloc(1, sizeof *a->lad);
    a->sweep = calloc(1, sizeof *a->sweep);
    a->cmp = calloc(1, sizeof *a->cmp);
    a->pre = calloc(1, sizeof *a->pre);
    a->rp = calloc(1, sizeof *a->rp);
    a->prompt = calloc(1, sizeof *a->prompt);
    a->uk = calloc(1, sizeof *a->uk);
    a->ag = calloc(1, sizeof *a->ag);
    a->pres = calloc(1, sizeof *a->pres);
    if (!a->src || !a->lad || !a->sweep || !a->cmp || !a->pre || !a->rp || !a->prompt || !a->uk ||
        !a->ag || !a->pres)
        return RS_E_NOMEM;
    a->last = calloc(RS_VARIANT_COUNT, sizeof *a->last);
    a->checks = calloc(RS_VARIANT_COUNT, sizeof *a->checks);
    a->lad->rows = calloc(UI_LADDER_ROWS, sizeof *a->lad->rows);
    a->failed = calloc(RS_VARIANT_COUNT, sizeof *a->failed);
    if (!a->last || !a->lad->rows || !a->checks || !a->failed) return RS_E_NOMEM;
    a->sweep->vars = cli->req.variants ? cli->req.variants : rs_variant_set_with(RS_VF_SWEEP_SET);
    snprintf(a->sweep->range, sizeof a->sweep->range, "%s", cli->req.sweep);
    if (cli->preset) {
        snprintf(a->preset_name, sizeof a->preset_name, "%s", cli->preset);
        a->preset_cfg = cli->req;
        a->has_preset = 1;
    }
    ui_status(a, R_NORMAL, "Up/Down picks a variant, Enter runs it, ? explains every key.");
    return RS_OK;
}

static void free_app(ui_app *a)
{
    free(a->last);
    free(a->failed);
    free(a->checks);
    if (a->lad) free(a->lad->rows);
    if (a->pre) free(a->pre->list);
    if (a->sweep) rs_sweep_free(&a->sweep->data);
    rs_recording_free(&a->rec);
    if (a->ag && a->ag->has) rs_recording_free(&a->ag->rec);
    if (a->rp) free(a->rp->configs);
    if (a->uk) ui_kernel_free(a);
    if (a->pres) ui_notes_close(a);
    free(a->pres);
    free(a->src), free(a->lad), free(a->sweep), free(a->cmp);
    free(a->pre), free(a->rp), free(a->prompt), free(a->uk);
    if (a->ag && ui_reader_stop(&a->ag->reader)) free(a->ag); /* else still read into */
}

static long long clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000L;
}

/* The spinner's clock: tenths of a second. */
static unsigned ticks(void)
{
    return (unsigned)(clock_ms() / 100);
}

/* Until a key, an event from the worker, a signal or ms pass. Events wake
 * the screen at most every 20 ms (a sweep's progress comes faster). */
static void wait_input(ui_app *a, int ms)
{
    struct pollfd fd[2] = {{0, POLLIN, 0}, {ui_worker_wake_fd(a->worker), POLLIN, 0}};
    const int n = fd[1].fd >= 0 ? 2 : 1;
    const long long t0 = clock_ms();
    if (poll(fd, (nfds_t)n, ms) > 0 && n == 2 && (fd[1].revents & POLLIN)) {
        ui_worker_drain_wake(a->worker);
        const long long left = 20 - (clock_ms() - t0);
        if (left > 0 && !(fd[0].revents & POLLIN)) poll(fd, 1, (int)left);
    }
}

/* Signals set a flag; curses in cbreak, no echo, keypad; getch does not
 * wait (wait_input does, on the terminal and the worker together). */
static int start_curses(ui_app *a, int color)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: getch returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL); /* Ctrl-\ too leaves the terminal as it found it */
    const char *term = getenv("TERM");
    /* newterm, not initscr: an unknown TERM is said here, not by ncurses'
     * exit(1), the code of a wrong result */
    SCREEN *scr = term && *term ? newterm(NULL, stdout, stdin) : NULL;
    if (!scr) {
        ui_error("the terminal %s%s%s is unknown here: set TERM to one terminfo knows "
                 "(xterm-256color, screen, tmux-256color); for scripts use run, ladder or sweep",
                 term && *term ? "'" : "(TERM is ", term && *term ? term : "empty",
                 term && *term ? "'" : ")");
        return RS_E_TERMINAL;
    }
    if (!ui_term_moves_cursor()) { /* TERM=dumb: nothing could be drawn in place */
        endwin();
        delscreen(scr);
        ui_error("the terminal '%s' cannot move its cursor, and the explorer draws in place: "
                 "set TERM to one that can (xterm-256color, screen); for scripts use run, "
                 "ladder or sweep",
                 term);
        return RS_E_TERMINAL;
    }
    curses_on = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Home and End as terminals send them whatever TERM says (tmux: ESC[1~) */
    static const char *const home[] = {"\033[1~", "\033[7~", "\033[H", "\033OH"};
    static const char *const end[] = {"\033[4~", "\033[8~", "\033[F", "\033OF"};
    for (int i = 0; i < 4; i++) {
        if (key_defined(home[i]) <= 0) define_key(home[i], KEY_HOME);
        if (key_defined(end[i]) <= 0) define_key(end[i], KEY_END);
    }
    set_escdelay(25);
    timeout(0);
    const char *theme = getenv("REDSCOPE_THEME");
    ui_theme_init(color, a->utf8, a->opt.contrast || (theme && strcmp(theme, "contrast") == 0));
    return 0;
}

/* Refused before the screen is taken: a bad recording, or no terminal.
 * The recording read here is the one replayed (*replay): read once. */
static int check_start(ui_app *a, const ui_options *cli, rs_recording *replay)
{
    if (cli->replay) {
        rs_error err;
        if (rs_recording_load(cli->replay, replay, &err) != RS_OK) {
            ui_error("%s", err.msg);
            return err.code;
        }
    }
    if (cli->against) { /* read once here, to be refused before the screen is taken */
        rs_error err;
        if (rs_recording_load(cli->against, &a->ag->rec, &err) != RS_OK) {
            ui_error("--against %s", err.msg);
            return err.code;
        }
        a->ag->has = 1;
        snprintf(a->ag->path, sizeof a->ag->path, "%s", cli->against);
    }
    if (!isatty(0) || !isatty(1)) {
        ui_error("the explorer needs a terminal; for scripts use run, ladder or sweep");
        return RS_E_USAGE;
    }
    return 0;
}

int ui_main(const ui_options *cli)
{
    ui_app *a = calloc(1, sizeof *a);
    if (!a || init_app(a, cli) != RS_OK) {
        ui_error("out of host memory");
        if (a) free_app(a); /* what init_app did get */
        free(a);
        return RS_E_NOMEM;
    }
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET), *no_color = getenv("NO_COLOR");
    a->utf8 = cs && strcmp(cs, "UTF-8") == 0;
    rs_recording replay;
    memset(&replay, 0, sizeof replay);
    int rc = check_start(a, cli, &replay);
    if (!rc) rc = start_curses(a, !cli->no_color && !(no_color && *no_color));
    if (rc) {
        rs_recording_free(&replay);
        free_app(a);
        free(a);
        return rc;
    }
    draw(a); /* the first frame before CUDA starts */
    if (cli->replay)
        ui_replay_use(a, cli->replay, &replay, cli->ask ? &a->cfg : NULL, cli->ask);
    else
        a->worker = ui_worker_start((int)cli->req.device, cli->req.gpus, NULL);
    if (!a->worker) ui_status(a, R_BAD, "cannot start the worker thread");
    if (cli->present) { /* redscope present: the deck from its title */
        ui_present_begin(a, 1);
        a->screen = UI_SCREEN_PRESENT;
        a->back = UI_SCREEN_EXPLORER;
    }

    int done = 0, typed = 0;
    while (!done && !got_signal) {
        ui_take_events(a);
        ui_against_poll(a);      /* a recording read off this thread, once read */
        ui_source_sass_retry(a); /* a SASS request that waited for a run to end */
        ui_kernel_watch(a);      /* a stat every 250 ms: a save runs the kernel again */
        ui_present_tick(a);      /* live: a slide's step run as it opens; the notes told */
        draw(a);
        if (!typed) wait_input(a, 100); /* after a key curses may hold more typed ahead */
        const int ch = getch();
        a->tick = ticks();
        typed = ch != ERR;
        if (ch != ERR) done = handle_key(a, ch);
    }
    restore_terminal();
    const int sig = got_signal;
    if (!ui_worker_stop(a->worker, 3.0)) { /* inside a CUDA call, perhaps reading a->rec */
        fprintf(stderr, "redscope: left while the GPU was busy\n");
        _exit(sig ? 128 + sig : 0);
    }
    free_app(a);
    free(a);
    return sig ? 128 + sig : 0;
}
