/* An all-reduce's recording as a source (formats/source_allreduce.c), on
 * the shipped recordings of two H200s and of one H100: each point the file
 * holds is the answer to the all-reduce request of its algorithm, size,
 * type and operation, figure for figure as the JSON says (read here with
 * cJSON, apart from the module); a size, algorithm, type or operation it
 * does not hold is "not in the recording"; another command is refused; a
 * recording of run, ladder or sweep is not opened as one, nor one of
 * another type than asked; rs_source_ar_record() knows its own sources. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/row.h"
#include "formats/allreduce_file.h"
#include "formats/source_recording.h"
#include "read_file.h"

/* The whole recording as JSON, or NULL. */
static cJSON *json_of(const char *path)
{
    size_t len = 0;
    char *buf = read_file(path, &len);
    char *text = buf ? realloc(buf, len + 1) : NULL;
    if (!text) {
        free(buf);
        return NULL;
    }
    text[len] = '\0';
    cJSON *j = cJSON_Parse(text);
    free(text);
    return j;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The GPU's name: "device" as a name alone (recordings before its object)
 * or the object's name. */
static const char *device_name(const cJSON *j)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "device");
    return cJSON_IsObject(d) ? str(d, "name") : str(j, "device");
}

/* A time in µs as the file holds it: time_mean_ms, or before it time_us. */
static double file_us(const cJSON *p, const char *ms, const char *us)
{
    return cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(p, ms)) ? 1000.0 * num(p, ms)
                                                                   : num(p, us);
}

static int same(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* Every algorithm, every size, the file's type and op asked of nothing. */
static rs_source *open_all(const char *path, rs_error *err)
{
    const rs_ar_asked ask = {.path = path};
    const rs_sweep_sizes none = {0};
    rs_source *s = NULL;
    const rs_status st = rs_source_ar_open(path, &ask, &none, ~0u, &s, err);
    CHECK_MSG(st == RS_OK && s, "%s: %s", path, err->msg);
    return st == RS_OK ? s : NULL;
}

/* The all-reduce request for one algorithm and size of the file's kind. */
static rs_request ask_for(const cJSON *j, const char *algo, uint64_t n)
{
    rs_request r;
    memset(&r, 0, sizeof r);
    r.type = (rs_dtype)rs_dtype_from_name(str(j, "type"));
    r.op = (rs_op)rs_op_from_name(str(j, "op"));
    r.n = n;
    r.ar_algo = (rs_ar_algo)rs_ar_algo_parse(algo);
    return r;
}

/* An all-reduce point asked of s (command NULL), or a run of command. */
static rs_status ask(rs_source *s, const rs_request *r, const char *command, rs_result *out,
                     rs_error *err)
{
    memset(err, 0, sizeof *err);
    const rs_ask a = {command ? RS_ASK_RUN : RS_ASK_ALLREDUCE, command, NULL, NULL};
    return s->run(s, r, &a, out, err);
}

/* One point of the file, asked of the source: the point as recorded. */
static void point_answered(rs_source *s, const cJSON *j, const cJSON *p, int k)
{
    static rs_result out;
    rs_error err;
    const rs_request r = ask_for(j, str(p, "algo"), (uint64_t)num(p, "n"));
    const rs_status st = ask(s, &r, NULL, &out, &err);
    CHECK_MSG(st == RS_OK, "points[%d] %s n %.0f: %s", k, str(p, "algo"), num(p, "n"), err.msg);
    if (st != RS_OK) return;
    const rs_ar_point *q = &out.ar.point;
    CHECK_MSG(q->n == (uint64_t)num(p, "n") && q->bytes == (uint64_t)num(p, "bytes"),
              "points[%d]: n %llu bytes %llu", k, (unsigned long long)q->n,
              (unsigned long long)q->bytes);
    CHECK_MSG(q->algo == r.ar_algo, "points[%d]: algo %s", k, rs_ar_algo_name(q->algo));
    CHECK_MSG(same(q->us, file_us(p, "time_mean_ms", "time_us")), "points[%d]: %.17g us", k, q->us);
    CHECK_MSG(same(q->algbw, num(p, "algbw_gbps")), "points[%d]: algbw %.17g", k, q->algbw);
    CHECK_MSG(same(q->busbw, num(p, "busbw_gbps")), "points[%d]: busbw %.17g", k, q->busbw);
    CHECK_MSG(q->wrong == (uint64_t)num(p, "wrong"), "points[%d]: wrong", k);
    CHECK_MSG(same(q->nt_us, file_us(p, "nccl_tests_time_ms", "nccl_tests_time_us")),
              "points[%d]: nccl-tests %.17g us", k, q->nt_us);
    /* what ran it, as recorded */
    CHECK(out.multi.gpus == (int)num(j, "gpus"));
    CHECK(out.reps == (unsigned)num(j, "reps"));
    CHECK(out.ar.nccl_version == (int)num(j, "nccl_version"));
    CHECK_STR_EQ(out.device.name, device_name(j));
    CHECK_STR_EQ(out.multi.links, str(j, "links"));
    CHECK(out.req.n == r.n && out.req.ar_algo == r.ar_algo);
}

/* Every point the file holds is answered, and the record holds them all. */
static void answers(const char *path, int gpus, const char *type)
{
    cJSON *j = json_of(path);
    CHECK_MSG(j != NULL, "%s does not parse", path);
    rs_error err;
    rs_source *s = j ? open_all(path, &err) : NULL;
    if (!s) {
        cJSON_Delete(j);
        return;
    }
    CHECK(num(j, "gpus") == gpus && strcmp(str(j, "type"), type) == 0); /* the file we think */
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(j, "points"), *p;
    const rs_ar_record *rec = rs_source_ar_record(s);
    CHECK(rec != NULL);
    CHECK_MSG(rec && rec->npoints == cJSON_GetArraySize(pts), "%d points of %d",
              rec ? rec->npoints : -1, cJSON_GetArraySize(pts));
    CHECK(rec && rec->gpus == gpus && rec->type == (rs_dtype)rs_dtype_from_name(type));
    CHECK(rec && rec->op == RS_SUM && rec->reps == (unsigned)num(j, "reps"));
    CHECK(s->prepare(s, 1, &err) == RS_OK);
    CHECK(device_name(j)[0] != '\0');
    CHECK_STR_EQ(s->device(s)->name, device_name(j));
    int k = 0;
    cJSON_ArrayForEach(p, pts) point_answered(s, j, p, k++);
    CHECK(k > 30);
    rs_source_close(s);
    cJSON_Delete(j);
}

/* A request the file does not hold: RS_E_USAGE, "not in the recording". */
static void not_held(rs_source *s, const rs_request *r, const char *why)
{
    static rs_result out;
    rs_error err;
    const rs_status st = ask(s, r, NULL, &out, &err);
    CHECK_MSG(st == RS_E_USAGE, "%s: status %d", why, (int)st);
    CHECK_MSG(strncmp(err.msg, RS_NOT_RECORDED, strlen(RS_NOT_RECORDED)) == 0, "%s: '%s'", why,
              err.msg);
}

static void not_recorded(const char *path)
{
    cJSON *j = json_of(path);
    rs_error err;
    rs_source *s = j ? open_all(path, &err) : NULL;
    if (!s) {
        cJSON_Delete(j);
        return;
    }
    rs_request r = ask_for(j, "ring", 3); /* 2, 4, 8... are held: 3 is not */
    not_held(s, &r, "n 3");
    r = ask_for(j, "ring", (uint64_t)1 << 40);
    not_held(s, &r, "n 2^40");
    r = ask_for(j, "ring", 1024);
    r.type = RS_INT32; /* the file holds float32 */
    not_held(s, &r, "int32");
    r = ask_for(j, "ring", 1024);
    r.op = RS_MAX;
    not_held(s, &r, "max");
    /* the message says what was asked */
    static rs_result out;
    r = ask_for(j, "tree", 3);
    ask(s, &r, NULL, &out, &err);
    CHECK_STR_CONTAINS(err.msg, "tree float32 sum at n 3");
    /* another command: refused, naming the file and the command */
    r = ask_for(j, "ring", 1024);
    CHECK(ask(s, &r, "run", &out, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, path);
    CHECK_STR_CONTAINS(err.msg, "run is not in it");
    CHECK(ask(s, &r, "sweep", &out, &err) == RS_E_USAGE);
    CHECK(ask(s, &r, NULL, &out, &err) == RS_OK); /* held, for the record */
    rs_source_close(s);
    cJSON_Delete(j);
}

/* Opened with ring alone and two sizes: the rest is not in it. */
static void chosen(const char *path)
{
    const rs_ar_asked ask_ = {.sizes_set = 1, .path = path};
    const rs_sweep_sizes sz = {2, {1024, 1048576}};
    rs_source *s = NULL;
    rs_error err;
    CHECK_MSG(rs_source_ar_open(path, &ask_, &sz, 1u << RS_AR_RING, &s, &err) == RS_OK, "%s",
              err.msg);
    if (!s) return;
    const rs_ar_record *rec = rs_source_ar_record(s);
    CHECK_MSG(rec && rec->npoints == 2, "%d points", rec ? rec->npoints : -1);
    cJSON *j = json_of(path);
    static rs_result out;
    rs_request r = ask_for(j, "ring", 1048576);
    CHECK(ask(s, &r, NULL, &out, &err) == RS_OK);
    CHECK(out.ar.point.algo == RS_AR_RING && out.ar.point.bytes == 4u * 1048576);
    r = ask_for(j, "nccl", 1048576); /* in the file, not asked */
    not_held(s, &r, "nccl, not opened");
    r = ask_for(j, "ring", 2048); /* in the file, not asked */
    not_held(s, &r, "n 2048, not opened");
    rs_source_close(s);
    cJSON_Delete(j);
}

/* What is not opened: another kind of recording, another type or op than
 * asked, another GPU count, sizes the file does not hold. */
static void refused(const char *two, const char *other)
{
    const rs_sweep_sizes none = {0};
    rs_source *s = (rs_source *)1;
    rs_error err;
    rs_ar_asked a = {.path = other};
    CHECK(rs_source_ar_open(other, &a, &none, ~0u, &s, &err) == RS_E_IO);
    CHECK(s == NULL);
    CHECK_STR_CONTAINS(err.msg, other);
    CHECK_STR_CONTAINS(err.msg, "not of allreduce");

    a = (rs_ar_asked){.type_set = 1, .type = RS_INT32, .path = two};
    CHECK(rs_source_ar_open(two, &a, &none, ~0u, &s, &err) == RS_E_USAGE && !s);
    CHECK_STR_CONTAINS(err.msg, "holds float32 sum, not the type and operation asked");
    CHECK_STR_CONTAINS(err.msg, two);
    a = (rs_ar_asked){.op_set = 1, .op = RS_MIN, .path = two};
    CHECK(rs_source_ar_open(two, &a, &none, ~0u, &s, &err) == RS_E_USAGE && !s);
    a = (rs_ar_asked){.type_set = 1, .type = RS_FLOAT32, .op_set = 1, .op = RS_SUM, .path = two};
    CHECK(rs_source_ar_open(two, &a, &none, ~0u, &s, &err) == RS_OK && s);
    rs_source_close(s);

    a = (rs_ar_asked){.gpus = 4, .path = two};
    CHECK(rs_source_ar_open(two, &a, &none, ~0u, &s, &err) == RS_E_USAGE && !s);
    CHECK_STR_CONTAINS(err.msg, "over 2 GPUs, not 4");

    a = (rs_ar_asked){.sizes_set = 1, .path = two};
    const rs_sweep_sizes odd = {1, {3}};
    CHECK(rs_source_ar_open(two, &a, &odd, ~0u, &s, &err) == RS_E_USAGE && !s);
    CHECK_STR_CONTAINS(err.msg, RS_NOT_RECORDED);

    CHECK(rs_source_ar_open("/nonexistent/ar.json", &a, &none, ~0u, &s, &err) != RS_OK && !s);
    CHECK_STR_CONTAINS(err.msg, "/nonexistent/ar.json");
}

/* rs_source_ar_record: its own sources alone. */
static void whose(const char *other)
{
    CHECK(rs_source_ar_record(NULL) == NULL);
    rs_source *s = NULL;
    rs_error err;
    CHECK_MSG(rs_source_recording_open(other, &s, &err) == RS_OK, "%s", err.msg);
    if (!s) return;
    CHECK(rs_source_ar_record(s) == NULL); /* a recording of runs */
    rs_source_close(s);
}

/* A size recorded twice (--range 1K,1K) is answered twice, each time with
 * its own point, as the run printed them. */
static void twice(void)
{
    static rs_ar_record r;
    memset(&r, 0, sizeof r);
    r.gpus = 1, r.type = RS_INT32, r.op = RS_SUM, r.warmup = 1, r.reps = 3;
    snprintf(r.device.name, sizeof r.device.name, "test GPU");
    for (int i = 0; i < 2; i++) {
        rs_ar_point *p = &r.p[r.npoints++];
        p->n = 1024, p->bytes = 4096, p->algo = RS_AR_NCCL;
        p->us = 10.0 + 5.0 * i; /* 10 then 15 us */
        p->algbw = (double)p->bytes / (p->us * 1e-6) / 1e9;
    }
    char dir[] = "/tmp/test_source_allreduce.XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/twice.json", dir);
    rs_error err;
    CHECK_MSG(rs_ar_run_write(path, &r, &err) == RS_OK, "%s", err.msg);
    const rs_ar_asked a = {.path = path};
    const rs_sweep_sizes none = {0, {0}};
    rs_source *s = NULL;
    CHECK_MSG(rs_source_ar_open(path, &a, &none, 1u << RS_AR_NCCL, &s, &err) == RS_OK, "%s",
              err.msg);
    rs_request q;
    rs_request_defaults(&q);
    q.n = 1024, q.ar_algo = RS_AR_NCCL;
    static rs_result out;
    double us[3] = {0};
    for (int i = 0; s && i < 3; i++) /* the third: the first again */
        us[i] = ask(s, &q, NULL, &out, &err) == RS_OK ? out.ar.point.us : 0;
    CHECK_MSG(us[0] == 10.0 && us[1] == 15.0 && us[2] == 10.0, "%g %g %g", us[0], us[1], us[2]);
    rs_source_close(s);
    remove(path);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s H200X2.json H100-1GPU.json OTHER.jsonl\n", argv[0]);
        return 2;
    }
    answers(argv[1], 2, "float32");
    answers(argv[2], 1, "int32");
    not_recorded(argv[1]);
    chosen(argv[1]);
    refused(argv[1], argv[3]);
    whose(argv[3]);
    twice();
    return check_report("test_source_allreduce");
}
