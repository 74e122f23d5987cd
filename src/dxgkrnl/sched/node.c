/* Nodes: one worker thread per GPU node (docs/architecture.md "Threads and waiting"). The worker takes
 * the next packet of its node's context queues (queue.c), has VidMm make the packet's
 * allocations resident and fill DXGK_ALLOCATIONLIST with segment addresses (through the
 * adapter's upcalls, struct dxgk_upcalls: paging buffers first, on the paging node), then
 * assigns the SubmissionFenceId and calls DxgkDdiPatch and DxgkDdiSubmitCommand. It also
 * recycles the packets the DPC retired and has deferred allocations that became idle freed. */
#include "dxgkrnl/sched/sched.h"
#include "common/timeline.h"

#include <string.h>

/* Retires a packet that never runs (refused by the KMD, or its residency failed) together with
 * the node's last submission, so tickets retire in queue order. Returns its fence. */
UINT64 gsched_retire_dropped(struct gsched_node *n, struct dxgk_packet *p)
{
    pthread_mutex_lock(&n->submit_lock);
    pthread_mutex_lock(&n->lock);
    p->fence = n->submitted_fence;
    p->next = NULL;
    p->started = true; /* never runs: no START event */
    struct gsched_gpu_signal *signals = NULL;
    if (!n->inflight) {
        gsched_ticket_retire_locked(n, p->ticket);
        if (p->hw_slot) {
            p->hw_slot = false;
            n->hw_count--;
        }
        p->next = n->retired;
        n->retired = p;
        if (n->signals)
            signals = gsched_gpu_signals_take_locked(n);
        pthread_cond_broadcast(&n->done_cond);
        pthread_cond_signal(&n->work_cond);
    } else {
        n->inflight_tail->next = p;
        n->inflight_tail = p;
    }
    UINT64 f = p->fence;
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&n->submit_lock);
    gsched_gpu_signals_apply(signals);
    return f;
}

/* The bytes of one submission: the whole DMA buffer, or one part of a split one (split.c). */
struct submit_range {
    UINT start, end;   /* DMA buffer offsets */
    UINT pstart, plen; /* patch-location list window */
};

static struct submit_range submit_range_of(const struct dxgk_packet *p)
{
    if (p->split)
        return (struct submit_range){ p->sub_start, p->sub_end, p->patch_start, p->patch_len };
    return (struct submit_range){ 0, p->dma_used, 0, p->patch_count };
}

/* DxgkDdiPatch for the packet's range (GpuMmu packets are not patched: issue 6, the engine
 * fetches through the MMU). */
static NTSTATUS patch_locked(struct gsched_node *n, struct dxgk_packet *p, struct submit_range r, UINT64 f)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    if (p->virt || p->ctx_switch) /* a null-context switch has no commands */
        return STATUS_SUCCESS;
    struct dxgk_adapter *a = n->adapter;
    DXGKARG_PATCH pa = {
        .hContext = p->ctx ? p->ctx->kmd : NULL, .DmaBufferSegmentId = 0,
        .DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)p->dma, .pDmaBuffer = p->dma,
        .DmaBufferSize = p->dma_capacity, .DmaBufferSubmissionStartOffset = r.start,
        .DmaBufferSubmissionEndOffset = r.end, .pDmaBufferPrivateData = p->priv,
        .DmaBufferPrivateDataSize = p->priv_size, .pAllocationList = p->alloc_list,
        .AllocationListSize = p->alloc_count, .pPatchLocationList = p->patch,
        .PatchLocationListSize = p->patch_count, .PatchLocationListSubmissionStart = r.pstart,
        .PatchLocationListSubmissionLength = r.plen, .SubmissionFenceId = (UINT)f };
    pa.Flags.Paging = p->paging;
    NTSTATUS st = a->driver.ddi.DxgkDdiPatch(a->miniport, &pa);
    if (!NT_SUCCESS(st))
        dxgk_refuse("verifier: DxgkDdiPatch failed 0x%08x: packet dropped", (unsigned)st);
    return st;
}

/* The packet enters the hardware queue: the node's submitted fence, and (except a part before
 * the last, which its worker waits for instead of retiring it) the in-flight list, whose head
 * runs at once. Recorded before the packet can complete, so its COMPLETE event always follows,
 * with the time it waited in its context's software queue (a split packet's first part only). */
static void inflight_enter(struct gsched_node *n, struct dxgk_packet *p, UINT64 f)
{
    D3DKMT_HANDLE hc = p->ctx ? p->ctx->handle : 0;
    if (p->queued_ts && hc) {
        wddm_tl(WDDM_TL_QUEUED, hc, f, p->queued_ts);
        p->queued_ts = 0;
    }
    gsched_trace(n->adapter, WDDM_SCHED_EVENT_SUBMIT, n->ordinal, hc, 0, f);
    pthread_mutex_lock(&n->lock);
    n->submitted_fence = f;
    if (!p->part) {
        if (n->inflight_tail)
            n->inflight_tail->next = p;
        else
            n->inflight = p;
        n->inflight_tail = p;
        p->started = n->inflight == p;
        if (p->started)
            gsched_trace(n->adapter, WDDM_SCHED_EVENT_START, n->ordinal, hc, 0, f);
    }
    pthread_mutex_unlock(&n->lock);
}

/* Takes back a packet the KMD refused to submit (its fence cannot have completed: nothing
 * after it was submitted). */
static void inflight_take_back(struct gsched_node *n, struct dxgk_packet *p, bool part, UINT64 f)
{
    pthread_mutex_lock(&n->lock);
    if (part) { /* nothing of it is on the in-flight list: the split gives up (split.c) */
        n->submitted_fence = f - 1;
        pthread_mutex_unlock(&n->lock);
        return;
    }
    struct dxgk_packet **pp = &n->inflight;
    struct dxgk_packet *prev = NULL;
    while (*pp && *pp != p) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp) {
        *pp = p->next;
        if (n->inflight_tail == p)
            n->inflight_tail = prev;
        n->submitted_fence = f - 1;
    }
    pthread_mutex_unlock(&n->lock);
}

/* DxgkDdiSubmitCommand, or DxgkDdiSubmitCommandVirtual for a GpuMmu packet. A packet taken
 * back by a preemption or an engine reset is flagged Resubmission: the KMD may resume it from
 * its context's save area (docs/semantics.md §8.1). */
static NTSTATUS submit_ddi(struct gsched_node *n, struct dxgk_packet *p, struct submit_range r, UINT64 f)
{
    struct dxgk_adapter *a = n->adapter;
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    HANDLE hctx = p->ctx ? p->ctx->kmd : NULL;
    DXGK_SUBMITCOMMANDFLAGS flags = { 0 };
    flags.Paging = p->paging && !p->ctx_switch;
    flags.ContextSwitch = p->ctx_switch; /* zero-length: to the null context (sched/switch.c) */
    flags.Resubmission = p->resubmit;
    if (p->virt) {
        DXGKARG_SUBMITCOMMANDVIRTUAL sv = {
            .hContext = hctx, .DmaBufferVirtualAddress = p->va, .DmaBufferSize = p->dma_used,
            .pDmaBufferPrivateData = p->priv, .DmaBufferPrivateDataSize = p->priv_size,
            .SubmissionFenceId = (UINT)f, .VidPnSourceId = D3DDDI_ID_NOTAPPLICABLE, .NodeOrdinal = n->ordinal };
        sv.Flags = flags;
        return ddi->DxgkDdiSubmitCommandVirtual(a->miniport, &sv);
    }
    DXGKARG_SUBMITCOMMAND sc = {
        .hContext = hctx, .DmaBufferSegmentId = 0,
        .DmaBufferPhysicalAddress.QuadPart = (LONGLONG)(uintptr_t)p->dma, .DmaBufferSize = p->dma_capacity,
        .DmaBufferSubmissionStartOffset = r.start, .DmaBufferSubmissionEndOffset = r.end,
        .pDmaBufferPrivateData = p->priv, .DmaBufferPrivateDataSize = p->priv_size,
        .SubmissionFenceId = (UINT)f, .VidPnSourceId = D3DDDI_ID_NOTAPPLICABLE, .NodeOrdinal = n->ordinal };
    sc.Flags = flags;
    return ddi->DxgkDdiSubmitCommand(a->miniport, &sc);
}

/* Fence assignment + Patch + SubmitCommand, serialized per node by submit_lock, which the
 * caller took (so that it could take it before letting go of the adapter lock: queue.c) and
 * which is released here. Returns the 64-bit fence. A packet the KMD refuses is retired
 * without running (fence of the previous submission); a refused part of a split packet
 * returns 0. */
UINT64 gsched_submit_locked(struct gsched_node *n, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    struct dxgk_adapter *a = n->adapter;
    /* Nothing enters the hardware queue while a preemption or a reset owns it (preempt.c). */
    gsched_gate_wait_locked(n);
    /* A device lost meanwhile (a timeout recovery loses devices before it closes the gate:
     * sched/tdr.c) runs nothing more: the packet a worker readied and then waited with (for its
     * paging, or the gate) is dropped, not run on memory the reset may have given to another
     * allocation (vidmm/purge.c). */
    if (p->ctx && !NT_SUCCESS(__atomic_load_n(&p->ctx->device->error, __ATOMIC_RELAXED))) {
        bool part_only = p->part;
        pthread_mutex_unlock(&n->submit_lock);
        return part_only ? 0 : gsched_retire_dropped(n, p);
    }
    UINT64 f = n->submitted_fence + 1;
    if ((UINT)f == 0) /* SubmissionFenceIds start at 1; 0 is never used on the DDI */
        f++;
    p->fence = f;
    p->next = NULL;
    struct submit_range r = submit_range_of(p);
    bool part = p->part;
    if (NT_SUCCESS(patch_locked(n, p, r, f))) {
        gsched_switch_locked(n, p);
        inflight_enter(n, p, f);
        bool paging = p->paging; /* once submitted, the packet may retire and be recycled */
        /* Counted before the call: a packet seen completed (a fence, a GPU signal) is counted. */
        if (!paging)
            DXGK_COUNT(a, dma_buffers_submitted, 1);
        NTSTATUS st = submit_ddi(n, p, r, f);
        if (NT_SUCCESS(st)) {
            pthread_mutex_unlock(&n->submit_lock);
            return f;
        }
        if (!paging)
            atomic_fetch_sub_explicit(&a->counters.dma_buffers_submitted, 1, memory_order_relaxed);
        /* docs/semantics.md §8.1: SubmitCommand must not fail. */
        dxgk_refuse("verifier: DxgkDdiSubmitCommand failed 0x%08x (it must not fail): packet dropped",
                    (unsigned)st);
        inflight_take_back(n, p, part, f);
    }
    pthread_mutex_unlock(&n->submit_lock);
    if (part)
        return 0;
    return gsched_retire_dropped(n, p);
}

UINT64 gsched_submit(struct gsched_node *n, struct dxgk_packet *p)
{
    pthread_mutex_lock(&n->submit_lock);
    return gsched_submit_locked(n, p);
}

static void recycle_list_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *list)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!list)
        return;
    while (list) {
        struct dxgk_packet *p = list;
        list = p->next;
        gsched_packet_recycle_locked(a, p);
    }
    pthread_mutex_lock(&n->lock);
    pthread_cond_broadcast(&n->done_cond); /* context destruction waits for its packets back */
    pthread_mutex_unlock(&n->lock);
}

void gsched_recycle_retired_locked(struct dxgk_adapter *a, struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&a->lock);
    pthread_mutex_lock(&n->lock);
    struct dxgk_packet *list = n->retired;
    n->retired = NULL;
    n->retired_count = 0;
    pthread_mutex_unlock(&n->lock);
    recycle_list_locked(a, n, list);
}

static void recycle(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *list)
{
    if (!list)
        return;
    pthread_mutex_lock(&a->lock);
    recycle_list_locked(a, n, list);
    UINT64 deferred = a->deferred_count;
    pthread_mutex_unlock(&a->lock);
    if (deferred)
        a->up->deferred_process(a, NULL, false);
}

/* What wakes the worker (node->lock held): retired packets to recycle, held packets to
 * release, a preemption answered, or queued packets it may place: room in the hardware queue,
 * or a full one it has not yet checked for preemption (issue 4). */
static bool worker_has_work_locked(const struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->lock);
    if (n->stop || n->retired || n->release_waits)
        return true;
    if (n->gate == GSCHED_GATE_PREEMPT && n->preempt_answered)
        return true;
    if (!n->pending || n->gate)
        return false;
    return n->hw_count < n->hw_queue_cap || !n->preempt_checked;
}

/* A full hardware queue with packets waiting: tiny DMA buffers retire faster than a blocked
 * worker wakes (~20 µs on this VM), so the worker polls briefly for a free place before it
 * blocks, and the engine is not left idle between refills (issue 4, `wddm bench` S1). */
#define WORKER_REFILL_SPIN_NS 50000u

static void wait_for_work_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->lock);
    UINT64 t0 = 0;
    while (!worker_has_work_locked(n)) {
        if (n->pending && !n->gate && n->hw_count >= n->hw_queue_cap) {
            UINT64 t = dxgk_now_ns();
            if (!t0)
                t0 = t;
            if (t - t0 < WORKER_REFILL_SPIN_NS) {
                pthread_mutex_unlock(&n->lock);
                for (int i = 0; i < 64; i++)
                    gsched_cpu_relax();
                pthread_mutex_lock(&n->lock);
                continue;
            }
        }
        pthread_cond_wait(&n->work_cond, &n->lock);
    }
}

static void *node_worker(void *arg)
{
    struct gsched_node *n = arg;
    struct dxgk_adapter *a = n->adapter;
    for (;;) {
        pthread_mutex_lock(&n->lock);
        wait_for_work_locked(n);
        bool release = n->release_waits;
        n->release_waits = false;
        struct dxgk_packet *retired = n->retired;
        n->retired = NULL;
        n->retired_count = 0;
        bool stop = n->stop && !n->pending;
        bool answered = n->gate == GSCHED_GATE_PREEMPT && n->preempt_answered;
        bool gate = n->gate != 0;
        bool room = n->hw_count < n->hw_queue_cap;
        pthread_mutex_unlock(&n->lock);
        recycle(a, n, retired);
        if (stop)
            break;
        if (answered) {
            gsched_preempt_finish(n);
            continue;
        }

        pthread_mutex_lock(&a->lock);
        if (release) /* a GPU wait was satisfied: its context's held packets join the queue */
            for (struct dxgk_context *c = n->contexts; c; c = c->node_next)
                if (c->waits || c->held || c->held_signals)
                    gsched_release_held_locked(a, c);
        struct dxgk_packet *p = gate ? NULL : gsched_queue_peek_locked(n);
        if (!p) {
            /* Packets join the queues under the adapter lock, held here: what was queued
             * when the queues looked empty is known by kick_gen. */
            pthread_mutex_lock(&n->lock);
            UINT64 gen = n->kick_gen;
            pthread_mutex_unlock(&n->lock);
            pthread_mutex_unlock(&a->lock);
            /* Queued packets, none placeable yet (being taken back, or beyond the ticket
             * window of preempt.c): sleep until a retirement or a new packet wakes us. */
            pthread_mutex_lock(&n->lock);
            if (!gate && n->pending && n->kick_gen == gen && !n->stop && !n->retired && !n->release_waits)
                pthread_cond_wait(&n->work_cond, &n->lock);
            pthread_mutex_unlock(&n->lock);
            continue;
        }
        /* Higher-priority work than what the hardware queue holds: preempt it first
         * (preempt.c); the answer wakes this worker, which takes the packets back. */
        if (gsched_preemption_supported(a, n)) {
            bool any = false;
            INT lowest = gsched_hw_lowest_priority(n, &any);
            if (any && lowest < p->ctx->priority) {
                D3DKMT_HANDLE h = p->ctx->handle;
                pthread_mutex_unlock(&a->lock);
                gsched_preempt_request(n, h);
                continue;
            }
        }
        if (!room) {
            pthread_mutex_lock(&n->lock);
            n->preempt_checked = true; /* until new packets or a priority change */
            pthread_mutex_unlock(&n->lock);
            pthread_mutex_unlock(&a->lock);
            continue;
        }
        gsched_queue_take_locked(n, p);
        p->priority = p->ctx->priority;
        pthread_mutex_lock(&n->lock);
        n->hw_count++; /* its place in the hardware queue, held until it retires */
        p->hw_slot = true;
        pthread_mutex_unlock(&n->lock);
        UINT64 paging_fence = 0;
        bool split = false;
        dxgk_device_fault_sync_locked(p->ctx->device); /* a page fault loses the device (issue 6) */
        NTSTATUS st = p->ctx->device->error;
        struct vidmm_root_ref root = { 0 };
        if (NT_SUCCESS(st))
            st = a->up->prepare_packet_locked(a, p, &paging_fence, &root);
        if (st == STATUS_NO_MEMORY && !p->virt) { /* a virtual packet has no list to split */
            /* Its allocations do not fit together even after the work in flight retired: VidMm
             * splits the DMA buffer (docs/semantics.md §9.1, vidmm/split.c). */
            st = a->up->split_submit_locked(a, n, p);
            split = NT_SUCCESS(st);
            paging_fence = 0;
        }
        if (!NT_SUCCESS(st)) {
            /* Even one command's allocations do not fit (or a backing store could not be
             * committed): the device is lost (D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY). */
            dxgk_refuse("scheduler: packet of context 0x%08x dropped (0x%08x): its device is put in error",
                        p->ctx->handle, (unsigned)st);
            (void)dxgk_device_set_error_locked(p->ctx->device, st, D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY);
            p->dropped = true;
        }
        /* Not read from the packet later: a split one may already have retired. */
        bool dropped = !split && p->dropped;
        pthread_mutex_unlock(&a->lock);
        /* A DMA buffer that depends on paging runs only after the paging fence retired; on the
         * paging node itself the ring keeps the order. */
        if (paging_fence && a->paging_node != n->ordinal)
            gsched_wait_fence(&a->node[a->paging_node], paging_fence);
        if (!dropped && root.gen)
            a->up->switch_root(a, p->ctx, &root); /* a root that grew since its last packet */
        if (dropped)
            gsched_retire_dropped(n, p);
        else if (!split) /* a split one went in parts already */
            gsched_submit(n, p);
        pthread_mutex_lock(&n->lock);
        n->pending--;
        pthread_cond_broadcast(&n->done_cond);
        pthread_mutex_unlock(&n->lock);
    }
    return NULL;
}

bool gsched_node_start(struct gsched_node *n, struct dxgk_adapter *a, UINT ordinal)
{
    memset(n, 0, sizeof *n);
    n->adapter = a;
    n->ordinal = ordinal;
    /* DXGK_VIDSCHCAPS.HwQueuePacketCap: how many DMA packets the node's hardware queue takes.
     * The WDK gives no default for 0; ours is 2 (docs/rules/sched.md). */
    n->hw_queue_cap = a->caps.SchedulingCaps.HwQueuePacketCap ? a->caps.SchedulingCaps.HwQueuePacketCap : 2;
    pthread_mutex_init(&n->lock, NULL);
    pthread_mutex_init(&n->submit_lock, NULL);
    pthread_cond_init(&n->done_cond, NULL);
    pthread_cond_init(&n->work_cond, NULL);
    atomic_init(&n->completed_fence, 0);
    atomic_init(&n->retired_ticket, 0);
    atomic_init(&n->isr_fence, 0);
    atomic_init(&n->splitting, false);
    n->thread_started = true;
    if (pthread_create(&n->thread, NULL, node_worker, n) != 0) {
        n->thread_started = false;
        pthread_mutex_destroy(&n->lock);
        pthread_mutex_destroy(&n->submit_lock);
        pthread_cond_destroy(&n->done_cond);
        pthread_cond_destroy(&n->work_cond);
        return false;
    }
    return true;
}

void gsched_node_stop(struct gsched_node *n)
{
    if (!n->thread_started)
        return;
    pthread_mutex_lock(&n->lock);
    n->stop = true;
    pthread_cond_signal(&n->work_cond);
    pthread_mutex_unlock(&n->lock);
    pthread_join(n->thread, NULL);
    n->thread_started = false;
    /* Everything retired (the adapter drains before stopping): signals left behind can go. */
    struct gsched_gpu_signal *signals = n->signals;
    n->signals = NULL;
    gsched_gpu_signals_apply(signals);
    while (n->retired) { /* nothing should be left; be safe */
        struct dxgk_packet *p = n->retired;
        n->retired = p->next;
        if (p->paging)
            gsched_packet_free(n->adapter, p);
    }
    pthread_mutex_destroy(&n->lock);
    pthread_mutex_destroy(&n->submit_lock);
    pthread_cond_destroy(&n->done_cond);
    pthread_cond_destroy(&n->work_cond);
}

void gsched_node_kick(struct gsched_node *n, UINT new_packets)
{
    pthread_mutex_lock(&n->lock);
    n->pending += new_packets;
    n->kick_gen++;
    n->preempt_checked = false;
    pthread_cond_signal(&n->work_cond);
    pthread_mutex_unlock(&n->lock);
}
