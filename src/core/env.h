/* Numbers from the environment, read by one rule: blanks around the value
 * are not part of it (as for option values), anything else that is not
 * the number is refused with the variable named, never silently ignored. */
#ifndef RS_ENV_H
#define RS_ENV_H

#include "error.h"

/* Seconds from variable `name`: more than 0 and at most `max`; *out is
 * `dflt` where it is unset. RS_E_USAGE for any other value. */
rs_status rs_env_seconds(const char *name, double max, double dflt, double *out, rs_error *err);

#endif
