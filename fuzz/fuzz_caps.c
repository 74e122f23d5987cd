/* libFuzzer harness for the WDDM_KMD_CAPS parser (issue 14 §4, docs/rules/common.md): any bytes
 * are either applied whole or refused with an error line, and a refusal leaves the caps as
 * they were. Corpus: fuzz/corpus/caps/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/caps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DXGK_DRIVERCAPS caps, before;
    memset(&caps, 0xA5, sizeof caps);
    before = caps;
    char err[256];
    err[0] = 0;
    if (!wddm_caps_apply_text("fuzz", (const char *)data, size, &caps, err, sizeof err)) {
        if (memcmp(&caps, &before, sizeof caps) != 0 || !err[0] || !memchr(err, 0, sizeof err))
            abort(); /* a refusal changed a capability, or said nothing */
    }
    return 0;
}
