/* The batch commands' side of the runner: the source a command reads (a
 * recording with --replay, else the GPU), a progress line on a terminal,
 * SIGINT, SIGTERM and SIGHUP as a cancel, and --record. */
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/catalogue.h"
#include "core/format.h"
#include "core/metric_table.h"
#include "formats/source_recording.h"
#include "formats/record.h"
#include "core/runner.h"
#include "engine/gpu_process.h"

static volatile sig_atomic_t batch_cancel; /* set by the handler, read between launches */

static void on_interrupt(int sig)
{
    (void)sig;
    batch_cancel = 1;
}

/* Counters asked for: the GPU process loads CUPTI while CUDA starts. One
 * GPU: its process may see that GPU alone. */
static int child_wants(const rs_cli *cli)
{
    rs_metric_mask m = 0;
    rs_metric_parse_set(cli->req.metrics, &m, NULL);
    return (m ? RS_CHILD_COUNTERS : 0) | (cli->req.gpus == 1 ? RS_CHILD_ONE : 0);
}

int rs_cli_open_source(const rs_cli *cli, int need_gpu, rs_source **src)
{
    rs_error err;
    rs_status st =
        cli->replay_rec /* read once already (adopt.c): borrowed */
            ? rs_source_recording_borrow(cli->replay_rec, src, &err)
            : cli->replay ? rs_source_recording_open(cli->replay, src, &err)
                          : rs_source_child_open((int)cli->req.device, child_wants(cli), src, &err);
    if (st == RS_OK) st = (*src)->prepare(*src, need_gpu, &err);
    const rs_recording *rec = st == RS_OK ? rs_source_recording_of(*src) : NULL;
    char note[600];
    if (rec && rec->cut_line)
        rs_cli_error("%s", rs_recording_cut_note(rec, cli->replay, note, sizeof note));
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
        rs_source_close(*src);
        *src = NULL;
    }
    return (int)st;
}

typedef struct line {
    int tty;
} line;

static void show(void *ctx, int index, int total, double done, const char *label)
{
    const line *l = ctx;
    if (!l->tty) return;
    const double all = total > 0 ? (index + done) / total : done;
    fprintf(stderr, "\r\033[K[%3.0f%%] %s", 100.0 * all, label);
    fflush(stderr);
}

/* --metrics given to a replay: the counters asked for, no more ("none":
 * none); one the row lacks stays asked for, read as not recorded, unless
 * the row was recorded with a set of a name that covers the one asked
 * (rs_metric_set_covers): it holds that set as it was then, and counters
 * added since are not asked. */
static void only_asked_metrics(const rs_cli *cli, rs_row *rows, int n)
{
    rs_metric_mask want = 0;
    rs_metric_parse_set(cli->req.metrics, &want, NULL);
    for (int i = 0; i < n; i++) {
        rs_metrics *m = &rows[i].result.metrics;
        if (rows[i].status != RS_OK || rows[i].result.req.variant == RS_V_CPU) continue;
        if (!want) {
            memset(m, 0, sizeof *m);
            continue;
        }
        if (rs_metric_set_covers(rows[i].result.req.metrics, cli->req.metrics)) {
            m->requested &= want;
            m->valid &= want;
            continue;
        }
        const rs_metric_mask lacking = want & ~m->requested;
        m->requested = want;
        m->valid &= want;
        if (lacking && !m->reason[0])
            snprintf(m->reason, sizeof m->reason, RS_NOT_RECORDED ": counters recorded: %s",
                     rows[i].result.req.metrics);
    }
}

int rs_cli_metrics_missing(const rs_cli *cli, const rs_row *rows, int n)
{
    rs_metric_mask want = 0;
    if (!cli->replay || !cli->set[RS_F_metrics] ||
        rs_metric_parse_set(cli->req.metrics, &want, NULL) != RS_OK || !want)
        return 0;
    int ran = 0, bare = 0, first = -1;
    for (int i = 0; i < n; i++) {
        if (rows[i].status != RS_OK || rows[i].result.req.variant == RS_V_CPU) continue;
        ran++;
        if (strncmp(rows[i].result.metrics.reason, RS_NOT_RECORDED, strlen(RS_NOT_RECORDED)) != 0)
            continue;
        bare++;
        if (first < 0) first = i;
    }
    if (!bare) return 0;
    char label[96];
    const rs_result *r = &rows[first].result;
    rs_request_label(&r->req, label, sizeof label);
    if (ran == 1)
        rs_cli_error("%s holds counters '%s' for %s, not all of '%s' (record it again with "
                     "--metrics %s on a GPU)",
                     cli->replay, r->req.metrics, label, cli->req.metrics, cli->req.metrics);
    else
        rs_cli_error("%s holds only some of the counters '%s' for %d of these %d rows (the "
                     "first: %s, recorded with '%s'; record them again with --metrics %s on a "
                     "GPU)",
                     cli->replay, cli->req.metrics, bare, ran, label, r->req.metrics,
                     cli->req.metrics);
    return bare == ran ? RS_E_USAGE : 0;
}

int rs_cli_run_list(const rs_cli *cli, rs_source *src, const rs_ask *ask, const rs_request *reqs,
                    int n, rs_row *rows, int *done)
{
    rs_error err;
    rs_recorder rec = {NULL, ""};
    *done = 0;
    if (cli->record && rs_record_open(&rec, cli->record, src->device(src), &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return RS_E_IO;
    }
    const rs_ar_job *job = ask->job;
    line l = {isatty(2) && !(job && job->ranks && job->rank > 0)}; /* one line for a job of ranks */
    batch_cancel = 0;
    /* a live list reads its counters after all its timings (core/runner.h) */
    const rs_runner_record keep = rs_recorder_hook(&rec);
    const rs_runner rn = {
        src, *ask,         cli->record ? &keep : NULL, &batch_cancel, show, NULL, NULL,
        &l,  !cli->replay, job && job->ranks > 0}; /* the all-reduce's ranks stay in step */
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup); /* the terminal closed: keep what was measured */
    rs_status st = rs_runner_run(&rn, reqs, n, rows, done, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (l.tty) fprintf(stderr, "\r\033[K");
    /* a replay shows what its recording holds, as the explorer and the deck
     * do, unless told not to (--stalls=0, --energy=0); a live run what was
     * asked */
    const int hide_stalls = !cli->replay || cli->set[RS_F_stalls];
    const int hide_energy = !cli->replay || cli->set[RS_F_energy];
    for (int i = 0; i < *done; i++) {
        if (!reqs[i].stalls && hide_stalls) rows[i].result.stalls = NULL;
        if (!reqs[i].energy && hide_energy)
            memset(&rows[i].result.energy, 0, sizeof rows[i].result.energy);
    }
    if (cli->replay && cli->set[RS_F_metrics]) only_asked_metrics(cli, rows, *done);
    if (st != RS_OK) rs_cli_error("%s", err.msg);
    if (rs_record_close(&rec, &err) != RS_OK && st == RS_OK) {
        rs_cli_error("%s", err.msg);
        st = RS_E_IO;
    }
    if (rec.empty) rs_cli_error("no run to record: %s not written", cli->record);
    return (int)st;
}

/* The options of the recording's first configuration of this command (else
 * its first) that differ from what was asked: "--n 2^30 --gpus 0". */
static void recorded_options(const rs_cli *cli, const rs_recording *rec, const char *command,
                             char *buf, size_t len)
{
    buf[0] = '\0';
    rs_rec_config *c = rec && rec->count > 0 ? calloc((size_t)rec->count, sizeof *c) : NULL;
    const int n = c ? rs_recording_configs(rec, c, rec->count) : 0;
    int k = 0;
    while (k < n && strcmp(c[k].command, command) != 0) k++;
    if (n > 0) rs_rec_config_options(&c[k < n ? k : 0], &cli->req, buf, len);
    free(c);
}

/* path as a shell reads it back: as it is where it is plain, else in
 * single quotes ('\'' for a quote). */
static const char *shell_word(const char *path, char *buf, size_t len)
{
    if (path[0] && strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                "_./-+:,@%^=") == strlen(path)) {
        snprintf(buf, len, "%s", path);
        return buf;
    }
    size_t l = 0;
    if (len) buf[l++] = '\'';
    for (const char *c = path; *c && l + 5 < len; c++) {
        if (*c == '\'') {
            memcpy(buf + l, "'\\''", 4);
            l += 4;
        } else {
            buf[l++] = *c;
        }
    }
    if (l + 1 < len) buf[l++] = '\'';
    if (len) buf[l < len ? l : len - 1] = '\0';
    return buf;
}

int rs_cli_nothing_recorded(const rs_cli *cli, const rs_source *src, const char *command,
                            const rs_row *rows, int n)
{
    if (!cli->replay || n < 1) return 0;
    for (int i = 0; i < n; i++)
        if (!rs_row_not_recorded(&rows[i])) return 0;
    char opts[1024], word[1100];
    recorded_options(cli, rs_source_recording_of(src), command, opts, sizeof opts);
    shell_word(cli->replay, word, sizeof word);
    if (opts[0])
        rs_cli_error("nothing asked for is in %s: %s recorded; it holds redscope %s --replay %s "
                     "%s (redscope recording %s lists every configuration)",
                     cli->replay, n == 1 ? "it was not" : "none of these runs was", command, word,
                     opts, word);
    else
        rs_cli_error("nothing asked for is in %s: %s recorded (redscope recording %s lists "
                     "what it holds)",
                     cli->replay, n == 1 ? "it was not" : "none of these runs was", cli->replay);
    return RS_E_USAGE;
}

/* A replay asked for a part (--stalls, --energy) its rows were recorded
 * without: said once, naming the flag; an error when no row has it. */
static int part_missing(const rs_cli *cli, const rs_row *rows, int n, int asked,
                        int (*has)(const rs_result *), const char *what, const char *flag)
{
    int ran = 0, bare = 0, first = -1;
    for (int i = 0; cli->replay && asked && i < n; i++) {
        if (rows[i].status != RS_OK || rows[i].result.req.variant == RS_V_CPU) continue;
        ran++;
        if (has(&rows[i].result)) continue;
        bare++;
        if (first < 0) first = i;
    }
    if (!bare) return 0;
    char label[96], size[32];
    const rs_request *r = &rows[first].result.req;
    rs_request_label(r, label, sizeof label);
    rs_format_size(r->n, size, sizeof size);
    if (ran == 1)
        rs_cli_error("%s holds no %s for %s %s %s, n %s: it was recorded without %s (record it "
                     "again with %s on a GPU)",
                     cli->replay, what, label, rs_dtype_name(r->type), rs_op_name(r->op), size,
                     flag, flag);
    else
        rs_cli_error("%s holds no %s for %d of these %d rows (the first: %s): they were recorded "
                     "without %s (record them again with %s on a GPU)",
                     cli->replay, what, bare, ran, label, flag, flag);
    return bare == ran ? RS_E_USAGE : 0;
}

static int has_stalls(const rs_result *r)
{
    return rs_result_stalls(r)->requested;
}

static int has_energy(const rs_result *r)
{
    return r->energy.requested;
}

int rs_cli_stalls_missing(const rs_cli *cli, const rs_row *rows, int n)
{
    return part_missing(cli, rows, n, cli->req.stalls, has_stalls, "stall samples", "--stalls");
}

int rs_cli_energy_missing(const rs_cli *cli, const rs_row *rows, int n)
{
    return part_missing(cli, rows, n, cli->req.energy, has_energy, "energy", "--energy");
}
