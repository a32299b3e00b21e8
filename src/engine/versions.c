/* What --version reports of the libraries: the CUDA runtime built in, and
 * where present the driver, CUPTI and NVRTC, each found as the program
 * finds it at run time. Nothing here starts CUDA: cuDriverGetVersion needs
 * no cuInit, and no context is made. */
#define _GNU_SOURCE /* dlinfo */
#include <ctype.h>
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "engine/gpu_process.h"
#include "engine/nvml_lib.h"
#include "formats/files.h"
#include "nvtools/compile.h"
#include "profiling/cupti_lib.h"

/* The file a dlopen'ed library came from. */
static void lib_path(void *h, char *buf, size_t len)
{
    struct link_map *m = NULL;
    buf[0] = '\0';
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &m) == 0 && m && m->l_name)
        snprintf(buf, len, "%s", m->l_name);
}

static void driver_api(rs_versions *v)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    int (*get)(int *) = h ? (int (*)(int *))dlsym(h, "cuDriverGetVersion") : NULL;
    int d = 0;
    if (get && get(&d) == 0 && d > 0)
        snprintf(v->cuda_driver, sizeof v->cuda_driver, "%d.%d", d / 1000, d % 1000 / 10);
    if (h) dlclose(h);
}

/* The driver's version from NVML, where /proc does not say (a container). */
static void nvml_driver(rs_versions *v)
{
    rs_nvml_lib n;
    char why[160];
    if (!rs_nvml_open(&n, why, sizeof why)) return;
    int (*get)(char *, unsigned) =
        (int (*)(char *, unsigned))rs_nvml_sym(&n, "nvmlSystemGetDriverVersion");
    char buf[80] = "";
    if (get && get(buf, sizeof buf) == 0 && buf[0])
        snprintf(v->driver, sizeof v->driver, "%s", buf);
    rs_nvml_close(&n);
}

/* The kernel module's version: "NVRM version: NVIDIA UNIX ... Kernel Module  580.159.04 ...",
 * else NVML's. */
static void kernel_module(rs_versions *v)
{
    char *text = NULL;
    size_t len = 0;
    rs_error err;
    if (rs_file_read("/proc/driver/nvidia/version", "driver version", 1u << 16, &text, &len,
                     &err) != RS_OK) {
        nvml_driver(v);
        return;
    }
    const char *at = strstr(text, "Kernel Module");
    if (at) {
        at += strlen("Kernel Module");
        while (*at == ' ' || *at == '\t') at++;
        size_t n = 0;
        while (at[n] && (isdigit((unsigned char)at[n]) || at[n] == '.')) n++;
        if (n > 0 && n < sizeof v->driver)
            snprintf(v->driver, sizeof v->driver, "%.*s", (int)n, at);
    }
    free(text);
    if (!v->driver[0]) nvml_driver(v);
}

static void cupti(rs_versions *v)
{
    void *h = rs_cupti_lib(NULL);
    int (*get)(uint32_t *) = h ? (int (*)(uint32_t *))dlsym(h, "cuptiGetVersion") : NULL;
    uint32_t api = 0;
    if (get && get(&api) == 0 && api > 0) {
        snprintf(v->cupti, sizeof v->cupti, "%u", api);
        lib_path(h, v->cupti_lib, sizeof v->cupti_lib);
    }
}

void rs_versions_find(rs_versions *v)
{
    memset(v, 0, sizeof *v);
    int rt = CUDART_VERSION;
    snprintf(v->cuda_runtime, sizeof v->cuda_runtime, "%d.%d", rt / 1000, rt % 1000 / 10);
    driver_api(v);
    kernel_module(v);
    cupti(v);
    rs_error err;
    const char *nvrtc = rs_nvrtc_version(&err);
    if (nvrtc) {
        snprintf(v->nvrtc, sizeof v->nvrtc, "%s", nvrtc);
        rs_nvrtc_lib(v->nvrtc_lib, sizeof v->nvrtc_lib);
    }
}
