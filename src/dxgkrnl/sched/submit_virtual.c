/* D3DKMTSubmitCommand (WDDM 2.0 GpuMmu model; issue 6, common brief): the UMD wrote its
 * commands in its own GPU-virtual memory; the kernel queues a packet that carries only that
 * address and length - no DMA buffer copy, no allocation or patch list, no DxgkDdiRender -
 * on the context's queue like a D3DKMTRender packet (priorities, hardware queue cap,
 * preemption, TDR, GPU waits all apply), and the node worker hands it to
 * DxgkDdiSubmitCommandVirtual once every page-table write submitted before it ran
 * (sched/node.c) - or, when those have run and the node has nothing queued, this thread does
 * (direct submission, sched/queue.c). Nothing is made resident by a submission
 * (docs/semantics.md §9.2: the device's MakeResident list is the only residency control); what
 * the commands touch that is not resident faults on the GPU and loses only this device
 * (sched/interrupt.c). */
#include "dxgkrnl/sched/sched.h"

#include <string.h>

NTSTATUS APIENTRY D3DKMTSubmitCommand(const D3DKMT_SUBMITCOMMAND *args)
{
    static const char who[] = "D3DKMTSubmitCommand";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", who);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->BroadcastContextCount != 1) {
        /* FIXME(gpummu): broadcast to several contexts. */
        dxgk_refuse("%s: BroadcastContextCount %u: only 1 is supported", who, args->BroadcastContextCount);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(args->BroadcastContext[0], DXGK_TYPE_CONTEXT);
    if (!c) {
        dxgk_refuse("%s: invalid context handle 0x%08x", who, args->BroadcastContext[0]);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = c->device;
    struct dxgk_adapter *a = d->adapter;
    struct gsched_node *n = &a->node[c->node];
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!a->mmu) {
        dxgk_refuse("%s: the adapter runs the WDDM 1.x model: submit with D3DKMTRender", who);
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    if (!args->Commands || !args->CommandLength || args->Commands % 4 || args->CommandLength % 4) {
        dxgk_refuse("%s: Commands 0x%llx / CommandLength %u: a non-empty, 4-byte aligned range is required", who,
                    (unsigned long long)args->Commands, args->CommandLength);
        goto out;
    }
    if (args->PrivateDriverDataSize && !args->pPrivateDriverData) {
        dxgk_refuse("%s: PrivateDriverDataSize %u with NULL pPrivateDriverData", who, args->PrivateDriverDataSize);
        goto out;
    }
    pthread_mutex_lock(&a->lock);
    if (c->dead || d->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x or its device is being destroyed", who, c->handle);
        goto out;
    }
    dxgk_device_fault_sync_locked(d);
    if (!NT_SUCCESS(d->error)) {
        st = d->error;
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: device 0x%08x is in error 0x%08x", who, d->handle, (unsigned)st);
        goto out;
    }
    /* The context's queue depth (sched/queue.c): wait for the GPU when it is full. */
    if (!gsched_context_queue_wait_locked(a, c)) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: context 0x%08x or its device was destroyed while the call waited for the GPU", who,
                    c->handle);
        goto out;
    }
    if (!NT_SUCCESS(d->error)) {
        st = d->error;
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: device 0x%08x is in error 0x%08x", who, d->handle, (unsigned)st);
        goto out;
    }
    struct dxgk_packet *p = gsched_packet_get_locked(c);
    if (!p) {
        pthread_mutex_unlock(&a->lock);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    p->virt = true;
    p->va = args->Commands;
    p->dma_used = args->CommandLength;
    p->alloc_count = 0;
    p->patch_count = 0;
    if (p->priv_size) { /* the KMD's per-buffer private data comes from the UMD here */
        memset(p->priv, 0, p->priv_size);
        if (args->PrivateDriverDataSize)
            memcpy(p->priv, args->pPrivateDriverData,
                   args->PrivateDriverDataSize < p->priv_size ? args->PrivateDriverDataSize : p->priv_size);
    }
    gsched_release_held_locked(a, c); /* waits satisfied since: pass them first */
    bool direct = false;
    if (c->waits || c->held || c->held_signals) {
        /* Behind a GPU wait (sched/syncobj.c): held, no ticket; no allocations to take. */
        p->wait_seq = c->wait_seq;
        p->hold_seq = ++c->hold_seq;
        p->next = NULL;
        if (c->held_tail)
            c->held_tail->next = p;
        else
            c->held = p;
        c->held_tail = p;
    } else {
        p->ticket = ++n->queued_ticket;
        c->last_ticket = p->ticket;
        direct = gsched_direct_try_locked(a, n, p);
        if (!direct) {
            gsched_queue_append_locked(c, p, 1);
            gsched_node_kick(n, 1);
        }
    }
    atomic_fetch_add(&c->queued, 1);
    pthread_mutex_unlock(&a->lock);
    if (direct)
        gsched_direct_submit(n, p);
    st = STATUS_SUCCESS;
out:
    dxgk_object_put(&c->obj);
    return st;
}
