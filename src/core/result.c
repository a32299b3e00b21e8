/* Facts of a result (and of a row) that every view needs. */
#include <string.h>

#include "catalogue.h"
#include "result.h"
#include "row.h"

int rs_row_not_recorded(const rs_row *row)
{
    return row->status != RS_OK &&
           strncmp(row->error, RS_NOT_RECORDED, sizeof RS_NOT_RECORDED - 1) == 0;
}

const rs_stalls *rs_result_stalls(const rs_result *r)
{
    static const rs_stalls none; /* requested 0: nothing asked, nothing shown */
    return r && r->stalls ? r->stalls : &none;
}

double rs_result_input_bytes(const rs_result *r)
{
    return (double)r->req.n * (double)rs_dtype_size(r->req.type);
}

unsigned rs_result_block(const rs_result *r)
{
    return r->block ? r->block : r->req.block;
}

int rs_result_chose_block(const rs_result *r)
{
    return r->block && r->block != r->req.block;
}
