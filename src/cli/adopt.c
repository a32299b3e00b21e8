/* ladder and sweep with --replay and no preset: the settings not given
 * are those of a configuration of that command in the recording that holds
 * the ones given, and its kernels where none is given, as the explorer
 * opens a recording: `ladder --replay FILE` shows the ladder FILE holds,
 * its kernels among its rows. A setting so taken is said on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "formats/record.h"

/* The configuration of command that holds every setting given (the first,
 * or the last where last): NULL where none does. */
static const rs_rec_config *matching(const rs_cli *cli, const char *command,
                                     const rs_field_id *match, size_t nmatch,
                                     const rs_rec_config *c, int n, int last, int both)
{
    for (int i = 0; i < n; i++) {
        const int k = last ? n - 1 - i : i;
        int ok = strcmp(c[k].command, command) == 0;
        for (size_t j = 0; ok && j < nmatch; j++) {
            char a[512], b[512];
            if (!cli->set[match[j]] || (both && match[j] == RS_F_cache)) continue;
            rs_field_format(&c[k].req, &rs_fields[match[j]], a, sizeof a);
            rs_field_format(&cli->req, &rs_fields[match[j]], b, sizeof b);
            ok = strcmp(a, b) == 0;
        }
        if (ok) return &c[k];
    }
    return NULL;
}

/* Whether two requests run the same steps (all of them, or the set named). */
static int same_steps(const rs_request *a, const rs_request *b)
{
    rs_variant va[RS_VARIANT_COUNT], vb[RS_VARIANT_COUNT];
    const int na = rs_request_variant_list(a, va, RS_VARIANT_COUNT);
    const int nb = rs_request_variant_list(b, vb, RS_VARIANT_COUNT);
    return na == nb && memcmp(va, vb, (size_t)na * sizeof *va) == 0;
}

/* The files of the kernels the configuration's rows ran, each once. */
static void adopt_kernels(rs_cli *cli, const rs_recording *rec, const rs_rec_config *c)
{
    static char paths[RS_UKERNEL_MAX_FILES][sizeof cli->req.kernel];
    if (cli->nkernels || cli->req.kernel[0]) return;
    if (cli->set[RS_F_variants] && !(cli->req.variants & RS_VARIANT_BIT(RS_V_KERNEL)))
        return; /* --variants named the steps, and no kernel among them */
    for (int i = c->first; i < c->first + c->count && i < rec->count; i++) {
        const rs_request *r = &rec->rows[i].result.req;
        int seen = r->variant != RS_V_KERNEL || !r->kernel[0];
        for (int j = 0; !seen && j < cli->nkernels; j++) seen = strcmp(paths[j], r->kernel) == 0;
        if (seen || cli->nkernels == RS_UKERNEL_MAX_FILES) continue;
        snprintf(paths[cli->nkernels], sizeof paths[0], "%s", r->kernel);
        cli->kernels[cli->nkernels] = paths[cli->nkernels];
        cli->nkernels++;
    }
    if (cli->nkernels) snprintf(cli->req.kernel, sizeof cli->req.kernel, "%s", paths[0]);
}

void rs_cli_adopt_recorded(rs_cli *cli, const char *command, const rs_field_id *match,
                           size_t nmatch, const rs_field_id *more, size_t nmore, int last,
                           int *both)
{
    rs_error err;
    const rs_recording *rec = cli->replay && !cli->preset ? rs_cli_replay_read(cli, &err) : NULL;
    if (!rec) return; /* not readable: the source says why */
    enum { MAXC = 64 };
    rs_rec_config *c = calloc(MAXC, sizeof *c);
    const int n = c ? rs_recording_configs(rec, c, MAXC) : 0;
    const rs_rec_config *found = matching(cli, command, match, nmatch, c, n, last, both && *both);
    /* the same configuration recorded in both cache states, one beside the
     * other: both are shown where the cache was not given, with the steps
     * of either (the cpu runs in one state alone) */
    const int other = found && both && (*both || !cli->set[RS_F_cache])
                          ? rs_rec_config_twin(c, n, (int)(found - c))
                          : -1;
    const int twin = other >= 0, adopt_both = twin && !*both;
    rs_rec_config joined;
    if (twin) {
        joined = *found;
        joined.req.variants |= c[other].req.variants;
        found = &joined;
    }
    char said[512] = "";
    size_t at = 0;
    for (size_t i = 0; found && i < nmatch + nmore; i++) {
        const rs_field_id id = i < nmatch ? match[i] : more[i - nmatch];
        char was[512], v[512];
        /* counters a recording holds show by themselves: the set is matched,
         * never taken */
        if (cli->set[id] || id == RS_F_metrics || (adopt_both && id == RS_F_cache)) continue;
        rs_field_format(&cli->req, &rs_fields[id], was, sizeof was);
        rs_field_format(&found->req, &rs_fields[id], v, sizeof v);
        const rs_request before = cli->req;
        if (strcmp(was, v) == 0 || rs_field_set(&cli->req, &rs_fields[id], v, &err) != RS_OK)
            continue; /* recorded, so valid; a value this build refuses stays as it was */
        if (id == RS_F_variants && same_steps(&before, &cli->req)) {
            cli->req = before; /* the recorded set is the one it runs anyway */
            continue;
        }
        if (at < sizeof said)
            at += (size_t)snprintf(said + at, sizeof said - at, "%s--%s %s", at ? " " : "",
                                   rs_fields[id].flag ? rs_fields[id].flag : rs_fields[id].key, v);
    }
    if (found && !cli->set[RS_F_gpus] && found->gpus != 1 && cli->req.gpus != found->gpus) {
        cli->req.gpus = found->gpus; /* its rows over the GPUs: 0, every one */
        if (at < sizeof said)
            at += (size_t)snprintf(said + at, sizeof said - at, "%s--gpus %u", at ? " " : "",
                                   found->gpus);
    }
    if (adopt_both && at < sizeof said) {
        *both = 1;
        at += (size_t)snprintf(said + at, sizeof said - at, "%s--cache both", at ? " " : "");
    }
    if (found) adopt_kernels(cli, rec, found);
    if (said[0])
        fprintf(stderr, "redscope: settings not given are the recorded %s's: %s\n", command, said);
    free(c);
}
