/* Recordings read: every line through the JSON codec, rows kept in order
 * with their commands, checks and user kernels' sources kept apart; a row
 * found for a request, and the configurations a recording holds. The
 * writer is record_write.c. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/format.h"
#include "core/text.h"

/* One line, without its newline; *ended: it had one (a file cut short
 * ends in a line without). */
/* One line (malloc'd, without its newline), at most RS_READ_LINE bytes:
 * a longer one, or a NUL byte (a binary file is one long line), stops it
 * with *odd saying why. NULL at the end or on a failed read. */
static char *read_line(FILE *f, size_t *got, int *ended, const char **odd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int c;
    if (!buf) return NULL;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') { /* one thread reads it */
        if (c == 0 || len + 1 >= RS_READ_LINE) {
            *odd = c == 0 ? "a NUL byte" : "a line longer than any a recording holds";
            break;
        }
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
        buf[len++] = (char)c;
    }
    *ended = c == '\n';
    if (c == EOF && len == 0 && !*odd) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    *got = len;
    return buf;
}

static rs_status add_row(rs_recording *out, int *cap, const cJSON *j, const char *path, int line,
                         rs_error *err)
{
    if (out->count == *cap) {
        const int ncap = *cap ? *cap * 2 : 64;
        rs_row *rows = realloc(out->rows, sizeof *rows * (size_t)ncap);
        char(*cmd)[16] = realloc(out->command, sizeof *cmd * (size_t)ncap);
        if (rows) out->rows = rows;
        if (cmd) out->command = cmd;
        if (!rows || !cmd) return rs_fail(err, RS_E_NOMEM, "out of host memory");
        *cap = ncap;
    }
    rs_error sub;
    if (rs_row_from_json(j, &out->rows[out->count], &sub) != RS_OK)
        return rs_fail(err, RS_E_IO, "%s:%d: %s", path, line, sub.msg);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "command");
    const char *cmd = cJSON_IsString(c) ? c->valuestring : "run";
    if (strcmp(cmd, "run") != 0 && strcmp(cmd, "ladder") != 0 && strcmp(cmd, "sweep") != 0) {
        char shown[64];
        return rs_fail(err, RS_E_IO,
                       "%s:%d: command is \"%s\": a row is of run, ladder or sweep (as --record "
                       "writes it)",
                       path, line, rs_text_safe(cmd, 0, shown, sizeof shown));
    }
    const rs_row *row = &out->rows[out->count];
    if (out->has_device && row->status == RS_OK &&
        strcmp(row->result.device.name, out->device.name) != 0) {
        char a[160], b[160]; /* a ladder across two GPUs would be told as one */
        return rs_fail(err, RS_E_IO,
                       "%s:%d: a row of %s in a recording of %s: one GPU per recording (redscope "
                       "diff A B compares two)",
                       path, line, rs_text_safe(row->result.device.name, 0, a, sizeof a),
                       rs_text_safe(out->device.name, 0, b, sizeof b));
    }
    rs_text_copy(out->command[out->count], 16, cmd);
    rs_result *res = &out->rows[out->count].result;
    if (out->rows[out->count].status == RS_OK && out->has_device &&
        out->device.measured_gbps > 0) { /* the header's read, and the share taken of it */
        const int g = res->multi.gpus > 1 ? res->multi.gpus : 1;
        res->device.measured_gbps = out->device.measured_gbps;
        res->pct_measured = 100.0 * res->gbps / (g * res->device.measured_gbps);
        if (out->device.l2_gbps > 0) res->device.l2_gbps = out->device.l2_gbps;
    }
    out->count++;
    return RS_OK;
}

const char *rs_recording_cut_note(const rs_recording *rec, const char *path, char *buf, size_t len)
{
    if (!rec->cut_line) {
        snprintf(buf, len, "%s", "");
        return buf;
    }
    snprintf(buf, len,
             "%s:%d: the last line is cut short (an interrupted recording?): replaying the %d "
             "line%s before it",
             path, rec->cut_line, rec->cut_line - 1, rec->cut_line == 2 ? "" : "s");
    return buf;
}

/* One JSON line of a recording into out: its header, a user kernel's
 * source, a check, or a row. */
static rs_status take_line(rs_recording *out, int *cap, const cJSON *j, const char *path, int line,
                           rs_error *err)
{
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "command");
    const char *c = cJSON_IsString(cmd) ? cmd->valuestring : "";
    rs_error sub;
    rs_status st = RS_OK;
    if (cJSON_GetObjectItemCaseSensitive(j, "redscope_allreduce"))
        return rs_fail(err, RS_E_IO,
                       "%s:%d: this is a recording of redscope allreduce: replay it with: "
                       "redscope allreduce --replay %s --algo all",
                       path, line, path);
    if (cJSON_GetObjectItemCaseSensitive(j, "redscope_recording")) {
        const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
        st = rs_device_check(dev, &sub);
        rs_device_info d;
        rs_device_from_json(dev, &d);
        if (st == RS_OK && (out->has_device || out->count) &&
            strcmp(d.name, out->has_device ? out->device.name : out->rows[0].result.device.name))
            return rs_fail(err, RS_E_IO,
                           "%s:%d: a second GPU's recording joined to this one: one GPU per "
                           "recording (redscope diff A B compares two)",
                           path, line);
        out->device = d; /* the same GPU: its latest header, as before */
        out->has_device = 1;
    } else if (strcmp(c, "kernel") == 0) {
        st = rs_recording_add_kernel(out, j, &sub);
    } else if (strcmp(c, "check") == 0) {
        st = rs_recording_add_check(out, j, &sub);
    } else {
        return add_row(out, cap, j, path, line, err);
    }
    return st == RS_OK ? RS_OK : rs_fail(err, RS_E_IO, "%s:%d: %s", path, line, sub.msg);
}

rs_status rs_recording_load(const char *path, rs_recording *out, rs_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = NULL;
    const rs_status opened = rs_file_open(path, "recording", RS_READ_RECORDING, &f, err);
    if (opened != RS_OK) return opened;
    int cap = 0, line = 0;
    rs_status st = RS_OK;
    char *text;
    size_t len = 0;
    int ended = 1;
    const char *cut = NULL;
    while (st == RS_OK && (text = read_line(f, &len, &ended, &cut))) {
        line++;
        const char *odd = cut ? cut : rs_text_problem(text, len, NULL);
        if (odd) {
            free(text);
            st = rs_fail(err, RS_E_IO,
                         "%s:%d: not a text recording: the line holds %s (a recording is the "
                         "JSON lines --record writes)",
                         path, line, odd);
            break;
        }
        if (text[strspn(text, " \t\r")] == '\0') {
            free(text);
            continue;
        }
        cJSON *j = cJSON_Parse(text);
        free(text);
        rs_json_scrub(j);
        if (!j && !ended && line > 1) { /* cut short (an interrupted write): what is whole */
            out->cut_line = line;
            break;
        }
        if (!j) {
            st = rs_fail(err, RS_E_IO, "%s:%d: not a JSON line", path, line);
            break;
        }
        st = take_line(out, &cap, j, path, line, err);
        cJSON_Delete(j);
    }
    if (st == RS_OK && ferror(f)) st = rs_file_failed(path, "recording", err);
    fclose(f);
    if (st == RS_OK && out->count == 0 && !out->has_device)
        st = rs_fail(err, RS_E_IO, "%s: an empty recording", path);
    if (st != RS_OK)
        rs_recording_free(out);
    else
        rs_cpu_share_rows(out->rows, out->count); /* one CPU time per input, whatever replays */
    return st;
}

void rs_recording_free(rs_recording *rec)
{
    free(rec->rows);
    free(rec->command);
    free(rec->checks);
    for (int i = 0; i < rec->kernel_count; i++) free(rec->kernels[i].source);
    free(rec->kernels);
    memset(rec, 0, sizeof *rec);
}

/* A run over every GPU (--gpus 0) is the same run as one over the count it
 * came to, where that count is the most the recording's runs span: a
 * recording of `--gpus 0` replays under G's counts, and one of `--gpus 2`
 * under --gpus 0 where 2 was every GPU. */
static int same_run_gpus(const rs_row *row, const rs_request *req, int most)
{
    const rs_request *r = &row->result.req;
    if (rs_request_same_run(r, req)) return 1;
    /* a row that failed has no count of its own: every GPU was the most */
    const int own = (int)row->result.multi.gpus, g = own ? own : r->gpus ? 0 : most;
    if (g < 2 || g != most || (r->gpus && (int)r->gpus != g) || (req->gpus && (int)req->gpus != g))
        return 0;
    rs_request a = *r, b = *req;
    a.gpus = b.gpus = (uint32_t)g;
    return rs_request_same_run(&a, &b);
}

/* Of two rows of one configuration (a ladder's and a sweep's), the one
 * that holds what req asks (counters of its set, a stall view, energy),
 * then a ladder's (what a replay's list shows), then the later. */
static int answers(const rs_row *row, const rs_request *req, const char *command)
{
    rs_metric_mask asked = 0;
    rs_metric_parse_set(req->metrics, &asked, NULL);
    const rs_result *r = &row->result;
    return 8 * (asked && (r->metrics.requested & asked) == asked) +
           4 * (req->stalls && rs_result_stalls(r)->requested) +
           2 * (req->energy && r->energy.requested) + (strcmp(command, "ladder") == 0);
}

const rs_row *rs_recording_find(const rs_recording *rec, const rs_request *req, const char *command)
{
    int most = 1, best = -1;
    const rs_row *found = NULL;
    if (req->gpus != 1) rs_recording_gpus(rec, &most, NULL, 0);
    for (int i = rec->count - 1; i >= 0; i--) {
        if (command && strcmp(rec->command[i], command) != 0) continue;
        if (!same_run_gpus(&rec->rows[i], req, most)) continue;
        if (command) return &rec->rows[i]; /* one command's rows: the last */
        const int score = answers(&rec->rows[i], req, rec->command[i]);
        if (score > best) best = score, found = &rec->rows[i];
    }
    return found;
}

/* Knobs a variant does not take (finish, grid, ept) match anything. */
static int knob_fits(const rs_request *row, rs_request *cfg, unsigned *seen_flags)
{
    const unsigned flags = rs_catalogue_get(row->variant)->flags;
    if (flags & RS_VF_FINISH) {
        if ((*seen_flags & RS_VF_FINISH) && cfg->finish != row->finish) return 0;
        cfg->finish = row->finish;
    }
    if (flags & RS_VF_GRID_STRIDE) {
        if ((*seen_flags & RS_VF_GRID_STRIDE) && (cfg->grid != row->grid || cfg->ept != row->ept))
            return 0;
        cfg->grid = row->grid;
        cfg->ept = row->ept;
    }
    *seen_flags |= flags & (RS_VF_FINISH | RS_VF_GRID_STRIDE);
    return 1;
}

int rs_recording_configs(const rs_recording *rec, rs_rec_config *out, int max)
{
    int n = 0;
    unsigned seen_flags = 0;
    for (int i = 0; i < rec->count; i++) {
        const rs_request *r = &rec->rows[i].result.req;
        rs_rec_config *c = n ? &out[n - 1] : NULL;
        const int sweep = strcmp(rec->command[i], "sweep") == 0;
        rs_request joined = c ? c->req : *r;
        /* a ladder's further --kernel files are rows of the same ladder */
        const int next_file = i > 0 && r->variant == RS_V_KERNEL &&
                              rec->rows[i - 1].result.req.variant == RS_V_KERNEL &&
                              strcmp(rec->rows[i - 1].result.req.kernel, r->kernel) != 0;
        /* a ladder over GPUs has each variant on one GPU and per finish; a
         * run of a variant again is another configuration, GPUs or not */
        const int slot = r->gpus == 1 ? 0 : 1 + (int)r->cross % RS_CROSS_COUNT;
        const int ladder = strcmp(rec->command[i], "ladder") == 0;
        const rs_variant_set had = !c ? 0 : ladder ? c->seen[slot] : c->req.variants;
        const int repeat = c && !sweep && (had & RS_VARIANT_BIT(r->variant)) && !next_file;
        const int other_gpus = c && (ladder ? r->gpus != 1 && c->gpus != 1 && c->gpus != r->gpus
                                            : !rs_request_same_spread(&c->req, r));
        if (!c || strcmp(c->command, rec->command[i]) != 0 || repeat || other_gpus ||
            !rs_request_same_config(&c->req, r, sweep) || !knob_fits(r, &joined, &seen_flags)) {
            if (n == max) break;
            c = &out[n++];
            memset(c, 0, sizeof *c);
            snprintf(c->command, sizeof c->command, "%s", rec->command[i]);
            c->req = *r;
            c->req.variants = 0;
            c->first = i;
            c->n_lo = c->n_hi = r->n;
            c->gpus = 1;
            seen_flags = 0;
            joined = c->req;
            knob_fits(r, &joined, &seen_flags);
        }
        c->req = joined;
        c->req.variants |= RS_VARIANT_BIT(r->variant);
        c->seen[slot] |= RS_VARIANT_BIT(r->variant);
        if (r->gpus != 1) c->gpus = r->gpus;
        c->count = i - c->first + 1;
        if (r->n < c->n_lo) c->n_lo = r->n;
        if (r->n > c->n_hi) c->n_hi = r->n;
    }
    return n;
}

static void describe_variants(rs_variant_set set, char *buf, size_t len)
{
    int count = 0, first = -1, last = -1;
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        if (set & RS_VARIANT_BIT(v)) count++, last = v, first = first < 0 ? v : first;
    if (count == 1)
        snprintf(buf, len, "%s", rs_variant_name(first));
    else
        snprintf(buf, len, "%d variants (%s..%s)", count, rs_variant_name(first),
                 rs_variant_name(last));
}

void rs_rec_config_describe(const rs_rec_config *c, const char *sep, char *buf, size_t len)
{
    const rs_request *r = &c->req;
    char vars[96], lo[32], hi[32];
    describe_variants(r->variants, vars, sizeof vars);
    rs_format_size(c->n_lo, lo, sizeof lo);
    rs_format_size(c->n_hi, hi, sizeof hi);
    snprintf(buf, len,
             "%-6s %s %s %s %s %s %s n %s%s%s %s block %u %s finish %s %s %u reps %s counters %s",
             c->command, sep, vars, sep, rs_dtype_name(r->type), rs_op_name(r->op), sep, lo,
             c->n_hi != c->n_lo ? ".." : "", c->n_hi != c->n_lo ? hi : "", sep, r->block, sep,
             rs_finish_name(r->finish), sep, r->reps, sep, r->metrics);
}

/* Two configurations that are one sweep in two cache states. */
static int twins(const rs_rec_config *a, const rs_rec_config *b)
{
    rs_request same = b->req;
    same.cache = a->req.cache;
    same.variants = a->req.variants;
    const rs_variant_set gpu = ~RS_VARIANT_BIT(RS_V_CPU); /* the CPU runs in one state */
    return strcmp(a->command, "sweep") == 0 && strcmp(b->command, "sweep") == 0 &&
           a->req.cache != b->req.cache && (a->req.variants & gpu) == (b->req.variants & gpu) &&
           a->n_lo == b->n_lo && a->n_hi == b->n_hi && a->gpus == b->gpus &&
           rs_request_same_config(&a->req, &same, 1) && rs_request_same_spread(&a->req, &same);
}

int rs_rec_config_twin(const rs_rec_config *c, int count, int k)
{
    if (k > 0 && k < count && twins(&c[k], &c[k - 1])) return k - 1;
    if (k >= 0 && k + 1 < count && twins(&c[k], &c[k + 1])) return k + 1;
    return -1;
}

int rs_recording_find_sweep(const rs_rec_config *configs, int count, const rs_request *req)
{
    for (int k = count - 1; k >= 0; k--) {
        const rs_request *r = &configs[k].req;
        if (strcmp(configs[k].command, "sweep") == 0 && r->type == req->type && r->op == req->op &&
            r->block == req->block && r->finish == req->finish && r->dist == req->dist &&
            r->grid == req->grid && r->ept == req->ept)
            return k;
    }
    return -1;
}

void rs_recording_gpus(const rs_recording *rec, int *count, char *links, size_t len)
{
    *count = 1;
    if (len) links[0] = '\0';
    for (int i = 0; i < rec->count; i++) {
        const rs_result *r = &rec->rows[i].result;
        if (rec->rows[i].status != RS_OK || r->multi.gpus < 2) continue;
        if (r->multi.gpus > *count) *count = r->multi.gpus;
        if (len && !links[0]) snprintf(links, len, "%s", r->multi.links);
    }
}

/* A sweep's sizes as --range takes them. */
static void config_range(const rs_rec_config *c, char *buf, size_t len)
{
    char lo[32], hi[32];
    rs_format_size(c->n_lo, lo, sizeof lo);
    rs_format_size(c->n_hi, hi, sizeof hi);
    snprintf(buf, len, c->n_lo == c->n_hi ? "%s" : "%s..%s", lo, hi);
}

void rs_rec_config_options(const rs_rec_config *c, const rs_request *asked, char *buf, size_t len)
{
    static const rs_field_id ids[] = {RS_F_type, RS_F_op,      RS_F_n,    RS_F_block,  RS_F_grid,
                                      RS_F_ept,  RS_F_finish,  RS_F_reps, RS_F_warmup, RS_F_dist,
                                      RS_F_seed, RS_F_metrics, RS_F_gpus, RS_F_cache};
    const int sweep = strcmp(c->command, "sweep") == 0;
    rs_request want = c->req;
    want.gpus = c->gpus;
    size_t l = 0;
    if (len) buf[0] = '\0';
    for (size_t k = 0; k < sizeof ids / sizeof ids[0] && l < len; k++) {
        const rs_field *f = &rs_fields[ids[k]];
        char a[512], b[512]; /* a metrics list: up to RS_METRICS_MAX */
        if (ids[k] == RS_F_n && sweep) {
            f = &rs_fields[RS_F_sweep];
            config_range(c, b, sizeof b);
            snprintf(a, sizeof a, "%s", asked->sweep[0] ? asked->sweep : f->def);
        } else {
            rs_field_format(asked, f, a, sizeof a);
            rs_field_format(&want, f, b, sizeof b);
        }
        if (strcmp(a, b) != 0)
            l += (size_t)snprintf(buf + l, len - l, "%s--%s %s", l ? " " : "", f->flag, b);
    }
    const rs_variant_set has = c->req.variants;
    const rs_variant_set wants = asked->variants ? asked->variants : ~(rs_variant_set)0;
    if (!(has & wants) && l < len) { /* none of the variants asked for: those it holds */
        l += (size_t)snprintf(buf + l, len - l, "%s--variants ", l ? " " : "");
        for (int v = 0, first = 1; v < RS_VARIANT_COUNT && l < len; v++)
            if (has & RS_VARIANT_BIT(v)) {
                l += (size_t)snprintf(buf + l, len - l, "%s%s", first ? "" : ",",
                                      rs_variant_name((rs_variant)v));
                first = 0;
            }
    }
}

/* ---- checks (run --check) and user kernels' sources, kept apart from the rows ---- */

rs_status rs_recording_add_check(rs_recording *rec, const cJSON *j, rs_error *err)
{
    rs_recorded_check c;
    memset(&c, 0, sizeof c);
    rs_status st =
        rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"), &c.req, err);
    if (st == RS_OK)
        st = rs_check_from_json(cJSON_GetObjectItemCaseSensitive(j, "check"), &c.report, err);
    if (st != RS_OK) return st;
    rs_recorded_check *more = realloc(rec->checks, sizeof *more * ((size_t)rec->check_count + 1));
    if (!more) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->checks = more;
    rec->checks[rec->check_count++] = c;
    return RS_OK;
}

const rs_recorded_check *rs_recording_find_check(const rs_recording *rec, const rs_request *req,
                                                 rs_check_kind kind)
{
    for (int i = rec->check_count - 1; i >= 0; i--) {
        const rs_recorded_check *c = &rec->checks[i];
        if (c->report.kind == kind && c->req.variant == req->variant &&
            rs_request_same_run(&c->req, req))
            return c;
    }
    return NULL;
}

rs_status rs_recording_add_kernel(rs_recording *rec, const cJSON *j, rs_error *err)
{
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(j, "path");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(j, "hash");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source");
    if (!cJSON_IsString(path) || !cJSON_IsString(hash) || !cJSON_IsString(src))
        return rs_fail(err, RS_E_USAGE, "a kernel line needs path, hash and source");
    rs_recorded_kernel *k = realloc(rec->kernels, sizeof *k * (size_t)(rec->kernel_count + 1));
    if (!k) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->kernels = k;
    k = &rec->kernels[rec->kernel_count];
    snprintf(k->path, sizeof k->path, "%s", path->valuestring);
    k->hash = strtoull(hash->valuestring, NULL, 16);
    k->source = strdup(src->valuestring);
    if (!k->source) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    rec->kernel_count++;
    return RS_OK;
}

const char *rs_recording_kernel_source(const rs_recording *rec, uint64_t hash)
{
    for (int i = 0; rec && i < rec->kernel_count; i++)
        if (rec->kernels[i].hash == hash) return rec->kernels[i].source;
    return NULL;
}
