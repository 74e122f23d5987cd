/* Swizzling ranges: DxgkDdiAcquireSwizzlingRange / DxgkDdiReleaseSwizzlingRange, and where the
 * allocations they show lie (docs/semantics.md §3.2 AcquireAperture, UseAlternateVA; the WDK's
 * "Locking Swizzled Allocations").
 *
 * The reference KMD offers ranges only when a caps file sets DXGK_DRIVERCAPS.NumberOfSwizzlingRanges
 * (at most SWKMD_MAX_SWIZZLING_RANGES; the default 0 keeps AcquireAperture refused). This GPU
 * keeps every allocation linear, so a range has nothing to untile: it is a CPU view of the
 * allocation wherever it lies, in a memory segment (the CPU-visible window or local memory:
 * "swizzling ranges that redirect CPU accesses to non-CPU-accessible memory segments or system
 * memory") or in its system pages (evicted, or mapped into the aperture). The software stand-in
 * for such an aperture is a window of its own: filled from the allocation at the acquire, written
 * back to wherever the allocation lies at the release. While the range is held no DMA buffer
 * names the allocation (docs/semantics.md §3.2 rule 11), so the window is the content meanwhile.
 *
 * A UseAlternateVA lock lets VidMm move the allocation under the lock (D3DDDICB_LOCKFLAGS); each
 * move is a DXGK_OPERATION_SPECIAL_LOCK_TRANSFER (paging.c) naming the range, and the range then
 * shows the allocation at its new place: the CPU's pointer (the window) stays valid and its
 * writes reach the allocation there at the release. The kernel waits for that copy before the
 * release (vidmm/lock.c D3DKMTUnlock).
 *
 * Where an allocation lies is learnt from the paging operations as they are built (a real KMD
 * learns it the same way): their order on the paging node is the order VidMm built them in. */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <stdlib.h>
#include <string.h>

/* The place of the bytes at segment address `sa` of segment `id`: the KMD's host mapping of the
 * segment (NULL for an aperture: its bytes are system pages, named by the MAP). */
static UINT8 *segment_host(struct swkmd_adapter *ad, UINT32 id, LONGLONG sa)
{
    UINT8 *base = swgpu_segment_host(ad->gpu, id);
    if (!base)
        return NULL;
    return base + ((UINT64)sa & SWGPU_ADDR_OFFSET_MASK);
}

static void set_place(HANDLE h, UINT8 *host, const PFN_NUMBER *pfn)
{
    struct swkmd_allocation *al = h ? swkmd_allocation_from(h) : NULL;
    if (!al)
        return; /* a DMA buffer's pages, a context allocation: no range ever shows them */
    al->place.host = host;
    al->place.pfn = pfn;
}

void swkmd_swizzle_track(struct swkmd_adapter *ad, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (!ad->caps.NumberOfSwizzlingRanges)
        return;
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER: {
        /* The two operations share the layout up to Flags (the WDK's as ours). */
        const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &a->Transfer;
        if (!t->TransferSize)
            return; /* a purge notification: the content is gone, the next placement says where */
        UINT mdl_offset = a->Operation == DXGK_OPERATION_TRANSFER ? t->MdlOffset : 0;
        if (t->Destination.SegmentId)
            set_place(t->hAllocation, segment_host(ad, t->Destination.SegmentId, t->Destination.SegmentAddress.QuadPart),
                      NULL);
        else if (t->Destination.pMdl)
            set_place(t->hAllocation, NULL, t->Destination.pMdl->PfnArray + mdl_offset);
        return;
    }
    case DXGK_OPERATION_FILL:
        set_place(a->Fill.hAllocation,
                  segment_host(ad, a->Fill.Destination.SegmentId, a->Fill.Destination.SegmentAddress.QuadPart), NULL);
        return;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        if (a->MapApertureSegment.pMdl)
            set_place(a->MapApertureSegment.hAllocation, NULL,
                      a->MapApertureSegment.pMdl->PfnArray + a->MapApertureSegment.MdlOffset);
        return;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: {
        const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT2 *m = &a->MapApertureSegment2;
        if (m->Adl.Flags.Contiguous)
            set_place(m->hAllocation, (UINT8 *)(uintptr_t)((m->Adl.BasePageNumber + m->AdlOffset) * SWGPU_PAGE_SIZE),
                      NULL);
        else
            set_place(m->hAllocation, NULL, m->Adl.Pages + m->AdlOffset);
        return;
    }
    default:
        return; /* an UNMAP leaves the content in the pages the MAP named */
    }
}

/* Copies between the window and the allocation's place (system pages are identity-mapped:
 * docs/architecture.md "Memory and addresses"). */
static void place_copy(const struct swkmd_place *p, UINT8 *window, SIZE_T size, bool to_window)
{
    for (SIZE_T done = 0; done < size;) {
        SIZE_T n = size - done;
        UINT8 *at;
        if (p->host) {
            at = p->host + done;
        } else {
            n = SWGPU_PAGE_SIZE - done % SWGPU_PAGE_SIZE < n ? SWGPU_PAGE_SIZE - done % SWGPU_PAGE_SIZE : n;
            at = (UINT8 *)(uintptr_t)(p->pfn[done / SWGPU_PAGE_SIZE] * SWGPU_PAGE_SIZE) + done % SWGPU_PAGE_SIZE;
        }
        if (to_window)
            memcpy(window + done, at, n);
        else
            memcpy(at, window + done, n);
        done += n;
    }
}

static struct swkmd_swizzle_range *range_of(struct swkmd_adapter *ad, UINT id)
{
    return id < ad->caps.NumberOfSwizzlingRanges ? &ad->swizzle[id] : NULL;
}

bool swkmd_swizzle_range_holds(const struct swkmd_adapter *ad, UINT id, HANDLE h)
{
    const struct swkmd_allocation *al = swkmd_allocation_from(h);
    return al && id < ad->caps.NumberOfSwizzlingRanges && ad->swizzle[id].window && ad->swizzle[id].alloc == al;
}

bool swkmd_swizzle_shown(const struct swkmd_adapter *ad, HANDLE h)
{
    for (UINT id = 0; id < ad->caps.NumberOfSwizzlingRanges; id++)
        if (h && swkmd_swizzle_range_holds(ad, id, h))
            return true;
    return false;
}

NTSTATUS APIENTRY SwKmdAcquireSwizzlingRange(const HANDLE hAdapter, DXGKARG_ACQUIRESWIZZLINGRANGE *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    struct swkmd_allocation *al = ad && a ? swkmd_allocation_from(a->hAllocation) : NULL;
    struct swkmd_swizzle_range *r = al ? range_of(ad, a->RangeId) : NULL;
    if (!r || r->window || !a->RangeSize || a->RangeSize > al->size) {
        wddm_debug("kmd", "AcquireSwizzlingRange: bad adapter, allocation, range id, busy range or RangeSize");
        return STATUS_INVALID_PARAMETER;
    }
    if (!al->place.host && !al->place.pfn) {
        wddm_debug("kmd", "AcquireSwizzlingRange: the allocation was never placed");
        return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNSUPPORTED;
    }
    SIZE_T bytes = (a->RangeSize + SWGPU_PAGE_SIZE - 1) & ~(SIZE_T)(SWGPU_PAGE_SIZE - 1);
    UINT8 *w = aligned_alloc(SWGPU_PAGE_SIZE, bytes);
    if (!w)
        return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE; /* this range's resource: another may do */
    memset(w + a->RangeSize, 0, bytes - a->RangeSize);
    place_copy(&al->place, w, a->RangeSize, true);
    r->window = w;
    r->size = a->RangeSize;
    r->alloc = al;
    a->CPUTranslatedAddress.QuadPart = (LONGLONG)(uintptr_t)w;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdReleaseSwizzlingRange(const HANDLE hAdapter, const DXGKARG_RELEASESWIZZLINGRANGE *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    struct swkmd_swizzle_range *r = ad && a ? range_of(ad, a->RangeId) : NULL;
    if (!r || !r->window || r->alloc != swkmd_allocation_from(a->hAllocation)) {
        wddm_debug("kmd", "ReleaseSwizzlingRange: bad adapter, range id, or a range not held for the allocation");
        return STATUS_INVALID_PARAMETER;
    }
    place_copy(&r->alloc->place, r->window, r->size, false); /* the allocation where it lies now */
    free(r->window);
    memset(r, 0, sizeof *r);
    return STATUS_SUCCESS;
}
