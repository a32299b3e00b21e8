/* The stall reasons of PC sampling: CUPTI's names, with or without their
 * prefix and "_not_issued", in plain words and in Nsight Compute's. */
#include "check.h"
#include "core/stall_table.h"

int main(void)
{
    int ni = -1;
    const rs_stall_def *d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_long_scoreboard", &ni);
    CHECK(d && strcmp(d->key, "long_scoreboard") == 0 && ni == 0 && d->waiting);
    d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_barrier_not_issued", &ni);
    CHECK(d && strcmp(d->key, "barrier") == 0 && ni == 1);
    d = rs_stall_find("short_scoreboard", &ni);
    CHECK(d && strcmp(d->ncu, "Stall Short Scoreboard") == 0 && ni == 0);
    d = rs_stall_find("selected", NULL);
    CHECK(d && !d->waiting);
    /* a key is matched whole: "not_selected" is not "selected" */
    d = rs_stall_find("smsp__pcsamp_warps_issue_stalled_not_selected", NULL);
    CHECK(d && strcmp(d->key, "not_selected") == 0);
    CHECK(rs_stall_find("smsp__pcsamp_warps_issue_stalled_warp_teleport", NULL) == NULL);
    CHECK(rs_stall_find("", NULL) == NULL && rs_stall_find(NULL, &ni) == NULL && ni == 0);
    CHECK(rs_stall_find("_not_issued", NULL) == NULL);

    char buf[96];
    rs_stall_describe("smsp__pcsamp_warps_issue_stalled_long_scoreboard", buf, sizeof buf);
    CHECK_STR_EQ(buf, "waiting for global memory (long scoreboard)");
    rs_stall_describe("short_scoreboard_not_issued", buf, sizeof buf);
    CHECK_STR_EQ(buf, "waiting for shared memory (short scoreboard)");
    rs_stall_describe("smsp__pcsamp_warps_issue_stalled_warp_teleport", buf, sizeof buf);
    CHECK_STR_EQ(buf, "warp_teleport"); /* unknown: as it came, without the prefix */
    rs_stall_describe("barrier", buf, 8);
    CHECK(strlen(buf) == 7); /* cut, never past the buffer */

    size_t count = 0;
    const rs_stall_def *all = rs_stall_table(&count);
    CHECK(count >= 18);
    for (size_t i = 0; i < count; i++) {
        CHECK(all[i].key[0] && all[i].ncu[0] && all[i].words[0]);
        CHECK(rs_stall_find(all[i].key, NULL) == &all[i]); /* every key finds itself */
    }
    return check_report("test_stalls");
}
