/* redscope compile FILE.cu: a user kernel through NVRTC without running
 * it (no GPU needed): the log in file:line form, the entry point, its
 * registers, shared memory and spills. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "formats/preset.h"
#include "cli/cli.h"
#include "core/text.h"
#include "cmd.h"
#include "nvtools/compile.h"

typedef struct compile_own {
    int arch; /* --arch sm_XX; 0: sm_90 */
} compile_own;

static rs_status set_arch(void *own, const char *v, rs_error *err)
{
    char *end = NULL;
    const char *digits = v && strncmp(v, "sm_", 3) == 0 ? v + 3 : v ? v : "";
    const long a = strtol(digits, &end, 10);
    if (!*digits || *end || a < 50 || a > 130)
        return rs_fail(err, RS_E_USAGE, "bad --arch '%s': expected sm_XX, like sm_90 or sm_80",
                       v ? v : "");
    ((compile_own *)own)->arch = (int)a;
    return RS_OK;
}

static const rs_cmd_option compile_options[] = {
    {"arch", "sm_XX", "the GPU architecture to compile for (default sm_90)", set_arch},
    {NULL, NULL, NULL, NULL}};

static const rs_option_help compile_help[] = {{RS_F_kernel, 0, NULL, NULL, RS_HELP_HIDDEN},
                                              RS_HELP_END}; /* its FILE.cu */

const rs_command rs_compile_entry = {
    .name = "compile",
    .usage = "FILE.cu [--type T --op OP --finish F --arch sm_XX]",
    .summary = "compile your kernel with NVRTC (no GPU needed): errors, registers, spills",
    .fields = RS_FIELD(type) | RS_FIELD(op) | RS_FIELD(finish) | RS_FIELD(kernel),
    .extras = RS_X_FORMAT,
    .words = {{RS_F_kernel, 0, 1}}, /* FILE.cu ...: as --kernel */
    .options = compile_options,
    .own_size = sizeof(compile_own),
    .fn = rs_cmd_compile,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_NOMEM) | RS_EXIT(RS_E_IO),
    .help = compile_help,
};

static const char *block_words(const rs_ukernel_spec *s, char *buf, size_t len)
{
    switch (s->block_rule) {
    case RS_UB_POW2: return "a power of two";
    case RS_UB_WARP: return "a multiple of 32";
    case RS_UB_EXACT: snprintf(buf, len, "%u only", s->block_exact); return buf;
    default: return "any";
    }
}

static void print_table(FILE *out, const char *path, const rs_request *r, const rs_ukernel_spec *s,
                        const rs_compiled *c, rs_finish fin)
{
    char ept[48], blk[24];
    const rs_kernel_build *b = &c->build;
    if (s->ept)
        snprintf(ept, sizeof ept, "%u per thread", s->ept);
    else
        snprintf(ept, sizeof ept, "grid-stride");
    fprintf(out, "%s: compiled for sm_%d (%s %s, finish %s) in %.0f ms\n", path, c->arch,
            rs_dtype_name(r->type), rs_op_name(r->op), rs_finish_name(fin), c->ms);
    fprintf(out, "entry      %s\n", b->entry);
    fprintf(out, "registers  %d per thread\n", b->regs);
    fprintf(out, "shared     %d bytes static + max(blockDim, 64) x %zu bytes dynamic\n", b->smem,
            rs_dtype_size(rs_dtype_acc(r->type)));
    char spills[96];
    rs_ukernel_spills(b->spill_st, b->spill_ld, b->stack, spills, sizeof spills);
    fprintf(out, "spills     %s (stack %d bytes)\n", spills, b->stack);
    fprintf(out, "blockDim   %s\nelements   %s\n", block_words(s, blk, sizeof blk), ept);
}

static void print_json(FILE *out, const char *path, const rs_request *r, const rs_compiled *c,
                       rs_finish fin, rs_status st, const char *error)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    cJSON_AddStringToObject(o, "type", rs_dtype_name(r->type));
    cJSON_AddStringToObject(o, "op", rs_op_name(r->op));
    cJSON_AddStringToObject(o, "finish", rs_finish_name(fin));
    cJSON_AddNumberToObject(o, "arch", c->arch);
    cJSON_AddBoolToObject(o, "ok", st == RS_OK);
    if (error) cJSON_AddStringToObject(o, "error", error);
    if (st == RS_OK) { /* what a build that failed never had: absent, not 0 */
        cJSON_AddStringToObject(o, "entry", c->build.entry);
        cJSON_AddNumberToObject(o, "registers", c->build.regs);
        cJSON_AddNumberToObject(o, "shared_static_bytes", c->build.smem);
        cJSON_AddNumberToObject(o, "spill_store_bytes", c->build.spill_st);
        cJSON_AddNumberToObject(o, "spill_load_bytes", c->build.spill_ld);
    }
    cJSON_AddNumberToObject(o, "compile_ms", c->ms);
    cJSON_AddStringToObject(o, "log", c->log ? c->log : "");
    char *s = rs_json_print(o);
    if (s) fprintf(out, "%s\n", s);
    free(s);
    cJSON_Delete(o);
}

/* The compiler said something (beyond ptxas's -v chatter). */
static int log_has_diagnostics(const char *log)
{
    return strstr(log, ": warning") || strstr(log, ": error") || strstr(log, ": catastrophic");
}

/* The log on stderr, its first 10 errors: 100 of them (a README given to
 * compile) bury the first, which is the one to read. */
static void print_log(const char *path, const char *log)
{
    enum { SHOWN = 10 };
    int errors = 0;
    const char *cut = NULL;
    for (const char *l = log; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
        const char *e = strstr(l, ": error");
        if (!e || e > l + strcspn(l, "\n") || l[0] == ' ') continue;
        if (++errors == SHOWN + 1) cut = l;
    }
    /* each line of the compiler's through the text gate and indented: a file
     * name of a #line with a newline in it cannot print a line of ours */
    const char *end = cut ? cut : log + strlen(log);
    for (const char *l = log; l < end;) {
        const size_t k = strcspn(l, "\n");
        char line[1024], safe[4096];
        snprintf(line, sizeof line, "%.*s", (int)(k < sizeof line ? k : sizeof line - 1), l);
        fprintf(stderr, "%s%s\n", line[0] ? "  " : "", rs_text_safe(line, 0, safe, sizeof safe));
        l += k + (l[k] == '\n');
    }
    const size_t n = strlen(path);
    const int cu =
        (n > 3 && strcmp(path + n - 3, ".cu") == 0) || (n > 4 && strcmp(path + n - 4, ".cuh") == 0);
    if (cut)
        rs_cli_error("%d more errors not shown (%d in all; --format json carries the whole "
                     "log)%s%s%s",
                     errors - SHOWN, errors, cu ? "" : ": is it a kernel? (a .cu file, as ",
                     cu ? "" : rs_template_path(), cu ? "" : ")");
}

/* The first line of msg is already in the log (a compile error, said above). */
static int in_log(const char *log, const char *msg)
{
    char first[200];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(msg, "\n"), msg);
    return log && first[0] && strstr(log, first);
}

/* One file; *shown: the files printed before it (one CSV header, one JSON
 * array for several). */
static int compile_one(const rs_cli *cli, const char *path, int *shown)
{
    rs_error err;
    char *text = NULL;
    size_t len = 0;
    rs_ukernel_spec spec;
    rs_status st = rs_ukernel_read(path, &text, &len, &err);
    if (st == RS_OK) st = rs_ukernel_parse(path, text, &spec, &err);
    /* the type and operation the file's header refuses are refused, as by
     * run; the blockDim is the launch's, which compile does not take: a
     * block the header fixes is the one checked */
    rs_request asked = cli->req;
    asked.variant = RS_V_KERNEL;
    asked.block = spec.block_rule == RS_UB_EXACT ? spec.block_exact : 256;
    asked.grid = 0, asked.ept = 0;
    if (st == RS_OK) st = rs_ukernel_check(path, &spec, &asked, &err);
    if (st != RS_OK) {
        rs_cli_error("%s", err.msg);
        free(text);
        return (int)st;
    }
    const rs_request *r = &cli->req;
    const rs_finish fin = r->finish != RS_FINISH_AUTO ? r->finish : spec.finish;
    const int kfin = fin == RS_FINISH_ATOMIC ? 1 : fin == RS_FINISH_SINGLE_PASS ? 2 : 0;
    rs_compiled c;
    st = rs_compile_bounded(
        path, text, r->type, r->op, kfin,
        RS_CLI_OWN(cli, compile_own)->arch ? RS_CLI_OWN(cli, compile_own)->arch : 90, &c, &err);
    free(text);
    if (rs_cli_text_format(cli) == RS_FMT_JSON) {
        FILE *out = rs_cli_out(cli);
        if ((*shown)++ > 0) fprintf(out, ",\n");
        print_json(out, path, r, &c, fin, st, st == RS_OK ? NULL : err.msg);
    } else if (rs_cli_text_format(cli) == RS_FMT_CSV) {
        FILE *out = rs_cli_out(cli);
        if ((*shown)++ == 0)
            fprintf(out, "file,type,op,finish,arch,ok,entry,registers,shared_static_bytes,"
                         "spill_store_bytes,spill_load_bytes,compile_ms,error\n");
        rs_csv_field(out, path);
        fprintf(out, ",%s,%s,%s,%d,%s,", rs_dtype_name(r->type), rs_op_name(r->op),
                rs_finish_name(fin), c.arch, st == RS_OK ? "yes" : "no");
        if (st == RS_OK) /* a build that failed has none of these: empty, not 0 */
            fprintf(out, "%s,%d,%d,%d,%d,", c.build.entry, c.build.regs, c.build.smem,
                    c.build.spill_st, c.build.spill_ld);
        else
            fprintf(out, ",,,,,");
        rs_csv_num(out, c.ms);
        fputc(',', out);
        if (st != RS_OK) { /* its first line: one cell, one line */
            char first[sizeof err.msg];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(err.msg, "\n"), err.msg);
            rs_csv_field(out, first);
        }
        fprintf(out, "\n");
        if (st != RS_OK) rs_cli_error("%s", err.msg);
    } else {
        if (c.log && log_has_diagnostics(c.log)) print_log(path, c.log);
        if (st == RS_OK) print_table(rs_cli_out(cli), path, r, &spec, &c, fin);
    }
    if (st != RS_OK && rs_cli_text_format(cli) == RS_FMT_TABLE) {
        /* the whole log is above; the reason when it is not in it */
        if (!in_log(c.log, err.msg)) rs_cli_error("%s", err.msg);
        rs_cli_error("%s did not compile (%s %s)", path, rs_dtype_name(r->type), rs_op_name(r->op));
    }
    rs_compiled_free(&c);
    return (int)st;
}

int rs_cmd_compile(rs_cli *cli)
{
    if (cli->nkernels == 0) {
        rs_cli_error("compile needs a file: redscope compile FILE.cu (start from %s)",
                     rs_template_path());
        return RS_E_USAGE;
    }
    int rc = 0;
    const int array = rs_cli_text_format(cli) == RS_FMT_JSON && cli->nkernels > 1;
    if (array) fprintf(rs_cli_out(cli), "[\n");
    int shown = 0;
    for (int i = 0; i < cli->nkernels; i++) {
        const int k = compile_one(cli, cli->kernels[i], &shown);
        if (k && !rc) rc = k;
    }
    if (array) fprintf(rs_cli_out(cli), "]\n");
    return rc;
}
