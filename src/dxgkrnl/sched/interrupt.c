/* Interrupts and DPCs (docs/semantics.md §8.2). The GPU raises its line with
 * WddmInterruptLineRaise: the kernel takes the adapter's interrupt lock (one fixed interrupt
 * level, never re-entrant), runs DxgkDdiInterruptRoutine, releases it, then runs
 * DxgkDdiDpcRoutine if the ISR queued a DPC. DxgkCbNotifyInterrupt(DMA_COMPLETED) records the
 * node's completed fence; DxgkCbNotifyDpc retires everything up to it: the node's packets
 * move to its retired list, tickets and fences advance, waiters and the node worker wake.
 * The DPC takes only node locks: recycling DMA buffers and freeing deferred allocations is
 * the node worker's job, so the GPU thread never waits for the adapter lock. */
#include "dxgkrnl/sched/sched.h"

/* Retired packets the DPC lets pile up before it wakes the node worker to recycle them. */
#define GSCHED_RECYCLE_BATCH 32u

VOID APIENTRY dxgk_cb_notify_interrupt(HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *data)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a || !data)
        return;
    switch (data->InterruptType) {
    case DXGK_INTERRUPT_DMA_COMPLETED:
        if (data->DmaCompleted.NodeOrdinal >= a->node_count) {
            dxgk_refuse("DxgkCbNotifyInterrupt: DMA_COMPLETED for node %u of %u", data->DmaCompleted.NodeOrdinal,
                        a->node_count);
            return;
        }
        atomic_store_explicit(&a->node[data->DmaCompleted.NodeOrdinal].isr_fence, data->DmaCompleted.SubmissionFenceId,
                              memory_order_release);
        break;
    case DXGK_INTERRUPT_DMA_PREEMPTED: {
        UINT node = data->DmaPreempted.NodeOrdinal;
        if (node >= a->node_count) {
            dxgk_refuse("DxgkCbNotifyInterrupt: DMA_PREEMPTED for node %u of %u", node, a->node_count);
            return;
        }
        /* The completion it reports first (§8.2 invariant 4: LastCompletedFenceId), then the
         * answer; the worker takes the preempted packets back (sched/preempt.c). */
        struct gsched_node *n = &a->node[node];
        pthread_mutex_lock(&n->lock);
        gsched_preempt_answer_locked(n, data->DmaPreempted.PreemptionFenceId, data->DmaPreempted.LastCompletedFenceId);
        pthread_mutex_unlock(&n->lock);
        break;
    }
    case DXGK_INTERRUPT_DMA_PAGE_FAULTED: {
        /* Issue 6, docs/semantics.md §8.4: the packet with FaultedFenceId faulted; its device is
         * put in error (only it: every other device keeps working). At interrupt level only the
         * node lock is taken: the fault is recorded on the device here and turned into the
         * device error under the adapter lock by dxgk_device_fault_sync_locked (the next
         * submission, the worker, D3DKMTGetDeviceState). The DMA_COMPLETED that follows
         * retires the packet as usual. */
        UINT node = data->DmaPageFaulted.NodeOrdinal;
        if (node >= a->node_count) {
            dxgk_refuse("DxgkCbNotifyInterrupt: DMA_PAGE_FAULTED for node %u of %u", node, a->node_count);
            return;
        }
        if (data->DmaPageFaulted.PageFaultFlags & DXGK_PAGE_FAULT_FENCE_INVALID) {
            /* FIXME(faults): an unknown culprit needs an engine/adapter reset (TDR path). */
            dxgk_refuse("DxgkCbNotifyInterrupt: DMA_PAGE_FAULTED with FENCE_INVALID is not handled");
            return;
        }
        struct gsched_node *n = &a->node[node];
        pthread_mutex_lock(&n->lock);
        UINT64 f64 = gsched_fence_extend(atomic_load_explicit(&n->completed_fence, memory_order_relaxed),
                                         data->DmaPageFaulted.FaultedFenceId);
        struct dxgk_packet *p = n->inflight;
        while (p && p->fence != f64)
            p = p->next;
        if (p && p->ctx) {
            struct dxgk_device *d = p->ctx->device;
            if (!atomic_exchange(&d->fault_claimed, true)) { /* the first fault sticks */
                d->fault.FaultedPrimitiveAPISequenceNumber = data->DmaPageFaulted.FaultedPrimitiveAPISequenceNumber;
                d->fault.FaultedPipelineStage = data->DmaPageFaulted.FaultedPipelineStage;
                d->fault.FaultedBindTableEntry = data->DmaPageFaulted.FaultedBindTableEntry;
                d->fault.PageFaultFlags = data->DmaPageFaulted.PageFaultFlags;
                d->fault.FaultErrorCode = data->DmaPageFaulted.FaultErrorCode;
                d->fault.FaultedVirtualAddress = data->DmaPageFaulted.FaultedVirtualAddress;
                atomic_store_explicit(&d->faulted, true, memory_order_release);
            }
        } else {
            dxgk_refuse("DxgkCbNotifyInterrupt: DMA_PAGE_FAULTED fence %u is not a render packet in flight on node %u",
                        data->DmaPageFaulted.FaultedFenceId, node);
        }
        pthread_mutex_unlock(&n->lock);
        break;
    }
    default:
        /* FIXME(faults): the other interrupt types. */
        dxgk_refuse("DxgkCbNotifyInterrupt: interrupt type %d not handled", (int)data->InterruptType);
        break;
    }
}

BOOLEAN APIENTRY dxgk_cb_queue_dpc(HANDLE hAdapter)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a)
        return FALSE;
    atomic_store(&a->dpc_queued, true);
    return TRUE;
}

/* Whether destroyed allocations wait for the GPU to free them (objects/allocation.c): the
 * worker frees them once their packets retired. Read lock-free: the DPC never takes the
 * adapter lock. */
static bool deferred_waiting(struct dxgk_adapter *a)
{
    /* Pairs with the fence in dxgk_allocation_destroy_list_locked: the retirement above is
     * visible to a destroyer, or its entry is visible here. */
    atomic_thread_fence(memory_order_seq_cst);
    return atomic_load_explicit(&a->deferred_count, memory_order_relaxed) != 0;
}

/* Retires the node's packets up to `f32` (32-bit, extended) or, with f32 unused, `to64`. */
static void node_retire(struct dxgk_adapter *a, struct gsched_node *n, bool use64, UINT64 to64)
{
    UINT f32 = atomic_load_explicit(&n->isr_fence, memory_order_acquire);
    pthread_mutex_lock(&n->lock);
    UINT64 last = atomic_load_explicit(&n->completed_fence, memory_order_relaxed);
    UINT64 f64 = use64 ? (to64 > last ? to64 : last) : gsched_fence_extend(last, f32);
    if (f64 > n->submitted_fence) {
        /* A fence never submitted: the bogus part is ignored. One ahead of the last submitted
         * is the KMD's (the submitted fence is recorded before DxgkDdiSubmitCommand); one behind
         * the last completed may be stale after a preemption or reset, and is not reported. */
        UINT ahead = f32 - (UINT)n->submitted_fence;
        if (!use64 && ahead && ahead < 0x80000000u)
            dxgk_verifier_report(a, "DxgkCbNotifyInterrupt", "Interrupt.FenceNotSubmitted", false,
                                 "DMA_COMPLETED on node %u names fence %u, %u past the last one submitted (%u): "
                                 "SubmissionFenceId must be a submitted DMA buffer's", n->ordinal, f32, ahead,
                                 (UINT)n->submitted_fence);
        f64 = last;
    }
    UINT retired = 0;
    if (f64 > last) {
        /* Traced before any waiter can see the completion (fence or ticket), so a test that
         * waited for a packet finds its COMPLETE event. */
        UINT64 prev = last; /* a dropped packet shares the fence before it: one event per fence */
        for (const struct dxgk_packet *p = n->inflight; p && p->fence <= f64; p = p->next)
            if (p->fence != prev)
                gsched_trace(n->adapter, WDDM_SCHED_EVENT_COMPLETE, n->ordinal, 0, 0, prev = p->fence);
        atomic_store_explicit(&n->completed_fence, f64, memory_order_release);
    }
    while (n->inflight && n->inflight->fence <= f64) {
        struct dxgk_packet *p = n->inflight;
        n->inflight = p->next;
        if (!n->inflight)
            n->inflight_tail = NULL;
        gsched_ticket_retire_locked(n, p->ticket);
        if (p->hw_slot) { /* its place in the hardware queue (issue 4) */
            p->hw_slot = false;
            n->hw_count--;
        }
        p->next = n->retired;
        n->retired = p;
        retired++;
    }
    n->retired_count += retired;
    /* The next packet is now the head of the hardware queue: the GPU runs it (issue 4 trace). */
    struct dxgk_packet *head = n->inflight;
    if (retired && head && !head->started) {
        head->started = true;
        gsched_trace(n->adapter, WDDM_SCHED_EVENT_START, n->ordinal, head->ctx ? head->ctx->handle : 0, 0, head->fence);
    }
    /* GPU signals whose context's work retired now (sched/syncobj.c, §8.5 rule 3). */
    struct gsched_gpu_signal *signals = retired && n->signals ? gsched_gpu_signals_take_locked(n) : NULL;
    if (retired || f64 > last) {
        pthread_cond_broadcast(&n->done_cond);
        /* Wake the worker only when it has something to do: packets waiting to be submitted,
         * a thread waiting for the node to drain, or a batch of retired packets worth
         * recycling. Otherwise the next D3DKMTRender recycles them: a wake-up per packet costs
         * the GPU thread a futex call and takes a core from the application (issue 2 W1). */
        if (n->pending || n->idle_waiters || n->retired_count >= GSCHED_RECYCLE_BATCH || deferred_waiting(a))
            pthread_cond_signal(&n->work_cond);
    }
    pthread_mutex_unlock(&n->lock);
    gsched_gpu_signals_apply(signals); /* the sync lock is a leaf: node->lock let go first */
    if (retired)
        DXGK_COUNT(a, fences_retired, retired);
}

VOID APIENTRY dxgk_cb_notify_dpc(HANDLE hAdapter)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a)
        return;
    for (UINT i = 0; i < a->node_count; i++)
        node_retire(a, &a->node[i], false, 0);
}

void gsched_node_retire_to(struct gsched_node *n, UINT64 fence)
{
    node_retire(n->adapter, n, true, fence);
}

NTSTATUS APIENTRY dxgk_cb_synchronize_execution(HANDLE hAdapter, PKSYNCHRONIZE_ROUTINE routine, PVOID ctx,
                                                ULONG msg, BOOLEAN *ret)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a || !routine) {
        dxgk_refuse("DxgkCbSynchronizeExecution: NULL adapter or routine");
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&a->interrupt_lock);
    dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_DEVICE_IRQL);
    BOOLEAN r = routine(ctx);
    dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_PASSIVE_LEVEL);
    pthread_mutex_unlock(&a->interrupt_lock);
    if (ret)
        *ret = r;
    return STATUS_SUCCESS;
}

VOID WddmInterruptLineRaise(PDEVICE_OBJECT pdo, ULONG msg)
{
    struct dxgk_adapter *a = pdo ? pdo->adapter : NULL;
    if (!a)
        return;
    pthread_mutex_lock(&a->interrupt_lock);
    dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_DEVICE_IRQL);
    a->driver.ddi.DxgkDdiInterruptRoutine(a->miniport, msg);
    dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_PASSIVE_LEVEL);
    pthread_mutex_unlock(&a->interrupt_lock);
    if (atomic_exchange(&a->dpc_queued, false)) {
        pthread_mutex_lock(&a->dpc_lock);
        dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_DISPATCH_LEVEL);
        a->driver.ddi.DxgkDdiDpcRoutine(a->miniport);
        dxgk_driver_set_irql(&a->driver, WDDM_PLATFORM_PASSIVE_LEVEL);
        pthread_mutex_unlock(&a->dpc_lock);
    }
}
