/* What VidMm may ask of the GPU scheduler (issue 16 §1): the whole contract between the two
 * rooms, and the only part of sched/ that vidmm/ sees (src/layers.txt). VidMm asks for fences
 * and waits, submits its paging buffers, signals its paging queues' fences, unloads contexts
 * before it moves their state, walks the queued work for its victim choice, and puts a device in
 * error. The scheduler asks VidMm through struct dxgk_upcalls (dxgkrnl.h). */
#ifndef DXGKRNL_SCHED_FOR_VIDMM_H
#define DXGKRNL_SCHED_FOR_VIDMM_H

#include "dxgkrnl/dxgkrnl.h"

/* 1. Fences and waits (sched/fence.c, sched/preempt.c). A ticket is a packet's place in its
 * node's order, given when it is queued; a fence its number once submitted. */
/* One pause of a polling loop. */
static inline void gsched_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
bool gsched_ticket_retired(const struct gsched_node *n, UINT64 ticket);
bool gsched_fence_completed(const struct gsched_node *n, UINT64 fence);
/* Has the packet with this very ticket retired (the watermark or, above it, its bit)? Exact,
 * where gsched_ticket_retired says whether every ticket up to it did. Lock-free; may answer
 * "not yet" for a moment after the fact, never "done" early. */
bool gsched_ticket_done(const struct gsched_node *n, UINT64 ticket);
void gsched_wait_ticket_done(struct gsched_node *n, UINT64 ticket);
void gsched_wait_ticket(struct gsched_node *n, UINT64 ticket);
void gsched_wait_fence(struct gsched_node *n, UINT64 fence);
void gsched_wait_node_idle(struct gsched_node *n);

/* 2. Paging buffers (sched/node.c, sched/queue.c): submitted like any packet; a packet that never
 * reached the GPU is freed; retired ones go back to their pools (adapter->lock held). */
UINT64 gsched_submit(struct gsched_node *n, struct dxgk_packet *p);
void gsched_packet_free(struct dxgk_adapter *a, struct dxgk_packet *p); /* a: the DMA buffer's adapter */
void gsched_recycle_retired_locked(struct dxgk_adapter *a, struct gsched_node *n);

/* 3. The paging queues' fences (sched/syncobj.c). Signals `s` to `value` once node fence `fence`
 * completed (at once if it has). Takes its own reference to s. No lock or the adapter lock held.
 * STATUS_NO_MEMORY when the signal cannot be recorded (nothing armed). */
struct dxgk_syncobj;
NTSTATUS gsched_gpu_signal_arm_fence(struct gsched_node *n, struct dxgk_syncobj *s, UINT64 fence, UINT64 value);
/* Raises s to `value` now if it is lower (never lowers it) and releases the satisfied CPU and
 * GPU waiters. No lock or the adapter lock held. */
void dxgk_syncobj_signal_at_least(struct dxgk_syncobj *s, UINT64 value);

/* 4. Contexts on the engines (sched/switch.c): before VidMm moves a context's GPU state. */
/* After a preemption or a reset, which leave the engine in the null context; submit_lock held. */
void gsched_switch_forget_locked(struct gsched_node *n);
/* Whether the context's state may be on its node's engine, or on its way to its save area: its
 * GPU context allocations must stay where they are. Lock-free. */
bool gsched_context_loaded(const struct gsched_node *n, const struct dxgk_context *c);
/* Switches the context's node to the null context if the context is loaded there (a zero-length
 * ContextSwitch buffer) and waits until its state is saved. No lock held. Returns whether the
 * context is unloaded now. */
bool gsched_unload_context(struct dxgk_adapter *a, struct dxgk_context *c);
/* Every node runs dry, then goes to the null context, each loaded context's state saved into
 * its save area first (a power transition, or VidMm evicting everything). No lock held. */
void gsched_unload_every_node(struct dxgk_adapter *a);

/* 5. The queued work, for the "needed last" victim choice (sched/node.c, vidmm/evict.c): the
 * packets queued on node n and taken by no worker yet whose ticket lies less than `window` past
 * the node's first queued one, context by context, each context's in ticket order. Packets held
 * behind a GPU wait have no ticket yet and are not among them. it->base is that first ticket.
 * NULL at the end. Adapter lock held across the whole walk. */
struct gsched_queued_iter {
    struct gsched_node *n; /* the node walked: its adapter lock is the one held */
    UINT64 base, window;
    struct dxgk_context *c;
    struct dxgk_packet *p;
};
struct dxgk_packet *gsched_queued_first_locked(struct gsched_node *n, UINT64 window, struct gsched_queued_iter *it);
struct dxgk_packet *gsched_queued_next_locked(struct gsched_queued_iter *it);

/* 6. A device VidMm cannot serve (sched/tdr.c). Puts the device in error (the first cause
 * sticks): every later D3DKMT call on it fails with `st` and its queued work is dropped. Returns
 * true if this call lost it. Adapter lock held. The caller then signals its monitored fences
 * with dxgk_syncobj_signal_max_device (no lock held) when recovery requires it
 * (docs/semantics.md §8.3). */
bool dxgk_device_set_error_locked(struct dxgk_device *d, NTSTATUS st, D3DKMT_DEVICEEXECUTION_STATE state);

#endif /* DXGKRNL_SCHED_FOR_VIDMM_H */
