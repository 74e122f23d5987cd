/* Video memory after an adapter reset (issue 20 §7; "Thread Synchronization and TDR" in the
 * WDK guide).
 *
 * A GPU reset loses what local video memory held. After DxgkDdiResetFromTimeout returned and
 * before DxgkDdiRestartFromTimeout, VidMm therefore takes every allocation out of its segment,
 * telling the KMD as Windows does:
 *   memory segment   -> DXGK_OPERATION_TRANSFER with TransferSize 0 (a notification: there is
 *                       no content to move). The content is lost: the next use places the
 *                       allocation afresh, zero-filled, as at its first use; a context
 *                       allocation is initialised again (INIT_CONTEXT_RESOURCE);
 *   aperture segment -> DXGK_OPERATION_UNMAP_APERTURE_SEGMENT. The content is system memory
 *                       and survives; the next use maps it again.
 * Kept where they are, with their content (the model's choice, docs/rules/vidmm.md): an
 * allocation the CPU holds locked (its pointer stays valid) or pinned by D3DKMTMakeResident,
 * and a destroyed one waiting to be freed. Every device of the adapter is lost by then (an
 * adapter reset loses them all, sched/tdr.c), so nothing of theirs runs again; what comes back
 * is what a new device or another adapter's user of a shared allocation touches next. */
#include "dxgkrnl/vidmm/vidmm.h"

/* The notification for one instance, then its bookkeeping: out of its segment and LRU. */
static NTSTATUS purge_one_locked(struct dxgk_adapter *a, struct vidmm_instance *in, struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (in->lock_count)
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* kept, also one a UseAlternateVA lock lets move */
    struct dxgk_allocation *al = in->alloc;
    struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    DXGKARG_BUILDPAGINGBUFFER args = { 0 };
    if (s->aperture) {
        vidmm_unmap_aperture_args(&args, in, in->segment_id, in->offset);
    } else {
        args.Operation = DXGK_OPERATION_TRANSFER;
        args.Transfer.hAllocation = al->info.hAllocation;
        args.Transfer.TransferSize = 0; /* the content is gone: nothing to copy */
        args.Transfer.Source.SegmentId = in->segment_id;
        args.Transfer.Source.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)in->offset;
        args.Transfer.Destination.SegmentId = 0;
        args.Transfer.Destination.pMdl = in->backing ? &in->mdl : NULL;
        args.Transfer.Flags.AllocationIsIdle = 1; /* every packet retired with the reset */
        args.Transfer.Flags.TransferStart = 1;
        args.Transfer.Flags.TransferEnd = 1;
    }
    NTSTATUS st = vidmm_paging_build_locked(batch, &args, in);
    if (!NT_SUCCESS(st))
        return st;
    vidmm_lru_unlink_locked(a, in);
    vidmm_segment_free_locked(s, in->offset, al->info.Size);
    in->segment_id = 0;
    in->offset = 0;
    in->cpu = NULL;
    if (s->aperture) {
        in->evicted = true; /* restored by mapping its backing store again */
        in->backing_valid = true;
    } else {
        in->evicted = false; /* lost: placed afresh, zero-filled */
        in->backing_valid = false;
        if (al->ctx_owner)
            al->ctx_owner->initialized = false;
    }
    (void)vidmm_va_instance_moved_locked(a, in, batch); /* GpuMmu: its PTEs go invalid */
    vidmm_batch_stamp_locked(batch, in, false);
    return STATUS_SUCCESS;
}

UINT64 vidmm_clear_segments(struct dxgk_adapter *a, UINT segments, bool keep_pinned, vidmm_clear_fn clear)
{
    UINT64 moved = 0;
    pthread_mutex_lock(&a->lock);
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    for (UINT id = 1; id <= a->segment_count; id++) {
        if (!(segments & (1u << (id - 1))))
            continue;
        struct vidmm_instance *next;
        for (struct vidmm_instance *in = a->seg[id - 1].lru_head; in; in = next) {
            next = in->lru_next;
            const struct dxgk_allocation *al = in->alloc;
            if (vidmm_locked_in_place(in) || in->in_batch || in->evicting || al->dead ||
                (keep_pinned && in == al->current && al->resident_refs))
                continue;
            /* Every packet retired (a reset, or the GPU run dry): no BUSY wait lets the lock go
             * in the middle of the walk. */
            if (NT_SUCCESS(clear(a, in, &batch)))
                moved++;
        }
    }
    vidmm_paging_flush_locked(&batch);
    UINT64 fence = batch.fence;
    pthread_mutex_unlock(&a->lock);
    if (fence)
        gsched_wait_fence(&a->node[a->paging_node], fence);
    return moved;
}

UINT64 vidmm_purge_after_reset(struct dxgk_adapter *a)
{
    /* Done before the adapter restarts: new work finds every range free. */
    return vidmm_clear_segments(a, ~0u, true, purge_one_locked);
}
