/* Per-context software queues (docs/semantics.md §8.1): what D3DKMTRender (objects/render.c)
 * queues and the node worker takes.
 *
 * Packets (a DMA buffer of at least the command buffer's size, its private data, allocation
 * and patch lists) are pooled per context and recycled when the DPC retired them. The node
 * worker serves a node's contexts by priority, then in ticket order (FIFO across contexts of
 * one priority), and preempts lower-priority work for higher (sched/preempt.c).
 * FIXME(scheduling): no quanta or time slicing between contexts of one priority. */
#include "dxgkrnl/sched/sched.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <stdlib.h>
#include <string.h>

void gsched_packet_free(struct dxgk_adapter *a, struct dxgk_packet *p)
{
    if (!p)
        return;
    dxgk_page_free(a, p->dma, p->dma_capacity);
    free(p->priv);
    free(p->alloc_list);
    free(p->inst);
    free(p->saved_use);
    free(p->patch);
    free(p->held_alloc);
    free(p);
}

static struct dxgk_packet *packet_new(struct dxgk_context *c)
{
    struct dxgk_packet *p = wddm_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ctx = c;
    p->node = c->node;
    p->priv_size = c->info.DmaBufferPrivateDataSize;
    p->priv = p->priv_size ? wddm_calloc(1, p->priv_size) : NULL;
    if (c->device->adapter->mmu) {
        /* GpuMmu: every packet is a D3DKMTSubmitCommand one (D3DKMTRender is refused), which
         * carries only a VA and a length: no DMA buffer copy, no allocation or patch list to
         * keep (~330 KiB of lists a packet otherwise, times the context's queue depth). */
        if (p->priv_size && !p->priv) {
            gsched_packet_free(c->device->adapter, p);
            return NULL;
        }
        return p;
    }
    p->dma_capacity = c->cmd_size > c->info.DmaBufferSize ? c->cmd_size : c->info.DmaBufferSize;
    p->dma = dxgk_page_alloc(c->device->adapter, p->dma_capacity);
    p->alloc_list = wddm_calloc(c->alloc_list_size, sizeof *p->alloc_list);
    p->inst = wddm_calloc(c->alloc_list_size, sizeof *p->inst);
    p->saved_use = wddm_calloc(c->alloc_list_size ? c->alloc_list_size : 1, sizeof *p->saved_use);
    p->patch = wddm_calloc(c->patch_list_size, sizeof *p->patch);
    if (!p->dma || (p->priv_size && !p->priv) || !p->alloc_list || !p->inst || !p->patch || !p->saved_use) {
        gsched_packet_free(c->device->adapter, p);
        return NULL;
    }
    return p;
}

struct dxgk_packet *gsched_packet_get_locked(struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    struct dxgk_packet *p = c->pool;
    if (p)
        c->pool = p->next;
    else
        p = packet_new(c);
    if (p) {
        p->next = NULL;
        p->ticket = p->fence = p->queued_ts = 0;
        p->dma_used = p->alloc_count = p->patch_count = 0;
        p->dropped = false;
        p->resubmit = false;
        p->hw_slot = false;
        p->split = p->part = false;
        p->wait_seq = 0;
    }
    return p;
}

/* Back-pressure (issue 14 §4). The WDK gives a context a bounded set of DMA buffers
 * (DXGK_CONTEXTINFO.DmaBufferSize each; D3DKMT_RENDER reports QueuedBufferCount) but names no
 * depth and no waiting rule: the depth and the wait are our choice (docs/rules/sched.md). A
 * context's packets come from its own
 * pool and return to it when they retire; without a bound, an application that submits faster
 * than the GPU retires (initial-data uploads in a create/release loop, copies to a slowed GPU)
 * grows the pool, each packet a DMA buffer of the context's command-buffer size, without limit.
 * So a submission that finds GSCHED_CONTEXT_QUEUE_DEPTH packets of its context not yet recycled
 * waits for the node to retire one. Packets held behind a GPU wait count too (GpuMmu UMDs wait
 * for their paging fence that way before nearly every submission): an application that
 * queues more than the depth behind a wait only it can satisfy from the CPU blocks itself. */
static bool context_queue_full_locked(const struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    return atomic_load(&c->queued) >= GSCHED_CONTEXT_QUEUE_DEPTH;
}

bool gsched_context_queue_wait_locked(struct dxgk_adapter *a, struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct gsched_node *n = &a->node[c->node];
    gsched_recycle_retired_locked(a, n);
    while (context_queue_full_locked(c)) {
        pthread_mutex_unlock(&a->lock);
        pthread_mutex_lock(&n->lock);
        /* Retirement (the DPC) and recycling (the worker) both broadcast done_cond under
         * node->lock after changing what this reads: no wake-up is lost. */
        while (atomic_load(&c->queued) >= GSCHED_CONTEXT_QUEUE_DEPTH && !n->retired && !n->stop &&
               NT_SUCCESS(__atomic_load_n(&c->device->error, __ATOMIC_RELAXED)))
            pthread_cond_wait(&n->done_cond, &n->lock);
        pthread_mutex_unlock(&n->lock);
        pthread_mutex_lock(&a->lock);
        if (c->dead || c->device->dead)
            return false;
        gsched_recycle_retired_locked(a, n);
        if (!NT_SUCCESS(c->device->error) || n->stop)
            break; /* the caller reports the error; a lost device's work is dropped anyway */
    }
    return true;
}

void gsched_packet_put_locked(struct dxgk_context *c, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    p->next = c->pool;
    c->pool = p;
}

void gsched_packet_recycle_locked(struct dxgk_adapter *a, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (p->paging) {
        p->next = a->paging_pool;
        a->paging_pool = p;
        atomic_fetch_sub(&a->paging_out, 1);
        return;
    }
    struct dxgk_context *c = p->ctx;
    gsched_packet_put_locked(c, p);
    atomic_fetch_sub(&c->queued, 1);
}

void gsched_queue_append_locked(struct dxgk_context *c, struct dxgk_packet *first, UINT count)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    /* The timeline shows how long each packet waits here (WDDM_TL_QUEUED at its submission). */
    UINT64 now = atomic_load_explicit(&wddm_tl_on, memory_order_relaxed) ? wddm_tl_now() : 0;
    struct dxgk_packet *last = first;
    first->queued_ts = now;
    for (UINT i = 1; i < count; i++) {
        last = last->next;
        last->queued_ts = now;
    }
    if (c->queue_tail)
        c->queue_tail->next = first;
    else
        c->queue = first;
    c->queue_tail = last;
}

/* The next packet to place: the head of the highest-priority context's queue, the oldest
 * ticket among equals (FIFO across contexts of one priority), within the ticket window of
 * sched/preempt.c. Not dequeued. */
struct dxgk_packet *gsched_queue_peek_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->adapter->lock);
    struct dxgk_context *best = NULL;
    for (struct dxgk_context *c = n->contexts; c; c = c->node_next) {
        if (!c->queue || !gsched_ticket_eligible(n, c->queue->ticket))
            continue;
        if (!best || c->priority > best->priority ||
            (c->priority == best->priority && c->queue->ticket < best->queue->ticket))
            best = c;
    }
    return best ? best->queue : NULL;
}

/* Steps to the next packet within the window: on along the current context's queue, else to
 * the next context of the node with a queued packet. */
static struct dxgk_packet *queued_advance(struct gsched_queued_iter *it, struct dxgk_packet *p,
                                          struct dxgk_context *c)
{
    for (;;) {
        if (p && p->ticket - it->base < it->window) {
            it->c = c;
            it->p = p;
            return p;
        }
        c = c ? c->node_next : NULL;
        if (!c)
            return it->p = NULL;
        p = c->queue;
    }
}

struct dxgk_packet *gsched_queued_first_locked(struct gsched_node *n, UINT64 window, struct gsched_queued_iter *it)
{
    WDDM_ASSERT_HELD(&n->adapter->lock);
    it->n = n;
    it->base = UINT64_MAX;
    it->window = window;
    it->p = NULL;
    for (struct dxgk_context *c = n->contexts; c; c = c->node_next)
        if (c->queue && c->queue->ticket < it->base)
            it->base = c->queue->ticket;
    if (it->base == UINT64_MAX || !n->contexts)
        return NULL;
    return queued_advance(it, n->contexts->queue, n->contexts);
}

struct dxgk_packet *gsched_queued_next_locked(struct gsched_queued_iter *it)
{
    WDDM_ASSERT_HELD(&it->n->adapter->lock);
    return it->p ? queued_advance(it, it->p->next, it->c) : NULL;
}

void gsched_queue_take_locked(struct gsched_node *n, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&n->adapter->lock);
    struct dxgk_context *c = p->ctx;
    c->queue = p->next;
    if (!c->queue)
        c->queue_tail = NULL;
    p->next = NULL;
}

/* Direct submission: when nothing of this node is queued or on its way to the GPU, and VidMm
 * has nothing to do before the packet runs (a->up->packet_direct_locked: everything it names
 * resident with its paging done; for a virtual packet every page-table write retired and the
 * root current), the worker would add no residency work and no ordering, so the submitting
 * thread patches and submits the packet itself instead of waking the worker for it - a thread
 * hop and a futex wake-up per DMA buffer saved (issue 2 W1; issue 17 aim 2 for the GpuMmu
 * model). While the claim stands, later packets queue for the worker (which then waits for
 * submit_lock behind this one) and gsched_wait_node_idle waits for it; the DPC does not count
 * it as work for the worker. */
static bool direct_claim_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    pthread_mutex_lock(&n->lock);
    /* Issue 4: not past a closed or closing gate (sched/preempt.c), not beyond the hardware
     * queue's depth, and not behind lower-priority work the worker would preempt. */
    bool claimed = n->pending == 0 && n->direct_claims == 0 && !n->stop && !n->gate && !n->gate_closing &&
                   n->hw_count < n->hw_queue_cap;
    if (claimed && n->hw_count && gsched_preemption_supported(a, n))
        for (const struct dxgk_packet *q = n->inflight; q && claimed; q = q->next)
            claimed = q->paging || q->priority >= p->ctx->priority;
    if (claimed) {
        n->direct_claims = 1;
        n->hw_count++;
        p->hw_slot = true;
        p->priority = p->ctx->priority;
    }
    pthread_mutex_unlock(&n->lock);
    return claimed;
}

static void direct_release(struct gsched_node *n, struct dxgk_packet *p, bool unused)
{
    pthread_mutex_lock(&n->lock);
    if (unused) { /* the packet goes to the queue after all: its place back */
        n->hw_count--;
        p->hw_slot = false;
    }
    n->direct_claims = 0;
    pthread_cond_broadcast(&n->done_cond);
    pthread_mutex_unlock(&n->lock);
}

bool gsched_direct_try_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!direct_claim_locked(a, n, p))
        return false;
    if (!a->up->packet_direct_locked(a, p)) {
        direct_release(n, p, true);
        return false;
    }
    pthread_mutex_lock(&n->submit_lock);
    return true;
}

void gsched_direct_submit(struct gsched_node *n, struct dxgk_packet *p)
{
    gsched_submit_locked(n, p); /* lets go of submit_lock */
    direct_release(n, p, false);
}

/* GPU waits (sched/syncobj.c, docs/semantics.md §8.5 rule 4). A context's packets rendered after a
 * D3DKMTWaitForSynchronizationObjectFromGpu wait on the context's held list without a ticket:
 * node tickets retire in order (VidMm relies on it), so a packet that may not run yet cannot
 * take one. It keeps a reference to each allocation of its list; when every wait before it is
 * satisfied it takes the next ticket, the allocations' current instances and the VidMm stamps a
 * D3DKMTRender gives, and joins the queue. */
void gsched_release_held_locked(struct dxgk_adapter *a, struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&a->lock);
    while (c->waits && atomic_load_explicit(&c->waits->satisfied, memory_order_acquire)) {
        struct gsched_gpu_wait *w = c->waits;
        c->waits = w->next;
        if (!c->waits)
            c->waits_tail = NULL;
        c->waits_done = w->seq;
        gsched_gpu_wait_free(w);
    }
    struct gsched_node *n = &a->node[c->node];
    struct dxgk_packet *first = NULL, *last = NULL;
    UINT k = 0;
    for (;;) {
        /* The context's stream in order: held packets and held GPU signals by hold_seq. */
        struct gsched_gpu_signal *g = c->held_signals;
        if (g && g->wait_seq <= c->waits_done && (!c->held || g->hold_seq < c->held->hold_seq)) {
            c->held_signals = g->next;
            if (!c->held_signals)
                c->held_signals_tail = NULL;
            if (k) { /* the packets before it are queued before it is armed */
                gsched_queue_append_locked(c, first, k);
                gsched_node_kick(n, k);
                first = last = NULL;
                k = 0;
            }
            g->ticket = c->last_ticket;
            gsched_gpu_signal_arm(n, g); /* node->lock, then the sync lock: both inner */
            continue;
        }
        if (!c->held || c->held->wait_seq > c->waits_done)
            break;
        struct dxgk_packet *p = c->held;
        c->held = p->next;
        if (!c->held)
            c->held_tail = NULL;
        p->next = NULL;
        bool dead = false;
        for (UINT i = 0; i < p->alloc_count; i++)
            dead |= p->held_alloc[i]->dead;
        if (!dead) {
            p->ticket = ++n->queued_ticket;
            a->up->packet_ticketed_locked(a, p);
            c->last_ticket = p->ticket;
        }
        for (UINT i = 0; i < p->alloc_count; i++) {
            p->held_alloc[i]->held_refs--;
            dxgk_object_put(&p->held_alloc[i]->obj); /* frees memory only: no lock taken */
            p->held_alloc[i] = NULL;
        }
        pthread_cond_broadcast(&a->held_cond);
        if (dead) {
            dxgk_refuse("scheduler: DMA buffer of context 0x%08x dropped: an allocation of its list was destroyed "
                        "while it waited for a GPU wait", c->handle);
            gsched_packet_put_locked(c, p);
            atomic_fetch_sub(&c->queued, 1);
            continue;
        }
        if (last)
            last->next = p;
        else
            first = p;
        last = p;
        k++;
    }
    if (k) {
        gsched_queue_append_locked(c, first, k);
        gsched_node_kick(n, k);
    }
    if (!c->held && c->va_stamp_count)
        a->up->held_done_locked(c, true); /* GpuMmu: every held packet has its ticket now */
}

void gsched_drop_held_locked(struct dxgk_adapter *a, struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&a->lock);
    while (c->held) {
        struct dxgk_packet *p = c->held;
        c->held = p->next;
        for (UINT i = 0; i < p->alloc_count; i++) {
            p->held_alloc[i]->held_refs--;
            dxgk_object_put(&p->held_alloc[i]->obj);
            p->held_alloc[i] = NULL;
        }
        pthread_cond_broadcast(&a->held_cond);
        gsched_packet_put_locked(c, p);
        atomic_fetch_sub(&c->queued, 1);
    }
    c->held_tail = NULL;
    a->up->held_done_locked(c, false);
    while (c->held_signals) { /* never signalled: their context is gone */
        struct gsched_gpu_signal *g = c->held_signals;
        c->held_signals = g->next;
        gsched_gpu_signal_free(g);
    }
    c->held_signals_tail = NULL;
    while (c->waits) {
        struct gsched_gpu_wait *w = c->waits;
        c->waits = w->next;
        gsched_gpu_wait_free(w);
    }
    c->waits_tail = NULL;
}

