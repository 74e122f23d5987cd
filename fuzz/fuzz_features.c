/* libFuzzer harness for the WDDM_FEATURES list parser (issue 14 §4, docs/rules/common.md): any
 * bytes are applied whole or refused, and a refusal leaves the feature set as it was; a feature
 * the model does not implement is never turned on. Corpus: fuzz/corpus/features/. */
#include <stdint.h>
#include <stdlib.h>

#include "dxgkrnl/objects/objects.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    UINT64 set = dxgk_features_default(), before = set;
    NTSTATUS st = dxgk_features_parse((const char *)data, size, &set);
    if (!NT_SUCCESS(st) && set != before)
        abort(); /* refused, yet applied in part */
    if (NT_SUCCESS(st) && (set & ~before))
        abort(); /* only implemented features (all on by default) can be on */
    return 0;
}
