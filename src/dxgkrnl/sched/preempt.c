/* Preemption and the hardware queue (issue 4; docs/semantics.md §8.2 invariant 4, §8.3).
 *
 * Priorities: a node serves its contexts' queues highest D3DKMTSetContextSchedulingPriority
 * first, FIFO (ticket order) within a priority (queue.c). When the worker is about to place a
 * packet in the hardware queue while a packet of a lower-priority context is there, and the
 * KMD is PreemptionAware, it preempts: DxgkDdiPreemptCommand with a PreemptionFenceId above
 * every submitted fence; the KMD answers DMA_PREEMPTED {PreemptionFenceId,
 * LastCompletedFenceId}; every packet after LastCompletedFenceId goes back to the head of its
 * context's queue (it keeps its ticket) and is resubmitted later with a new fence and
 * DXGK_SUBMITCOMMANDFLAGS.Resubmission, after the higher-priority work. How far the GPU got
 * inside a DMA buffer is the KMD's business: the reference KMD's GPU saves it in the
 * context's save area (seed 000) and resumes there.
 *
 * The gate: between the preemption request and the requeue, and during an engine reset
 * (sched/tdr.c), nothing may enter the node's hardware queue. The gate is closed under
 * submit_lock + node->lock; gsched_submit_locked waits (without submit_lock) while it is closed.
 * Direct submissions (queue.c) are claimed only with the gate open and not closing, and a
 * closer waits for claims in progress, so a direct submitter never meets a closed gate.
 * The paging node is never preempted: VidMm submits paging buffers there holding the adapter
 * lock, and paging buffers would have to keep their fence IDs (docs/semantics.md §8.2 inv. 4).
 *
 * Tickets: once priorities reorder the queue, packets retire out of ticket order. VidMm's
 * "retired" test (gsched_ticket_retired) must stay conservative: retired_ticket is the
 * watermark below which every ticket retired, and a bitmap of GSCHED_TICKET_WINDOW bits keeps
 * the ones retired above it. The worker never picks a packet beyond the window, so the bitmap
 * cannot overflow and the lowest ticket is always eligible. */
#include "dxgkrnl/sched/sched.h"

/* ---- tickets ------------------------------------------------------------------------------- */

void gsched_ticket_retire_locked(struct gsched_node *n, UINT64 t)
{
    WDDM_ASSERT_HELD(&n->lock);
    UINT64 wm = atomic_load_explicit(&n->retired_ticket, memory_order_relaxed);
    if (!t || t <= wm)
        return;
    if (t > wm + GSCHED_TICKET_WINDOW) {
        /* Cannot happen: gsched_queue_peek_locked honours the window. */
        dxgk_refuse("scheduler: ticket %llu retired beyond the window of %u above %llu", (unsigned long long)t,
                    GSCHED_TICKET_WINDOW, (unsigned long long)wm);
        return;
    }
    if (t != wm + 1) {
        UINT i = (UINT)(t % GSCHED_TICKET_WINDOW);
        atomic_fetch_or_explicit(&n->ticket_bits[i / 64], 1ull << (i % 64), memory_order_release);
        return;
    }
    wm = t;
    for (;;) {
        UINT i = (UINT)((wm + 1) % GSCHED_TICKET_WINDOW);
        UINT64 bit = 1ull << (i % 64);
        if (!(atomic_load_explicit(&n->ticket_bits[i / 64], memory_order_relaxed) & bit))
            break;
        atomic_fetch_and_explicit(&n->ticket_bits[i / 64], ~bit, memory_order_relaxed);
        wm++;
    }
    atomic_store_explicit(&n->retired_ticket, wm, memory_order_release);
}

/* The bit is read before the watermark: a bit is cleared only after the watermark passed it
 * was decided, and the watermark is published after, so a reader may miss both for a moment
 * (answering "not yet") but never sees a bit of another ticket: a ticket above the watermark
 * by the window or more has not been eligible, so its slot's bit is not set. */
bool gsched_ticket_done(const struct gsched_node *n, UINT64 t)
{
    struct gsched_node *m = (struct gsched_node *)n;
    UINT i = (UINT)(t % GSCHED_TICKET_WINDOW);
    bool bit = atomic_load_explicit(&m->ticket_bits[i / 64], memory_order_acquire) & (1ull << (i % 64));
    UINT64 wm = atomic_load_explicit(&m->retired_ticket, memory_order_acquire);
    return t <= wm || (bit && t <= wm + GSCHED_TICKET_WINDOW);
}

bool gsched_ticket_eligible(const struct gsched_node *n, UINT64 t)
{
    return t <= atomic_load_explicit(&((struct gsched_node *)n)->retired_ticket, memory_order_acquire) +
                    GSCHED_TICKET_WINDOW;
}

/* ---- the gate ------------------------------------------------------------------------------ */

bool gsched_gate_close(struct gsched_node *n, UINT why)
{
    pthread_mutex_lock(&n->lock);
    while (n->gate_closing)
        pthread_cond_wait(&n->done_cond, &n->lock);
    if (n->gate) {
        pthread_mutex_unlock(&n->lock);
        return false;
    }
    n->gate_closing = true; /* no new direct claim from now on */
    while (n->direct_claims)
        pthread_cond_wait(&n->done_cond, &n->lock);
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_lock(&n->submit_lock);
    pthread_mutex_lock(&n->lock);
    n->gate = why;
    n->gate_closing = false;
    pthread_cond_broadcast(&n->done_cond);
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&n->submit_lock);
    return true;
}

void gsched_gate_close_for_reset(struct gsched_node *n)
{
    if (gsched_gate_close(n, GSCHED_GATE_RESET))
        return;
    /* A preemption holds it and will never be answered (the engine is being reset): the
     * reset takes the gate over and ends the preemption. */
    pthread_mutex_lock(&n->submit_lock);
    pthread_mutex_lock(&n->lock);
    n->gate = GSCHED_GATE_RESET;
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&n->submit_lock);
}

void gsched_gate_open(struct gsched_node *n)
{
    pthread_mutex_lock(&n->submit_lock);
    pthread_mutex_lock(&n->lock);
    n->gate = 0;
    n->preempt_answered = false;
    n->preempt_fence = 0;
    pthread_cond_broadcast(&n->done_cond);
    pthread_cond_signal(&n->work_cond);
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&n->submit_lock);
}

void gsched_gate_wait_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    /* Every writer of the gate holds submit_lock, which the caller holds: reading it here
     * needs no node lock (the common case on every submission: the gate is open). */
    if (!n->gate)
        return;
    pthread_mutex_lock(&n->lock);
    while (n->gate) {
        pthread_mutex_unlock(&n->submit_lock);
        pthread_cond_wait(&n->done_cond, &n->lock);
        pthread_mutex_unlock(&n->lock);
        pthread_mutex_lock(&n->submit_lock);
        pthread_mutex_lock(&n->lock);
    }
    pthread_mutex_unlock(&n->lock);
}

/* ---- taking packets back ------------------------------------------------------------------- */

/* Takes back every in-flight packet after `last_completed` (resubmitted later); the node's
 * completed fence becomes its submitted fence. No lock held. */
/* *was_running: the first packet taken back is a render packet the engine had started - stopped
 * before its end. */
static struct dxgk_packet *gsched_detach_after(struct gsched_node *n, UINT64 last_completed, bool *was_running)
{
    struct dxgk_packet *taken = NULL;
    UINT k = 0;
    pthread_mutex_lock(&n->submit_lock);
    pthread_mutex_lock(&n->lock);
    struct dxgk_packet **pp = &n->inflight, *prev = NULL;
    while (*pp && (*pp)->fence <= last_completed) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    taken = *pp;
    *was_running = taken && !taken->paging && taken->started;
    *pp = NULL;
    n->inflight_tail = prev;
    for (struct dxgk_packet *p = taken; p; p = p->next) {
        k++;
        p->resubmit = true;
        p->started = false;
        if (p->hw_slot) {
            p->hw_slot = false;
            n->hw_count--;
        }
    }
    /* Every fence up to the last one handed out is now accounted for: completed, or taken
     * back to be submitted again under a new fence. The next DMA_COMPLETED names a newer one. */
    atomic_store_explicit(&n->completed_fence, n->submitted_fence, memory_order_release);
    /* The engine answered in the null context, the loaded context saved (src/gpu/preempt.c):
     * what the resubmissions load is decided anew (sched/switch.c). */
    gsched_switch_forget_locked(n);
    n->pending += k; /* no direct submission may pass them (queue.c) */
    pthread_mutex_unlock(&n->lock);
    pthread_mutex_unlock(&n->submit_lock);
    return taken;
}

/* Adapter lock held. */
static void gsched_requeue_locked(struct gsched_node *n, struct dxgk_packet *list)
{
    WDDM_ASSERT_HELD(&n->adapter->lock);
    /* Back to the head of each context's queue, in their order: reversed pushes keep it. */
    struct dxgk_packet *rev = NULL;
    while (list) {
        struct dxgk_packet *p = list;
        list = p->next;
        p->next = rev;
        rev = p;
    }
    while (rev) {
        struct dxgk_packet *p = rev;
        rev = p->next;
        if (p->paging) {
            /* Never detached: the paging node is not preempted and its timeouts reset the
             * whole adapter (sched/tdr.c). Should one come, it is retired, not lost. A switch to
             * the null context is done already: the preemption left the engine there. */
            if (!p->ctx_switch)
                dxgk_refuse("scheduler: paging buffer taken back from node %u: retired without running", n->ordinal);
            pthread_mutex_lock(&n->lock);
            n->pending--;
            pthread_mutex_unlock(&n->lock);
            gsched_retire_dropped(n, p);
            continue;
        }
        struct dxgk_context *c = p->ctx;
        p->next = c->queue;
        c->queue = p;
        if (!c->queue_tail)
            c->queue_tail = p;
    }
    pthread_mutex_lock(&n->lock);
    n->preempt_checked = false;
    n->kick_gen++;
    pthread_cond_signal(&n->work_cond);
    pthread_mutex_unlock(&n->lock);
}

/* ---- preemption ---------------------------------------------------------------------------- */

bool gsched_preemption_supported(const struct dxgk_adapter *a, const struct gsched_node *n)
{
    /* Not while a DMA buffer goes in parts (vidmm/split.c): a part is not on the in-flight
     * list, so a preemption could not take it back. */
    return a->caps.SchedulingCaps.PreemptionAware && a->driver.ddi.DxgkDdiPreemptCommand &&
           n->ordinal != a->paging_node && !atomic_load_explicit(&n->splitting, memory_order_acquire);
}

INT gsched_hw_lowest_priority(struct gsched_node *n, bool *any)
{
    INT lowest = 8;
    *any = false;
    pthread_mutex_lock(&n->lock);
    for (const struct dxgk_packet *p = n->inflight; p; p = p->next)
        if (!p->paging && p->fence > atomic_load_explicit(&n->completed_fence, memory_order_relaxed)) {
            *any = true;
            if (p->priority < lowest)
                lowest = p->priority;
        }
    pthread_mutex_unlock(&n->lock);
    return lowest;
}

bool gsched_preempt_request(struct gsched_node *n, D3DKMT_HANDLE for_context)
{
    struct dxgk_adapter *a = n->adapter;
    if (!gsched_gate_close(n, GSCHED_GATE_PREEMPT))
        return false; /* a preemption or a reset owns the node already */
    pthread_mutex_lock(&n->submit_lock);
    UINT64 f = n->submitted_fence + 1;
    if ((UINT)f == 0)
        f++;
    pthread_mutex_lock(&n->lock);
    n->submitted_fence = f; /* the request's fence comes from the node's sequence */
    n->preempt_fence = f;
    n->preempt_answered = false;
    pthread_mutex_unlock(&n->lock);
    gsched_trace(n->adapter, WDDM_SCHED_EVENT_PREEMPT, n->ordinal, for_context, 0, f);
    DXGKARG_PREEMPTCOMMAND pc = { .PreemptionFenceId = (UINT)f, .NodeOrdinal = n->ordinal, .EngineOrdinal = 0 };
    NTSTATUS st = a->driver.ddi.DxgkDdiPreemptCommand(a->miniport, &pc);
    pthread_mutex_unlock(&n->submit_lock);
    if (!NT_SUCCESS(st)) {
        /* docs/semantics.md §8.2 invariant 4: PreemptCommand must not fail. Nothing was stopped. */
        dxgk_refuse("verifier: DxgkDdiPreemptCommand failed 0x%08x (it must not fail): no preemption",
                    (unsigned)st);
        gsched_gate_open(n);
        return false;
    }
    return true;
}

void gsched_preempt_answer_locked(struct gsched_node *n, UINT preemption_fence, UINT last_completed)
{
    WDDM_ASSERT_HELD(&n->lock);
    if (n->gate != GSCHED_GATE_PREEMPT || n->preempt_answered || (UINT)n->preempt_fence != preemption_fence) {
        dxgk_refuse("DxgkCbNotifyInterrupt: DMA_PREEMPTED with fence %u on node %u, which has no such request",
                    preemption_fence, n->ordinal);
        return;
    }
    UINT64 done = atomic_load_explicit(&n->completed_fence, memory_order_relaxed);
    n->preempt_last_completed = gsched_fence_extend(done, last_completed);
    if (n->preempt_last_completed > n->preempt_fence)
        n->preempt_last_completed = done;
    n->preempt_answered = true;
    n->preemptions++;
    pthread_cond_broadcast(&n->done_cond);
    pthread_cond_signal(&n->work_cond);
}

void gsched_preempt_finish(struct gsched_node *n)
{
    struct dxgk_adapter *a = n->adapter;
    pthread_mutex_lock(&n->lock);
    UINT64 last = n->preempt_last_completed;
    pthread_mutex_unlock(&n->lock);
    gsched_trace(n->adapter, WDDM_SCHED_EVENT_PREEMPTED, n->ordinal, 0, 0, last);
    DXGK_COUNT(a, preemptions, 1);
    /* What completed before the preemption retires first (the ISR reported it). */
    if (gsched_resume_after(n, last))
        DXGK_COUNT(a, mid_buffer_preemptions, 1);
}

bool gsched_resume_after(struct gsched_node *n, UINT64 last_completed)
{
    struct dxgk_adapter *a = n->adapter;
    gsched_node_retire_to(n, last_completed);
    bool was_running = false;
    struct dxgk_packet *list = gsched_detach_after(n, last_completed, &was_running);
    pthread_mutex_lock(&a->lock);
    gsched_requeue_locked(n, list);
    pthread_mutex_unlock(&a->lock);
    gsched_gate_open(n);
    return was_running;
}
