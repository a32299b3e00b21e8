/* `redscope sweep`: variants over a range of n, a table, and a chart drawn
 * by gnuplot when asked. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/catalogue.h"
#include "core/engine.h"
#include "core/preset.h"
#include "core/record.h"
#include "core/sweep.h"

static volatile int sweep_stop;

static void on_interrupt(int sig)
{
    (void)sig;
    sweep_stop = 1;
}

typedef struct bar {
    int tty;
    int index, total;
    char label[64];
} bar;

static void draw_bar(void *ctx, double done)
{
    bar *b = ctx;
    if (!b->tty) return;
    const double all = (b->index + done) / b->total;
    char cells[31];
    const int filled = (int)(all * 30.0);
    for (int i = 0; i < 30; i++) cells[i] = i < filled ? '#' : '.';
    cells[30] = '\0';
    fprintf(stderr, "\r\033[K[%s] %3.0f%% %s", cells, 100.0 * all, b->label);
    fflush(stderr);
}

/* FILE.svg or FILE.png through gnuplot, from the CSV kept beside it. */
static int plot(const rs_sweep *s, const char *file, const rs_request *req)
{
    const char *dot = strrchr(file, '.');
    const int svg = dot && strcmp(dot, ".svg") == 0, png = dot && strcmp(dot, ".png") == 0;
    if (!svg && !png) {
        rs_cli_error("--plot needs a file ending in .svg or .png, not '%s'", file);
        return RS_E_USAGE;
    }
    char csv[4096];
    snprintf(csv, sizeof csv, "%.*s.csv", (int)(dot - file), file);
    rs_error err;
    if (rs_sweep_write_csv(s, RS_CHART_TIME, csv, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return RS_E_IO;
    }
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
    char n[32];
    rs_format_size(req->n, n, sizeof n);
    fprintf(g,
            "set terminal %s size 1000,620\nset output '%s'\n"
            "set datafile separator ','\nset logscale xy 2\nset format x '2^{%%L}'\n"
            "set logscale y 10\nset format y '10^{%%L}'\nset grid\nset key outside right\n"
            "set title 'redscope sweep: %s %s, block %u'\nset xlabel 'n (elements)'\n"
            "set ylabel 'time of one reduction (ms)'\n"
            "plot for [i=2:%d] '%s' using 1:i with linespoints title columnheader(i)\n",
            svg ? "svg dynamic" : "pngcairo", file, rs_dtype_name(req->type), rs_op_name(req->op),
            req->block, rs_sweep_series_count(s) + 1, csv);
    const int rc = pclose(g);
    struct stat st;
    if (rc != 0 || stat(file, &st) != 0 || st.st_size == 0) {
        rs_cli_error("gnuplot failed to draw %s (the data is in %s)", file, csv);
        return RS_E_IO;
    }
    fprintf(stderr, "redscope: chart in %s, data in %s\n", file, csv);
    return 0;
}

static void fill_row(rs_engine *e, const rs_request *base, rs_variant v, uint64_t n, bar *b,
                     rs_row *row)
{
    rs_request r;
    rs_error err;
    rs_request_for_variant(base, v, &r);
    r.n = n;
    rs_hooks hooks = {draw_bar, b, &sweep_stop};
    row->status = rs_engine_run(e, &r, &hooks, &row->result, &err);
    if (row->status != RS_OK) {
        row->result.req = r;
        snprintf(row->error, sizeof row->error, "%s", err.msg);
    }
}

int rs_cmd_sweep(rs_cli *cli)
{
    rs_error err;
    rs_sweep_sizes sizes;
    if (rs_sweep_parse(cli->req.sweep, &sizes, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return RS_E_USAGE;
    }
    const int out_rc = rs_cli_check_outputs(cli);
    if (out_rc) return out_rc;
    if (cli->save_preset) {
        char path[RS_PATH_MAX];
        if (rs_preset_save(cli->save_preset, &cli->req, cli->force, path, sizeof path, &err)) {
            rs_cli_error("%s", err.msg);
            return err.code;
        }
    }
    rs_variant vars[RS_VARIANT_COUNT];
    const int nvar = rs_request_variant_list(&cli->req, vars, RS_VARIANT_COUNT);
    rs_engine *e = NULL;
    if (rs_engine_open(&e, (int)cli->req.device, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    int need_gpu = 0;
    for (int i = 0; i < nvar; i++) need_gpu |= vars[i] != RS_V_CPU;
    if (need_gpu && rs_engine_gpu(e, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        rs_engine_close(e);
        return err.code;
    }
    rs_sweep s;
    if (rs_sweep_init(&s, &sizes, vars, nvar, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        rs_engine_close(e);
        return err.code;
    }
    rs_recorder rec = {NULL, ""};
    if (cli->record && rs_record_open(&rec, cli->record, rs_engine_device(e), &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        rs_sweep_free(&s);
        rs_engine_close(e);
        return err.code;
    }
    double peak;
    if (need_gpu) rs_engine_measure_peak(e, &peak, &err);
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bar b = {isatty(2), 0, sizes.count * nvar, ""};
    int rc = 0;
    for (int i = 0; i < sizes.count && !sweep_stop; i++)
        for (int v = 0; v < nvar && !sweep_stop; v++) {
            char n[32];
            rs_format_size(sizes.n[i], n, sizeof n);
            b.index = i * nvar + v;
            snprintf(b.label, sizeof b.label, "n=%s %s", n, rs_variant_name(vars[v]));
            rs_row *row = rs_sweep_row(&s, i, v);
            fill_row(e, &cli->req, vars[v], sizes.n[i], &b, row);
            if (row->status == RS_E_CANCELLED) break;
            s.done = b.index + 1;
            if (rec.f && rs_record_row(&rec, row, "sweep", &err) != RS_OK && !rc) {
                rs_cli_error("%s", err.msg);
                rc = RS_E_IO;
            }
            if (row->status == RS_E_NODRIVER || row->status == RS_E_NODEVICE) {
                rs_cli_error("%s", row->error);
                sweep_stop = 1;
                rc = row->status;
            } else if (row->status == RS_OK && !row->result.correct && !rc) {
                rc = RS_E_MISMATCH;
            }
        }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (b.tty) fprintf(stderr, "\r\033[K");
    if (sweep_stop && !rc) {
        rs_cli_error("interrupted: %d of %d runs kept", s.done, sizes.count * nvar);
        rc = RS_E_CANCELLED;
    }
    rs_print_sweep(stdout, &s, cli->format);
    if (rs_record_close(&rec, &err) != RS_OK && !rc) rc = RS_E_IO;
    if (cli->plot && s.done > 0) {
        const int prc = plot(&s, cli->plot, &cli->req);
        if (prc && !rc) rc = prc;
    }
    rs_sweep_free(&s);
    rs_engine_close(e);
    return rc;
}
