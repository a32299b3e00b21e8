#include "sass_lines.h"

#include <cupti_pcsampling.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupti_lib.h"

typedef CUptiResult (*correlate_fn)(CUpti_GetSassToSourceCorrelationParams *);

rs_status rs_sass_line(const void *cubin, size_t size, const char *function, uint64_t pc_offset,
                       char *file, size_t file_len, unsigned *line, rs_error *err)
{
    if (file_len) file[0] = '\0';
    *line = 0;
    if (!cubin || size < 16 || !function || !*function)
        return rs_fail(err, RS_E_IO, "no cubin or no function to map a PC in");
    if (memcmp(cubin,
               "\x7f"
               "ELF",
               4) != 0)
        return rs_fail(err, RS_E_IO, "not a cubin (no ELF header)");
    const char *why = NULL;
    void *h = rs_cupti_lib(&why);
    if (!h) return rs_fail(err, RS_E_IO, "%s", why);
    const correlate_fn correlate = (correlate_fn)dlsym(h, "cuptiGetSassToSourceCorrelation");
    if (!correlate)
        return rs_fail(err, RS_E_IO,
                       "CUPTI lacks cuptiGetSassToSourceCorrelation (needs CUDA 11.3 or later)");
    CUpti_GetSassToSourceCorrelationParams p;
    memset(&p, 0, sizeof p);
    p.size = CUpti_GetSassToSourceCorrelationParamsSize;
    p.cubin = cubin;
    p.cubinSize = size;
    p.functionName = function;
    p.pcOffset = pc_offset;
    const CUptiResult r = correlate(&p);
    if (r != CUPTI_SUCCESS || p.lineNumber == 0) {
        free(p.fileName);
        free(p.dirName);
        return rs_fail(err, RS_E_IO, "%s + 0x%llx: no source line in the cubin (%s)", function,
                       (unsigned long long)pc_offset,
                       r == CUPTI_ERROR_INVALID_MODULE ? "not a valid cubin"
                       : r != CUPTI_SUCCESS ? "no such function or offset, or no -lineinfo"
                                            : "line 0");
    }
    const char *dir = p.dirName ? p.dirName : "", *name = p.fileName ? p.fileName : "?";
    const int abs = name[0] == '/' || !dir[0];
    snprintf(file, file_len, "%s%s%s", abs ? "" : dir, abs ? "" : "/", name);
    *line = p.lineNumber;
    free(p.fileName);
    free(p.dirName);
    return RS_OK;
}
