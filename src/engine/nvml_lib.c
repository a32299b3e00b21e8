#include "nvml_lib.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rs_nvml_open(rs_nvml_lib *n, char *why, size_t len)
{
    memset(n, 0, sizeof *n);
    const char *set = getenv("REDSCOPE_NVML");
    const char *path = set && *set ? set : "libnvidia-ml.so.1";
    if (!(n->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(why, len, "NVML is not here (%s%s): it comes with the NVIDIA driver", path,
                 set && *set ? ", REDSCOPE_NVML" : "");
        return 0;
    }
    int (*init)(void) = (int (*)(void))dlsym(n->lib, "nvmlInit_v2");
    n->shutdown = (int (*)(void))dlsym(n->lib, "nvmlShutdown");
    n->by_bus =
        (int (*)(const char *, rs_nvml_dev *))dlsym(n->lib, "nvmlDeviceGetHandleByPciBusId_v2");
    n->error = (const char *(*)(int))dlsym(n->lib, "nvmlErrorString");
    const int r = init && n->shutdown && n->by_bus ? init() : -1;
    if (r == 0) return 1;
    snprintf(why, len, "NVML did not start (%s)",
             r == -1 ? "a library without nvmlInit_v2" : rs_nvml_error(n, r));
    dlclose(n->lib);
    memset(n, 0, sizeof *n);
    return 0;
}

void *rs_nvml_sym(const rs_nvml_lib *n, const char *name)
{
    return n->lib ? dlsym(n->lib, name) : NULL;
}

int rs_nvml_device(const rs_nvml_lib *n, int d, rs_nvml_dev *out)
{
    char bus[32];
    if (!n->lib || cudaDeviceGetPCIBusId(bus, sizeof bus, d) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n->by_bus(bus, out) == 0;
}

const char *rs_nvml_error(const rs_nvml_lib *n, int status)
{
    const char *s = n->error ? n->error(status) : NULL;
    return s ? s : "unknown error";
}

void rs_nvml_close(rs_nvml_lib *n)
{
    if (!n->lib) return;
    n->shutdown();
    dlclose(n->lib);
    memset(n, 0, sizeof *n);
}
