#include "why.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/reference.h"
#include "core/catalogue.h"
#include "formats/energy.h"
#include "core/format.h"
#include "formats/stalls_io.h"
#include "analysis/stories.h"

typedef struct sentences {
    char (*out)[256];
    int n, max;
    unsigned want, group; /* RS_WHY_* bits asked for; the group being told */
} sentences;

static void say(sentences *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(sentences *s, const char *fmt, ...)
{
    if (s->n >= s->max || !(s->want & s->group)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->out[s->n++], 256, fmt, ap);
    va_end(ap);
}

static int has(const rs_result *r, rs_metric_id m)
{
    return r && (r->metrics.valid & RS_METRIC_BIT(m));
}

static double val(const rs_result *r, rs_metric_id m)
{
    return r->metrics.value[m];
}

/* Bank conflicts and wavefronts are shown as loads plus stores. */
static int has_pair(const rs_result *r, rs_metric_id a, rs_metric_id b)
{
    return has(r, a) && has(r, b);
}

static double pair(const rs_result *r, rs_metric_id a, rs_metric_id b)
{
    return val(r, a) + val(r, b);
}

static void fmt_value(double v, const char *unit, char *buf, size_t len)
{
    if (strcmp(unit, "%") == 0)
        snprintf(buf, len, "%.1f%%", v);
    else if (strcmp(unit, "bytes") == 0)
        rs_fmt_bytes(v, buf, len);
    else if (strcmp(unit, "ns") == 0)
        rs_fmt_time(v / 1e6, rs_notation_utf8(), buf, len);
    else
        rs_fmt_count(v, buf, len);
}

void rs_why_change(double from, double to, const char *unit, char *buf, size_t len)
{
    char a[48], b[48];
    fmt_value(from, unit, a, sizeof a);
    fmt_value(to, unit, b, sizeof b);
    const char *arrow = rs_sym(RS_SYM_ARROW);
    if (from > 0.0 && to > 0.0 && strcmp(unit, "%") != 0) {
        char x[48];
        rs_fmt_change(from, to, 1, x, sizeof x);
        snprintf(buf, len, "%s %s %s (%s)", a, arrow, b, x);
    } else {
        snprintf(buf, len, "%s %s %s", a, arrow, b);
    }
}

static void tell_story(sentences *s, const rs_story *e, const rs_result *cur, const rs_result *base)
{
    const int paired = e->a != e->b;
    if (rs_story_dram_moot(cur, e->a)) return; /* warm within the L2: say_cache tells it */
    if (!(paired ? has_pair(cur, e->a, e->b) : has(cur, e->a))) return;
    if (!(paired ? has_pair(base, e->a, e->b) : has(base, e->a))) return;
    const double from = paired ? pair(base, e->a, e->b) : val(base, e->a);
    const double to = paired ? pair(cur, e->a, e->b) : val(cur, e->a);
    char change[128];
    const char *name = rs_metric_pair_label(e->a, e->b);
    rs_why_change(from, to, rs_metric_defs[e->a].unit, change, sizeof change);
    say(s, "%c%s %s%s", toupper((unsigned char)name[0]), name + 1, change, e->after);
    /* Where the counters contradict the textbook, say what they show. */
    const double ratio = from > 0.0 ? to / from : (to > 0.0 ? 2.0 : 1.0);
    const int fell = ratio<0.95, rose = ratio> 1.05;
    if ((e->direction < 0 && !fell) || (e->direction > 0 && !rose) ||
        (e->direction == 0 && (fell || rose))) { /* the figure is said above: its move only */
        const unsigned group = s->group;
        s->group = RS_WHY_CAVEAT;
        char moved[48] = "stayed within 5%";
        if (fell) snprintf(moved, sizeof moved, "fell %.1f%%", 100.0 * (1.0 - ratio));
        if (rose && ratio < 2.0)
            snprintf(moved, sizeof moved, "rose %.1f%%", 100.0 * (ratio - 1.0));
        if (rose && ratio >= 2.0) snprintf(moved, sizeof moved, "rose %.1f-fold", ratio);
        say(s, "The textbook expects %s to %s here; on this GPU they %s.", name,
            e->direction < 0   ? "fall"
            : e->direction > 0 ? "rise"
                               : "stay the same",
            moved);
        s->group = group;
    }
}

static void say_time(sentences *s, const rs_result *cur, const rs_result *base, const char *label)
{
    char bw[32];
    char a[32], b[32], x[32], peak[48] = "";
    const int utf8 = rs_notation_utf8();
    rs_fmt_time(cur->t_median_ms, utf8, b, sizeof b);
    if (cur->pct_peak > 0.0) snprintf(peak, sizeof peak, ", %.1f%% of peak", cur->pct_peak);
    if (base && base->t_median_ms > 0.0) {
        rs_fmt_time(base->t_median_ms, utf8, a, sizeof a);
        rs_fmt_ratio(base->t_median_ms / cur->t_median_ms, utf8, x, sizeof x);
        say(s, "Time %s %s %s: %s against %s; %s GB/s%s.", a, rs_sym(RS_SYM_ARROW), b, x, label,
            rs_fmt_gbps(cur->gbps, bw, sizeof bw), peak);
    } else {
        say(s, "Time %s: %s GB/s%s.", b, rs_fmt_gbps(cur->gbps, bw, sizeof bw), peak);
    }
}

/* What the cache state does to this run: warm, what the L2 held (the
 * DRAM's bytes and the L2's hits where counted), or that the input
 * outgrew it; and which steps warm helps. */
static void say_cache(sentences *s, const rs_result *cur)
{
    if (cur->req.cache != RS_CACHE_WARM || cur->req.variant == RS_V_CPU) return;
    char in[32], l2[32], dram[32];
    const double bytes = rs_result_input_bytes(cur);
    rs_fmt_bytes(bytes, in, sizeof in);
    rs_fmt_bytes((double)cur->device.l2_bytes, l2, sizeof l2);
    if (!rs_result_fits_l2(cur)) {
        if (cur->device.l2_bytes)
            say(s,
                "Warm, but the input (%s) outgrows the %s L2: it streams from DRAM as it "
                "does cold, and the DRAM read is its limit.",
                in, l2);
        return;
    }
    if (has(cur, RS_M_DRAM_READ) && bytes > 0.0) {
        rs_fmt_bytes(val(cur, RS_M_DRAM_READ), dram, sizeof dram);
        say(s,
            "Warm: the input (%s) was read into the %s L2 just before; this run read %s from "
            "DRAM (%.1f%% of it), the L2 served the rest.",
            in, l2, dram, 100.0 * val(cur, RS_M_DRAM_READ) / bytes);
    } else {
        say(s, "Warm: the input (%s) was read into the %s L2 just before each run.", in, l2);
    }
    if (has(cur, RS_M_L2_HIT_RATE))
        say(s, "The L2 held %.1f%% of the sectors the kernels read.", val(cur, RS_M_L2_HIT_RATE));
    say(s, "Warm helps a step as far as DRAM limited it: the first steps wait on instructions "
           "and shared memory and gain little; from first_add on they wait on global loads and "
           "gain most, until the launch and the finish are what is left.");
}

static void say_correctness(sentences *s, const rs_result *cur)
{
    if (cur->correct) return;
    char got[64], exp[64];
    rs_value_format(&cur->got, got, sizeof got);
    rs_value_format(&cur->expected, exp, sizeof exp);
    say(s, "WRONG in %u of %u repetitions: got %s, expected %s.", cur->bad_reps, cur->reps, got,
        exp);
    const char *reason = rs_wrong_reason(cur);
    if (reason) say(s, "Why: %s.", reason);
}

/* Where the counter the ladder's column names moves against the time, why
 * (issue 40: atomic's idle DRAM beside its wait on loads; interleaved
 * faster than atomic with many more instructions). */
static void say_against_time(sentences *s, const rs_result *cur, const rs_result *base)
{
    const rs_variant v = cur->req.variant;
    if (v == RS_V_ATOMIC && has(cur, RS_M_DRAM_PCT))
        say(s,
            "One atomic per element, bound by the atomic unit of one address, which takes one "
            "update after another: DRAM throughput is %.0f%%, the DRAM mostly idle.",
            val(cur, RS_M_DRAM_PCT));
    if (v == RS_V_ATOMIC && rs_result_stalls(cur)->total)
        say(s, "The stall view puts the wait on the loads of in[]: they queue behind the atomic "
               "updates ahead of them on the way to L2, so few are in flight.");
    if (v == RS_V_INTERLEAVED && base && base->req.variant == RS_V_ATOMIC &&
        has(cur, RS_M_WARP_INST) && has(base, RS_M_WARP_INST) && val(base, RS_M_WARP_INST) > 0.0 &&
        val(cur, RS_M_WARP_INST) > val(base, RS_M_WARP_INST) && cur->t_median_ms > 0.0 &&
        base->t_median_ms > cur->t_median_ms) {
        char more[32], faster[32];
        const int utf8 = rs_notation_utf8();
        rs_fmt_ratio(val(cur, RS_M_WARP_INST) / val(base, RS_M_WARP_INST), utf8, more, sizeof more);
        rs_fmt_ratio(base->t_median_ms / cur->t_median_ms, utf8, faster, sizeof faster);
        say(s,
            "That is %s the warp instructions of atomic, and still %s faster: atomic waited on "
            "one address's atomic unit, not on issuing instructions, and the tree's instructions "
            "run on every SM at once.",
            more, faster);
    }
}

/* The library steps and the last own step against the measured ceiling
 * of their cache state (of all G GPUs' reads over several). */
static void say_ceiling(sentences *s, const rs_result *cur)
{
    const rs_variant v = cur->req.variant;
    const int g = cur->multi.gpus > 1 ? cur->multi.gpus : 1;
    double ceil = 0.0;
    const rs_ceiling c = rs_result_ceiling(cur, &ceil);
    const char *plain = c == RS_CEIL_L2 ? "plain read of data in the L2" : "plain streaming read";
    const double pct = rs_result_pct_ceiling(cur);
    if ((v == RS_V_VECTORIZED || v == RS_V_CUB || v == RS_V_THRUST) && pct > 0.0 && g == 1)
        say(s, "%.0f GB/s is %.0f%% of the %.0f GB/s a %s reaches here.", cur->gbps, pct, ceil,
            plain);
    else if ((v == RS_V_VECTORIZED || v == RS_V_CUB) && pct > 0.0)
        say(s,
            "%.0f GB/s is %.0f%% of the %.0f GB/s that %d GPUs' %ss reach together (%.0f GB/s "
            "each).",
            cur->gbps, pct, ceil, g, plain, ceil / g);
}

static void say_special(sentences *s, const rs_result *cur, const rs_result *base)
{
    const rs_variant v = cur->req.variant;
    if (v == RS_V_INTERLEAVED && has(cur, RS_M_WARP_INST)) {
        char w[32];
        rs_fmt_count(val(cur, RS_M_WARP_INST), w, sizeof w);
        if (has(cur, RS_M_LANES_PRED_ON))
            say(s,
                "Warp instructions %s, %.1f of 32 lanes doing useful work per instruction: "
                "every warp stays busy to the last level.",
                w, val(cur, RS_M_LANES_PRED_ON));
        else
            say(s, "Warp instructions %s: every warp stays busy to the last level.", w);
    }
    if (v == RS_V_INTERLEAVED && has(cur, RS_M_DIVERGENT_BRANCHES)) {
        if (val(cur, RS_M_DIVERGENT_BRANCHES) == 0.0)
            say(s, "The counters show 0 divergent branches: the compiler predicates the "
                   "tid %% (2*s) test, so its cost shows as extra instructions, not as "
                   "divergence.");
        else
            say(s, "Divergent branches: %.0f.", val(cur, RS_M_DIVERGENT_BRANCHES));
    }
    say_ceiling(s, cur);
    if (v == RS_V_THRUST && has(cur, RS_M_DURATION) && cur->t_median_ms > 0.0) {
        char k[32], t[32], rest[32];
        const double kernel_ms = val(cur, RS_M_DURATION) / 1e6;
        const int utf8 = rs_notation_utf8();
        rs_fmt_time(kernel_ms, utf8, k, sizeof k);
        rs_fmt_time(cur->t_median_ms, utf8, t, sizeof t);
        rs_fmt_time(cur->t_median_ms - kernel_ms, utf8, rest, sizeof rest);
        if (kernel_ms < cur->t_median_ms)
            say(s,
                "Its kernels run %s of the %s measured (kernel time, from the counters); the "
                "other %s is thrust's own work around them: the temporary memory and the copy "
                "of the result back.",
                k, t, rest);
    }
    if (rs_result_chose_block(cur)) {
        const int ticket = cur->finish == RS_FINISH_SINGLE_PASS;
        say(s,
            "It chose its own launch, %u blocks of %u threads (you asked for %u): %s "
            "(--grid or --ept keeps your blockDim).",
            cur->grid, rs_result_block(cur), cur->req.block,
            cur->grid == 1 ? (ticket ? "one block (k_vectorized_one) issues every load before "
                                       "using any, so it waits for DRAM once, and takes no ticket"
                                     : "one block (k_vectorized_one) issues every load before "
                                       "using any, so it waits for DRAM once")
            : rs_result_block(cur) >= 1024
                ? (ticket ? "the fewest blocks that fill every SM, so few take the last-block "
                            "ticket"
                          : "the fewest blocks that fill every SM")
                : "enough blocks of 512 to spread this n over the SMs");
    }
    char bw[32];
    if (v == RS_V_ATOMIC && !has(cur, RS_M_DRAM_PCT))
        say(s, "One atomic per element: %s GB/s, bound by the atomic unit of one address.",
            rs_fmt_gbps(cur->gbps, bw, sizeof bw));
    if (v == RS_V_CPU)
        say(s, "One host thread reads %s GB/s.", rs_fmt_gbps(cur->gbps, bw, sizeof bw));
    say_against_time(s, cur, base);
}

int rs_why_key_metrics(rs_variant v, rs_metric_id *out, int max)
{
    int n = 0;
    for (int i = 0; i < rs_story_count && n + 2 <= max; i++) {
        if (rs_stories[i].v != v) continue;
        out[n++] = rs_stories[i].a;
        if (rs_stories[i].b != rs_stories[i].a) out[n++] = rs_stories[i].b;
    }
    if (v == RS_V_INTERLEAVED && n + 3 <= max) {
        out[n++] = RS_M_WARP_INST;
        out[n++] = RS_M_LANES_PRED_ON;
        out[n++] = RS_M_DIVERGENT_BRANCHES;
    }
    return n;
}

/* Where the warps waited, from the run's PC samples. */
static void say_stalls(sentences *s, const rs_result *cur)
{
    char hot[300], waits[300];
    rs_stalls_hot_words(rs_result_stalls(cur), hot, sizeof hot);
    rs_stalls_wait_words(rs_result_stalls(cur), waits, sizeof waits);
    if (hot[0])
        say(s, "PC sampling: %s.", hot);
    else if (rs_result_stalls(cur)->requested && rs_result_stalls(cur)->why[0])
        say(s, "No stall view: %s.", rs_result_stalls(cur)->why);
    if (waits[0]) say(s, "%s.", waits);
}

/* A run over several GPUs: which part of the time dominates, the GPUs'
 * own reductions or combining their partials. */
static void say_gpus(sentences *s, const rs_result *cur)
{
    const rs_multi_result *m = &cur->multi;
    if (m->gpus < 2 || !(cur->t_median_ms > 0.0)) return;
    char g[32], f[32];
    const int utf8 = rs_notation_utf8();
    rs_fmt_time(m->shard_ms, utf8, g, sizeof g);
    rs_fmt_time(m->finish_ms, utf8, f, sizeof f);
    const double share = 100.0 * m->finish_ms / cur->t_median_ms;
    say(s,
        "Over %d GPUs: the slowest GPU reduced its share in %s; combining the %d partials "
        "(%s) took %s, %.0f%% of the whole.",
        m->gpus, g, m->gpus, rs_cross_name(m->cross), f, share);
    if (share >= 50.0)
        say(s, "The finish dominates: each GPU's work is short at this n, and the copies, the "
               "waits between GPUs and the launches cost more. A larger n pays them off.");
    else if (share <= 10.0)
        say(s,
            "Each GPU's own reduction dominates: only %d values cross %s, so the time is the "
            "slowest GPU reading its share from memory.",
            m->gpus, m->links[0] ? m->links : "the links");
    if (cur->metrics.valid)
        say(s, "The counters panel shows GPU 0's, for its share; each GPU's are in the run "
               "table and the JSON.");
}

/* Energy, where measured (--energy, E): per reduction and per GB, the
 * board's power, and against the base what energy did beside time. */
static void say_energy(sentences *s, const rs_result *cur, const rs_result *base, const char *label)
{
    const rs_energy *e = &cur->energy;
    if (!e->requested || cur->req.variant == RS_V_CPU) return;
    if (!e->valid) {
        say(s, "Energy was not measured: %s.", e->note);
        return;
    }
    const int utf8 = rs_notation_utf8();
    char j[32], g[32], w[32];
    rs_fmt_energy(e->joules, utf8, j, sizeof j);
    rs_fmt_j_per_gb(e->j_per_gb, g, sizeof g);
    rs_fmt_time(e->window_ms, utf8, w, sizeof w);
    say(s,
        "Energy %s per reduction, %s J per GB read: the board drew %.0f W (idle %.0f W) over "
        "%s of it back to back.",
        j, g, e->watts, e->idle_watts, w);
    const rs_energy *b = base ? &base->energy : NULL;
    if (!b || !b->valid || !(e->rep_ms > 0.0) || !(e->joules > 0.0)) return;
    char was[32], dj[32], dt[32];
    rs_fmt_j_per_gb(b->j_per_gb, was, sizeof was);
    rs_fmt_change(b->j_per_gb, e->j_per_gb, 1, dj, sizeof dj);
    rs_fmt_change(b->rep_ms, e->rep_ms, 1, dt, sizeof dt);
    /* a pinned result of the other cache state: energy per GB warm against cold */
    const char *state = base->req.cache != cur->req.cache ? rs_cache_name(base->req.cache) : "";
    say(s, "Against %s%s%s: J/GB %s %s %s (%s), time %s, power %.0f W %s %.0f W.", label,
        *state ? ", " : "", state, was, rs_sym(RS_SYM_ARROW), g, dj, dt, b->watts,
        rs_sym(RS_SYM_ARROW), e->watts);
    if (*state && cur->req.cache == RS_CACHE_WARM && e->j_per_gb < b->j_per_gb)
        say(s, "Warm, the DRAM reads the cold run paid for are gone from the bill.");
    const double power = e->watts / b->watts, energy = e->joules / b->joules;
    if (power > 1.05 && energy < 0.95)
        say(s, "It draws more power, for so much less time that each reduction costs less: "
               "energy follows time here, not power.");
    else if (power < 0.95 && energy > 1.05)
        say(s, "It draws less power, but runs so much longer that each reduction costs more.");
}

/* The step a story is told against: the ladder's step before v. */
static rs_variant ui_story_base(rs_variant v)
{
    return v > 0 ? (rs_variant)(v - 1) : v;
}

int rs_why_some(const rs_result *cur, const rs_result *base, const char *base_label,
                const char *no_counters, unsigned which, char (*out)[256], int max)
{
    sentences s = {out, 0, max, which, RS_WHY_CAVEAT};
    const char *label = base_label ? base_label : "the baseline";
    say_correctness(&s, cur);
    s.group = RS_WHY_TIME;
    say_time(&s, cur, base, label);
    say_cache(&s, cur);
    s.group = RS_WHY_STORY;
    say_special(&s, cur, base);
    /* a step's story is what it changes from the step before: told against
     * that step alone (against a pinned multi_element, unroll_warp_volatile's
     * "instructions fall" would read as the textbook being wrong) */
    const int story = base && base->req.variant == ui_story_base(cur->req.variant);
    for (int i = 0; story && i < rs_story_count; i++)
        if (rs_stories[i].v == cur->req.variant) tell_story(&s, &rs_stories[i], cur, base);
    say_gpus(&s, cur);
    if (!cur->metrics.valid && cur->req.variant != RS_V_CPU)
        say(&s,
            "Counters were not collected (%s): the story above is the textbook's; the "
            "times are measured.",
            cur->metrics.requested ? cur->metrics.reason
            : no_counters          ? no_counters
                                   : "none asked for");
    s.group = RS_WHY_STALLS;
    say_stalls(&s, cur);
    s.group = RS_WHY_ENERGY;
    say_energy(&s, cur, base, label);
    return s.n;
}

int rs_why_measured(const rs_result *cur, const rs_result *base, const char *base_label,
                    const char *no_counters, char (*out)[256], int max)
{
    return rs_why_some(cur, base, base_label, no_counters, RS_WHY_ALL, out, max);
}
