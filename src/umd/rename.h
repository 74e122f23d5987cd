/* rename.h - the reference UMD renames and synchronises itself: the WDDM 2.x UMD contract
 * (docs/semantics.md §3.3 "WDDM 2.x" bullet; issue 3 "Discard renaming, in both driver models").
 *
 * With a WDDM 2.x KMD VidMm never renames and pfnLock2Cb neither renames nor waits, so the UMD
 * keeps, per device, one monitored fence that its rendering context signals from the GPU after
 * every submission, stamps every allocation with the fence value of the last submission that
 * named it, and answers each Map from those stamps (rename.c). The mode is on for a WDDM 2.x
 * adapter and forced by WDDM_UMD_RENAMING=1 on today's WDDM 1.x path (read at CreateDevice).
 *
 * The counters below are process-wide, read by tests (an observation, not a hook). */
#ifndef WDDM_UMD_RENAME_H
#define WDDM_UMD_RENAME_H

#include "wddm/wintypes.h"

/* Default bound of one DYNAMIC resource's pool: the current allocation plus the retired ones
 * (UMD_RENAME_MAX_INSTANCES), and of the extra instances of one device (UMD_RENAME_MAX_BYTES).
 * WDDM_UMD_RENAME_MAX_INSTANCES=n (1..UMD_RENAME_MAX_INSTANCES) lowers the count per resource.
 * At the bound a WRITE_DISCARD map waits on the monitored fence for the oldest instance (or,
 * with D3D10_DDI_MAP_FLAG_DONOTWAIT, reports DXGI_DDI_ERR_WASSTILLDRAWING). */
#define UMD_RENAME_MAX_INSTANCES 8u
#define UMD_RENAME_MAX_BYTES (64ull << 20)

/* What the UMD's own renaming did, summed over every device of the process. */
struct wddm_umd_rename_counters {
    UINT64 renames;            /* WRITE_DISCARD maps that switched to another allocation */
    UINT64 instances_created;  /* pool allocations made with pfnAllocateCb */
    UINT64 waits;              /* monitored-fence CPU waits (a Map, or a discard at the bound) */
    UINT64 still_drawing;      /* DONOTWAIT maps answered DXGI_DDI_ERR_WASSTILLDRAWING from a stamp */
    UINT64 fence_signals;      /* pfnSignalSynchronizationObjectFromGpuCb calls */
};
void wddm_umd_get_rename_counters(struct wddm_umd_rename_counters *out);

#endif /* WDDM_UMD_RENAME_H */
