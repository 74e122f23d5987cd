/* Placement policy: where an instance goes when it becomes resident.
 *
 * Order: the KMD's PreferredSegment ids first (in order), then the rest of the supported set
 * by ascending id (docs/semantics.md §6.4: preferred segments are members of the supported set).
 * Inside a segment: the hinted banks, then the preference's direction (alloc_in_segment_locked).
 * The supported set is SupportedWriteSegmentSet (an instance is written by the GPU or the
 * CPU) intersected with the read set when the KMD gave one. A CpuVisible allocation is placed
 * only in CPU-accessible segments (CpuVisible memory segments and apertures), so a lock never
 * needs to move it to a CPU-visible place beyond restoring it there (vidmm/lock.c).
 *
 * When no allowed segment has room, VidMm evicts (vidmm/evict.c) from the allowed segments,
 * one victim at a time (lowest priority, then least recently used across them), retrying the
 * placement in the victim's segment after each, until it fits; when nothing evictable is left in any allowed segment the placement fails with
 * STATUS_NO_MEMORY (the caller may wait for work in flight and retry: vidmm/packet.c). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

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
    /* IoMmu (docs/semantics.md §9.6): the GPU reaches system memory only, through the IOMMU at
     * the backing store's address: content stays in the backing store, placed in apertures. */
    if (dxgk_adapter_iommu(a))
        set &= dxgk_aperture_segments(a);
    return set;
}

/* Where in segment `id` the instance goes: first the banks HintedBank names, in its order and
 * each in its own direction, when `id` is PreferredSegment.SegmentId0 and the segment uses
 * banking (DXGK_ALLOCATIONINFO.HintedBank: "banking information about the most preferred
 * segment"); then anywhere in the segment, from the top when PreferredSegment gives `id` with
 * Direction 1 (DXGK_SEGMENTPREFERENCE), else from the bottom. A full hinted bank is not a
 * reason to evict: the hints are preferences. */
static bool alloc_in_segment_locked(const struct dxgk_adapter *a, struct vidmm_segment *s,
                                    const DXGK_ALLOCATIONINFO *info, UINT64 *offset)
{
    WDDM_ASSERT_HELD(&a->lock);
    const D3DDDI_SEGMENTPREFERENCE *p = &info->PreferredSegment;
    if (s->bank_count && p->SegmentId0 == s->id && info->HintedBank.Value) {
        const DXGK_SEGMENTBANKPREFERENCE *h = &info->HintedBank;
        UINT bank[4] = { h->Bank0, h->Bank1, h->Bank2, h->Bank3 };
        bool down[4] = { h->Direction0, h->Direction1, h->Direction2, h->Direction3 };
        UINT64 lo, hi;
        for (UINT k = 0; k < 4 && bank[k]; k++)
            if (vidmm_segment_bank(s, bank[k], &lo, &hi) &&
                vidmm_segment_alloc_in_locked(s, info->Size, info->Alignment, lo, hi, down[k], offset))
                return true;
    }
    UINT ids[5] = { p->SegmentId0, p->SegmentId1, p->SegmentId2, p->SegmentId3, p->SegmentId4 };
    bool dirs[5] = { p->Direction0, p->Direction1, p->Direction2, p->Direction3, p->Direction4 };
    bool top_down = false;
    for (UINT k = 0; k < 5 && ids[k]; k++)
        if (ids[k] == s->id) {
            top_down = dirs[k];
            break;
        }
    return vidmm_segment_alloc_in_locked(s, info->Size, info->Alignment, 0, s->desc.Size, top_down, offset);
}

static bool try_segment_locked(struct dxgk_adapter *a, struct vidmm_instance *inst, UINT id)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_segment *s = &a->seg[id - 1];
    const DXGK_ALLOCATIONINFO *info = &inst->alloc->info;
    UINT64 offset;
    if (!alloc_in_segment_locked(a, s, info, &offset))
        return false;
    if (s->aperture) {
        /* An aperture placement is backed by page-aligned system memory: the backing store
         * (an evicted instance's content, or freshly committed zeroed pages). */
        if (!vidmm_backing_commit(a, inst)) {
            vidmm_segment_free_locked(s, offset, info->Size);
            return false;
        }
        inst->cpu = inst->backing;
    } else {
        inst->cpu = s->cpu_base ? s->cpu_base + offset : NULL;
    }
    inst->segment_id = id;
    inst->offset = offset;
    vidmm_lru_link_locked(a, inst);
    return true;
}

static UINT preference_order(const struct dxgk_adapter *a, const struct vidmm_instance *inst,
                             UINT order[DXGK_MAX_SEGMENTS])
{
    const DXGK_ALLOCATIONINFO *info = &inst->alloc->info;
    UINT allowed = vidmm_allowed_segments(a, info) & (inst->place_mask ? inst->place_mask : ~0u), tried = 0, n = 0;
    /* A Swizzled allocation evicted linear "cannot be mapped into an aperture segment" (Locking
     * Swizzled Allocations, case 3): only a memory segment, where the restore swizzles it. */
    for (UINT id = 1; inst->evicted && inst->unswizzled && id <= a->segment_count; id++)
        if (a->seg[id - 1].aperture)
            allowed &= ~(1u << (id - 1));
    const D3DDDI_SEGMENTPREFERENCE *p = &info->PreferredSegment;
    UINT pref[5] = { p->SegmentId0, p->SegmentId1, p->SegmentId2, p->SegmentId3, p->SegmentId4 };
    for (UINT k = 0; k < 5 && pref[k]; k++) {
        UINT bit = 1u << (pref[k] - 1);
        if (pref[k] > a->segment_count || !(allowed & bit) || (tried & bit))
            continue;
        tried |= bit;
        order[n++] = pref[k];
    }
    for (UINT id = 1; id <= a->segment_count; id++) {
        UINT bit = 1u << (id - 1);
        if ((allowed & bit) && !(tried & bit))
            order[n++] = id;
    }
    return n;
}

NTSTATUS vidmm_place_locked(struct dxgk_adapter *a, struct vidmm_instance *inst, struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    const DXGK_ALLOCATIONINFO *info = &inst->alloc->info;
    UINT order[DXGK_MAX_SEGMENTS];
    UINT n = preference_order(a, inst, order);
    /* GpuMmu (issue 6): the PTEs of a mapped allocation follow every placement. */
    for (UINT k = 0; k < n; k++) {
        if (try_segment_locked(a, inst, order[k])) {
            (void)vidmm_va_instance_moved_locked(a, inst, batch); /* a failure is a KMD bug: logged */
            return STATUS_SUCCESS;
        }
    }
    /* Oversubscribed: evict (docs/semantics.md §9.1) from the allowed segments that could ever
     * hold it, one victim at a time, retrying in the segment that gained room. */
    UINT fit[DXGK_MAX_SEGMENTS], nfit = 0;
    for (UINT k = 0; k < n; k++)
        if (a->seg[order[k] - 1].limit >= info->Size)
            fit[nfit++] = order[k];
    for (UINT id; nfit && (id = vidmm_evict_one_locked(a, fit, nfit, batch)) != 0;) {
        if (try_segment_locked(a, inst, id)) {
            (void)vidmm_va_instance_moved_locked(a, inst, batch);
            return STATUS_SUCCESS;
        }
    }
    dxgk_refuse("vidmm: no room for %zu bytes in allowed segments 0x%x and nothing evictable there",
                (size_t)info->Size, vidmm_allowed_segments(a, info));
    return STATUS_NO_MEMORY;
}

/* An aperture range freed at destruction points at the dummy page again (docs/semantics.md §2.3:
 * UNMAP_APERTURE_SEGMENT), as an eviction out of the aperture does: the KMD sees every range it
 * was told to map unmapped, and a stale GPU address reads the dummy page, never freed pages.
 * Returns the UNMAP's paging fence (0 when the KMD refused it: a KMD bug, logged). */
static UINT64 unmap_freed_range_locked(struct dxgk_adapter *a, struct vidmm_instance *inst)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    DXGKARG_BUILDPAGINGBUFFER un;
    vidmm_unmap_aperture_args(&un, inst, inst->segment_id, inst->offset);
    if (!NT_SUCCESS(vidmm_paging_build_locked(&b, &un, NULL)))
        dxgk_refuse("vidmm: UNMAP_APERTURE_SEGMENT of a destroyed allocation's range refused; the range is freed "
                    "anyway (the next MAP over it replaces the mapping)");
    vidmm_paging_flush_locked(&b);
    if (b.fence > inst->alloc->unmap_fence)
        inst->alloc->unmap_fence = b.fence;
    return b.fence;
}

/* Releases the instance's range and backing store (destruction). The instance must be
 * retired. An aperture range is unmapped first; its pages go once that ran. */
void vidmm_unplace_locked(struct dxgk_adapter *a, struct vidmm_instance *inst)
{
    WDDM_ASSERT_HELD(&a->lock);
    vidmm_retiring_reap_locked(a, false);
    UINT64 unmap = 0;
    if (inst->segment_id) {
        struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
        if (s->aperture)
            unmap = unmap_freed_range_locked(a, inst);
        vidmm_lru_unlink_locked(a, inst);
        vidmm_segment_free_locked(s, inst->offset, inst->alloc->info.Size);
    }
    vidmm_backing_retire_locked(a, inst, unmap);
    inst->evicted = false;
    inst->cpu = NULL;
    inst->segment_id = 0;
    inst->offset = 0;
}

/* A record on the adapter's retiring list for something that must outlive the paging fence
 * `fence`; NULL when the paging node passed it already (or there is no memory for the record:
 * then the caller releases it now, as before the UNMAP existed; only a stale GPU address could
 * still reach it). */
static struct vidmm_retiring *park_locked(struct dxgk_adapter *a, UINT64 fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!fence || gsched_fence_completed(&a->node[a->paging_node], fence))
        return NULL;
    struct vidmm_retiring *r = wddm_calloc(1, sizeof *r);
    if (r) {
        r->fence = fence;
        r->next = a->retiring;
        a->retiring = r;
    }
    return r;
}

void vidmm_backing_retire_locked(struct dxgk_adapter *a, struct vidmm_instance *in, UINT64 fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!in->backing)
        return;
    struct vidmm_retiring *r = park_locked(a, fence);
    if (!r) {
        vidmm_backing_free(a, in);
        return;
    }
    r->pages.backing = in->backing;
    r->pages.mdl = in->mdl;
    r->pages.section = in->section;
    r->pages.section_fd = in->section_fd;
    in->backing = NULL;
    memset(&in->mdl, 0, sizeof in->mdl);
    in->section = false;
    in->section_fd = -1;
}

bool vidmm_release_after_locked(struct dxgk_adapter *a, UINT64 fence, void (*release)(void *), void *arg)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_retiring *r = park_locked(a, fence);
    if (!r)
        return false;
    r->release = release;
    r->release_arg = arg;
    return true;
}

void vidmm_retiring_reap_locked(struct dxgk_adapter *a, bool all)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (struct vidmm_retiring **pp = &a->retiring; *pp;) {
        struct vidmm_retiring *r = *pp;
        if (all || gsched_fence_completed(&a->node[a->paging_node], r->fence)) {
            *pp = r->next;
            if (r->release)
                r->release(r->release_arg);
            else
                vidmm_backing_free(a, &r->pages);
            free(r);
        } else {
            pp = &r->next;
        }
    }
}
