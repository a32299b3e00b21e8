/* The commands, one file each: each is a function of the parsed options
 * (cli/cli.h) and returns the process exit status. The table in
 * cli/commands.c names them. */
#ifndef RS_CMD_H
#define RS_CMD_H

#include "cli/cli.h"
#include "formats/allreduce_file.h"

/* Each command's entry, at the top of its file. */
extern const rs_command rs_explore_entry, rs_run_entry, rs_ladder_entry, rs_sweep_entry,
    rs_allreduce_entry, rs_compile_entry, rs_devices_entry, rs_variants_entry, rs_metrics_entry,
    rs_presets_entry, rs_recording_entry, rs_diff_entry, rs_present_entry;

/* run's own options (run.c, and check.c for --check). */
typedef struct rs_run_own {
    int check; /* --check race|memory: an rs_check_kind; 0: not given */
} rs_run_own;

int rs_cmd_explore(rs_cli *cli);
int rs_cmd_run(rs_cli *cli);
int rs_cmd_ladder(rs_cli *cli);
int rs_cmd_sweep(rs_cli *cli);
int rs_cmd_devices(rs_cli *cli);
int rs_cmd_variants(rs_cli *cli);
int rs_cmd_metrics(rs_cli *cli);
int rs_cmd_presets(rs_cli *cli);
/* diff.c: two recordings side by side (formats/run_diff.h). */
int rs_cmd_diff(rs_cli *cli);
/* present.c: the ladder as a lecture, its notes, its handout. */
int rs_cmd_present(rs_cli *cli);

/* recording.c: a recording's configurations, as the explorer's R lists them. */
int rs_cmd_recording(rs_cli *cli);
int rs_cmd_devices_recorded(rs_cli *cli); /* devices --replay FILE */
/* run --check: the configuration under compute-sanitizer (check.c). */
int rs_run_check(rs_cli *cli);
/* compile FILE.cu: NVRTC's verdict, registers and spills, no GPU (compile.c). */
int rs_cmd_compile(rs_cli *cli);
/* ladder --format md|html (handout.c): the lecture handout of the rows. */
int rs_print_handout(const rs_cli *cli, const rs_row *rows, int n);
/* redscope allreduce (allreduce.c). */
int rs_cmd_allreduce(rs_cli *cli);
/* What --replay asks of an all-reduce recording, from the options. */
rs_ar_asked rs_cmd_ar_asked(const rs_cli *cli);

/* allreduce --nccl-tests PATH (allreduce_nccl_tests.c): whether PATH holds
 * all_reduce_perf; then that program run over the sizes of pts (one
 * algorithm's: NCCL_ALGO set as the GPU process set it for that algorithm,
 * NCCL_NVLS_ENABLE=0), its out-of-place time and busbw put in each point's
 * nt_us and nt_busbw. */
typedef struct rs_nt_args {
    const char *path; /* all_reduce_perf, or its folder */
    rs_ar_algo algo;  /* nccl (NCCL_ALGO as the user set it), ring or tree */
    int gpus;
    rs_dtype type;
    rs_op op;
    unsigned warmup, reps;
} rs_nt_args;
struct rs_ar_point;
rs_status rs_nt_find(const char *path, rs_error *err);
rs_status rs_nt_beside(const rs_nt_args *a, struct rs_ar_point *pts, int count, rs_error *err);
/* run --stalls --against (against.c): the option checked before any
 * work (0 or the exit status); the run printed with the other run's stall
 * view beside it, line by line. */
int rs_run_against_check(const rs_cli *cli);
int rs_run_print_against(const rs_cli *cli, rs_source *src, const rs_row *row);

#endif
