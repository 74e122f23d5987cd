/* D3DKMTMakeResident, D3DKMTEvict and D3DKMTQueryVideoMemoryInfo (docs/semantics.md §9.2, §9.3).
 *
 * The kernel runs the WDDM 1.x model (the reference KMD is WDDM 1.3): the allocation list of
 * each DMA buffer drives residency (vidmm/packet.c, for the node worker). On top of it, MakeResident / Evict keep a
 * reference count per allocation: while it is > 0 the allocation's current instance is never
 * an eviction victim (vidmm/evict.c), so the app controls residency as in WDDM 2.x.
 *   - MakeResident is atomic: every handle is checked first; the instances are placed (paged
 *     in: FILL, TRANSFER from the backing store, MAP) one by one, each pinned as it is placed so
 *     a later one cannot evict it; if one cannot be placed every pin of the call is undone,
 *     nothing is counted, NumAllocations is 0, NumBytesToTrim the bytes that did not fit, and
 *     the call fails with STATUS_NO_MEMORY (E_OUTOFMEMORY at the API). Success returns the
 *     paging fence of the placements in PagingFenceValue: STATUS_PENDING while the paging node
 *     has not reached it, STATUS_SUCCESS when nothing is left to wait for.
 *   - MustSucceed (only with CantTrimFurther): when such a call cannot place everything it
 *     fails the same atomic way (STATUS_NO_MEMORY, NumBytesToTrim) and its device is put in
 *     error: STATUS_DEVICE_REMOVED, D3DKMTGetDeviceState answers ERROR_OUTOFMEMORY, no further
 *     D3DKMTRender of any of its contexts nor MakeResident is accepted; other devices go on.
 *   - hPagingQueue is a paging queue of the allocations' device (vidmm/pagingqueue.c): a
 *     pending call's PagingFenceValue is a value of that queue's monitored fence, raised by the
 *     kernel once this call's paging completed (0 when nothing is left to wait for). Kept for
 *     the WDDM 1.x-era callers: the device handle itself, the fence then being the paging
 *     node's own.
 *   - Evict decrements; a call naming an allocation whose count is 0 is refused whole. At 0 the
 *     current instance is evicted at once (TRANSFER to its backing store / UNMAP) if nothing
 *     references it, unless EvictOnlyIfNecessary (then only under pressure). NotWrittenTo
 *     (effective on any Evict call, at any count): the app vouches that the GPU did not write
 *     since MakeResident, so the instance is marked clean and its eviction, now or later, is a
 *     DISCARD_CONTENT instead of a TRANSFER, when the backing store was the content at that
 *     MakeResident and the CPU cannot have written it since (not_written_to_discardable_locked);
 *     a later GPU write or write lock makes it dirty again as usual. NumBytesToTrim is 0: no
 *     per-process budget below the segments' sizes.
 *   - QueryVideoMemoryInfo: LOCAL = the memory segments (local and CPU-visible local), NON_LOCAL
 *     = the aperture. Budget = the bytes VidMm may place there less other processes' use
 *     (vidmm/process_budget.c), CurrentUsage = the bytes placed
 *     now (every instance, every device: one process), CurrentReservation and
 *     AvailableForReservation (half the Budget) those of D3DKMTChangeVideoMemoryReservation
 *     (vidmm/reservation.c). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

/* Pins and places the listed allocations in order (MakeResident's body); *done = how many were
 * pinned. Adapter lock held. */
static NTSTATUS place_list_locked(struct dxgk_adapter *a, struct dxgk_device *d, struct dxgk_allocation **al, UINT n,
                                  struct vidmm_paging_batch *batch, UINT *done_out)
{
    WDDM_ASSERT_HELD(&a->lock);
    NTSTATUS st = STATUS_SUCCESS;
    UINT done = 0;
    if (!NT_SUCCESS(d->error)) {
        /* Lost (a failed MustSucceed, a residency failure, a TDR): nothing is made resident. */
        dxgk_refuse("D3DKMTMakeResident: device 0x%08x is in error 0x%08x", d->handle, (unsigned)d->error);
        st = STATUS_DEVICE_REMOVED;
    }
    for (; done < n && NT_SUCCESS(st); done++) {
        if (al[done]->dead) {
            dxgk_refuse("D3DKMTMakeResident: allocation 0x%08x is being destroyed", al[done]->handle);
            st = STATUS_INVALID_PARAMETER;
            break;
        }
        bool placed = al[done]->current->segment_id != 0;
        al[done]->resident_refs++; /* pinned now: the placements below cannot evict it */
        st = vidmm_make_resident_locked(a, al[done]->current, batch, true);
        if (!NT_SUCCESS(st)) {
            al[done]->resident_refs--;
            break;
        }
        /* GpuMmu (issue 3): its PTEs become Valid with its first reference; a placement above
         * wrote them already, an allocation that was placed before (a Lock2) gets them now. */
        if (placed && al[done]->resident_refs == 1)
            (void)vidmm_va_instance_moved_locked(a, al[done]->current, batch);
        vidmm_touch_locked(a, al[done]->current);
        /* NotWrittenTo (D3DKMTEvict) vouches for no GPU write since this call: the backing store
         * is then still the content if it is now. */
        al[done]->current->resident_clean = al[done]->current->backing_valid;
    }
    *done_out = done;
    return st;
}

/* GpuMmu: how many times a MakeResident that does not fit waits for the queued work and tries
 * again before it fails. */
#define MAKE_RESIDENT_WAITS 4

NTSTATUS APIENTRY D3DKMTMakeResident(D3DDDI_MAKERESIDENT *args)
{
    if (!args || !args->NumAllocations || !args->AllocationList) {
        dxgk_refuse("D3DKMTMakeResident: NULL arguments or an empty allocation list");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved || (args->Flags.MustSucceed && !args->Flags.CantTrimFurther)) {
        dxgk_refuse("D3DKMTMakeResident: flags 0x%x (MustSucceed requires CantTrimFurther; reserved bits)",
                    args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_paging_queue *q; /* NULL: the device handle stands for its paging queue */
    struct dxgk_device *d = dxgk_paging_queue_resolve(args->hPagingQueue, &q, "D3DKMTMakeResident");
    if (!d)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    UINT n = args->NumAllocations;
    struct dxgk_allocation **al;
    NTSTATUS lst = dxgk_allocation_list_get(d, args->AllocationList, n, "D3DKMTMakeResident", &al);
    if (!NT_SUCCESS(lst)) {
        dxgk_paging_queue_put(q);
        dxgk_device_put(d);
        return lst;
    }
    args->NumAllocations = 0;
    args->PagingFenceValue = 0;
    args->NumBytesToTrim = 0;
    NTSTATUS st = STATUS_SUCCESS;
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    pthread_mutex_lock(&a->lock);
    UINT done = 0;
    for (int attempt = 0;; attempt++) {
        done = 0;
        st = place_list_locked(a, d, al, n, &batch, &done);
        if (NT_SUCCESS(st))
            break;
        /* Atomic failure: undo the pins of this call. */
        for (UINT i = 0; i < done; i++)
            al[i]->resident_refs--;
        if (st != STATUS_NO_MEMORY || attempt == MAKE_RESIDENT_WAITS || !a->mmu)
            break;
        /* GpuMmu: the room may be held by allocations the device evicted whose packets are
         * still queued (a VA use protects them until it retired, vidmm/evict.c). Windows queues
         * the paging behind that work; here the call waits for the work queued so far and
         * tries again. Packets held behind a GPU wait join the queue only as their waits are
         * satisfied, hence a few rounds before it fails. */
        vidmm_paging_flush_locked(&batch);
        vidmm_wait_queued_locked(a);
        vidmm_batch_init(&batch, a);
    }
    if (!NT_SUCCESS(st)) {
        /* Report the bytes that did not fit. */
        if (st == STATUS_NO_MEMORY || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            for (UINT i = done; i < n; i++)
                if (!al[i]->current->segment_id)
                    args->NumBytesToTrim += al[i]->info.Size;
            st = STATUS_NO_MEMORY;
            /* MustSucceed (docs/semantics.md §9.2): the app cannot progress without these, so the
             * device is put in error; none of its contexts' submissions are accepted any more
             * (D3DKMTRender returns the error), D3DKMTGetDeviceState answers ERROR_OUTOFMEMORY.
             * The call itself still fails atomically with STATUS_NO_MEMORY and NumBytesToTrim. */
            if (args->Flags.MustSucceed)
                (void)dxgk_device_set_error_locked(d, STATUS_DEVICE_REMOVED,
                                                   D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY);
        }
    }
    vidmm_paging_flush_locked(&batch);
    UINT64 fence = 0;
    if (NT_SUCCESS(st)) {
        for (UINT i = 0; i < n; i++)
            if (al[i]->current->gpu_fence > fence)
                fence = al[i]->current->gpu_fence;
        /* Every paging operation of this call, also the page-table updates of an allocation
         * that was placed already (they stamp no instance): the GPU must not use its VA before
         * its PTEs are Valid again. */
        if (batch.fence > fence)
            fence = batch.fence;
        args->NumAllocations = n;
        args->PagingFenceValue = fence;
        if (fence && !gsched_fence_completed(&a->node[a->paging_node], fence))
            st = STATUS_PENDING;
        if (q) { /* a value of the queue's own fence, armed to follow this paging (§9.2) */
            args->PagingFenceValue = dxgk_paging_queue_fence_locked(a, q, fence);
            st = args->PagingFenceValue ? STATUS_PENDING : STATUS_SUCCESS;
        }
    }
    pthread_mutex_unlock(&a->lock);
    if (st == STATUS_NO_MEMORY)
        dxgk_refuse("D3DKMTMakeResident: %llu bytes do not fit the allowed segments: nothing changed",
                    (unsigned long long)args->NumBytesToTrim);
    dxgk_allocation_list_put(al, n);
    dxgk_paging_queue_put(q);
    dxgk_device_put(d);
    return st;
}

/* NotWrittenTo (docs/semantics.md §9.2): the app vouches that the GPU did not write the allocation
 * since its MakeResident, so VidMm may discard it instead of copying it back. Taken only when
 * that makes the backing store the content: it was at that MakeResident (resident_clean), and
 * the CPU cannot have written it since: the allocation is not CpuVisible (only CpuVisible
 * allocations lock, vidmm/lock.c), nor shares its backing store with the KMD. Resident in a
 * memory segment (an aperture placement's backing store is the content anyway). */
static bool not_written_to_discardable_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al,
                                              const struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    return in->resident_clean && in->backing && in->segment_id && !a->seg[in->segment_id - 1].aperture &&
           !al->info.Flags.CpuVisible && !al->kmd_backing;
}

NTSTATUS APIENTRY D3DKMTEvict(D3DKMT_EVICT *args)
{
    if (!args || !args->NumAllocations || !args->AllocationList) {
        dxgk_refuse("D3DKMTEvict: NULL arguments or an empty allocation list");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved) {
        dxgk_refuse("D3DKMTEvict: reserved flag bits 0x%x", args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTEvict: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    UINT n = args->NumAllocations;
    struct dxgk_allocation **al;
    NTSTATUS lst = dxgk_allocation_list_get(d, args->AllocationList, n, "D3DKMTEvict", &al);
    if (!NT_SUCCESS(lst)) {
        dxgk_device_put(d);
        return lst;
    }
    args->NumBytesToTrim = 0;
    NTSTATUS st = STATUS_SUCCESS;
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    pthread_mutex_lock(&a->lock);
    /* All or nothing: every count must be > 0 (a handle named twice needs two references). */
    for (UINT i = 0; i < n && NT_SUCCESS(st); i++) {
        UINT named = 0;
        for (UINT j = 0; j <= i; j++)
            named += al[j] == al[i];
        if (al[i]->dead || al[i]->resident_refs < named) {
            dxgk_refuse("D3DKMTEvict: allocation 0x%08x (entry %u) has no MakeResident reference left",
                        al[i]->handle, i);
            st = STATUS_INVALID_PARAMETER;
        }
    }
    if (NT_SUCCESS(st) && a->mmu)
        st = vidmm_va_reserve_held_locked(d, n); /* before any change: a failure changes nothing */
    for (UINT i = 0; i < n && NT_SUCCESS(st); i++) {
        struct vidmm_instance *in = al[i]->current;
        if (a->mmu) {
            /* GpuMmu (issue 3, docs/semantics.md §9.2): no allocation list says what the GPU
             * touches, so the allocation counts as used (and written: any writable mapping may
             * have been) by every packet its device queued before this Evict; it leaves its
             * segment only once they retired (vidmm/evict.c reads these tickets). */
            vidmm_va_device_use_locked(d, in);
            if (!args->Flags.NotWrittenTo)
                in->backing_valid = false;
        }
        if (args->Flags.NotWrittenTo && not_written_to_discardable_locked(a, al[i], in))
            in->backing_valid = true; /* any later eviction is a DISCARD_CONTENT (vidmm/evict.c) */
        if (--al[i]->resident_refs == 0 && !args->Flags.EvictOnlyIfNecessary && in->segment_id &&
            vidmm_evictable_locked(a, in))
            (void)vidmm_evict_instance_locked(a, in, &batch, VIDMM_EVICT_ORDINARY); /* a failure leaves it resident */
    }
    vidmm_paging_flush_locked(&batch);
    pthread_mutex_unlock(&a->lock);
    dxgk_allocation_list_put(al, n);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTQueryVideoMemoryInfo(D3DKMT_QUERYVIDEOMEMORYINFO *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTQueryVideoMemoryInfo: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS pst = vidmm_check_process_handle("D3DKMTQueryVideoMemoryInfo", args->hProcess);
    if (!NT_SUCCESS(pst))
        return pst;
    if (args->MemorySegmentGroup != D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL &&
        args->MemorySegmentGroup != D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL) {
        dxgk_refuse("D3DKMTQueryVideoMemoryInfo: MemorySegmentGroup %d is neither LOCAL nor NON_LOCAL",
                    (int)args->MemorySegmentGroup);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->PhysicalAdapterIndex != 0) {
        dxgk_refuse("D3DKMTQueryVideoMemoryInfo: PhysicalAdapterIndex %u (no linked adapters)",
                    args->PhysicalAdapterIndex);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTQueryVideoMemoryInfo: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&a->lock);
    UINT64 budget = vidmm_group_budget_locked(a, args->MemorySegmentGroup); /* vidmm/process_budget.c */
    UINT64 usage = vidmm_group_usage_locked(a, args->MemorySegmentGroup);
    UINT64 reservation = vidmm_reservation_locked(a, args->MemorySegmentGroup); /* vidmm/reservation.c */
    UINT64 reservable = vidmm_reservable_locked(a, args->MemorySegmentGroup);
    pthread_mutex_unlock(&a->lock);
    dxgk_adapter_put(a);
    args->Budget = budget;
    args->CurrentUsage = usage;
    args->CurrentReservation = reservation;
    args->AvailableForReservation = reservable;
    return STATUS_SUCCESS;
}
