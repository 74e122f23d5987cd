/* What VidMm does for the scheduler's packets (issue 16 §1): the scheduler asks through its
 * upcalls (struct dxgk_upcalls, filled by objects/adapter.c), so sched/ never calls into
 * vidmm/ - the way the DRM scheduler asks its driver through drm_sched_backend_ops.
 *
 * - Before a packet goes to the hardware (the node worker picked it): its allocations and its
 *   context's context allocations made resident in one paging batch, its allocation list
 *   located, and the paging fence it must wait for (docs/semantics.md §9.1; seed 000).
 * - A held packet (behind a GPU wait, sched/queue.c) taking its ticket: the allocations' current
 *   instances, located and stamped as D3DKMTRender stamps them (objects/render.c). */
#include "dxgkrnl/vidmm/vidmm.h"

UINT64 vidmm_packet_entry_ready_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT i)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_instance *in = p->inst[i];
    vidmm_touch_locked(a, in);
    vidmm_list_entry_locate(a, &p->alloc_list[i], in);
    return in->gpu_fence;
}

/* The packet's allocations and its context's resident, its allocation list located. */
static NTSTATUS prepare_resident_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT64 *paging_fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    NTSTATUS st = STATUS_SUCCESS;
    UINT64 wait = 0;
    /* From now on the GPU may touch them: never evicted until this packet retired. The stamps
     * they had are kept, for a split (vidmm/split.c) to give them back. */
    for (UINT i = 0; i < p->alloc_count; i++) {
        p->saved_use[i] = p->inst[i]->prepared_use[p->node];
        p->inst[i]->prepared_use[p->node] = p->ticket;
    }
    /* Its context allocations too: placing the rest must not evict them again (nor switch their
     * context out to do so, vidmm/evict.c). */
    dxgk_context_allocations_claim_locked(p->ctx, p->ticket);
    for (int attempt = 0;; attempt++) {
        /* Seed 000: the context's context allocations (and its device's) first: resident, and
         * initialised, before the packet can reach the hardware queue. */
        st = dxgk_context_allocations_make_resident_locked(a, p->ctx, &batch);
        for (UINT i = 0; i < p->alloc_count && NT_SUCCESS(st); i++)
            st = vidmm_make_resident_locked(a, p->inst[i], &batch, true);
        vidmm_paging_flush_locked(&batch);
        if (st != STATUS_NO_MEMORY || attempt == 1)
            break;
        /* Oversubscribed and every evictable candidate is referenced by work already submitted
         * (this packet's own allocations are never victims: their tickets are not retired):
         * wait for that work, then try once more (docs/semantics.md §9.1). Work queued behind this
         * packet cannot retire first, so a second failure is final. */
        vidmm_wait_submitted_locked(a);
        vidmm_batch_init(&batch, a);
        st = STATUS_SUCCESS;
    }
    if (!NT_SUCCESS(st))
        return st;
    for (UINT i = 0; i < p->alloc_count; i++) {
        UINT64 f = vidmm_packet_entry_ready_locked(a, p, i);
        if (f > wait)
            wait = f;
    }
    UINT64 cw = dxgk_context_allocations_mark_used_locked(p->ctx, p->ticket);
    if (cw > wait)
        wait = cw;
    *paging_fence = wait;
    return STATUS_SUCCESS;
}

NTSTATUS vidmm_packet_prepare_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT64 *paging_fence,
                                     struct vidmm_root_ref *root)
{
    WDDM_ASSERT_HELD(&a->lock);
    NTSTATUS st = prepare_resident_locked(a, p, paging_fence);
    if (NT_SUCCESS(st) && p->virt) {
        /* GpuMmu: no allocation list; every page-table write submitted so far runs first,
         * with the root page table current now (a grown root's content is among them). */
        UINT64 pt = vidmm_va_pt_fence_locked(a);
        if (pt > *paging_fence)
            *paging_fence = pt;
        vidmm_va_root_locked(a, root);
    }
    return st;
}

/* What the worker's prepare step (above) would find already done: the context's context
 * allocations resident and initialised (seed 000; once they are, the context's queued count
 * keeps them), each instance resident in a segment its allocation may use (one an eviction
 * moved into an aperture of its EvictionSegmentSet needs the prepare step to come back) with
 * the paging that placed it retired, and for a virtual packet every page-table write submitted
 * so far retired and the context's root page table current. Then the packet is marked as the
 * prepare step marks it: no paging fence to wait for, nothing to switch. */
bool vidmm_packet_direct_locked(struct dxgk_adapter *a, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct gsched_node *paging = &a->node[a->paging_node];
    if (!dxgk_context_allocations_ready_locked(a, p->ctx))
        return false;
    for (UINT i = 0; i < p->alloc_count; i++) {
        const struct vidmm_instance *in = p->inst[i];
        if (!in->segment_id || !(vidmm_allowed_segments(a, &in->alloc->info) & (1u << (in->segment_id - 1))) ||
            (in->gpu_fence && !gsched_fence_completed(paging, in->gpu_fence)))
            return false;
    }
    if (p->virt) {
        UINT64 pt = vidmm_va_pt_fence_locked(a);
        struct vidmm_root_ref root;
        vidmm_va_root_locked(a, &root);
        if ((pt && !gsched_fence_completed(paging, pt)) || root.gen != p->ctx->root_gen)
            return false;
    }
    (void)dxgk_context_allocations_mark_used_locked(p->ctx, p->ticket); /* ready: no fence to wait */
    for (UINT i = 0; i < p->alloc_count; i++) {
        struct vidmm_instance *in = p->inst[i];
        in->prepared_use[p->node] = p->ticket; /* the GPU may touch it: not evicted (vidmm/evict.c) */
        vidmm_list_entry_locate(a, &p->alloc_list[i], in);
    }
    return true;
}

void vidmm_packet_ticketed_locked(struct dxgk_adapter *a, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (UINT i = 0; i < p->alloc_count; i++) {
        struct vidmm_instance *in = p->inst[i] ? p->inst[i] : p->held_alloc[i]->current;
        vidmm_touch_locked(a, in);
        p->inst[i] = in;
        vidmm_list_entry_locate(a, &p->alloc_list[i], in);
        vidmm_stamp_list_entry_locked(a, in, p->node, p->ticket, &p->alloc_list[i]);
    }
}
