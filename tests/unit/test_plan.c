/* The pure plan: launches, grids, buffers and finishes of every shape,
 * made without a GPU from the request and two device facts. */
#include <string.h>

#include "check.h"
#include "engine/plan.h"

static rs_request req(rs_variant v, rs_dtype t, uint64_t n, unsigned block, rs_finish fin)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.type = t;
    r.n = n;
    r.block = block;
    r.finish = fin;
    return r;
}

static const rs_plan_facts h200 = {132, 8};

static void relaunch(void)
{
    rs_plan p;
    rs_error err;
    rs_request r = req(RS_V_SEQUENTIAL, RS_INT32, 1u << 24, 256, RS_FINISH_RELAUNCH);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK_MSG(p.nsteps == 3, "%d steps", p.nsteps);
    CHECK(p.grid1 == 65536 && p.part_elems == 65536 && p.ept == 1.0);
    CHECK(p.step[0].in == RS_BUF_INPUT && p.step[0].out == RS_BUF_PART0);
    CHECK(p.step[1].in == RS_BUF_PART0 && p.step[1].out == RS_BUF_PART1);
    CHECK(p.step[2].in == RS_BUF_PART1 && p.step[2].out == RS_BUF_OUT);
    CHECK(p.step[1].l.grid == 256 && p.step[1].l.n == 65536 && p.step[2].l.grid == 1);
    CHECK(p.step[1].l.in_type == RS_INT32 && p.acc == RS_INT32);
    CHECK(p.step[0].l.in == NULL && p.step[0].l.out == NULL); /* no addresses in a plan */
    CHECK(strstr(p.names[1], "pass 2") != NULL);
    /* first_add: two elements per thread, half the blocks */
    r.variant = RS_V_FIRST_ADD;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 32768 && p.ept == 2.0);
    /* one block: one launch, straight to the result */
    r.n = 200;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.nsteps == 1);
    CHECK(p.step[0].out == RS_BUF_OUT && p.grid1 == 1);
}

static void grid_stride(void)
{
    rs_plan p;
    rs_error err;
    /* one wave: SMs x resident blocks, never more blocks than work */
    rs_request r = req(RS_V_MULTI_ELEMENT, RS_INT32, 1u << 24, 256, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK_MSG(p.grid1 == 132 * 8, "grid %u", p.grid1);
    CHECK(p.nsteps == 2 && p.step[1].l.grid == 1 && p.step[1].out == RS_BUF_OUT);
    r.n = 5000;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 10); /* 5000 / 512 */
    /* vectorized: 16-byte loads, per-iteration elements by type size; the
     * user's grid keeps the user's blockDim */
    r = req(RS_V_VECTORIZED, RS_FLOAT64, 1u << 12, 256, RS_FINISH_AUTO);
    r.grid = 8;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 8 && p.block1 == 256);
    CHECK(rs_plan_block(&r) == 256);
    r.grid = 0;
    r.ept = 2;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 8 && p.block1 == 256);
}

/* vectorized chooses its own launch where the shape is automatic */
static void vectorized_shape(void)
{
    rs_plan p;
    rs_error err;
    /* up to 4096 vectors: one block of whole warps running k_vectorized_one,
     * one vector per thread up to 1024 vectors, then two, then four */
    rs_request r = req(RS_V_VECTORIZED, RS_FLOAT64, 1u << 12, 256, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK_MSG(p.grid1 == 1 && p.block1 == 1024, "grid %u block %u", p.grid1, p.block1);
    CHECK(p.nsteps == 1 && p.step[0].l.block == 1024 && p.step[0].l.grid == 1);
    CHECK_STR_EQ(p.names[0], "k_vectorized_one");
    r.n = 1;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 1 && p.block1 == 32);
    CHECK_STR_EQ(p.names[0], "k_vectorized_one");
    r = req(RS_V_VECTORIZED, RS_INT32, 1000, 32, RS_FINISH_AUTO); /* 250 vectors */
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 1 && p.block1 == 256);
    r = req(RS_V_VECTORIZED, RS_INT32, 4096 * 4, 32, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 1 && p.block1 == 1024);
    CHECK_STR_EQ(p.names[0], "k_vectorized_one");
    r.n++; /* one vector more: several blocks of 512 */
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 9 && p.block1 == 512);
    CHECK_STR_EQ(p.names[0], "k_vectorized");
    /* a grid of one the user asks for, too large for four vectors a thread */
    r.grid = 1;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 1 && p.block1 == 32);
    CHECK_STR_EQ(p.names[0], "k_vectorized");
    r.grid = 0;
    r.n = 1u << 22;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.block1 == 1024);
    CHECK_MSG(p.grid1 == 1024, "grid %u", p.grid1); /* 2^22 / (1024 x 4) */
    r.n = 1u << 24;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 132 * 8); /* one wave */
    /* the finish the user asks for still applies to the chosen shape */
    r.finish = RS_FINISH_RELAUNCH;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.nsteps == 2);
    CHECK(p.step[1].l.block == 1024 && p.step[1].l.grid == 1);
    /* other variants keep the user's blockDim */
    r.variant = RS_V_WARP_SHUFFLE;
    CHECK(rs_plan_block(&r) == 32);
    /* the user's grid or elements per thread */
    r = req(RS_V_MULTI_ELEMENT, RS_INT32, 1u << 24, 256, RS_FINISH_AUTO);
    r.grid = 100;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 100);
    r.grid = 0;
    r.ept = 8;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.grid1 == 8192);
    /* facts unknown (zero): still at least one block */
    const rs_plan_facts none = {0, 0};
    r.ept = 0;
    CHECK(rs_plan_make(&r, &none, &p, &err) == RS_OK && p.grid1 == 1);
}

static void finishes(void)
{
    rs_plan p;
    rs_error err;
    rs_request r = req(RS_V_WARP_SHUFFLE, RS_FLOAT32, 1u << 20, 256, RS_FINISH_ATOMIC);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK(p.nsteps == 1 && p.init_first && p.step[0].l.finish == RS_KFIN_ATOMIC);
    CHECK(p.step[0].out == RS_BUF_OUT);
    r.finish = RS_FINISH_SINGLE_PASS;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK(p.nsteps == 1 && p.step[0].partials == RS_BUF_PART0 && !p.init_first);
    r.finish = RS_FINISH_CPU;
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK);
    CHECK(p.cpu_finish && p.cpu_count == p.grid1 && p.step[0].out == RS_BUF_PART0);
    r = req(RS_V_ATOMIC, RS_INT32, 1000, 256, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.init_first && p.chain == 1000.0);
    r = req(RS_V_CUB, RS_INT32, 1u << 20, 256, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_OK && p.nsteps == 0 && p.names[0]);
}

static void refused(void)
{
    rs_plan p;
    rs_error err;
    rs_request r = req(RS_V_SEQUENTIAL, RS_INT32, 1ull << 40, 32, RS_FINISH_AUTO);
    CHECK(rs_plan_make(&r, &h200, &p, &err) == RS_E_USAGE);
    CHECK(strstr(err.msg, "grid-stride variant") != NULL);
}

int main(void)
{
    relaunch();
    grid_stride();
    vectorized_shape();
    finishes();
    refused();
    return check_report("test_plan");
}
