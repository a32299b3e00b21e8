/* Outputs are checked before any kernel runs: a recording, a chart and its
 * gnuplot, so a long measurement never ends in "cannot write". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/error.h"

int rs_on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char buf[4096];
    for (const char *p = path; *p;) {
        const size_t len = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, name);
        if (access(buf, X_OK) == 0) return 1;
        p += len;
        if (*p == ':') p++;
    }
    return 0;
}

/* A file redscope may create or replace: not a directory, in a directory
 * that exists and can be written. */
static int writable(const char *what, const char *file)
{
    struct stat sb;
    if (!file[0]) {
        rs_cli_error("%s: an empty file name", what);
        return RS_E_USAGE;
    }
    if (stat(file, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        rs_cli_error("%s '%s' is a directory: give a file name", what, file);
        return RS_E_IO;
    }
    char dir[4096];
    const char *slash = strrchr(file, '/');
    if (slash == file)
        snprintf(dir, sizeof dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
    else
        snprintf(dir, sizeof dir, ".");
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        rs_cli_error("cannot write %s '%s': the directory '%s' does not exist", what, file, dir);
        return RS_E_IO;
    }
    if (access(dir, W_OK) != 0 || (access(file, F_OK) == 0 && access(file, W_OK) != 0)) {
        rs_cli_error("cannot write %s '%s': %s", what, file, strerror(EACCES));
        return RS_E_IO;
    }
    return 0;
}

int rs_cli_check_outputs(const rs_cli *cli)
{
    int rc;
    if (cli->record && (rc = writable("recording", cli->record))) return rc;
    if (!cli->plot) return 0;
    const char *dot = strrchr(cli->plot, '.');
    if (!dot || (strcmp(dot, ".svg") != 0 && strcmp(dot, ".png") != 0)) {
        rs_cli_error("--plot needs a file ending in .svg or .png, not '%s'", cli->plot);
        return RS_E_USAGE;
    }
    if ((rc = writable("chart", cli->plot))) return rc;
    if (!rs_on_path("gnuplot")) {
        rs_cli_error("--plot needs gnuplot, which is not installed (apt-get install gnuplot-nox)");
        return RS_E_IO;
    }
    return 0;
}

const char *rs_gnuplot_quote(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 2 < len; s++) {
        if (*s == '\'') out[k++] = '\''; /* '' is a quote inside '...' */
        const unsigned char c = (unsigned char)*s;
        out[k++] = c < 0x20 || c == 0x7f ? ' ' : *s; /* a newline would end the command */
    }
    out[k] = '\0';
    return out;
}

int rs_cli_gnuplot(const char *file, const char *csv, const char *script)
{
    if (!rs_on_path("gnuplot")) {
        rs_cli_error("gnuplot is not installed (apt-get install gnuplot-nox): no %s; the data "
                     "is in %s",
                     file, csv);
        return RS_E_IO;
    }
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        rs_cli_error("cannot start gnuplot: %s", strerror(errno));
        return RS_E_IO;
    }
    const int svg = strcmp(strrchr(file, '.') ? strrchr(file, '.') : "", ".svg") == 0;
    char quoted[8192];
    fprintf(g, "set terminal %s size 1000,620\nset output '%s'\nset datafile separator ','\n%s",
            svg ? "svg dynamic" : "pngcairo", rs_gnuplot_quote(file, quoted, sizeof quoted),
            script);
    const int rc = pclose(g);
    struct stat st;
    if (rc != 0 || stat(file, &st) != 0 || st.st_size == 0) {
        rs_cli_error("gnuplot failed to draw %s (the data is in %s)", file, csv);
        return RS_E_IO;
    }
    fprintf(stderr, "redscope: chart in %s, data in %s\n", file, csv);
    return 0;
}
