/* Facts of a result that every view needs. */
#include "catalogue.h"
#include "result.h"

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
