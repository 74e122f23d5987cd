/* Residency (wddm-semantics §9.1: in WDDM 1.x the allocation list drives residency). Lazy: an
 * instance becomes resident on first reference by a DMA buffer's allocation list (the node
 * worker, sched/node.c) or on lock (vidmm/lock.c). A new placement in a memory segment is
 * zero-filled by a FILL paging operation; an aperture placement maps its backing store with
 * MAP_APERTURE_SEGMENT (docs/architecture.md "Memory and addresses"). */
#include "dxgkrnl/dxgkrnl.h"

NTSTATUS vidmm_make_resident_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                    struct vidmm_paging_batch *batch, bool fill)
{
    if (inst->segment_id)
        return STATUS_SUCCESS;
    NTSTATUS st = vidmm_place_locked(a, inst);
    if (!NT_SUCCESS(st))
        return st;
    const struct dxgk_allocation *al = inst->alloc;
    const struct vidmm_segment *s = &a->seg[inst->segment_id - 1];
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
    } else if (fill) {
        /* Fill: only memory segments, allocation guaranteed idle (wddm-semantics §2.3). */
        args.Operation = DXGK_OPERATION_FILL;
        args.Fill.hAllocation = al->info.hAllocation;
        args.Fill.FillSize = al->info.Size;
        args.Fill.FillPattern = 0;
        args.Fill.Destination.SegmentId = inst->segment_id;
        args.Fill.Destination.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)inst->offset;
    } else {
        return STATUS_SUCCESS; /* a Discard instance: its content is undefined, nothing to page */
    }
    st = vidmm_paging_build_locked(batch, &args, inst);
    if (!NT_SUCCESS(st)) {
        vidmm_unplace_locked(a, inst);
        return st;
    }
    inst->stamp_fill = !s->aperture;
    inst->paging_next = batch->stamp;
    batch->stamp = inst;
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
    return vidmm_instance_idle_locked(a, inst, false) &&
           (!inst->gpu_fence || sched_fence_completed(&a->node[a->paging_node], inst->gpu_fence));
}
