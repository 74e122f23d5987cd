/* The GPU scheduler's interface inside the kernel (issue 16 §1): what sched/ offers objects/,
 * and, through for_vidmm.h, the part VidMm may use. It sees only the kernel's base (dxgkrnl.h);
 * what it needs of VidMm it asks through struct dxgk_upcalls. */
#ifndef DXGKRNL_SCHED_SCHED_H
#define DXGKRNL_SCHED_SCHED_H

#include "dxgkrnl/dxgkrnl.h"
#include "dxgkrnl/sched/for_vidmm.h"

/* sched/syncobj.c: the shared state of a live local handle of a Shared + NtSecuritySharing
 * object, with a reference; NULL otherwise. Open: a new local handle on it (device 0: no device
 * owns it), 0 without memory. */
struct dxgk_sync_shared;
struct dxgk_sync_shared *dxgk_syncobj_nt_get(D3DKMT_HANDLE h);
D3DKMT_HANDLE dxgk_syncobj_open_shared(struct dxgk_sync_shared *sh, D3DKMT_HANDLE device);

/* sched/fence.c */
UINT64 gsched_fence_extend(UINT64 last64, UINT fence32);
/* Submission with node->submit_lock already held (released on return): see queue.c's direct
 * submission. */
UINT64 gsched_submit_locked(struct gsched_node *n, struct dxgk_packet *p);
/* Lazy context switching (sched/switch.c). Before a packet enters the hardware queue (its fence
 * set; submit_lock held): */
void gsched_switch_locked(struct gsched_node *n, const struct dxgk_packet *p);

/* sched/node.c */
bool gsched_node_start(struct gsched_node *n, struct dxgk_adapter *a, UINT ordinal);
void gsched_node_stop(struct gsched_node *n);
void gsched_node_kick(struct gsched_node *n, UINT new_packets);
UINT64 gsched_retire_dropped(struct gsched_node *n, struct dxgk_packet *p);

/* sched/queue.c */
/* DMA buffers a context may have queued, held or in flight before its next submission waits
 * for the GPU to retire one (the per-context DMA buffer pool: issue 14 §4). */
#define GSCHED_CONTEXT_QUEUE_DEPTH 64u
/* Adapter lock held (let go while waiting): waits until the context has fewer than
 * GSCHED_CONTEXT_QUEUE_DEPTH packets, recycling what retired. false when the context or its
 * device died meanwhile (the caller refuses the submission). */
bool gsched_context_queue_wait_locked(struct dxgk_adapter *a, struct dxgk_context *c);
struct dxgk_packet *gsched_packet_get_locked(struct dxgk_context *c);
/* An unused packet back to its context's pool (a refused render). Adapter lock held. */
void gsched_packet_put_locked(struct dxgk_context *c, struct dxgk_packet *p);
void gsched_packet_recycle_locked(struct dxgk_adapter *a, struct dxgk_packet *p);
void gsched_queue_append_locked(struct dxgk_context *c, struct dxgk_packet *first, UINT count);
/* Direct submission (D3DKMTRender, D3DKMTSubmitCommand): p, just given its ticket, goes to the
 * hardware from the submitting thread when the worker would add nothing - true, with the node
 * claimed and its submit_lock taken (so no packet queued after p reaches the node first);
 * then, with the adapter lock let go, gsched_direct_submit. false: queue it. Adapter lock held. */
bool gsched_direct_try_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p);
void gsched_direct_submit(struct gsched_node *n, struct dxgk_packet *p);
struct dxgk_packet *gsched_queue_peek_locked(struct gsched_node *n);
void gsched_queue_take_locked(struct gsched_node *n, struct dxgk_packet *p);

/* sched/preempt.c: priorities, preemption, the gate and the ticket watermark (issue 4). */
void gsched_ticket_retire_locked(struct gsched_node *n, UINT64 ticket); /* node->lock */
bool gsched_ticket_eligible(const struct gsched_node *n, UINT64 ticket);
bool gsched_gate_close(struct gsched_node *n, UINT why);   /* no lock held; false: already closed */
void gsched_gate_open(struct gsched_node *n);              /* no lock held */
void gsched_gate_close_for_reset(struct gsched_node *n);   /* closes it, or takes it from a preemption */
/* After a preemption or an engine reset (gate closed): retires up to `last_completed`, puts
 * every later packet back in its context's queue, opens the gate. No lock held. True when the
 * first packet put back had started: the engine stopped it before its end. */
bool gsched_resume_after(struct gsched_node *n, UINT64 last_completed);
void gsched_gate_wait_locked(struct gsched_node *n);       /* submit_lock held */
bool gsched_preemption_supported(const struct dxgk_adapter *a, const struct gsched_node *n);
INT gsched_hw_lowest_priority(struct gsched_node *n, bool *any);
bool gsched_preempt_request(struct gsched_node *n, D3DKMT_HANDLE for_context);
void gsched_preempt_answer_locked(struct gsched_node *n, UINT preemption_fence, UINT last_completed); /* node->lock */
void gsched_preempt_finish(struct gsched_node *n);

/* sched/interrupt.c: retires the node's packets up to a 64-bit fence (recovery). No lock held. */
void gsched_node_retire_to(struct gsched_node *n, UINT64 fence);

/* sched/tdr.c: timeout detection and recovery. */
bool dxgk_tdr_start(struct dxgk_adapter *a);
void dxgk_tdr_stop(struct dxgk_adapter *a);
/* D3DKMT_TDRDBGCTRLTYPE_FORCETDR: the watchdog recovers the adapter as from a timeout with no
 * guilty device, soon after this returns. */
void dxgk_tdr_force(struct dxgk_adapter *a);
/* D3DKMT_TDRDBGCTRLTYPE_ENGINETDR: the watchdog treats node `ordinal` (< node_count) as timed out
 * now, soon after this returns: the packet it runs, if any, names the guilty device, and the
 * engine is reset (DxgkDdiResetEngine), or the adapter when the KMD has no per-engine TDR. */
void dxgk_tdr_force_engine(struct dxgk_adapter *a, UINT ordinal);
/* STATUS_SUCCESS, or STATUS_DEVICE_REMOVED and a line naming `call` once the adapter was
 * stopped past the TDR limits (D3DKMTCreateDevice, D3DKMTCreateContext). Adapter lock held. */
NTSTATUS dxgk_tdr_check_stopped_locked(struct dxgk_adapter *a, const char *call);

/* sched/syncobj.c: the device's monitored fences to their maximum value (docs/semantics.md §8.3),
 * except those created NoSignalMaxValueOnTdr. No lock held. */
void dxgk_syncobj_signal_max_device(D3DKMT_HANDLE device);
/* A lost device's handles take no more signals from its contexts (before its packets retire). */
void dxgk_syncobj_mark_lost(D3DKMT_HANDLE device);

/* sched/syncobj.c: synchronization objects (docs/semantics.md §8.5, issue 20). Every type keeps
 * its state in one 64-bit word: a monitored fence's or a fence's value, a semaphore's count, a
 * mutex's 1 (owned) or 0 (free); a CPU notification sets its event instead. A monitored
 * fence's word lives in a page mapped twice: writable for the kernel, read-only for the
 * application (FenceValueCPUVirtualAddress). The state is shared by every local handle on the
 * object (the creator's, and each D3DKMTOpenSynchronizationObject's), so it lives in
 * dxgk_sync_shared; a local handle adds its device and its own destroyed flag.
 * Waiters block on one process-wide condition variable. Its lock (the sync lock) sits between
 * the adapter lock and node->lock: adapter->lock -> sync lock -> node->lock (a satisfied GPU
 * wait wakes its node's worker under it); never taken with node->lock or submit_lock held. */
struct wddm_event;
struct dxgk_sync_shared {
    struct dxgk_object obj;           /* DXGK_TYPE_SYNC_SHARED; one reference per local handle */
    D3DDDI_SYNCHRONIZATIONOBJECT_TYPE type; /* immutable */
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS flags; /* immutable */
    LUID adapter;                     /* the creator's adapter; immutable */
    UINT max_count;                   /* a semaphore's MaxCount; immutable */
    _Atomic UINT64 *value;            /* the state word (see above); written with the sync lock
                                         held, read lock-free */
    _Atomic UINT64 word;              /* value points here but for a monitored fence */
    const volatile UINT64 *cpu_va;    /* a monitored fence's read-only view of its page */
    struct wddm_event *event;         /* a CPU notification's event (one reference); immutable */
    D3DKMT_HANDLE global;             /* Info.SharedHandle of a Shared object, else 0; immutable */
};
struct dxgk_syncobj {                 /* one local handle */
    struct dxgk_object obj;
    D3DKMT_HANDLE device;             /* the creating device's handle, 0 for an opened handle
                                         (usable by any device of the object's adapter);
                                         compared, never looked up from the DPC; immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    struct dxgk_sync_shared *shared;  /* one reference; immutable */
    /* Copies of the shared object's immutable fields, read on every wait and signal. */
    D3DDDI_SYNCHRONIZATIONOBJECT_TYPE type;
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS flags;
    _Atomic UINT64 *value;
    const volatile UINT64 *cpu_va;
    atomic_bool dead;                 /* this handle destroyed: its waiters fail */
    atomic_bool lost;                 /* its device was lost: the signals its contexts queued are
                                         never applied (dxgk_syncobj_signal_max_device) */
};
/* A GPU signal (D3DKMTSignalSynchronizationObject*, ...FromGpu) waiting for the work its
 * context had queued. */
struct gsched_gpu_signal {
    struct gsched_gpu_signal *next;
    UINT64 ticket;                    /* node ticket that must retire first */
    UINT64 fence;                     /* else, when not 0: node fence that must complete first (a
                                         paging queue's signal, vidmm/pagingqueue.c); its values
                                         are applied as a maximum, never lowering the fence */
    UINT64 wait_seq, hold_seq;        /* while held on its context (as a packet's) */
    UINT count;
    struct dxgk_syncobj *obj[D3DDDI_MAX_OBJECT_SIGNALED]; /* each holds a reference */
    UINT64 value[D3DDDI_MAX_OBJECT_SIGNALED];
    struct wddm_event *event;         /* EnqueueCpuEvent's event, set after the objects (one
                                         reference), or NULL */
    bool rewind;                      /* AllowFenceRewind: a fence may go down */
};
/* A GPU wait (D3DKMTWaitForSynchronizationObject*, ...FromGpu): the context's packets rendered
 * after it are held (no ticket, not on the node's queue) until every object is available at
 * once (a fence reached its value, a mutex is free, a semaphore counts above 0); a mutex or a
 * semaphore is then taken by the wait (sched/syncobj_wait.c). */
struct gsched_gpu_wait {
    struct gsched_gpu_wait *next;      /* context->waits; adapter->lock */
    struct gsched_gpu_wait *reg_next;  /* process registry of unsatisfied waits; sync lock */
    struct gsched_node *node;          /* the context's node; immutable */
    UINT64 seq;                       /* immutable */
    atomic_bool satisfied;            /* set once, under the sync lock */
    bool registered;                  /* on the registry; sync lock */
    UINT count;
    struct dxgk_syncobj *obj[D3DDDI_MAX_OBJECT_WAITED_ON]; /* each holds a reference */
    UINT64 value[D3DDDI_MAX_OBJECT_WAITED_ON];
};
/* Moves the context's packets whose GPU waits are all satisfied to its queue (tickets, VidMm
 * stamps) and kicks the worker; adapter->lock held. */
void gsched_release_held_locked(struct dxgk_adapter *a, struct dxgk_context *c);
/* Context destruction: drops the held packets and the waits; adapter->lock held. */
void gsched_drop_held_locked(struct dxgk_adapter *a, struct dxgk_context *c);
/* Destroys the device's synchronization objects (for D3DKMTDestroyDevice; no lock held);
 * device 0: the opened handles no device owns (process teardown). */
void dxgk_syncobj_destroy_device(D3DKMT_HANDLE device);

/* sched/syncobj.c: looks up count local handles usable by device d (its own or opened ones
 * of its adapter) whose type is in `types` (a mask of 1u << D3DDDI_SYNCHRONIZATIONOBJECT_TYPE),
 * each with a reference; all or nothing, with one refusal line naming `fn`. */
NTSTATUS dxgk_syncobj_get_n(const char *fn, const struct dxgk_device *d, UINT count, const D3DKMT_HANDLE *handles,
                            UINT max, UINT types, struct dxgk_syncobj **out);
void dxgk_syncobj_put_n(struct dxgk_syncobj **objs, UINT count);

/* sched/syncobj_wait.c: wakes every blocked CPU waiter (after a destruction). */
void dxgk_sync_wake_all(void);
/* Takes a wait off the registry (sync lock) and drops its references; adapter->lock may be held. */
void gsched_gpu_wait_free(struct gsched_gpu_wait *w);
/* Takes off the node's list the signals whose ticket retired (node->lock held); the caller
 * applies them with gsched_gpu_signals_apply once it let go of node->lock. */
struct gsched_gpu_signal *gsched_gpu_signals_take_locked(struct gsched_node *n);
void gsched_gpu_signals_apply(struct gsched_gpu_signal *list);
/* Drops a signal that will never be applied (its context is gone) with its references. */
void gsched_gpu_signal_free(struct gsched_gpu_signal *g);
/* Puts a signal whose ticket is known on its node's list, or applies it if retired. */
void gsched_gpu_signal_arm(struct gsched_node *n, struct gsched_gpu_signal *g);

/* sched/trace.c: the scheduling event trace (wddm_sched_trace_*, include/wddm/wddm.h) and the
 * same event on the timeline (src/common/timeline.h). Each is off by default: a call is then
 * two relaxed loads; on, one atomic index increment and the stores of one ring slot each. */
void gsched_trace(const struct dxgk_adapter *a, UINT type, UINT node, D3DKMT_HANDLE context, D3DKMT_HANDLE from,
                  UINT64 fence);

/* sched/interrupt.c */
VOID APIENTRY dxgk_cb_notify_interrupt(HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *data);
BOOLEAN APIENTRY dxgk_cb_queue_dpc(HANDLE hAdapter);
VOID APIENTRY dxgk_cb_notify_dpc(HANDLE hAdapter);
NTSTATUS APIENTRY dxgk_cb_synchronize_execution(HANDLE hAdapter, PKSYNCHRONIZE_ROUTINE routine, PVOID ctx,
                                                ULONG msg, BOOLEAN *ret);
PVOID APIENTRY dxgk_cb_get_handle_data(const DXGKARGCB_GETHANDLEDATA *args);

/* sched/interrupt.c + sched/tdr.c: a recorded page fault puts its device in error
 * (D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT). Adapter lock held. */
void dxgk_device_fault_sync_locked(struct dxgk_device *d);

#endif /* DXGKRNL_SCHED_SCHED_H */
