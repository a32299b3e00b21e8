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
#include "formats/rendezvous.h"
#include "core/runner.h"
#include "core/sweep_range.h"
#include "engine/gpu_process.h"

/* allreduce's own options */
typedef struct allreduce_own {
    unsigned algos;         /* --algo: one bit per rs_ar_algo; 0: not given */
    int rank, ranks;        /* --rank R --ranks N (ranks 0: one process; rank -1: not given) */
    const char *rendezvous; /* --rendezvous FILE */
    const char *nccl_tests; /* --nccl-tests PATH */
} allreduce_own;
static const allreduce_own allreduce_init = {0, -1, 0, NULL, NULL};

static const allreduce_own *own(const rs_cli *cli)
{
    return RS_CLI_OWN(cli, allreduce_own);
}

/* --gpus as given; -1 left out (every GPU). */
static int asked_gpus(const rs_cli *cli)
{
    return cli->set[RS_F_gpus] ? (int)cli->req.gpus : -1;
}

static rs_status set_algo(void *o, const char *v, rs_error *err)
{
    char buf[128];
    unsigned *algos = &((allreduce_own *)o)->algos;
    snprintf(buf, sizeof buf, "%s", v);
    *algos = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " "); /* blanks around a name are not part of it, as in --variants */
        for (size_t n = strlen(t); n && t[n - 1] == ' ';) t[--n] = '\0';
        const int a = rs_ar_algo_parse(t);
        if (strcmp(t, "all") == 0)
            *algos |= (1u << RS_AR_ALGO_COUNT) - 1;
        else if (a < 0)
            return rs_fail(err, RS_E_USAGE,
                           "bad --algo '%s': expected nccl, ring, tree, peer_ring or all", t);
        else
            *algos |= 1u << a;
    }
    if (!*algos) return rs_fail(err, RS_E_USAGE, "bad --algo '%s': name at least one algorithm", v);
    return RS_OK;
}

static rs_status set_rank(void *o, const char *v, rs_error *err)
{
    return rs_cli_whole_number(v, "--rank", 0, 1023, &((allreduce_own *)o)->rank, err);
}

static rs_status set_ranks(void *o, const char *v, rs_error *err)
{
    return rs_cli_whole_number(v, "--ranks", 1, 1024, &((allreduce_own *)o)->ranks, err);
}

static rs_status set_rendezvous(void *o, const char *v, rs_error *err)
{
    (void)err;
    ((allreduce_own *)o)->rendezvous = v;
    return RS_OK;
}

static rs_status set_nccl_tests(void *o, const char *v, rs_error *err)
{
    (void)err;
    ((allreduce_own *)o)->nccl_tests = v;
    return RS_OK;
}

static const rs_cmd_option allreduce_options[] = {
    {"algo", "LIST",
     "all-reduce algorithms, separated by commas: nccl (NCCL's choice), ring, tree (NCCL "
     "forced), peer_ring (by hand over peer copies), or all (default nccl)",
     set_algo},
    {"rank", "R",
     "one process per GPU: this process's rank, from 0 to ranks-1 (with --ranks, --rendezvous)",
     set_rank},
    {"ranks", "N", "one process per GPU: how many processes", set_ranks},
    {"rendezvous", "FILE",
     "one process per GPU: a path every rank sees (shared storage); rank 0 writes NCCL's id to "
     "FILE.ALGO",
     set_rendezvous},
    {"nccl-tests", "PATH",
     "also run nccl-tests' all_reduce_perf (PATH: it, or its folder) over the same sizes, its "
     "busbw beside each",
     set_nccl_tests},
    {NULL, NULL, NULL, NULL}};

/* the all-reduce reads three fields its own way */
static const rs_option_help allreduce_help[] = {
    {RS_F_gpus, 0,
     "GPUs 0 to N-1, each holding the vector and ending with the reduction of all (0 or left "
     "out: every GPU)",
     NULL, RS_HELP_NO_DEFAULT},
    {RS_F_n, 0, "elements of the vector each GPU holds", NULL, 0},
    {RS_F_reps, 0, "timed repetitions (the mean is reported, as nccl-tests does)", NULL, 0},
    {-1, RS_X_RECORD, "also write the results as one JSON document, for --replay", NULL, 0},
    RS_HELP_END};

const rs_command rs_allreduce_entry = {
    .name = "allreduce",
    .usage = "--gpus N [--n N | --range RANGE] [--algo LIST] [options]",
    .summary = "the all-reduce of a vector over several GPUs: NCCL, its ring and tree, a ring by "
               "hand",
    .fields = RS_FIELD(type) | RS_FIELD(op) | RS_FIELD(n) | RS_FIELD(sweep) | RS_FIELD(warmup) |
              RS_FIELD(reps) | RS_FIELD(seed) | RS_FIELD(gpus),
    .extras = RS_X_FORMAT | RS_X_RECORD | RS_X_REPLAY | RS_X_PLOT | RS_X_FORCE,
    .options = allreduce_options,
    .own_size = sizeof(allreduce_own),
    .own_init = &allreduce_init,
    .fn = rs_cmd_allreduce,
    .exits = RS_EXITS_RUN,
    .help = allreduce_help,
};

static rs_status sizes_of(const rs_cli *cli, rs_sweep_sizes *sz, rs_error *err)
{
    if (cli->set[RS_F_sweep]) return rs_sweep_parse(cli->req.sweep, sz, err);
    sz->count = 1;
    sz->n[0] = cli->req.n;
    return RS_OK;
}

/* The requests: live, every asked algorithm over every size; a replay,
 * the points its recording holds of them (rs_ar_run_read chose them). */
static int requests(const rs_cli *cli, const rs_source *src, const rs_sweep_sizes *sz,
                    unsigned algos, rs_request *reqs)
{
    const rs_ar_record *rec = rs_source_ar_record(src);
    rs_request base = cli->req;
    base.gpus = asked_gpus(cli) < 0 ? 0 : (uint32_t)asked_gpus(cli);
    int n = 0;
    for (int i = 0; rec && i < rec->npoints; i++) {
        reqs[n] = base;
        reqs[n].type = rec->type, reqs[n].op = rec->op;
        reqs[n].warmup = rec->warmup, reqs[n].reps = rec->reps;
        reqs[n].n = rec->p[i].n;
        reqs[n++].ar_algo = rec->p[i].algo;
    }
    for (int a = 0; !rec && a < RS_AR_ALGO_COUNT; a++)
        for (int i = 0; (algos & (1u << a)) && i < sz->count && n < MAX_POINTS; i++) {
            reqs[n] = base;
            reqs[n].n = sz->n[i];
            reqs[n++].ar_algo = (rs_ar_algo)a;
        }
    return n;
}

/* A failed point said once for its algorithm and reason ("3 sizes"). */
static void say_failed(const rs_row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        if (rows[i].status == RS_OK || rs_runner_fatal(rows[i].status)) continue; /* said */
        int same = 1;
        while (i + same < n && rows[i + same].status != RS_OK &&
               rows[i + same].result.req.ar_algo == rows[i].result.req.ar_algo &&
               strcmp(rows[i + same].error, rows[i].error) == 0)
            same++;
        char count[32];
        rs_fmt_count((double)rows[i].result.req.n, count, sizeof count);
        if (same == 1)
            rs_cli_error("%s at n %s: %s", rs_ar_algo_name(rows[i].result.req.ar_algo), count,
                         rows[i].error);
        else
            rs_cli_error("%s, %d sizes from n %s: %s", rs_ar_algo_name(rows[i].result.req.ar_algo),
                         same, count, rows[i].error);
        i += same - 1;
    }
}

/* The rows that ran into the run's points, its GPUs, links and NCCL from
 * them; 0, or the status of the first that failed. */
static int points_of(const rs_row *rows, int n, rs_ar_record *run)
{
    int failed = 0;
    for (int i = 0; i < n; i++) {
        const rs_result *r = &rows[i].result;
        if (rows[i].status != RS_OK) {
            if (!failed) failed = (int)rows[i].status;
            continue;
        }
        if (!run->npoints) {
            run->device = r->device;
            run->gpus = r->multi.gpus;
            snprintf(run->links, sizeof run->links, "%s", r->multi.links);
        }
        if (r->ar.nccl_version) run->nccl_version = r->ar.nccl_version;
        run->p[run->npoints++] = r->ar.point;
    }
    say_failed(rows, n);
    return failed;
}

/* nccl-tests beside each NCCL algorithm's points, once the GPU process has
 * let the GPUs go. */
static void beside(const rs_cli *cli, unsigned algos, rs_ar_record *run)
{
    const int tty = isatty(2) && own(cli)->rank <= 0;
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
        if (!(algos & (1u << a)) || a == RS_AR_PEER_RING) continue; /* NCCL_ALGO as set */
        int first = -1, count = 0;
        for (int i = 0; i < run->npoints; i++)
            if (run->p[i].algo == (rs_ar_algo)a && count++ == 0) first = i;
        if (!count) continue;
        const rs_nt_args nt = {own(cli)->nccl_tests, (rs_ar_algo)a, run->gpus, run->type, run->op,
                               run->warmup,          run->reps};
        if (tty) fprintf(stderr, "\rnccl-tests: %s ", rs_ar_algo_name((rs_ar_algo)a));
        rs_error nerr;
        if (rs_nt_beside(&nt, &run->p[first], count, &nerr) != RS_OK)
            rs_cli_error("nccl-tests beside %s: %s; its column is left out",
                         rs_ar_algo_name((rs_ar_algo)a), nerr.msg); /* ours stand */
        if (tty) fprintf(stderr, "\r%40s\r", "");
    }
}

/* Every point through the source and the runner, as other commands run
 * their rows (a fault ends one GPU process; the next point starts
 * another); 0 or the status that stopped the list or failed a point. */
static int measure(const rs_cli *cli, rs_source *src, const rs_sweep_sizes *sz, unsigned algos,
                   rs_ar_record *run)
{
    rs_request *reqs = calloc(MAX_POINTS, sizeof *reqs);
    rs_row *rows = calloc(MAX_POINTS, sizeof *rows);
    int done = 0, rc = RS_E_NOMEM;
    if (reqs && rows) {
        const int n = requests(cli, src, sz, algos, reqs);
        rs_cli unrecorded = *cli; /* its own recording: rs_ar_run_write */
        unrecorded.record = NULL;
        const allreduce_own *o = own(cli);
        rs_ar_job job = {RS_AR_NCCL, o->ranks ? o->rank : 0, o->ranks, ""};
        snprintf(job.rendezvous, sizeof job.rendezvous, "%s", o->rendezvous ? o->rendezvous : "");
        const rs_ask ask = {RS_ASK_ALLREDUCE, NULL, &job, NULL};
        rc = rs_cli_run_list(&unrecorded, src, &ask, reqs, n, rows, &done);
        const int failed = points_of(rows, done, run);
        if (!rc) rc = failed;
    } else {
        rs_cli_error("out of host memory");
    }
    free(reqs);
    free(rows);
    return rc;
}

/* --plot: each algorithm's bus bandwidth against the size, by gnuplot. */
static int plot(const rs_ar_record *r, const char *file)
{
    char csv[4096], script[8192], qcsv[8192], qdev[512], tics[2048];
    int columns = 0;
    rs_cli_plot_csv(file, csv, sizeof csv);
    if (!rs_ar_chart_csv(r, csv, &columns)) {
        rs_cli_error("cannot write %s", csv);
        return RS_E_IO;
    }
    const int one = r->gpus <= 1;
    rs_ar_size_tics(r, tics, sizeof tics);
    snprintf(script, sizeof script,
             "set logscale x 2\n%sset grid\nset key top left\n"
             "set title 'redscope allreduce over %d GPU%s (%s), %s %s: %s'\n"
             "set xlabel 'bytes per GPU'\nset ylabel '%s (GB/s)'\n"
             "plot for [i=2:%d] '%s' using 1:i with linespoints title columnheader(i) noenhanced\n",
             tics, r->gpus, one ? "" : "s", rs_gnuplot_quote(r->device.name, qdev, sizeof qdev),
             rs_dtype_name(r->type), rs_op_name(r->op),
             one ? "algorithm bandwidth (busbw is 0 on one GPU)"
                 : "bus bandwidth as nccl-tests reports it",
             rs_ar_shown_bw_name(r), columns + 1, rs_gnuplot_quote(csv, qcsv, sizeof qcsv));
    return rs_cli_gnuplot(file, csv, script);
}

static void print_run(FILE *f, const rs_ar_record *r, rs_format fmt)
{
    if (fmt == RS_FMT_CSV) {
        rs_ar_print_csv(f, r);
        return;
    }
    if (fmt == RS_FMT_TABLE) {
        rs_ar_print_table(f, r);
        return;
    }
    cJSON *j = rs_ar_run_to_json(r);
    char *s = rs_json_print(j);
    if (s) fprintf(f, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(j);
}

/* The run's header: as asked, or as recorded; the date of a live run. */
static void header(const rs_cli *cli, const rs_source *src, rs_ar_record *r)
{
    const rs_ar_record *rec = rs_source_ar_record(src);
    r->type = rec ? rec->type : cli->req.type;
    r->op = rec ? rec->op : cli->req.op;
    r->warmup = rec ? rec->warmup : cli->req.warmup;
    r->reps = rec ? rec->reps : cli->req.reps;
    if (rec) {
        snprintf(r->date, sizeof r->date, "%s", rec->date);
        r->device = rec->device; /* an older recording's name alone, kept as read */
        return;
    }
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* --rank, --ranks and --rendezvous go together, without --gpus or --nccl-tests;
 * --replay takes none of them. */
static int ranks_ok(const rs_cli *cli)
{
    const int given =
        (own(cli)->rank >= 0) + (own(cli)->ranks > 0) + (own(cli)->rendezvous != NULL);
    if (own(cli)->nccl_tests && cli->replay) {
        rs_cli_error("--replay prints a recording (with nccl-tests' figures, if it has them): "
                     "leave out --nccl-tests");
        return 0;
    }
    if (own(cli)->nccl_tests && given) {
        rs_cli_error("--nccl-tests runs in one process: start all_reduce_perf with your "
                     "launcher beside the ranks");
        return 0;
    }
    if (given == 0) return 1;
    if (given != 3)
        rs_cli_error("one process per GPU needs --rank, --ranks and --rendezvous together");
    else if (own(cli)->rank >= own(cli)->ranks)
        rs_cli_error("--rank %d of --ranks %d: a rank from 0 to %d", own(cli)->rank,
                     own(cli)->ranks, own(cli)->ranks - 1);
    else if (asked_gpus(cli) >= 0)
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
        if (!*own(cli)->rendezvous || strlen(own(cli)->rendezvous) >= 4000)
            return rs_rendezvous_check(own(cli)->rendezvous, own(cli)->rank, err);
        snprintf(path, sizeof path, "%s.%s", own(cli)->rendezvous, rs_ar_algo_name((rs_ar_algo)a));
        const rs_status st = rs_rendezvous_check(path, own(cli)->rank, err);
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
    a.gpus = asked_gpus(cli);
    a.path = cli->replay;
    return a;
}

/* The source: the recording (--replay), or the GPU process, bare: the
 * all-reduce makes its own contexts on the GPUs it uses. */
static int open_source(const rs_cli *cli, const rs_sweep_sizes *sz, unsigned algos, rs_source **src)
{
    rs_error err;
    const rs_ar_asked ask = rs_cmd_ar_asked(cli);
    rs_status st = cli->replay ? rs_source_ar_open(cli->replay, &ask, sz, algos, src, &err)
                               : rs_source_child_open(0, RS_CHILD_BARE, src, &err);
    if (st == RS_OK) st = (*src)->prepare(*src, 0, &err);
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
        rs_source_close(*src);
        *src = NULL;
    }
    return (int)st;
}

int rs_cmd_allreduce(rs_cli *cli)
{
    if (!ranks_ok(cli)) return RS_E_USAGE;
    static rs_ar_record run;
    memset(&run, 0, sizeof run);
    const unsigned algos = own(cli)->algos ? own(cli)->algos : 1u << RS_AR_NCCL;
    rs_sweep_sizes sz;
    rs_error err;
    const int bad = rs_cli_check_outputs(cli);
    if (bad) return bad;
    rs_status st = own(cli)->rendezvous ? rendezvous_files(cli, algos, &err) : RS_OK;
    if (st == RS_OK) st = sizes_of(cli, &sz, &err);
    if (st == RS_OK && own(cli)->nccl_tests) st = rs_nt_find(own(cli)->nccl_tests, &err);
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
        return (int)st;
    }
    rs_source *src = NULL;
    int rc = open_source(cli, &sz, algos, &src);
    if (rc) return rc;
    const rs_ar_record *held = rs_source_ar_record(src);
    if (held && held->left_out) /* a cap said, not kept quiet */
        rs_cli_error("note: %s holds %d more points than a run shows (%d): the first recorded "
                     "are replayed",
                     cli->replay, held->left_out, MAX_POINTS);
    header(cli, src, &run);
    rc = measure(cli, src, &sz, algos, &run);
    rs_source_child_end(src); /* the GPUs free for nccl-tests, the process gone */
    rs_source_close(src);
    if (own(cli)->nccl_tests && run.npoints && rc != RS_E_CANCELLED) beside(cli, algos, &run);
    if (own(cli)->rank > 0) /* rank 0 reports for the job */
        return rc ? rc : wrong_points(&run);
    if (!run.npoints) return rc ? rc : RS_E_USAGE;
    if (cli->record && rs_ar_run_write(cli->record, &run, &err) != RS_OK) { /* a replay's too */
        rs_cli_error("%s", err.msg);
        return RS_E_IO;
    }
    print_run(rs_cli_out(cli), &run, rs_cli_text_format(cli));
    const int prc = cli->plot ? plot(&run, cli->plot) : 0;
    const int wrong = wrong_points(&run);
    return rc ? rc : wrong ? wrong : prc;
}
