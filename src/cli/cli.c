/* What every command shares to speak: its one-line errors, and
 * --save-preset. */
#include "cli.h"

#include <stdarg.h>

#include "formats/preset.h"
#include "core/text.h"

void rs_cli_error(const char *fmt, ...)
{
    char msg[8192], safe[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* what it quotes came from outside (files, logs, values): seen, not obeyed */
    fflush(stdout); /* what was printed first comes first where both go to one file */
    fprintf(stderr, "redscope: %s\n", rs_text_safe(msg, 1, safe, sizeof safe));
}

int rs_cli_save_preset(const rs_cli *cli)
{
    if (!cli->save_preset) return 0;
    char path[RS_PATH_MAX];
    rs_error err;
    if (rs_preset_save(cli->save_preset, &cli->req, cli->force, path, sizeof path, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return (int)err.code;
    }
    fprintf(stderr, "redscope: saved preset to %s\n", path);
    return 0;
}
