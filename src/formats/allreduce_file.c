/* redscope allreduce's recording: the run as one JSON object, and back,
 * each figure checked as a recording of run, ladder or sweep is. */
#include "allreduce_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalogue.h"
#include "formats/export.h"
#include "formats/files.h"
#include "core/format.h"
#include "core/text.h"

cJSON *rs_ar_run_to_json(const rs_ar_record *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "redscope_allreduce", 1);
    cJSON_AddStringToObject(j, "date", r->date);
    cJSON_AddItemToObject(j, "device", rs_device_to_json(&r->device));
    cJSON_AddNumberToObject(j, "gpus", r->gpus);
    cJSON_AddStringToObject(j, "links", r->links);
    cJSON_AddNumberToObject(j, "nccl_version", r->nccl_version);
    cJSON_AddStringToObject(j, "type", rs_dtype_name(r->type));
    cJSON_AddStringToObject(j, "op", rs_op_name(r->op));
    cJSON_AddNumberToObject(j, "warmup", r->warmup);
    cJSON_AddNumberToObject(j, "reps", r->reps);
    cJSON *pts = cJSON_AddArrayToObject(j, "points");
    for (int i = 0; i < r->npoints; i++) {
        const rs_ar_point *p = &r->p[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "algo", rs_ar_algo_name(p->algo));
        cJSON_AddNumberToObject(o, "n", (double)p->n);
        cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
        cJSON_AddNumberToObject(o, "time_mean_ms", p->us / 1000.0);
        cJSON_AddNumberToObject(o, "algbw_gbps", p->algbw);
        cJSON_AddNumberToObject(o, "busbw_gbps", p->busbw);
        cJSON_AddNumberToObject(o, "wrong", (double)p->wrong);
        if (p->nvl_valid) {
            cJSON_AddNumberToObject(o, "nvlink_tx_bytes", p->nvl_tx);
            cJSON_AddNumberToObject(o, "nvlink_rx_bytes", p->nvl_rx);
        }
        if (p->nt_us > 0) {
            cJSON_AddNumberToObject(o, "nccl_tests_time_ms", p->nt_us / 1000.0);
            cJSON_AddNumberToObject(o, "nccl_tests_busbw_gbps", p->nt_busbw);
        }
        cJSON_AddItemToArray(pts, o);
    }
    return j;
}

rs_status rs_ar_run_write(const char *path, const rs_ar_record *r, rs_error *err)
{
    cJSON *j = rs_ar_run_to_json(r);
    char *s = cJSON_PrintUnformatted(j);
    const rs_status st = s ? rs_out_write("recording", path, s, strlen(s), err)
                           : rs_fail(err, RS_E_NOMEM, "out of host memory");
    cJSON_free(s);
    cJSON_Delete(j);
    return st;
}

/* Numbers already checked: read as they are. */
static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static const char *text(const cJSON *o, const char *k)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(s) ? s->valuestring : "";
}

#define A_DAY_MS 8.64e7
#define A_DAY_US 8.64e10
#define BIG      1.8e19 /* below 2^64 */

static const rs_figure run_figures[] = {
    {"gpus", 1, 1024, 0, 1, 1, "a whole number of GPUs from 1 to 1024"},
    {"nccl_version", 0, 1e7, 0, 1, 0, "NCCL's version number, such as 22803"},
    {"warmup", 0, 4294967295.0, 0, 1, 1, "a whole number of warm-up runs, 0 or more"},
    {"reps", 1, 4294967295.0, 0, 1, 1, "a whole number of repetitions, 1 or more"},
};

static const rs_figure point_figures[] = {
    {"n", 1, BIG, 0, 1, 1, "a whole number of elements, 1 or more"},
    {"bytes", 1, BIG, 0, 1, 1, "a whole number of bytes, 1 or more"},
    {"time_mean_ms", 1e-6, A_DAY_MS, 0, 0, 0, "milliseconds from 1e-06 (a nanosecond) to a day"},
    {"time_us", 1e-3, A_DAY_US, 0, 0, 0,
     "microseconds from 0.001 (a nanosecond) to a day"}, /* before 11-27 */
    {"algbw_gbps", 0, 1e6, 0, 0, 1, "GB/s from 0 to 1000000"},
    {"busbw_gbps", 0, 1e6, 0, 0, 1, "GB/s from 0 to 1000000"},
    {"wrong", 0, BIG, 0, 1, 1, "a whole number of wrong elements, 0 or more"},
    {"nccl_tests_time_ms", 0, A_DAY_MS, 0, 0, 0, "milliseconds from 0 to a day"},
    {"nccl_tests_time_us", 0, A_DAY_US, 0, 0, 0, "microseconds from 0 to a day"},
    {"nccl_tests_busbw_gbps", 0, 1e6, 0, 0, 0, "GB/s from 0 to 1000000"},
    {"nvlink_tx_bytes", 0, BIG, 0, 0, 0, "bytes, 0 or more"},
    {"nvlink_rx_bytes", 0, BIG, 0, 0, 0, "bytes, 0 or more"},
};

/* Whether JSON that does not parse stops inside a string, an object or a
 * list: cut short, rather than corrupt. */
static int cut_short(const char *s)
{
    int depth = 0, quoted = 0;
    for (; *s; s++) {
        if (quoted && *s == '\\' && s[1])
            s++;
        else if (*s == '"')
            quoted = !quoted;
        else if (!quoted && (*s == '{' || *s == '['))
            depth++;
        else if (!quoted && (*s == '}' || *s == ']') && --depth < 0)
            return 0;
    }
    return quoted || depth > 0;
}

/* The file's text: at most 1 MiB, text, one JSON object. */
static rs_status parse_text(const char *path, const char *buf, size_t n, cJSON **out, int *one_line,
                            rs_error *err);

static rs_status parse(const char *path, cJSON **out, int *one_line, rs_error *err)
{
    *out = NULL;
    char *buf = NULL;
    size_t n = 0;
    const rs_status st = rs_file_read(path, "recording", 1u << 20, &buf, &n, err);
    if (st != RS_OK) return st;
    const rs_status parsed = parse_text(path, buf, n, out, one_line, err);
    free(buf);
    return parsed;
}

static rs_status parse_text(const char *path, const char *buf, size_t n, cJSON **out, int *one_line,
                            rs_error *err)
{
    size_t at = 0, end = n;
    const char *odd = rs_text_problem(buf, n, &at);
    if (odd)
        return rs_fail(err, RS_E_IO,
                       "%s:%d: not a text recording: the line holds %s (an all-reduce recording "
                       "is the JSON --record writes)",
                       path, rs_text_line(buf, at), odd);
    while (end > 0 && strchr(" \t\r\n", buf[end - 1])) end--;
    if (end == 0)
        return rs_fail(err, RS_E_IO, "%s is empty: not a recording of redscope allreduce", path);
    *one_line = !memchr(buf, '\n', end);
    cJSON *j = cJSON_Parse(buf);
    if (!j) {
        const char *stop = cJSON_GetErrorPtr();
        const size_t off = stop && stop >= buf && stop <= buf + n ? (size_t)(stop - buf) : n;
        if (cut_short(buf))
            return rs_fail(err, RS_E_IO,
                           "%s:%d: the JSON stops before its end: the recording was cut short "
                           "(record it again)",
                           path, rs_text_line(buf, end));
        return rs_fail(err, RS_E_IO, "%s:%d: not JSON: a corrupt recording (record it again)", path,
                       rs_text_line(buf, off));
    }
    rs_json_scrub(j);
    *out = j;
    if (cJSON_IsObject(j) && num(j, "redscope_allreduce") == 1.0) return RS_OK;
    *out = NULL;
    const int other =
        cJSON_IsObject(j) && (cJSON_GetObjectItemCaseSensitive(j, "redscope_recording") ||
                              cJSON_GetObjectItemCaseSensitive(j, "request"));
    cJSON_Delete(j);
    if (other)
        return rs_fail(err, RS_E_IO,
                       "%s is a recording of redscope run, ladder or sweep, not of allreduce: "
                       "replay it with: redscope --replay %s",
                       path, path);
    return rs_fail(err, RS_E_IO,
                   "%s is not a recording of redscope allreduce (it has no "
                   "\"redscope_allreduce\": 1)",
                   path);
}

/* The run's own figures, and the asked type, operation and GPU count. */
static rs_status check_run(const char *where, const cJSON *j, const rs_ar_asked *ask, rs_error *err)
{
    char pre[512];
    snprintf(pre, sizeof pre, "%s: ", where);
    rs_status st = RS_OK;
    for (size_t i = 0; st == RS_OK && i < sizeof run_figures / sizeof *run_figures; i++)
        st = rs_figure_check(j, pre, &run_figures[i], err);
    if (st != RS_OK) return err->code = RS_E_IO; /* a file error, as in a recording's rows */
    const int t = rs_dtype_from_name(text(j, "type")), op = rs_op_from_name(text(j, "op"));
    const int g = (int)num(j, "gpus");
    if (t < 0 || op < 0)
        return rs_fail(err, RS_E_IO,
                       "%s: type '%s' and op '%s': expected an element type (int32, "
                       "float32, ...) and an operation (sum, min, max, product)",
                       where, text(j, "type"), text(j, "op"));
    if ((ask->type_set && t != (int)ask->type) || (ask->op_set && op != (int)ask->op))
        return rs_fail(err, RS_E_USAGE, "%s holds %s %s, not the type and operation asked",
                       ask->path, text(j, "type"), text(j, "op"));
    if (ask->gpus > 0 && ask->gpus != g) /* --gpus 0: every GPU it ran on */
        return rs_fail(err, RS_E_USAGE, "%s holds an all-reduce over %d GPUs, not %d", ask->path, g,
                       ask->gpus);
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "points")))
        return rs_fail(err, RS_E_IO, "%s: points is missing: expected the list of measured points",
                       where);
    return RS_OK;
}

/* The GPU: an object as run's "device" (its figures checked), or, as
 * recordings before it held, its name alone (GPU 0's). */
static rs_status device_from(const char *where, const cJSON *d, rs_ar_record *r, rs_error *err)
{
    memset(&r->device, 0, sizeof r->device);
    if (cJSON_IsObject(d)) {
        if (rs_device_check(d, err) != RS_OK) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return rs_fail(err, RS_E_IO, "%s: %s", where, msg);
        }
        rs_device_from_json(d, &r->device); /* its name made one line, for a title */
        return RS_OK;
    }
    if (d && !cJSON_IsString(d)) {
        char v[48];
        rs_json_shown(d, v, sizeof v);
        return rs_fail(err, RS_E_IO, "%s: device is %s: expected the GPU, an object as run's",
                       where, v);
    }
    snprintf(r->device.name, sizeof r->device.name, "%s", cJSON_IsString(d) ? d->valuestring : "");
    rs_text_scrub(r->device.name, 0); /* one line in a title */
    return RS_OK;
}

/* One point's figures, each of its type and in range. */
/* Within a part in 10^6: figures written with 17 digits come back so. */
static int near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/* A point's figures against each other: its bytes from n and the element
 * size, algbw from the bytes and the time, busbw from algbw and G. */
/* A time in µs, written in ms (time_mean_ms) or, before 2026-11-27, in µs
 * (time_us); 0 where neither is. */
static int has(const cJSON *o, const char *k)
{
    return cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, k));
}

static double time_us(const cJSON *p, const char *ms_key, const char *us_key)
{
    return has(p, ms_key) ? 1000.0 * num(p, ms_key) : num(p, us_key);
}

/* nccl-tests' figures as it prints them (times and GB/s to 2 decimals):
 * a time above 0 where it ran, its busbw from the bytes and that time;
 * NVLink's bytes per all-reduce within what G GPUs can move for it (a ring
 * sends 2(G-1)/G of the bytes; counters hold protocol and other traffic:
 * 16 times the bytes and 64 MiB at most). */
static rs_status others_consistent(const char *pre, const cJSON *p, double bytes, int g,
                                   rs_error *err)
{
    const int nt = has(p, "nccl_tests_time_ms") || has(p, "nccl_tests_time_us");
    const double nt_us = time_us(p, "nccl_tests_time_ms", "nccl_tests_time_us");
    const double nt_bus = num(p, "nccl_tests_busbw_gbps");
    if (nt && !(nt_us >= 0.005))
        return rs_fail(err, RS_E_IO,
                       "%snccl-tests' time is %.6g us: expected 0.01 us or more where it ran", pre,
                       nt_us);
    if (has(p, "nccl_tests_busbw_gbps") && !nt)
        return rs_fail(err, RS_E_IO, "%snccl_tests_busbw_gbps without nccl-tests' time", pre);
    const double nt_want =
        nt ? bytes / (nt_us * 1e-6) / 1e9 * (g > 1 ? 2.0 * (g - 1) / g : 0.0) : 0;
    if (nt && fabs(nt_bus - nt_want) > 0.011 + 0.02 * nt_want)
        return rs_fail(err, RS_E_IO,
                       "%snccl_tests_busbw_gbps is %.6g: the bytes over nccl-tests' time give "
                       "%.6g over %d GPUs",
                       pre, nt_bus, nt_want, g);
    const double most = 16.0 * bytes + 64.0 * 1024 * 1024;
    const char *keys[] = {"nvlink_tx_bytes", "nvlink_rx_bytes"};
    for (int i = 0; i < 2; i++)
        if (has(p, keys[i]) && num(p, keys[i]) > most)
            return rs_fail(err, RS_E_IO,
                           "%s%s is %.6g: more than 16 times the %.17g bytes reduced and 64 MiB",
                           pre, keys[i], num(p, keys[i]), bytes);
    return RS_OK;
}

static rs_status point_consistent(const char *pre, const cJSON *p, size_t elem, int g,
                                  rs_error *err)
{
    const int ms = has(p, "time_mean_ms"), old = has(p, "time_us");
    if (ms == old)
        return rs_fail(err, RS_E_IO, "%s%s", pre,
                       ms ? "time_mean_ms and time_us both given: one time"
                          : "time_mean_ms is missing: expected milliseconds above 0");
    if (has(p, "nccl_tests_time_ms") && has(p, "nccl_tests_time_us"))
        return rs_fail(err, RS_E_IO, "%snccl_tests_time_ms and nccl_tests_time_us both given", pre);
    const double n = num(p, "n"), bytes = num(p, "bytes");
    const double us = time_us(p, "time_mean_ms", "time_us");
    const double alg = num(p, "algbw_gbps"), bus = num(p, "busbw_gbps");
    if (bytes != n * (double)elem)
        return rs_fail(err, RS_E_IO, "%sbytes is %.17g: n %.17g of %zu-byte elements is %.17g", pre,
                       bytes, n, elem, n * (double)elem);
    const double want = bytes / (us * 1e-6) / 1e9;
    if (!near(alg, want))
        return rs_fail(err, RS_E_IO, "%salgbw_gbps is %.6g: bytes over the time give %.6g", pre,
                       alg, want);
    const double bus_want = g >= 1 ? alg * 2.0 * (g - 1) / g : 0.0;
    if (!near(bus, bus_want))
        return rs_fail(err, RS_E_IO, "%sbusbw_gbps is %.6g: algbw x 2(G-1)/G over %d GPUs is %.6g",
                       pre, bus, g, bus_want);
    return others_consistent(pre, p, bytes, g, err);
}

static rs_status check_point(const char *where, const cJSON *p, int k, size_t elem, int g,
                             rs_error *err)
{
    char pre[512];
    snprintf(pre, sizeof pre, "%s: points[%d].", where, k);
    if (rs_ar_algo_parse(text(p, "algo")) < 0) {
        char v[48];
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "algo");
        if (a) rs_json_shown(a, v, sizeof v);
        return rs_fail(err, RS_E_IO, "%salgo is %s: expected nccl, ring, tree or peer_ring", pre,
                       a ? v : "missing");
    }
    rs_status st = RS_OK;
    for (size_t i = 0; st == RS_OK && i < sizeof point_figures / sizeof *point_figures; i++)
        st = rs_figure_check(p, pre, &point_figures[i], err);
    if (st != RS_OK) return err->code = RS_E_IO;
    return point_consistent(pre, p, elem, g, err);
}

static rs_ar_point point_from(const cJSON *p)
{
    return (rs_ar_point){(uint64_t)num(p, "n"),
                         (uint64_t)num(p, "bytes"),
                         (rs_ar_algo)rs_ar_algo_parse(text(p, "algo")),
                         time_us(p, "time_mean_ms", "time_us"),
                         num(p, "algbw_gbps"),
                         num(p, "busbw_gbps"),
                         (uint64_t)num(p, "wrong"),
                         time_us(p, "nccl_tests_time_ms", "nccl_tests_time_us"),
                         num(p, "nccl_tests_busbw_gbps"),
                         cJSON_IsNumber(cJSON_GetObjectItem(p, "nvlink_tx_bytes")),
                         num(p, "nvlink_tx_bytes"),
                         num(p, "nvlink_rx_bytes")};
}

/* Nothing asked for is recorded: what the file holds, and how to see it. */
static rs_status nothing_asked(const char *path, const cJSON *points, rs_error *err)
{
    unsigned held = 0;
    double lo = 0, hi = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, points)
    {
        const double n = num(p, "n");
        held |= 1u << rs_ar_algo_parse(text(p, "algo"));
        lo = !lo || n < lo ? n : lo;
        hi = n > hi ? n : hi;
    }
    if (!held)
        return rs_fail(err, RS_E_USAGE,
                       "%s holds no points: record some on GPUs with: redscope allreduce --gpus "
                       "N --algo all --range 2..2^30 --record FILE",
                       path);
    char algos[64] = "", l[32], h[32];
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++)
        if (held & (1u << a))
            snprintf(algos + strlen(algos), sizeof algos - strlen(algos), "%s%s",
                     algos[0] ? "," : "", rs_ar_algo_name((rs_ar_algo)a));
    rs_fmt_count(lo, l, sizeof l);
    rs_fmt_count(hi, h, sizeof h);
    return rs_fail(err, RS_E_USAGE,
                   "not in the recording: no point of these algorithms and sizes; %s holds %s "
                   "from n %s to %s (all of it: redscope allreduce --replay %s --algo all)",
                   path, algos, l, h, path);
}

rs_status rs_ar_run_read(const char *path, const rs_ar_asked *ask, const rs_sweep_sizes *sz,
                         unsigned algos, rs_ar_record *r, rs_error *err)
{
    cJSON *j = NULL;
    int one_line = 0;
    rs_status st = parse(path, &j, &one_line, err);
    if (st != RS_OK) return st;
    char where[480];
    snprintf(where, sizeof where, one_line ? "%s:1" : "%s", path);
    st = check_run(where, j, ask, err);
    if (st == RS_OK) st = device_from(where, cJSON_GetObjectItemCaseSensitive(j, "device"), r, err);
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(j, "points"), *p;
    int k = 0;
    const int type = rs_dtype_from_name(text(j, "type"));
    const size_t elem = type >= 0 ? rs_dtype_size((rs_dtype)type) : 0;
    cJSON_ArrayForEach(p, points)
    {
        if (st != RS_OK) break;
        st = check_point(where, p, k++, elem, (int)num(j, "gpus"), err);
    }
    if (st != RS_OK) {
        cJSON_Delete(j);
        return st;
    }
    r->gpus = (int)num(j, "gpus");
    r->nccl_version = (int)num(j, "nccl_version");
    snprintf(r->date, sizeof r->date, "%s", text(j, "date"));
    snprintf(r->links, sizeof r->links, "%s", text(j, "links"));
    r->type = (rs_dtype)rs_dtype_from_name(text(j, "type"));
    r->op = (rs_op)rs_op_from_name(text(j, "op"));
    r->warmup = (unsigned)num(j, "warmup");
    r->reps = (unsigned)num(j, "reps");
    cJSON_ArrayForEach(p, points)
    {
        const rs_ar_point pt = point_from(p);
        int want = !ask->sizes_set;
        for (int i = 0; i < sz->count && !want; i++) want = sz->n[i] == pt.n;
        if (want && (algos & (1u << pt.algo)) && r->npoints < MAX_POINTS)
            r->p[r->npoints++] = pt;
        else if (want && (algos & (1u << pt.algo)))
            r->left_out++;
    }
    if (!r->npoints) st = nothing_asked(path, points, err);
    cJSON_Delete(j);
    return st;
}
