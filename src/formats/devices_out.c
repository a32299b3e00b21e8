/* The devices as `devices` lists them: their facts, and where measured
 * (devices --measure) the DRAM and L2 reads and timing's floors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/format.h"
#include "export.h"

/* A measured figure, or "-" where it was not measured. */
static void measured(char *buf, size_t len, int decimals, double v)
{
    if (v > 0.0 && isfinite(v))
        snprintf(buf, len, "%.*f", decimals, v);
    else
        snprintf(buf, len, "-");
}

void rs_print_devices(FILE *f, const rs_device_info *d, int count, rs_format fmt)
{
    if (fmt == RS_FMT_JSON) {
        cJSON *arr = cJSON_CreateArray();
        for (int i = 0; i < count; i++) cJSON_AddItemToArray(arr, rs_device_to_json(&d[i]));
        char *text = rs_json_print(arr);
        if (text) fprintf(f, "%s\n", text);
        free(text);
        cJSON_Delete(arr);
        return;
    }
    if (fmt == RS_FMT_CSV)
        fprintf(f, "index,name,compute_capability,sm_count,total_mem,l2_bytes,peak_gbps,"
                   "measured_gbps,l2_gbps,floor_empty_ms,floor_launch_ms\n");
    else {
        char e[32], l[32], pe[48], pl[48]; /* µs: padded by columns, not bytes */
        snprintf(e, sizeof e, "empty (%s)", rs_sym(RS_SYM_MICRO));
        snprintf(l, sizeof l, "launch (%s)", rs_sym(RS_SYM_MICRO));
        fprintf(f, "%-3s %-28s %5s %5s %10s %9s %10s %10s %10s %s %s\n", "#", "name", "cc", "SMs",
                "memory", "L2", "peak GB/s", "DRAM read", "L2 read",
                rs_pad(e, 12, 1, pe, sizeof pe), rs_pad(l, 12, 1, pl, sizeof pl));
    }
    for (int i = 0; i < count; i++) {
        if (fmt == RS_FMT_CSV) {
            fprintf(f, "%d,", d[i].index);
            rs_csv_field(f, d[i].name);
            fprintf(f, ",%d.%d,%d,%llu,%llu", d[i].cc_major, d[i].cc_minor, d[i].sm_count,
                    (unsigned long long)d[i].total_mem, (unsigned long long)d[i].l2_bytes);
            const double figs[] = {d[i].peak_gbps, d[i].measured_gbps, d[i].l2_gbps,
                                   d[i].floor_empty_us / 1000.0, d[i].floor_launch_us / 1000.0};
            for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
                fputc(',', f);
                rs_csv_num(f, figs[k]);
            }
            fputc('\n', f);
        } else {
            char mem[32], l2[32], meas[32], l2read[32], empty[32], launch[32];
            rs_fmt_mem((double)d[i].total_mem, mem, sizeof mem);
            if (d[i].l2_bytes)
                rs_fmt_bytes((double)d[i].l2_bytes, l2, sizeof l2);
            else
                snprintf(l2, sizeof l2, "-");
            measured(meas, sizeof meas, 0, d[i].measured_gbps);
            measured(l2read, sizeof l2read, 0, d[i].l2_gbps);
            measured(empty, sizeof empty, 1, d[i].floor_empty_us);
            measured(launch, sizeof launch, 1, d[i].floor_launch_us);
            fprintf(f, "%-3d %-28s %2d.%-2d %5d %10s %9s %10.0f %10s %10s %12s %12s\n", d[i].index,
                    d[i].name, d[i].cc_major, d[i].cc_minor, d[i].sm_count, mem, l2, d[i].peak_gbps,
                    meas, l2read, empty, launch);
        }
    }
}
