/* How this machine's GPUs are linked: NVLink (and how many links) or PCIe
 * (and how far the path goes), from NVML, the driver's management library
 * (libnvidia-ml.so.1, loaded at run time); without it, CUDA's peer access
 * alone. For the header of a run over several GPUs and its record. */
#include "topology.h"

#include <cuda_runtime_api.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvml_lib.h"

typedef rs_nvml_dev nvml_dev;
typedef int (*nvml_p2p_fn)(nvml_dev, nvml_dev, int, int *);
typedef int (*nvml_link_fn)(nvml_dev, unsigned, int *);
typedef int (*nvml_level_fn)(nvml_dev, nvml_dev, int *);
typedef struct nvml_pci { /* nvmlPciInfo_t */
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci;
typedef int (*nvml_pci_fn)(nvml_dev, nvml_pci *);
typedef int (*nvml_remote_fn)(nvml_dev, unsigned, nvml_pci *);
typedef struct nvml_field { /* nvmlFieldValue_t */
    unsigned field, scope;  /* scope: a link, or UINT_MAX for all of them summed */
    long long timestamp, latency_us;
    int type, ret; /* nvmlValueType_t, nvmlReturn_t */
    union {
        double d;
        unsigned u;
        unsigned long ul;
        unsigned long long ull;
        long long sll;
    } value;
} nvml_field;
_Static_assert(offsetof(nvml_field, value) == 32 && sizeof(nvml_field) == 40, "nvmlFieldValue_t");
typedef int (*nvml_fields_fn)(nvml_dev, int, nvml_field *);

#define NVML_P2P_CAPS_INDEX_NVLINK 2
#define NVML_P2P_STATUS_OK         0
#define NVML_NVLINK_MAX_LINKS      18

typedef struct nvml {
    rs_nvml_lib lib;
    nvml_p2p_fn p2p;
    nvml_link_fn link_state;
    nvml_level_fn level;
    nvml_pci_fn pci;       /* a GPU's own PCI address */
    nvml_remote_fn remote; /* what a link's other end is */
    nvml_fields_fn fields; /* NVLink's counters */
} nvml;

int rs_gpus_virtual(void)
{
    const char *v = getenv("REDSCOPE_TEST_GPUS");
    const long k = v && *v ? strtol(v, NULL, 10) : 0;
    return k >= 2 && k <= RS_GPUS_MAX ? (int)k : 0;
}

int rs_gpu_count(int *count)
{
    *count = 0;
    const cudaError_t c = cudaGetDeviceCount(count);
    if (c != cudaSuccess) {
        cudaGetLastError();
        *count = 0;
        return (int)c;
    }
    if (*count > 0 && rs_gpus_virtual()) *count = rs_gpus_virtual();
    return 0;
}

int rs_gpu_dev(int g)
{
    return rs_gpus_virtual() ? 0 : g;
}

static int nvml_open(nvml *n)
{
    char why[160];
    if (!rs_nvml_open(&n->lib, why, sizeof why)) return 0;
    n->p2p = (nvml_p2p_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetP2PStatus");
    n->link_state = (nvml_link_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetNvLinkState");
    n->level = (nvml_level_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetTopologyCommonAncestor");
    n->pci = (nvml_pci_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetPciInfo_v3");
    n->remote = (nvml_remote_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    n->fields = (nvml_fields_fn)rs_nvml_sym(&n->lib, "nvmlDeviceGetFieldValues");
    if (n->p2p && n->level) return 1;
    rs_nvml_close(&n->lib);
    return 0;
}

/* NVML's handle of CUDA device d (matched by PCI bus id, not by index). */
static int nvml_device(const nvml *n, int d, nvml_dev *out)
{
    return rs_nvml_device(&n->lib, d, out);
}

/* GPU a's active NVLinks: all of them, those whose other end is GPU b
 * itself, and those whose other end NVML named (each of them, and none to
 * b: they go through an NVSwitch). */
static void count_links(const nvml *n, nvml_dev a, nvml_dev b, int *all, int *to_b, int *named)
{
    nvml_pci pb;
    const int know_b = n->pci && n->remote && n->pci(b, &pb) == 0;
    *all = *to_b = *named = 0;
    for (unsigned l = 0; n->link_state && l < NVML_NVLINK_MAX_LINKS; l++) {
        int on = 0;
        if (n->link_state(a, l, &on) != 0 || !on) continue;
        ++*all;
        nvml_pci far;
        if (!know_b || n->remote(a, l, &far) != 0) continue;
        ++*named;
        *to_b += far.domain == pb.domain && far.bus == pb.bus && far.device == pb.device;
    }
}

static void pair_nvml(const nvml *n, rs_link *l)
{
    nvml_dev a, b;
    if (!n->lib.lib || !nvml_device(n, l->a, &a) || !nvml_device(n, l->b, &b)) return;
    int status = -1, level = -1;
    if (n->p2p(a, b, NVML_P2P_CAPS_INDEX_NVLINK, &status) == 0 && status == NVML_P2P_STATUS_OK) {
        int all = 0, direct = 0, named = 0;
        count_links(n, a, b, &all, &direct, &named);
        l->nvlinks = direct ? direct : all > 0 ? all : 1;
        l->switched = !direct && all > 0 && named == all; /* they end at a switch */
    }
    if (n->level(a, b, &level) == 0) l->level = level;
}

int rs_topology(int gpus, rs_link *pairs, int max)
{
    nvml n = {0};
    nvml_open(&n);
    int count = 0;
    for (int a = 0; a < gpus; a++)
        for (int b = a + 1; b < gpus && count < max; b++) {
            rs_link *l = &pairs[count++];
            *l = (rs_link){a, b, 0, 0, -1, 0};
            if (cudaDeviceCanAccessPeer(&l->peer, a, b) != cudaSuccess) {
                cudaGetLastError();
                l->peer = 0;
            }
            pair_nvml(&n, l);
        }
    rs_nvml_close(&n.lib);
    return count;
}

void rs_topology_describe(int gpus, char *buf, size_t len)
{
    if (rs_gpus_virtual()) {
        snprintf(buf, len, "every GPU CUDA device 0 (test-only REDSCOPE_TEST_GPUS=%d)",
                 rs_gpus_virtual());
        return;
    }
    rs_link pairs[RS_LINKS_MAX];
    rs_links_describe(pairs, rs_topology(gpus, pairs, RS_LINKS_MAX), buf, len);
}

struct rs_nvlink {
    nvml n;
    int gpus;
    nvml_dev dev[RS_GPUS_MAX];
};

void rs_nvlink_close(rs_nvlink *l)
{
    if (!l) return;
    rs_nvml_close(&l->n.lib);
    free(l);
}

static int field_u64(const nvml_field *f, uint64_t *v)
{
    if (f->ret != 0) return 0;
    switch (f->type) {
    case 1: *v = f->value.u; return 1;
    case 2: *v = f->value.ul; return 1;
    case 3: *v = f->value.ull; return 1;
    case 4: *v = f->value.sll > 0 ? (uint64_t)f->value.sll : 0; return 1;
    default: return 0;
    }
}

/* NVML's fields: the throughput counters in KiB (138, 139: NVLink up to 4),
 * else the byte counts (202, 204: NVLink 5), every link summed. */
static int link_counters(const nvml *n, nvml_dev d, uint64_t *tx, uint64_t *rx)
{
    static const unsigned id[2][2] = {{138, 139}, {202, 204}};
    static const uint64_t unit[2] = {1024, 1};
    for (int k = 0; k < 2; k++) {
        nvml_field f[2] = {{.field = id[k][0], .scope = UINT_MAX},
                           {.field = id[k][1], .scope = UINT_MAX}};
        uint64_t t, r;
        if (n->fields(d, 2, f) != 0 || !field_u64(&f[0], &t) || !field_u64(&f[1], &r)) continue;
        *tx = t * unit[k];
        *rx = r * unit[k];
        return 1;
    }
    return 0;
}

/* GPU d has an active NVLink and NVML reads its counters. */
static int has_counters(const nvml *n, nvml_dev d)
{
    int active = 0;
    for (unsigned k = 0; k < NVML_NVLINK_MAX_LINKS && !active; k++)
        if (n->link_state(d, k, &active) != 0) active = 0;
    uint64_t t, r;
    return active && link_counters(n, d, &t, &r);
}

rs_nvlink *rs_nvlink_open(const int *dev, int gpus)
{
    rs_nvlink *l = calloc(1, sizeof *l);
    if (!l || gpus < 1 || gpus > RS_GPUS_MAX || !nvml_open(&l->n) || !l->n.fields ||
        !l->n.link_state) {
        rs_nvlink_close(l);
        return NULL;
    }
    l->gpus = gpus;
    for (int g = 0; g < gpus; g++)
        if (!nvml_device(&l->n, dev[g], &l->dev[g]) || !has_counters(&l->n, l->dev[g])) {
            rs_nvlink_close(l);
            return NULL;
        }
    return l;
}

int rs_nvlink_read(const rs_nvlink *l, uint64_t *tx, uint64_t *rx)
{
    for (int g = 0; l && g < l->gpus; g++)
        if (!link_counters(&l->n, l->dev[g], &tx[g], &rx[g])) return 0;
    return l != NULL;
}
