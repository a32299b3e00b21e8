/* n as people write it, and sweep ranges. */
#include <stdint.h>

#include "check.h"
#include "core/request.h"
#include "core/sweep_range.h"

static uint64_t parse_ok(const char *s)
{
    uint64_t v = 0;
    rs_error err;
    const rs_status st = rs_parse_size(s, &v, &err);
    CHECK_MSG(st == RS_OK, "'%s' should parse: %s", s, err.msg);
    return v;
}

static void parse_bad(const char *s, const char *why)
{
    uint64_t v = 0;
    rs_error err = {0};
    CHECK_MSG(rs_parse_size(s, &v, &err) == RS_E_USAGE, "'%s' should be refused", s);
    CHECK_STR_CONTAINS(err.msg, why);
}

int main(void)
{
    CHECK(parse_ok("16777216") == 16777216u);
    CHECK(parse_ok("2^24") == 16777216u);
    CHECK(parse_ok("16M") == 16777216u);
    CHECK(parse_ok("16Mi") == 16777216u);
    CHECK(parse_ok("1024*65535") == 67107840u);
    CHECK(parse_ok("2^20+7") == 1048583u);
    CHECK(parse_ok(" 2 ^ 10 ") == 1024u);
    CHECK(parse_ok("1K") == 1024u);
    CHECK(parse_ok("1G") == (1ull << 30));
    CHECK(parse_ok("2**30") == (1ull << 30));
    CHECK(parse_ok("(2^10+1)*2") == 2050u);
    CHECK(parse_ok("2^2^3") == 256u); /* right associative */
    CHECK(parse_ok("2^40-1") == (1ull << 40) - 1);
    parse_bad("", "expected a number");
    parse_bad("abc", "expected a number");
    parse_bad("2^64", "too large");
    parse_bad("99999999999999999999", "too large");
    parse_bad("16Q", "unexpected text");
    parse_bad("1-2", "negative");
    parse_bad("(2", "missing ')'");

    /* The field adds the range: n is 1 .. 2^40. */
    rs_request r;
    rs_error err;
    rs_request_defaults(&r);
    const rs_field *n = rs_field_by_key("run", "n");
    CHECK(rs_field_set(&r, n, "0", &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "expected a count from 1 to 2^40");
    CHECK(rs_field_set(&r, n, "2^41", &err) == RS_E_USAGE);
    CHECK(rs_field_set(&r, n, "1", &err) == RS_OK && r.n == 1);

    char buf[32];
    rs_format_size(1u << 24, buf, sizeof buf);
    CHECK(strcmp(buf, "2^24") == 0);
    rs_format_size(67107840u, buf, sizeof buf);
    CHECK(strcmp(buf, "67107840") == 0);
    rs_format_size(512, buf, sizeof buf);
    CHECK(strcmp(buf, "512") == 0);

    rs_sweep_sizes s;
    CHECK(rs_sweep_parse("2^10..2^28", &s, &err) == RS_OK);
    CHECK(s.count == 19 && s.n[0] == 1024 && s.n[18] == (1u << 28));
    CHECK(rs_sweep_parse("1K..1G:4", &s, &err) == RS_OK);
    CHECK(s.count == 11 && s.n[1] == 4096 && s.n[10] == (1u << 30));
    CHECK(rs_sweep_parse("1000,2^20,16M", &s, &err) == RS_OK);
    CHECK(s.count == 3 && s.n[2] == 16777216u);
    CHECK(rs_sweep_parse("2^20..2^10", &s, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "the first size is the larger");
    CHECK(rs_sweep_parse("1..2^40:1", &s, &err) == RS_E_USAGE);
    CHECK(rs_sweep_parse("1..2^40", &s, &err) == RS_OK && s.count == 41);
    CHECK(rs_sweep_parse("1,,2", &s, &err) == RS_E_USAGE);
    CHECK(rs_sweep_parse("", &s, &err) == RS_E_USAGE);
    return check_report("test_size");
}
