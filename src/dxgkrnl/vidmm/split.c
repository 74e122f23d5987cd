/* DMA-buffer splitting (issue 3; docs/semantics.md §9.1, §9.5 #3): "if the whole working set of
 * one DMA buffer does not fit, VidMm splits the DMA buffer".
 *
 * Where: DxgkDdiRender gives every output patch location the SplitOffset of the command it
 * patches (D3DDDI_PATCHLOCATIONLIST.SplitOffset: where the DMA buffer may be split so that the
 * part after it needs that allocation and the part before it does not). The patch locations of
 * one command share a SplitOffset; they come in DMA-buffer order.
 *
 * How: the node worker asks for this (struct dxgk_upcalls, split_submit_locked) when prepare
 * could not make the packet's allocations resident together, even after the work in flight
 * retired. From the first command on, it makes resident the allocations of as many whole
 * commands as fit (each one stamped so that
 * the next ones cannot evict it), submits those bytes with their patch locations
 * (DxgkDdiPatch and DxgkDdiSubmitCommand take DmaBufferSubmissionStart/EndOffset and
 * PatchLocationListSubmissionStart/Length for exactly this), waits for that part to complete,
 * gives the stamps back (they may be evicted for the next part) and goes on. The last part is
 * the packet itself: it goes on the in-flight list and retires with its ticket. One command
 * whose allocations do not fit alone ends the split with STATUS_NO_MEMORY (the device is then
 * lost, as before). While a node splits it is not preempted (a part is not on the in-flight
 * list, so a preemption could not take it back). */
#include "dxgkrnl/vidmm/vidmm.h"

/* Every stamp back to what it was before this packet (the worker's prepare saved them). */
static void unstamp_all_locked(struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&p->ctx->device->adapter->lock);
    for (UINT i = 0; i < p->alloc_count; i++)
        if (p->inst[i]->prepared_use[p->node] == p->ticket)
            p->inst[i]->prepared_use[p->node] = p->saved_use[i];
}

/* The patch locations of one command: [e, *group_end). */
static UINT group_end(const struct dxgk_packet *p, UINT e)
{
    UINT so = p->patch[e].SplitOffset;
    while (e < p->patch_count && p->patch[e].SplitOffset == so)
        e++;
    return e;
}

static bool split_offsets_valid(const struct dxgk_packet *p)
{
    for (UINT k = 0; k < p->patch_count; k++) {
        const D3DDDI_PATCHLOCATIONLIST *e = &p->patch[k];
        if (e->SplitOffset > e->PatchOffset || e->SplitOffset >= p->dma_used || e->AllocationIndex >= p->alloc_count ||
            (k && e->SplitOffset < p->patch[k - 1].SplitOffset)) {
            dxgk_refuse("verifier: patch location %u: SplitOffset %u not a command start before its PatchOffset %u "
                        "in DMA-buffer order: the DMA buffer cannot be split",
                        k, e->SplitOffset, e->PatchOffset);
            return false;
        }
    }
    return p->patch_count > 0;
}

/* Makes resident, stamped, every allocation of commands [g, ...) that fit together; returns
 * the end of the part (> g), or g when even the first command does not fit. */
static UINT fit_part_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT g, NTSTATUS *st)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    *st = dxgk_context_allocations_make_resident_locked(a, p->ctx, &batch);
    UINT e = g;
    bool waited = false;
    while (NT_SUCCESS(*st) && e < p->patch_count) {
        UINT ge = group_end(p, e);
        NTSTATUS gs = STATUS_SUCCESS;
        for (UINT k = e; k < ge && NT_SUCCESS(gs); k++) {
            struct vidmm_instance *in = p->inst[p->patch[k].AllocationIndex];
            in->prepared_use[p->node] = p->ticket;
            gs = vidmm_make_resident_locked(a, in, &batch, true);
        }
        if (NT_SUCCESS(gs)) {
            e = ge;
            continue;
        }
        if (e > g)
            break; /* the part ends before this command */
        if (gs == STATUS_NO_MEMORY && !waited) {
            /* The first command alone: wait for what is in flight, then try once more. */
            vidmm_paging_flush_locked(&batch);
            vidmm_wait_submitted_locked(a);
            vidmm_batch_init(&batch, a);
            waited = true;
            continue;
        }
        *st = gs;
    }
    vidmm_paging_flush_locked(&batch);
    /* Only this part's allocations keep the packet's stamp; a command that did not fit gives
     * its own back. */
    unstamp_all_locked(p);
    for (UINT k = g; k < e; k++)
        p->inst[p->patch[k].AllocationIndex]->prepared_use[p->node] = p->ticket;
    return NT_SUCCESS(*st) ? e : g;
}

NTSTATUS vidmm_split_submit_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* Once its last part is submitted the packet may retire and be recycled at any time:
     * nothing of it is read after that. */
    D3DKMT_HANDLE ctx = p->ctx->handle;
    unstamp_all_locked(p);
    if (!split_offsets_valid(p))
        return STATUS_NO_MEMORY;
    atomic_store_explicit(&n->splitting, true, memory_order_release);
    NTSTATUS st = STATUS_SUCCESS;
    UINT g = 0, dma_start = 0, parts = 0;
    while (g < p->patch_count) {
        UINT e = fit_part_locked(a, p, g, &st);
        if (e == g) {
            if (NT_SUCCESS(st))
                st = STATUS_NO_MEMORY;
            dxgk_refuse("VidMm: the command at DMA offset %u of a packet of context 0x%08x needs more than the "
                        "allowed segments hold, even alone: the DMA buffer cannot be split further",
                        p->patch[g].SplitOffset, ctx);
            break;
        }
        UINT64 wait = 0;
        for (UINT k = g; k < e; k++) {
            UINT64 f = vidmm_packet_entry_ready_locked(a, p, p->patch[k].AllocationIndex);
            if (f > wait)
                wait = f;
        }
        UINT64 cw = dxgk_context_allocations_mark_used_locked(p->ctx, p->ticket);
        if (cw > wait)
            wait = cw;
        bool last = e >= p->patch_count;
        p->split = true;
        p->part = !last;
        p->sub_start = dma_start;
        p->sub_end = last ? p->dma_used : p->patch[e].SplitOffset;
        p->patch_start = g;
        p->patch_len = e - g;
        parts++;
        pthread_mutex_unlock(&a->lock);
        if (wait && a->paging_node != n->ordinal)
            gsched_wait_fence(&a->node[a->paging_node], wait);
        UINT64 f = gsched_submit(n, p);
        if (!last && f)
            gsched_wait_fence(n, f); /* its allocations may go for the next part */
        pthread_mutex_lock(&a->lock);
        if (last)
            break; /* the packet is in flight: it retires with its ticket */
        if (!f) {
            st = STATUS_UNSUCCESSFUL; /* the KMD refused the part (a verifier line said why) */
            break;
        }
        for (UINT k = g; k < e; k++) {
            UINT i = p->patch[k].AllocationIndex;
            if (p->inst[i]->prepared_use[p->node] == p->ticket)
                p->inst[i]->prepared_use[p->node] = p->saved_use[i];
        }
        dma_start = p->sub_end;
        g = e;
    }
    if (!NT_SUCCESS(st)) {
        unstamp_all_locked(p);
        p->split = p->part = false;
    } else {
        DXGK_COUNT(a, dma_buffer_splits, 1);
        dxgk_refuse("VidMm: DMA buffer of context 0x%08x split in %u parts (its allocations do not fit together)",
                    ctx, parts);
    }
    atomic_store_explicit(&n->splitting, false, memory_order_release);
    return st;
}
