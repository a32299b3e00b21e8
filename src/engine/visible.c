#include "visible.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/files.h"

#define PROC_GPUS "/proc/driver/nvidia/gpus"

/* The value after "key:" on a line of text, trimmed, into out. */
static int field(const char *text, const char *key, char *out, size_t len)
{
    const size_t k = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += line != NULL) {
        if (strncmp(line, key, k) != 0 || line[k] != ':') continue;
        const char *v = line + k + 1;
        while (*v == ' ' || *v == '\t') v++;
        size_t n = strcspn(v, "\n");
        while (n > 0 && isspace((unsigned char)v[n - 1])) n--;
        if (n == 0 || n >= len) return 0;
        memcpy(out, v, n);
        out[n] = '\0';
        return 1;
    }
    return 0;
}

static int by_bus(const void *a, const void *b)
{
    return strcmp(((const rs_gpu_seen *)a)->bus, ((const rs_gpu_seen *)b)->bus);
}

/* A folder name that is a PCI address: "0000:18:00.0" (hex, fixed width,
 * so that names sort in PCI order). */
static int pci_name(const char *s)
{
    static const char shape[] = "hhhh:hh:hh.h";
    if (strlen(s) != sizeof shape - 1) return 0;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i]) return 0;
    return 1;
}

int rs_gpus_seen(const char *dir, rs_gpu_seen *out, int max)
{
    if (!dir) dir = PROC_GPUS;
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; n < max && (e = readdir(d)) != NULL;) {
        if (!pci_name(e->d_name)) continue;
        char path[512], *text = NULL;
        size_t len = 0;
        rs_error err;
        snprintf(path, sizeof path, "%s/%s/information", dir, e->d_name);
        if (rs_file_read(path, "GPU information", 1u << 16, &text, &len, &err) != RS_OK) continue;
        rs_gpu_seen *g = &out[n];
        snprintf(g->bus, sizeof g->bus, "%s", e->d_name);
        if (field(text, "GPU UUID", g->uuid, sizeof g->uuid) &&
            field(text, "Model", g->model, sizeof g->model) && strncmp(g->uuid, "GPU-", 4) == 0)
            n++;
        free(text);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, by_bus);
    return n;
}

/* An entry of CUDA_VISIBLE_DEVICES as an index into all: a plain index, or
 * a GPU UUID (or the start of one) that names one GPU alone; -1 else. */
static int entry(const rs_gpu_seen *all, int n, const char *s, size_t len)
{
    while (len && *s == ' ') s++, len--;
    while (len && s[len - 1] == ' ') len--;
    if (len == 0 || len > 63) return -1;
    if (strspn(s, "0123456789") >= len) {
        const long i = len <= 4 ? strtol(s, NULL, 10) : -1;
        return i >= 0 && i < n ? (int)i : -1;
    }
    if (len <= 4 || strncmp(s, "GPU-", 4) != 0) return -1; /* MIG-, or unknown */
    int found = -1;
    for (int i = 0; i < n; i++)
        if (strncmp(all[i].uuid, s, len) == 0) {
            if (found >= 0) return -1; /* two GPUs start so */
            found = i;
        }
    return found;
}

/* CUDA's order of all: PCI order when asked for, or under fastest-first
 * where every GPU is the same model (nothing to rank them by). */
static int order_known(const rs_gpu_seen *all, int n, const char *order)
{
    if (order && strcmp(order, "PCI_BUS_ID") == 0) return 1;
    for (int i = 1; i < n; i++)
        if (strcmp(all[i].model, all[0].model) != 0) return 0;
    return 1;
}

int rs_visible_pick(const rs_gpu_seen *all, int n, const char *cvd, const char *order, int device,
                    char *uuid, size_t len, int *visible)
{
    int list[RS_SEEN_MAX], k = 0;
    *visible = -1;
    if (n <= 0 || n > RS_SEEN_MAX || !order_known(all, n, order)) return 0;
    if (!cvd) {
        for (k = 0; k < n; k++) list[k] = k;
    } else {
        for (const char *s = cvd; *s; s += *s == ',') {
            const size_t l = strcspn(s, ",");
            const int i = entry(all, n, s, l);
            if (i < 0 || k == RS_SEEN_MAX) return 0; /* CUDA's reading of it is not certain */
            for (int j = 0; j < k; j++)
                if (list[j] == i) return 0;
            list[k++] = i;
            s += l;
        }
    }
    *visible = k;
    if (device < 0 || device >= k) return 0;
    const int w = snprintf(uuid, len, "%s", all[list[device]].uuid);
    return w > 0 && (size_t)w < len;
}

int rs_visible_one(int device, char *uuid, size_t len, int *visible, char *why, size_t wlen)
{
    char none[8];
    if (!why) why = none, wlen = sizeof none;
    *visible = -1;
    const char *every = getenv("REDSCOPE_EVERY_GPU");
    if (every && *every && strcmp(every, "0") != 0) {
        snprintf(why, wlen, "REDSCOPE_EVERY_GPU is set");
        return 0;
    }
    rs_gpu_seen *all = malloc(sizeof *all * RS_SEEN_MAX);
    const int n = all ? rs_gpus_seen(NULL, all, RS_SEEN_MAX) : -1;
    const int one =
        n > 0 && rs_visible_pick(all, n, getenv("CUDA_VISIBLE_DEVICES"),
                                 getenv("CUDA_DEVICE_ORDER"), device, uuid, len, visible);
    free(all);
    if (n < 0)
        snprintf(why, wlen, "%s cannot be read", PROC_GPUS);
    else if (!one)
        snprintf(why, wlen, "CUDA's numbering of the %d GPUs is not certain here", n);
    else if (*visible < 2)
        snprintf(why, wlen, "CUDA sees one GPU");
    else
        snprintf(why, wlen, "device %d is %s", device, uuid);
    return one && *visible >= 2;
}
