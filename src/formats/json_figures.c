/* The figures of recordings checked where they are read, each of its type
 * and in range, as request fields are (json.c reads the rest). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

/* A measured row's figures are checked as its request is: a recording is a
 * file anyone may edit, and a time of "fast" or 1e308, or "correct": "yes",
 * would print as nonsense. Optional figures may be absent or null (a NaN
 * is written as null). */
#define RS_A_DAY_MS 86400000.0
#define RS_COUNT_HI 4294967295.0

static const rs_figure time_figures[] = {
    /* a nanosecond at least: a subnormal time made every ratio infinite */
    {"median", 1e-6, RS_A_DAY_MS, 0, 0, 1, "milliseconds from 1e-06 (a nanosecond) to a day"},
    {"min", 1e-6, RS_A_DAY_MS, 0, 0, 1, "milliseconds from 1e-06 (a nanosecond) to a day"},
    {"max", 1e-6, RS_A_DAY_MS, 0, 0, 1, "milliseconds from 1e-06 (a nanosecond) to a day"},
    {"reps", 1, RS_COUNT_HI, 0, 1, 1, "a whole number of repetitions, 1 or more"},
};

static const rs_figure row_figures[] = {
    {"grid", 0, RS_COUNT_HI, 0, 1, 0, "a whole number of blocks"},
    {"launch_block", 0, 1024, 0, 1, 0, "a blockDim from 0 to 1024"},
    {"elements_per_thread", 0, 1.8e19, 0, 0, 0, "elements per thread, 0 or more"},
    {"launches", 0, RS_COUNT_HI, 0, 1, 0, "a whole number of launches"},
    {"gbps", 0, 1e6, 0, 0, 0, "GB/s from 0 to 1000000"},
    {"pct_peak", 0, 1e4, 0, 0, 0, "a percentage from 0 to 10000"},
    {"pct_measured", 0, 1e4, 0, 0, 0, "a percentage from 0 to 10000"},
    {"pct_ceiling", 0, 1e4, 0, 0, 0, "a percentage from 0 to 10000"},
    {"cpu_ms", 0, RS_A_DAY_MS, 0, 0, 0, "milliseconds from 0 to a day (86400000)"},
    {"speedup_cpu", 0, 1e12, 0, 0, 0, "a ratio, 0 or more"},
    {"abs_err", -1, 1e308, 0, 0, 0, "an error, -1 (infinite) or more"},
    {"rel_err", -1, 1e308, 0, 0, 0, "an error, -1 (infinite) or more"},
    {"tol", 0, 1e308, 0, 0, 0, "a tolerance, 0 or more"},
};

/* A GPU's recorded figures: what a real device can have (an H200: 132 SMs,
 * 141 GB, 4814 GB/s; the bounds leave room for GPUs to come). */
static const rs_figure device_figures[] = {
    {"sm_count", 0, 100000, 0, 1, 0, "a whole number of SMs from 0 to 100000"},
    {"max_threads_per_sm", 0, 65536, 0, 1, 0, "a whole number of threads from 0 to 65536"},
    {"total_mem", 0, 1e15, 0, 1, 0, "bytes from 0 to 10^15"},
    {"free_mem", 0, 1e15, 0, 1, 0, "bytes from 0 to 10^15"},
    {"mem_clock_khz", 0, 1e8, 0, 1, 0, "kHz from 0 to 10^8"},
    {"bus_width_bits", 0, 1e5, 0, 1, 0, "bits from 0 to 100000"},
    {"peak_gbps", 0, 1e6, 0, 0, 0, "GB/s from 0 to 1000000"},
    {"measured_gbps", 0, 1e6, 0, 0, 0, "GB/s from 0 to 1000000"},
    {"l2_gbps", 0, 1e6, 0, 0, 0, "GB/s from 0 to 1000000"},
    {"l2_bytes", 0, 1e12, 0, 1, 0, "bytes from 0 to 10^12"},
    {"floor_empty_ms", 0, 1e3, 0, 0, 0, "milliseconds from 0 to 1000"},
    {"floor_launch_ms", 0, 1e3, 0, 0, 0, "milliseconds from 0 to 1000"},
    {"floor_empty_us", 0, 1e6, 0, 0, 0, "microseconds from 0 to 1000000"}, /* before 11-27 */
    {"floor_launch_us", 0, 1e6, 0, 0, 0, "microseconds from 0 to 1000000"},
};

/* Your kernel's build as ptxas and the loader report it: a register file
 * of 255 per thread, 227 KB of shared memory a block, 512 KB of local
 * memory a thread, and an sm_XX the CUDA toolkit names. */
static const rs_figure build_figures[] = {
    {"registers", 0, 255, 0, 1, 0, "a whole number of registers from 0 to 255"},
    {"shared_static_bytes", 0, 256 * 1024, 0, 1, 0, "bytes from 0 to 262144"},
    {"spill_store_bytes", -1, 1 << 30, 0, 1, 0, "bytes, or -1 where ptxas did not say"},
    {"spill_load_bytes", -1, 1 << 30, 0, 1, 0, "bytes, or -1 where ptxas did not say"},
    {"local_bytes", 0, 512 * 1024, 0, 1, 0, "bytes from 0 to 524288"},
    {"arch", 0, 200, 0, 1, 0, "an architecture from sm_10 to sm_200, or 0 (not known)"},
    {"compile_ms", 0, 3.6e6, 0, 0, 0, "milliseconds from 0 to an hour"},
};

rs_status rs_kernel_build_check(const cJSON *j, rs_error *err)
{
    if (!j) return RS_OK;
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "kernel_build is not a JSON object");
    rs_status st = RS_OK;
    for (size_t i = 0; st == RS_OK && i < sizeof build_figures / sizeof *build_figures; i++)
        st = rs_figure_check(j, "kernel_build.", &build_figures[i], err);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "arch");
    if (st == RS_OK && cJSON_IsNumber(a) && a->valuedouble != 0 && a->valuedouble < 10)
        return rs_fail(err, RS_E_USAGE, "kernel_build.arch is %g: expected sm_10 or later",
                       a->valuedouble);
    return st;
}

rs_status rs_device_check(const cJSON *j, rs_error *err)
{
    if (!j) return RS_OK; /* no device: nothing said of it */
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "device is not a JSON object");
    rs_status st = RS_OK;
    for (size_t i = 0; st == RS_OK && i < sizeof device_figures / sizeof *device_figures; i++)
        st = rs_figure_check(j, "device.", &device_figures[i], err);
    return st;
}

/* A JSON value as the user wrote it, cut to fit a message. */
void rs_json_shown(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsNumber(v) && !isfinite(v->valuedouble)) { /* 1e309: cJSON would print null */
        snprintf(buf, len, "a number beyond a double's range");
        return;
    }
    char *s = cJSON_PrintUnformatted(v);
    const size_t n = s ? strlen(s) : 0;
    snprintf(buf, len, n > 40 ? "%.37s..." : "%s", s ? s : "?");
    cJSON_free(s);
}

rs_status rs_figure_check(const cJSON *o, const char *prefix, const rs_figure *f, rs_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
    if (!v || (cJSON_IsNull(v) && !f->required))
        return v || !f->required ? RS_OK
                                 : rs_fail(err, RS_E_USAGE, "%s%s is missing: expected %s", prefix,
                                           f->key, f->expect);
    const double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (isfinite(x) && (f->open_lo ? x > f->lo : x >= f->lo) && x <= f->hi &&
        (!f->whole || x == floor(x)))
        return RS_OK;
    char text[48];
    rs_json_shown(v, text, sizeof text);
    return rs_fail(err, RS_E_USAGE, "%s%s is %s: expected %s", prefix, f->key, text, f->expect);
}

/* The figures a measured row must hold, each of its type and in range. */
rs_status rs_row_figures_check(const cJSON *j, rs_error *err)
{
    char text[48];
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "time_ms");
    if (!cJSON_IsObject(t)) {
        if (t) rs_json_shown(t, text, sizeof text);
        return rs_fail(err, RS_E_USAGE,
                       "time_ms is %s: expected {\"median\", \"min\", \"max\", "
                       "\"reps\"}, the times of a measured row",
                       t ? text : "missing");
    }
    rs_status st = RS_OK;
    for (size_t i = 0; st == RS_OK && i < sizeof time_figures / sizeof *time_figures; i++)
        st = rs_figure_check(t, "time_ms.", &time_figures[i], err);
    for (size_t i = 0; st == RS_OK && i < sizeof row_figures / sizeof *row_figures; i++)
        st = rs_figure_check(j, "", &row_figures[i], err);
    if (st != RS_OK) return st;
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "correct");
    if (!cJSON_IsBool(c)) {
        if (c) rs_json_shown(c, text, sizeof text);
        return rs_fail(err, RS_E_USAGE, "correct is %s: expected true or false",
                       c ? text : "missing");
    }
    const double reps = cJSON_GetObjectItemCaseSensitive(t, "reps")->valuedouble;
    const rs_figure bad = {"bad_reps", 0, reps, 0, 1, 0, "a whole number from 0 to the row's reps"};
    return rs_figure_check(j, "", &bad, err);
}

/* Within a part in 10^6: figures written with 17 digits come back so. */
static int near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/* The error recomputed from the result and the reference, whatever the
 * row says of it: integers are exact (correct exactly when equal, no
 * tolerance); a float's abs_err is |result - expected|, its rel_err 0
 * exactly when that is, and for a sum no more than abs_err / |expected|
 * (the error is taken over the sum of the magnitudes, at least |sum|);
 * min and max are exact; the tolerance no more than the widest the
 * reference gives at that n. */
static rs_status error_consistent(const rs_result *r, rs_error *err)
{
    const rs_value *g = &r->got, *e = &r->expected;
    if (!rs_dtype_is_float(g->acc)) {
        if (r->tol != 0.0)
            return rs_fail(err, RS_E_USAGE, "tol is %.3g: an integer result is exact (tol 0)",
                           r->tol);
        if (r->correct != (g->i == e->i))
            return rs_fail(err, RS_E_USAGE,
                           "correct is %s, yet the result %lld %s the reference %lld",
                           r->correct ? "true" : "false", (long long)g->i,
                           g->i == e->i ? "is" : "is not", (long long)e->i);
        return RS_OK;
    }
    if (!isfinite(g->f) || !isfinite(e->f)) /* NaN, inf: correct only where equal */
        return r->correct && !(g->f == e->f)
                   ? rs_fail(err, RS_E_USAGE, "correct, yet the result %g is not %g", g->f, e->f)
                   : RS_OK;
    const double abs_err = fabs(g->f - e->f);
    if (!near(r->abs_err, abs_err))
        return rs_fail(err, RS_E_USAGE,
                       "abs_err is %.6g: the result %.17g and the reference %.17g give %.6g",
                       r->abs_err, g->f, e->f, abs_err);
    const rs_op op = r->req.op;
    const double most = op == RS_SUM && e->f != 0.0 ? abs_err / fabs(e->f) : INFINITY;
    if ((abs_err == 0.0) != (r->rel_err == 0.0) || r->rel_err > most * (1 + 1e-9))
        return rs_fail(err, RS_E_USAGE,
                       "rel_err is %.6g: an error of %.6g against %.17g gives %s%.6g", r->rel_err,
                       abs_err, e->f, abs_err == 0.0 ? "" : "at most ",
                       abs_err == 0.0 ? 0.0 : most);
    if ((op == RS_MIN || op == RS_MAX) && r->correct != (g->f == e->f))
        return rs_fail(err, RS_E_USAGE, "correct is %s: a %s is exact",
                       r->correct ? "true" : "false", rs_op_name(op));
    const double u = g->acc == RS_FLOAT64 ? 0x1.0p-53 : 0x1.0p-24;
    /* the longest chain of operations a plan makes: n, its blocks, a tree, GPUs */
    const double n = (double)r->req.n,
                 widest = u * (2.0 + log2(n > 2 ? n : 2) + 8.0 * sqrt(2.0 * n + 8192.0));
    if (r->tol > widest * (1 + 1e-9))
        return rs_fail(err, RS_E_USAGE, "tol is %.3g: the reference allows at most %.3g at n %.0f",
                       r->tol, widest, n);
    return RS_OK;
}

/* A counter's value in its unit's range: a share at most 100%, lanes at
 * most a warp's 32, the kernels' time no longer than the run's slowest
 * repetition allows (a reduction's launches, timed once more under the
 * profiler; 100 times the slowest repetition and a millisecond). */
static rs_status metrics_consistent(const rs_result *r, rs_error *err)
{
    const rs_metrics *m = &r->metrics;
    if (m->passes < 0 || m->passes > 1000)
        return rs_fail(err, RS_E_USAGE, "metrics.passes is %d: replay passes from 0 to 1000",
                       m->passes);
    for (int i = 0; i < RS_METRIC_COUNT; i++) {
        if (!(m->valid & RS_METRIC_BIT(i))) continue;
        const rs_metric_def *d = &rs_metric_defs[i];
        const double v = m->value[i];
        const double most = strcmp(d->unit, "%") == 0       ? 100.5
                            : strcmp(d->unit, "lanes") == 0 ? 32.0
                            : i == RS_M_DURATION            ? 1e6 * (100.0 * r->t_max_ms + 1.0)
                                                            : INFINITY;
        if (v > most)
            return rs_fail(err, RS_E_USAGE, "metrics.values.%s is %.6g %s: at most %.6g", d->key, v,
                           d->unit, most);
    }
    return RS_OK;
}

/* Figures that hang together: the share of the measured read from gbps,
 * elements per thread no more than n, a CPU time of a nanosecond or more,
 * a cross-GPU finish no longer than the run. */
static rs_status parts_consistent(const rs_result *r, rs_error *err)
{
    const int g = r->multi.gpus > 1 ? r->multi.gpus : 1;
    const double meas = g * r->device.measured_gbps;
    if (meas > 0.0 && r->pct_measured > 0.0 && !near(r->pct_measured, 100.0 * r->gbps / meas))
        return rs_fail(err, RS_E_USAGE,
                       "pct_measured is %.6g: gbps and the measured read (%.6g GB/s) give %.6g",
                       r->pct_measured, meas, 100.0 * r->gbps / meas);
    if (r->ept > (double)r->req.n + 1.0)
        return rs_fail(err, RS_E_USAGE, "elements_per_thread is %.6g: more than n (%llu)", r->ept,
                       (unsigned long long)r->req.n);
    if (r->cpu_ms != 0.0 && r->cpu_ms < 1e-6)
        return rs_fail(err, RS_E_USAGE,
                       "cpu_ms is %.3g: milliseconds from 1e-06 (a nanosecond), or 0 (not timed)",
                       r->cpu_ms);
    if (r->launches > 100000)
        return rs_fail(err, RS_E_USAGE, "launches is %u: a reduction launches at most 100000",
                       r->launches);
    const double fin = r->multi.finish_ms, shard = r->multi.shard_ms;
    if (g > 1 && (!(fin >= 0.0) || !(shard >= 0.0) || fin > r->t_max_ms * (1 + 1e-6) ||
                  shard > r->t_max_ms * (1 + 1e-6)))
        return rs_fail(err, RS_E_USAGE,
                       "gpus: slowest_gpu_ms %.6g and finish_ms %.6g: each from 0 to the run's "
                       "slowest repetition (%.6g ms)",
                       shard, fin, r->t_max_ms);
    return metrics_consistent(r, err);
}

rs_status rs_result_consistent(const rs_result *r, rs_error *err)
{
    const double gbps = rs_result_input_bytes(r) / (r->t_median_ms * 1e-3) / 1e9;
    if (!near(r->gbps, gbps))
        return rs_fail(err, RS_E_USAGE,
                       "gbps is %.6g: n and the median time give %.6g (figures that disagree "
                       "with their parts)",
                       r->gbps, gbps);
    const int g = r->multi.gpus > 1 ? r->multi.gpus : 1;
    const double peak = g * r->device.peak_gbps;
    if (peak > 0.0 ? !near(r->pct_peak, 100.0 * r->gbps / peak) : r->pct_peak != 0.0)
        return rs_fail(err, RS_E_USAGE,
                       "pct_peak is %.6g: gbps and the device's peak (%.6g GB/s) give %.6g",
                       r->pct_peak, peak, peak > 0.0 ? 100.0 * r->gbps / peak : 0.0);
    if (r->reps != r->req.reps) /* every repetition asked is timed, or the run failed */
        return rs_fail(err, RS_E_USAGE, "time_ms.reps is %u: the request asked %u repetitions",
                       r->reps, r->req.reps);
    if (r->t_min_ms > r->t_median_ms * (1 + 1e-9) || r->t_median_ms > r->t_max_ms * (1 + 1e-9))
        return rs_fail(err, RS_E_USAGE,
                       "time_ms: min %.6g, median %.6g and max %.6g are not in "
                       "order",
                       r->t_min_ms, r->t_median_ms, r->t_max_ms);
    if (r->correct != (r->bad_reps == 0))
        return rs_fail(err, RS_E_USAGE,
                       "correct is %s with bad_reps %u: a run is correct "
                       "exactly when no repetition missed",
                       r->correct ? "true" : "false", r->bad_reps);
    rs_status e = parts_consistent(r, err);
    if (e == RS_OK) e = error_consistent(r, err);
    if (e != RS_OK || !r->correct) return e;
    if (r->tol == 0.0 &&
        (r->abs_err != 0.0 || r->rel_err != 0.0 ||
         (rs_dtype_is_float(r->got.acc) ? r->got.f != r->expected.f : r->got.i != r->expected.i)))
        return rs_fail(err, RS_E_USAGE,
                       "correct with tol 0 (exact): result, expected, abs_err "
                       "and rel_err disagree");
    if (r->tol > 0.0 && !(r->rel_err <= r->tol))
        return rs_fail(err, RS_E_USAGE, "correct, yet rel_err %.3g is over tol %.3g", r->rel_err,
                       r->tol);
    return RS_OK;
}

/* A row's ceiling as written (derived: the request's cache state, the
 * device's reads, gbps) against the one its figures give. */
rs_status rs_row_ceiling_check(const cJSON *j, const rs_result *r, rs_error *err)
{
    const char *key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "ceiling"));
    const cJSON *pct = cJSON_GetObjectItemCaseSensitive(j, "pct_ceiling");
    if (!key && !pct) return RS_OK; /* written before 2026-11-28 */
    double gbps = 0.0;
    const rs_ceiling c = rs_result_ceiling(r, &gbps);
    if (!key || strcmp(key, rs_ceiling_key(c)) != 0)
        return rs_fail(err, RS_E_USAGE, "ceiling is \"%s\": a %s run's figures give \"%s\"",
                       key ? key : "", rs_cache_name(r->req.cache), rs_ceiling_key(c));
    const double want = rs_result_pct_ceiling(r), got = cJSON_IsNumber(pct) ? pct->valuedouble : -1;
    if (!(fabs(got - want) <= 1e-6 * fmax(1.0, fabs(want))))
        return rs_fail(err, RS_E_USAGE, "pct_ceiling is %.6g: gbps over the %s read gives %.6g",
                       got, rs_ceiling_label(c), want);
    return RS_OK;
}
