/* Kernel functions' names for people: `tree_sequential`, `MaxOp::operator()`,
 * `cg::reduce`, `__ldg`, from the mangled names in a cubin's line table. */
#ifndef RS_DEMANGLE_H
#define RS_DEMANGLE_H

#include <stddef.h>

/* The demangled name (libstdc++'s C++ ABI demangler) made short: no return
 * type, template arguments or parameters, no rs:: or compiler-internal
 * namespaces (_INTERNAL_..., __v1, __4), cooperative_groups as cg. A name
 * that does not demangle (an extern "C" kernel) is kept as it is. */
void rs_function_name(const char *mangled, char *buf, size_t len);

/* The shortening alone, on an already demangled name. */
void rs_function_short(const char *demangled, char *buf, size_t len);

#endif
