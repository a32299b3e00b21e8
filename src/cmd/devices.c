/* `redscope devices`: the CUDA devices here (--measure: the limit and the
 * floors), or the GPUs a recording was made on (--replay FILE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cmd.h"
#include "formats/record.h"
#include "core/text.h"
#include "core/source.h"
#include "engine/gpu_process.h"

typedef struct devices_own {
    int measure; /* --measure */
} devices_own;

static rs_status set_measure(void *own, const char *v, rs_error *err)
{
    (void)v, (void)err;
    ((devices_own *)own)->measure = 1;
    return RS_OK;
}

static const rs_cmd_option devices_options[] = {
    {"measure", NULL, "measure each GPU's streaming-read bandwidth", set_measure},
    {NULL, NULL, NULL, NULL}};

const rs_command rs_devices_entry = {
    .name = "devices",
    .usage = "[--measure | --replay FILE]",
    .summary = "list CUDA devices, or the ones a recording was made on",
    .extras = RS_X_FORMAT | RS_X_REPLAY,
    .options = devices_options,
    .own_size = sizeof(devices_own),
    .fn = rs_cmd_devices,
    .exits = RS_EXIT(0) | RS_EXIT(RS_E_USAGE) | RS_EXIT(RS_E_NODRIVER) | RS_EXIT(RS_E_NODEVICE) |
             RS_EXIT(RS_E_CUDA) | RS_EXIT(RS_E_IO),
};

/* Device i's facts from the GPU process (bare: no context of its own; with
 * --measure each device is measured in an engine of its own there): 1 when
 * *d holds it, with *total the devices here; 0 with the error said. A
 * device that cannot be measured is listed as it is, its error said. */
static int one_device(rs_source *src, int i, int measure, rs_device_info *d, int *total,
                      rs_status *st)
{
    static rs_result res;
    rs_request req;
    rs_error err;
    rs_request_defaults(&req);
    req.device = (uint32_t)i;
    memset(&res, 0, sizeof res); /* a process that ended answers nothing */
    const rs_ask ask = {measure ? RS_ASK_DEVICE_MEASURE : RS_ASK_DEVICE, NULL, NULL, NULL};
    *st = src->run(src, &req, &ask, &res, &err);
    if (res.multi.gpus > 0) *total = res.multi.gpus;
    if (*st != RS_OK && !res.device.name[0]) {
        rs_cli_error("%s", err.msg);
        return 0;
    }
    if (*st != RS_OK) rs_cli_error("device %d: %s", i, err.msg);
    *d = res.device;
    *st = RS_OK;
    return 1;
}

int rs_cmd_devices(rs_cli *cli)
{
    if (cli->replay) return rs_cmd_devices_recorded(cli);
    rs_device_info devs[64];
    int count = 0, total = 1;
    rs_error err;
    rs_source *src = NULL;
    rs_status st = rs_source_child_open(0, RS_CHILD_BARE, &src, &err);
    if (st == RS_OK) st = src->prepare(src, 0, &err);
    if (st != RS_OK) rs_cli_error("%s", err.msg);
    while (st == RS_OK && count < total && count < 64 &&
           one_device(src, count, RS_CLI_OWN(cli, devices_own)->measure, &devs[count], &total, &st))
        count++;
    rs_source_close(src);
    if (st != RS_OK) return (int)st;
    rs_print_devices(rs_cli_out(cli), devs, count, rs_cli_text_format(cli));
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
    FILE *out = rs_cli_out(cli);
    rs_print_devices(out, devs, count, rs_cli_text_format(cli));
    int gpus = 1;
    char links[256], path[1024];
    rs_recording_gpus(&rec, &gpus, links, sizeof links);
    if (rs_cli_text_format(cli) == RS_FMT_TABLE) {
        fprintf(out, "recorded in %s", rs_text_safe(cli->replay, 0, path, sizeof path));
        if (gpus > 1) fprintf(out, "; its runs over %d GPUs (%s) list the first", gpus, links);
        fprintf(out, "\n");
    }
    rs_recording_free(&rec);
    return 0;
}
