/* Outputs are checked before any kernel runs: a recording, a chart, its
 * data and gnuplot, so a long measurement never ends in "cannot write";
 * each is written through formats/files.c (a temporary file renamed into
 * place; an existing one only with --force; never the file replayed). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/error.h"
#include "formats/files.h"
#include "formats/preset.h"

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

/* The chart's data file beside it: FILE.svg -> FILE.csv. */
void rs_cli_plot_csv(const char *plot, char *csv, size_t len)
{
    const char *dot = strrchr(plot, '.');
    snprintf(csv, len, "%.*s.csv", (int)(dot ? dot - plot : (long)strlen(plot)), plot);
}

/* Whether output path is one of the files the command reads (its kernels,
 * its preset, the file --against names; the replayed one is rs_out_check's):
 * --force replaces what exists, never what is read. */
static int reads(const rs_cli *cli, const char *what, const char *path)
{
    const char *in[RS_UKERNEL_MAX_FILES + 2];
    int n = 0;
    for (int i = 0; i < cli->nkernels && n < RS_UKERNEL_MAX_FILES; i++) in[n++] = cli->kernels[i];
    if (cli->against) in[n++] = cli->against;
    char preset[4096];
    rs_error ignored;
    if (cli->preset && rs_preset_resolve(cli->preset, preset, sizeof preset, &ignored) == RS_OK)
        in[n++] = preset;
    for (int i = 0; i < n; i++) {
        if (!rs_same_file(path, in[i])) continue;
        rs_cli_error("%s '%s' is a file this command reads: give another name", what, path);
        return RS_E_USAGE;
    }
    return 0;
}

static int checked(const rs_cli *cli, const char *what, const char *path)
{
    rs_error err;
    if (rs_out_check(what, path, cli->force, cli->replay, &err) == RS_OK)
        return reads(cli, what, path);
    rs_cli_error("%s", err.msg);
    return err.code;
}

int rs_cli_check_outputs(const rs_cli *cli)
{
    int rc;
    if (cli->record && (rc = checked(cli, "recording", cli->record))) return rc;
    if (!cli->plot) return 0;
    const char *dot = strrchr(cli->plot, '.');
    if (!dot || (strcmp(dot, ".svg") != 0 && strcmp(dot, ".png") != 0)) {
        rs_cli_error("--plot needs a file ending in .svg or .png, not '%s'", cli->plot);
        return RS_E_USAGE;
    }
    char csv[4096];
    rs_cli_plot_csv(cli->plot, csv, sizeof csv);
    if ((rc = checked(cli, "chart", cli->plot)) || (rc = checked(cli, "chart's data", csv)))
        return rc;
    if (cli->record && (strcmp(cli->record, cli->plot) == 0 || strcmp(cli->record, csv) == 0)) {
        rs_cli_error("--record and --plot name the same file '%s'", cli->record);
        return RS_E_USAGE;
    }
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

/* Whether gnuplot's chart at path is whole: an SVG ends with </svg>, a PNG
 * with its IEND chunk. gnuplot can exit 0 after a write failed (a full
 * disk, a file size limit), leaving half a chart. */
static int chart_whole(const char *path, int svg)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char tail[64] = "";
    size_t got = 0;
    if (fseek(f, -(long)(sizeof tail - 1), SEEK_END) != 0) rewind(f);
    got = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    tail[got] = '\0';
    if (!svg) return got >= 12 && memcmp(tail + got - 8, "IEND", 4) == 0;
    while (got && (tail[got - 1] == '\n' || tail[got - 1] == ' ' || tail[got - 1] == '\r'))
        tail[--got] = '\0';
    return got >= 6 && strcmp(tail + got - 6, "</svg>") == 0;
}

int rs_cli_gnuplot(const char *file, const char *csv, const char *script)
{
    if (!rs_on_path("gnuplot")) {
        rs_cli_error("gnuplot is not installed (apt-get install gnuplot-nox): no %s; the data "
                     "is in %s",
                     file, csv);
        return RS_E_IO;
    }
    rs_error err;
    rs_outfile out; /* gnuplot draws into a temporary file, renamed when it is whole */
    if (rs_out_open(&out, "chart", file, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    fclose(out.f);
    out.f = NULL;
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        rs_cli_error("cannot start gnuplot: %s", strerror(errno));
        rs_out_abort(&out);
        return RS_E_IO;
    }
    const int svg = strcmp(strrchr(file, '.') ? strrchr(file, '.') : "", ".svg") == 0;
    char quoted[8192];
    fprintf(g, "set terminal %s size 1000,620\nset output '%s'\nset datafile separator ','\n%s",
            svg ? "svg dynamic" : "pngcairo", rs_gnuplot_quote(out.tmp, quoted, sizeof quoted),
            script);
    const int rc = pclose(g);
    struct stat st;
    if (rc != 0 || stat(out.tmp, &st) != 0 || st.st_size == 0 || !chart_whole(out.tmp, svg)) {
        rs_out_abort(&out);
        rs_cli_error("gnuplot failed to draw %s (the data is in %s)", file, csv);
        return RS_E_IO;
    }
    if (rs_out_commit(&out, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    fflush(stdout); /* after the table, where both go to one file */
    fprintf(stderr, "redscope: chart in %s, data in %s\n", file, csv);
    return 0;
}
