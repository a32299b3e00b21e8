/* The request: every knob of a run, described by one table.
 *
 * RS_REQUEST_FIELDS is the single source of each field's INI section and
 * key, command-line flag, default, range and help text. The CLI parser, the
 * preset reader and writer, JSON export and the help screens all walk it, so
 * they cannot drift apart.
 */
#ifndef RS_REQUEST_H
#define RS_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "size.h"
#include "rs_types.h"

#define RS_METRICS_MAX 256
#define RS_SWEEP_MAX   128
#define RS_NOTE_MAX    256
#define RS_N_MAX       (UINT64_C(1) << 40)
#define RS_GPUS_MAX    16 /* GPUs one request may span */
#define RS_BLOCK_MIN   32 /* blockDim.x a request may ask for */
#define RS_BLOCK_MAX   1024
/* Longest "key = value" line a preset may hold (inih reads 200 bytes with
 * the newline). */
#define RS_INI_LINE_MAX 198

typedef enum {
    RS_FK_VARIANT, /* one variant id */
    RS_FK_VARLIST, /* list of variant ids (bit set) */
    RS_FK_DTYPE,
    RS_FK_OP,
    RS_FK_SIZE, /* element count: 16777216, 2^24, 16M, 1024*65535 */
    RS_FK_UINT, /* uint32_t within [min, max] */
    RS_FK_U64,
    RS_FK_FINISH,
    RS_FK_DIST,
    RS_FK_CROSS,
    RS_FK_CACHE,
    RS_FK_METRICS, /* none, default, full or a list of metric keys */
    RS_FK_SWEEP,   /* a range or list of sizes */
    RS_FK_TEXT,
} rs_field_kind;

/* What a field is to a measurement; the three rules over two requests
 * (rs_request_same_run, rs_request_same_config, rs_request_equal) read it. */
typedef enum {
    RS_ID_CONFIG, /* what every row of a ladder shares and a measurement is of: a
                     row of another type, op, n, blockDim or input is another run */
    RS_ID_ROW,    /* what tells one row of a ladder from another (the variant and
                     its own knobs, the GPUs it spans, your kernel's file): part
                     of the run, not of the configuration the rows share */
    RS_ID_HOW,    /* how the run was measured (repetitions, warm-up, seed,
                     counters): the same run, but a recording's configuration
                     holds one of each */
    RS_ID_NONE    /* not part of a measurement: lists, device index, what else
                     is collected, the sweep's sizes, a time limit, a note */
} rs_field_ident;

/* X(member, kind, section, ini key, cli flag, short opt, min, max, default,
 *   value used when the flag has no argument (NULL: argument required),
 *   argument name, help, identity) */
#define RS_REQUEST_FIELDS(X)                                                                       \
    X(variant, RS_FK_VARIANT, "run", "variant", "variant", 'v', 0, 0, RS_VARIANT_DEFAULT, NULL,    \
      "ID", "kernel variant (see: redscope variants)", RS_ID_ROW)                                  \
    X(variants, RS_FK_VARLIST, "run", "variants", "variants", 'V', 0, 0, "", NULL, "LIST",         \
      "variants for ladder and sweep: ids separated by commas, or FIRST..LAST; empty: all",        \
      RS_ID_NONE)                                                                                  \
    X(type, RS_FK_DTYPE, "run", "type", "type", 't', 0, 0, "int32", NULL, "T", "element type",     \
      RS_ID_CONFIG)                                                                                \
    X(op, RS_FK_OP, "run", "op", "op", 'o', 0, 0, "sum", NULL, "OP", "the reduction's operation",  \
      RS_ID_CONFIG)                                                                                \
    X(n, RS_FK_SIZE, "run", "n", "n", 'n', 1, RS_N_MAX, "2^24", NULL, "N",                         \
      "number of elements: 16777216, 2^24, 16M, 1024*65535, 2^20+7", RS_ID_CONFIG)                 \
    X(block, RS_FK_UINT, "run", "block", "block", 'b', RS_BLOCK_MIN, RS_BLOCK_MAX, "256", NULL,    \
      "B", "threads per block (blockDim.x)", RS_ID_CONFIG)                                         \
    X(grid, RS_FK_UINT, "run", "grid", "grid", 'g', 0, 2147483647u, "0", NULL, "G",                \
      "blocks in the first pass of grid-stride variants; 0: one full wave of the GPU", RS_ID_ROW)  \
    X(ept, RS_FK_UINT, "run", "elements_per_thread", "ept", 'e', 0, 16777216u, "0", NULL, "E",     \
      "elements per thread of grid-stride variants (sets the grid); 0: automatic", RS_ID_ROW)      \
    X(finish, RS_FK_FINISH, "run", "finish", "finish", 'f', 0, 0, "auto", NULL, "F",               \
      "how block results are combined", RS_ID_ROW)                                                 \
    X(cache, RS_FK_CACHE, "run", "cache", "cache", 0, 0, 0, "cold", NULL, "STATE",                 \
      "the input's cache state before each timed run: cold (the L2 flushed: read from DRAM) or "   \
      "warm (the input read just before: in the L2 where it fits)",                                \
      RS_ID_CONFIG)                                                                                \
    X(warmup, RS_FK_UINT, "run", "warmup", "warmup", 'w', 0, 1000, "3", NULL, "K",                 \
      "untimed warm-up runs", RS_ID_HOW)                                                           \
    X(reps, RS_FK_UINT, "run", "repetitions", "reps", 'r', 1, 10000, "20", NULL, "K",              \
      "timed repetitions (median, min and max are reported)", RS_ID_HOW)                           \
    X(dist, RS_FK_DIST, "run", "input", "input", 'i', 0, 0, "random", NULL, "D", "input values",   \
      RS_ID_CONFIG)                                                                                \
    X(seed, RS_FK_U64, "run", "seed", "seed", 's', 0, UINT64_MAX, "42", NULL, "S",                 \
      "seed of the random input", RS_ID_HOW)                                                       \
    X(device, RS_FK_UINT, "run", "device", "device", 'd', 0, 1023, "0", NULL, "I",                 \
      "CUDA device index", RS_ID_NONE)                                                             \
    X(gpus, RS_FK_UINT, "run", "gpus", "gpus", 0, 0, RS_GPUS_MAX, "1", NULL, "N",                  \
      "GPUs the input is split over (GPUs 0 to N-1; 0: every one), each reducing its share",       \
      RS_ID_ROW)                                                                                   \
    X(cross, RS_FK_CROSS, "run", "cross_finish", "cross", 0, 0, 0, "host", NULL, "F",              \
      "how the GPUs' partials are combined: host (copied back, added there), p2p (peer copies, "   \
      "adds on the GPUs) or nccl (ncclReduce)",                                                    \
      RS_ID_ROW)                                                                                   \
    X(metrics, RS_FK_METRICS, "run", "metrics", "metrics", 'm', 0, 0, "none", "default", "SET",    \
      "hardware counters: none, default, full (redscope metrics says what each costs), or metric " \
      "keys separated by commas",                                                                  \
      RS_ID_HOW)                                                                                   \
    X(stalls, RS_FK_UINT, "run", "stalls", "stalls", 0, 0, 1, "0", "1", "0|1",                     \
      "where warps wait, line by line: PC sampling in a run of its own (run, ladder)", RS_ID_NONE) \
    X(energy, RS_FK_UINT, "run", "energy", "energy", 0, 0, 1, "0", "1", "0|1",                     \
      "energy per reduction through NVML: joules, watts and J per GB, in a run of its own of "     \
      "back-to-back reductions (run, ladder, sweep)",                                              \
      RS_ID_NONE)                                                                                  \
    X(sweep, RS_FK_SWEEP, "sweep", "range", "range", 'R', 0, 0, "2^10..2^28", NULL, "RANGE",       \
      "sizes of a sweep: 2^10..2^28 (powers of two), 1K..1G:4 (factor 4), or 1000,2^20,16M",       \
      RS_ID_NONE)                                                                                  \
    X(kernel, RS_FK_TEXT, "run", "kernel", "kernel", 'k', 0, 0, "", NULL, "FILE.cu",               \
      "your own kernel (see conf/kernels/template.cu); several may be given to ladder", RS_ID_ROW) \
    X(timeout, RS_FK_UINT, "run", "timeout", "timeout", 0, 1, 3600, "10", NULL, "S",               \
      "seconds one repetition of a user kernel may take before it is stopped", RS_ID_NONE)         \
    X(note, RS_FK_TEXT, "preset", "note", "note", 0, 0, 0, "", NULL, "TEXT",                       \
      "a note that travels with a saved preset", RS_ID_NONE)

#define RS_AR_GPUS_MAX    RS_GPUS_MAX
#define RS_RENDEZVOUS_MAX 4000 /* bytes of a rendezvous path, before ".ALGO" */

/* An all-reduce job: its algorithm, and for one process per GPU its rank
 * and the file the ranks meet at. The command's options, not fields:
 * presets and recordings of runs do not hold them; a request carries its
 * point's algorithm alone (ar_algo), the source is asked with the rest
 * (rs_ask.job). */
typedef struct rs_ar_job {
    rs_ar_algo algo;
    int32_t rank, ranks; /* ranks 0: one process, GPUs 0..gpus-1 */
    char rendezvous[RS_RENDEZVOUS_MAX + 1];
} rs_ar_job;

typedef struct rs_request {
    rs_variant variant;
    rs_variant_set variants; /* one bit per rs_variant; 0 means the whole ladder */
    rs_dtype type;
    rs_op op;
    uint64_t n;
    uint32_t block;
    uint32_t grid;
    uint32_t ept;
    rs_finish finish;
    uint32_t warmup;
    uint32_t reps;
    rs_dist dist;
    rs_cache cache; /* cold: L2 flushed before each run; warm: input read before */
    uint64_t seed;
    uint32_t device;
    uint32_t gpus;  /* 1: one GPU; 0: every GPU; N: GPUs 0..N-1 */
    rs_cross cross; /* how several GPUs' partials are combined */
    char metrics[RS_METRICS_MAX];
    uint32_t stalls; /* 1: PC sampling's stall view, in its own run */
    uint32_t energy; /* 1: energy per reduction (NVML), in its own run */
    char sweep[RS_SWEEP_MAX];
    char kernel[RS_NOTE_MAX]; /* RS_V_KERNEL: the .cu file */
    uint32_t timeout;         /* seconds a user kernel may run */
    char note[RS_NOTE_MAX];
    rs_ar_algo ar_algo; /* not a field: an all-reduce point's algorithm */
} rs_request;

typedef enum {
#define RS_X_ENUM(m, ...) RS_F_##m,
    RS_REQUEST_FIELDS(RS_X_ENUM)
#undef RS_X_ENUM
        RS_FIELD_COUNT
} rs_field_id;

typedef struct rs_field {
    rs_field_id id;
    rs_field_kind kind;
    const char *section;
    const char *key;
    const char *flag;
    int short_opt;
    uint64_t min, max;
    const char *def;
    const char *implied;
    const char *argname;
    const char *help;
    rs_field_ident ident;
    size_t offset, size;
} rs_field;

extern const rs_field rs_fields[RS_FIELD_COUNT];

/* Field by INI section and key, by CLI flag (without "--"), or by short option. */
const rs_field *rs_field_by_key(const char *section, const char *key);
const rs_field *rs_field_by_flag(const char *flag);
const rs_field *rs_field_by_short(int c);

/* Every field set to its default. */
void rs_request_defaults(rs_request *r);

/* Parse value into the field; on error r is unchanged and err says what was
 * expected, naming the field by its preset key. */
rs_status rs_field_set(rs_request *r, const rs_field *f, const char *value, rs_error *err);
/* The same, the field named as `name` says (the command line: "--cross"). */
rs_status rs_field_set_as(rs_request *r, const rs_field *f, const char *value, const char *name,
                          rs_error *err);

/* The names an enumerated field takes, from the arrays that own them
 * ("int32 int64 ..."); "" for other fields. */
void rs_field_values(const rs_field *f, char *buf, size_t len);

/* The field's value as text that rs_field_set reads back to the same value. */
void rs_field_format(const rs_request *r, const rs_field *f, char *buf, size_t len);

/* What a field accepts, for error messages ("an integer from 32 to 1024"). */
void rs_field_expect(const rs_field *f, char *buf, size_t len);

/* 1 when the field's value differs from its default. */
int rs_field_is_default(const rs_request *r, const rs_field *f);

/* Variant list text: "interleaved,sequential" or "interleaved..unroll_warp". */
rs_status rs_parse_variants(const char *s, rs_variant_set *mask, rs_error *err);

/* The variants a ladder or sweep runs, in ladder order; returns the count. */
int rs_request_variant_list(const rs_request *r, rs_variant *out, int max);

/* 1 when two requests ask for the same thing (every field equal). */
int rs_request_equal(const rs_request *a, const rs_request *b);

/* 1 when a recording's configuration holds both: their RS_ID_CONFIG and
 * RS_ID_HOW fields equal (n too unless `sweep`: a sweep's rows vary it). */
int rs_request_same_config(const rs_request *a, const rs_request *b, int sweep);

/* The settings of a configuration (RS_ID_CONFIG: type, op, n, block,
 * input) in which a and b differ: bit id of each field that does (0: one
 * configuration). diff pairs across them, the explorer names them. */
uint64_t rs_request_config_diff(const rs_request *a, const rs_request *b);

/* 1 when one field holds the same value in a and b. */
int rs_field_same(const rs_request *a, const rs_request *b, const rs_field *f);

#endif
