/* D3DKMTRender (docs/semantics.md §8.1, WDDM 1.x patching), the entry point over a context's
 * queue (sched/queue.c), VidMm's instances and the KMD's DxgkDdiRender.
 *
 * It validates the counts against the context's lists, resolves every allocation handle of
 * the allocation list to the allocation's current instance (a bad handle fails the call with
 * nothing queued), calls DxgkDdiRender to turn the command buffer into DMA buffers (splitting
 * into several packets on STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER), gives each packet a node
 * ticket, queues it and hands the same command buffer and lists back.
 *
 * Instances (docs/semantics.md §3.3, issue 3): an allocation-list entry naming the allocation's
 * handle takes its current instance; one naming an instance handle (returned by a Discard
 * lock, vidmm/rename.c) takes that instance. The instance-ordering invariant is enforced: once
 * a DMA buffer referenced an instance, a later buffer naming an older instance of the same
 * allocation is refused (STATUS_INVALID_PARAMETER, nothing queued) unless that older instance's
 * last reference carried D3DDDI_ALLOCATIONLIST.DoNotRetireInstance. Checked before
 * DxgkDdiRender and again, then recorded, when the buffer is queued (the adapter lock is let go
 * in between). */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <stdlib.h>
#include <string.h>

/* Allocation lists up to this long resolve into arrays on the stack. */
#define RENDER_STACK 32u

/* The instance-ordering refusal (docs/semantics.md §3.3): checked before DxgkDdiRender and again
 * when the buffer is queued (the adapter lock is let go in between). */
static void refuse_instance_order(UINT entry, D3DKMT_HANDLE named, D3DKMT_HANDLE allocation)
{
    dxgk_refuse("D3DKMTRender: allocation list entry %u names instance 0x%08x of allocation 0x%08x after a newer "
                "instance was referenced (instance ordering; DoNotRetireInstance keeps an "
                "instance valid)",
                entry, named, allocation);
}

/* D3DKMTRender as phases over one operation (issue 16): the caller's lists checked, their
 * allocations resolved, the instances snapshotted into a first packet, DxgkDdiRender into as
 * many packets as it needs, then accepted - held behind a GPU wait or queued with tickets (or
 * submitted directly) - or dropped. */
struct render_op {
    D3DKMT_RENDER *args;
    struct dxgk_context *c;
    struct dxgk_device *d;
    struct dxgk_adapter *a;
    struct gsched_node *n;
    struct dxgk_allocation *stack_al[RENDER_STACK];
    struct dxgk_allocation **al;      /* one object reference each (nal of them) */
    HANDLE stack_ds[RENDER_STACK];
    HANDLE *dspec;                    /* each entry's DxgkDdiOpenAllocation handle */
    UINT nal, npk;
    struct dxgk_packet *first, *last;
    bool direct;                      /* submitted by this thread (gsched_direct_try_locked) */
};

/* Phase 1: the command range and both lists against the context's buffers. */
static NTSTATUS render_check(const struct render_op *op)
{
    const D3DKMT_RENDER *args = op->args;
    const struct dxgk_context *c = op->c;
    if (args->CommandOffset > c->cmd_size || args->CommandLength > c->cmd_size - args->CommandOffset) {
        dxgk_refuse("D3DKMTRender: CommandOffset %u + CommandLength %u beyond the %u-byte command buffer",
                    args->CommandOffset, args->CommandLength, c->cmd_size);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->AllocationCount > c->alloc_list_size || args->PatchLocationCount > c->patch_list_size) {
        dxgk_refuse("D3DKMTRender: AllocationCount %u / PatchLocationCount %u exceed the lists (%u / %u)",
                    args->AllocationCount, args->PatchLocationCount, c->alloc_list_size, c->patch_list_size);
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT i = 0; i < args->PatchLocationCount; i++) {
        if (c->patch_list[i].AllocationIndex >= args->AllocationCount) {
            dxgk_refuse("D3DKMTRender: patch location %u names allocation index %u of %u", i,
                        c->patch_list[i].AllocationIndex, args->AllocationCount);
            return STATUS_INVALID_PARAMETER;
        }
    }
    return STATUS_SUCCESS;
}

/* Phase 2: the allocation list's handles to objects. A same-adapter open's handle names its
 * creator's memory but carries its own DxgkDdiOpenAllocation handle (issue 6). One handle-table
 * lock for the whole list. */
static NTSTATUS render_resolve(struct render_op *op)
{
    UINT count = op->args->AllocationCount;
    if (count > RENDER_STACK) {
        struct dxgk_allocation **al = wddm_calloc(count, sizeof *al);
        HANDLE *ds = wddm_calloc(count, sizeof *ds);
        if (!al || !ds) {
            free(al);
            free(ds);
            return STATUS_NO_MEMORY;
        }
        op->al = al;
        op->dspec = ds;
    }
    const D3DDDI_ALLOCATIONLIST *list = op->c->alloc_list;
    dxgk_handle_lock();
    for (; op->nal < count; op->nal++) {
        HANDLE ds = NULL;
        struct dxgk_allocation *x = dxgk_allocation_get_locked(list[op->nal].hAllocation, op->d, &ds);
        if (!x)
            break;
        op->al[op->nal] = x;
        op->dspec[op->nal] = ds;
    }
    dxgk_handle_unlock();
    if (op->nal < count) {
        dxgk_refuse("D3DKMTRender: allocation list entry %u: invalid allocation handle 0x%08x", op->nal,
                    list[op->nal].hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

/* Phase 3, under the adapter lock: the first packet, with each allocation's current instance
 * now (the snapshot, docs/semantics.md §3.3), once the device and context may take work. */
static NTSTATUS render_snapshot_locked(struct render_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_context *c = op->c;
    struct dxgk_device *d = op->d;
    struct dxgk_adapter *a = op->a;
    if (c->dead || d->dead) {
        dxgk_refuse("D3DKMTRender: context 0x%08x or its device is being destroyed", op->args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    if (!NT_SUCCESS(d->error)) {
        dxgk_refuse("D3DKMTRender: device is in error 0x%08x after a failed residency", (unsigned)d->error);
        return d->error;
    }
    if (!gsched_context_queue_wait_locked(a, c)) {
        dxgk_refuse("D3DKMTRender: context 0x%08x or its device was destroyed while the call waited for the GPU",
                    op->args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    if (!NT_SUCCESS(d->error)) {
        dxgk_refuse("D3DKMTRender: device is in error 0x%08x", (unsigned)d->error);
        return d->error;
    }
    struct dxgk_packet *p = gsched_packet_get_locked(c);
    if (!p)
        return STATUS_NO_MEMORY;
    p->alloc_count = op->nal;
    for (UINT i = 0; i < op->nal; i++) {
        struct vidmm_instance *in = vidmm_instance_resolve_locked(op->a, op->al[i], c->alloc_list[i].hAllocation);
        if (in && in->swz_lock) {
            /* docs/semantics.md §3.2 rule 11: not while the CPU holds its unswizzled view. */
            dxgk_refuse("D3DKMTRender: allocation list entry %u names allocation 0x%08x, locked with "
                        "AcquireAperture: unlock it first", i, op->al[i]->handle);
            gsched_packet_put_locked(c, p);
            return STATUS_INVALID_PARAMETER;
        }
        if (!in || !vidmm_instance_reference_ok_locked(op->a, op->al[i], in)) {
            refuse_instance_order(i, c->alloc_list[i].hAllocation, op->al[i]->handle);
            gsched_packet_put_locked(c, p);
            return STATUS_INVALID_PARAMETER;
        }
        vidmm_touch_locked(a, in); /* LRU order of use (vidmm/evict.c) */
        p->inst[i] = in;
        p->alloc_list[i] = (DXGK_ALLOCATIONLIST){ .hDeviceSpecificAllocation = op->dspec[i] };
        p->alloc_list[i].WriteOperation = c->alloc_list[i].WriteOperation;
        vidmm_list_entry_locate(a, &p->alloc_list[i], in);
    }
    op->first = op->last = p;
    op->npk = 1;
    return STATUS_SUCCESS;
}

/* Phase 4: DxgkDdiRender, split on INSUFFICIENT_DMA_BUFFER; each part is a self-contained packet
 * with its own patch-location list (docs/semantics.md §9.1). */
static NTSTATUS render_build(struct render_op *op)
{
    struct dxgk_context *c = op->c;
    struct dxgk_adapter *a = op->a;
    const D3DKMT_RENDER *args = op->args;
    UINT multipass = 0;
    for (struct dxgk_packet *p = op->first;;) {
        DXGKARG_RENDER r = {
            .pCommand = c->cmd + args->CommandOffset, .CommandLength = args->CommandLength,
            .pDmaBuffer = p->dma, .DmaSize = p->dma_capacity,
            .pDmaBufferPrivateData = p->priv, .DmaBufferPrivateDataSize = p->priv_size,
            .pAllocationList = p->alloc_list, .AllocationListSize = op->nal,
            .pPatchLocationListIn = c->patch_list, .PatchLocationListInSize = args->PatchLocationCount,
            .pPatchLocationListOut = p->patch, .PatchLocationListOutSize = c->patch_list_size,
            .MultipassOffset = multipass, .DmaBufferSegmentId = 0,
            .DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)p->dma };
        NTSTATUS st = a->driver.ddi.DxgkDdiRender(c->kmd, &r);
        UINT8 *end = r.pDmaBuffer;
        D3DDDI_PATCHLOCATIONLIST *pend = r.pPatchLocationListOut;
        if (end < p->dma || end > p->dma + p->dma_capacity || pend < p->patch || pend > p->patch + c->patch_list_size) {
            dxgk_refuse("verifier: DxgkDdiRender moved pDmaBuffer or pPatchLocationListOut out of bounds");
            return STATUS_UNSUCCESSFUL;
        }
        p->dma_used = (UINT)(end - p->dma);
        p->patch_count = (UINT)(pend - p->patch);
        multipass = r.MultipassOffset;
        if (NT_SUCCESS(st))
            return st;
        if (st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            dxgk_refuse("D3DKMTRender: DxgkDdiRender failed 0x%08x", (unsigned)st);
            return st;
        }
        if (p->dma_used == 0) {
            dxgk_refuse("verifier: DxgkDdiRender asks for a bigger DMA buffer but wrote nothing in %u bytes",
                        p->dma_capacity);
            return STATUS_UNSUCCESSFUL;
        }
        pthread_mutex_lock(&a->lock);
        struct dxgk_packet *q = gsched_packet_get_locked(c);
        pthread_mutex_unlock(&a->lock);
        if (!q)
            return STATUS_NO_MEMORY;
        q->alloc_count = op->nal;
        memcpy(q->alloc_list, op->first->alloc_list, op->nal * sizeof *q->alloc_list);
        memcpy(q->inst, op->first->inst, op->nal * sizeof *q->inst);
        p->next = q;
        op->last = p = q;
        op->npk++;
    }
}

/* Phase 5a, under the adapter lock: nothing died during the call, and the instance-ordering
 * invariant still holds (another thread may have queued a buffer naming a newer instance
 * meanwhile); then the references are recorded: the buffer is accepted (docs/semantics.md §3.3). */
static NTSTATUS render_accept_locked(struct render_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_context *c = op->c;
    if (c->dead || op->d->dead) {
        dxgk_refuse("D3DKMTRender: context 0x%08x destroyed during the call", op->args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    for (UINT i = 0; i < op->nal; i++)
        if (op->al[i]->dead) {
            dxgk_refuse("D3DKMTRender: allocation 0x%08x destroyed during the call", op->al[i]->handle);
            st = STATUS_INVALID_PARAMETER;
        }
    for (UINT i = 0; NT_SUCCESS(st) && i < op->nal; i++) {
        if (!vidmm_instance_reference_ok_locked(op->a, op->al[i], op->first->inst[i])) {
            refuse_instance_order(i, c->alloc_list[i].hAllocation, op->al[i]->handle);
            st = STATUS_INVALID_PARAMETER;
        }
    }
    for (UINT i = 0; NT_SUCCESS(st) && i < op->nal; i++)
        vidmm_instance_referenced_locked(op->a, op->al[i], op->first->inst[i], c->alloc_list[i].DoNotRetireInstance);
    return st;
}

/* Phase 5b, under the adapter lock: behind a GPU wait the packets are held, without tickets
 * (gsched_release_held_locked gives them at release); each entry naming an allocation takes the
 * instance current then, one naming an instance handle keeps that instance. */
static NTSTATUS render_hold_locked(struct render_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_context *c = op->c;
    for (struct dxgk_packet *p = op->first; p; p = p->next)
        if (!p->held_alloc &&
            !(p->held_alloc = wddm_calloc(c->alloc_list_size ? c->alloc_list_size : 1, sizeof *p->held_alloc)))
            return STATUS_NO_MEMORY;
    for (struct dxgk_packet *p = op->first; p; p = p->next) {
        p->wait_seq = c->wait_seq;
        p->hold_seq = ++c->hold_seq;
        for (UINT i = 0; i < op->nal; i++) {
            struct dxgk_allocation *al = op->al[i];
            if (vidmm_handle_names_allocation_locked(op->a, al, c->alloc_list[i].hAllocation))
                p->inst[i] = NULL;
            dxgk_object_get(&al->obj);
            p->held_alloc[i] = al;
            al->held_refs++; /* a lock waits for it (vidmm/lock.c) */
        }
    }
    if (c->held_tail)
        c->held_tail->next = op->first;
    else
        c->held = op->first;
    c->held_tail = op->last;
    atomic_fetch_add(&c->queued, op->npk);
    return STATUS_SUCCESS;
}

/* Phase 5c, under the adapter lock: tickets in order, each instance's last use (and write:
 * an eviction must copy it out, vidmm/evict.c), then onto the node - directly by this thread
 * when it may (the node's submit lock taken before the adapter lock is let go, so no packet
 * queued after this one can reach the node first: lock order adapter -> submit_lock), else
 * through the context's queue. */
static void render_queue_locked(struct render_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_context *c = op->c;
    struct gsched_node *n = op->n;
    for (struct dxgk_packet *p = op->first; p; p = p->next)
        p->ticket = ++n->queued_ticket;
    UINT64 t = op->last->ticket;
    for (UINT i = 0; i < op->nal; i++)
        vidmm_stamp_list_entry_locked(op->a, op->first->inst[i], c->node, t, &op->first->alloc_list[i]);
    c->last_ticket = t;
    atomic_fetch_add(&c->queued, op->npk);
    op->direct = op->npk == 1 && gsched_direct_try_locked(op->a, n, op->first);
    if (!op->direct) {
        gsched_queue_append_locked(c, op->first, op->npk);
        gsched_node_kick(n, op->npk); /* node->lock nests inside the adapter lock */
    }
}

/* Phase 5: accepted (held or queued) or dropped; a direct submission runs after the lock. */
static NTSTATUS render_commit(struct render_op *op, NTSTATUS st)
{
    struct dxgk_context *c = op->c;
    struct dxgk_adapter *a = op->a;
    pthread_mutex_lock(&a->lock);
    if (NT_SUCCESS(st))
        st = render_accept_locked(op);
    bool hold = false;
    if (NT_SUCCESS(st)) {
        gsched_release_held_locked(a, c); /* waits satisfied since: pass them first */
        hold = c->waits || c->held || c->held_signals;
        if (hold)
            st = render_hold_locked(op);
        else
            render_queue_locked(op);
    }
    if (!NT_SUCCESS(st)) {
        while (op->first) {
            struct dxgk_packet *p = op->first;
            op->first = p->next;
            gsched_packet_put_locked(c, p);
        }
    }
    pthread_mutex_unlock(&a->lock);
    if (op->direct)
        gsched_direct_submit(op->n, op->first);
    return st;
}

NTSTATUS APIENTRY D3DKMTRender(D3DKMT_RENDER *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTRender: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(args->hContext, DXGK_TYPE_CONTEXT);
    if (!c) {
        dxgk_refuse("D3DKMTRender: invalid context handle 0x%08x", args->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = c->device->adapter;
    if (a->mmu) { /* issue 6: no allocation / patch lists in the GpuMmu model */
        dxgk_refuse("D3DKMTRender: the adapter runs the GpuMmu model: submit with D3DKMTSubmitCommand");
        dxgk_object_put(&c->obj);
        return STATUS_NOT_SUPPORTED;
    }
    struct render_op op = { .args = args, .c = c, .d = c->device, .a = a, .n = &a->node[c->node] };
    op.al = op.stack_al;
    op.dspec = op.stack_ds;
    NTSTATUS st = render_check(&op);
    if (NT_SUCCESS(st))
        st = render_resolve(&op);
    if (NT_SUCCESS(st)) {
        pthread_mutex_lock(&a->lock);
        st = render_snapshot_locked(&op);
        pthread_mutex_unlock(&a->lock);
    }
    if (NT_SUCCESS(st)) {
        st = render_build(&op);
        st = render_commit(&op, st);
    }
    if (NT_SUCCESS(st)) {
        args->pNewCommandBuffer = c->cmd;
        args->NewCommandBufferSize = c->cmd_size;
        args->pNewAllocationList = c->alloc_list;
        args->NewAllocationListSize = c->alloc_list_size;
        args->pNewPatchLocationList = c->patch_list;
        args->NewPatchLocationListSize = c->patch_list_size;
        args->NewCommandBuffer = 0;
        args->QueuedBufferCount = atomic_load(&c->queued);
    }
    for (UINT i = 0; i < op.nal; i++)
        dxgk_object_put(&op.al[i]->obj);
    if (op.al != op.stack_al)
        free(op.al);
    if (op.dspec != op.stack_ds)
        free(op.dspec);
    dxgk_object_put(&c->obj);
    return st;
}
