/* A cubin's kernels, read from its ELF (cubin.c): entry points, their
 * sizes, and their parameters. */
#ifndef RS_CUBIN_H
#define RS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

/* The entry points (kernels) of a cubin: their names separated by ' ' in
 * names, and their count; -1 when it is not a 64-bit ELF. */
int rs_cubin_entries(const void *cubin, size_t len, char *names, size_t names_len);
/* The size in bytes of the code of entry point `name` (0: no such entry). */
uint64_t rs_cubin_entry_size(const void *cubin, size_t len, const char *name);
/* The parameters of kernel `entry` in a cubin (its .nv.info section):
 * their count, each one's bytes in sizes[0..max); -1 where the cubin does
 * not say. */
int rs_cubin_params(const void *cubin, size_t len, const char *entry, int *sizes, int max);

#endif
