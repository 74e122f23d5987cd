/* DxgkDdiCreateAllocation / DestroyAllocation / OpenAllocation / CloseAllocation: the KMD turns
 * the UMD's private description (src/drv/swgpu_private.h) into placement (seed 001 §4.3, §5;
 * wddm-semantics §6.4 DXGK_ALLOCATIONINFO). */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SEGMENT_BIT(id) (1u << ((id) - 1u)) /* segment set: bit 0 = segment 1 */

struct swkmd_allocation *swkmd_allocation_from(HANDLE h)
{
    struct swkmd_allocation *al = h;
    return (al && al->magic == SWKMD_MAGIC_ALLOCATION) ? al : NULL;
}

static NTSTATUS describe(const struct swkmd_adapter *a, DXGK_ALLOCATIONINFO *info, UINT32 index)
{
    struct swgpu_alloc_private priv;
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize < sizeof(priv)) {
        wddm_debug("kmd", "CreateAllocation[%u]: private data missing or %u bytes < %zu", index,
                   info->PrivateDriverDataSize, sizeof(priv));
        return STATUS_INVALID_PARAMETER;
    }
    memcpy(&priv, info->pPrivateDriverData, sizeof(priv));
    if (priv.magic != SWGPU_PRIVATE_MAGIC || priv.version != SWGPU_PRIVATE_VERSION) {
        wddm_debug("kmd", "CreateAllocation[%u]: private data magic 0x%x version %u not swgpu v%u", index, priv.magic,
                   priv.version, SWGPU_PRIVATE_VERSION);
        return STATUS_INVALID_PARAMETER;
    }
    if (priv.kind < SWGPU_ALLOC_GPU_ONLY || priv.kind > SWGPU_ALLOC_READBACK) {
        wddm_debug("kmd", "CreateAllocation[%u]: unknown allocation kind %u", index, priv.kind);
        return STATUS_INVALID_PARAMETER;
    }
    /* Size rounded up to the page; refuse sizes no segment offset can hold. */
    if (priv.size == 0 || priv.size > SWGPU_ADDR_OFFSET_MASK - SWGPU_PAGE_SIZE) {
        wddm_debug("kmd", "CreateAllocation[%u]: size %llu is zero or too large", index,
                   (unsigned long long)priv.size);
        return STATUS_INVALID_PARAMETER;
    }
    UINT64 size = (priv.size + SWGPU_PAGE_SIZE - 1) & ~(UINT64)(SWGPU_PAGE_SIZE - 1);
    bool share = (priv.flags & SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD) != 0;
    if (priv.flags & ~SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD) {
        wddm_debug("kmd", "CreateAllocation[%u]: unknown private flags 0x%x", index, priv.flags);
        return STATUS_INVALID_PARAMETER;
    }
    if (share && !a->share_backing_store) {
        /* Seed 002: without the feature the KMD must not set ShareBackingStoreWithKmd. */
        wddm_debug("kmd", "CreateAllocation[%u]: backing store shared with the KMD asked, but "
                   "DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not enabled (seed 002)", index);
        return STATUS_NOT_SUPPORTED;
    }
    if (share && priv.kind == SWGPU_ALLOC_GPU_ONLY) {
        wddm_debug("kmd", "CreateAllocation[%u]: a shared backing store needs a CPU-visible kind (seed 002)", index);
        return STATUS_INVALID_PARAMETER;
    }

    /* malloc, not calloc: glibc's calloc skips the per-thread cache, which made every
     * CreateAllocation/DestroyAllocation pair a trip through the arena. Every field is
     * assigned right below. */
    struct swkmd_allocation *al = malloc(sizeof(*al));
    if (!al)
        return STATUS_NO_MEMORY;
    al->magic = SWKMD_MAGIC_ALLOCATION;
    al->size = size;
    al->kind = priv.kind;
    al->priv = priv;
    al->share_backing_store = share ? TRUE : FALSE;
    al->backing = NULL;

    info->Alignment = SWGPU_PAGE_SIZE;
    info->Size = (SIZE_T)size;
    info->PitchAlignedSize = 0;
    info->HintedBank.Value = 0;
    info->PreferredSegment.Value = 0;
    info->EvictionSegmentSet = 0; /* evict straight to system pages */
    info->MaximumRenamingListLength = 0;
    info->Flags.Value = 0;
    info->Flags2.Value = 0;
    info->AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_NORMAL;
    info->pAllocationUsageHint = NULL;
    switch (priv.kind) {
    case SWGPU_ALLOC_GPU_ONLY:
        /* DEFAULT / IMMUTABLE: local memory, the visible window when local is full. */
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_LOCAL;
        info->PreferredSegment.SegmentId1 = SWKMD_SEGMENT_VISIBLE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_LOCAL) | SEGMENT_BIT(SWKMD_SEGMENT_VISIBLE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        break;
    case SWGPU_ALLOC_UPLOAD:
        /* DYNAMIC: CPU-visible, write-combined; renamed on Discard (wddm-semantics §3.3). */
        info->Flags.CpuVisible = 1;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->PreferredSegment.SegmentId1 = SWKMD_SEGMENT_VISIBLE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_VISIBLE) | SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        info->MaximumRenamingListLength = SWKMD_RENAMING_LIST_LENGTH;
        break;
    case SWGPU_ALLOC_READBACK:
        /* STAGING: CPU-visible and cached, so only in the cache-coherent aperture
         * (wddm-semantics §6.4: Cached => CpuVisible). */
        info->Flags.CpuVisible = 1;
        info->Flags.Cached = 1;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        break;
    }
    if (share) {
        /* Seed 002 / wddm-semantics §7 rule 6: aperture (system memory) only, never renamed. */
        info->Flags2.ShareBackingStoreWithKmd = 1;
        info->PreferredSegment.Value = 0;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        info->MaximumRenamingListLength = 0;
    }
    info->hAllocation = al;
    return STATUS_SUCCESS;
}

static void free_allocation(HANDLE h)
{
    struct swkmd_allocation *al = swkmd_allocation_from(h);
    if (al) {
        al->magic = 0;
        free(al);
    }
}

NTSTATUS APIENTRY SwKmdCreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *args)
{
    if (!swkmd_adapter_from(hAdapter) || !args || (args->NumAllocations && !args->pAllocationInfo)) {
        wddm_debug("kmd", "CreateAllocation: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        NTSTATUS st = describe(swkmd_adapter_from(hAdapter), &args->pAllocationInfo[i], i);
        if (!NT_SUCCESS(st)) {
            /* All or nothing: free what this call created. */
            for (UINT32 j = 0; j < i; j++) {
                free_allocation(args->pAllocationInfo[j].hAllocation);
                args->pAllocationInfo[j].hAllocation = NULL;
            }
            return st;
        }
    }
    /* The KMD keeps no per-resource state: the allocations carry everything. */
    args->hResource = NULL;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdDestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    if (!swkmd_adapter_from(hAdapter) || !args || (args->NumAllocations && !args->pAllocationList)) {
        wddm_debug("kmd", "DestroyAllocation: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        if (!swkmd_allocation_from(args->pAllocationList[i]))
            wddm_debug("kmd", "DestroyAllocation[%u]: not an allocation handle", i);
        free_allocation(args->pAllocationList[i]);
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdOpenAllocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *args)
{
    struct swkmd_device *d = swkmd_device_from(hDevice);
    if (!d || !args || (args->NumAllocations && !args->pOpenAllocation)) {
        wddm_debug("kmd", "OpenAllocation: bad device or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        DXGK_OPENALLOCATIONINFO *o = &args->pOpenAllocation[i];
        /* The kernel hands back the hAllocation we returned at creation (DxgkCbGetHandleData);
         * the device-specific handle is that object: this KMD keeps no per-device state. */
        struct swkmd_allocation *al = NULL;
        if (d->adapter->dxgk.DxgkCbGetHandleData) {
            DXGKARGCB_GETHANDLEDATA q = {o->hAllocation, DXGK_HANDLE_ALLOCATION, 0};
            al = swkmd_allocation_from(d->adapter->dxgk.DxgkCbGetHandleData(&q));
        }
        if (!al) {
            wddm_debug("kmd", "OpenAllocation[%u]: handle 0x%x has no KMD allocation", i, (unsigned)o->hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
        o->hDeviceSpecificAllocation = al;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdCloseAllocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *args)
{
    if (!swkmd_device_from(hDevice) || !args || (args->NumAllocations && !args->pOpenHandleList)) {
        wddm_debug("kmd", "CloseAllocation: bad device or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    /* Nothing per device to release: the object belongs to DestroyAllocation. */
    return STATUS_SUCCESS;
}

/* DxgkDdiSetAllocationBackingStore (seed 002): the kernel's address of the backing store of an
 * allocation created with ShareBackingStoreWithKmd; kept until DxgkDdiDestroyAllocation. */
NTSTATUS APIENTRY SwKmdSetAllocationBackingStore(const HANDLE hAdapter, const DXGKARG_SETALLOCATIONBACKINGSTORE *args)
{
    struct swkmd_allocation *al = args ? swkmd_allocation_from(args->hDriverAllocation) : NULL;
    if (!swkmd_adapter_from(hAdapter) || !al || !args->pBackingStore) {
        wddm_debug("kmd", "SetAllocationBackingStore: bad adapter, allocation or NULL backing store");
        return STATUS_INVALID_PARAMETER;
    }
    if (!al->share_backing_store) {
        wddm_debug("kmd", "SetAllocationBackingStore: allocation was not created ShareBackingStoreWithKmd");
        return STATUS_INVALID_PARAMETER;
    }
    al->backing = args->pBackingStore;
    return STATUS_SUCCESS;
}
