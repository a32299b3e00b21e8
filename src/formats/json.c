/* The JSON codec: requests, devices, results and rows out and back in (for
 * recordings and --format json), and the format names. */
#include "energy.h"
#include "export.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/reference.h"
#include "core/catalogue.h"
#include "core/cpu_time.h"
#include "core/format.h"
#include "stalls_io.h"
#include "core/text.h"

/* ---- JSON ----------------------------------------------------------------------- */

cJSON *rs_request_to_json(const rs_request *r)
{
    cJSON *j = cJSON_CreateObject();
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        char buf[512];
        switch (f->kind) {
        case RS_FK_SIZE:
            cJSON_AddNumberToObject(j, f->key,
                                    (double)*(const uint64_t *)((const char *)r + f->offset));
            break;
        case RS_FK_UINT:
            cJSON_AddNumberToObject(j, f->key, *(const uint32_t *)((const char *)r + f->offset));
            break;
        default: /* seeds above 2^53 would not survive a JSON number */
            rs_field_format(r, f, buf, sizeof buf);
            cJSON_AddStringToObject(j, f->key, buf);
            break;
        }
    }
    return j;
}

rs_status rs_request_from_json(const cJSON *j, rs_request *r, rs_error *err)
{
    rs_request_defaults(r);
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "request is not a JSON object");
    for (const cJSON *it = j->child; it; it = it->next) {
        const rs_field *f = NULL;
        for (int i = 0; i < RS_FIELD_COUNT && !f; i++)
            if (strcmp(rs_fields[i].key, it->string) == 0) f = &rs_fields[i];
        if (!f) return rs_fail(err, RS_E_USAGE, "unknown request key '%s'", it->string);
        char buf[512];
        if (cJSON_IsNumber(it)) /* as written: 1.5 is no n, whatever it rounds to */
            snprintf(buf, sizeof buf, "%.17g", it->valuedouble);
        else if (cJSON_IsString(it))
            snprintf(buf, sizeof buf, "%s", it->valuestring);
        else
            return rs_fail(err, RS_E_USAGE, "request key '%s' is neither number nor text",
                           it->string);
        rs_status st = rs_field_set(r, f, buf, err);
        if (st != RS_OK) return st;
    }
    return RS_OK;
}

cJSON *rs_device_to_json(const rs_device_info *d)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "index", d->index);
    cJSON_AddStringToObject(j, "name", d->name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddStringToObject(j, "compute_capability", cc);
    cJSON_AddNumberToObject(j, "sm_count", d->sm_count);
    cJSON_AddNumberToObject(j, "max_threads_per_sm", d->max_threads_per_sm);
    cJSON_AddNumberToObject(j, "total_mem", (double)d->total_mem);
    cJSON_AddNumberToObject(j, "free_mem", (double)d->free_mem);
    cJSON_AddNumberToObject(j, "mem_clock_khz", d->mem_clock_khz);
    cJSON_AddNumberToObject(j, "bus_width_bits", d->bus_width_bits);
    cJSON_AddNumberToObject(j, "peak_gbps", d->peak_gbps);
    cJSON_AddNumberToObject(j, "measured_gbps", d->measured_gbps);
    cJSON_AddNumberToObject(j, "l2_gbps", d->l2_gbps);
    cJSON_AddNumberToObject(j, "l2_bytes", (double)d->l2_bytes);
    cJSON_AddNumberToObject(j, "floor_empty_ms", d->floor_empty_us / 1000.0);
    cJSON_AddNumberToObject(j, "floor_launch_ms", d->floor_launch_us / 1000.0);
    cJSON_AddNumberToObject(j, "driver_version", d->driver_version);
    cJSON_AddNumberToObject(j, "runtime_version", d->runtime_version);
    return j;
}

static double num(const cJSON *j, const char *key, double def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* Numbers for integer fields: a double cast to an integer type it does not
 * fit is undefined behaviour, and a recording is a file anyone may write
 * (fuzz_recording found "total_mem": 1.5e24). Out of range: the default. */
static int inum(const cJSON *j, const char *key, int def)
{
    const double v = num(j, key, def);
    return v > INT_MIN - 1.0 && v < INT_MAX + 1.0 ? (int)v : def;
}

static unsigned unum(const cJSON *j, const char *key)
{
    const double v = num(j, key, 0);
    return v > -1.0 && v < UINT_MAX + 1.0 ? (unsigned)v : 0;
}

static uint64_t u64num(const cJSON *j, const char *key)
{
    const double v = num(j, key, 0);
    return v > -1.0 && v < 18446744073709551616.0 ? (uint64_t)v : 0;
}

static const char *str(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

void rs_json_scrub(cJSON *j)
{
    for (; j; j = j->next) {
        if (j->string && !(j->type & cJSON_StringIsConst)) { /* a key may be quoted as unknown */
            char *safe = rs_text_safe_dup(j->string, 0);
            if (safe && strcmp(safe, j->string) != 0) {
                cJSON_free(j->string);
                j->string = safe;
                safe = NULL;
            }
            free(safe);
        }
        if (cJSON_IsString(j) && j->valuestring) {
            /* one field, one line: only a kernel's source keeps its lines */
            const int lines = j->string && strcmp(j->string, "source") == 0;
            char *safe = rs_text_safe_dup(j->valuestring, lines);
            if (safe && strcmp(safe, j->valuestring) != 0) cJSON_SetValuestring(j, safe);
            free(safe);
        }
        rs_json_scrub(j->child);
    }
}

void rs_device_from_json(const cJSON *j, rs_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = inum(j, "index", -1);
    rs_text_copy(d->name, sizeof d->name, str(j, "name") ? str(j, "name") : "?");
    rs_text_scrub(d->name, 0); /* one line in a header */
    if (str(j, "compute_capability"))
        sscanf(str(j, "compute_capability"), "%d.%d", &d->cc_major, &d->cc_minor);
    d->sm_count = inum(j, "sm_count", 0);
    d->max_threads_per_sm = inum(j, "max_threads_per_sm", 0);
    d->total_mem = u64num(j, "total_mem");
    d->free_mem = u64num(j, "free_mem");
    d->mem_clock_khz = inum(j, "mem_clock_khz", 0);
    d->bus_width_bits = inum(j, "bus_width_bits", 0);
    d->peak_gbps = num(j, "peak_gbps", 0);
    d->measured_gbps = num(j, "measured_gbps", 0);
    d->l2_gbps = num(j, "l2_gbps", 0); /* recordings before 2026-11-28 have none */
    d->l2_bytes = u64num(j, "l2_bytes");
    /* in ms; recordings before 2026-11-27 have them in µs; each key on its own */
    const int e_ms = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "floor_empty_ms"));
    const int l_ms = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "floor_launch_ms"));
    d->floor_empty_us = e_ms ? 1000.0 * num(j, "floor_empty_ms", 0) : num(j, "floor_empty_us", 0);
    d->floor_launch_us =
        l_ms ? 1000.0 * num(j, "floor_launch_ms", 0) : num(j, "floor_launch_us", 0);
    d->driver_version = inum(j, "driver_version", 0);
    d->runtime_version = inum(j, "runtime_version", 0);
}

/* Exact text: int64 beyond 2^53 and the double reference survive. */
static cJSON *value_json(const rs_value *v)
{
    char buf[64];
    if (rs_dtype_is_float(v->acc))
        snprintf(buf, sizeof buf, "%.17g", v->f);
    else
        rs_value_format(v, buf, sizeof buf);
    return cJSON_CreateString(buf);
}

/* A recorded result or reference: the whole string a number of its type
 * ("12abc" is no 12); 0 where it is not. */
static int value_from(const cJSON *j, rs_dtype acc, rs_value *v)
{
    *v = (rs_value){acc, 0, 0.0};
    if (!j) return 1; /* absent: 0, as before */
    const char *s = cJSON_IsString(j) ? j->valuestring : NULL;
    char *end = NULL;
    if (!s || !*s) return 0;
    errno = 0;
    if (rs_dtype_is_float(acc)) {
        v->f = strtod(s, &end);
    } else {
        v->i = strtoll(s, &end, 10);
        v->f = (double)v->i;
    }
    return end && *end == '\0' && errno != ERANGE;
}

static cJSON *metrics_json(const rs_metrics *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON *req = cJSON_AddArrayToObject(j, "requested");
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (m->requested & RS_METRIC_BIT(i))
            cJSON_AddItemToArray(req, cJSON_CreateString(rs_metric_defs[i].key));
    cJSON_AddNumberToObject(j, "passes", m->passes);
    cJSON_AddStringToObject(j, "reason", m->reason);
    cJSON_AddNumberToObject(j, "wall_ms", m->wall_ms);
    cJSON *vals = cJSON_AddObjectToObject(j, "values");
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        if (!((m->requested | m->valid) & RS_METRIC_BIT(i))) continue;
        cJSON *o = cJSON_AddObjectToObject(vals, rs_metric_defs[i].key);
        const int ok = (m->valid & RS_METRIC_BIT(i)) != 0;
        cJSON_AddBoolToObject(o, "valid", ok);
        if (ok)
            cJSON_AddNumberToObject(o, "value", m->value[i]);
        else
            cJSON_AddStringToObject(o, "reason", m->reason[0] ? m->reason : "not collected");
        cJSON_AddStringToObject(o, "unit", rs_metric_defs[i].unit);
    }
    cJSON *launches = cJSON_AddArrayToObject(j, "launches");
    for (int k = 0; m->launch && k < m->nlaunch; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->launch[k].name);
        cJSON *lv = cJSON_AddObjectToObject(o, "values");
        for (int i = 0; i < RS_METRIC_COUNT; i++)
            if (m->valid & RS_METRIC_BIT(i))
                cJSON_AddNumberToObject(lv, rs_metric_defs[i].key, m->launch[k].value[i]);
        cJSON_AddItemToArray(launches, o);
    }
    return j;
}

/* A counter's recorded value: a number from 0 to 10^18 (a count, bytes,
 * ns or a percentage); RS_OK or the field named. */
static rs_status metric_value(const cJSON *v, const char *where, const char *key, rs_error *err)
{
    const double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (isfinite(x) && x >= 0.0 && x <= 1e18) return RS_OK;
    char text[48];
    rs_json_shown(v, text, sizeof text);
    return rs_fail(err, RS_E_USAGE, "metrics.%s%s is %s: expected a number from 0 to 10^18", where,
                   key, text);
}

static rs_status metrics_from(const cJSON *j, rs_metrics *m, rs_error *err)
{
    memset(m, 0, sizeof *m);
    if (!cJSON_IsObject(j)) return RS_OK;
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "requested"))
    {
        const rs_metric_def *d = cJSON_IsString(it) ? rs_metric_by_key(it->valuestring) : NULL;
        if (d) m->requested |= RS_METRIC_BIT(d->id);
    }
    m->passes = inum(j, "passes", 0);
    m->wall_ms = num(j, "wall_ms", 0);
    rs_text_copy(m->reason, sizeof m->reason, str(j, "reason") ? str(j, "reason") : "");
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "values"))
    {
        const rs_metric_def *d = rs_metric_by_key(it->string);
        if (!d || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "valid"))) continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "value");
        if (metric_value(v, "values.", it->string, err) != RS_OK) return err->code;
        m->valid |= RS_METRIC_BIT(d->id);
        m->value[d->id] = v->valuedouble;
    }
    static _Thread_local rs_launches ls; /* kept once read: a row holds what it has */
    memset(&ls, 0, sizeof ls);
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "launches"))
    {
        if (ls.n == RS_MAX_LAUNCHES) break;
        rs_launch_metrics *l = &ls.at[ls.n++];
        rs_text_copy(l->name, sizeof l->name, str(it, "name") ? str(it, "name") : "?");
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(it, "values"))
        {
            const rs_metric_def *d = rs_metric_by_key(v->string);
            if (!d) continue;
            if (metric_value(v, "launches[].values.", v->string, err) != RS_OK) return err->code;
            l->value[d->id] = v->valuedouble;
        }
    }
    if (ls.n) rs_metrics_keep_launches(m, &ls);
    if (ls.n && !m->launch) return rs_fail(err, RS_E_NOMEM, "out of host memory");
    return RS_OK;
}

/* A run over several GPUs: the count, the cross-GPU finish, each GPU's share. */
static cJSON *multi_json(const rs_multi_result *m)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "count", m->gpus);
    cJSON_AddStringToObject(j, "cross_finish", rs_cross_name(m->cross));
    cJSON_AddNumberToObject(j, "slowest_gpu_ms", m->shard_ms);
    cJSON_AddNumberToObject(j, "finish_ms", m->finish_ms);
    cJSON_AddStringToObject(j, "links", m->links);
    cJSON *a = cJSON_AddArrayToObject(j, "shares");
    for (int g = 0; m->share && g < m->gpus && g < RS_GPUS_MAX; g++) {
        const rs_gpu_share *s = &m->share[g];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "device", s->device);
        cJSON_AddStringToObject(o, "name", s->name);
        cJSON_AddNumberToObject(o, "offset", (double)s->offset);
        cJSON_AddNumberToObject(o, "count", (double)s->count);
        cJSON_AddNumberToObject(o, "ms", s->ms);
        if (s->valid) {
            cJSON *mj = cJSON_AddObjectToObject(o, "metrics");
            for (int i = 0; i < RS_METRIC_COUNT; i++)
                if (s->valid & RS_METRIC_BIT(i))
                    cJSON_AddNumberToObject(mj, rs_metric_defs[i].key, s->value[i]);
        }
        cJSON_AddItemToArray(a, o);
    }
    return j;
}

/* One GPU's share of a run over several. */
static void share_from(const cJSON *o, rs_gpu_share *s)
{
    s->device = inum(o, "device", 0);
    rs_text_copy(s->name, sizeof s->name, str(o, "name") ? str(o, "name") : "");
    s->offset = u64num(o, "offset");
    s->count = u64num(o, "count");
    s->ms = num(o, "ms", 0);
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(o, "metrics"))
    {
        const rs_metric_def *d = v->string ? rs_metric_by_key(v->string) : NULL;
        if (!d || !cJSON_IsNumber(v)) continue;
        s->value[d->id] = v->valuedouble;
        s->valid |= RS_METRIC_BIT(d->id);
    }
}

/* A run over several GPUs: its count, finish and shares, which must be
 * one per GPU and cover the n elements in order, each once. */
static rs_status multi_from(const cJSON *j, uint64_t n, rs_multi_result *m, rs_error *err)
{
    if (!j) return RS_OK;
    const int g = inum(j, "count", 0);
    if (!cJSON_IsObject(j) || g < 1 || g > RS_GPUS_MAX)
        return rs_fail(err, RS_E_USAGE, "gpus: a count from 1 to %d", RS_GPUS_MAX);
    m->gpus = g;
    const int c = rs_cross_from_name(str(j, "cross_finish"));
    m->cross = c < 0 ? RS_CROSS_HOST : (rs_cross)c;
    m->shard_ms = num(j, "slowest_gpu_ms", 0);
    m->finish_ms = num(j, "finish_ms", 0);
    rs_text_copy(m->links, sizeof m->links, str(j, "links") ? str(j, "links") : "");
    int k = 0;
    uint64_t next = 0; /* where the next share must start */
    const cJSON *o;
    static _Thread_local rs_gpu_share share[RS_GPUS_MAX]; /* kept once checked */
    memset(share, 0, sizeof share);
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(j, "shares"))
    {
        if (k == g) return rs_fail(err, RS_E_USAGE, "gpus: more shares than GPUs (%d)", g);
        rs_gpu_share *s = &share[k++];
        share_from(o, s);
        if (s->offset != next)
            return rs_fail(err, RS_E_USAGE, "gpus: share %d starts at %llu, not %llu", k - 1,
                           (unsigned long long)s->offset, (unsigned long long)next);
        if (s->count > n - next) /* next <= n: every share before stayed within n */
            return rs_fail(err, RS_E_USAGE, "gpus: share %d runs past n %llu", k - 1,
                           (unsigned long long)n);
        next += s->count;
    }
    if (k != g || next != n)
        return rs_fail(err, RS_E_USAGE, "gpus: %d shares of %llu elements for %d GPUs and n %llu",
                       k, (unsigned long long)next, g, (unsigned long long)n);
    m->share = rs_keep(share, sizeof share[0] * (size_t)g);
    return m->share ? RS_OK : rs_fail(err, RS_E_NOMEM, "out of host memory");
}

cJSON *rs_result_to_json(const rs_result *r)
{
    cJSON *j = cJSON_CreateObject();
    /* the request as this row answers it: a stall view or energy asked of
     * the recording but not shown here (a replay without --stalls) is not
     * echoed as asked */
    rs_request asked = r->req;
    if (!rs_result_stalls(r)->requested) asked.stalls = 0;
    if (!r->energy.requested) asked.energy = 0;
    cJSON_AddItemToObject(j, "request", rs_request_to_json(&asked));
    cJSON_AddItemToObject(j, "device", rs_device_to_json(&r->device));
    cJSON_AddStringToObject(j, "finish", rs_finish_name(r->finish));
    cJSON_AddNumberToObject(j, "grid", r->grid);
    cJSON_AddNumberToObject(j, "launch_block", rs_result_block(r));
    cJSON_AddNumberToObject(j, "elements_per_thread", r->ept);
    cJSON_AddNumberToObject(j, "launches", r->launches);
    cJSON *t = cJSON_AddObjectToObject(j, "time_ms");
    cJSON_AddNumberToObject(t, "median", r->t_median_ms);
    cJSON_AddNumberToObject(t, "min", r->t_min_ms);
    cJSON_AddNumberToObject(t, "max", r->t_max_ms);
    cJSON_AddNumberToObject(t, "reps", r->reps);
    cJSON_AddNumberToObject(j, "gbps", r->gbps);
    cJSON_AddNumberToObject(j, "pct_peak", r->pct_peak);
    cJSON_AddNumberToObject(j, "pct_measured", r->pct_measured);
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &ceil);
    if (c != RS_CEIL_NONE) {
        cJSON_AddStringToObject(j, "ceiling", rs_ceiling_key(c));
        cJSON_AddNumberToObject(j, "pct_ceiling", rs_result_pct_ceiling(r));
    }
    cJSON_AddNumberToObject(j, "cpu_ms", r->cpu_ms);
    cJSON_AddNumberToObject(j, "speedup_cpu", r->speedup_cpu);
    if (r->cpu_ms > 0.0)
        cJSON_AddStringToObject(j, "cpu_from", rs_cpu_from_name(rs_cpu_from_of(r)));
    cJSON_AddBoolToObject(j, "correct", r->correct);
    if (rs_wrong_reason(r)) cJSON_AddStringToObject(j, "wrong_reason", rs_wrong_reason(r));
    cJSON_AddNumberToObject(j, "bad_reps", r->bad_reps);
    cJSON_AddItemToObject(j, "result", value_json(&r->got));
    cJSON_AddItemToObject(j, "expected", value_json(&r->expected));
    cJSON_AddNumberToObject(j, "abs_err", isfinite(r->abs_err) ? r->abs_err : -1);
    cJSON_AddNumberToObject(j, "rel_err", isfinite(r->rel_err) ? r->rel_err : -1);
    cJSON_AddNumberToObject(j, "tol", r->tol);
    cJSON_AddItemToObject(j, "metrics", metrics_json(&r->metrics));
    if (rs_result_stalls(r)->requested)
        cJSON_AddItemToObject(j, "stalls", rs_stalls_to_json(r->stalls));
    if (r->energy.requested) cJSON_AddItemToObject(j, "energy", rs_energy_to_json(&r->energy));
    if (r->multi.gpus > 0) cJSON_AddItemToObject(j, "gpus", multi_json(&r->multi));
    if (r->req.variant == RS_V_KERNEL) {
        cJSON *k = cJSON_AddObjectToObject(j, "kernel_build");
        char hash[24];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)r->uk.hash);
        cJSON_AddStringToObject(k, "hash", hash);
        cJSON_AddStringToObject(k, "entry", r->uk.entry);
        cJSON_AddNumberToObject(k, "registers", r->uk.regs);
        cJSON_AddNumberToObject(k, "shared_static_bytes", r->uk.smem);
        cJSON_AddNumberToObject(k, "spill_store_bytes", r->uk.spill_st);
        cJSON_AddNumberToObject(k, "spill_load_bytes", r->uk.spill_ld);
        cJSON_AddNumberToObject(k, "local_bytes", r->uk.local);
        cJSON_AddNumberToObject(k, "arch", r->uk.arch);
        cJSON_AddNumberToObject(k, "compile_ms", r->uk.compile_ms);
    }
    return j;
}

static void ukernel_from(const cJSON *k, rs_ukernel_result *u)
{
    if (!cJSON_IsObject(k)) return;
    const char *h = str(k, "hash");
    u->hash = h ? strtoull(h, NULL, 16) : 0;
    rs_text_copy(u->entry, sizeof u->entry, str(k, "entry") ? str(k, "entry") : "");
    u->regs = inum(k, "registers", 0);
    u->smem = inum(k, "shared_static_bytes", 0);
    u->spill_st = inum(k, "spill_store_bytes", 0);
    u->spill_ld = inum(k, "spill_load_bytes", 0);
    u->local = inum(k, "local_bytes", 0);
    u->arch = inum(k, "arch", 0);
    u->compile_ms = num(k, "compile_ms", 0);
}

rs_status rs_result_from_json(const cJSON *j, rs_result *r, rs_error *err)
{
    memset(r, 0, sizeof *r);
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "result is not a JSON object");
    rs_status st =
        rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"), &r->req, err);
    if (st != RS_OK || (st = rs_row_figures_check(j, err)) != RS_OK) return st;
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    if ((st = rs_device_check(dev, err)) != RS_OK) return st;
    rs_device_from_json(dev, &r->device);
    const int fin = rs_finish_from_name(str(j, "finish"));
    r->finish = fin < 0 ? RS_FINISH_AUTO : (rs_finish)fin;
    r->grid = unum(j, "grid");
    r->block = unum(j, "launch_block");
    r->ept = num(j, "elements_per_thread", 0);
    r->launches = unum(j, "launches");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "time_ms");
    r->t_median_ms = num(t, "median", 0);
    r->t_min_ms = num(t, "min", 0);
    r->t_max_ms = num(t, "max", 0);
    r->reps = unum(t, "reps");
    r->gbps = num(j, "gbps", 0);
    r->pct_peak = num(j, "pct_peak", 0);
    r->pct_measured = num(j, "pct_measured", 0);
    r->cpu_ms = num(j, "cpu_ms", 0);
    r->speedup_cpu = num(j, "speedup_cpu", 0);
    const cJSON *from = cJSON_GetObjectItemCaseSensitive(j, "cpu_from");
    const int cf = from ? rs_cpu_from_parse(cJSON_GetStringValue(from)) : RS_CPU_UNSHARED;
    if (cf < 0) return rs_fail(err, RS_E_USAGE, "cpu_from: neither \"beside\" nor \"cpu_step\"");
    r->cpu_from = (rs_cpu_from)cf;
    r->correct = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "correct"));
    r->bad_reps = unum(j, "bad_reps");
    const rs_dtype acc = rs_dtype_acc(r->req.type);
    if (!value_from(cJSON_GetObjectItemCaseSensitive(j, "result"), acc, &r->got) ||
        !value_from(cJSON_GetObjectItemCaseSensitive(j, "expected"), acc, &r->expected))
        return rs_fail(err, RS_E_USAGE,
                       "result and expected: expected numbers of the row's type, "
                       "written as strings");
    r->abs_err = num(j, "abs_err", 0);
    r->rel_err = num(j, "rel_err", 0);
    if (r->abs_err < 0) r->abs_err = INFINITY;
    if (r->rel_err < 0) r->rel_err = INFINITY;
    r->tol = num(j, "tol", 0);
    if ((st = metrics_from(cJSON_GetObjectItemCaseSensitive(j, "metrics"), &r->metrics, err)) !=
        RS_OK)
        return st;
    if ((st = rs_stalls_keep_json(cJSON_GetObjectItemCaseSensitive(j, "stalls"), &r->stalls,
                                  err)) != RS_OK)
        return st;
    if ((st = rs_energy_from_json(cJSON_GetObjectItemCaseSensitive(j, "energy"),
                                  rs_result_input_bytes(r), &r->energy, err)) != RS_OK)
        return st;
    if ((st = rs_kernel_build_check(cJSON_GetObjectItemCaseSensitive(j, "kernel_build"), err)) !=
        RS_OK)
        return st;
    ukernel_from(cJSON_GetObjectItemCaseSensitive(j, "kernel_build"), &r->uk);
    if ((st = multi_from(cJSON_GetObjectItemCaseSensitive(j, "gpus"), r->req.n, &r->multi, err)) !=
        RS_OK)
        return st;
    /* the ceiling of a run over several GPUs is theirs together: after "gpus" */
    if ((st = rs_row_ceiling_check(j, r, err)) != RS_OK) return st;
    return rs_result_consistent(r, err);
}

cJSON *rs_row_to_json(const rs_row *row)
{
    if (row->status == RS_OK) return rs_result_to_json(&row->result);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "request", rs_request_to_json(&row->result.req));
    cJSON_AddNumberToObject(j, "status", row->status);
    cJSON_AddStringToObject(j, "error", row->error);
    if (row->result.req.variant == RS_V_KERNEL && row->result.uk.hash) { /* its source's version */
        char hash[24];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)row->result.uk.hash);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(j, "kernel_build"), "hash", hash);
    }
    return j;
}

rs_status rs_row_from_json(const cJSON *j, rs_row *row, rs_error *err)
{
    memset(row, 0, sizeof *row);
    const cJSON *ej = cJSON_GetObjectItemCaseSensitive(j, "error");
    const char *e = str(j, "error");
    char text[48];
    if (ej && !e) {
        rs_json_shown(ej, text, sizeof text);
        return rs_fail(err, RS_E_USAGE, "error is %s: expected the text of why the run failed",
                       text);
    }
    /* a failed row's status is its exit status: 0 would replay as measured */
    const rs_figure status = {"status", 1, 255, 0, 1, 0, "an exit status from 1 to 255"};
    const rs_status bad = e ? rs_figure_check(j, "", &status, err) : RS_OK;
    if (bad != RS_OK) return bad;
    if (e) {
        row->status = (rs_status)inum(j, "status", RS_E_USAGE);
        snprintf(row->error, sizeof row->error, "%s", e);
        const rs_status kb =
            rs_kernel_build_check(cJSON_GetObjectItemCaseSensitive(j, "kernel_build"), err);
        if (kb != RS_OK) return kb;
        ukernel_from(cJSON_GetObjectItemCaseSensitive(j, "kernel_build"), &row->result.uk);
        return rs_request_from_json(cJSON_GetObjectItemCaseSensitive(j, "request"),
                                    &row->result.req, err);
    }
    return rs_result_from_json(j, &row->result, err);
}

/* The shortest decimal of v that reads back as v would at its precision. */
static double tidy(double v)
{
    if (!isfinite(v) || v == floor(v) || fabs(v) >= 1e15) return v;
    char buf[40];
    const float f = (float)v;
    if ((double)f == v) {
        for (int k = 1; k <= 9; k++) {
            snprintf(buf, sizeof buf, "%.*g", k, v);
            if (strtof(buf, NULL) == f) return strtod(buf, NULL);
        }
    }
    return v; /* a double computed here: every digit it has */
}

static void tidy_numbers(cJSON *j)
{
    for (cJSON *c = j; c; c = c->next) {
        if (cJSON_IsNumber(c)) cJSON_SetNumberValue(c, tidy(c->valuedouble));
        if (c->child) tidy_numbers(c->child);
    }
}

char *rs_json_print(cJSON *j)
{
    if (!j) return NULL;
    if (j->child) tidy_numbers(j->child);
    if (cJSON_IsNumber(j)) cJSON_SetNumberValue(j, tidy(j->valuedouble));
    return cJSON_Print(j);
}
