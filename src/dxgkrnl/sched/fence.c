/* Fences and waiting (docs/architecture.md "Threads and waiting").
 *
 * Per node, the scheduler assigns SubmissionFenceIds 1, 2, 3 ... (32-bit on the DDI) and the
 * kernel extends them to 64-bit monotonic values; completion is cumulative (fence F completes
 * everything <= F, docs/semantics.md §8.2 invariant 1). Render packets also carry a node "ticket"
 * assigned at D3DKMTRender time, in queue order, so that work queued but not yet submitted is
 * already visible to lock synchronisation; a ticket retires with its packet's fence.
 *
 * Waiting spins briefly (a blocked thread takes ~20 µs to wake on this VM; most waits in a
 * frame loop are shorter), then blocks on the node's condition variable. */
#include "dxgkrnl/sched/sched.h"

#define SPIN_NS 4000u

UINT64 gsched_fence_extend(UINT64 last64, UINT fence32)
{
    INT32 delta = (INT32)(fence32 - (UINT)last64);
    return delta > 0 ? last64 + (UINT64)delta : last64;
}

bool gsched_ticket_retired(const struct gsched_node *n, UINT64 ticket)
{
    return atomic_load_explicit(&((struct gsched_node *)n)->retired_ticket, memory_order_acquire) >= ticket;
}

bool gsched_fence_completed(const struct gsched_node *n, UINT64 fence)
{
    return atomic_load_explicit(&((struct gsched_node *)n)->completed_fence, memory_order_acquire) >= fence;
}


static bool spin(const struct gsched_node *n, UINT64 v, bool (*done)(const struct gsched_node *, UINT64))
{
    if (done(n, v))
        return true;
    UINT64 t0 = dxgk_now_ns();
    do {
        for (int i = 0; i < 64; i++)
            gsched_cpu_relax();
        if (done(n, v))
            return true;
    } while (dxgk_now_ns() - t0 < SPIN_NS);
    return false;
}

static void wait_on(struct gsched_node *n, UINT64 v, bool (*done)(const struct gsched_node *, UINT64))
{
    if (spin(n, v, done))
        return;
    pthread_mutex_lock(&n->lock);
    while (!done(n, v))
        pthread_cond_wait(&n->done_cond, &n->lock);
    pthread_mutex_unlock(&n->lock);
}

void gsched_wait_ticket(struct gsched_node *n, UINT64 ticket)
{
    wait_on(n, ticket, gsched_ticket_retired);
}

void gsched_wait_ticket_done(struct gsched_node *n, UINT64 ticket)
{
    wait_on(n, ticket, gsched_ticket_done);
}

void gsched_wait_fence(struct gsched_node *n, UINT64 fence)
{
    wait_on(n, fence, gsched_fence_completed);
}

void gsched_wait_node_idle(struct gsched_node *n)
{
    if (!n->thread_started)
        return;
    pthread_mutex_lock(&n->lock);
    /* While someone waits here the DPC wakes the worker at every retirement, and the worker
     * is woken now for what retired already, so that every packet goes back to its pool. */
    n->idle_waiters++;
    pthread_cond_signal(&n->work_cond);
    while (n->pending || n->direct_claims || n->inflight || n->retired)
        pthread_cond_wait(&n->done_cond, &n->lock);
    n->idle_waiters--;
    pthread_mutex_unlock(&n->lock);
}
