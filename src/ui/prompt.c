/* The one-line prompt on the status row: n, blockDim, elements per thread,
 * repetitions, sweep variants and range, preset names and your kernel's
 * file (Tab completes its path). The pre-filled
 * value is selected: typing replaces it, Backspace edits it; Ctrl-U clears
 * the line and Ctrl-W the last word. A bad value keeps the prompt open with
 * the reason. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "sweep_screen.h"
#include "prompt.h"
#include "presets.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "draw.h"

#define CTRL_U 21
#define CTRL_W 23

void ui_prompt_open(ui_app *a, ui_prompt_kind kind, const char *initial)
{
    a->prompt->kind = kind;
    a->prompt->set = NULL;
    a->prompt->complete = NULL;
    snprintf(a->prompt->buf, sizeof a->prompt->buf, "%s", initial);
    a->prompt->fresh = initial[0] != '\0';
    a->prompt->error[0] = a->prompt->hint[0] = '\0';
}

void ui_prompt_open_file(ui_app *a, ui_prompt_kind kind, const char *initial,
                         int (*set)(ui_app *a, const char *path), void (*complete)(ui_app *a))
{
    ui_prompt_open(a, kind, initial);
    a->prompt->set = set;
    a->prompt->complete = complete;
}

static const char *prompt_label(const ui_app *a)
{
    const ui_prompt_kind k = a->prompt->kind;
    if (k == UI_PROMPT_NOTE && !a->cfg.note[0]) /* nothing shown to keep */
        return "its note, what it shows (Enter: none)";
    switch (k) {
    case UI_PROMPT_N: return "n (16777216, 2^24, 16M, 1024*65535)";
    case UI_PROMPT_BLOCK: return "blockDim (32..1024)";
    case UI_PROMPT_EPT: return "elements per thread (0: automatic)";
    case UI_PROMPT_REPS: return "timed repetitions";
    case UI_PROMPT_SAVE: return "save preset as";
    case UI_PROMPT_NOTE: return "its note, what it shows (Enter keeps it as shown)";
    case UI_PROMPT_OVERWRITE: return "it exists; type yes to replace it";
    case UI_PROMPT_SHADOW: return "a shipped preset has this name; type yes to save yours over it";
    case UI_PROMPT_VARIANTS: return "sweep variants (a,b or first..last)";
    case UI_PROMPT_RANGE: return "sweep range (2^10..2^28, 1K..1G:4, 1000,2^20)";
    case UI_PROMPT_KERNEL: return "kernel file";
    case UI_PROMPT_AGAINST: return "recording to hold against";
    default: return "";
    }
}

/* rs_preset_save asks for force to replace a preset of the user's, or to
 * shadow a shipped one (a usage error, as --force's absence on the command
 * line); which of the two is asked with the preset API. */
static ui_prompt_kind needs_confirmation(rs_status st, const char *name)
{
    if (st == RS_OK) return UI_PROMPT_NONE;
    if (rs_preset_would_shadow(name)) return UI_PROMPT_SHADOW;
    char path[RS_PATH_MAX];
    rs_error err;
    return rs_preset_resolve(name, path, sizeof path, &err) == RS_OK ? UI_PROMPT_OVERWRITE
                                                                     : UI_PROMPT_NONE;
}

static void save_preset(ui_app *a, int force)
{
    char path[RS_PATH_MAX];
    rs_error err;
    rs_request r = a->cfg;
    r.variant = (rs_variant)a->sel;
    char name[sizeof a->prompt->buf];
    snprintf(name, sizeof name, "%s", a->prompt->buf);
    const rs_status st = rs_preset_save(name, &r, force, path, sizeof path, &err);
    const ui_prompt_kind ask = force ? UI_PROMPT_NONE : needs_confirmation(st, name);
    if (ask != UI_PROMPT_NONE) {
        snprintf(a->preset_name, sizeof a->preset_name, "%.60s", name);
        ui_prompt_open(a, ask, "");
        return;
    }
    if (st != RS_OK) { /* a bad name: say why and let it be corrected */
        a->prompt->kind = UI_PROMPT_SAVE;
        snprintf(a->prompt->buf, sizeof a->prompt->buf, "%s", name);
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return;
    }
    a->prompt->kind = UI_PROMPT_NONE;
    snprintf(a->preset_name, sizeof a->preset_name, "%.60s", name);
    a->preset_cfg = r;
    a->has_preset = 1;
    ui_presets_load(a); /* the Presets screen lists it at once */
    for (int i = 0; i < a->pre->n; i++)
        if (!a->pre->list[i].shipped && strcmp(a->pre->list[i].name, name) == 0) a->pre->sel = i;
    ui_status(a, R_GOOD, "saved preset to %s", path);
}

/* Set a request field from the prompt; the status says what it became. */
static int set_field(ui_app *a, const char *key, const char *what)
{
    rs_error err;
    rs_request r = a->cfg;
    const rs_field *f = rs_field_by_key("run", key);
    if (rs_field_set(&r, f, a->prompt->buf, &err) != RS_OK) {
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return 0;
    }
    a->cfg = r;
    char v[64];
    rs_field_format(&r, f, v, sizeof v);
    static const char *const then[] = {
        [UI_ENTER_RUNS] = "Enter runs it",
        [UI_ENTER_RECORDED] = "Enter shows its recorded run",
        [UI_ENTER_COMPILES] = "no GPU: R replays a recording",
    };
    if (strcmp(key, "n") == 0) {
        char digits[40];
        rs_fmt_count((double)r.n, digits, sizeof digits);
        ui_status(a, R_GOOD, "%s set to %s (%s): %s", what, v, digits, then[ui_enter_does(a)]);
    } else {
        ui_status(a, R_GOOD, "%s set to %s: %s", what, v, then[ui_enter_does(a)]);
    }
    return 1;
}

/* What Enter does with the sweep, as the source can. */
static const char *sweep_then(const ui_app *a)
{
    static const char *const then[] = {
        [UI_ENTER_RUNS] = "Enter runs the sweep",
        [UI_ENTER_RECORDED] = "Enter shows the sweep recorded with these settings",
        [UI_ENTER_COMPILES] = "no GPU: R replays a recording that holds a sweep",
    };
    return then[ui_enter_does(a)];
}

static int set_sweep(ui_app *a)
{
    rs_error err;
    if (a->prompt->kind == UI_PROMPT_VARIANTS) {
        rs_variant_set mask;
        if (rs_parse_variants(a->prompt->buf, &mask, &err) != RS_OK) goto bad;
        const rs_variant_set all = rs_variant_set_with(0) & ~rs_variant_set_with(RS_VF_HOST);
        a->sweep->vars = mask ? mask : a->cfg.kernel[0] ? all : all & ~RS_VARIANT_BIT(RS_V_KERNEL);
        ui_status(a, R_GOOD, "sweep variants set: %s", sweep_then(a));
        return 1;
    }
    rs_sweep_sizes sizes;
    if (rs_sweep_parse(a->prompt->buf, &sizes, &err) != RS_OK) goto bad;
    snprintf(a->sweep->range, sizeof a->sweep->range, "%.*s", RS_SWEEP_MAX - 1, a->prompt->buf);
    ui_status(a, R_GOOD, "sweep range %s: %d size%s; %s", a->sweep->range, sizes.count,
              sizes.count == 1 ? "" : "s", sweep_then(a));
    return 1;
bad:
    snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
    return 0;
}

static void confirm(ui_app *a)
{
    if (strcmp(a->prompt->buf, "yes") == 0) {
        snprintf(a->prompt->buf, sizeof a->prompt->buf, "%s", a->preset_name);
        save_preset(a, 1);
    } else {
        a->prompt->kind = UI_PROMPT_NONE;
        ui_status(a, R_WARN, "not saved");
    }
}

/* s: a usable name, then its note (what the presets list shows), then
 * the save; a bad name keeps the name's prompt open with why. */
static void ask_note(ui_app *a)
{
    char name[sizeof a->prompt->buf];
    snprintf(name, sizeof name, "%s", a->prompt->buf);
    const size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".ini") == 0) name[n - 4] = '\0';
    if (!rs_preset_name_ok(name)) {
        char path[RS_PATH_MAX];
        rs_error err; /* the name is checked first: nothing is written */
        rs_preset_save(name, &a->cfg, 0, path, sizeof path, &err);
        snprintf(a->prompt->error, sizeof a->prompt->error, "%s", err.msg);
        return;
    }
    snprintf(a->prompt->save_name, sizeof a->prompt->save_name, "%s", a->prompt->buf);
    ui_prompt_open(a, UI_PROMPT_NOTE, a->cfg.note);
}

static void prompt_enter(ui_app *a)
{
    int ok = 1;
    switch (a->prompt->kind) {
    case UI_PROMPT_N: ok = set_field(a, "n", "n"); break;
    case UI_PROMPT_BLOCK: ok = set_field(a, "block", "blockDim"); break;
    case UI_PROMPT_EPT: ok = set_field(a, "elements_per_thread", "elements per thread"); break;
    case UI_PROMPT_REPS: ok = set_field(a, "repetitions", "repetitions"); break;
    case UI_PROMPT_SAVE: ask_note(a); return;
    case UI_PROMPT_NOTE:
        snprintf(a->cfg.note, sizeof a->cfg.note, "%s", a->prompt->buf);
        snprintf(a->prompt->buf, sizeof a->prompt->buf, "%s", a->prompt->save_name);
        save_preset(a, 0);
        return;
    case UI_PROMPT_OVERWRITE:
    case UI_PROMPT_SHADOW: confirm(a); return;
    case UI_PROMPT_VARIANTS:
    case UI_PROMPT_RANGE: ok = set_sweep(a); break;
    case UI_PROMPT_KERNEL:
    case UI_PROMPT_AGAINST: ok = a->prompt->set && a->prompt->set(a, a->prompt->buf); break;
    default: break;
    }
    if (ok) a->prompt->kind = UI_PROMPT_NONE;
}

static void delete_word(char *buf)
{
    size_t len = strlen(buf);
    while (len && buf[len - 1] == ' ') len--;
    while (len && buf[len - 1] != ' ' && buf[len - 1] != ',' && buf[len - 1] != '.') len--;
    buf[len] = '\0';
}

void ui_prompt_key(ui_app *a, int ch)
{
    const int fresh = a->prompt->fresh;
    a->prompt->fresh = 0;
    if (ch == 27) {
        a->prompt->kind = UI_PROMPT_NONE;
        ui_status(a, R_NORMAL, "unchanged");
        return;
    }
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        prompt_enter(a);
        return;
    }
    a->prompt->error[0] = a->prompt->hint[0] = '\0';
    if (ch == '\t') {
        if (a->prompt->complete) a->prompt->complete(a);
        return;
    }
    size_t len = strlen(a->prompt->buf);
    if (ch == CTRL_U) {
        a->prompt->buf[0] = '\0';
    } else if (ch == CTRL_W) {
        delete_word(a->prompt->buf);
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (len) a->prompt->buf[len - 1] = '\0';
    } else if (ch >= 32 && ch < 127) {
        if (fresh) len = 0; /* the pre-filled value was selected: replace it */
        /* a path may be long; the other answers fit RS_SWEEP_MAX */
        const size_t cap =
            a->prompt->kind == UI_PROMPT_KERNEL || a->prompt->kind == UI_PROMPT_AGAINST
                ? sizeof a->prompt->buf
                : RS_SWEEP_MAX;
        if (len + 1 < cap) {
            a->prompt->buf[len] = (char)ch;
            a->prompt->buf[len + 1] = '\0';
        }
    } else {
        a->prompt->fresh = fresh; /* other keys leave the selection as it was */
    }
}

/* The answer, or its tail after an ellipsis where the whole would crowd out
 * the message beside it: a long path must not hide why it was refused. */
static int put_answer(int y, int x, int cols, const ui_app *a, const char *msg)
{
    const char *s = a->prompt->buf;
    const ui_role role = a->prompt->fresh ? R_ACCENT : R_SELECTED;
    const int avail = cols - x, want = msg[0] ? ui_width(msg) + 2 : 0;
    const int keep = avail - (want < avail / 2 ? want : avail / 2);
    if (ui_width(s) <= keep || keep < 8) return ui_put(y, x, avail, role, s);
    while (*s && ui_width(s) > keep - 1) {
        s++;
        while ((*s & 0xC0) == 0x80) s++; /* never start inside a UTF-8 character */
    }
    const int dots = ui_put(y, x, 1, role, ui_theme_utf8() ? "\xe2\x80\xa6" : "~");
    return dots + ui_put(y, x + dots, avail - dots, role, s);
}

/* The reason a value was refused, without "bad value 'X' for NAME: ":
 * the field is named and its value shown beside it; a path the reason
 * quotes is cut to its file's name, the prompt showing it whole. */
static void prompt_reason(const ui_app *a, char *why, size_t len)
{
    const char *buf = a->prompt->buf, *e = a->prompt->error;
    char lead[sizeof a->prompt->buf + 32];
    snprintf(lead, sizeof lead, "bad value '%s' for ", buf);
    const size_t n = strlen(lead);
    const char *colon = strncmp(e, lead, n) == 0 ? strstr(e + n, ": ") : NULL;
    if (colon) e = colon + 2;
    const char *slash = strrchr(buf, '/'), *at = buf[0] ? strstr(e, buf) : NULL;
    if (!at || !slash || !slash[1]) {
        snprintf(why, len, "%s", e);
        return;
    }
    snprintf(why, len, "%.*s%s%s", (int)(at - e), e, slash + 1, at + strlen(buf));
}

/* A reason too long for the prompt's row goes above it, wrapped over as
 * many rows as it takes (up to 8, under the header): a bound is never
 * cut ("from 0 to…"), nor the end of a long one. */
static void put_reason_above(int y, int cols, const char *why)
{
    char lines[8][256];
    const int room = y - 1 < 8 ? y - 1 : 8;
    const int n = ui_wrap(why, cols - 2, lines, room > 1 ? room : 1);
    for (int i = 0; i < n; i++) {
        ui_blank(y - n + i, 0, cols, R_SELECTED);
        ui_put(y - n + i, 1, cols - 2, R_BAD, lines[i]);
    }
}

void ui_draw_prompt(const ui_app *a, const ui_layout *l)
{
    const int y = l->status.y, cols = l->cols;
    ui_blank(y, 0, cols, R_SELECTED);
    int x = ui_putf(y, 0, cols, R_SELECTED, " %s: ", prompt_label(a));
    char why[sizeof a->prompt->error] = "";
    if (a->prompt->error[0]) prompt_reason(a, why, sizeof why);
    /* beside the answer where both fit (the answer cut to half the row at
     * most), else above it */
    const int avail = cols - x, answer = ui_width(a->prompt->buf) + 1;
    const int above =
        why[0] && ui_width(why) + 2 > avail - (answer < avail / 2 ? answer : avail / 2);
    x += put_answer(y, x, cols, a, above ? "" : why[0] ? why : a->prompt->hint);
    const int cx = x;
    if (above)
        put_reason_above(y, cols, why);
    else if (why[0])
        ui_put(y, x + 2, cols - x - 2, R_BAD, why);
    else if (a->prompt->hint[0])
        ui_put(y, x + 2, cols - x - 2, R_ACCENT, a->prompt->hint);
    else if (a->prompt->kind == UI_PROMPT_KERNEL || a->prompt->kind == UI_PROMPT_AGAINST)
        ui_put(y, x + 2, cols - x - 2, R_SELECTED,
               a->prompt->fresh ? "(type to replace, Tab completes, Enter keeps, Esc leaves)"
                                : "(Tab completes, Enter sets, empty clears, Esc leaves)");
    else
        ui_put(y, x + 2, cols - x - 2, R_SELECTED,
               a->prompt->fresh ? "(type to replace, Enter keeps, Esc leaves)"
                                : "(Enter sets, Esc leaves, ^U clears, ^W deletes a word)");
    move(y, cx < cols ? cx : cols - 1);
}

/* n, D, e, r, v, g, s: a prompt pre-filled with the current value; 0 for
 * any other action. */
int ui_prompt_for(ui_app *a, ui_action act)
{
    static const struct {
        ui_action act;
        ui_prompt_kind kind;
        const char *key;
    } fields[] = {{UI_ACT_N, UI_PROMPT_N, "n"},
                  {UI_ACT_BLOCK_TYPE, UI_PROMPT_BLOCK, "block"},
                  {UI_ACT_EPT, UI_PROMPT_EPT, "elements_per_thread"},
                  {UI_ACT_REPS, UI_PROMPT_REPS, "repetitions"}};
    char buf[RS_SWEEP_MAX];
    rs_request tmp;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].act == act) {
            rs_field_format(&a->cfg, rs_field_by_key("run", fields[i].key), buf, sizeof buf);
            ui_prompt_open(a, fields[i].kind, buf);
            return 1;
        }
    switch (act) {
    case UI_ACT_VARIANTS:
        rs_request_defaults(&tmp);
        tmp.variants = a->sweep->vars;
        rs_field_format(&tmp, rs_field_by_key("run", "variants"), buf, sizeof buf);
        ui_prompt_open(a, UI_PROMPT_VARIANTS, buf);
        break;
    case UI_ACT_RANGE: ui_prompt_open(a, UI_PROMPT_RANGE, a->sweep->range); break;
    case UI_ACT_SAVE: ui_prompt_open(a, UI_PROMPT_SAVE, a->has_preset ? a->preset_name : ""); break;
    default: return 0;
    }
    return 1;
}
