/* Placement policy: where an instance goes when it becomes resident.
 *
 * Order: the KMD's PreferredSegment ids first (in order), then the rest of the supported set
 * by ascending id (wddm-semantics §6.4: preferred segments are members of the supported set).
 * The supported set is SupportedWriteSegmentSet (an instance is written by the GPU or the
 * CPU) intersected with the read set when the KMD gave one. A CpuVisible allocation is placed
 * only in CPU-accessible segments (CpuVisible memory segments and apertures), so a lock never
 * needs to move it: without eviction (a later issue) nothing could move it back.
 *
 * FIXME(eviction): when no allowed segment has room the placement fails with STATUS_NO_MEMORY;
 * VidMm should evict idle allocations (lower priority first, wddm-semantics §9.1) and retry. */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>
#include <string.h>

UINT vidmm_allowed_segments(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *info)
{
    UINT set = info->SupportedWriteSegmentSet;
    if (info->SupportedReadSegmentSet && (set & info->SupportedReadSegmentSet))
        set &= info->SupportedReadSegmentSet;
    if (info->Flags.CpuVisible) {
        UINT cpu = 0;
        for (UINT s = 0; s < a->segment_count; s++)
            if (a->seg[s].cpu_accessible)
                cpu |= 1u << s;
        set &= cpu;
    }
    return set;
}

static bool try_segment_locked(struct dxgk_adapter *a, struct vidmm_instance *inst, UINT id)
{
    struct vidmm_segment *s = &a->seg[id - 1];
    const DXGK_ALLOCATIONINFO *info = &inst->alloc->info;
    UINT64 offset;
    if (s->aperture) {
        /* An aperture placement is backed by page-aligned system memory, described by an MDL
         * whose PFNs are host addresses >> 12 (docs/architecture.md "Memory and addresses"). */
        size_t pages = (info->Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
        if (!vidmm_segment_alloc_locked(s, info->Size, info->Alignment, &offset))
            return false;
        void *backing = dxgk_page_alloc(pages * DXGK_PAGE_SIZE);
        PFN_NUMBER *pfn = calloc(pages, sizeof *pfn);
        if (!backing || !pfn) {
            dxgk_page_free(backing, pages * DXGK_PAGE_SIZE);
            free(pfn);
            vidmm_segment_free_locked(s, offset, info->Size);
            return false;
        }
        for (size_t p = 0; p < pages; p++)
            pfn[p] = ((uintptr_t)backing >> 12) + p;
        inst->backing = backing;
        inst->mdl = (MDL){ .StartVa = backing, .ByteOffset = 0, .ByteCount = (ULONG)info->Size,
                           .PageCount = pages, .PfnArray = pfn };
        inst->cpu = backing;
    } else {
        if (!vidmm_segment_alloc_locked(s, info->Size, info->Alignment, &offset))
            return false;
        inst->cpu = s->cpu_base ? s->cpu_base + offset : NULL;
    }
    inst->segment_id = id;
    inst->offset = offset;
    return true;
}

NTSTATUS vidmm_place_locked(struct dxgk_adapter *a, struct vidmm_instance *inst)
{
    const DXGK_ALLOCATIONINFO *info = &inst->alloc->info;
    UINT allowed = vidmm_allowed_segments(a, info);
    UINT tried = 0;
    const D3DDDI_SEGMENTPREFERENCE *p = &info->PreferredSegment;
    UINT pref[5] = { p->SegmentId0, p->SegmentId1, p->SegmentId2, p->SegmentId3, p->SegmentId4 };
    for (UINT k = 0; k < 5 && pref[k]; k++) {
        UINT bit = 1u << (pref[k] - 1);
        if (!(allowed & bit) || (tried & bit))
            continue;
        tried |= bit;
        if (try_segment_locked(a, inst, pref[k]))
            return STATUS_SUCCESS;
    }
    for (UINT id = 1; id <= a->segment_count; id++) {
        UINT bit = 1u << (id - 1);
        if (!(allowed & bit) || (tried & bit))
            continue;
        if (try_segment_locked(a, inst, id))
            return STATUS_SUCCESS;
    }
    dxgk_refuse("vidmm: no room for %zu bytes in allowed segments 0x%x (FIXME(eviction): nothing is evicted yet)",
                (size_t)info->Size, allowed);
    return STATUS_NO_MEMORY;
}

/* Releases the instance's range and backing store. The instance must be idle. An aperture
 * range is left mapped to freed pages only until the next MAP over it; the GPU never reads
 * it in between because nothing references the instance any more.
 * FIXME(eviction): issue UNMAP_APERTURE_SEGMENT (pointing at the dummy page) when freeing. */
void vidmm_unplace_locked(struct dxgk_adapter *a, struct vidmm_instance *inst)
{
    if (!inst->segment_id)
        return;
    struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
    vidmm_segment_free_locked(s, inst->offset, inst->alloc->info.Size);
    dxgk_page_free(inst->backing, inst->mdl.PageCount * DXGK_PAGE_SIZE);
    free(inst->mdl.PfnArray);
    inst->backing = NULL;
    memset(&inst->mdl, 0, sizeof inst->mdl);
    inst->cpu = NULL;
    inst->segment_id = 0;
    inst->offset = 0;
}
