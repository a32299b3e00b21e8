/* The variant catalogue (core/catalogue.c): every variant's name reads back
 * to it, an unknown name is -1; a blockDim out of 32..1024, or not a power
 * of two where the variant's tree halves it, is refused with the reason in
 * words; two requests are the same run when they ask for the same
 * measurement (the block not counted where a library picks its own); a
 * user kernel goes by its file's name. */
#include <string.h>

#include "check.h"
#include "core/catalogue.h"

static rs_request request(rs_variant v, unsigned block)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.block = block;
    return r;
}

static void names(void)
{
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        const char *name = rs_variant_name((rs_variant)v);
        CHECK_MSG(rs_variant_from_name(name) == v, "%s reads back as %d, not %d", name,
                  rs_variant_from_name(name), v);
        for (int w = 0; w < v; w++)
            CHECK_MSG(strcmp(name, rs_variant_name((rs_variant)w)) != 0, "%d and %d: %s", w, v,
                      name);
    }
    CHECK_STR_EQ(rs_variant_name(RS_V_ATOMIC), "atomic");
    CHECK_STR_EQ(rs_variant_name(RS_V_SEQUENTIAL), "sequential");
    CHECK(rs_variant_from_name("cub") == RS_V_CUB);
    CHECK(rs_variant_from_name("vectorized") == RS_V_VECTORIZED);
    CHECK(rs_variant_from_name("kernel") == RS_V_KERNEL);
    CHECK(rs_variant_from_name("nope") == -1);
    CHECK(rs_variant_from_name("Sequential") == -1);
    CHECK(rs_variant_from_name("sequential ") == -1);
    CHECK(rs_variant_from_name("") == -1);
    CHECK(rs_variant_from_name(NULL) == -1);
    CHECK_STR_EQ(rs_variant_name(RS_VARIANT_COUNT), "?");
}

/* rs_catalogue_check on r: its status, the message in err. */
static rs_status check(rs_variant v, unsigned block, rs_error *err)
{
    rs_request r = request(v, block);
    memset(err, 0, sizeof *err);
    return rs_catalogue_check(&r, err);
}

static void blocks(void)
{
    rs_error err;
    CHECK(check(RS_V_SEQUENTIAL, 256, &err) == RS_OK);
    CHECK(check(RS_V_SEQUENTIAL, RS_BLOCK_MIN, &err) == RS_OK);
    CHECK(check(RS_V_SEQUENTIAL, RS_BLOCK_MAX, &err) == RS_OK);
    CHECK(check(RS_V_SEQUENTIAL, RS_BLOCK_MIN / 2, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "blockDim 16 is out of range");
    CHECK_STR_CONTAINS(err.msg, "32 to 1024");
    CHECK(check(RS_V_VECTORIZED, RS_BLOCK_MAX * 2, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "blockDim 2048 is out of range");
    CHECK(check(RS_V_ATOMIC, 0, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "out of range");
    /* a tree in shared memory halves the block: a power of two */
    CHECK(check(RS_V_SEQUENTIAL, 96, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "sequential needs a power-of-two blockDim");
    CHECK_STR_CONTAINS(err.msg, "96 is not a power of two");
    CHECK(check(RS_V_INTERLEAVED, 768, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "interleaved needs a power-of-two");
    CHECK(check(RS_V_INTERLEAVED, 512, &err) == RS_OK);
    /* shuffles need whole warps, not a power of two */
    CHECK(check(RS_V_WARP_SHUFFLE, 96, &err) == RS_OK);
    CHECK(check(RS_V_ATOMIC, 100, &err) == RS_OK);
    CHECK(check(RS_V_WARP_SHUFFLE, 100, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "multiple of 32");
    /* a library picks its own launch, the CPU has none */
    CHECK(check(RS_V_CUB, 96, &err) == RS_OK);
    CHECK(check(RS_V_CUB, 4096, &err) == RS_OK);
    CHECK(check(RS_V_CPU, 7, &err) == RS_OK);
}

static void same_run(void)
{
    rs_request a = request(RS_V_SEQUENTIAL, 256), b = a;
    CHECK(rs_request_same_run(&a, &b));
    b.n = a.n + 1;
    CHECK(!rs_request_same_run(&a, &b));
    b = a, b.type = RS_FLOAT32;
    CHECK(!rs_request_same_run(&a, &b));
    b = a, b.block = 512;
    CHECK(!rs_request_same_run(&a, &b));
    b = a, b.variant = RS_V_FIRST_ADD;
    CHECK(!rs_request_same_run(&a, &b));
    b = a, b.finish = RS_FINISH_RELAUNCH; /* sequential's own finish, named */
    CHECK(rs_request_same_run(&a, &b));
    b.finish = RS_FINISH_ATOMIC;
    CHECK(!rs_request_same_run(&a, &b));
    b = a, b.reps = 100; /* how often it is timed: the same measurement */
    snprintf(b.note, sizeof b.note, "another note");
    CHECK(rs_request_same_run(&a, &b));
    /* cub picks its own block */
    rs_request c = request(RS_V_CUB, 256), d = request(RS_V_CUB, 1024);
    CHECK_MSG(rs_request_same_run(&c, &d), "cub at blocks 256 and 1024: not the same run");
    d.n = c.n * 2;
    CHECK(!rs_request_same_run(&c, &d));
    /* your kernel: its file counts */
    rs_request k = request(RS_V_KERNEL, 256), l = k;
    snprintf(k.kernel, sizeof k.kernel, "kernels/mine.cu");
    snprintf(l.kernel, sizeof l.kernel, "kernels/mine.cu");
    CHECK(rs_request_same_run(&k, &l));
    snprintf(l.kernel, sizeof l.kernel, "kernels/yours.cu");
    CHECK(!rs_request_same_run(&k, &l));
    l = k, l.block = 128;
    CHECK(!rs_request_same_run(&k, &l));
}

/* The three rules over two requests, each field as the table says. */
static void identity(void)
{
    rs_request a = request(RS_V_SEQUENTIAL, 256), b = a;
    b.seed = 7; /* another input of the same kind: the same run, another configuration */
    CHECK(rs_request_same_run(&a, &b) && !rs_request_same_config(&a, &b, 0) &&
          !rs_request_equal(&a, &b));
    b = a, b.stalls = 1, b.device = 3; /* what else is collected, where: neither */
    CHECK(rs_request_same_run(&a, &b) && rs_request_same_config(&a, &b, 0) &&
          !rs_request_equal(&a, &b));
    b = a, b.variant = RS_V_CUB; /* another row of the same ladder */
    CHECK(!rs_request_same_run(&a, &b) && rs_request_same_config(&a, &b, 0));
    b = a, b.n = 2 * a.n; /* another size: only a sweep's rows share a configuration */
    CHECK(!rs_request_same_config(&a, &b, 0) && rs_request_same_config(&a, &b, 1));
    b = a, b.cross = RS_CROSS_NCCL; /* no cross finish on one GPU */
    CHECK(rs_request_same_run(&a, &b));
    a.gpus = b.gpus = 2;
    CHECK(!rs_request_same_run(&a, &b));
    b = a;
    snprintf(b.metrics, sizeof b.metrics, "full");
    CHECK(rs_request_same_run(&a, &b) && !rs_request_same_config(&a, &b, 0));
    b = a;
    b.metrics[sizeof b.metrics - 1] = 'x'; /* past the text's end: not part of it */
    CHECK(rs_request_equal(&a, &b));
}

/* The row's flags answer what code used to ask by name. */
static void rows(void)
{
    CHECK(rs_variant_first(RS_VF_KERNEL_BASE) >= 0);
    CHECK(rs_variant_has(RS_V_CPU, RS_VF_HOST) && !rs_variant_has(RS_V_CUB, RS_VF_HOST));
    CHECK(!rs_variant_has((rs_variant)RS_VARIANT_COUNT, 0));
    CHECK(rs_variant_set_with(0) == (RS_VARIANT_BIT(RS_VARIANT_COUNT) - 1));
    for (int v = 0; v < RS_VARIANT_COUNT; v++)
        CHECK_MSG(rs_catalogue_get((rs_variant)v)->step == v + 1, "%s is step %d",
                  rs_variant_name((rs_variant)v), rs_catalogue_get((rs_variant)v)->step);
    rs_request r = request(RS_V_CUB, 256);
    r.grid = 4; /* the refusal names every variant that takes a grid, from their rows */
    rs_error err = {RS_OK, ""};
    CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
    CHECK_MSG(strstr(err.msg, "multi_element, warp_shuffle, cooperative_groups and vectorized"),
              "%s", err.msg);
}

static void request_name(void)
{
    rs_request r = request(RS_V_KERNEL, 256);
    snprintf(r.kernel, sizeof r.kernel, "/home/me/kernels/two_pass.cu");
    CHECK_STR_EQ(rs_request_name(&r), "two_pass.cu");
    snprintf(r.kernel, sizeof r.kernel, "mine.cu");
    CHECK_STR_EQ(rs_request_name(&r), "mine.cu");
    r.kernel[0] = '\0';
    CHECK_STR_EQ(rs_request_name(&r), "kernel");
    r = request(RS_V_VECTORIZED, 256);
    CHECK_STR_EQ(rs_request_name(&r), "vectorized");
}

int main(void)
{
    names();
    blocks();
    same_run();
    identity();
    rows();
    request_name();
    return check_report("test_catalogue");
}
