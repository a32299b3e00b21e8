/* The user's cache folder: $XDG_CACHE_HOME/redscope, or ~/.cache/redscope,
 * made when missing. What redscope keeps there can always be made again
 * (user kernels' cubins, kernels' disassembly). */
#ifndef RS_CACHE_H
#define RS_CACHE_H

#include <stddef.h>

/* The folder into buf; 0 when there is none (no HOME, not writable). */
int rs_cache_dir(char *buf, size_t len);

#endif
