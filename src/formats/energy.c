#include "energy.h"

#include <math.h>
#include <string.h>

#include "export.h"
#include "core/format.h"

#define RS_A_DAY_MS 86400000.0

const char rs_energy_csv_columns[] = "energy_j,power_w,j_per_gb,energy_rep_ms,energy_window_ms,"
                                     "energy_interval_ms,energy_reps,idle_power_w,power_limit_w,"
                                     "energy_note";

/* A board draws watts to a few kilowatts; one reduction lasts up to a day. */
static const rs_figure figures[] = {
    {"energy_j", 0, 1e8, 1, 0, 1, "joules above 0"},
    {"power_w", 0, 1e5, 1, 0, 1, "watts above 0, up to 100000"},
    {"j_per_gb", 0, 1e8, 1, 0, 1, "joules per GB above 0"},
    {"energy_rep_ms", 1e-6, RS_A_DAY_MS, 0, 0, 1, "milliseconds from 1e-06 to a day"},
    {"energy_window_ms", 0, RS_A_DAY_MS, 1, 0, 1, "milliseconds above 0, up to a day"},
    {"energy_interval_ms", 0, RS_A_DAY_MS, 1, 0, 1, "milliseconds above 0, up to a day"},
    {"energy_reps", 1, 4294967295.0, 0, 1, 1, "a whole number of reductions from 1 to 4294967295"},
    {"idle_power_w", 0, 1e5, 0, 0, 0, "watts from 0 to 100000"},
    {"power_limit_w", 0, 1e5, 0, 0, 0, "watts from 0 to 100000"},
};
enum { NFIG = RS_ENERGY_FIGURES };
_Static_assert(sizeof figures / sizeof figures[0] == NFIG, "one figure per CSV column");

/* Figure i of the table above, both ways. */
static double get(const rs_energy *en, int i)
{
    const double v[NFIG] = {en->joules, en->watts,      en->j_per_gb,
                            en->rep_ms, en->window_ms,  en->interval_ms,
                            en->reps,   en->idle_watts, en->limit_watts};
    return v[i];
}

static void set(rs_energy *en, int i, double x)
{
    double *d[NFIG] = {&en->joules, &en->watts,      &en->j_per_gb,
                       &en->rep_ms, &en->window_ms,  &en->interval_ms,
                       NULL,        &en->idle_watts, &en->limit_watts};
    if (d[i])
        *d[i] = x;
    else
        en->reps = (unsigned)x;
}

cJSON *rs_energy_to_json(const rs_energy *en)
{
    cJSON *j = cJSON_CreateObject();
    if (!en->valid) {
        cJSON_AddStringToObject(j, "energy_note", en->note);
        return j;
    }
    for (int i = 0; i < NFIG; i++) cJSON_AddNumberToObject(j, figures[i].key, get(en, i));
    return j;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

rs_status rs_energy_from_json(const cJSON *j, double input_bytes, rs_energy *en, rs_error *err)
{
    memset(en, 0, sizeof *en);
    if (!j) return RS_OK;
    if (!cJSON_IsObject(j)) return rs_fail(err, RS_E_USAGE, "energy is not a JSON object");
    en->requested = 1;
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(j, "energy_note");
    if (note) {
        if (!cJSON_IsString(note))
            return rs_fail(err, RS_E_USAGE, "energy.energy_note: expected the text of why not");
        snprintf(en->note, sizeof en->note, "%s", note->valuestring);
        if (cJSON_GetObjectItemCaseSensitive(j, "energy_j"))
            return rs_fail(err, RS_E_USAGE, "energy: both a measurement and why it is missing");
        return RS_OK;
    }
    for (int i = 0; i < NFIG; i++) {
        rs_status st = rs_figure_check(j, "energy.", &figures[i], err);
        if (st != RS_OK) return st;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, figures[i].key);
        set(en, i, cJSON_IsNumber(v) ? v->valuedouble : 0.0);
    }
    /* the window lies inside the loop of reps reductions, give or take the
     * counter's updates on either side */
    const double loop = en->reps * en->rep_ms + 2.0 * en->interval_ms;
    if (en->window_ms > loop * (1 + 1e-6))
        return rs_fail(err, RS_E_USAGE,
                       "energy.energy_window_ms is %.6g: longer than the loop of %u reductions "
                       "of %.6g ms it lies in (and two updates of the counter, %.6g ms)",
                       en->window_ms, en->reps, en->rep_ms, 2.0 * en->interval_ms);
    if (en->limit_watts > 0.0 && en->idle_watts > en->limit_watts)
        return rs_fail(err, RS_E_USAGE, "energy.idle_power_w is %.6g: over the limit of %.6g W",
                       en->idle_watts, en->limit_watts);
    if (!near(en->joules, en->watts * en->rep_ms * 1e-3))
        return rs_fail(err, RS_E_USAGE, "energy.energy_j is not power_w x energy_rep_ms");
    if (input_bytes > 0.0 && !near(en->j_per_gb, en->joules / (input_bytes / 1e9)))
        return rs_fail(err, RS_E_USAGE, "energy.j_per_gb is not energy_j per GB of the input");
    en->valid = 1;
    return RS_OK;
}

double rs_energy_figure(const rs_energy *en, int i, int *whole)
{
    *whole = figures[i].whole;
    return get(en, i);
}

void rs_fmt_energy(double joules, int utf8, char *buf, size_t len)
{
    if (!(joules > 0.0) || isinf(joules))
        snprintf(buf, len, "-");
    else if (joules < 1e-3)
        snprintf(buf, len, "%.3g %sJ", joules * 1e6, utf8 ? "\xc2\xb5" : "u");
    else if (joules < 1.0)
        snprintf(buf, len, "%.3g mJ", joules * 1e3);
    else
        snprintf(buf, len, "%.3g J", joules);
}

void rs_fmt_j_per_gb(double v, char *buf, size_t len)
{
    if (!(v > 0.0) || isinf(v))
        snprintf(buf, len, "-");
    else if (v < 100.0) /* two decimals, so a column's points line up */
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.0f", v);
}

void rs_energy_describe(const rs_energy *en, int utf8, char *buf, size_t len)
{
    if (!en->valid) {
        snprintf(buf, len, "not measured: %s", en->note[0] ? en->note : "not asked for");
        return;
    }
    char e[32], g[32], t[32], w[32], reps[32];
    rs_fmt_energy(en->joules, utf8, e, sizeof e);
    rs_fmt_j_per_gb(en->j_per_gb, g, sizeof g);
    rs_fmt_time(en->rep_ms, utf8, t, sizeof t);
    rs_fmt_time(en->window_ms, utf8, w, sizeof w);
    rs_fmt_count(en->reps, reps, sizeof reps);
    snprintf(buf, len,
             "%s per reduction, %s J/GB read: %.0f W on average over %s (%s reductions back to "
             "back, %s each; the counter changes every %.0f ms; idle %.0f W, limit %.0f W)",
             e, g, en->watts, w, reps, t, en->interval_ms, en->idle_watts, en->limit_watts);
}
