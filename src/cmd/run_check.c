/* redscope run --check race|memory: the configuration under compute-sanitizer
 * in a child process, the findings by kernel source line, and what they mean. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmd.h"
#include "core/catalogue.h"
#include "formats/check.h"
#include "core/size.h"
#include "core/format.h"
#include "formats/record.h"
#include "core/snippets.h"

static volatile int check_cancel;

static void on_signal(int sig)
{
    (void)sig;
    check_cancel = 1;
}

static const char *user_kernel; /* run --kernel FILE --check: its lines are read from it */

/* Line `line` of the user's kernel file, trimmed, into buf; NULL if none. */
static const char *user_line(const char *file, int line, char *buf, size_t len)
{
    char *text = NULL;
    size_t n = 0;
    rs_error err;
    if (!user_kernel || strcmp(rs_ukernel_basename(user_kernel), rs_ukernel_basename(file)) ||
        rs_ukernel_read(user_kernel, &text, &n, &err) != RS_OK)
        return NULL;
    const char *p = text;
    for (int k = 1; k < line && p; k++)
        if ((p = strchr(p, '\n'))) p++;
    if (p) {
        p += strspn(p, " \t");
        snprintf(buf, len, "%.*s", (int)strcspn(p, "\r\n"), p);
    }
    free(text);
    return p && *buf ? buf : NULL;
}

/* "classic.cu:111  vs[tid] = op(vs[tid], vs[tid + 2]);" */
static void line_with_text(const char *file, int line, char *buf, size_t len)
{
    char own[160] = "";
    const char *text = line > 0 ? rs_kernel_line(file, line) : NULL;
    if (!text && line > 0) text = user_line(file, line, own, sizeof own);
    if (line <= 0)
        snprintf(buf, len,
                 "(no kernel source line: a host-side error, or code built without -lineinfo)");
    else
        snprintf(buf, len, "%s:%d%s%s", file, line, text ? "  " : "", text ? text : "");
}

static void print_table(const rs_cli *cli, const rs_check_report *r)
{
    FILE *out = rs_cli_out(cli);
    char n[32], what[64];
    rs_format_size(cli->req.n, n, sizeof n); /* as every n is written: 2^20 */
    fprintf(out, "%s check of %s (%s %s, n %s, block %u) with %s:\n", rs_check_name(r->kind),
            rs_request_name(&cli->req), rs_dtype_name(cli->req.type), rs_op_name(cli->req.op), n,
            cli->req.block, r->tools);
    for (int i = 0; i < r->count; i++) {
        const rs_finding *f = &r->findings[i];
        char count[32], a[256], b[256];
        rs_fmt_count((double)f->count, count, sizeof count);
        line_with_text(f->file, f->line, a, sizeof a);
        snprintf(what, sizeof what, "%s", f->what);
        if (f->file2[0]) {
            char *slash = strstr(what, " / ");
            if (slash) *slash = '\0';
            line_with_text(f->file2, f->line2, b, sizeof b);
            fprintf(out, "  %12s %s  %-5s %s\n  %12s %s  %-5s %s\n", count,
                    r->kind == RS_CHECK_RACE ? "hazards" : "errors ", what, a, "", "       ",
                    slash ? slash + 3 : "", b);
        } else {
            fprintf(out, "  %12s %s  %s\n  %12s %s\n", count, f->count == 1 ? "error " : "errors",
                    what, "", a);
        }
    }
    if (r->more) fprintf(out, "  (and %d more groups)\n", r->more);
    char s[512];
    rs_check_sentence(r, s, sizeof s);
    fprintf(out, "%s\n", s);
}

static void print_csv(FILE *out, const rs_check_report *r)
{
    fprintf(out, "check,what,kernel,file,line,file2,line2,count\n");
    for (int i = 0; i < r->count; i++) {
        const rs_finding *f = &r->findings[i];
        /* the sanitizer's words and names are quoted: a kernel's may hold commas */
        const char *text[] = {f->what, f->kernel, f->file};
        fprintf(out, "%s", rs_check_name(r->kind));
        for (size_t k = 0; k < sizeof text / sizeof text[0]; k++) {
            fprintf(out, ",");
            rs_csv_field(out, text[k]);
        }
        fprintf(out, ",%d,", f->line);
        rs_csv_field(out, f->file2);
        if (f->file2[0])
            fprintf(out, ",%d,%llu\n", f->line2, (unsigned long long)f->count);
        else
            fprintf(out, ",,%llu\n", (unsigned long long)f->count);
    }
}

static void print_json(const rs_cli *cli, const rs_check_report *r)
{
    FILE *out = rs_cli_out(cli);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "request", rs_request_to_json(&cli->req));
    cJSON_AddItemToObject(j, "check", rs_check_to_json(r));
    char *s = rs_json_print(j);
    if (s) fprintf(out, "%s\n", s);
    free(s);
    cJSON_Delete(j);
}

/* What a check earns: 9 when it found races or memory errors (scripts see
 * them), 1 when the checked run's result was wrong, else 0. */
/* The exit status a report earns, said where the report alone would not:
 * 9 for findings, 4 for a check that did not finish (as live), 1 for a
 * checked run whose result was wrong. */
static int report_exit(const rs_cli *cli, const rs_check_report *r)
{
    if (r->total > 0) return RS_E_FOUND;
    if (!r->ran) {
        rs_cli_error("%s was not checked: %s", rs_request_name(&cli->req),
                     r->note[0] ? r->note : "compute-sanitizer did not finish");
        return RS_E_CUDA;
    }
    if (r->correct != 0) return 0;
    rs_cli_error("%s gave a WRONG result under compute-sanitizer (see above)",
                 rs_request_name(&cli->req));
    return RS_E_MISMATCH;
}

static void print_report(const rs_cli *cli, const rs_check_report *r)
{
    if (rs_cli_text_format(cli) == RS_FMT_JSON)
        print_json(cli, r);
    else if (rs_cli_text_format(cli) == RS_FMT_CSV)
        print_csv(rs_cli_out(cli), r);
    else
        print_table(cli, r);
}

/* Refused before any work: what --check cannot do. */
static int refuse(const rs_cli *cli)
{
    rs_error err;
    int rc = rs_cli_check_outputs(cli);
    if (rc || (rc = rs_cli_save_preset(cli))) return rc;
    if (cli->req.variant == RS_V_CPU) {
        rs_cli_error("--check needs a GPU variant: the cpu reference runs no kernel");
        return RS_E_USAGE;
    }
    if (rs_catalogue_check(&cli->req, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    return 0;
}

/* --record: the findings as a line of a recording, for --replay. */
static int record_check(const rs_cli *cli, const rs_device_info *dev, const rs_check_report *r)
{
    rs_recorder rec;
    rs_error err;
    rs_status st = rs_record_open(&rec, cli->record, dev, &err);
    if (st == RS_OK) st = rs_record_check(&rec, &cli->req, r, &err);
    const rs_status closed = rs_record_close(&rec, &err);
    if (st == RS_OK) st = closed;
    if (st != RS_OK) rs_cli_error("%s", err.msg);
    return (int)st;
}

/* run --check --replay FILE: the check recorded for this configuration. */
static int replay_check(const rs_cli *cli)
{
    rs_recording rec;
    rs_error err;
    if (rs_recording_load(cli->replay, &rec, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    const rs_recorded_check *c =
        rs_recording_find_check(&rec, &cli->req, (rs_check_kind)RS_CLI_OWN(cli, rs_run_own)->check);
    int rc = 0;
    if (c) { /* --record writes what is shown, as every replay does */
        rc = cli->record ? record_check(cli, &rec.device, &c->report) : 0;
        print_report(cli, &c->report);
        if (!rc) rc = report_exit(cli, &c->report);
    } else {
        rs_cli_error("not recorded: %s holds no --check %s of %s with these settings (%d check%s "
                     "recorded)",
                     cli->replay, rs_check_name((rs_check_kind)RS_CLI_OWN(cli, rs_run_own)->check),
                     rs_request_name(&cli->req), rec.check_count, rec.check_count == 1 ? "" : "s");
        rc = RS_E_USAGE;
    }
    rs_recording_free(&rec);
    return rc;
}

int rs_run_check(rs_cli *cli)
{
    int rc = refuse(cli);
    if (rc) return rc;
    if (cli->req.variant == RS_V_KERNEL) user_kernel = cli->req.kernel;
    if (cli->replay) return replay_check(cli);
    rs_source *src = NULL; /* a GPU is there (exit 3 or 4 said otherwise) */
    if ((rc = rs_cli_open_source(cli, 1, &src))) return rc;
    const rs_device_info dev = *src->device(src);
    rs_source_close(src);
    char exe[4096], san[4096];
    if (!rs_check_find_sanitizer(san, sizeof san)) {
        rs_cli_error("--check needs compute-sanitizer, which comes with the CUDA toolkit: add its "
                     "bin folder to PATH (/usr/local/cuda/bin) or set CUDA_HOME");
        return RS_E_USAGE;
    }
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        rs_cli_error("cannot find the redscope executable (/proc/self/exe)");
        return RS_E_IO;
    }
    exe[len] = '\0';
    if (isatty(2))
        fprintf(stderr, "redscope: checking %s under compute-sanitizer (%s)...\n",
                rs_request_name(&cli->req),
                RS_CLI_OWN(cli, rs_run_own)->check == RS_CHECK_RACE ? "racecheck"
                                                                    : "memcheck, initcheck");
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    rs_check_report *r = malloc(sizeof *r);
    rs_error err;
    const rs_status st =
        r ? rs_check_run(&cli->req, (rs_check_kind)RS_CLI_OWN(cli, rs_run_own)->check, exe, r,
                         &check_cancel, &err)
          : rs_fail(&err, RS_E_NOMEM, "out of host memory");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    rc = (int)st;
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
    } else {
        print_report(cli, r);
        rc = report_exit(cli, r);
        const int rec = cli->record ? record_check(cli, &dev, r) : 0;
        if (rec) rc = rec;
    }
    free(r);
    return rc;
}
