#include "metric_table.h"

#include <stdio.h>
#include <string.h>

/* Names checked against the GH100 metric list through the CUPTI host API
 * and against Nsight Compute on an H200. */
const rs_metric_def rs_metric_defs[RS_METRIC_COUNT] = {
#define RS_X_METRIC(id, ...) {RS_M_##id, __VA_ARGS__},
    RS_METRICS(RS_X_METRIC)
#undef RS_X_METRIC
};

const rs_metric_def *rs_metric_by_key(const char *key)
{
    for (int i = 0; key && i < RS_METRIC_COUNT; i++) {
        const rs_metric_def *d = &rs_metric_defs[i];
        if (strcmp(d->key, key) == 0 || (d->cupti && strcmp(d->cupti, key) == 0)) return d;
    }
    return NULL;
}

rs_metric_mask rs_metric_set_default(void)
{
    rs_metric_mask m = 0;
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if (rs_metric_defs[i].in_default) m |= RS_METRIC_BIT(i);
    return m;
}

rs_metric_mask rs_metric_set_full(void)
{
    return (RS_METRIC_BIT(RS_METRIC_COUNT) - 1u);
}

rs_metric_mask rs_metric_closure(rs_metric_mask m)
{
    if (m & RS_METRIC_BIT(RS_M_DRAM_GBPS))
        m |= RS_METRIC_BIT(RS_M_DRAM_READ) | RS_METRIC_BIT(RS_M_DRAM_WRITE) |
             RS_METRIC_BIT(RS_M_DURATION);
    if (m & RS_METRIC_BIT(RS_M_LANES_PRED_ON))
        m |= RS_METRIC_BIT(RS_M_THREAD_INST_PRED_ON) | RS_METRIC_BIT(RS_M_WARP_INST);
    if (m & RS_METRIC_BIT(RS_M_L2_HIT_RATE))
        m |= RS_METRIC_BIT(RS_M_L2_READ) | RS_METRIC_BIT(RS_M_L2_READ_HIT);
    if (m & RS_METRIC_BIT(RS_M_LANES_ACTIVE))
        m |= RS_METRIC_BIT(RS_M_THREAD_INST) | RS_METRIC_BIT(RS_M_WARP_INST);
    /* Ratios are weighted by kernel time across launches. */
    for (int i = 0; i < RS_METRIC_COUNT; i++)
        if ((m & RS_METRIC_BIT(i)) && rs_metric_defs[i].agg == RS_AGG_WEIGHTED)
            m |= RS_METRIC_BIT(RS_M_DURATION);
    return m;
}

int rs_metric_set_covers(const char *recorded, const char *asked)
{
    const int named = strcmp(asked, "default") == 0 || strcmp(asked, "full") == 0;
    return named && (strcmp(recorded, asked) == 0 ||
                     (strcmp(recorded, "full") == 0 && strcmp(asked, "default") == 0));
}

rs_status rs_metric_parse_set(const char *text, rs_metric_mask *out, rs_error *err)
{
    if (!text || !*text || strcmp(text, "none") == 0 || strcmp(text, "off") == 0) {
        *out = 0;
        return RS_OK;
    }
    if (strcmp(text, "default") == 0) {
        *out = rs_metric_set_default();
        return RS_OK;
    }
    if (strcmp(text, "full") == 0 || strcmp(text, "all") == 0) {
        *out = rs_metric_set_full();
        return RS_OK;
    }
    rs_metric_mask m = 0;
    const char *p = text;
    while (*p) {
        char key[96];
        size_t len = strcspn(p, ",");
        while (len > 0 && (*p == ' ')) p++, len--;
        if (len == 0 || len >= sizeof key)
            return rs_fail(err, RS_E_USAGE, "empty or overlong metric name in '%s'", text);
        memcpy(key, p, len);
        key[len] = '\0';
        for (size_t k = len; k > 0 && key[k - 1] == ' '; k--) key[k - 1] = '\0';
        const rs_metric_def *d = rs_metric_by_key(key);
        if (!d && (strcmp(key, "none") == 0 || strcmp(key, "default") == 0 ||
                   strcmp(key, "full") == 0 || strcmp(key, "all") == 0 || strcmp(key, "off") == 0))
            return rs_fail(err, RS_E_USAGE,
                           "'%s' is a set, given alone (--metrics=%s); in a list, metric keys "
                           "from 'redscope metrics'",
                           key, key);
        if (!d)
            return rs_fail(err, RS_E_USAGE,
                           "unknown metric '%s' (expected none, default, full or keys from "
                           "'redscope metrics')",
                           key);
        m |= RS_METRIC_BIT(d->id);
        p += len;
        if (*p == ',') p++;
    }
    *out = m;
    return RS_OK;
}

int rs_metric_cupti_names(rs_metric_mask m, const char **names, int max)
{
    int count = 0;
    m = rs_metric_closure(m);
    for (int i = 0; i < RS_METRIC_COUNT && count < max; i++)
        if ((m & RS_METRIC_BIT(i)) && rs_metric_defs[i].cupti)
            names[count++] = rs_metric_defs[i].cupti;
    return count;
}

/* The CSV suffix of a unit ("" for a count). */
static const char *unit_suffix(const char *unit)
{
    static const char *const map[][2] = {{"ns", "ns"}, {"bytes", "bytes"}, {"GB/s", "gbps"},
                                         {"%", "pct"}, {"lanes", "lanes"}, {"count", ""}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(unit, map[i][0]) == 0) return map[i][1];
    return "";
}

const char *rs_metric_column(const rs_metric_def *d, char *buf, size_t len)
{
    const char *suffix = unit_suffix(d->unit);
    int named = !*suffix; /* the key's words: "lanes_pred_on" holds "lanes" */
    for (const char *w = d->key; *w && !named; w += strcspn(w, "_"), w += *w == '_') {
        const size_t n = strcspn(w, "_");
        named = n == strlen(suffix) && strncmp(w, suffix, n) == 0;
    }
    snprintf(buf, len, named ? "%s" : "%s_%s", d->key, suffix);
    return buf;
}

int rs_metric_whole(const rs_metric_def *d)
{
    return strcmp(d->unit, "count") == 0 || strcmp(d->unit, "bytes") == 0 ||
           strcmp(d->unit, "ns") == 0;
}

const char *rs_metric_pair_label(rs_metric_id a, rs_metric_id b)
{
    if (a != b && a == RS_M_SHLD_CONFLICTS) return "bank conflicts";
    if (a != b && a == RS_M_SHLD_WAVEFRONTS) return "shared wavefronts";
    return rs_metric_defs[a].label;
}

const char *rs_metric_pair_title(rs_metric_id a, rs_metric_id b)
{
    if (a != b && a == RS_M_SHLD_CONFLICTS) return "conflicts";
    if (a != b && a == RS_M_SHLD_WAVEFRONTS) return "wavefr";
    return rs_metric_defs[a].title;
}
