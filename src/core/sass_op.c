#include "sass_op.h"

#include <stdio.h>
#include <string.h>

void rs_sass_base(const char *opcode, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(opcode, "."), opcode);
}

void rs_sass_what(const char *opcode, char *buf, size_t len)
{
    char base[40];
    rs_sass_base(opcode, base, sizeof base);
    const char *size = strstr(opcode, ".128")                             ? "16-byte "
                       : strstr(opcode, ".64")                            ? "8-byte "
                       : strstr(opcode, ".U8") || strstr(opcode, ".S8")   ? "1-byte "
                       : strstr(opcode, ".U16") || strstr(opcode, ".S16") ? "2-byte "
                                                                          : "4-byte ";
    if (strcmp(base, "LDG") == 0 || strcmp(base, "LD") == 0)
        snprintf(buf, len, "%sglobal load", size);
    else if (strcmp(base, "LDL") == 0)
        snprintf(buf, len, "local-memory load");
    else if (strcmp(base, "LDS") == 0 || strcmp(base, "LDSM") == 0)
        snprintf(buf, len, "shared-memory load");
    else if (strncmp(base, "ATOM", 4) == 0)
        snprintf(buf, len, "%s", strcmp(base, "ATOMS") == 0 ? "shared-memory atomic" : "atomic");
    else if (strcmp(base, "SHFL") == 0)
        snprintf(buf, len, "shuffle");
    else if (strcmp(base, "REDUX") == 0)
        snprintf(buf, len, "warp reduction (redux.sync)");
    else if (strcmp(base, "MUFU") == 0)
        snprintf(buf, len, "special-function op");
    else if (strcmp(base, "BAR") == 0)
        snprintf(buf, len, "barrier");
    else if (strcmp(base, "MEMBAR") == 0)
        snprintf(buf, len, "memory fence");
    else if (strcmp(base, "S2R") == 0)
        snprintf(buf, len, "special-register read");
    else if (strcmp(base, "LDC") == 0)
        snprintf(buf, len, "constant load");
    else if (base[0] && strchr("FI", base[0]) && base[1] == '2')
        snprintf(buf, len, "conversion");
    else
        snprintf(buf, len, "%s", base);
}
