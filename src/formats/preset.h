/* Presets: a request saved as an INI file, read with inih.
 *
 *   [preset]  note = ...
 *   [run]     variant, variants, type, op, n, block, ... (the request table)
 *   [sweep]   range = 2^10..2^28
 *
 * Keys, ranges and defaults come from RS_REQUEST_FIELDS, so a preset sets
 * exactly what a flag can. A file is applied whole or not at all.
 */
#ifndef RS_PRESET_H
#define RS_PRESET_H

#include <stddef.h>

#include "core/error.h"
#include "core/request.h"

#define RS_PRESET_NAME_MAX 64
#define RS_PATH_MAX        4096

typedef struct rs_preset_info {
    char name[RS_PRESET_NAME_MAX];
    char path[RS_PATH_MAX];
    char note[RS_NOTE_MAX];
    int shipped; /* 1: installed with redscope; 0: the user's */
    int valid;
    char error[512];
} rs_preset_info;

/* A folder shipped with redscope ("presets", "recordings", "kernels",
 * "cubins"): under $REDSCOPE_DATA_DIR, else found from the program itself,
 * wherever it is: share/redscope beside it (a build tree, which CMake lays
 * out so), ../share/redscope (installed under any prefix), and last the
 * prefix it was built for (the program copied away from its data); "" when
 * none exists. */
const char *rs_shipped_dir(const char *what, char *buf, size_t len);
/* The running program's folder ("" where /proc/self/exe cannot be read). */
void rs_program_dir(char *buf, size_t len);
/* Whether path is a folder: 1, and it in buf as the folder it is (no "..",
 * no link; path itself where that does not fit); 0 else. */
int rs_folder_at(const char *path, char *buf, size_t len);

/* The kernel template users start from, as a path that opens from here:
 * conf/kernels/template.cu in a checkout (the folder the program runs in),
 * else the shipped one (installed: share/redscope/kernels/template.cu). */
const char *rs_template_path(void);

/* The shipped presets' folder ("" when none is found). */
const char *rs_preset_shipped_dir(void);

/* $XDG_CONFIG_HOME/redscope/presets, or ~/.config/redscope/presets. */
rs_status rs_preset_user_dir(char *buf, size_t len, rs_error *err);

/* NAME or NAME.ini (user presets first, then shipped) or a path to an .ini
 * file; a directory is refused as one. */
rs_status rs_preset_resolve(const char *name_or_path, char *path, size_t len, rs_error *err);

/* Defaults plus the file's settings into *r, or r untouched and err saying
 * file:line, the key and what was expected. */
rs_status rs_preset_read_file(const char *path, rs_request *r, rs_error *err);

/* The same from text in memory; `label` names it in messages. */
rs_status rs_preset_read_string(const char *text, const char *label, rs_request *r, rs_error *err);

/* INI text of a request (what rs_preset_write puts in a file). */
rs_status rs_preset_format(const rs_request *r, char *buf, size_t len);

/* Write atomically: a temporary file beside `path`, flushed, then renamed.
 * Without force an existing file is left alone and RS_E_IO says so. */
rs_status rs_preset_write(const char *path, const rs_request *r, int force, rs_error *err);

/* Save under NAME (or NAME.ini) in the user's folder (created if needed);
 * path_out gets the file. Without force RS_E_IO refuses two cases, both of
 * which a user can confirm (force = 1):
 *   - NAME is one of the user's presets: the message says "exists";
 *   - NAME would hide a shipped preset, exactly when
 *     rs_preset_would_shadow(NAME): the message says "'NAME' would shadow
 *     the shipped preset of that name". Callers that ask tell the two apart
 *     with rs_preset_would_shadow, not by reading the message. */
rs_status rs_preset_save(const char *name, const rs_request *r, int force, char *path_out,
                         size_t len, rs_error *err);

/* 1 when saving NAME (or NAME.ini) would shadow a shipped preset: one of
 * that name is shipped and the user has none of that name yet. */
int rs_preset_would_shadow(const char *name);

/* 1 when name is usable as a file name: letters, digits, '.', '_', '-'. */
int rs_preset_name_ok(const char *name);

/* Every shipped and user preset, shipped first, each kind by name, each
 * read (its note or its error): malloc'd, *n of them (NULL, 0 when there
 * are none or no memory). No cap: 3,000 presets are 3,000 rows. */
rs_preset_info *rs_preset_list(int *n);

#endif
