/* redscope allreduce: the all-reduce of a vector over the GPUs of this
 * machine, each algorithm over each size, with time, algorithm and bus
 * bandwidth as nccl-tests defines them, every result checked, and where
 * the sweep turns from latency- to bandwidth-bound. --record writes the
 * run as JSON, --replay prints one without a GPU. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "formats/allreduce_file.h"
#include "cli/cli.h"
#include "cmd.h"
#include "formats/files.h"
#include "core/catalogue.h"
#include "formats/export.h"
#include "core/format.h"
#include "analysis/multi.h"
#include "formats/rendezvous.h"
#include "core/sweep_range.h"
#include "engine/allreduce.h"
#include "engine/engine.h"
#include "engine/topology.h"

static rs_status sizes_of(const rs_cli *cli, rs_sweep_sizes *sz, rs_error *err)
{
    if (cli->set[RS_F_sweep]) return rs_sweep_parse(cli->req.sweep, sz, err);
    sz->count = 1;
    sz->n[0] = cli->req.n;
    return RS_OK;
}

/* Every asked algorithm over every size, on the GPUs. */
static rs_status measure(const rs_cli *cli, const rs_sweep_sizes *sz, unsigned algos,
                         rs_ar_record *run, rs_error *err)
{
    rs_status st = RS_OK;
    const int tty = isatty(2) && cli->rank <= 0; /* progress where someone watches */
    for (int a = 0; a < RS_AR_ALGO_COUNT && st == RS_OK; a++) {
        if (!(algos & (1u << a))) continue;
        rs_ar *ar = NULL;
        st = cli->ranks
                 ? rs_ar_open_rank(cli->rank, cli->ranks, cli->rendezvous, (rs_ar_algo)a, &ar, err)
                 : rs_ar_open(cli->gpus < 0 ? 0 : cli->gpus, (rs_ar_algo)a, &ar, err);
        if (st != RS_OK) break;
        run->gpus = rs_ar_gpus(ar);
        const int first = run->npoints;
        if (rs_ar_nccl_version(ar)) run->nccl_version = rs_ar_nccl_version(ar);
        for (int i = 0; i < sz->count && st == RS_OK; i++) {
            if (tty)
                fprintf(stderr, "\rall-reduce: %s, %d of %d sizes ", rs_ar_algo_name((rs_ar_algo)a),
                        i + 1, sz->count);
            st = rs_ar_run(ar, run->type, run->op, sz->n[i], run->warmup, run->reps, cli->req.seed,
                           &run->p[run->npoints], err);
            if (st == RS_OK) run->npoints++;
        }
        if (tty) fprintf(stderr, "\r%40s\r", "");
        rs_ar_close(ar);
        if (st == RS_OK && cli->nccl_tests && a != RS_AR_PEER_RING) { /* NCCL_ALGO as set */
            const rs_nt_args nt = {cli->nccl_tests, run->gpus,   run->type,
                                   run->op,         run->warmup, run->reps};
            if (tty) fprintf(stderr, "\rnccl-tests: %s ", rs_ar_algo_name((rs_ar_algo)a));
            rs_error nerr;
            if (rs_nt_beside(&nt, &run->p[first], run->npoints - first, &nerr) != RS_OK)
                rs_cli_error("nccl-tests beside %s: %s; its column is left out",
                             rs_ar_algo_name((rs_ar_algo)a), nerr.msg); /* ours stand */
            if (tty) fprintf(stderr, "\r%40s\r", "");
        }
    }
    return st;
}

/* The bandwidth a chart and the crossovers read: busbw, as nccl-tests
 * reports it; on one GPU that is 0 by its definition (2(G-1)/G: nothing
 * crosses between GPUs), so algbw there. */
static double shown_bw(const rs_ar_record *r, const rs_ar_point *p)
{
    return r->gpus > 1 ? p->busbw : p->algbw;
}

static const char *shown_bw_name(const rs_ar_record *r)
{
    return r->gpus > 1 ? "busbw" : "algbw";
}

/* Each algorithm's crossover, when it has three sizes or more. */
static void print_crossovers(FILE *f, const rs_ar_record *r)
{
    const char *bwn = shown_bw_name(r);
    if (r->gpus <= 1 && r->npoints)
        fprintf(f,
                "on one GPU busbw is 0 by its definition (%s 2(G-1)/G): nothing crosses between "
                "GPUs; what follows reads algbw\n",
                rs_sym(RS_SYM_TIMES));
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
        double b[MAX_POINTS], us[MAX_POINTS], bw[MAX_POINTS], lat, band;
        int n = 0;
        for (int i = 0; i < r->npoints; i++)
            if (r->p[i].algo == (rs_ar_algo)a)
                b[n] = (double)r->p[i].bytes, us[n] = r->p[i].us, bw[n++] = shown_bw(r, &r->p[i]);
        const int kind = rs_ar_crossover(b, us, bw, n, &lat, &band);
        if (!kind) continue;
        char l[32], h[32], t0[32];
        rs_fmt_binary(lat, l, sizeof l);
        rs_fmt_binary(band, h, sizeof h);
        rs_fmt_time(us[0] / 1000.0, rs_notation_utf8(), t0, sizeof t0);
        const char *name = rs_ar_algo_name((rs_ar_algo)a), *x = rs_sym(RS_SYM_TIMES);
        if (kind == RS_AR_ALL_LATENCY)
            fprintf(f,
                    "%s: latency-bound over the whole range (every time within 2%s of the "
                    "smallest size's %s): larger sizes find where the links take over\n",
                    name, x, t0);
        else if (kind == RS_AR_ALL_BANDWIDTH)
            fprintf(f,
                    "%s: bandwidth-bound over the whole range (%s at half the range's best or "
                    "more from %s, the smallest size): smaller sizes find the latency-bound ones\n",
                    name, bwn, h);
        else
            fprintf(f,
                    "%s: latency-bound up to %s (within 2%s of the smallest size's %s), "
                    "bandwidth-bound from %s (%s at half the range's best or more)\n",
                    name, l, x, t0, h, bwn);
    }
}

/* One point's row: NVLink's column where nvl, nccl-tests' where nt. */
static void print_point(FILE *f, const rs_ar_point *p, int nvl, int nt)
{
    char size[32], count[32], t[32], pad[48]; /* times padded by columns: "µs" is two bytes */
    char alg[32], bus[32];
    rs_fmt_binary((double)p->bytes, size, sizeof size);
    rs_fmt_count((double)p->n, count, sizeof count);
    rs_fmt_time(p->us / 1000.0, rs_notation_utf8(), t, sizeof t);
    fprintf(f, "%-10s %10s %13s %s %7s GB/s %7s GB/s  %-7s", rs_ar_algo_name(p->algo), size, count,
            rs_pad(t, 10, 1, pad, sizeof pad), rs_fmt_gbps(p->algbw, alg, sizeof alg),
            rs_fmt_gbps(p->busbw, bus, sizeof bus), p->wrong ? "NO" : "yes");
    if (nvl) {
        rs_fmt_binary(p->nvl_tx, size, sizeof size);
        fprintf(f, "  %10s", p->nvl_valid ? size : "-");
    }
    if (p->nt_us > 0) {
        rs_fmt_time(p->nt_us / 1000.0, rs_notation_utf8(), t, sizeof t);
        fprintf(f, "  %s %7s GB/s", rs_pad(t, 16, 1, pad, sizeof pad),
                rs_fmt_gbps(p->nt_busbw, bus, sizeof bus));
    }
    fprintf(f, nt && !(p->nt_us > 0) && p->algo != RS_AR_PEER_RING ? "  -\n" : "\n");
    if (p->wrong) fprintf(f, "%36s%llu elements wrong\n", "", (unsigned long long)p->wrong);
}

static void print_table(FILE *f, const rs_ar_record *r)
{
    fprintf(f,
            "all-reduce over %d GPU%s (%s), %s %s, out of place, time the mean of %u reps after %u "
            "warm-up",
            r->gpus, r->gpus == 1 ? "" : "s", r->device.name, rs_dtype_name(r->type),
            rs_op_name(r->op), r->reps, r->warmup);
    if (r->nccl_version)
        fprintf(f, ", NCCL %d.%d.%d", r->nccl_version / 10000, r->nccl_version / 100 % 100,
                r->nccl_version % 100);
    if (r->links[0]) fprintf(f, "\nlinks: %s", r->links);
    int nt = 0, nvl = 0; /* nccl-tests beside, NVLink's bytes: their columns */
    for (int i = 0; i < r->npoints; i++) {
        nt |= r->p[i].nt_us > 0;
        nvl |= r->p[i].nvl_valid;
    }
    fprintf(f, "\n%-10s %10s %13s %10s %12s %12s  %-7s%s%s\n", "algo", "size", "n", "time", "algbw",
            "busbw", "correct", nvl ? "  NVLink out" : "",
            nt ? "  nccl-tests: time        busbw" : "");
    for (int i = 0; i < r->npoints; i++) print_point(f, &r->p[i], nvl, nt);
    if (nvl)
        fprintf(f, "NVLink out: the bytes each GPU sent over its NVLinks per all-reduce (NVML's "
                   "counters; a ring sends 2(G-1)/G of the size)\n");
    print_crossovers(f, r);
}

static void print_csv(FILE *f, const rs_ar_record *r)
{
    fprintf(f, "gpus,type,op,algo,bytes,n,time_mean_ms,algbw_gbps,busbw_gbps,wrong,"
               "nccl_tests_time_ms,nccl_tests_busbw_gbps,nvlink_tx_bytes,nvlink_rx_bytes\n");
    for (int i = 0; i < r->npoints; i++) {
        const rs_ar_point *p = &r->p[i];
        fprintf(f, "%d,%s,%s,%s,%llu,%llu", r->gpus, rs_dtype_name(r->type), rs_op_name(r->op),
                rs_ar_algo_name(p->algo), (unsigned long long)p->bytes, (unsigned long long)p->n);
        const double figs[] = {p->us / 1000.0, p->algbw, p->busbw}; /* docs/formats.md: %.6g */
        for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
            fputc(',', f);
            rs_csv_num(f, figs[k]);
        }
        fprintf(f, ",%llu,", (unsigned long long)p->wrong);
        if (p->nt_us > 0) {
            rs_csv_num(f, p->nt_us / 1000.0);
            fputc(',', f);
            rs_csv_num(f, p->nt_busbw);
        } else {
            fputc(',', f);
        }
        if (p->nvl_valid)
            fprintf(f, ",%.0f,%.0f\n", p->nvl_tx, p->nvl_rx);
        else
            fprintf(f, ",,\n");
    }
}

/* The chart's data: bytes per GPU, then each algorithm's busbw (empty
 * where it has no point at that size). */
static int write_chart_csv(const rs_ar_record *r, const char *csv, int *columns)
{
    rs_outfile out;
    rs_error err;
    if (rs_out_open(&out, "chart's data", csv, &err) != RS_OK) return 0;
    FILE *f = out.f;
    unsigned algos = 0;
    for (int i = 0; i < r->npoints; i++) algos |= 1u << r->p[i].algo;
    fprintf(f, "bytes");
    *columns = 0;
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++)
        if (algos & (1u << a)) fprintf(f, ",%s", rs_ar_algo_name((rs_ar_algo)a)), ++*columns;
    fprintf(f, "\n");
    uint64_t last = 0;
    for (;;) { /* each size once, ascending */
        uint64_t next = UINT64_MAX;
        for (int i = 0; i < r->npoints; i++)
            if (r->p[i].bytes > last && r->p[i].bytes < next) next = r->p[i].bytes;
        if (next == UINT64_MAX) break;
        fprintf(f, "%llu", (unsigned long long)next);
        for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
            if (!(algos & (1u << a))) continue;
            fprintf(f, ",");
            for (int i = 0; i < r->npoints; i++)
                if (r->p[i].algo == (rs_ar_algo)a && r->p[i].bytes == next)
                    fprintf(f, "%.6g", shown_bw(r, &r->p[i]));
        }
        fprintf(f, "\n");
        last = next;
    }
    return rs_out_commit(&out, &err) == RS_OK;
}

/* The size axis's ticks, named as the tables name sizes ("1 KiB", not
 * gnuplot's "1 kiB"): powers of 2 over the points' range, at most 12. */
static void size_tics(const rs_ar_record *r, char *buf, size_t len)
{
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i < r->npoints; i++) {
        const double b = (double)r->p[i].bytes;
        if (b > 0 && (lo == 0.0 || b < lo)) lo = b;
        if (b > hi) hi = b;
    }
    size_t at = (size_t)snprintf(buf, len, "set xtics (");
    int step = 1; /* in powers of 2 */
    while (lo > 0.0 && log2(hi / lo) / step > 11.0) step++;
    for (double b = lo; lo > 0.0 && b <= hi * 1.0001 && at < len; b *= pow(2.0, step)) {
        char name[32];
        rs_fmt_binary(b, name, sizeof name);
        at += (size_t)snprintf(buf + at, len - at, "%s'%s' %.17g", b > lo ? ", " : "", name, b);
    }
    if (at < len) snprintf(buf + at, len - at, ")\n");
    if (!(lo > 0.0) || at >= len) snprintf(buf, len, "\n");
}

/* --plot: each algorithm's bus bandwidth against the size, by gnuplot. */
static int plot(const rs_ar_record *r, const char *file)
{
    char csv[4096], script[8192], qcsv[8192], qdev[512], tics[2048];
    int columns = 0;
    rs_cli_plot_csv(file, csv, sizeof csv);
    if (!write_chart_csv(r, csv, &columns)) {
        rs_cli_error("cannot write %s", csv);
        return RS_E_IO;
    }
    const int one = r->gpus <= 1;
    size_tics(r, tics, sizeof tics);
    snprintf(script, sizeof script,
             "set logscale x 2\n%sset grid\nset key top left\n"
             "set title 'redscope allreduce over %d GPU%s (%s), %s %s: %s'\n"
             "set xlabel 'bytes per GPU'\nset ylabel '%s (GB/s)'\n"
             "plot for [i=2:%d] '%s' using 1:i with linespoints title columnheader(i) noenhanced\n",
             tics, r->gpus, one ? "" : "s", rs_gnuplot_quote(r->device.name, qdev, sizeof qdev),
             rs_dtype_name(r->type), rs_op_name(r->op),
             one ? "algorithm bandwidth (busbw is 0 on one GPU)"
                 : "bus bandwidth as nccl-tests reports it",
             shown_bw_name(r), columns + 1, rs_gnuplot_quote(csv, qcsv, sizeof qcsv));
    return rs_cli_gnuplot(file, csv, script);
}

static void print_run(FILE *f, const rs_ar_record *r, rs_format fmt)
{
    if (fmt == RS_FMT_CSV) {
        print_csv(f, r);
        return;
    }
    if (fmt == RS_FMT_TABLE) {
        print_table(f, r);
        return;
    }
    cJSON *j = rs_ar_run_to_json(r);
    char *s = cJSON_Print(j);
    if (s) fprintf(f, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(j);
}

/* The device facts of the header: the first GPU and the date. */
static void describe(rs_ar_record *r)
{
    rs_device_info devs[RS_AR_GPUS_MAX];
    int count = 0;
    rs_error err;
    if (rs_devices_list(devs, RS_AR_GPUS_MAX, &count, &err) == RS_OK && count > 0)
        r->device = devs[0];
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* --rank, --ranks and --rendezvous go together, without --gpus or --nccl-tests;
 * --replay takes none of them. */
static int ranks_ok(const rs_cli *cli)
{
    const int given = (cli->rank >= 0) + (cli->ranks > 0) + (cli->rendezvous != NULL);
    if (cli->nccl_tests && cli->replay) {
        rs_cli_error("--replay prints a recording (with nccl-tests' figures, if it has them): "
                     "leave out --nccl-tests");
        return 0;
    }
    if (cli->nccl_tests && given) {
        rs_cli_error("--nccl-tests runs in one process: start all_reduce_perf with your "
                     "launcher beside the ranks");
        return 0;
    }
    if (given == 0) return 1;
    if (given != 3)
        rs_cli_error("one process per GPU needs --rank, --ranks and --rendezvous together");
    else if (cli->rank >= cli->ranks)
        rs_cli_error("--rank %d of --ranks %d: a rank from 0 to %d", cli->rank, cli->ranks,
                     cli->ranks - 1);
    else if (cli->gpus >= 0)
        rs_cli_error("--gpus is for one process; with --ranks each process uses one GPU");
    else if (cli->replay)
        rs_cli_error("--replay prints a recording: leave out --rank, --ranks and --rendezvous");
    else
        return 1;
    return 0;
}

/* 1 (said) where a point's result was wrong, else 0. */
static int wrong_points(const rs_ar_record *run)
{
    int bad = 0, first = -1;
    for (int i = 0; i < run->npoints; i++)
        if (run->p[i].wrong && bad++ == 0) first = i;
    if (!bad) return 0;
    rs_cli_error("%d of %d points WRONG (the first: %s at n %llu, %llu elements differ from the "
                 "exact result)",
                 bad, run->npoints, rs_ar_algo_name(run->p[first].algo),
                 (unsigned long long)run->p[first].n, (unsigned long long)run->p[first].wrong);
    return RS_E_MISMATCH;
}

/* Each algorithm's rendezvous file (PATH.ALGO), checked before any work. */
static rs_status rendezvous_files(const rs_cli *cli, unsigned algos, rs_error *err)
{
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
        if (!(algos & (1u << a)) || a == RS_AR_PEER_RING) continue; /* in one process only */
        char path[4200];
        if (!*cli->rendezvous || strlen(cli->rendezvous) >= 4000)
            return rs_rendezvous_check(cli->rendezvous, cli->rank, err);
        snprintf(path, sizeof path, "%s.%s", cli->rendezvous, rs_ar_algo_name((rs_ar_algo)a));
        const rs_status st = rs_rendezvous_check(path, cli->rank, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

rs_ar_asked rs_cmd_ar_asked(const rs_cli *cli)
{
    rs_ar_asked a;
    a.type_set = cli->set[RS_F_type];
    a.op_set = cli->set[RS_F_op];
    a.sizes_set = cli->set[RS_F_sweep] || cli->set[RS_F_n];
    a.type = cli->req.type;
    a.op = cli->req.op;
    a.gpus = cli->gpus;
    a.path = cli->replay;
    return a;
}

int rs_cmd_allreduce(rs_cli *cli)
{
    if (!ranks_ok(cli)) return RS_E_USAGE;
    static rs_ar_record run;
    memset(&run, 0, sizeof run);
    run.type = cli->req.type;
    run.op = cli->req.op;
    run.warmup = cli->req.warmup;
    run.reps = cli->req.reps;
    const unsigned algos = cli->algos ? cli->algos : 1u << RS_AR_NCCL;
    rs_sweep_sizes sz;
    rs_error err;
    const int bad = rs_cli_check_outputs(cli);
    if (bad) return bad;
    rs_status st = cli->rendezvous ? rendezvous_files(cli, algos, &err) : RS_OK;
    if (st == RS_OK) st = sizes_of(cli, &sz, &err);
    if (st == RS_OK && cli->nccl_tests) st = rs_nt_find(cli->nccl_tests, &err);
    const rs_ar_asked ask = rs_cmd_ar_asked(cli);
    if (st == RS_OK && cli->replay)
        st = rs_ar_run_read(cli->replay, &ask, &sz, algos, &run, &err);
    else if (st == RS_OK) {
        describe(&run);
        st = measure(cli, &sz, algos, &run, &err);
        if (st == RS_OK && !cli->ranks) rs_topology_describe(run.gpus, run.links, sizeof run.links);
    }
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
        return (int)st;
    }
    if (cli->rank > 0) /* rank 0 reports for the job */
        return wrong_points(&run);
    if (cli->record && rs_ar_run_write(cli->record, &run, &err) != RS_OK) { /* a replay's too */
        rs_cli_error("%s", err.msg);
        return RS_E_IO;
    }
    print_run(stdout, &run, cli->format);
    const int prc = cli->plot && run.npoints ? plot(&run, cli->plot) : 0;
    const int wrong = wrong_points(&run);
    return wrong ? wrong : prc;
}
