/* CUDA's errors as statuses: no driver, a driver too old, no device, out
 * of memory, and the sticky faults that leave the context unusable (the
 * engine is marked broken; device.c rebuilds it). */
#include <dlfcn.h>
#include <stdio.h>

#include "internal.h"

int rs_cuda_sticky(cudaError_t c)
{
    switch (c) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable: return 1;
    default: return 0;
    }
}

/* "The driver is insufficient" reads as "upgrade it"; tell no driver at
 * all (libcuda absent) apart from one too old for this runtime. */
static rs_status driver_fail(cudaError_t c, rs_error *err)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return rs_fail(err, RS_E_NODRIVER,
                       "no NVIDIA driver (libcuda.so.1 not found): install the NVIDIA driver, or "
                       "replay a recording with --replay FILE");
    dlclose(h);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaGetLastError();
    if (drv > 0 && drv < rt)
        return rs_fail(err, RS_E_NODRIVER,
                       "NVIDIA driver too old for CUDA %d.%d (found a driver for CUDA %d.%d): "
                       "update the driver",
                       rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    return rs_fail(err, RS_E_NODRIVER, "the NVIDIA driver does not work here: %s",
                   cudaGetErrorString(c));
}

rs_status rs_cuda_fail(rs_engine *e, rs_error *err, cudaError_t c, const char *what)
{
    cudaGetLastError(); /* clear a non-sticky error */
    switch (c) {
    case cudaErrorMemoryAllocation:
        return rs_fail(err, RS_E_NOMEM, "out of device memory while %s", what);
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary: (void)what; return driver_fail(c, err);
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
        return rs_fail(err, RS_E_NODEVICE, "no usable CUDA device (%s): %s", what,
                       cudaGetErrorString(c));
    default: break;
    }
    const int sticky = rs_cuda_sticky(c);
    if (sticky && e) e->broken = 1;
    return rs_fail(err, RS_E_CUDA, "CUDA error while %s: %s (%s)%s", what, cudaGetErrorString(c),
                   cudaGetErrorName(c),
                   sticky ? "; the next run starts with a fresh GPU context" : "");
}
