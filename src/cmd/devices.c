/* `redscope devices`: the CUDA devices here (--measure: the limit and the
 * floors), or the GPUs a recording was made on (--replay FILE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/record.h"
#include "core/text.h"
#include "engine/engine.h"

int rs_cmd_devices(rs_cli *cli)
{
    rs_device_info devs[64];
    int count = 0;
    rs_error err;
    if (cli->replay) return rs_cmd_devices_recorded(cli);
    if (rs_devices_list(devs, 64, &count, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return (int)err.code;
    }
    for (int i = 0; cli->measure && i < count; i++) {
        rs_engine *e = NULL;
        double gbps = 0;
        if (rs_engine_open(&e, i, &err) == RS_OK &&
            rs_engine_measure_peak(e, &gbps, &err) == RS_OK) {
            const rs_device_info *m = rs_engine_device(e);
            devs[i].measured_gbps = gbps;
            devs[i].floor_empty_us = m->floor_empty_us;
            devs[i].floor_launch_us = m->floor_launch_us;
        } else
            rs_cli_error("device %d: %s", i, err.msg);
        rs_engine_close(e);
    }
    rs_print_devices(stdout, devs, count, cli->format);
    return 0;
}

/* `devices --replay FILE`: the GPUs a recording was made on, each once, as
 * `devices` lists them there (measured figures where they were measured). */
int rs_cmd_devices_recorded(rs_cli *cli)
{
    rs_recording rec;
    rs_error err;
    if (rs_recording_load(cli->replay, &rec, &err) != RS_OK) {
        rs_cli_error("%s", err.msg);
        return err.code;
    }
    rs_device_info devs[64];
    int count = 0;
    for (int i = -1; i < rec.count && count < 64; i++) {
        const rs_device_info *d =
            i < 0 ? (rec.has_device ? &rec.device : NULL) : &rec.rows[i].result.device;
        int seen = !d || !d->name[0];
        for (int k = 0; k < count && !seen; k++) {
            seen = devs[k].index == d->index && strcmp(devs[k].name, d->name) == 0;
            if (seen && !(devs[k].measured_gbps > 0) && d->measured_gbps > 0)
                devs[k] = *d; /* the first with its measured figures */
        }
        if (!seen) devs[count++] = *d;
        if (!seen) rs_text_scrub(devs[count - 1].name, 0);
    }
    if (count == 0) {
        rs_cli_error("%s names no GPU: it was made without one", cli->replay);
        rs_recording_free(&rec);
        return RS_E_USAGE;
    }
    rs_print_devices(stdout, devs, count, cli->format);
    int gpus = 1;
    char links[256], path[1024];
    rs_recording_gpus(&rec, &gpus, links, sizeof links);
    if (cli->format == RS_FMT_TABLE) {
        printf("recorded in %s", rs_text_safe(cli->replay, 0, path, sizeof path));
        if (gpus > 1) printf("; its runs over %d GPUs (%s) list the first", gpus, links);
        printf("\n");
    }
    rs_recording_free(&rec);
    return 0;
}
