/* redscope --version: the program, the commit and build it came from, and
 * the CUDA libraries it was built with and finds here, as text (one line
 * per library) or one JSON object (--format json). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/gpu_process.h"
#include "version_info.h"

#ifndef RS_VERSION
#define RS_VERSION "0"
#endif

static void line(FILE *f, const char *what, const char *v, const char *from, const char *none)
{
    if (!v[0])
        fprintf(f, "%s: none found (%s)\n", what, none);
    else if (from && from[0])
        fprintf(f, "%s %s (%s)\n", what, v, from);
    else
        fprintf(f, "%s %s\n", what, v);
}

static void add(cJSON *j, const char *key, const char *v)
{
    if (v[0])
        cJSON_AddStringToObject(j, key, v);
    else
        cJSON_AddNullToObject(j, key);
}

static int as_json(FILE *f, const rs_versions *v)
{
    cJSON *j = cJSON_CreateObject();
    add(j, "version", RS_VERSION);
    add(j, "commit", RS_COMMIT);
    add(j, "build_type", RS_BUILD_TYPE);
    add(j, "cuda_runtime", v->cuda_runtime);
    add(j, "cuda_driver", v->cuda_driver);
    add(j, "driver", v->driver);
    add(j, "cupti", v->cupti);
    add(j, "cupti_lib", v->cupti_lib);
    add(j, "nvrtc", v->nvrtc);
    add(j, "nvrtc_lib", v->nvrtc_lib);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    if (!text) return RS_E_NOMEM;
    fprintf(f, "%s\n", text);
    free(text);
    return 0;
}

int rs_cli_version_main(int argc, char **argv)
{
    int format = RS_FMT_TABLE;
    for (int i = 2; i < argc; i++) {
        const char *v = strncmp(argv[i], "--format=", 9) == 0              ? argv[i] + 9
                        : strcmp(argv[i], "--format") == 0 && i + 1 < argc ? argv[++i]
                                                                           : NULL;
        if (v && (format = rs_format_from_name(v)) >= 0) continue;
        rs_cli_error(v ? "--format: unknown format '%s'"
                       : "--version takes --format alone, not '%s'",
                     v ? v : argv[i]);
        return RS_E_USAGE;
    }
    return rs_cli_version(stdout, (rs_format)format);
}

int rs_cli_version(FILE *f, rs_format format)
{
    rs_versions v;
    rs_versions_find(&v);
    if (format == RS_FMT_JSON) return as_json(f, &v);
    fprintf(f, "redscope %s (commit %s, %s build)\n", RS_VERSION, RS_COMMIT, RS_BUILD_TYPE);
    fprintf(f, "CUDA runtime %s (built in)\n", v.cuda_runtime);
    line(f, "CUDA driver API", v.cuda_driver, NULL, "libcuda.so.1 did not load");
    line(f, "NVIDIA driver", v.driver, NULL, "no /proc/driver/nvidia/version, no NVML");
    line(f, "CUPTI API", v.cupti, v.cupti_lib, "libcupti.so.13: counters and PC sampling need it");
    line(f, "NVRTC", v.nvrtc, v.nvrtc_lib, "libnvrtc.so.13: your own kernels need it");
    return 0;
}
