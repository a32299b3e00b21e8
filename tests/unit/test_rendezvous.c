/* The rendezvous through a file: what rank 0 writes is what a rank reads;
 * a wait ends, and says what it found instead (nothing, a folder, a FIFO,
 * a past job's file, a file of another size, one it cannot read); rank 0
 * replaces a past job's file but never writes over a FIFO, a folder or a
 * link; the wait's setting is checked. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "check.h"
#include "formats/rendezvous.h"

static char dir[] = "/tmp/rs-rendezvous-XXXXXX";

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void round_trip(void)
{
    char p[256];
    path_of(p, sizeof p, "id.nccl");
    const unsigned char id[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    unsigned char got[16] = {0};
    rs_error err = {0};
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_OK);
    CHECK(rs_rendezvous_wait(p, got, sizeof got, time(NULL) - 30, 1.0, &err) == RS_OK);
    CHECK(memcmp(id, got, sizeof id) == 0);
    CHECK(rs_rendezvous_publish("", id, sizeof id, &err) == RS_E_USAGE);
    CHECK(rs_rendezvous_wait(NULL, got, sizeof got, 0, 1.0, &err) == RS_E_USAGE);
    remove(p);
}

/* A wait of 0.1 s on path ends with RS_E_IO, and its reason holds want. */
static void wait_fails(const char *p, time_t not_before, const char *want)
{
    unsigned char got[16];
    rs_error err = {0};
    const time_t t0 = time(NULL);
    CHECK(rs_rendezvous_wait(p, got, sizeof got, not_before, 0.1, &err) == RS_E_IO);
    CHECK(time(NULL) - t0 < 5);
    CHECK_STR_CONTAINS(err.msg, want);
}

static void waits(void)
{
    char p[256], want[320];
    path_of(p, sizeof p, "none.nccl");
    snprintf(want, sizeof want, "no rendezvous in %s after 0.1 s: is rank 0 running", p);
    wait_fails(p, 0, want);

    path_of(p, sizeof p, "folder.nccl");
    CHECK(mkdir(p, 0700) == 0);
    wait_fails(p, 0, "is a folder, not a file");
    rmdir(p);

    path_of(p, sizeof p, "short.nccl");
    FILE *f = fopen(p, "wb");
    CHECK(f && fwrite("abc", 1, 3, f) == 3);
    if (f) fclose(f);
    wait_fails(p, time(NULL) - 30, "holds 3 bytes, not the 16 of NCCL's id");

    path_of(p, sizeof p, "old.nccl");
    const unsigned char id[16] = {0};
    rs_error err = {0};
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_OK);
    const struct utimbuf past = {0, 0}; /* 1970: a past job's file */
    CHECK(utime(p, &past) == 0);
    wait_fails(p, time(NULL) - 30, "is older than this rank (a past job's)");
    remove(p);
    path_of(p, sizeof p, "short.nccl");
    remove(p);
}

/* Rank 0 meets what a shared folder may hold instead of its file. */
static void special_files(void)
{
    char p[256], target[256];
    const unsigned char id[16] = {7};
    unsigned char got[16];
    rs_error err = {0};
    struct stat st;

    path_of(p, sizeof p, "fifo.nccl");
    CHECK(mkfifo(p, 0600) == 0);
    wait_fails(p, 0, "is a FIFO, a device or a socket, not a file"); /* never opened: no hang */
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "redscope writes regular files only");
    CHECK(lstat(p, &st) == 0 && S_ISFIFO(st.st_mode)); /* still the FIFO */
    remove(p);

    path_of(p, sizeof p, "dir.nccl");
    CHECK(mkdir(p, 0700) == 0);
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "is a directory");
    rmdir(p);

    path_of(target, sizeof target, "elsewhere");
    path_of(p, sizeof p, "link.nccl");
    CHECK(symlink(target, p) == 0);
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_E_USAGE);
    CHECK_STR_CONTAINS(err.msg, "is a symbolic link");
    CHECK(lstat(target, &st) != 0); /* nothing written through it */
    remove(p);

    path_of(p, sizeof p, "past.nccl"); /* a past job's file: replaced, whole */
    FILE *f = fopen(p, "wb");
    CHECK(f && fputs("a past job's id, longer than sixteen bytes", f) >= 0);
    if (f) fclose(f);
    CHECK(rs_rendezvous_publish(p, id, sizeof id, &err) == RS_OK);
    CHECK(rs_rendezvous_wait(p, got, sizeof got, time(NULL) - 30, 1.0, &err) == RS_OK);
    CHECK(memcmp(id, got, sizeof id) == 0);

    if (geteuid() != 0) { /* root reads a file of mode 000 */
        CHECK(chmod(p, 0) == 0);
        wait_fails(p, time(NULL) - 30, "cannot read the rendezvous file");
    }
    remove(p);
}

static void timeouts(void)
{
    double s = 0;
    rs_error err = {0};
    unsetenv("REDSCOPE_RENDEZVOUS_TIMEOUT");
    CHECK(rs_rendezvous_timeout(&s, &err) == RS_OK && s == 120.0);
    const char *good[] = {"0.5", "1", "1e3", "86400"};
    const double want[] = {0.5, 1, 1000, 86400};
    for (int i = 0; i < 4; i++) {
        setenv("REDSCOPE_RENDEZVOUS_TIMEOUT", good[i], 1);
        CHECK_MSG(rs_rendezvous_timeout(&s, &err) == RS_OK && s == want[i], "%s", good[i]);
    }
    const char *bad[] = {"", "0", "-1", "abc", "nan", "inf", "5s", "86401", "1e400"};
    for (int i = 0; i < 9; i++) {
        setenv("REDSCOPE_RENDEZVOUS_TIMEOUT", bad[i], 1);
        CHECK_MSG(rs_rendezvous_timeout(&s, &err) == RS_E_USAGE, "'%s'", bad[i]);
        CHECK_STR_CONTAINS(err.msg, "REDSCOPE_RENDEZVOUS_TIMEOUT=");
    }
    unsetenv("REDSCOPE_RENDEZVOUS_TIMEOUT");
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    round_trip();
    waits();
    special_files();
    timeouts();
    rmdir(dir);
    return check_report("test_rendezvous");
}
