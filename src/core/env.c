#include "env.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

rs_status rs_env_seconds(const char *name, double max, double dflt, double *out, rs_error *err)
{
    *out = dflt;
    const char *s = getenv(name);
    if (!s) return RS_OK;
    while (isspace((unsigned char)*s)) s++;
    char *end = NULL;
    const double v = strtod(s, &end);
    while (end && isspace((unsigned char)*end)) end++;
    if (end == s || !end || *end || !isfinite(v) || v <= 0.0 || v > max) {
        char shown[128];
        return rs_fail(err, RS_E_USAGE,
                       "%s='%.40s': seconds, more than 0 and at most %g (unset: %g)", name,
                       rs_text_safe(getenv(name), 0, shown, sizeof shown), max, dflt);
    }
    *out = v;
    return RS_OK;
}
