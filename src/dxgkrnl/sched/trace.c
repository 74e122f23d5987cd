/* The scheduling event trace (issue 4 "a trace of scheduling events available to tests so they
 * assert on order, not on timing"; include/wddm/wddm.h). One process-wide ring: a writer takes
 * a sequence number with one atomic increment, fills the slot, then publishes it by storing the
 * sequence number with release; a reader accepts a slot only if its published sequence number
 * is the one it expects (a slot being rewritten, or overwritten by a newer lap, is skipped or
 * ends the read). Fields are atomics so that a reader racing a writer is defined behaviour. */
#include "dxgkrnl/sched/sched.h"
#include "common/timeline.h"

struct trace_slot {
    _Atomic UINT64 sequence;          /* 0 = never written; published last (release) */
    _Atomic UINT64 fence;
    _Atomic UINT type, node, context, from;
};

static struct {
    atomic_bool enabled;
    _Atomic UINT64 next;              /* last sequence number handed out */
    _Atomic UINT64 cleared;           /* read returns only sequence numbers > cleared */
    struct trace_slot slot[WDDM_SCHED_TRACE_CAPACITY];
} trace;

/* The scheduler's events as the timeline draws them: the engine lane's buffers and queue. */
static void gsched_timeline(const struct dxgk_adapter *a, UINT type, UINT node, D3DKMT_HANDLE context,
                            D3DKMT_HANDLE from, UINT64 fence)
{
    UINT ad = dxgk_timeline_adapter(a);
    uint32_t engine = WDDM_TL_ENGINE(ad, node);
    switch (type) {
    case WDDM_SCHED_EVENT_SUBMIT: wddm_tl(WDDM_TL_SUBMIT, engine, fence, context); break;
    case WDDM_SCHED_EVENT_START: wddm_tl(WDDM_TL_DMA_START, engine, fence, context); break;
    case WDDM_SCHED_EVENT_COMPLETE: wddm_tl(WDDM_TL_DMA_COMPLETE, engine, fence, 0); break;
    case WDDM_SCHED_EVENT_PREEMPTED: wddm_tl(WDDM_TL_DMA_PREEMPTED, engine, fence, 0); break;
    case WDDM_SCHED_EVENT_PREEMPT: wddm_tl(WDDM_TL_PREEMPT_REQUEST, engine, fence, context); break;
    case WDDM_SCHED_EVENT_SWITCH: wddm_tl(WDDM_TL_CONTEXT_SWITCH, engine, context, from); break;
    case WDDM_SCHED_EVENT_RESET:
        if (node == ~0u) /* an adapter reset stops every engine */
            for (UINT i = 0; i < a->node_count; i++)
                wddm_tl(WDDM_TL_ENGINE_RESET, WDDM_TL_ENGINE(ad, i), context, fence);
        else
            wddm_tl(WDDM_TL_ENGINE_RESET, engine, context, fence);
        break;
    }
}

void gsched_trace(const struct dxgk_adapter *a, UINT type, UINT node, D3DKMT_HANDLE context, D3DKMT_HANDLE from,
                  UINT64 fence)
{
    if (atomic_load_explicit(&wddm_tl_on, memory_order_relaxed))
        gsched_timeline(a, type, node, context, from, fence);
    if (!atomic_load_explicit(&trace.enabled, memory_order_relaxed))
        return;
    UINT64 seq = atomic_fetch_add_explicit(&trace.next, 1, memory_order_relaxed) + 1;
    struct trace_slot *s = &trace.slot[seq % WDDM_SCHED_TRACE_CAPACITY];
    atomic_store_explicit(&s->sequence, 0, memory_order_relaxed); /* being rewritten */
    atomic_thread_fence(memory_order_release); /* a reader seeing the new fields sees the 0 */
    atomic_store_explicit(&s->fence, fence, memory_order_relaxed);
    atomic_store_explicit(&s->type, type, memory_order_relaxed);
    atomic_store_explicit(&s->node, node, memory_order_relaxed);
    atomic_store_explicit(&s->context, context, memory_order_relaxed);
    atomic_store_explicit(&s->from, from, memory_order_relaxed);
    atomic_store_explicit(&s->sequence, seq, memory_order_release);
}

void wddm_sched_trace_enable(int enabled)
{
    atomic_store(&trace.enabled, enabled != 0);
}

void wddm_sched_trace_clear(void)
{
    atomic_store(&trace.cleared, atomic_load(&trace.next));
}

size_t wddm_sched_trace_read(struct wddm_sched_event *events, size_t max)
{
    if (!events && max) {
        dxgk_refuse("wddm_sched_trace_read: NULL events with max %zu", max);
        return 0;
    }
    UINT64 last = atomic_load_explicit(&trace.next, memory_order_acquire);
    UINT64 first = atomic_load(&trace.cleared) + 1;
    if (last >= WDDM_SCHED_TRACE_CAPACITY && first <= last - WDDM_SCHED_TRACE_CAPACITY)
        first = last - WDDM_SCHED_TRACE_CAPACITY + 1; /* older ones were overwritten */
    size_t n = 0;
    for (UINT64 seq = first; seq <= last && n < max; seq++) {
        struct trace_slot *s = &trace.slot[seq % WDDM_SCHED_TRACE_CAPACITY];
        if (atomic_load_explicit(&s->sequence, memory_order_acquire) != seq)
            continue; /* still being written, or already overwritten */
        struct wddm_sched_event e = {
            .sequence = seq,
            .type = atomic_load_explicit(&s->type, memory_order_relaxed),
            .node = atomic_load_explicit(&s->node, memory_order_relaxed),
            .context = atomic_load_explicit(&s->context, memory_order_relaxed),
            .from_context = atomic_load_explicit(&s->from, memory_order_relaxed),
            .fence = atomic_load_explicit(&s->fence, memory_order_relaxed) };
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->sequence, memory_order_relaxed) != seq)
            continue; /* rewritten while being read */
        events[n++] = e;
    }
    return n;
}
