/* DxgkDdiEscape: the reference driver package's private channel (src/drv/swgpu_private.h
 * struct swgpu_escape). It reads or writes bytes of an allocation whose backing store the
 * kernel shared with the KMD (seed 002), through the pointer DxgkDdiSetAllocationBackingStore
 * gave: the proof that the UMD and the KMD see the same memory. */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <string.h>

NTSTATUS APIENTRY SwKmdEscape(const HANDLE hAdapter, const DXGKARG_ESCAPE *args)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !args || !args->pPrivateDriverData || args->PrivateDriverDataSize != sizeof(struct swgpu_escape)) {
        wddm_debug("kmd", "Escape: bad adapter or private data not a struct swgpu_escape (%u bytes)",
                   args ? args->PrivateDriverDataSize : 0u);
        return STATUS_INVALID_PARAMETER;
    }
    struct swgpu_escape *e = args->pPrivateDriverData;
    if (e->magic != SWGPU_PRIVATE_MAGIC || e->version != SWGPU_PRIVATE_VERSION) {
        wddm_debug("kmd", "Escape: magic 0x%x version %u not swgpu v%u", e->magic, e->version, SWGPU_PRIVATE_VERSION);
        return STATUS_INVALID_PARAMETER;
    }
    if (e->op != SWGPU_ESCAPE_READ_BACKING_STORE && e->op != SWGPU_ESCAPE_WRITE_BACKING_STORE) {
        wddm_debug("kmd", "Escape: unknown op %u", e->op);
        return STATUS_INVALID_PARAMETER;
    }
    struct swkmd_allocation *al = NULL;
    if (a->dxgk.DxgkCbGetHandleData) {
        DXGKARGCB_GETHANDLEDATA q = { e->hAllocation, DXGK_HANDLE_ALLOCATION, 0 };
        al = swkmd_allocation_from(a->dxgk.DxgkCbGetHandleData(&q));
    }
    if (!al || !al->backing) {
        wddm_debug("kmd", "Escape: allocation 0x%x has no backing store shared with the KMD", (unsigned)e->hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    if (e->size > SWGPU_ESCAPE_DATA_MAX || e->offset > al->size || e->size > al->size - e->offset) {
        wddm_debug("kmd", "Escape: range %u+%u outside the allocation (%llu bytes) or over %u", e->offset, e->size,
                   (unsigned long long)al->size, SWGPU_ESCAPE_DATA_MAX);
        return STATUS_INVALID_PARAMETER;
    }
    if (e->op == SWGPU_ESCAPE_READ_BACKING_STORE)
        memcpy(e->data, al->backing + e->offset, e->size);
    else
        memcpy(al->backing + e->offset, e->data, e->size);
    return STATUS_SUCCESS;
}
