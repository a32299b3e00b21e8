/* A sweep's sizes from text (core/sweep_range.c): a range of powers of two
 * "2^10..2^28", a range with a step factor "1K..1G:4", a list
 * "1000,2^20,16M"; at most RS_SWEEP_MAX_SIZES sizes, each 1 to 2^40; and
 * bad text refused with a message, at once, whatever its length. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "core/sweep_range.h"

static rs_sweep_sizes s;

/* text parses to the count sizes given (count 0: only that it parses). */
static void parses(const char *text, int count, const uint64_t *want)
{
    rs_error err = {0};
    const rs_status st = rs_sweep_parse(text, &s, &err);
    CHECK_MSG(st == RS_OK, "'%s' should parse: %s", text, err.msg);
    CHECK_MSG(st != RS_OK || s.count == count, "'%s': %d sizes, not %d", text, s.count, count);
    for (int i = 0; st == RS_OK && want && i < count && i < s.count; i++)
        CHECK_MSG(s.n[i] == want[i], "'%s' size %d: %llu, not %llu", text, i,
                  (unsigned long long)s.n[i], (unsigned long long)want[i]);
}

/* text is refused as a usage error whose message holds why. */
static void refused(const char *text, const char *why)
{
    rs_error err = {0};
    CHECK_MSG(rs_sweep_parse(text, &s, &err) == RS_E_USAGE, "'%.60s' should be refused (%d sizes)",
              text ? text : "(null)", s.count);
    CHECK_MSG(err.code == RS_E_USAGE && strstr(err.msg, why), "'%.60s': '%.200s' has no '%s'",
              text ? text : "(null)", err.msg, why);
}

static void ranges(void)
{
    uint64_t want[64];
    for (int i = 0; i < 19; i++) want[i] = (uint64_t)1 << (10 + i);
    parses("2^10..2^28", 19, want);
    for (int i = 0; i < 11; i++) want[i] = (uint64_t)1024 << (2 * i);
    parses("1K..1G:4", 11, want);
    parses("1024..2^30:2^2", 11, want); /* the factor is a size too */
    parses(" 1K .. 4K ", 3, (const uint64_t[]){1024, 2048, 4096});
    /* the last size is the largest step not past the end */
    parses("1000..5000", 3, (const uint64_t[]){1000, 2000, 4000});
    parses("3..100:3", 4, (const uint64_t[]){3, 9, 27, 81});
    parses("7..7", 1, (const uint64_t[]){7});
    parses("8..15:8", 1, (const uint64_t[]){8});
    /* the whole span: 1 to 2^40, steps of 2 or 1024, no overflow at the top */
    for (int i = 0; i <= 40; i++) want[i] = (uint64_t)1 << i;
    parses("1..2^40", 41, want);
    parses("1..2^40:1024", 5, (const uint64_t[]){1, 1024, 1u << 20, 1u << 30, (uint64_t)1 << 40});
    parses("2^39..2^40:1024", 1, (const uint64_t[]){(uint64_t)1 << 39});
    parses("3..2^40:1023", 4, (const uint64_t[]){3, 3069, 3139587, 3211797501ull});
}

static void lists(void)
{
    parses("1000,2^20,16M", 3, (const uint64_t[]){1000, 1u << 20, 16u << 20});
    parses("16M", 1, (const uint64_t[]){16u << 20});
    parses("5,3,5", 3, (const uint64_t[]){5, 3, 5}); /* as written: no sort, no merge */
    parses("1, 2^40", 2, (const uint64_t[]){1, (uint64_t)1 << 40});
    parses("(2^10+1)*2,1024*65535", 2, (const uint64_t[]){2050, 67107840});
}

/* RS_SWEEP_MAX_SIZES sizes in a list, not one more; a range never passes it. */
static void limits(void)
{
    char text[1024] = "";
    uint64_t want[RS_SWEEP_MAX_SIZES];
    for (int i = 0; i < RS_SWEEP_MAX_SIZES; i++) {
        const size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%d", i ? "," : "", i + 1);
        want[i] = (uint64_t)i + 1;
    }
    parses(text, RS_SWEEP_MAX_SIZES, want);
    CHECK(s.n[RS_SWEEP_MAX_SIZES - 1] == RS_SWEEP_MAX_SIZES);
    strcat(text, ",65");
    refused(text, "more than 64 sizes");
    /* the most a range gives (1..2^40 by 2) is under the limit */
    CHECK(41 <= RS_SWEEP_MAX_SIZES);
    refused("0..8", "sizes go from 1 to 2^40");
    refused("1..2^41", "sizes go from 1 to 2^40");
    refused("2^40+1", "sizes go from 1 to 2^40");
    refused("8,0", "sizes go from 1 to 2^40");
}

static void bad_ranges(void)
{
    refused(NULL, "empty sweep range");
    refused("", "empty sweep range");
    refused("..", "empty or overlong size");
    refused("2^10..", "empty or overlong size");
    refused("..2^10", "empty or overlong size");
    refused("2^20..2^10", "the first size is the larger");
    refused("1K..1G:0", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:1", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:1025", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:x", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:4:2", "the step factor after ':' is 2 to 1024");
    refused("1K..1G:-4", "the step factor after ':' is 2 to 1024");
    refused("1..2..3", "bad sweep range");
    refused("1...8", "bad sweep range");
    refused("-1..8", "bad sweep range");
    refused("1..8:99999999999999999999", "the step factor");
    refused("1..99999999999999999999", "too large");
    refused("1..2^64", "too large");
}

static void bad_text(void)
{
    refused("nan", "expected a number");
    refused("NaN..inf", "expected a number");
    refused("1..inf", "expected a number");
    refused("1e9", "unexpected text");
    refused("0x10", "unexpected text");
    refused("1.5K", "unexpected text");
    refused("16Q", "unexpected text");
    refused("1,,2", "empty or overlong size");
    refused(",1", "empty or overlong size");
    refused("1,2,x", "bad size 'x': expected a number");
    refused("2^10 2^12", "unexpected text");
    /* a part of 64 bytes or more is refused before it is parsed */
    char longpart[128];
    memset(longpart, ' ', sizeof longpart);
    memcpy(longpart + 100, "1..2", 5);
    refused(longpart, "empty or overlong size");
}

/* A megabyte of sizes: refused after the 64th, at once. (The message
 * quotes the text first: its reason falls past the end of rs_error's 512
 * bytes, so only its start is checked.) */
static void huge(void)
{
    const size_t n = 1 << 20;
    char *text = malloc(n + 1);
    CHECK(text != NULL);
    if (!text) return;
    for (size_t i = 0; i < n; i += 2) memcpy(text + i, "7,", 2);
    text[n] = '\0';
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    refused(text, "bad sweep list '7,7,");
    memset(text, '(', n); /* a megabyte of one unbalanced size */
    refused(text, "bad sweep range '((");
    memcpy(text + n - 6, "..2^40", 6);
    refused(text, "bad sweep range '((");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double s_taken = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK_MSG(s_taken < 1.0, "%.3f s to refuse", s_taken);
    free(text);
}

int main(void)
{
    ranges();
    lists();
    limits();
    bad_ranges();
    bad_text();
    huge();
    return check_report("test_sweep_range");
}
