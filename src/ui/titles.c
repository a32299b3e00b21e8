/* Titles: the settings that select what a screen shows. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "core/catalogue.h"
#include "draw.h"

/* The settings that select a result, as a title that fits width: the
 * longest form that does. The lead (the variant) goes last: the counters,
 * then the words, then reps, finish and the extras, then n and the block
 * go before it. */
static void title_of(const rs_request *r, const char *lead, const char *f, const char *fs,
                     int width, char *buf, size_t len)
{
    const char *sep = ui_glyph(G_SEP);
    char n[32], extra[96] = "";
    rs_format_size(r->n, n, sizeof n);
    if (r->ept)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " %s ept %u", sep, r->ept);
    if (r->grid)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " %s grid %u", sep, r->grid);
    if (r->gpus != 1)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                 r->gpus ? " %s %u GPUs %s" : " %s every GPU%.0u %s", sep, r->gpus,
                 rs_cross_name(r->cross));
    if (r->cache == RS_CACHE_WARM)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " %s cache warm", sep);
    if (r->dist != RS_DIST_RANDOM)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " %s input %s", sep,
                 rs_dist_name(r->dist));
    const char *t = rs_dtype_name(r->type), *o = rs_op_name(r->op);
    char m[80];
    snprintf(m, sizeof m, " %s counters %.40s", sep, r->metrics);
    char nl[48] = "", ns[48] = ""; /* no n for a sweep: its range is shown beside */
    if (r->n) {
        snprintf(nl, sizeof nl, "n %s %s ", n, sep);
        snprintf(ns, sizeof ns, "%s %s ", n, sep);
    }
    char head[96] = "", cut[16]; /* a form that leaves settings out ends in an ellipsis */
    if (lead) snprintf(head, sizeof head, "%.60s %s ", lead, sep);
    snprintf(cut, sizeof cut, " %s %s", sep, ui_theme_utf8() ? "\xe2\x80\xa6" : "~");
    for (int form = 0; form < 7; form++) {
        if (form < 2)
            snprintf(buf, len, "%s%s %s %s %sblock %u %s %s %s %u rep%s%s%s", head, t, o, sep, nl,
                     r->block, sep, f, sep, r->reps, r->reps == 1 ? "" : "s", extra,
                     form == 0 ? m : "");
        else if (form == 2)
            snprintf(buf, len, "%s%s %s %s %sb %u %s %s %s %u rep%s%s", head, t, o, sep, ns,
                     r->block, sep, fs, sep, r->reps, r->reps == 1 ? "" : "s", extra);
        else if (form == 3)
            snprintf(buf, len, "%s%s %s %s %sb %u%s", head, t, o, sep, ns, r->block, cut);
        else if (form == 4)
            snprintf(buf, len, "%s%s %s%s", head, t, o, cut);
        else if (form == 5 && lead)
            snprintf(buf, len, "%.60s%s", lead, cut);
        else
            snprintf(buf, len, "%s %s %s%sb%u %s r%u%s", t, o, r->n ? n : "", r->n ? " " : "",
                     r->block, fs, r->reps, extra);
        if (ui_width(buf) <= width) return;
    }
}

void ui_settings_title(const rs_request *r, const char *lead, int width, char *buf, size_t len)
{
    char f[48];
    snprintf(f, sizeof f, "finish %s", rs_finish_name(r->finish));
    title_of(r, lead, f, rs_finish_name(r->finish), width, buf, len);
}

void ui_result_title(const rs_request *r, const char *lead, int width, char *buf, size_t len)
{
    if (rs_catalogue_get(r->variant)->flags & RS_VF_FINISH)
        ui_settings_title(r, lead, width, buf, len);
    else /* atomic, the libraries, the CPU: the configuration's finish is not theirs */
        title_of(r, lead, "no finish step", "no finish", width, buf, len);
}

int ui_other_settings(const rs_request *shown, const rs_request *cfg, char *buf, size_t len)
{
    const char *sep = ui_glyph(G_SEP);
    if (shown->reps == cfg->reps && strcmp(shown->metrics, cfg->metrics) == 0) return 0;
    snprintf(buf, len,
             "measured with %u rep%s %s counters %.40s; the configuration says %u rep%s %s "
             "counters %.40s",
             shown->reps, shown->reps == 1 ? "" : "s", sep, shown->metrics, cfg->reps,
             cfg->reps == 1 ? "" : "s", sep, cfg->metrics);
    return 1;
}
