/* Residency (docs/semantics.md §9.1: in WDDM 1.x the allocation list drives residency). Lazy: an
 * instance becomes resident on first reference by a DMA buffer's allocation list (the node
 * worker's prepare, vidmm/packet.c) or on lock (vidmm/lock.c). A new placement in a memory segment is
 * zero-filled by a FILL paging operation; an aperture placement maps its backing store with
 * MAP_APERTURE_SEGMENT, or MAP_APERTURE_SEGMENT2 and an ADL when the KMD declares
 * DXGK_VIDMMCAPS.MapAperture2Supported (docs/architecture.md "Memory and addresses"). An evicted instance
 * (vidmm/evict.c) is restored: TRANSFER from its backing store into a memory segment, or MAP of
 * the backing store itself into the aperture; the CPU and the GPU wait for that paging fence. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/timeline.h"

#include <string.h>

void vidmm_unmap_aperture_args(DXGKARG_BUILDPAGINGBUFFER *args, const struct vidmm_instance *inst, UINT segment_id,
                               UINT64 offset)
{
    const struct dxgk_allocation *al = inst->alloc;
    memset(args, 0, sizeof *args);
    args->Operation = DXGK_OPERATION_UNMAP_APERTURE_SEGMENT;
    args->UnmapApertureSegment.hDevice = vidmm_aperture_owner(al);
    args->UnmapApertureSegment.hAllocation = al->info.hAllocation;
    args->UnmapApertureSegment.SegmentId = segment_id;
    args->UnmapApertureSegment.OffsetInPages = offset / DXGK_PAGE_SIZE;
    args->UnmapApertureSegment.NumberOfPages = (al->info.Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    args->UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)(uintptr_t)vidmm_dummy_page();
}

void vidmm_map_aperture_args(const struct dxgk_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                             const struct vidmm_instance *inst, UINT segment_id, UINT64 offset)
{
    const struct dxgk_allocation *al = inst->alloc;
    if (!a->caps.MemoryManagementCaps.MapAperture2Supported) {
        args->Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
        args->MapApertureSegment.hDevice = vidmm_aperture_owner(al);
        args->MapApertureSegment.hAllocation = al->info.hAllocation;
        args->MapApertureSegment.SegmentId = segment_id;
        args->MapApertureSegment.OffsetInPages = offset / DXGK_PAGE_SIZE;
        args->MapApertureSegment.NumberOfPages = inst->mdl.PageCount;
        args->MapApertureSegment.pMdl = (PMDL)&inst->mdl;
        args->MapApertureSegment.MdlOffset = 0;
        return;
    }
    /* Seed 003 / docs/semantics.md §2.1: a KMD with MapAperture2Supported gets operation 17 and
     * an ADL, never 5. The backing store's pages are consecutive host pages when they are (one
     * contiguous ADL: BasePageNumber), otherwise the ADL names the MDL's page array, which
     * lives as long as the instance (DXGK_PAGE_NUMBER is a PFN_NUMBER). */
    const MDL *m = &inst->mdl;
    bool contiguous = m->PageCount > 0;
    for (SIZE_T p = 1; contiguous && p < m->PageCount; p++)
        contiguous = m->PfnArray[p] == m->PfnArray[0] + p;
    DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT2 *m2 = &args->MapApertureSegment2;
    args->Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT2;
    m2->hDevice = vidmm_aperture_owner(al);
    m2->hAllocation = al->info.hAllocation;
    m2->SegmentId = segment_id;
    m2->OffsetInPages = offset / DXGK_PAGE_SIZE;
    m2->NumberOfPages = m->PageCount;
    m2->Adl.PageCount = (UINT32)m->PageCount;
    m2->Adl.Flags.Value = 0;
    m2->Adl.Flags.Contiguous = contiguous;
    if (contiguous)
        m2->Adl.BasePageNumber = m->PfnArray[0];
    else
        m2->Adl.Pages = m->PfnArray;
    m2->AdlOffset = 0;
    m2->CpuVisibleAddress = inst->backing; /* the kernel's own mapping of those pages */
}

/* An instance that an eviction moved into an aperture of its EvictionSegmentSet (vidmm/evict.c)
 * sits outside its supported set: a use brings it back into an allowed segment (placement as
 * usual, evicting others if needed) with a TRANSFER from the aperture range (a MAP when the new
 * place is an aperture too), then UNMAP_APERTURE_SEGMENT of the old range. When no allowed
 * segment can take it, it stays where it is, content intact, and the placement fails as any. */
static NTSTATUS bring_back_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                  struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct dxgk_allocation *al = inst->alloc;
    UINT old_id = inst->segment_id;
    UINT64 old_offset = inst->offset, touch = inst->last_touch;
    struct vidmm_segment *old = &a->seg[old_id - 1];
    /* Off the aperture's LRU while it is placed: never its own victim; evicting keeps it alive
     * (not freed) through a BUSY wait of an eviction the placement does. */
    vidmm_lru_unlink_locked(a, inst);
    inst->segment_id = 0;
    inst->evicting = true;
    NTSTATUS st = vidmm_place_locked(a, inst, batch);
    DXGKARG_BUILDPAGINGBUFFER args = { 0 };
    if (NT_SUCCESS(st)) {
        const struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
        if (s->aperture) {
            vidmm_map_aperture_args(a, &args, inst, inst->segment_id, inst->offset);
        } else {
            args.Operation = DXGK_OPERATION_TRANSFER;
            args.Transfer.hAllocation = al->info.hAllocation;
            args.Transfer.TransferSize = al->info.Size;
            args.Transfer.Source.SegmentId = old_id;
            args.Transfer.Source.SegmentAddress.QuadPart = old->desc.BaseAddress.QuadPart + (LONGLONG)old_offset;
            args.Transfer.Destination.SegmentId = inst->segment_id;
            args.Transfer.Destination.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)inst->offset;
            args.Transfer.Flags.AllocationIsIdle = 1; /* a fresh placement: nothing references it */
        }
        st = vidmm_paging_build_locked(batch, &args, inst);
        if (!NT_SUCCESS(st)) {
            vidmm_lru_unlink_locked(a, inst);
            vidmm_segment_free_locked(&a->seg[inst->segment_id - 1], inst->offset, al->info.Size);
        }
    }
    inst->evicting = false;
    if (!NT_SUCCESS(st)) {
        inst->segment_id = old_id;
        inst->offset = old_offset;
        inst->cpu = inst->backing;
        vidmm_lru_link_locked(a, inst);
        inst->last_touch = touch;
        return st;
    }
    /* The old range: the copy above reads it first (same paging node, in order). */
    DXGKARG_BUILDPAGINGBUFFER un;
    vidmm_unmap_aperture_args(&un, inst, old_id, old_offset);
    if (!NT_SUCCESS(vidmm_paging_build_locked(batch, &un, inst)))
        dxgk_refuse("vidmm: UNMAP_APERTURE_SEGMENT of a brought-back allocation refused; the range is freed "
                    "anyway (the next MAP over it replaces the mapping)");
    vidmm_segment_free_locked(old, old_offset, al->info.Size);
    const struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
    bool write_pending = false; /* a queued DMA buffer writes it: D3DKMTRender cleared the flag */
    for (UINT n = 0; n < a->node_count; n++)
        if (inst->last_write[n] && !gsched_ticket_retired(&a->node[n], inst->last_write[n]))
            write_pending = true;
    inst->evicted = false;
    inst->backing_valid = !write_pending || s->aperture; /* the backing store holds what was copied */
    vidmm_batch_stamp_locked(batch, inst, true);
    if (!s->aperture)
        DXGK_COUNT(a, bytes_paged_in, al->info.Size);
    wddm_tl(WDDM_TL_PAGE_IN, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), al->handle, al->info.Size);
    return STATUS_SUCCESS;
}

NTSTATUS vidmm_make_resident_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                    struct vidmm_paging_batch *batch, bool fill)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (inst->segment_id) {
        UINT allowed = vidmm_allowed_segments(a, &inst->alloc->info) & (inst->place_mask ? inst->place_mask : ~0u);
        if (allowed & (1u << (inst->segment_id - 1)))
            return STATUS_SUCCESS;
        return bring_back_locked(a, inst, batch);
    }
    NTSTATUS st = vidmm_place_locked(a, inst, batch);
    if (!NT_SUCCESS(st))
        return st;
    const struct dxgk_allocation *al = inst->alloc;
    const struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
    bool restore = inst->evicted;
    DXGKARG_BUILDPAGINGBUFFER args = { 0 };
    if (s->aperture) {
        vidmm_map_aperture_args(a, &args, inst, inst->segment_id, inst->offset);
    } else if (restore) {
        args.Operation = DXGK_OPERATION_TRANSFER;
        args.Transfer.hAllocation = al->info.hAllocation;
        args.Transfer.TransferOffset = 0;
        args.Transfer.TransferSize = al->info.Size;
        args.Transfer.Source.SegmentId = 0;
        args.Transfer.Source.pMdl = &inst->mdl;
        args.Transfer.MdlOffset = 0;
        args.Transfer.Destination.SegmentId = inst->segment_id;
        args.Transfer.Destination.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)inst->offset;
        args.Transfer.Flags.AllocationIsIdle = 1; /* a fresh placement: nothing references it */
        args.Transfer.Flags.Swizzle = inst->unswizzled; /* Locking Swizzled Allocations, case 3 */
        /* Evicted under a UseAlternateVA lock that is still outstanding (D3DKMTMakeResident can
         * bring it back: no DMA buffer may): its range follows it back (vidmm/evict.c). */
        if (vidmm_moves_under_lock(inst))
            vidmm_special_lock_transfer_args(&args, inst);
    } else if (fill) {
        /* Fill: only memory segments, allocation guaranteed idle (docs/semantics.md §2.3). */
        args.Operation = DXGK_OPERATION_FILL;
        args.Fill.hAllocation = al->info.hAllocation;
        args.Fill.FillSize = al->info.Size;
        args.Fill.FillPattern = 0;
        args.Fill.Destination.SegmentId = inst->segment_id;
        args.Fill.Destination.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)inst->offset;
    } else {
        /* A Discard instance: its content is undefined, nothing to page. If an eviction of this
         * batch freed its range, it still waits for the batch (the copy out reads the range). */
        if (batch->evicted)
            vidmm_batch_stamp_locked(batch, inst, true);
        inst->evicted = false;
        inst->backing_valid = false;
        return STATUS_SUCCESS;
    }
    st = vidmm_paging_build_locked(batch, &args, inst);
    if (!NT_SUCCESS(st)) {
        vidmm_lru_unlink_locked(a, inst);
        vidmm_segment_free_locked(&a->seg[inst->segment_id - 1], inst->offset, al->info.Size);
        inst->segment_id = 0;
        inst->offset = 0;
        inst->cpu = NULL;
        return st;
    }
    inst->evicted = false;
    /* After a restore the backing store equals the content until the next write; a FILL or a
     * MAP of fresh pages makes new content (a MAP's backing store is the content itself). */
    bool write_pending = false; /* a queued DMA buffer writes it: D3DKMTRender cleared the flag */
    for (UINT n = 0; n < a->node_count; n++)
        if (inst->last_write[n] && !gsched_ticket_retired(&a->node[n], inst->last_write[n]))
            write_pending = true;
    /* A CPU still holding it through its range may write it in the segment. */
    inst->backing_valid = ((restore && !write_pending) || s->aperture) && !vidmm_moves_under_lock(inst);
    /* The CPU waits for a FILL or a restore, or for an eviction of the batch that freed the
     * range (a MAP of fresh pages needs no CPU wait: the CPU uses the pages directly). */
    vidmm_batch_stamp_locked(batch, inst, !s->aperture || restore || batch->evicted);
    if (restore || !s->aperture)
        DXGK_COUNT(a, bytes_paged_in, al->info.Size);
    if (restore)
        wddm_tl(WDDM_TL_PAGE_IN, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), al->handle, al->info.Size);
    return STATUS_SUCCESS;
}

/* One field pair (last, prior): the invariant after each stamp is that every use other than
 * `last` is at or below `prior` or already retired (0: none pending). So the instance is idle
 * when `last` itself retired (exactly: out of order is fine) and every ticket up to `prior`
 * did (cumulatively). */
static void stamp_pair(const struct gsched_node *n, UINT64 *last, UINT64 *prior, UINT64 t)
{
    if (t > *last) {
        /* The old last becomes the prior unless everything up to it retired already. */
        *prior = *last && !gsched_ticket_retired(n, *last) ? *last : 0;
        *last = t;
    } else if (t < *last && !gsched_ticket_retired(n, t) && t > *prior) {
        *prior = t;
    }
}

void vidmm_stamp_locked(const struct dxgk_adapter *a, struct vidmm_instance *in, UINT node, UINT64 t, bool write)
{
    WDDM_ASSERT_HELD(&a->lock);
    stamp_pair(&a->node[node], &in->last_use[node], &in->prior_use[node], t);
    if (write)
        stamp_pair(&a->node[node], &in->last_write[node], &in->prior_write[node], t);
}

void vidmm_stamp_list_entry_locked(const struct dxgk_adapter *a, struct vidmm_instance *in, UINT node, UINT64 t,
                                   const DXGK_ALLOCATIONLIST *e)
{
    WDDM_ASSERT_HELD(&a->lock);
    vidmm_stamp_locked(a, in, node, t, e->WriteOperation);
    if (e->WriteOperation)
        in->backing_valid = false; /* the GPU's write: the backing store no longer holds it */
}

static bool pair_done(const struct gsched_node *n, UINT64 last, UINT64 prior)
{
    return !last || (gsched_ticket_done(n, last) && (!prior || gsched_ticket_retired(n, prior)));
}

bool vidmm_instance_idle_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (inst->held_va_refs) /* GpuMmu: held packets of its device may still use it */
        return false;
    for (UINT n = 0; n < a->node_count; n++) {
        bool done = writes_only ? pair_done(&a->node[n], inst->last_write[n], inst->prior_write[n])
                                : pair_done(&a->node[n], inst->last_use[n], inst->prior_use[n]);
        if (!done)
            return false;
    }
    /* The kernel's own FILL is a GPU write of the instance. */
    return !inst->paging_fence || gsched_fence_completed(&a->node[a->paging_node], inst->paging_fence);
}

/* Waits (adapter lock dropped meanwhile) until the GPU work recorded on inst at the time of
 * the call retired. inst must not be touched after this returns unless the caller checked
 * its allocation is still alive. */
void vidmm_instance_wait_locked(struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only)
{
    WDDM_ASSERT_HELD(&a->lock);
    UINT64 t[DXGK_MAX_NODES], prior[DXGK_MAX_NODES];
    for (UINT n = 0; n < a->node_count; n++) {
        t[n] = writes_only ? inst->last_write[n] : inst->last_use[n];
        prior[n] = writes_only ? inst->prior_write[n] : inst->prior_use[n];
    }
    UINT64 pf = inst->paging_fence;
    pthread_mutex_unlock(&a->lock);
    wddm_tl_begin(WDDM_TL_CALL_LOCK_WAIT);
    for (UINT n = 0; n < a->node_count; n++) {
        if (prior[n])
            gsched_wait_ticket(&a->node[n], prior[n]);
        if (t[n])
            gsched_wait_ticket_done(&a->node[n], t[n]);
    }
    if (pf)
        gsched_wait_fence(&a->node[a->paging_node], pf);
    wddm_tl_end(WDDM_TL_CALL_LOCK_WAIT, 0);
    pthread_mutex_lock(&a->lock);
}

/* Idle for destruction: also no paging operation (a MAP) of it still pending on the GPU. */
bool vidmm_instance_retired_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (inst->in_batch || inst->evicting) /* a paging batch or an eviction still holds it */
        return false;
    return vidmm_instance_idle_locked(a, inst, false) &&
           (!inst->gpu_fence || gsched_fence_completed(&a->node[a->paging_node], inst->gpu_fence));
}
