#include "stall_owner.h"

#include <string.h>

#include "snippets.h"
#include "stalls.h"

static int users(const rs_stall_owner *o, const char *file)
{
    return o->user_file && o->user_file[0] &&
           strcmp(rs_stall_base(o->user_file), rs_stall_base(file)) == 0;
}

int rs_stall_shown(const rs_src_frame *f, int n, const rs_stall_owner *o)
{
    for (int i = 0; i < n - 1; i++) {
        if (o->variant == RS_V_KERNEL
                ? users(o, f[i].file)
                : rs_kernel_key(o->variant, rs_stall_base(f[i].file), (int)f[i].line))
            return i;
    }
    return n > 0 ? n - 1 : 0;
}

int rs_stall_source(const rs_src_frame *f, int n, const rs_stall_owner *o)
{
    for (int i = 0; i < n - 1; i++)
        if (rs_kernel_source(rs_stall_base(f[i].file)) || users(o, f[i].file)) return i;
    return n > 0 ? n - 1 : 0;
}
