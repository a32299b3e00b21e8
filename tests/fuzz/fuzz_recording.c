/* libFuzzer target: any bytes as a recording, read the way --replay reads
 * one: rs_recording_load (record.c, every line through the JSON codec of
 * json.c), the configurations the explorer lists (rs_recording_configs, a
 * line of text each), a recorded sweep as the Sweep screen takes it
 * (rs_sweep_from_rows, analysis/sweep.c; its table, formats/sweep_out.c), and the recording as the
 * source the batch commands open it (source_recording.c).
 *
 * Loading must refuse with a message or accept, never crash, hang or leak;
 * what it accepts must hold the properties below (a violated one aborts, so
 * libFuzzer reports it). The reader takes a path: the input is written to
 * one temporary file, rewritten for each input. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/catalogue.h"
#include "formats/source_recording.h"
#include "formats/record.h"
#include "core/source.h"
#include "analysis/sweep.h"
#include "formats/sweep_out.h"

static char path[4096];
static FILE *devnull;

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/fuzz_recording.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    const int fd = mkstemp(path);
    if (fd < 0) abort();
    close(fd);
    atexit(remove_file);
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    return 0;
}

/* A property that must hold: said on stderr, then abort() for libFuzzer. */
#define must(ok) ((ok) ? (void)0 : broken(#ok, __LINE__))
static void broken(const char *what, int line)
{
    fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, line, what);
    abort();
}

static void write_input(const uint8_t *data, size_t size)
{
    const int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0) abort();
    for (size_t done = 0; done < size;) {
        const ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) abort();
        done += (size_t)w;
    }
    close(fd);
}

/* Every field of a loaded row's request is within its range: it writes
 * back and reads again to the same value. */
static void check_request(const rs_request *r)
{
    rs_request back;
    rs_request_defaults(&back);
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        char text[512];
        rs_error err;
        rs_field_format(r, &rs_fields[i], text, sizeof text);
        must(rs_field_set(&back, &rs_fields[i], text, &err) == RS_OK);
    }
    must(rs_request_equal(r, &back));
}

/* Each row: its command a string in its slot, its request valid, and the
 * row the recording answers its own request with (a later one may answer
 * it too) one that answers the same run. */
static void check_rows(const rs_recording *rec)
{
    must(rec->count >= 0 && (rec->count > 0 || rec->has_device));
    must(rec->count == 0 || (rec->rows && rec->command));
    for (int i = 0; i < rec->count; i++) {
        const rs_row *row = &rec->rows[i];
        must(memchr(rec->command[i], '\0', sizeof rec->command[i]) != NULL);
        must(memchr(row->error, '\0', sizeof row->error) != NULL);
        must(memchr(rec->device.name, '\0', sizeof rec->device.name) != NULL);
        check_request(&row->result.req);
        const rs_row *found = rs_recording_find(rec, &row->result.req, rec->command[i]);
        must(found != NULL && found >= row && found < rec->rows + rec->count);
        must(rs_request_same_run(&found->result.req, &row->result.req));
    }
}

/* A recorded sweep as the Sweep screen reads it, and its crossovers. */
static void check_sweep(const rs_recording *rec, const rs_rec_config *c)
{
    rs_sweep s;
    rs_error err;
    must(rs_sweep_from_rows(&s, rec->rows + c->first, rec->command + c->first, c->count, &err) ==
         RS_OK);
    must(s.sizes.count >= 1 && s.sizes.count <= RS_SWEEP_MAX_SIZES);
    must(s.nvar >= 1 && s.nvar <= RS_SWEEP_MAX_COLS);
    must(s.sizes.n[0] >= c->n_lo && s.sizes.n[s.sizes.count - 1] <= c->n_hi);
    char text[1024];
    must(rs_sweep_crossovers(&s, text, sizeof text) >= 0);
    for (int f = RS_FMT_TABLE; f <= RS_FMT_JSON; f++) rs_print_sweep(devnull, &s, (rs_format)f);
    rs_sweep_free(&s);
}

/* The configurations cover the rows in order, each one or more rows of one
 * command; each describes itself and the source answers its request. */
static void check_configs(const rs_recording *rec, rs_source *src)
{
    rs_rec_config *configs = calloc((size_t)rec->count + 1, sizeof *configs);
    if (!configs) abort();
    const int n = rs_recording_configs(rec, configs, rec->count + 1);
    must(n >= 0 && n <= rec->count && (n > 0) == (rec->count > 0));
    for (int k = 0; k < n; k++) {
        const rs_rec_config *c = &configs[k];
        must(c->first == (k ? configs[k - 1].first + configs[k - 1].count : 0));
        must(c->count >= 1 && c->first + c->count <= rec->count);
        must(strcmp(c->command, rec->command[c->first]) == 0);
        must(c->n_lo <= c->n_hi && c->req.variants != 0);
        char text[512];
        rs_rec_config_describe(c, " | ", text, sizeof text);
        must(rs_recording_find_sweep(configs, n, &c->req) >= -1);
        if (strcmp(c->command, "sweep") == 0) check_sweep(rec, c);
        for (int f = RS_FMT_TABLE; f <= RS_FMT_JSON; f++) {
            rs_print_ladder(devnull, rec->rows + c->first, c->count, (rs_format)f, 0);
            rs_print_ladder(devnull, rec->rows + c->first, c->count, (rs_format)f, 1);
            rs_print_run(devnull, rec->rows + c->first, (rs_format)f);
        }
        rs_result *out = malloc(sizeof *out);
        if (!out) abort();
        rs_error err;
        const rs_ask ask = {RS_ASK_RUN, c->command, NULL, NULL};
        const rs_status st = src->run(src, &c->req, &ask, out, &err);
        if (st != RS_OK) must(err.code == st);
        free(out);
    }
    must(n == 0 || configs[n - 1].first + configs[n - 1].count == rec->count);
    free(configs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_input(data, size);
    rs_recording rec;
    rs_error err;
    const rs_status st = rs_recording_load(path, &rec, &err);
    if (st != RS_OK) {
        must(st == RS_E_IO || st == RS_E_NOMEM);
        must(err.code == st && err.msg[0] != '\0' && strlen(err.msg) < sizeof err.msg);
        must(rec.count == 0 && rec.rows == NULL && rec.command == NULL);
        return 0;
    }
    check_rows(&rec);
    /* The source as `redscope run --replay FILE` opens it: the same file,
     * loaded again, the same device. */
    rs_source *src;
    must(rs_source_recording_open(path, &src, &err) == RS_OK);
    must(strcmp(src->device(src)->name, rec.device.name) == 0);
    must(src->prepare(src, 1, &err) == RS_OK);
    check_configs(&rec, src);
    rs_source_close(src);
    rs_recording_free(&rec);
    return 0;
}
