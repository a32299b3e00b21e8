/* redscope allreduce's writers (formats/allreduce_out.c) on records built
 * here, over 2 GPUs and over 1: the CSV's header is the one
 * docs/formats.md documents and every row has its columns, times in ms,
 * nccl-tests' and NVLink's cells empty where they were not measured; the
 * table names the run and each algorithm's crossover, which on one GPU
 * reads algbw (busbw is 0 there by its definition); the chart's data holds
 * bytes, then an algorithm a column; the size axis names sizes as tables
 * do and never writes past its buffer; an empty record writes headers. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "formats/allreduce_file.h"
#include "formats/export.h"
#include "read_file.h"

static rs_ar_record two, one, none;

/* bytes, and the time of each algorithm there (0: no point) */
static const struct {
    uint64_t bytes;
    double nccl_us, ring_us;
} sizes[] = {
    {1024, 20.0, 22.0},
    {65536, 21.0, 23.1},
    {4194304, 60.0, 66.0},
    {268435456, 2700.0, 0.0},
};

static rs_ar_point point(const rs_ar_record *r, rs_ar_algo algo, uint64_t bytes, double us)
{
    const double alg = (double)bytes / (us * 1e3);
    /* busbw apart from algbw, even over 2 GPUs where 2(G-1)/G is 1, so
     * that what is shown tells which one it is */
    return (rs_ar_point){.n = bytes / 4,
                         .bytes = bytes,
                         .algo = algo,
                         .us = us,
                         .algbw = alg,
                         .busbw = r->gpus > 1 ? 0.9 * alg : 0.0};
}

/* nccl at 4 sizes with nccl-tests beside it and NVLink's bytes at the
 * largest; a second algorithm at 3 sizes (one answer wrong), neither. */
static void build(rs_ar_record *r, int gpus, rs_ar_algo second)
{
    memset(r, 0, sizeof *r);
    r->gpus = gpus;
    r->nccl_version = 22803;
    snprintf(r->device.name, sizeof r->device.name, "%s",
             gpus > 1 ? "NVIDIA H200" : "NVIDIA H100 80GB HBM3");
    snprintf(r->links, sizeof r->links, "%s", gpus > 1 ? "GPU0-GPU1 NVLink x18" : "");
    r->type = gpus > 1 ? RS_FLOAT32 : RS_INT32;
    r->op = RS_SUM;
    r->warmup = 3;
    r->reps = 20;
    const int count = (int)(sizeof sizes / sizeof *sizes);
    for (int i = 0; i < count; i++) {
        rs_ar_point p = point(r, RS_AR_NCCL, sizes[i].bytes, sizes[i].nccl_us);
        p.nt_us = 0.95 * p.us;
        p.nt_busbw = 1.05 * p.busbw;
        if (i == count - 1) p.nvl_valid = 1, p.nvl_tx = 268435456.0, p.nvl_rx = 268435456.0;
        r->p[r->npoints++] = p;
    }
    for (int i = 0; i < count; i++)
        if (sizes[i].ring_us > 0)
            r->p[r->npoints++] = point(r, second, sizes[i].bytes, sizes[i].ring_us);
    r->p[count].wrong = 3;
}

/* What fn wrote of r, in a buffer to free. */
static char *written(void (*fn)(FILE *, const rs_ar_record *), const rs_ar_record *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fn(f, r);
    fclose(f);
    return buf;
}

/* The CSV header docs/formats.md gives under "### CSV: allreduce": the
 * first cell of each row of its table, joined by commas. */
static void documented(const char *doc, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(doc, "r");
    CHECK_MSG(f != NULL, "cannot read %s", doc);
    char line[1024];
    int in = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!in) {
            in = strcmp(line, "### CSV: allreduce\n") == 0;
            continue;
        }
        if (line[0] == '#') break; /* the next section */
        char *a = strncmp(line, "| `", 3) == 0 ? line + 3 : NULL, *b = a ? strchr(a, '`') : NULL;
        if (!b) continue;
        snprintf(out + strlen(out), len - strlen(out), "%s%.*s", out[0] ? "," : "", (int)(b - a),
                 a);
    }
    if (f) fclose(f);
}

/* Cell k (from 0) of a CSV line, into cell; the line's cell count. */
static int cell(const char *line, int k, char *out, size_t len)
{
    int n = 0;
    out[0] = '\0';
    for (const char *s = line;; n++) {
        const size_t w = strcspn(s, ",\n");
        if (n == k) snprintf(out, len, "%.*s", (int)w, s);
        if (s[w] != ',') return n + 1;
        s += w + 1;
    }
}

/* Line k (from 0) of text, without its newline. */
static const char *line_of(const char *text, int k, char *out, size_t len)
{
    for (; k > 0 && text; k--) text = strchr(text, '\n'), text = text ? text + 1 : NULL;
    snprintf(out, len, "%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
    return out;
}

static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++) n += *text == '\n';
    return n;
}

/* Cell k of row `row` (1: the first after the header) is want. */
#define CHECK_CELL(csv, row, k, want)                                                              \
    do {                                                                                           \
        char l_[512], c_[64];                                                                      \
        cell(line_of((csv), (row), l_, sizeof l_), (k), c_, sizeof c_);                            \
        CHECK_MSG(strcmp(c_, (want)) == 0, "row %d cell %d: '%s', not '%s'", (row), (k), c_,       \
                  (want));                                                                         \
    } while (0)

static void csv(const char *doc)
{
    char header[1024], l[512], c[64];
    documented(doc, header, sizeof header);
    CHECK_MSG(rs_csv_cells(header) == 14, "docs/formats.md: '%s'", header);
    char *text = written(rs_ar_print_csv, &two);
    CHECK_STR_EQ(line_of(text, 0, l, sizeof l), header);
    CHECK_MSG(lines(text) == 1 + two.npoints, "%d lines", lines(text));
    for (int i = 1; i <= two.npoints; i++)
        CHECK_MSG(cell(line_of(text, i, l, sizeof l), 0, c, sizeof c) == rs_csv_cells(header),
                  "row %d: '%s'", i, l);
    /* the first: nccl at 1 KiB in 20 µs, nccl-tests beside it */
    CHECK_STR_EQ(line_of(text, 1, l, sizeof l),
                 "2,float32,sum,nccl,1024,256,0.02,0.0512,0.04608,0,0.019,0.048384,,");
    CHECK_CELL(text, 4, 6, "2.7");        /* 2700 µs: in ms */
    CHECK_CELL(text, 4, 12, "268435456"); /* NVLink's bytes out */
    CHECK_CELL(text, 4, 13, "268435456"); /* and in */
    CHECK_CELL(text, 5, 3, "ring");       /* no nccl-tests, no NVLink: empty */
    CHECK_CELL(text, 5, 9, "3");          /* wrong */
    for (int k = 10; k < 14; k++) CHECK_CELL(text, 5, k, "");
    CHECK_CELL(text, 7, 6, "0.066");
    free(text);
    /* one GPU: busbw 0, as recorded */
    text = written(rs_ar_print_csv, &one);
    CHECK_STR_EQ(line_of(text, 0, l, sizeof l), header);
    CHECK_CELL(text, 1, 0, "1");
    CHECK_CELL(text, 1, 1, "int32");
    CHECK_CELL(text, 1, 8, "0");
    CHECK_CELL(text, 5, 3, "peer_ring");
    free(text);
}

static void table_two(void)
{
    char *t = written(rs_ar_print_table, &two);
    printf("%s", t);
    CHECK_STR_CONTAINS(t, "all-reduce over 2 GPUs (NVIDIA H200), float32 sum, out of place, time "
                          "the mean of 20 reps after 3 warm-up, NCCL 2.28.3\n");
    CHECK_STR_CONTAINS(t, "links: GPU0-GPU1 NVLink x18\n");
    CHECK_STR_CONTAINS(t, "NVLink out");
    CHECK_STR_CONTAINS(t, "nccl-tests: time");
    CHECK_STR_CONTAINS(t, "20.0 us");
    CHECK_STR_CONTAINS(t, "2.70 ms");
    CHECK_STR_CONTAINS(t, "256 MiB");
    CHECK_STR_CONTAINS(t, "3 elements wrong");
    CHECK(strstr(t, "busbw is 0") == NULL);
    /* 4 MiB reaches half the best busbw; 64 KiB is within 2x of 1 KiB's time */
    CHECK_STR_CONTAINS(t, "nccl: latency-bound up to 64 KiB (within 2x of the smallest size's "
                          "20.0 us), bandwidth-bound from 4 MiB (busbw at half");
    CHECK_STR_CONTAINS(t, "ring: latency-bound up to 64 KiB");
    free(t);
}

static void table_one(void)
{
    char *t = written(rs_ar_print_table, &one);
    printf("%s", t);
    CHECK_STR_CONTAINS(t, "all-reduce over 1 GPU (NVIDIA H100 80GB HBM3), int32 sum");
    CHECK(strstr(t, "links:") == NULL);
    CHECK_STR_CONTAINS(t, "on one GPU busbw is 0 by its definition");
    CHECK_STR_CONTAINS(t, "what follows reads algbw");
    CHECK_STR_CONTAINS(t, "bandwidth-bound from 4 MiB (algbw at half");
    CHECK(strstr(t, "(busbw at half") == NULL);
    CHECK_STR_CONTAINS(t, "peer_ring: latency-bound up to 64 KiB");
    free(t);
}

static void shown(void)
{
    const rs_ar_point p = {.algbw = 10.0, .busbw = 15.0};
    CHECK(rs_ar_shown_bw(&two, &p) == 15.0);
    CHECK(rs_ar_shown_bw(&one, &p) == 10.0);
    CHECK_STR_EQ(rs_ar_shown_bw_name(&two), "busbw");
    CHECK_STR_EQ(rs_ar_shown_bw_name(&one), "algbw");
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The ticks rs_ar_size_tics names: its quoted names. */
static int ticks(const char *s)
{
    int q = 0;
    for (; *s; s++) q += *s == '\'';
    return q / 2;
}

static void tics(void)
{
    static rs_ar_record r;
    char buf[2048];
    memset(&r, 0, sizeof r);
    r.gpus = 2;
    for (uint64_t b = 1024; b <= 1048576; b *= 2) r.p[r.npoints++].bytes = b;
    rs_ar_size_tics(&r, buf, sizeof buf);
    CHECK_MSG(starts(buf, "set xtics ('1 KiB' 1024, '2 KiB' 2048, '4 KiB' 4096"), "%s", buf);
    CHECK_STR_CONTAINS(buf, ", '1 MiB' 1048576)\n");
    CHECK_MSG(ticks(buf) == 11, "%s", buf);
    rs_ar_size_tics(&two, buf, sizeof buf); /* 2^10..2^28: every other power */
    CHECK_MSG(starts(buf, "set xtics ('1 KiB' 1024, '4 KiB' 4096"), "%s", buf);
    CHECK_STR_CONTAINS(buf, "'256 MiB' 268435456)\n");
    /* 1 B to 2^63 B: at most 12 ticks, and in a buffer of any size no byte
     * past its end, the text ended */
    r.npoints = 0;
    r.p[r.npoints++].bytes = 1;
    r.p[r.npoints++].bytes = (uint64_t)1 << 63;
    rs_ar_size_tics(&r, buf, sizeof buf);
    CHECK_MSG(ticks(buf) >= 2 && ticks(buf) <= 12, "%s", buf);
    CHECK_STR_CONTAINS(buf, "'1 B' 1");
    for (size_t len = 1; len < 400; len++) {
        char small[400 + 16];
        memset(small, '#', sizeof small);
        rs_ar_size_tics(&r, small, len);
        CHECK_MSG(memchr(small, '\0', len) != NULL, "len %zu: not ended", len);
        const size_t got = strnlen(small, len); /* a whole command, or none: gnuplot's ticks */
        CHECK_MSG((len < 2 && got == 0) || strcmp(small, "\n") == 0 ||
                      (got >= 3 && strcmp(small + got - 2, ")\n") == 0),
                  "len %zu: a cut command: %s", len, small);
        int past = 0;
        for (size_t i = len; i < sizeof small; i++) past |= small[i] != '#';
        CHECK_MSG(!past, "len %zu: written past the buffer", len);
    }
    rs_ar_size_tics(&none, buf, sizeof buf); /* no points: no ticks */
    CHECK_STR_EQ(buf, "\n");
}

static char dir[] = "/tmp/rs-allreduce-out-XXXXXX";

/* The chart's data of r in a file of dir, in a buffer to free. */
static char *chart(const rs_ar_record *r, const char *name, int *columns)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *columns = -1;
    CHECK_MSG(rs_ar_chart_csv(r, path, columns) == 1, "%s not written", path);
    size_t len = 0;
    char *b = read_file(path, &len), *text = b ? realloc(b, len + 1) : NULL;
    if (!text) free(b);
    if (text) text[len] = '\0';
    remove(path);
    return text;
}

static void charts(void)
{
    char l[256], want[64];
    int columns;
    char *t = chart(&two, "two.csv", &columns);
    CHECK(columns == 2);
    CHECK_STR_EQ(line_of(t ? t : "", 0, l, sizeof l), "bytes,nccl,ring");
    CHECK_MSG(t && lines(t) == 5, "%s", t ? t : "");
    /* sizes ascending, each algorithm's busbw (2 GPUs), empty where none */
    snprintf(want, sizeof want, "1024,%.6g,%.6g", two.p[0].busbw, two.p[4].busbw);
    CHECK_STR_EQ(line_of(t ? t : "", 1, l, sizeof l), want);
    snprintf(want, sizeof want, "268435456,%.6g,", two.p[3].busbw);
    CHECK_STR_EQ(line_of(t ? t : "", 4, l, sizeof l), want);
    free(t);
    t = chart(&one, "one.csv", &columns); /* one GPU: algbw */
    CHECK(columns == 2);
    CHECK_STR_EQ(line_of(t ? t : "", 0, l, sizeof l), "bytes,nccl,peer_ring");
    snprintf(want, sizeof want, "4194304,%.6g,%.6g", one.p[2].algbw, one.p[6].algbw);
    CHECK_STR_EQ(line_of(t ? t : "", 3, l, sizeof l), want);
    free(t);
    t = chart(&none, "none.csv", &columns);
    CHECK(columns == 0);
    CHECK_STR_EQ(t ? t : "", "bytes\n");
    free(t);
}

/* No points: headers, and nothing that reads a point. */
static void empty(const char *doc)
{
    char header[1024];
    documented(doc, header, sizeof header);
    strcat(header, "\n");
    char *t = written(rs_ar_print_csv, &none);
    CHECK_STR_EQ(t ? t : "", header);
    free(t);
    t = written(rs_ar_print_table, &none);
    CHECK_STR_CONTAINS(t ? t : "", "all-reduce over 2 GPUs");
    CHECK_MSG(t && lines(t) == 2, "%s", t ? t : "");
    free(t);
    none.gpus = 1;
    t = written(rs_ar_print_table, &none);
    CHECK(t && strstr(t, "busbw is 0") == NULL && lines(t) == 2);
    free(t);
    none.gpus = 2;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s docs/formats.md\n", argv[0]);
        return 2;
    }
    build(&two, 2, RS_AR_RING);
    build(&one, 1, RS_AR_PEER_RING);
    memset(&none, 0, sizeof none);
    none.gpus = 2;
    none.type = RS_FLOAT32;
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    csv(argv[1]);
    table_two();
    table_one();
    shown();
    tics();
    charts();
    empty(argv[1]);
    rmdir(dir);
    return check_report("test_allreduce_out");
}
