/* --check: a configuration run under compute-sanitizer in a child process,
 * and what it found, grouped by kernel source line. Pure: the parser reads
 * the sanitizer's text log; running it is the engine side's (src/check_run.c). */
#ifndef RS_CORE_CHECK_H
#define RS_CORE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/error.h"

typedef enum { RS_CHECK_NONE, RS_CHECK_RACE, RS_CHECK_MEMORY } rs_check_kind;

/* "race" or "memory"; -1 for anything else. */
int rs_check_from_name(const char *s);
const char *rs_check_name(rs_check_kind k);

/* One group of findings: a race between two source lines (write, then the
 * read or write it races with), or a memory error at one line. */
typedef struct rs_finding {
    char what[96];   /* "Write / Read", "Invalid __global__ read of size 4 bytes" */
    char kernel[64]; /* "k_unroll_warp_volatile" */
    char file[48];
    int line;
    char file2[48]; /* races: the other access; "" otherwise */
    int line2;
    uint64_t count; /* hazards or errors */
} rs_finding;

#define RS_CHECK_MAX_FINDINGS 24

typedef struct rs_check_report {
    rs_check_kind kind;
    char tools[32]; /* "racecheck", "memcheck+initcheck" */
    int ran;        /* every tool finished and printed its summary */
    uint64_t total; /* hazards (race) or errors (memory) */
    int count;
    rs_finding findings[RS_CHECK_MAX_FINDINGS];
    int more;       /* groups beyond RS_CHECK_MAX_FINDINGS */
    int correct;    /* the checked run's result was right: 1, 0, or -1 unknown */
    char note[160]; /* why it did not run, when it did not */
} rs_check_report;

void rs_check_report_init(rs_check_report *r, rs_check_kind kind);

/* Add what one tool's text log says (racecheck in analysis mode, memcheck or
 * initcheck) to r. Returns 1 when the log ends with the tool's summary. */
int rs_check_parse_log(rs_check_report *r, const char *log);

/* One sentence for the report: what the findings mean (or that there are
 * none), naming the lines. The result's correctness is part of it. */
void rs_check_sentence(const rs_check_report *r, char *buf, size_t len);

/* compute-sanitizer on PATH, else in $CUDA_HOME/bin (CUDA_HOME unset:
 * /usr/local/cuda/bin): 1 and its path, or 0. */
int rs_check_find_sanitizer(char *path, size_t len);

/* Run the configuration req once as `exe run ...` under the sanitizer's
 * tools for kind (racecheck; memcheck then initcheck), in a child process
 * that *cancel stops. r says what was found, or in r->note why not. */
struct rs_request;
rs_status rs_check_run(const struct rs_request *req, rs_check_kind kind, const char *exe,
                       rs_check_report *r, volatile int *cancel, rs_error *err);

/* JSON of a report, and back (recordings). */
cJSON *rs_check_to_json(const rs_check_report *r);
rs_status rs_check_from_json(const cJSON *j, rs_check_report *r, rs_error *err);

#endif
