/* Recordings: results as JSON lines, for replay where no GPU is.
 *
 * Line 1 is a header {"redscope_recording": 1, "version", "date", "device"};
 * every other line is one row (a result, or a refusal) with the command that
 * produced it ("run", "ladder", "sweep"). Lines are flushed as they are
 * written, so a run that stops early keeps what it measured. */
#ifndef RS_RECORD_H
#define RS_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "files.h"
#include "check.h"
#include "export.h"
#include "core/runner.h"

/* A recording is written to a temporary file beside its path and renamed
 * over it when closed: readers never see half a file, and a write that
 * fails (a full disk, RLIMIT_FSIZE) leaves nothing behind. */
typedef struct rs_recorder {
    FILE *f;                   /* out.f while open */
    char path[4096];           /* the target */
    rs_outfile out;            /* a temporary file beside it, renamed into place at close */
    int failed;                /* a write failed: close removes the temporary file */
    int rows;                  /* rows and checks written */
    int empty;                 /* closed with none: nothing was written */
    uint64_t kernel_hash[256]; /* user kernel sources written so far */
    int kernel_count;
    char *pending; /* the kernel file as it was when its run began */
    uint64_t pending_hash;
} rs_recorder;

rs_status rs_record_open(rs_recorder *rec, const char *path, const rs_device_info *dev,
                         rs_error *err);
rs_status rs_record_row(rs_recorder *rec, const rs_row *row, const char *command, rs_error *err);
/* Renamed into place; with no row or check written (a cancel before the
 * first, a replay that held nothing asked for) nothing is written, an
 * existing file is left as it was, and rec->empty says so. */
rs_status rs_record_close(rs_recorder *rec, rs_error *err);

/* A check (run --check) as recorded: the configuration and the findings. */
typedef struct rs_recorded_check {
    rs_request req;
    rs_check_report report;
} rs_recorded_check;

typedef struct rs_recording {
    rs_device_info device;
    int has_device;
    int count;
    rs_row *rows;
    char (*command)[16];
    int check_count; /* lines with "command": "check" (record.c; written by record_write.c) */
    rs_recorded_check *checks;
    int kernel_count; /* lines with "command": "kernel": user kernels' sources */
    struct rs_recorded_kernel *kernels;
    int cut_line; /* its last line, cut short (no newline, not JSON): left out; 0: none */
} rs_recording;

/* The note a replay gives of a recording whose last line was cut short
 * (rs_recording.cut_line), or "" where none was. */
const char *rs_recording_cut_note(const rs_recording *rec, const char *path, char *buf, size_t len);

/* A user kernel's source as recorded (record_write.c; read in record.c): written before the
 * first row that ran it, once per version, so a replay shows what ran. */
typedef struct rs_recorded_kernel {
    char path[256];
    uint64_t hash;
    char *source;
} rs_recorded_kernel;
rs_status rs_record_kernel_source(rs_recorder *rec, const rs_row *row, rs_error *err);
/* Before a run: the kernel file's text as it is now, kept so a save during
 * the run cannot take the source of the version that ran. */
void rs_record_kernel_before(rs_recorder *rec, const rs_request *req);
/* The runner's hook (core/runner.h) that records into rec. */
rs_runner_record rs_recorder_hook(rs_recorder *rec);
rs_status rs_recording_add_kernel(rs_recording *rec, const cJSON *j, rs_error *err);
/* The recorded source of that version; NULL when not recorded. */
const char *rs_recording_kernel_source(const rs_recording *rec, uint64_t hash);
/* One JSON line into the recording (takes j). */
rs_status rs_record_line(rs_recorder *rec, cJSON *j, rs_error *err);

/* A check into the recording: {"command": "check", "request", "check"}. */
rs_status rs_record_check(rs_recorder *rec, const rs_request *req, const rs_check_report *r,
                          rs_error *err);
/* A "check" line of a recording being loaded, kept in rec->checks. */
rs_status rs_recording_add_check(rs_recording *rec, const cJSON *j, rs_error *err);
/* The last recorded check of kind answering req (same run, same variant);
 * NULL when there is none. */
const rs_recorded_check *rs_recording_find_check(const rs_recording *rec, const rs_request *req,
                                                 rs_check_kind kind);

/* Load a recording; a malformed line is an error naming its line number. */
rs_status rs_recording_load(const char *path, rs_recording *out, rs_error *err);
void rs_recording_free(rs_recording *rec);

/* The most GPUs a recording's runs span (1 for runs on one GPU), and how
 * they were linked ("" when no run says). */
void rs_recording_gpus(const rs_recording *rec, int *count, char *links, size_t len);

/* The last recorded row answering req (same variant, type, op, n, block,
 * finish, grid, ept and input) of command; command NULL: of any, the one
 * holding what req asks (counters, stalls, energy), else a ladder's. */
const rs_row *rs_recording_find(const rs_recording *rec, const rs_request *req,
                                const char *command);

/* A configuration a recording holds: consecutive rows of one command that
 * answer the same settings (one run, one ladder, or one sweep over n). */
typedef struct rs_rec_config {
    char command[16];
    rs_request req;      /* the settings; req.variants is the set recorded */
    int first, count;    /* its rows: [first, first + count) */
    uint64_t n_lo, n_hi; /* the sizes (a sweep spans several) */
    /* the variants seen on one GPU ([0]) and over the GPUs per finish
     * ([1 + cross]): a ladder over GPUs has each variant once in each */
    rs_variant_set seen[1 + RS_CROSS_COUNT];
    uint32_t gpus; /* its rows over several GPUs: their --gpus (0: every one); 1: none */
} rs_rec_config;

/* The configurations of rec in recording order; returns how many (at most
 * max). */
int rs_recording_configs(const rs_recording *rec, rs_rec_config *out, int max);

/* "ladder · 14 variants (atomic..thrust) · int32 sum · n 2^24 · block 256 ·
 * finish auto · 20 reps · counters full"; sep between items. */
void rs_rec_config_describe(const rs_rec_config *c, const char *sep, char *buf, size_t len);

/* The options that replay configuration c where `asked` found nothing:
 * each of c's settings that differs from asked, as flags ("--n 2^30
 * --gpus 0"); "" where none differs. */
void rs_rec_config_options(const rs_rec_config *c, const rs_request *asked, char *buf, size_t len);

/* The configuration beside c[k] (just before or after it) that is the
 * same sweep in the other cache state, as `sweep --cache both` records
 * one (every size cold, then every size warm): its index, or -1. */
int rs_rec_config_twin(const rs_rec_config *c, int count, int k);

/* The recorded sweep that answers req's settings (type, op, block, finish,
 * input, grid, ept), the last one recorded; -1 when there is none. */
int rs_recording_find_sweep(const rs_rec_config *configs, int count, const rs_request *req);

#endif
