/* The request table: defaults, parsing, formatting, and the catalogue's
 * rules for what each variant accepts. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core/catalogue.h"
#include "core/request.h"
#include "core/snippets.h"

static void table_is_consistent(void)
{
    for (int i = 0; i < RS_FIELD_COUNT; i++) {
        const rs_field *f = &rs_fields[i];
        CHECK(f->id == (rs_field_id)i);
        CHECK(rs_field_by_key(f->section, f->key) == f);
        if (f->flag) CHECK(rs_field_by_flag(f->flag) == f);
        if (f->short_opt) CHECK(rs_field_by_short(f->short_opt) == f);
        CHECK(f->help && strlen(f->help) > 10);
        for (int k = i + 1; k < RS_FIELD_COUNT; k++) {
            CHECK(!(f->flag && rs_fields[k].flag && strcmp(f->flag, rs_fields[k].flag) == 0));
            CHECK(!(f->short_opt && f->short_opt == rs_fields[k].short_opt));
        }
        rs_request r;
        rs_error err;
        rs_request_defaults(&r);
        CHECK_MSG(rs_field_set(&r, f, f->def, &err) == RS_OK, "default of %s: %s", f->key, err.msg);
        CHECK(rs_field_is_default(&r, f));
    }
}

static void round_trip(const char *key, const char *value, const char *expect)
{
    rs_request r, back;
    rs_error err;
    rs_request_defaults(&r);
    const rs_field *f = rs_field_by_key(strcmp(key, "range") == 0  ? "sweep"
                                        : strcmp(key, "note") == 0 ? "preset"
                                                                   : "run",
                                        key);
    CHECK_MSG(f && rs_field_set(&r, f, value, &err) == RS_OK, "%s = %s", key, value);
    char text[512];
    rs_field_format(&r, f, text, sizeof text);
    CHECK_MSG(strcmp(text, expect) == 0, "%s formatted as '%s', expected '%s'", key, text, expect);
    rs_request_defaults(&back);
    CHECK(rs_field_set(&back, f, text, &err) == RS_OK);
    CHECK(rs_request_equal(&r, &back));
}

static void values(void)
{
    round_trip("variant", "first_add", "first_add");
    round_trip(
        "variants", "interleaved..unroll_warp",
        "interleaved,interleaved_strided,sequential,first_add,unroll_warp_volatile,unroll_warp");
    round_trip("variants", "cub, atomic", "atomic,cub");
    round_trip("type", "double", "float64");
    round_trip("type", "bfloat16", "bfloat16");
    round_trip("op", "prod", "product");
    round_trip("n", "1024*65535", "67107840");
    round_trip("n", "16M", "2^24");
    round_trip("block", "128", "128");
    round_trip("elements_per_thread", "64", "64");
    round_trip("finish", "single_pass", "single_pass");
    round_trip("input", "ones", "ones");
    round_trip("seed", "18446744073709551615", "18446744073709551615");
    round_trip("metrics", "bank_ld,warp_inst", "bank_ld,warp_inst");
    round_trip("range", "1K..1G:4", "1K..1G:4");
    round_trip("note", "Harris' study", "Harris' study");

    rs_request r;
    rs_error err;
    rs_request_defaults(&r);
    const rs_field *block = rs_field_by_key("run", "block");
    CHECK(rs_field_set(&r, block, "2048", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "from 32 to 1024");
    CHECK(rs_field_set(&r, block, "31", &err) == RS_E_USAGE);
    CHECK(rs_field_set(&r, rs_field_by_key("run", "type"), "int8", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "one of int32 int64 float32 float64 float16 bfloat16");
    CHECK(rs_field_set(&r, rs_field_by_key("run", "variant"), "reduce6", &err) == RS_E_USAGE);
    CHECK(rs_field_set(&r, rs_field_by_key("run", "variants"), "cub..atomic", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "comes after");
    CHECK(rs_field_set(&r, rs_field_by_key("run", "metrics"), "bank_conflicts", &err) ==
          RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "unknown metric 'bank_conflicts'");
    /* a set inside a list is named as a set, not as an unknown metric */
    CHECK(rs_field_set(&r, rs_field_by_key("run", "metrics"), "full,default", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "'full' is a set, given alone");
    CHECK(rs_field_set(&r, rs_field_by_key("preset", "note"), "a\nb", &err) == RS_E_USAGE);
    CHECK(r.block == 256); /* unchanged by the failures */

    rs_variant list[RS_VARIANT_COUNT];
    rs_request_defaults(&r);
    const int all = rs_request_variant_list(&r, list, RS_VARIANT_COUNT);
    CHECK(all == RS_VARIANT_COUNT - 2 && list[0] == RS_V_ATOMIC && list[all - 1] == RS_V_THRUST);
    /* a kernel file joins the ladder as its last row, whatever the list */
    snprintf(r.kernel, sizeof r.kernel, "mine.cu");
    CHECK(rs_request_variant_list(&r, list, RS_VARIANT_COUNT) == all + 1 &&
          list[all] == RS_V_KERNEL);
    CHECK(rs_parse_variants("sequential", &r.variants, &err) == RS_OK);
    CHECK(rs_request_variant_list(&r, list, RS_VARIANT_COUNT) == 2 && list[1] == RS_V_KERNEL);
    CHECK(strcmp(rs_request_name(&r), "sequential") == 0);
    r.variant = RS_V_KERNEL;
    snprintf(r.kernel, sizeof r.kernel, "labs/week3/mine.cu");
    CHECK(strcmp(rs_request_name(&r), "mine.cu") == 0);
}

static rs_status check_cfg(rs_variant v, rs_dtype t, rs_op op, unsigned block, rs_error *err)
{
    rs_request r;
    rs_request_defaults(&r);
    r.variant = v;
    r.type = t;
    r.op = op;
    r.block = block;
    return rs_catalogue_check(&r, err);
}

static void catalogue_rules(void)
{
    rs_error err;
    for (int v = 0; v < RS_VARIANT_COUNT; v++) {
        const rs_variant_info *vi = rs_catalogue_get(v);
        CHECK(vi && vi->id == (rs_variant)v && vi->step == v + 1);
        CHECK(rs_variant_from_name(vi->name) == v);
        CHECK(strlen(vi->idea) > 5 && strlen(vi->change) > 20);
        const char *snip = rs_kernel_snippet(v);
        /* a user kernel's lines are its file's */
        CHECK_MSG(v == RS_V_KERNEL || (snip && strlen(snip) > 20), "no key lines for %s", vi->name);
        for (int t = 0; t < RS_DTYPE_COUNT; t++)
            for (int op = 0; op < RS_OP_COUNT; op++) {
                const rs_status st = check_cfg(v, t, op, 256, &err);
                /* the kernel variant without a file says to give one */
                const int refused = (v == RS_V_ATOMIC && op == RS_PROD) || v == RS_V_KERNEL;
                CHECK_MSG(st == (refused ? RS_E_USAGE : RS_OK), "%s %d %d: %s", vi->name, t, op,
                          err.msg);
            }
    }
    CHECK(check_cfg(RS_V_ATOMIC, RS_INT32, RS_PROD, 256, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "no atomic multiply");
    CHECK(check_cfg(RS_V_SEQUENTIAL, RS_INT32, RS_SUM, 96, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "power-of-two blockDim");
    CHECK(check_cfg(RS_V_WARP_SHUFFLE, RS_INT32, RS_SUM, 96, &err) == RS_OK);
    CHECK(check_cfg(RS_V_WARP_SHUFFLE, RS_INT32, RS_SUM, 100, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "multiple of 32");
    CHECK(check_cfg(RS_V_ATOMIC, RS_INT32, RS_SUM, 100, &err) == RS_OK);
    CHECK(check_cfg(RS_V_CUB, RS_INT32, RS_SUM, 100, &err) == RS_OK); /* the library picks */

    rs_request r;
    rs_request_defaults(&r);
    r.variant = RS_V_SEQUENTIAL;
    r.ept = 64;
    CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "takes no --grid or --ept");
    r.variant = RS_V_MULTI_ELEMENT;
    CHECK(rs_catalogue_check(&r, &err) == RS_OK);
    r.grid = 100;
    CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "not both");
    rs_request_defaults(&r);
    r.variant = RS_V_CUB;
    r.finish = RS_FINISH_ATOMIC;
    CHECK(rs_catalogue_check(&r, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "no finish step");
    r.variant = RS_V_FIRST_ADD;
    CHECK(rs_catalogue_check(&r, &err) == RS_OK);
    CHECK(rs_catalogue_finish(&r) == RS_FINISH_ATOMIC);
    r.finish = RS_FINISH_AUTO;
    CHECK(rs_catalogue_finish(&r) == RS_FINISH_RELAUNCH);
    r.variant = RS_V_VECTORIZED;
    CHECK(rs_catalogue_finish(&r) == RS_FINISH_SINGLE_PASS);

    /* A ladder row drops what its variant does not take. */
    rs_request base, one;
    rs_request_defaults(&base);
    base.ept = 32;
    base.finish = RS_FINISH_CPU;
    rs_request_for_variant(&base, RS_V_SEQUENTIAL, &one);
    CHECK(one.ept == 0 && one.finish == RS_FINISH_CPU && rs_catalogue_check(&one, &err) == RS_OK);
    rs_request_for_variant(&base, RS_V_CUB, &one);
    CHECK(one.ept == 0 && one.finish == RS_FINISH_AUTO && rs_catalogue_check(&one, &err) == RS_OK);
    rs_request_for_variant(&base, RS_V_MULTI_ELEMENT, &one);
    CHECK(one.ept == 32);

    /* The key lines shown are the real code. */
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_INTERLEAVED), "tid % (2 * stride) == 0");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_SEQUENTIAL), "stride >>= 1");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_UNROLL_WARP_VOLATILE), "volatile");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_UNROLL_WARP), "__syncwarp()");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_WARP_SHUFFLE), "__shfl_down_sync");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_COOPERATIVE_GROUPS), "cg::reduce");
    /* the CPU's loop, not its macro's plumbing */
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_CPU), "lane[k] = COMBINE(lane[k], LOAD(x[i + k]));");
    CHECK(!strstr(rs_kernel_snippet(RS_V_CPU), "#define") &&
          !strstr(rs_kernel_snippet(RS_V_CPU), "f16"));
    /* the whole sources, for the stall view's lines */
    const char *modern = rs_kernel_source("modern.cu");
    CHECK(modern && strstr(modern, "__global__ void k_vectorized") && strstr(modern, "rs:key"));
    CHECK(rs_kernel_source("common.cuh") && rs_kernel_source("classic.cu"));
    CHECK(rs_kernel_source("nothere.cu") == NULL && rs_kernel_source("") == NULL);
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_VECTORIZED), "uint4");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_CUB), "DeviceReduce");
    CHECK_STR_CONTAINS(rs_kernel_snippet(RS_V_CPU), "lane[k]");
    CHECK(rs_kernel_snippet(RS_VARIANT_COUNT)[0] == '\0');
}

/* The settings of a configuration two requests differ in: a bit per field,
 * the step's own fields (variant, finish) never among them. */
static void config_diff(void)
{
    rs_request a, b;
    rs_request_defaults(&a);
    b = a;
    CHECK(rs_request_config_diff(&a, &b) == 0);
    b.block = a.block / 4;
    b.variant = RS_V_CPU; /* a row's, not the configuration's */
    CHECK(rs_request_config_diff(&a, &b) == UINT64_C(1) << RS_F_block);
    b.n = a.n + 1;
    CHECK(rs_request_config_diff(&a, &b) ==
          ((UINT64_C(1) << RS_F_block) | (UINT64_C(1) << RS_F_n)));
}

int main(void)
{
    config_diff();
    table_is_consistent();
    values();
    catalogue_rules();
    return check_report("test_request");
}
