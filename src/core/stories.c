#include "stories.h"

#include <stddef.h>

const rs_story rs_stories[] = {
    {RS_V_INTERLEAVED_STRIDED, RS_M_SHLD_CONFLICTS, RS_M_SHST_CONFLICTS, +1, "bank conflicts",
     "count", "Bank conflicts ",
     ": thread t now works on word 2*s*t, so a warp's accesses fall on few of the 32 banks and are "
     "served one after another."},
    {RS_V_INTERLEAVED_STRIDED, RS_M_WARP_INST, RS_M_WARP_INST, -1, "warp instructions", "count",
     "Warp instructions ",
     ": the working threads are now the first ones, so whole warps retire early, and the modulo is "
     "gone."},
    {RS_V_SEQUENTIAL, RS_M_SHLD_CONFLICTS, RS_M_SHST_CONFLICTS, -1, "bank conflicts", "count",
     "Bank conflicts ", ": sequential addressing puts a warp's 32 threads on 32 different banks."},
    {RS_V_FIRST_ADD, RS_M_WARP_INST, RS_M_WARP_INST, -1, "warp instructions", "count",
     "Warp instructions ", ": half the blocks read the same bytes, with no idle first step."},
    {RS_V_FIRST_ADD, RS_M_DRAM_READ, RS_M_DRAM_READ, 0, "DRAM bytes read", "bytes", "DRAM read ",
     ": the same bytes as before, read by half as many blocks."},
    {RS_V_UNROLL_WARP_VOLATILE, RS_M_WARP_INST, RS_M_WARP_INST, -1, "warp instructions", "count",
     "Warp instructions ", ": the last six levels run without loop and __syncthreads()."},
    {RS_V_UNROLL_WARP, RS_M_WARP_INST, RS_M_WARP_INST, 0, "warp instructions", "count",
     "Warp instructions ", ": __syncwarp() makes the unrolled warp correct for almost nothing."},
    {RS_V_UNROLLED, RS_M_WARP_INST, RS_M_WARP_INST, -1, "warp instructions", "count",
     "Warp instructions ",
     ": with the block size known at compile time, no loop counter or compare is left."},
    {RS_V_MULTI_ELEMENT, RS_M_DRAM_PCT, RS_M_DRAM_PCT, +1, "DRAM throughput", "%",
     "DRAM throughput ",
     " of peak: each thread keeps many loads in flight and the tree runs once per block."},
    {RS_V_WARP_SHUFFLE, RS_M_SHLD_WAVEFRONTS, RS_M_SHST_WAVEFRONTS, -1, "shared wavefronts",
     "count", "Shared-memory wavefronts ",
     ": values move between registers with shuffles; shared memory holds one value per warp."},
    {RS_V_COOPERATIVE_GROUPS, RS_M_WARP_INST, RS_M_WARP_INST, 0, "warp instructions", "count",
     "Warp instructions ", ": cg::reduce does the same exchange as hand-written shuffles."},
    {RS_V_VECTORIZED, RS_M_DRAM_PCT, RS_M_DRAM_PCT, +1, "DRAM throughput", "%", "DRAM throughput ",
     " of peak: 16-byte loads, four in flight per thread, one launch."},
};
const int rs_story_count = (int)(sizeof rs_stories / sizeof rs_stories[0]);

const rs_story *rs_story_of(rs_variant v)
{
    for (int i = 0; i < rs_story_count; i++)
        if (rs_stories[i].v == v) return &rs_stories[i];
    return NULL;
}
