/* `redscope --generate man|bash|zsh|fish`: the man page and the shell
 * completions, made from the same tables --help reads (the command table,
 * the request's field table, the variants, the counters, the explorer's
 * keys), so a new option is in all of them or the build's test fails. */
#include "generate.h"

#include <string.h>

#include "core/catalogue.h"
#include "core/metric_table.h"
#include "core/request.h"
#include "formats/export.h"

int rs_generate(const char *what, FILE *f)
{
    if (strcmp(what, "man") == 0)
        rs_generate_man(f);
    else if (strcmp(what, "bash") == 0)
        rs_generate_bash(f);
    else if (strcmp(what, "zsh") == 0)
        rs_generate_zsh(f);
    else if (strcmp(what, "fish") == 0)
        rs_generate_fish(f);
    else {
        rs_cli_error("--generate takes man, bash, zsh or fish, not '%s'", what);
        return RS_E_USAGE;
    }
    return 0;
}

static void add(char *words, size_t len, const char *w)
{
    const size_t at = strlen(words);
    if (at + strlen(w) + 2 < len) snprintf(words + at, len - at, "%s%s", at ? " " : "", w);
}

/* The variants a field names: every row of the catalogue. */
static void variants(char *words, size_t len)
{
    for (int v = 0; v < RS_VARIANT_COUNT; v++) add(words, len, rs_variant_name((rs_variant)v));
}

static rs_complete_kind field_arg(const rs_cli_opt *o, char *words, size_t len)
{
    switch (o->field->kind) {
    case RS_FK_VARIANT:
    case RS_FK_VARLIST: variants(words, len); return RS_COMPLETE_WORDS;
    case RS_FK_METRICS:
        add(words, len, "none default full");
        for (int i = 0; i < RS_METRIC_COUNT; i++) add(words, len, rs_metric_defs[i].key);
        return RS_COMPLETE_WORDS;
    case RS_FK_TEXT: return strstr(o->field->argname, ".cu") ? RS_COMPLETE_CU : RS_COMPLETE_NONE;
    default: break;
    }
    if (o->values[0]) {
        snprintf(words, len, "%s", o->values);
        return RS_COMPLETE_WORDS;
    }
    if (o->arg_optional && strchr(o->arg, '|')) { /* --stalls[=0|1] */
        for (const char *p = o->arg; *p; p++) {
            char w[2] = {*p == '|' ? ' ' : *p, 0};
            add(words, len, w);
        }
        return RS_COMPLETE_WORDS;
    }
    return RS_COMPLETE_NONE;
}

/* One item of a list as a name: "or all" -> "all"; 0 where it is prose. */
static int item(const char *p, size_t k, char *out, size_t len)
{
    while (k && *p == ' ') p++, k--;
    while (k && p[k - 1] == ' ') k--;
    if (k > 3 && (strncmp(p, "or ", 3) == 0)) p += 3, k -= 3;
    if (!k || k >= len || !(*p >= 'a' && *p <= 'z')) return 0;
    for (size_t i = 0; i < k; i++)
        if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
            return 0;
    snprintf(out, len, "%.*s", (int)k, p);
    return 1;
}

/* The names an own option's help lists after ": " ("nccl (NCCL's choice),
 * ring, tree or all"), the parenthesised notes left out: how many (0 where
 * what follows is prose, not a list of names). */
static int words_of_help(const char *help, char *words, size_t len)
{
    const char *at = strstr(help, ": ");
    if (!at) return 0;
    char flat[512];
    size_t n = 0;
    for (int depth = 0, i = 2; at[i] && n + 1 < sizeof flat; i++) {
        depth += (at[i] == '(') - (at[i] == ')');
        const int space_again = at[i] == ' ' && n && flat[n - 1] == ' ';
        if (!depth && at[i] != ')' && !space_again) flat[n++] = at[i];
    }
    flat[n] = '\0';
    int count = 0;
    char one[32];
    for (const char *p = flat; *p;) {
        p += strspn(p, " ");
        if (strncmp(p, "or ", 3) == 0) p += 3;
        size_t k = strcspn(p, ",");
        const char * or = strstr(p, " or ");
        if (or &&(size_t)(or -p) < k) k = (size_t)(or -p) + 1; /* "race or memory" */
        if (!item(p, k, one, sizeof one)) return words[0] = '\0', 0;
        add(words, len, one);
        count++;
        p += k + (p[k] == ',');
    }
    return count;
}

rs_complete_kind rs_generate_arg(const rs_cli_opt *o, char *words, size_t len)
{
    words[0] = '\0';
    if (!o->arg) return RS_COMPLETE_NONE;
    if (o->field) return field_arg(o, words, len);
    switch (o->extra) {
    case RS_X_FORMAT:
        for (int k = 0; k < RS_FMT_COUNT; k++) add(words, len, rs_writers[k]->name);
        return RS_COMPLETE_WORDS;
    case RS_X_RECORD:
    case RS_X_REPLAY: return RS_COMPLETE_JSONL;
    case RS_X_PRESET: return RS_COMPLETE_PRESET;
    case RS_X_PLOT: return RS_COMPLETE_PLOT;
    case RS_X_AGAINST: /* with --stalls, a variant too */
        if (!strstr(o->arg, "VARIANT")) return RS_COMPLETE_JSONL;
        variants(words, len);
        return RS_COMPLETE_WORDS_JSONL;
    default: break;
    }
    /* a command's own option: its help names the words it takes */
    if (words_of_help(o->help, words, len) >= 2) return RS_COMPLETE_WORDS;
    words[0] = '\0';
    return strstr(o->arg, "FILE") || strstr(o->arg, "PATH") ? RS_COMPLETE_FILE : RS_COMPLETE_NONE;
}

int rs_generate_list(const rs_cli_opt *o)
{
    if (o->field) return o->field->kind == RS_FK_VARLIST || o->field->kind == RS_FK_METRICS;
    return o->arg && strcmp(o->arg, "LIST") == 0;
}

rs_complete_kind rs_generate_word(const rs_command *c)
{
    for (int i = 0; i < RS_CMD_WORDS_MAX && (c->words[i].field || c->words[i].extra); i++) {
        if (c->words[i].field == RS_F_kernel) return RS_COMPLETE_CU;
        if (c->words[i].extra & (RS_X_REPLAY | RS_X_AGAINST)) return RS_COMPLETE_JSONL;
    }
    return RS_COMPLETE_NONE;
}
