/* ddi11_1.h - what the reference UMD's D3D11.1 DDI was told (ddi11_1.c), summed over every
 * device of the process: read by tests to prove that the runtime reached the 11.1 members. */
#ifndef WDDM_UMD_DDI11_1_H
#define WDDM_UMD_DDI11_1_H

#include "wddm/wintypes.h"

struct wddm_umd_ddi11_1_counters {
    UINT64 copies_no_overwrite; /* ResourceCopyRegion / UpdateSubresourceUP(D3D11_1) with COPY_NO_OVERWRITE */
    UINT64 copies_discard;      /* ... with COPY_DISCARD */
    UINT64 discards;            /* Discard(D3D11_1) calls accepted */
};
void wddm_umd_get_ddi11_1_counters(struct wddm_umd_ddi11_1_counters *out);

#endif /* WDDM_UMD_DDI11_1_H */
