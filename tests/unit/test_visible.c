/* The one GPU a GPU process sees alone (engine/visible.c): the driver's
 * list read from a folder shaped like /proc/driver/nvidia/gpus, and
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER applied as CUDA applies them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "engine/visible.h"

static const char *uuid_of[] = {"GPU-aaaa1111-0000", "GPU-bbbb2222-0000", "GPU-cccc3333-0000",
                                "GPU-aaaa4444-0000"};

/* a GPU folder as the driver writes it */
static void gpu(const char *root, const char *bus, const char *model, const char *uuid)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, bus);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/information", root, bus);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f,
            "Model: \t\t %s\nIRQ:   \t\t 123\nGPU UUID: \t %s\nVideo BIOS: \t ??.??\n"
            "Bus Location: \t %s\n",
            model, uuid, bus);
    fclose(f);
}

/* the UUID device d is, or "" where the numbering is not certain */
static const char *pick(const rs_gpu_seen *all, int n, const char *cvd, const char *order, int d,
                        int *visible)
{
    static char uuid[64];
    if (!rs_visible_pick(all, n, cvd, order, d, uuid, sizeof uuid, visible)) uuid[0] = '\0';
    return uuid;
}

static void test_read(void)
{
    char root[] = "/tmp/rs-visible-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    /* made out of order: read back in PCI order; a name that is no PCI address is not a GPU */
    gpu(root, "0000:9a:00.0", "NVIDIA H100 80GB HBM3", uuid_of[2]);
    gpu(root, "0000:18:00.0", "NVIDIA H100 80GB HBM3", uuid_of[0]);
    gpu(root, "0000:2a:00.0", "NVIDIA H100 80GB HBM3", uuid_of[1]);
    gpu(root, "not-a-gpu", "NVIDIA H100 80GB HBM3", uuid_of[3]);
    rs_gpu_seen all[RS_SEEN_MAX];
    const int n = rs_gpus_seen(root, all, RS_SEEN_MAX);
    CHECK_MSG(n == 3, "%d GPUs read", n);
    CHECK_STR_EQ(all[0].bus, "0000:18:00.0");
    CHECK_STR_EQ(all[0].uuid, uuid_of[0]);
    CHECK_STR_EQ(all[2].uuid, uuid_of[2]);
    CHECK_STR_EQ(all[1].model, "NVIDIA H100 80GB HBM3");
    CHECK(rs_gpus_seen(root, all, 2) == 2); /* at most max */
    CHECK(rs_gpus_seen("/nonexistent/rs", all, RS_SEEN_MAX) == -1);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

static void test_pick(void)
{
    rs_gpu_seen all[4];
    memset(all, 0, sizeof all);
    for (int i = 0; i < 4; i++) {
        snprintf(all[i].uuid, sizeof all[i].uuid, "%s", uuid_of[i]);
        snprintf(all[i].model, sizeof all[i].model, "NVIDIA H100 80GB HBM3");
    }
    int v = 0;
    /* unset: every GPU, in PCI order */
    CHECK_STR_EQ(pick(all, 4, NULL, NULL, 2, &v), uuid_of[2]);
    CHECK(v == 4);
    CHECK_STR_EQ(pick(all, 4, NULL, NULL, 4, &v), ""); /* no device 4 */
    CHECK(v == 4);
    /* indices, in the order given */
    CHECK_STR_EQ(pick(all, 4, "3,1", NULL, 0, &v), uuid_of[3]);
    CHECK(v == 2);
    CHECK_STR_EQ(pick(all, 4, "3, 1", NULL, 1, &v), uuid_of[1]);
    /* UUIDs, whole or a start that names one GPU */
    CHECK_STR_EQ(pick(all, 4, "GPU-cccc3333-0000", NULL, 0, &v), uuid_of[2]);
    CHECK(v == 1);
    CHECK_STR_EQ(pick(all, 4, "GPU-bbbb,0", NULL, 1, &v), uuid_of[0]);
    CHECK_STR_EQ(pick(all, 4, "GPU-aaaa", NULL, 0, &v), ""); /* two GPUs start so */
    /* not certain: MIG, unknown words, an index past the GPUs, twice the same,
     * an empty entry; CUDA's own reading decides then */
    CHECK_STR_EQ(pick(all, 4, "MIG-1234", NULL, 0, &v), "");
    CHECK(v == -1);
    CHECK_STR_EQ(pick(all, 4, "0,7", NULL, 0, &v), "");
    CHECK_STR_EQ(pick(all, 4, "1,1", NULL, 0, &v), "");
    CHECK_STR_EQ(pick(all, 4, "0,,1", NULL, 0, &v), "");
    CHECK_STR_EQ(pick(all, 4, "-1", NULL, 0, &v), "");
    CHECK_STR_EQ(pick(all, 4, "nvidia0", NULL, 0, &v), "");
    /* none visible */
    CHECK_STR_EQ(pick(all, 4, "", NULL, 0, &v), "");
    CHECK(v == 0);
    /* models that differ: fastest-first ranks them, PCI order only when asked */
    snprintf(all[1].model, sizeof all[1].model, "NVIDIA A100-SXM4-80GB");
    CHECK_STR_EQ(pick(all, 4, NULL, NULL, 1, &v), "");
    CHECK_STR_EQ(pick(all, 4, NULL, "FASTEST_FIRST", 1, &v), "");
    CHECK_STR_EQ(pick(all, 4, NULL, "PCI_BUS_ID", 1, &v), uuid_of[1]);
    CHECK(v == 4);
    /* nothing read */
    CHECK_STR_EQ(pick(all, 0, NULL, NULL, 0, &v), "");
}

int main(void)
{
    test_read();
    test_pick();
    return check_report("test_visible");
}
