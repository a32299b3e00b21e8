/* --kernel files of run, ladder and sweep checked before any GPU work. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/ukernel.h"

/* Each --kernel file of run, ladder or sweep read and checked before any
 * GPU work: a missing, empty, binary or malformed file, or a request the
 * file refuses, is said at once. 0 or the exit status. */
int rs_cli_check_kernels(const rs_cli *cli)
{
    if (cli->replay) return 0; /* a recording answers: the file need not be here */
    /* a command of one variant (not a list) runs the file only as that variant,
     * and checks the request against it */
    const unsigned long long f = cli->cmd ? cli->cmd->fields : 0;
    const int one = (f & RS_FIELD(variant)) && !(f & RS_FIELD(variants));
    if (one && cli->req.variant != RS_V_KERNEL) return 0;
    const char *from_preset[1] = {cli->req.kernel};
    const char *const *files = cli->nkernels ? cli->kernels : from_preset;
    const int count = cli->nkernels ? cli->nkernels : cli->req.kernel[0] != 0;
    for (int i = 0; i < count; i++) {
        rs_error err;
        char *text = NULL;
        size_t len = 0;
        rs_ukernel_spec spec;
        rs_request r = cli->req;
        r.variant = RS_V_KERNEL;
        rs_status st = rs_ukernel_read(files[i], &text, &len, &err);
        if (st == RS_OK) st = rs_ukernel_parse(files[i], text, &spec, &err);
        if (st == RS_OK && one) st = rs_ukernel_check(files[i], &spec, &r, &err);
        free(text);
        if (st != RS_OK) {
            rs_cli_error("%s", err.msg);
            return (int)st;
        }
    }
    return 0;
}
