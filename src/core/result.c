/* Facts of a result that every view needs. */
#include "catalogue.h"
#include "result.h"

double rs_result_input_bytes(const rs_result *r)
{
    return (double)r->req.n * (double)rs_dtype_size(r->req.type);
}
