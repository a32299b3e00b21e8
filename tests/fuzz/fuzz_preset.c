/* libFuzzer target: any bytes through the preset reader. It must refuse or
 * accept, never crash, hang or leak; what it accepts must write back and
 * read again to the same request. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    rs_request r, back;
    rs_error err;
    if (rs_preset_read_string(text, "fuzz", &r, &err) == RS_OK) {
        char ini[8192];
        if (rs_preset_format(&r, ini, sizeof ini) != RS_OK) abort();
        if (rs_preset_read_string(ini, "again", &back, &err) != RS_OK) abort();
        if (!rs_request_equal(&r, &back)) abort();
    } else if (strlen(err.msg) == 0) {
        abort();
    }
    free(text);
    return 0;
}
