/* The GPU process's face: the one engine header the command line and the
 * explorer include. It opens the GPU engine in a child process as a source
 * (core/source.h) and serves it on the child's side; no CUDA type crosses
 * it. */
#ifndef RS_GPU_PROCESS_H
#define RS_GPU_PROCESS_H

#include "core/error.h"
#include "core/source.h"

/* The GPU engine in a child process (src/engine/source_child.c): a kernel
 * fault ends the child, and the next run starts a fresh one. prepare()
 * starts it; its facts are read once per child, and asked for only where
 * they are shown (RS_CHILD_FACTS: the explorer), since finding them starts the
 * profiler (a fifth of a second that a run without counters need not wait). */
enum {
    RS_CHILD_FACTS = 1,    /* find the counter facts at start (the explorer) */
    RS_CHILD_COUNTERS = 2, /* runs will read counters: load CUPTI while CUDA starts */
    RS_CHILD_METRICS = 4,  /* the facts with each counter's passes (redscope metrics) */
    RS_CHILD_BARE = 8,     /* no engine and no context of its own: devices and the
                              all-reduce alone (RS_ASK_DEVICE, _ALLREDUCE) */
    RS_CHILD_ONE = 16      /* runs on the one GPU asked for: its process may see it
                              alone (engine/visible.h), CUDA then starting one GPU,
                              not all; a run over several makes every later child
                              see them all. To the child: it sees DEVICE alone. */
};
rs_status rs_source_child_open(int device, int wants, rs_source **out, rs_error *err);
/* The child's side: `redscope RS_GPU_PROCESS_ARG DEVICE FD_IN FD_OUT WANTS`
 * (WANTS: the RS_CHILD_* bits in decimal) serves runs until FD_IN closes;
 * its exit status. */
#define RS_GPU_PROCESS_ARG "--gpu-process"
int rs_source_child_serve(int device, int down, int up, int wants);
int rs_source_child_wants(const char *arg);
const rs_gpu_facts *rs_source_child_facts(rs_source *s);

/* What --version reports of the libraries, "" where absent: the CUDA
 * runtime built in, the driver's CUDA version and its own version, CUPTI's
 * API version and NVRTC's, with the files they were loaded from. Starts no
 * CUDA (engine/versions.c). */
typedef struct rs_versions {
    char cuda_runtime[16], cuda_driver[16], driver[32], cupti[16], nvrtc[16];
    char cupti_lib[512], nvrtc_lib[512];
} rs_versions;
void rs_versions_find(rs_versions *v);
/* The child ended and waited for (at most a second or two): its GPUs and
 * their memory free for another program (nccl-tests). Any other source:
 * nothing. */
void rs_source_child_end(rs_source *s);

#endif
