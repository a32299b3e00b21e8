/* The stall view as JSON, both ways (recordings): apart from the printing
 * (stalls_io.c) so that results' JSON needs no table code. */
#include "stalls_io.h"

#include <stdlib.h>
#include <string.h>

#include "core/text.h"

static uint64_t count_of(const cJSON *j)
{
    const double v = cJSON_IsNumber(j) ? j->valuedouble : 0.0;
    return v >= 0.0 && v < 9.0e15 ? (uint64_t)v : 0; /* exact in a double, never negative */
}

/* {"long_scoreboard": 123, ...}: the reasons with samples, by their key. */
static cJSON *reasons_json(const uint64_t *by)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < RS_STALL_KINDS; k++) {
        if (!by[k]) continue;
        const rs_stall_def *d = rs_stall_kind_def(k);
        cJSON_AddNumberToObject(o, d ? d->key : "unknown", (double)by[k]);
    }
    return o;
}

static void reasons_from(const cJSON *o, uint64_t *by)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, o)
    {
        if (!it->string) continue;
        const int k =
            strcmp(it->string, "unknown") == 0 ? RS_STALL_KINDS - 1 : rs_stall_kind(it->string);
        by[k] += count_of(it);
    }
}

/* "functions": by function; "kernel", "sm", "pcs": [[offset, samples]...]. */
static void functions_to_json(const rs_stalls *s, cJSON *j)
{
    cJSON *fns = cJSON_AddArrayToObject(j, "functions");
    for (int i = 0; i < s->nfuncs; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s->func[i].name);
        cJSON_AddNumberToObject(o, "samples", (double)s->func[i].samples);
        cJSON_AddItemToObject(o, "reasons", reasons_json(s->func[i].by_reason));
        cJSON_AddItemToArray(fns, o);
    }
    cJSON_AddNumberToObject(j, "other_functions", (double)s->other_funcs);
    if (!s->kernel[0]) return;
    cJSON_AddStringToObject(j, "kernel", s->kernel);
    cJSON_AddStringToObject(j, "cubin", s->cubin);
    cJSON_AddNumberToObject(j, "sm", s->sm);
    cJSON *pcs = cJSON_AddArrayToObject(j, "pcs");
    for (int i = 0; i < s->npcs; i++) {
        const double pair[2] = {(double)s->pc[i].offset, (double)s->pc[i].samples};
        cJSON_AddItemToArray(pcs, cJSON_CreateDoubleArray(pair, 2));
    }
}

static void functions_from_json(const cJSON *j, rs_stalls *s)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(j, "functions"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
        if (!cJSON_IsString(name)) continue;
        uint64_t by[RS_STALL_KINDS] = {0};
        reasons_from(cJSON_GetObjectItemCaseSensitive(f, "reasons"), by);
        for (int k = 0; k < RS_STALL_KINDS; k++) rs_stalls_add_func(s, name->valuestring, k, by[k]);
    }
    s->other_funcs += count_of(cJSON_GetObjectItemCaseSensitive(j, "other_functions"));
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(j, "kernel");
    if (!cJSON_IsString(kernel)) return;
    rs_text_copy(s->kernel, sizeof s->kernel, kernel->valuestring);
    const cJSON *cubin = cJSON_GetObjectItemCaseSensitive(j, "cubin");
    if (cJSON_IsString(cubin)) snprintf(s->cubin, sizeof s->cubin, "%s", cubin->valuestring);
    const double sm = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "sm"));
    s->sm = sm >= 10.0 && sm < 1000.0 ? (int)sm : 0;
    const cJSON *pc;
    cJSON_ArrayForEach(pc, cJSON_GetObjectItemCaseSensitive(j, "pcs")) rs_stalls_add_pc(
        s, count_of(cJSON_GetArrayItem(pc, 0)), count_of(cJSON_GetArrayItem(pc, 1)));
}

/* A recorded string into a fixed field: one line, no control characters. */
static void string_into(const cJSON *o, const char *key, char *buf, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    rs_text_copy(buf, len, cJSON_IsString(v) ? v->valuestring : "");
    rs_text_scrub(buf, 0);
}

static const char *const link_names[] = {"", "inside", "waits"};

/* "links": what each line's samples lead to; "causes": whether waits were
 * traced (and "causes_why" when not). */
static void links_to_json(const rs_stalls *s, cJSON *j)
{
    cJSON_AddBoolToObject(j, "causes", s->causes);
    if (!s->causes) cJSON_AddStringToObject(j, "causes_why", s->causes_why);
    cJSON *arr = cJSON_AddArrayToObject(j, "links");
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++) {
        const rs_stall_link *k = &s->link[i];
        const rs_stall_def *d = rs_stall_kind_def(k->kind);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", k->file);
        cJSON_AddNumberToObject(o, "line", k->line);
        cJSON_AddStringToObject(o, "link", link_names[k->what == RS_LINK_WAITS ? 2 : 1]);
        if (k->what == RS_LINK_WAITS) cJSON_AddStringToObject(o, "reason", d ? d->key : "unknown");
        cJSON_AddStringToObject(o, "to_file", k->to_file);
        cJSON_AddNumberToObject(o, "to_line", k->to_line);
        cJSON_AddStringToObject(o, "to_text", k->text);
        cJSON_AddStringToObject(o, k->what == RS_LINK_WAITS ? "instruction" : "chain", k->name);
        cJSON_AddNumberToObject(o, "samples", (double)k->samples);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(j, "other_links", (double)s->other_links);
}

static void links_from_json(const cJSON *j, rs_stalls *s)
{
    s->causes = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "causes"));
    if (!s->causes) {
        string_into(j, "causes_why", s->causes_why, sizeof s->causes_why);
        if (!s->causes_why[0])
            snprintf(s->causes_why, sizeof s->causes_why,
                     "recorded before redscope traced waits to their causes");
    }
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(j, "links"))
    {
        rs_stall_link k;
        memset(&k, 0, sizeof k);
        char what[16];
        string_into(o, "link", what, sizeof what);
        k.what = strcmp(what, "waits") == 0    ? RS_LINK_WAITS
                 : strcmp(what, "inside") == 0 ? RS_LINK_INSIDE
                                               : 0;
        const double line = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "line"));
        const double to = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "to_line"));
        if (!k.what || !(line >= 1.0 && line < 4.0e9) || !(to >= 1.0 && to < 4.0e9)) continue;
        k.line = (uint32_t)line;
        k.to_line = (uint32_t)to;
        string_into(o, "file", k.file, sizeof k.file);
        string_into(o, "to_file", k.to_file, sizeof k.to_file);
        string_into(o, "to_text", k.text, sizeof k.text);
        string_into(o, k.what == RS_LINK_WAITS ? "instruction" : "chain", k.name, sizeof k.name);
        char reason[48];
        string_into(o, "reason", reason, sizeof reason);
        k.kind = k.what == RS_LINK_WAITS ? rs_stall_kind(reason) : 0;
        k.samples = count_of(cJSON_GetObjectItemCaseSensitive(o, "samples"));
        if (k.file[0] && k.to_file[0] && k.name[0]) rs_stalls_link(s, &k);
    }
    s->other_links += count_of(cJSON_GetObjectItemCaseSensitive(j, "other_links"));
}

cJSON *rs_stalls_to_json(const rs_stalls *s)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "valid", s->valid);
    if (!s->valid) {
        cJSON_AddStringToObject(j, "why", s->why);
        return j;
    }
    cJSON_AddNumberToObject(j, "samples", (double)s->total);
    cJSON_AddNumberToObject(j, "dropped", (double)s->dropped);
    cJSON_AddNumberToObject(j, "unmapped", (double)s->unmapped);
    cJSON_AddNumberToObject(j, "other_lines", (double)s->other_lines);
    cJSON_AddNumberToObject(j, "period", s->period);
    if (s->runs > 0) cJSON_AddNumberToObject(j, "runs", s->runs);
    cJSON_AddItemToObject(j, "reasons", reasons_json(s->by_reason));
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    for (int i = 0; i < s->nlines; i++) {
        const rs_stall_line *l = &s->line[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", l->file);
        cJSON_AddNumberToObject(o, "line", l->line);
        cJSON_AddNumberToObject(o, "samples", (double)l->samples);
        cJSON_AddNumberToObject(o, "inlined", (double)l->inlined);
        cJSON_AddStringToObject(o, "text", l->text);
        cJSON_AddItemToObject(o, "reasons", reasons_json(l->by_reason));
        cJSON_AddItemToArray(lines, o);
    }
    functions_to_json(s, j);
    links_to_json(s, j);
    return j;
}

void rs_stalls_from_json(const cJSON *j, rs_stalls *s)
{
    memset(s, 0, sizeof *s);
    if (!cJSON_IsObject(j)) return;
    s->requested = 1;
    s->valid = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "valid"));
    if (!s->valid) {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(j, "why");
        snprintf(s->why, sizeof s->why, "%s",
                 cJSON_IsString(why) ? why->valuestring : "not recorded");
        return;
    }
    s->dropped = count_of(cJSON_GetObjectItemCaseSensitive(j, "dropped"));
    const double p = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "period"));
    s->period = p >= 0.0 && p <= 31.0 ? (int)p : 0;
    const double runs = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "runs"));
    s->runs = runs >= 1.0 && runs <= 1000.0 ? (int)runs : 0;
    /* the totals are made again from the lines, so they cannot disagree */
    const cJSON *l;
    cJSON_ArrayForEach(l, cJSON_GetObjectItemCaseSensitive(j, "lines"))
    {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(l, "file");
        const double line = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(l, "line"));
        if (!cJSON_IsString(file) || !(line >= 1.0 && line < 4.0e9)) continue;
        uint64_t by[RS_STALL_KINDS] = {0};
        reasons_from(cJSON_GetObjectItemCaseSensitive(l, "reasons"), by);
        for (int k = 0; k < RS_STALL_KINDS; k++)
            rs_stalls_add(s, file->valuestring, (uint32_t)line, k, by[k]);
        const uint64_t inl = count_of(cJSON_GetObjectItemCaseSensitive(l, "inlined"));
        for (int i = 0; i < s->nlines; i++) /* never more than the line holds */
            if (s->line[i].line == (uint32_t)line &&
                strcmp(s->line[i].file, rs_stall_base(file->valuestring)) == 0) {
                s->line[i].inlined = inl < s->line[i].samples ? inl : s->line[i].samples;
                string_into(l, "text", s->line[i].text, sizeof s->line[i].text);
            }
    }
    /* what lay on no line: the recorded totals less what the lines hold */
    uint64_t by[RS_STALL_KINDS] = {0};
    reasons_from(cJSON_GetObjectItemCaseSensitive(j, "reasons"), by);
    for (int k = 0; k < RS_STALL_KINDS; k++)
        if (by[k] > s->by_reason[k]) rs_stalls_add(s, NULL, 0, k, by[k] - s->by_reason[k]);
    functions_from_json(j, s);
    links_from_json(j, s);
}

/* Parts no bigger than their whole: a function's samples within the view's,
 * a link's within its line's (a recording may say anything). */
static rs_status parts_in_whole(const rs_stalls *s, rs_error *err)
{
    uint64_t funcs = 0;
    for (int i = 0; i < s->nfuncs && i < RS_STALL_FUNCS; i++) funcs += s->func[i].samples;
    if (funcs > s->total)
        return rs_fail(err, RS_E_USAGE,
                       "stalls.functions hold %llu samples: more than the view's %llu",
                       (unsigned long long)funcs, (unsigned long long)s->total);
    for (int i = 0; i < s->nlinks && i < RS_STALL_LINKS; i++) {
        const rs_stall_link *k = &s->link[i];
        uint64_t whole = s->other_lines; /* a line past those kept: their samples */
        for (int l = 0; l < s->nlines; l++)
            if (s->line[l].line == k->line && strcmp(s->line[l].file, k->file) == 0)
                whole = s->line[l].samples;
        if (k->samples > whole)
            return rs_fail(err, RS_E_USAGE,
                           "stalls.links: %s:%u's link holds %llu samples: more than the %llu of "
                           "its line",
                           k->file, k->line, (unsigned long long)k->samples,
                           (unsigned long long)whole);
    }
    return RS_OK;
}

rs_status rs_stalls_keep_json(const cJSON *j, const rs_stalls **out, rs_error *err)
{
    *out = NULL;
    if (!cJSON_IsObject(j)) return RS_OK;
    rs_stalls *tmp = malloc(sizeof *tmp);
    if (tmp) rs_stalls_from_json(j, tmp);
    if (tmp && parts_in_whole(tmp, err) != RS_OK) {
        free(tmp);
        return err->code;
    }
    if (tmp) *out = rs_stalls_keep(tmp);
    free(tmp);
    return *out ? RS_OK : rs_fail(err, RS_E_NOMEM, "out of host memory for a stall view");
}
