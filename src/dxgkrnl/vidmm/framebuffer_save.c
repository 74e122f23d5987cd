/* The frame buffer save area of a KMD capable of IOMMU-based GPU isolation (WDDM 2.4;
 * MicrosoftDocs "IOMMU-based GPU isolation", "Frame buffer reservation"; issue 20 §5).
 *
 * With DXGK_VIDMMCAPS.IoMmuSecureModeSupported the kernel asks, right after the caps,
 * DXGKQAITYPE_FRAMEBUFFERSAVESIZE: the most the KMD may need to save of its hardware-reserved
 * frame buffer across a power transition (a multiple of PAGE_SIZE). It takes a commit charge for
 * that much at once, so that the pages can always be had when the transition comes, and lends the
 * KMD a section of that size (one physical adapter here):
 *  - DxgkCbPinFrameBufferForSave: the section's first CommitSize bytes as an MDL of locked pages
 *    the GPU may copy into (or from), until DxgkCbUnpinFrameBufferForSave; one pin at a time;
 *  - DxgkCbMapFrameBufferPointer: a CPU pointer to a page-aligned piece of it (the forward-progress
 *    path when the whole cannot be pinned), until DxgkCbUnmapFrameBufferPointer.
 * The section keeps its content between calls: what was saved at power-down is there at power-up.
 * Its pages are committed at the first pin or map and kept until the adapter stops. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

NTSTATUS vidmm_fb_save_start(struct dxgk_adapter *a)
{
    if (!a->caps.MemoryManagementCaps.IoMmuSecureModeSupported)
        return STATUS_SUCCESS;
    UINT index = 0;
    DXGK_FRAMEBUFFERSAVEAREA area = { 0 };
    DXGKARG_QUERYADAPTERINFO q = { .Type = DXGKQAITYPE_FRAMEBUFFERSAVESIZE, .pInputData = &index,
                                   .InputDataSize = sizeof index, .pOutputData = &area,
                                   .OutputDataSize = sizeof area };
    NTSTATUS st = a->driver.ddi.DxgkDdiQueryAdapterInfo(a->miniport, &q);
    if (!dxgk_verify_fb_save_area(a, st, &area))
        return STATUS_UNSUCCESSFUL;
    if (area.MaximumSize && !vidmm_commit_charge(area.MaximumSize)) {
        dxgk_refuse("adapter start: no commit for the %zu-byte frame buffer save area", (size_t)area.MaximumSize);
        return STATUS_NO_MEMORY;
    }
    a->fb_save.max = area.MaximumSize;
    return STATUS_SUCCESS;
}

void vidmm_fb_save_stop(struct dxgk_adapter *a)
{
    if (a->fb_save.area)
        dxgk_page_free(a, a->fb_save.area, a->fb_save.max);
    free(a->fb_save.pfn);
    if (a->fb_save.max)
        vidmm_commit_uncharge(a->fb_save.max);
    memset(&a->fb_save, 0, sizeof a->fb_save);
}

/* The adapter of a callback, and the common checks: a save area exists, physical adapter 0. */
static struct dxgk_adapter *save_area_of(HANDLE h, UINT physical_adapter, const char *who, NTSTATUS *st)
{
    struct dxgk_adapter *a = h;
    *st = STATUS_INVALID_PARAMETER;
    if (!a) {
        dxgk_refuse("%s: NULL adapter", who);
        return NULL;
    }
    if (!a->fb_save.max) {
        dxgk_refuse("%s: the adapter has no frame buffer save area (DXGK_VIDMMCAPS.IoMmuSecureModeSupported "
                    "and a non-zero DXGK_FRAMEBUFFERSAVEAREA.MaximumSize)", who);
        *st = STATUS_NOT_SUPPORTED;
        return NULL;
    }
    if (physical_adapter != 0) {
        dxgk_refuse("%s: PhysicalAdapterIndex %u: this adapter has one physical adapter (0)", who, physical_adapter);
        return NULL;
    }
    return a;
}

/* The section's pages, committed at first use (zeroed); adapter->lock. */
static bool commit_locked(struct dxgk_adapter *a)
{
    if (a->fb_save.area)
        return true;
    BYTE *area = dxgk_page_alloc(a, a->fb_save.max);
    PFN_NUMBER *pfn = wddm_calloc(a->fb_save.max / DXGK_PAGE_SIZE, sizeof *pfn);
    if (!area || !pfn) {
        if (area)
            dxgk_page_free(a, area, a->fb_save.max);
        free(pfn);
        return false;
    }
    a->fb_save.area = area;
    a->fb_save.pfn = pfn;
    return true;
}

static bool page_multiple(SIZE_T n)
{
    return n % DXGK_PAGE_SIZE == 0;
}

NTSTATUS APIENTRY dxgk_cb_pin_frame_buffer_for_save(const HANDLE hAdapter, DXGKARGCB_PINFRAMEBUFFERFORSAVE *args)
{
    static const char who[] = "DxgkCbPinFrameBufferForSave";
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = args ? save_area_of(hAdapter, args->PhysicalAdapterIndex, who, &st) : NULL;
    if (!a)
        return st;
    if (!args->CommitSize || !page_multiple(args->CommitSize) || args->CommitSize > a->fb_save.max) {
        dxgk_refuse("%s: CommitSize %zu: a non-zero multiple of PAGE_SIZE up to MaximumSize %zu is required", who,
                    (size_t)args->CommitSize, (size_t)a->fb_save.max);
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&a->lock);
    if (a->fb_save.pinned) {
        st = STATUS_INVALID_DEVICE_STATE;
        dxgk_refuse("%s: the save area is pinned already (DxgkCbUnpinFrameBufferForSave first)", who);
    } else if (!commit_locked(a)) {
        st = STATUS_NO_MEMORY;
    } else {
        a->fb_save.mdl = vidmm_mdl_of(a->fb_save.area, args->CommitSize, a->fb_save.pfn);
        a->fb_save.pinned = true;
        args->pMdl = &a->fb_save.mdl;
        st = STATUS_SUCCESS;
    }
    pthread_mutex_unlock(&a->lock);
    return st;
}

NTSTATUS APIENTRY dxgk_cb_unpin_frame_buffer_for_save(const HANDLE hAdapter,
                                                      const DXGKARGCB_UNPINFRAMEBUFFERFORSAVE *args)
{
    static const char who[] = "DxgkCbUnpinFrameBufferForSave";
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = args ? save_area_of(hAdapter, args->PhysicalAdapterIndex, who, &st) : NULL;
    if (!a)
        return st;
    pthread_mutex_lock(&a->lock);
    bool was = a->fb_save.pinned;
    a->fb_save.pinned = false;
    pthread_mutex_unlock(&a->lock);
    if (!was)
        dxgk_refuse("%s: the save area is not pinned", who);
    return was ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

NTSTATUS APIENTRY dxgk_cb_map_frame_buffer_pointer(const HANDLE hAdapter, DXGKARGCB_MAPFRAMEBUFFERPOINTER *args)
{
    static const char who[] = "DxgkCbMapFrameBufferPointer";
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = args ? save_area_of(hAdapter, args->PhysicalAdapterIndex, who, &st) : NULL;
    if (!a)
        return st;
    if (!args->Size || !page_multiple(args->Size) || !page_multiple(args->Offset) || args->Offset > a->fb_save.max ||
        args->Size > a->fb_save.max - args->Offset) {
        dxgk_refuse("%s: Size %zu at Offset %zu: page multiples inside the %zu-byte save area are required", who,
                    (size_t)args->Size, (size_t)args->Offset, (size_t)a->fb_save.max);
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&a->lock);
    if (!commit_locked(a)) {
        st = STATUS_NO_MEMORY;
    } else {
        args->pBaseAddress = a->fb_save.area + args->Offset;
        args->Offset = 0; /* the piece starts at the base address */
        a->fb_save.maps++;
        st = STATUS_SUCCESS;
    }
    pthread_mutex_unlock(&a->lock);
    return st;
}

NTSTATUS APIENTRY dxgk_cb_unmap_frame_buffer_pointer(const HANDLE hAdapter,
                                                     const DXGKARGCB_UNMAPFRAMEBUFFERPOINTER *args)
{
    static const char who[] = "DxgkCbUnmapFrameBufferPointer";
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = args ? save_area_of(hAdapter, args->PhysicalAdapterIndex, who, &st) : NULL;
    if (!a)
        return st;
    const BYTE *p = args->pBaseAddress;
    pthread_mutex_lock(&a->lock);
    bool ok = a->fb_save.maps && a->fb_save.area && p >= a->fb_save.area && p < a->fb_save.area + a->fb_save.max &&
              page_multiple((SIZE_T)(p - a->fb_save.area));
    if (ok)
        a->fb_save.maps--;
    pthread_mutex_unlock(&a->lock);
    if (!ok)
        dxgk_refuse("%s: %p is not a pointer DxgkCbMapFrameBufferPointer gave and that is still mapped", who,
                    args->pBaseAddress);
    return ok ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}
