/* redscope allreduce's results written out (the JSON is allreduce_file.c's):
 * the table with each algorithm's crossover, the CSV (docs/formats.md), and
 * the chart's data and its size axis. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "allreduce_file.h"
#include "analysis/multi.h"
#include "core/format.h"
#include "export.h"
#include "files.h"

/* The bandwidth a chart and the crossovers read: busbw, as nccl-tests
 * reports it; on one GPU that is 0 by its definition (2(G-1)/G: nothing
 * crosses between GPUs), so algbw there. */
double rs_ar_shown_bw(const rs_ar_record *r, const rs_ar_point *p)
{
    return r->gpus > 1 ? p->busbw : p->algbw;
}

const char *rs_ar_shown_bw_name(const rs_ar_record *r)
{
    return r->gpus > 1 ? "busbw" : "algbw";
}

/* Each algorithm's crossover, when it has three sizes or more. */
static void print_crossovers(FILE *f, const rs_ar_record *r)
{
    const char *bwn = rs_ar_shown_bw_name(r);
    if (r->gpus <= 1 && r->npoints)
        fprintf(f,
                "on one GPU busbw is 0 by its definition (%s 2(G-1)/G): nothing crosses between "
                "GPUs; what follows reads algbw\n",
                rs_sym(RS_SYM_TIMES));
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
        double b[MAX_POINTS], us[MAX_POINTS], bw[MAX_POINTS], lat, band;
        int n = 0;
        for (int i = 0; i < r->npoints; i++)
            if (r->p[i].algo == (rs_ar_algo)a)
                b[n] = (double)r->p[i].bytes, us[n] = r->p[i].us,
                bw[n++] = rs_ar_shown_bw(r, &r->p[i]);
        const int kind = rs_ar_crossover(b, us, bw, n, &lat, &band);
        if (!kind) continue;
        char l[32], h[32], t0[32];
        rs_fmt_binary(lat, l, sizeof l);
        rs_fmt_binary(band, h, sizeof h);
        rs_fmt_time(us[0] / 1000.0, rs_notation_utf8(), t0, sizeof t0);
        const char *name = rs_ar_algo_name((rs_ar_algo)a), *x = rs_sym(RS_SYM_TIMES);
        if (kind == RS_AR_ALL_LATENCY)
            fprintf(f,
                    "%s: latency-bound over the whole range (every time within 2%s of the "
                    "smallest size's %s): larger sizes find where the links take over\n",
                    name, x, t0);
        else if (kind == RS_AR_ALL_BANDWIDTH)
            fprintf(f,
                    "%s: bandwidth-bound over the whole range (%s at half the range's best or "
                    "more from %s, the smallest size): smaller sizes find the latency-bound ones\n",
                    name, bwn, h);
        else
            fprintf(f,
                    "%s: latency-bound up to %s (within 2%s of the smallest size's %s), "
                    "bandwidth-bound from %s (%s at half the range's best or more)\n",
                    name, l, x, t0, h, bwn);
    }
}

/* One point's row: NVLink's column where nvl, nccl-tests' where nt. */
static void print_point(FILE *f, const rs_ar_point *p, int nvl, int nt)
{
    char size[32], count[32], t[32], pad[48]; /* times padded by columns: "µs" is two bytes */
    char alg[32], bus[32];
    rs_fmt_binary((double)p->bytes, size, sizeof size);
    rs_fmt_count((double)p->n, count, sizeof count);
    rs_fmt_time(p->us / 1000.0, rs_notation_utf8(), t, sizeof t);
    fprintf(f, "%-10s %10s %13s %s %7s GB/s %7s GB/s  %-7s", rs_ar_algo_name(p->algo), size, count,
            rs_pad(t, 10, 1, pad, sizeof pad), rs_fmt_gbps(p->algbw, alg, sizeof alg),
            rs_fmt_gbps(p->busbw, bus, sizeof bus), p->wrong ? "NO" : "yes");
    if (nvl) {
        rs_fmt_binary(p->nvl_tx, size, sizeof size);
        fprintf(f, "  %10s", p->nvl_valid ? size : "-");
    }
    if (p->nt_us > 0) {
        rs_fmt_time(p->nt_us / 1000.0, rs_notation_utf8(), t, sizeof t);
        fprintf(f, "  %s %7s GB/s", rs_pad(t, 16, 1, pad, sizeof pad),
                rs_fmt_gbps(p->nt_busbw, bus, sizeof bus));
    }
    fprintf(f, nt && !(p->nt_us > 0) && p->algo != RS_AR_PEER_RING ? "  -\n" : "\n");
    if (p->wrong) fprintf(f, "%36s%llu elements wrong\n", "", (unsigned long long)p->wrong);
}

void rs_ar_print_table(FILE *f, const rs_ar_record *r)
{
    fprintf(f,
            "all-reduce over %d GPU%s (%s), %s %s, out of place, time the mean of %u reps after %u "
            "warm-up",
            r->gpus, r->gpus == 1 ? "" : "s", r->device.name, rs_dtype_name(r->type),
            rs_op_name(r->op), r->reps, r->warmup);
    if (r->nccl_version)
        fprintf(f, ", NCCL %d.%d.%d", r->nccl_version / 10000, r->nccl_version / 100 % 100,
                r->nccl_version % 100);
    if (r->links[0]) fprintf(f, "\nlinks: %s", r->links);
    int nt = 0, nvl = 0; /* nccl-tests beside, NVLink's bytes: their columns */
    for (int i = 0; i < r->npoints; i++) {
        nt |= r->p[i].nt_us > 0;
        nvl |= r->p[i].nvl_valid;
    }
    fprintf(f, "\n%-10s %10s %13s %10s %12s %12s  %-7s%s%s\n", "algo", "size", "n", "time", "algbw",
            "busbw", "correct", nvl ? "  NVLink out" : "",
            nt ? "  nccl-tests: time        busbw" : "");
    for (int i = 0; i < r->npoints; i++) print_point(f, &r->p[i], nvl, nt);
    if (nvl)
        fprintf(f, "NVLink out: the bytes each GPU sent over its NVLinks per all-reduce (NVML's "
                   "counters; a ring sends 2(G-1)/G of the size)\n");
    print_crossovers(f, r);
}

void rs_ar_print_csv(FILE *f, const rs_ar_record *r)
{
    fprintf(f, "gpus,type,op,algo,bytes,n,time_mean_ms,algbw_gbps,busbw_gbps,wrong,"
               "nccl_tests_time_ms,nccl_tests_busbw_gbps,nvlink_tx_bytes,nvlink_rx_bytes\n");
    for (int i = 0; i < r->npoints; i++) {
        const rs_ar_point *p = &r->p[i];
        fprintf(f, "%d,%s,%s,%s,%llu,%llu", r->gpus, rs_dtype_name(r->type), rs_op_name(r->op),
                rs_ar_algo_name(p->algo), (unsigned long long)p->bytes, (unsigned long long)p->n);
        const double figs[] = {p->us / 1000.0, p->algbw, p->busbw}; /* docs/formats.md: %.6g */
        for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
            fputc(',', f);
            rs_csv_num(f, figs[k]);
        }
        fprintf(f, ",%llu,", (unsigned long long)p->wrong);
        if (p->nt_us > 0) {
            rs_csv_num(f, p->nt_us / 1000.0);
            fputc(',', f);
            rs_csv_num(f, p->nt_busbw);
        } else {
            fputc(',', f);
        }
        if (p->nvl_valid)
            fprintf(f, ",%.0f,%.0f\n", p->nvl_tx, p->nvl_rx);
        else
            fprintf(f, ",,\n");
    }
}

/* The chart's data: bytes per GPU, then each algorithm's busbw (empty
 * where it has no point at that size). */
int rs_ar_chart_csv(const rs_ar_record *r, const char *csv, int *columns)
{
    rs_outfile out;
    rs_error err;
    if (rs_out_open(&out, "chart's data", csv, &err) != RS_OK) return 0;
    FILE *f = out.f;
    unsigned algos = 0;
    for (int i = 0; i < r->npoints; i++) algos |= 1u << r->p[i].algo;
    fprintf(f, "bytes");
    *columns = 0;
    for (int a = 0; a < RS_AR_ALGO_COUNT; a++)
        if (algos & (1u << a)) fprintf(f, ",%s", rs_ar_algo_name((rs_ar_algo)a)), ++*columns;
    fprintf(f, "\n");
    uint64_t last = 0;
    for (;;) { /* each size once, ascending */
        uint64_t next = UINT64_MAX;
        for (int i = 0; i < r->npoints; i++)
            if (r->p[i].bytes > last && r->p[i].bytes < next) next = r->p[i].bytes;
        if (next == UINT64_MAX) break;
        fprintf(f, "%llu", (unsigned long long)next);
        for (int a = 0; a < RS_AR_ALGO_COUNT; a++) {
            if (!(algos & (1u << a))) continue;
            fprintf(f, ",");
            for (int i = 0; i < r->npoints; i++)
                if (r->p[i].algo == (rs_ar_algo)a && r->p[i].bytes == next)
                    fprintf(f, "%.6g", rs_ar_shown_bw(r, &r->p[i]));
        }
        fprintf(f, "\n");
        last = next;
    }
    return rs_out_commit(&out, &err) == RS_OK;
}

/* The size axis's ticks, named as the tables name sizes ("1 KiB", not
 * gnuplot's "1 kiB"): powers of 2 over the points' range, at most 12. */
void rs_ar_size_tics(const rs_ar_record *r, char *buf, size_t len)
{
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i < r->npoints; i++) {
        const double b = (double)r->p[i].bytes;
        if (b > 0 && (lo == 0.0 || b < lo)) lo = b;
        if (b > hi) hi = b;
    }
    size_t at = (size_t)snprintf(buf, len, "set xtics (");
    int step = 1; /* in powers of 2 */
    while (lo > 0.0 && log2(hi / lo) / step > 11.0) step++;
    for (double b = lo; lo > 0.0 && b <= hi * 1.0001 && at < len; b *= pow(2.0, step)) {
        char name[32];
        rs_fmt_binary(b, name, sizeof name);
        at += (size_t)snprintf(buf + at, len - at, "%s'%s' %.17g", b > lo ? ", " : "", name, b);
    }
    if (at < len) at += (size_t)snprintf(buf + at, len - at, ")\n");
    if (!(lo > 0.0) || at >= len) snprintf(buf, len, "\n"); /* cut: gnuplot's own ticks */
}
