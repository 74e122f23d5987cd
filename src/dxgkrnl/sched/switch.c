/* Lazy context switching (seed 000, docs/semantics.md §1.2 invariants 2 and 3).
 *
 * The hardware keeps a context's state after its command completed, so a node switches only
 * when a DMA buffer of another context enters its hardware queue; the KMD and the GPU perform
 * the switch (the reference GPU saves the outgoing context's registers into its save area and
 * loads the incoming one's, src/gpu/context_state.c). The kernel keeps what VidMm needs to know
 * from it: which context is loaded on each node (hw_context), and for a context switched away
 * from, the fence of the buffer that saves it (save_fence): its GPU context allocations stay
 * resident until that buffer completed, since the GPU writes them then
 * (vidmm/context_allocation.c). Paging buffers run in the system context without touching the
 * render context's state: they neither switch nor count. Loading the first context into a node
 * that runs none saves nothing and is not counted either.
 *
 * When VidMm must move a GPU context allocation of the context loaded on a node, or the context
 * goes away while loaded, the scheduler first submits a zero-length buffer with
 * DXGK_SUBMITCOMMANDFLAGS.ContextSwitch, which switches the node to the null context
 * (gsched_unload_context). A preemption and an engine or adapter reset leave the engine in the
 * null context too (the GPU saves on a preemption, and loses the state on a reset):
 * gsched_switch_forget_locked. */
#include "dxgkrnl/sched/sched.h"

static void switch_from_locked(struct gsched_node *n, UINT64 fence)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    struct dxgk_context *old = n->hw_ctx;
    /* Stored before hw_context changes: a reader that sees the context unloaded sees the fence
     * of the buffer that saves it (both seq_cst, context_allocation.c). */
    if (old)
        atomic_store(&old->save_fence, fence);
}

void gsched_switch_locked(struct gsched_node *n, const struct dxgk_packet *p)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    if (p->ctx_switch) {
        switch_from_locked(n, p->fence);
        if (n->hw_context)
            gsched_trace(n->adapter, WDDM_SCHED_EVENT_SWITCH, n->ordinal, 0, n->hw_context, 0);
        n->hw_ctx = NULL;
        atomic_store(&n->hw_context, 0);
        return;
    }
    D3DKMT_HANDLE hc = p->ctx ? p->ctx->handle : 0;
    if (p->paging || hc == n->hw_context)
        return;
    if (n->hw_context) {
        DXGK_COUNT(n->adapter, context_switches, 1);
        gsched_trace(n->adapter, WDDM_SCHED_EVENT_SWITCH, n->ordinal, hc, n->hw_context, 0);
    }
    switch_from_locked(n, p->fence);
    n->hw_ctx = p->ctx;
    atomic_store(&n->hw_context, hc);
}

void gsched_switch_forget_locked(struct gsched_node *n)
{
    WDDM_ASSERT_HELD(&n->submit_lock);
    n->hw_ctx = NULL;
    atomic_store(&n->hw_context, 0);
}

bool gsched_context_loaded(const struct gsched_node *n, const struct dxgk_context *c)
{
    if (atomic_load(&((struct gsched_node *)n)->hw_context) == c->handle)
        return true;
    UINT64 f = atomic_load(&((struct dxgk_context *)c)->save_fence);
    return f && !gsched_fence_completed(n, f);
}

bool gsched_unload_context(struct dxgk_adapter *a, struct dxgk_context *c)
{
    struct gsched_node *n = &a->node[c->node];
    pthread_mutex_lock(&n->lock);
    bool stopping = n->stop; /* the engines go with the adapter: nothing runs any more */
    pthread_mutex_unlock(&n->lock);
    if (atomic_load(&n->hw_context) == c->handle) {
        struct dxgk_packet *p = NULL;
        if (!stopping) {
            pthread_mutex_lock(&a->lock);
            p = a->up->paging_packet_get_locked(a);
            pthread_mutex_unlock(&a->lock);
        }
        pthread_mutex_lock(&n->submit_lock);
        if (n->hw_ctx != c) {
            /* Another packet switched away from it meanwhile: its save is on its way. */
            pthread_mutex_unlock(&n->submit_lock);
        } else if (!p) {
            /* No packet (stopping, or out of memory): the state is not saved, and the node
             * forgets the context rather than keep a pointer to one that may go. */
            gsched_switch_forget_locked(n);
            pthread_mutex_unlock(&n->submit_lock);
        } else {
            p->ctx_switch = true;
            p->dma_used = 0;
            DXGK_COUNT(a, null_context_switches, 1);
            (void)gsched_submit_locked(n, p); /* releases submit_lock */
            p = NULL;
        }
        if (p) {
            pthread_mutex_lock(&a->lock);
            gsched_packet_recycle_locked(a, p);
            pthread_mutex_unlock(&a->lock);
        }
    }
    UINT64 f = atomic_load(&c->save_fence);
    if (f && !stopping)
        gsched_wait_fence(n, f);
    return !gsched_context_loaded(n, c);
}

void gsched_unload_every_node(struct dxgk_adapter *a)
{
    for (UINT i = 0; i < a->node_count; i++)
        gsched_wait_node_idle(&a->node[i]);
    for (UINT i = 0; i < a->node_count; i++) {
        struct gsched_node *n = &a->node[i];
        pthread_mutex_lock(&n->submit_lock);
        struct dxgk_context *c = n->hw_ctx;
        if (c)
            dxgk_object_get(&c->obj);
        pthread_mutex_unlock(&n->submit_lock);
        if (c) {
            (void)gsched_unload_context(a, c);
            dxgk_object_put(&c->obj);
        }
    }
}
