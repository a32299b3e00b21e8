/* Reading through a bound (formats/files.c): whatever a file says of its
 * size, a read stops past its bytes and never waits. /proc/self/pagemap
 * is a regular file of size 0 that never ends (256 GiB of a 64-bit
 * address space): the bound stops it at once and says why. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formats/files.h"

int main(void)
{
    char *buf = NULL;
    size_t len = 0;
    rs_error err = {0};
    /* a file that says 0 bytes and goes on: refused past the bound */
    rs_status st = rs_file_read("/proc/self/pagemap", "recording", 1u << 20, &buf, &len, &err);
    CHECK_MSG(st == RS_E_IO && strstr(err.msg, "goes on past 1.0 MiB") != NULL, "%d %s", st,
              err.msg);
    CHECK(buf == NULL && len == 0);
    /* a file that says 0 bytes and ends: read whole */
    st = rs_file_read("/proc/self/stat", "file", 1u << 20, &buf, &len, &err);
    CHECK_MSG(st == RS_OK && len > 10 && strchr(buf, '(') != NULL, "%d %s", st, err.msg);
    free(buf);
    /* a regular file at its bound exactly: whole; one byte less: refused */
    const char *path = "/tmp/rs_test_files.txt";
    FILE *f = fopen(path, "w");
    CHECK(f && fputs("0123456789", f) >= 0 && fclose(f) == 0);
    st = rs_file_read(path, "file", 10, &buf, &len, &err);
    CHECK(st == RS_OK && len == 10 && strcmp(buf, "0123456789") == 0);
    free(buf);
    st = rs_file_read(path, "file", 9, &buf, &len, &err);
    CHECK_MSG(st == RS_E_IO && strstr(err.msg, "over the") != NULL, "%s", err.msg);
    remove(path);
    return check_report("test_files");
}
