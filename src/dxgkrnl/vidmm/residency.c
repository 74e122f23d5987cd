/* Residency (wddm-semantics §9.1: in WDDM 1.x the allocation list drives residency). Lazy: an
 * instance becomes resident on first reference by a DMA buffer's allocation list (the node
 * worker, sched/node.c) or on lock (vidmm/lock.c). A new placement in a memory segment is
 * zero-filled by a FILL paging operation; an aperture placement maps its backing store with
 * MAP_APERTURE_SEGMENT (docs/architecture.md "Memory and addresses"). An evicted instance
 * (vidmm/evict.c) is restored: TRANSFER from its backing store into a memory segment, or MAP of
 * the backing store itself into the aperture; the CPU and the GPU wait for that paging fence. */
#include "dxgkrnl/dxgkrnl.h"

NTSTATUS vidmm_make_resident_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                    struct vidmm_paging_batch *batch, bool fill)
{
    if (inst->segment_id)
        return STATUS_SUCCESS;
    NTSTATUS st = vidmm_place_locked(a, inst, batch);
    if (!NT_SUCCESS(st))
        return st;
    const struct dxgk_allocation *al = inst->alloc;
    const struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
    bool restore = inst->evicted;
    DXGKARG_BUILDPAGINGBUFFER args = { 0 };
    if (s->aperture) {
        args.Operation = DXGK_OPERATION_MAP_APERTURE_SEGMENT;
        args.MapApertureSegment.hDevice = al->device->kmd;
        args.MapApertureSegment.hAllocation = al->info.hAllocation;
        args.MapApertureSegment.SegmentId = inst->segment_id;
        args.MapApertureSegment.OffsetInPages = inst->offset / DXGK_PAGE_SIZE;
        args.MapApertureSegment.NumberOfPages = inst->mdl.PageCount;
        args.MapApertureSegment.pMdl = &inst->mdl;
        args.MapApertureSegment.MdlOffset = 0;
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
    } else if (fill) {
        /* Fill: only memory segments, allocation guaranteed idle (wddm-semantics §2.3). */
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
        if (inst->last_write[n] && !sched_ticket_retired(&a->node[n], inst->last_write[n]))
            write_pending = true;
    inst->backing_valid = (restore && !write_pending) || s->aperture;
    /* The CPU waits for a FILL or a restore, or for an eviction of the batch that freed the
     * range (a MAP of fresh pages needs no CPU wait: the CPU uses the pages directly). */
    vidmm_batch_stamp_locked(batch, inst, !s->aperture || restore || batch->evicted);
    if (restore || !s->aperture)
        DXGK_COUNT(a, bytes_paged_in, al->info.Size);
    return STATUS_SUCCESS;
}

bool vidmm_instance_idle_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only)
{
    for (UINT n = 0; n < a->node_count; n++) {
        UINT64 t = writes_only ? inst->last_write[n] : inst->last_use[n];
        if (t && !sched_ticket_retired(&a->node[n], t))
            return false;
    }
    /* The kernel's own FILL is a GPU write of the instance. */
    return !inst->paging_fence || sched_fence_completed(&a->node[a->paging_node], inst->paging_fence);
}

/* Waits (adapter lock dropped meanwhile) until the GPU work recorded on inst at the time of
 * the call retired. inst must not be touched after this returns unless the caller checked
 * its allocation is still alive. */
void vidmm_instance_wait_locked(struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only)
{
    UINT64 t[DXGK_MAX_NODES];
    for (UINT n = 0; n < a->node_count; n++)
        t[n] = writes_only ? inst->last_write[n] : inst->last_use[n];
    UINT64 pf = inst->paging_fence;
    pthread_mutex_unlock(&a->lock);
    for (UINT n = 0; n < a->node_count; n++)
        if (t[n])
            sched_wait_ticket(&a->node[n], t[n]);
    if (pf)
        sched_wait_fence(&a->node[a->paging_node], pf);
    pthread_mutex_lock(&a->lock);
}

/* Idle for destruction: also no paging operation (a MAP) of it still pending on the GPU. */
bool vidmm_instance_retired_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst)
{
    if (inst->in_batch || inst->evicting) /* a paging batch or an eviction still holds it */
        return false;
    return vidmm_instance_idle_locked(a, inst, false) &&
           (!inst->gpu_fence || sched_fence_completed(&a->node[a->paging_node], inst->gpu_fence));
}
