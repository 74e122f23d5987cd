/* dxgkrnl: the graphics kernel's private types (objects/, vidmm/, sched/, verifier.c).
 *
 * Locking (outermost first; never take an outer lock while holding an inner one):
 *   process.lock            adapter list, start/stop                      (objects/adapter.c)
 *   adapter->lock           VidMm state (segments, instances, residency, renaming), context
 *                           queues, deferred destruction, packet pools      ("the adapter lock")
 *   sync lock               sync objects' values and waiters, the GPU-wait registry (sched/syncobj.c);
 *                           never taken with submit_lock, interrupt_lock or node->lock held
 *   node->submit_lock       fence assignment + DxgkDdiPatch + DxgkDdiSubmitCommand of one node
 *   adapter->interrupt_lock the interrupt level: DxgkDdiInterruptRoutine, SynchronizeExecution
 *   node->lock              completed fences, in-flight and retired packets, worker wake-ups
 *   handles.lock            the handle table (leaf; taken alone)
 *   keyed mutex lock        one per keyed mutex: key, owner, fence, runtime data, waiters
 *                           (objects/keyed_mutex.c; leaf, its waits hold nothing else)
 * The adapter lock is never held across a wait for the GPU (waits drop it: sched/fence.c),
 * and the DPC never takes it (sched/interrupt.c): the GPU thread only touches node->lock.
 */
#ifndef DXGKRNL_DXGKRNL_H
#define DXGKRNL_DXGKRNL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "common/debug.h"
#include "common/lock_held.h"
#include "common/free_ranges.h"
#include "displib/platform.h"

#define DXGK_LAYER "dxgkrnl"
#define dxgk_refuse(...) wddm_debug(DXGK_LAYER, __VA_ARGS__)

#define DXGK_PAGE_SIZE 4096u
#define DXGK_MAX_NODES 8u
/* The largest WDDM_TDR_LIMIT_COUNT (sched/tdr.c): adapter timeouts remembered per adapter. */
#define DXGK_TDR_LIMIT_MAX 64u
#define DXGK_MAX_SEGMENTS D3DKMT_WDDM_MAX_SEGMENTS
#define DXGK_MAX_SWIZZLING_RANGES 16u  /* ranges VidMm arbitrates (more reported are not used) */
#define DXGK_DEFAULT_ADAPTER_COUNT 1u
#define DXGK_MAX_ADAPTERS 4u              /* WDDM_ADAPTER_COUNT's upper bound (objects/adapter.c) */

/* ---- objects and handles (dxgkrnl/handle.c) ------------------------------------------------ */
enum dxgk_type {
    DXGK_TYPE_NONE = 0,
    DXGK_TYPE_ADAPTER = 1,
    DXGK_TYPE_DEVICE = 2,
    DXGK_TYPE_CONTEXT = 3,
    DXGK_TYPE_ALLOCATION = 4,
    DXGK_TYPE_RESOURCE = 5,
    DXGK_TYPE_SYNCOBJECT = 6,                 /* sched/syncobj.c */
    DXGK_TYPE_CONTEXT_ALLOCATION = 7,         /* vidmm/context_allocation.c (seed 000) */
    DXGK_TYPE_PAGING_QUEUE = 8,               /* vidmm/pagingqueue.c (WDDM 2.0, §9.2) */
    DXGK_TYPE_KEYED_MUTEX = 9,                /* objects/keyed_mutex.c: a handle's object in the
                                                 table, the shared mutex in the global registry */
    DXGK_TYPE_SYNC_SHARED = 10,               /* sched/syncobj.c: what the local handles of one
                                                 synchronization object share; never in the
                                                 handle table, only in the global registry */
};

/* Every kernel object starts with this. refs counts the handle (one) and every lookup in
 * progress; the memory is freed at the last put, never while a lookup holds it. */
struct dxgk_object {
    atomic_uint refs;
    enum dxgk_type type;                      /* immutable */
    void (*release)(struct dxgk_object *obj); /* immutable; called at refs == 0 */
};

void dxgk_object_init(struct dxgk_object *obj, enum dxgk_type type, void (*release)(struct dxgk_object *));
void dxgk_object_get(struct dxgk_object *obj);
void dxgk_object_put(struct dxgk_object *obj);

/* Returns a handle owning one reference to obj, 0 when the table is full. The handle is not
 * usable by D3DKMT lookups until dxgk_handle_publish (DxgkCbGetHandleData sees it at once).
 * Publish takes no lock (a compare-and-swap with release; lookups acquire) and is a no-op
 * for a handle that was removed meanwhile. */
D3DKMT_HANDLE dxgk_handle_insert(struct dxgk_object *obj);
void dxgk_handle_publish(D3DKMT_HANDLE h);
/* Several handles in one acquisition of the table lock (the create path of a resource and
 * its allocations). All or nothing: FALSE leaves no handle. */
bool dxgk_handle_insert_n(struct dxgk_object *const *objs, UINT n, D3DKMT_HANDLE *out);
/* The table lock itself, for a caller that looks up and removes several handles in one
 * acquisition (D3DKMTDestroyAllocation by resource). It is a leaf: nothing else is taken
 * while it is held. The _locked forms require it. */
void dxgk_handle_lock(void);
void dxgk_handle_unlock(void);
struct dxgk_object *dxgk_handle_get_locked(D3DKMT_HANDLE h, enum dxgk_type type);
/* Like get_locked without taking a reference: the object stays alive only while the table
 * lock is held (its handle's reference), or longer if the caller removes the handle and so
 * takes that reference over. */
struct dxgk_object *dxgk_handle_find_locked(D3DKMT_HANDLE h, enum dxgk_type type);
struct dxgk_object *dxgk_handle_remove_locked(D3DKMT_HANDLE h, enum dxgk_type type);
/* Removes the handle; returns the object (its reference now belongs to the caller), NULL if
 * the handle is not a live handle of that type. */
struct dxgk_object *dxgk_handle_remove(D3DKMT_HANDLE h, enum dxgk_type type);
/* Looks a published handle up and takes a reference; NULL for stale, forged or wrong-type
 * handles (the caller prints the refusal). */
struct dxgk_object *dxgk_handle_get(D3DKMT_HANDLE h, enum dxgk_type type);
/* Looks up without publishing requirement and without a reference (DxgkCbGetHandleData).
 * Lock-free: checks the slot's state word (generation, type, liveness), never the object. */
struct dxgk_object *dxgk_handle_peek_unpublished(D3DKMT_HANDLE h, enum dxgk_type type);
/* Every live object of a type, each with a reference (process teardown). Caller frees. */
size_t dxgk_handle_collect(enum dxgk_type type, struct dxgk_object ***out, D3DKMT_HANDLE **handles);
void dxgk_handle_table_fini(void);

/* Global handles (dxgkrnl/global_handle.c): process-wide names of shared objects, in Windows'
 * form (0xC0000000 set, low six bits 2), one namespace for every kind. */
D3DKMT_HANDLE dxgk_global_handle_new(void);          /* a fresh number, registering nothing */
bool dxgk_global_handle_is(D3DKMT_HANDLE h);         /* has the global form (maybe stale) */
/* Names obj (no reference held: obj's release calls dxgk_global_unregister). 0: no memory. */
D3DKMT_HANDLE dxgk_global_register(struct dxgk_object *obj);
void dxgk_global_unregister(D3DKMT_HANDLE h);
/* The object h names, with a reference; NULL for a stale, forged or other-kind handle or an
 * object already being released (get-unless-zero). */
struct dxgk_object *dxgk_global_get(D3DKMT_HANDLE h, enum dxgk_type type);

/* Keyed mutexes (objects/keyed_mutex.c). Process teardown destroys every handle left (their
 * blocked acquirers return STATUS_INVALID_PARAMETER). */
void dxgk_keyed_mutexes_destroy_all(void);
/* Test hook: blocks until at least n threads wait in D3DKMTAcquireKeyedMutex(2) on the mutex the
 * handle h names (through any of its handles); FALSE at once for a handle that names none. */
bool dxgk_keyed_mutex_await_waiters(D3DKMT_HANDLE h, UINT n);

/* NT-handle sharing (objects/nt_handle.c; D3DKMTShareObjects). Each holder below is one
 * reference of an NT object on what it shares; the object lives until the last NT handle on it
 * is closed (CloseHandle), however many D3DKMT handles remain. Process teardown closes the NT
 * handles left, before the devices go. */
void dxgk_nt_handles_close_all(void);
/* objects/keyed_mutex.c: the mutex a local handle names, if it was made with NtSecuritySharing,
 * held as one more handle (it keeps opening); NULL otherwise. Release drops that hold. */
struct km_shared;
struct km_shared *dxgk_keyed_mutex_nt_hold(D3DKMT_HANDLE h);
void dxgk_keyed_mutex_nt_release(struct km_shared *km);
/* A new D3DKMT handle on a held mutex (D3DKMTOpenResourceFromNtHandle), with the opener's
 * runtime data as D3DKMTOpenKeyedMutex2 takes it. */
NTSTATUS dxgk_keyed_mutex_nt_open(const char *fn, struct km_shared *km, const void *data, UINT size,
                                  D3DKMT_HANDLE *out);
/* sched/syncobj.c: the shared state of a live local handle of a Shared + NtSecuritySharing
 * object, with a reference; NULL otherwise. Open: a new local handle on it (device 0: no device
 * owns it), 0 without memory. */
struct dxgk_sync_shared;
struct dxgk_sync_shared *dxgk_syncobj_nt_get(D3DKMT_HANDLE h);
D3DKMT_HANDLE dxgk_syncobj_open_shared(struct dxgk_sync_shared *sh, D3DKMT_HANDLE device);

/* ---- VidMm (vidmm/) --------------------------------------------------------------------------- */
struct vidmm_segment {
    UINT id;                     /* 1-based; immutable after start */
    DXGK_SEGMENTDESCRIPTOR desc; /* as the KMD reported it; immutable */
    UINT8 *cpu_base;             /* CPU mapping of a CpuVisible memory segment, else NULL */
    bool aperture;               /* immutable */
    bool cpu_accessible;         /* CPU can reach a placement: CpuVisible memory or aperture */
    UINT64 limit;                /* bytes VidMm may place: CommitLimit or Size; immutable */
    UINT bank_count;             /* UseBanking: NbOfBanks, else 0; immutable */
    UINT64 *bank_end;            /*   ... end offset of banks 1..n-1 (the KMD's pBankRangeTable,
                                    copied: desc.pBankRangeTable is cleared); immutable */
    struct free_ranges holes;    /* the free ranges (common/free_ranges.c); protected by adapter->lock */
    UINT64 bytes_used;           /* protected by adapter->lock */
    UINT32 timeline_track;       /* its counter lane (WDDM_TL_SEGMENT); immutable after start */
    /* Resident instances, least recently used first (vidmm/evict.c); adapter->lock. */
    struct vidmm_instance *lru_head, *lru_tail;
};

struct dxgk_allocation;

/* One instance of an allocation (docs/semantics.md §3.3: renaming gives an allocation several).
 * Every field is protected by adapter->lock unless noted. */
struct vidmm_instance {
    struct vidmm_instance *next;      /* allocation's instance list, oldest first */
    struct vidmm_instance *prev;      /*   ... newest first: resolving an instance handle walks
                                         from the newest, which DMA buffers name (rename.c) */
    struct dxgk_allocation *alloc;    /* immutable */
    UINT segment_id;                  /* 0 = not resident */
    UINT64 offset;                    /* in the segment */
    UINT8 *cpu;                       /* CPU pointer when resident in a CPU-accessible segment */
    void *backing;                    /* page-aligned system-memory backing store: the pages of an
                                         aperture placement, and where an eviction puts the
                                         content; once committed it stays until destruction */
    MDL mdl;                          /* describes backing */
    bool section;                     /* backing is a view of a section (a shared memory object:
                                         memfd), section_fd; a section-backed primary (issue 6) */
    int section_fd;                   /* the section, while `section`; closed with the backing */
    bool evicted;                     /* not resident, content saved in backing (restore with
                                         TRANSFER or MAP, never FILL) */
    bool in_batch;                    /* on a paging batch's stamp list: never an eviction victim,
                                         never freed (vidmm_instance_retired_locked is false) */
    UINT place_mask;                  /* non-zero while one D3DKMTLock places it: only these
                                         segments (AcquireAperture pages it into a memory
                                         segment, vidmm/lock.c); adapter->lock */
    bool evicting;                    /* an eviction of it waits (ALLOCATION_BUSY) with the adapter
                                         lock let go: not a victim, not freed meanwhile */
    UINT held_va_refs;                /* GpuMmu: contexts whose packets held behind a GPU wait may
                                         use it (an Evict or destruction saw them; no allocation
                                         list says): not idle until they are queued and stamped
                                         (vidmm_va_device_use_locked); adapter->lock */
    bool backing_valid;               /* backing holds the current content (restored or saved and
                                         not written since: a DMA buffer with WriteOperation or a
                                         lock without ReadOnly clears it): evicting it is then a
                                         DISCARD_CONTENT, no copy */
    struct vidmm_instance *lru_prev, *lru_next; /* the segment's LRU list while resident */
    UINT64 last_touch;                /* adapter use clock at the last use (LRU across segments) */
    UINT64 last_use[DXGK_MAX_NODES];  /* node ticket of the last packet referencing it */
    UINT64 last_write[DXGK_MAX_NODES];/* node ticket of the last packet writing it */
    UINT64 prior_use[DXGK_MAX_NODES]; /* every other use is at or below it or retired (0: all
                                         retired); see vidmm_stamp_locked */
    UINT64 prior_write[DXGK_MAX_NODES];
    UINT64 prepared_use[DXGK_MAX_NODES]; /* ticket of the last packet made ready for the GPU
                                         (worker prepare or direct submission) referencing it */
    UINT64 paging_fence;              /* paging-node fence of the FILL that zeroed it (CPU waits) */
    UINT64 gpu_fence;                 /* paging-node fence of any op that placed it (GPU waits) */
    bool stamp_fill;                  /* the CPU must wait for the pending batch (FILL, restore,
                                         or placement in a range an eviction of the batch frees) */
    struct vidmm_instance *paging_next; /* pending stamp list of a paging batch */
    bool resident_clean;              /* backing held the content at the last D3DKMTMakeResident
                                         of this instance: D3DKMTEvict with NotWrittenTo may then
                                         discard it (vidmm/makeresident.c) */
    UINT64 next_ref_scan, next_ref;   /* victim choice (vidmm/evict.c): the look at the queued
                                         packets that last saw it, and how many node tickets
                                         ahead its first queued reference was then; adapter->lock */
    /* Instance handles and ordering (vidmm/rename.c, docs/semantics.md §3.3, issue 3). */
    D3DKMT_HANDLE handle;             /* its own handle (0 until a rename hands it out): names this
                                         instance in locks and allocation lists; the allocation's
                                         handle names whichever instance is current */
    UINT64 gen;                       /* rename sequence number when it last became current */
    UINT lock_count;                  /* CPU locks holding a pointer into it (part of the
                                         allocation's lock_count); never evicted or recycled then */
    bool keep;                        /* its last reference asked DoNotRetireInstance: a newer
                                         reference does not retire it, it is not recycled */
    UINT swz_range;                   /* AcquireAperture lock (vidmm/lock.c): 1 + the swizzling
                                         range it holds, 0 = none; adapter->lock */
    bool swz_lock;                    /* locked with AcquireAperture (through a range, or evicted to
                                         system memory at the range limit): no DMA buffer may
                                         reference it until unlocked (docs/semantics.md §3.2 rule 11) */
    UINT swz_private;                 /* D3DDDICB_LOCK.PrivateDriverData of that acquire */
    bool swz_movable;                 /* that lock is UseAlternateVA without DonotEvict (segment
                                         model): VidMm may move the instance under it, each move a
                                         DXGK_OPERATION_SPECIAL_LOCK_TRANSFER naming the range
                                         (vidmm/evict.c, vidmm/residency.c); adapter->lock */
    /* DXGK_ALLOCATIONINFOFLAGS.Swizzled allocations ("Locking Swizzled Allocations"): VidMm
     * tracks which form the backing store holds. adapter->lock. */
    bool unswizzled;                  /* the backing store holds the linear form (an eviction with
                                         DXGK_TRANSFERFLAGS.Unswizzle); a restore goes only into a
                                         memory segment, with Swizzle */
    bool unswizzle;                   /* the next eviction stores it linear (a lock at the range
                                         limit asks; vidmm_evict_instance_locked clears it) */
};

/* A paging batch: paging buffers built for one residency request (vidmm/paging.c). */
struct dxgk_packet;
struct vidmm_paging_batch {
    struct dxgk_adapter *adapter;
    struct dxgk_packet *pkt;          /* current paging buffer or NULL */
    UINT64 fence;                     /* last paging fence submitted by this batch */
    struct vidmm_instance *stamp;     /* instances to stamp with the final fence */
    bool evicted;                     /* an eviction freed ranges: every later placement of the
                                         batch waits for the batch's fence (GPU and CPU) */
};

/* ---- scheduler (sched/) ---------------------------------------------------------------------- */
struct dxgk_context;

/* One DMA buffer (render) or paging buffer on its way to the GPU. A packet is owned by the
 * list it is on: a context pool or queue and the adapter's paging pool (adapter->lock), a
 * node's in-flight or retired list (node->lock), or the one thread that took it off one
 * (D3DKMTRender while building it, the node worker between pick and submit). */
struct dxgk_packet {
    struct dxgk_packet *next;         /* context queue, pool, in-flight or retired list */
    struct dxgk_context *ctx;         /* NULL for paging buffers; immutable */
    UINT node;                        /* immutable */
    bool paging;                      /* immutable */
    bool ctx_switch;                  /* a zero-length switch to the null context (sched/switch.c):
                                         a paging-pool packet submitted with
                                         DXGK_SUBMITCOMMANDFLAGS.ContextSwitch; set once taken */
    bool dropped;                     /* residency failed: not submitted (protected by adapter->lock) */
    UINT64 ticket;                    /* node ticket (render only; 0 for paging) */
    UINT64 fence;                     /* 64-bit SubmissionFenceId, set at submit */
    UINT64 queued_ts;                 /* wddm_tl_now() when it joined its context's software queue
                                         (0: the timeline was off, or it went straight to the GPU) */
    INT priority;                     /* its context's priority when it was submitted */
    bool resubmit;                    /* preempted or behind a reset: DXGK_SUBMITCOMMANDFLAGS.Resubmission */
    bool hw_slot;                     /* holds one of the node's hw_count places; node->lock */
    bool started;                     /* its START event was traced; node->lock */
    /* DMA-buffer splitting (vidmm/split.c): while `split`, gsched_submit_locked submits bytes
     * [sub_start, sub_end) with patch entries [patch_start, +patch_len); a `part` that is not
     * the last is not put on the in-flight list (the worker waits for its fence). */
    bool split, part;
    UINT sub_start, sub_end, patch_start, patch_len;
    UINT64 *saved_use;                /* prepared_use of each allocation before prepare
                                         (capacity = AllocationListSize); worker only */
    UINT8 *dma;                       /* system memory, page aligned */
    UINT dma_capacity;
    UINT dma_used;
    UINT8 *priv;
    UINT priv_size;
    UINT alloc_count;
    DXGK_ALLOCATIONLIST *alloc_list;  /* capacity = context AllocationListSize */
    struct vidmm_instance **inst;     /* the snapshot taken at D3DKMTRender */
    UINT patch_count;
    D3DDDI_PATCHLOCATIONLIST *patch;  /* capacity = context PatchLocationListSize */
    /* Held behind a GPU wait (sched/syncobj.c): no ticket yet; the allocations (one reference
     * each, capacity = AllocationListSize) are resolved to their current instances when the
     * wait is satisfied. adapter->lock. */
    struct dxgk_allocation **held_alloc;
    UINT64 wait_seq;                  /* the context's GPU waits this packet comes after */
    UINT64 hold_seq;                  /* order among the context's held packets and signals */
    /* GpuMmu model (sched/submit_virtual.c): a D3DKMTSubmitCommand packet has no DMA buffer of
     * its own and no lists; the engine fetches dma_used bytes at this GPU VA through the MMU
     * (DxgkDdiSubmitCommandVirtual). Set while the packet is built; immutable after. */
    bool virt;
    D3DGPU_VIRTUAL_ADDRESS va;
};

#define GSCHED_TICKET_WINDOW 4096u
#define GSCHED_GATE_PREEMPT 1u
#define GSCHED_GATE_RESET 2u

struct gsched_node {
    struct dxgk_adapter *adapter;     /* immutable */
    UINT ordinal;                     /* immutable */
    pthread_t thread;
    bool thread_started;              /* set before/after the thread runs; start/stop only */
    pthread_mutex_t lock;
    pthread_cond_t done_cond;         /* broadcast when fences complete; waits on node->lock */
    pthread_cond_t work_cond;         /* worker wake-up; waits on node->lock */
    UINT pending;                     /* packets queued, not yet taken; protected by node->lock */
    bool stop;                        /* protected by node->lock */
    struct dxgk_packet *inflight, *inflight_tail; /* submitted, fence order; node->lock */
    struct dxgk_packet *retired;      /* completed, to recycle; protected by node->lock */
    UINT retired_count;               /* packets on retired; protected by node->lock */
    UINT idle_waiters;                /* threads in gsched_wait_node_idle; protected by node->lock */
    UINT direct_claims;               /* D3DKMTRender submitting directly (0 or 1); node->lock */
    bool release_waits;               /* a GPU wait of a context of this node was satisfied:
                                         the worker releases held packets; node->lock */
    _Atomic UINT64 completed_fence;   /* written under node->lock, read lock-free */
    _Atomic UINT64 retired_ticket;    /* written under node->lock, read lock-free */
    _Atomic UINT isr_fence;           /* last DMA_COMPLETED fence from the ISR */
    pthread_mutex_t submit_lock;
    UINT64 submitted_fence;           /* protected by submit_lock (read also under node->lock) */
    _Atomic D3DKMT_HANDLE hw_context; /* lazy context switching (seed 000): the context whose DMA
                                         buffer was last placed in the hardware queue, 0 before the
                                         first; a handle, not a pointer, so a context created at a
                                         freed one's address is still "another context";
                                         written under submit_lock; read lock-free by the
                                         context-allocation eviction rule (seq_cst) */
    struct dxgk_context *hw_ctx;      /* the context of hw_context (NULL with 0): a context is never
                                         destroyed while loaded (gsched_unload_context);
                                         submit_lock */
    UINT64 queued_ticket;             /* protected by adapter->lock */
    struct dxgk_context *contexts;    /* contexts on this node; protected by adapter->lock */
    struct gsched_gpu_signal *signals; /* GPU signals waiting for a ticket to retire
                                          (sched/syncobj.c); protected by node->lock */
    /* Hardware queue depth (issue 4): render packets reserved for or in the hardware queue, at
     * most hw_queue_cap (DXGK_VIDSCHCAPS.HwQueuePacketCap). Paging buffers are not counted:
     * VidMm submits them under the adapter lock, never held across a wait for the GPU.
     * node->lock. */
    UINT hw_count;
    UINT hw_queue_cap;                /* immutable after start */
    /* Tickets retire out of order once priorities reorder the queue (sched/preempt.c):
     * retired_ticket is the watermark below which every ticket retired; the bitmap remembers
     * the ones retired above it, GSCHED_TICKET_WINDOW at most. node->lock. */
    _Atomic UINT64 ticket_bits[GSCHED_TICKET_WINDOW / 64]; /* also read lock-free (gsched_ticket_done) */
    /* The gate (sched/preempt.c): closed while a preemption or an engine reset owns the node's
     * hardware queue; nothing is submitted to the node meanwhile. Changed under submit_lock
     * and node->lock, read under either. */
    UINT gate;                        /* 0 open, else GSCHED_GATE_PREEMPT / GSCHED_GATE_RESET */
    bool gate_closing;                /* no new direct claims; node->lock */
    bool preempt_answered;            /* DMA_PREEMPTED arrived (or a reset answered it); node->lock */
    UINT64 preempt_fence;             /* the pending request's fence; node->lock */
    UINT64 preempt_last_completed;    /* the answer's LastCompletedFenceId, extended; node->lock */
    bool preempt_checked;             /* the worker found nothing to preempt for what is queued;
                                         cleared by new packets and priority changes; node->lock */
    UINT64 preemptions;               /* preemptions answered; node->lock */
    UINT64 kick_gen;                  /* bumped whenever packets join the queues; node->lock */
    atomic_bool splitting;            /* the worker submits a DMA buffer in parts: no preemption */
};

/* ---- kernel objects (objects/) -------------------------------------------------------------- */
struct dxgk_counters {
    atomic_ullong dma_buffers_submitted, paging_buffers_submitted, fences_retired,
        allocations_created, allocations_destroyed, locks, lock_waits, lock_wait_ns,
        lock_still_drawing, renames, bytes_paged_in, bytes_paged_out, evictions, context_switches,
        preemptions, engine_resets, adapter_resets, dma_buffer_splits, adapter_stops, null_context_switches,
        allocations_purged, paging_multipass, page_table_updates, mid_buffer_preemptions,
        context_allocations_created, context_allocation_evictions;
};
#define DXGK_COUNT(a, field, n) atomic_fetch_add_explicit(&(a)->counters.field, (n), memory_order_relaxed)

/* Both begin with the platform's imports, which a KMD module's displib calls through
 * (src/displib/platform.h). */
struct _DEVICE_OBJECT {                /* the physical device object */
    const struct wddm_platform_imports *imports;
    struct dxgk_adapter *adapter;
};
struct _DRIVER_OBJECT {
    const struct wddm_platform_imports *imports;
    DRIVER_INITIALIZATION_DATA ddi;   /* filled by DxgkInitialize */
    bool registered;
    const struct wddm_platform_exports *exports; /* a module's displib's (NULL: linked in) */
};
/* The module's IRQL around the code Windows runs raised (displib's SetIrql; nothing for a KMD
 * linked into libwddm, which has no IRQL of its own). */
static inline void dxgk_driver_set_irql(const struct _DRIVER_OBJECT *driver, BYTE irql)
{
    if (driver->exports && driver->exports->SetIrql)
        driver->exports->SetIrql(irql);
}

/* Deferred destruction of allocations (objects/allocation.c). Protected by adapter->lock. */
struct dxgk_deferred {
    struct dxgk_deferred *next;
    struct dxgk_device *device;
    struct dxgk_resource *resource;   /* destroyed with its allocations, or NULL */
    bool counted;                     /* in device->deferred_count until freed */
    bool heap;                        /* malloc'ed (else the caller's stack storage) */
    bool released;                    /* VidMm part already freed under the adapter lock */
    UINT count;
    struct dxgk_allocation *allocs[]; /* each holds the reference its handle held */
};

/* Calls a lower room of the kernel makes up into a higher one (issue 16 §1). The rooms have
 * an order - the base, sched/, vidmm/, objects/ (src/layers.txt) - and a room calls only the
 * rooms below it by name; what the scheduler needs of VidMm (and both of deferred destruction)
 * goes through these pointers, the way the DRM scheduler reaches its driver through
 * drm_sched_backend_ops. objects/adapter.c fills them for every adapter; each slot names the
 * function behind it. */
struct vidmm_root_ref;
struct dxgk_upcalls {
    /* The node worker picked p (sched/node.c): its allocations and its context's context
     * allocations resident, its allocation list located; *paging_fence the paging fence it waits
     * for (0: none); a virtual packet (GpuMmu) gets the current root page table in *root.
     * STATUS_NO_MEMORY: they do not fit together. Adapter lock held.
     * (vidmm/packet.c vidmm_packet_prepare_locked) */
    NTSTATUS (*prepare_packet_locked)(struct dxgk_adapter *a, struct dxgk_packet *p, UINT64 *paging_fence,
                                      struct vidmm_root_ref *root);
    /* p does not fit whole: submitted in parts at the KMD's SplitOffsets (docs/semantics.md
     * §9.1). Adapter lock held on entry and return, let go meanwhile; STATUS_SUCCESS: every part
     * submitted. (vidmm/split.c vidmm_split_submit_locked) */
    NTSTATUS (*split_submit_locked)(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p);
    /* Before c's packet is submitted, no lock held: the root page table that grew since its
     * last packet. (vidmm/vaspace.c vidmm_va_switch_root) */
    void (*switch_root)(struct dxgk_adapter *a, struct dxgk_context *c, const struct vidmm_root_ref *r);
    /* A held packet took its ticket: its allocations' current instances located and stamped.
     * Adapter lock held. (vidmm/packet.c vidmm_packet_ticketed_locked) */
    void (*packet_ticketed_locked)(struct dxgk_adapter *a, struct dxgk_packet *p);
    /* GpuMmu: every held packet of c was queued (true) or dropped (false). Adapter lock held.
     * (vidmm/vaspace.c vidmm_va_held_done_locked) */
    void (*held_done_locked)(struct dxgk_context *c, bool queued);
    /* A paging-pool packet, for a switch to the null context; NULL when none can be had.
     * Adapter lock held. (vidmm/pagingqueue.c vidmm_paging_packet_get_locked) */
    struct dxgk_packet *(*paging_packet_get_locked)(struct dxgk_adapter *a);
    /* After an engine reset: every allocation out of its segment; returns how many. No lock
     * held. (vidmm/purge.c vidmm_purge_after_reset) */
    UINT64 (*purge_after_reset)(struct dxgk_adapter *a);
    /* The deferred destructions whose allocations became idle, freed. No lock held.
     * (objects/allocation.c dxgk_deferred_process) */
    void (*deferred_process)(struct dxgk_adapter *a, struct dxgk_device *only, bool wait);
};

struct dxgk_adapter {
    struct dxgk_object obj;
    const struct dxgk_upcalls *up;    /* immutable (objects/adapter.c) */
    struct dxgk_adapter *next;        /* process adapter list; protected by process.lock */
    bool listed;                      /* protected by process.lock */
    DEVICE_OBJECT pdo;                /* immutable */
    DRIVER_OBJECT driver;             /* immutable after start */
    PVOID miniport;                   /* the KMD's hAdapter; immutable after start */
    LUID luid;                        /* immutable */
    char *umd_name;                   /* the UMD module serving it (WDDM_UMD), NULL: the built-in
                                         reference UMD; immutable (objects/driver_load.c) */
    char *kmd_name;                   /* its KMD as reports name it (a module path, an in-process
                                         entry), NULL: the built-in reference KMD; immutable */
    DXGK_DRIVERCAPS caps;             /* immutable after start */
    /* Swizzling ranges (vidmm/lock.c, DxgkDdiAcquireSwizzlingRange): the instance holding each of
     * the first min(NumberOfSwizzlingRanges, DXGK_MAX_SWIZZLING_RANGES); adapter->lock. */
    struct vidmm_instance *swz_owner[DXGK_MAX_SWIZZLING_RANGES];
    UINT64 features;                  /* OS feature set, bit = DXGK_FEATURE_ID (dxgkrnl/feature.c);
                                         set before DxgkDdiStartDevice, immutable after */
    _Atomic UINT64 features_granted;  /* seed 002: the features THIS KMD asked about through
                                         DxgkCbQueryFeatureSupport / DxgkCbIsFeatureEnabled and was
                                         answered Enabled TRUE (the last answer per feature
                                         counts); cleared before DxgkDdiStartDevice, then updated
                                         lock-free from the callbacks (dxgkrnl/feature.c) */
    UINT segment_count;
    struct vidmm_segment seg[DXGK_MAX_SEGMENTS];
    UINT paging_buffer_size, paging_priv_size;
    UINT node_count, paging_node;
    struct gsched_node node[DXGK_MAX_NODES];
    HANDLE kmd_system_device, kmd_system_context;

    pthread_mutex_t lock;             /* the adapter lock (see top of file) */
    struct dxgk_deferred *deferred;   /* protected by adapter->lock */
    struct dxgk_packet *paging_pool;  /* free paging buffers; protected by adapter->lock */
    atomic_uint paging_out;           /* paging buffers taken from the pool and not back yet
                                       * (vidmm/paging.c; read lock-free by vidmm_paging_wait_room) */
    struct vidmm_retiring *retiring;  /* backing stores waiting for the UNMAP of their aperture
                                         range (vidmm/placement.c); adapter->lock */
    UINT64 use_clock;                 /* VidMm's LRU clock; protected by adapter->lock */
    _Atomic UINT64 deferred_count;    /* entries on a->deferred; written under adapter->lock, read
                                       * lock-free by the DPC (sched/interrupt.c) */
    pthread_cond_t deferred_cond;     /* a counted entry was freed; waits on adapter->lock */
    pthread_cond_t held_cond;         /* held DMA buffers were released or dropped; adapter->lock */

    pthread_mutex_t interrupt_lock;   /* the interrupt level */
    pthread_mutex_t dpc_lock;         /* DPCs of one adapter never run concurrently */
    atomic_bool dpc_queued;
    struct dxgk_counters counters;
    /* Timeout detection and recovery (sched/tdr.c). */
    UINT tdr_delay_ms;                /* WDDM_TDR_DELAY_MS, default 2000; immutable after start */
    pthread_t tdr_thread;
    bool tdr_started;                 /* start/stop only */
    pthread_mutex_t tdr_lock;
    pthread_cond_t tdr_cond;
    bool tdr_stop;                    /* tdr_lock */
    bool tdr_forced;                  /* tdr_lock: a D3DKMT_TDRDBGCTRLTYPE_FORCETDR to carry out */
    UINT tdr_forced_engines;          /* tdr_lock: nodes (bit ordinal) of ENGINETDRs to carry out */
    _Atomic UINT tdr_count;           /* recoveries done (engine or adapter) */
    /* The TDR limits (sched/tdr.c): more than tdr_limit_count adapter timeouts within
     * tdr_limit_ms and the adapter is stopped instead of recovered. */
    UINT tdr_limit_count;             /* WDDM_TDR_LIMIT_COUNT (TdrLimitCount), default 5; immutable
                                         after start */
    UINT64 tdr_limit_ms;              /* WDDM_TDR_LIMIT_TIME_S (TdrLimitTime) in ms, default 60 s;
                                         immutable after start */
    UINT64 tdr_times[DXGK_TDR_LIMIT_MAX]; /* when the last adapter timeouts were recovered (ms of
                                         the limit clock), a ring; the watchdog thread only */
    UINT tdr_times_next, tdr_times_count; /* the ring's next slot and fill; the watchdog thread only */
    bool tdr_stopped;                 /* past the limits: no device or context is created on the
                                         adapter again (its devices are lost); adapter->lock */
    struct vidmm_gpummu *mmu;         /* GpuMmu model state (vidmm/vaspace.c), NULL on a WDDM 1.x
                                         adapter; set at start, immutable pointer */
    UINT64 reservation[2];            /* D3DKMTChangeVideoMemoryReservation, per
                                         D3DKMT_MEMORY_SEGMENT_GROUP (vidmm/reservation.c); lock */
    UINT64 external[2];               /* other processes' use of each group, lowering this
                                         process's budget (vidmm/process_budget.c); lock */
};

struct dxgk_device {
    struct dxgk_object obj;
    struct dxgk_adapter *adapter;     /* holds a reference; immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    HANDLE kmd;                       /* the KMD's hDevice; immutable */
    bool dead;                        /* destroyed; protected by adapter->lock */
    NTSTATUS error;                   /* why the device is lost (STATUS_SUCCESS while it is not):
                                         set once, by dxgk_device_set_error_locked under
                                         adapter->lock (a relaxed atomic store); read under it,
                                         or lock-free with a relaxed atomic load where a stale
                                         "not lost" only delays a refusal to the next check
                                         (sched/queue.c's queue-depth wait, objects/share.c,
                                         objects/allocation.c) */
    D3DKMT_DEVICEEXECUTION_STATE exec_state; /* D3DKMTGetDeviceState's answer while error is set
                                         (HUNG, RESET, ERROR_OUTOFMEMORY...); adapter->lock */
    struct dxgk_context *contexts;    /* protected by adapter->lock */
    struct dxgk_allocation *allocations; /* live (not destroyed) ones; adapter->lock */
    UINT deferred_count;              /* deferred entries of this device not yet freed (on
                                         the list or being freed); adapter->lock */
    struct dxgk_context_allocation *context_allocations; /* device context allocations
                                         (vidmm/context_allocation.c); adapter->lock */
    /* The last GPU page fault of one of its packets (DMA_PAGE_FAULTED, sched/interrupt.c):
     * written at interrupt level under the faulting node's lock, then `faulted` set (release);
     * the device is put in error from it under the adapter lock (dxgk_device_fault_sync_locked). */
    D3DKMT_DEVICEPAGEFAULT_STATE fault;
    atomic_bool fault_claimed;        /* the first fault claims `fault` (faults of two nodes race) */
    atomic_bool faulted;
};

struct dxgk_context {
    struct dxgk_object obj;
    struct dxgk_device *device;       /* immutable; the device outlives its contexts */
    D3DKMT_HANDLE handle;             /* immutable */
    HANDLE kmd;                       /* the KMD's hContext; immutable */
    UINT node;                        /* immutable */
    DXGK_CONTEXTINFO info;            /* immutable */
    UINT8 *cmd;                       /* command buffer given to the UMD; immutable */
    UINT cmd_size;
    D3DDDI_ALLOCATIONLIST *alloc_list;
    UINT alloc_list_size;
    D3DDDI_PATCHLOCATIONLIST *patch_list;
    UINT patch_list_size;
    bool dead;                        /* protected by adapter->lock */
    INT priority;                     /* D3DKMTSetContextSchedulingPriority, -7..7, 0 at creation;
                                         adapter->lock */
    struct dxgk_context *dev_next;    /* device->contexts; adapter->lock */
    struct dxgk_context *node_next;   /* node->contexts; adapter->lock */
    struct dxgk_packet *queue, *queue_tail; /* software queue; adapter->lock */
    struct dxgk_packet *pool;         /* recycled packets + DMA buffers; adapter->lock */
    UINT64 last_ticket;               /* last packet queued; adapter->lock */
    atomic_uint queued;               /* queued, held or in flight, not retired */
    struct gsched_gpu_wait *waits, *waits_tail; /* GPU waits not yet passed, in order; adapter->lock */
    struct dxgk_packet *held, *held_tail; /* packets behind a GPU wait; adapter->lock */
    struct vidmm_instance **va_stamp; /* GpuMmu: instances to stamp with last_ticket once no
                                         packet is held any more (vidmm_va_device_use_locked);
                                         each holds a held_va_refs; adapter->lock */
    UINT va_stamp_count, va_stamp_cap;
    UINT64 wait_seq;                  /* GPU waits recorded; adapter->lock */
    UINT64 waits_done;                /* GPU waits passed (in order); adapter->lock */
    struct gsched_gpu_signal *held_signals, *held_signals_tail; /* GPU signals behind a GPU wait
                                         or a held packet; adapter->lock */
    UINT64 hold_seq;                  /* last hold_seq given; adapter->lock */
    struct dxgk_context_allocation *context_allocations; /* GPU context allocations
                                         (vidmm/context_allocation.c); adapter->lock */
    _Atomic UINT64 save_fence;        /* lazy switching (sched/switch.c): fence on its node of the
                                         buffer that switched the node away from it, which saves its
                                         state (0: never switched away); written under the node's
                                         submit_lock, read lock-free (seq_cst) */
    UINT64 root_gen;                  /* GpuMmu: the root page table generation the KMD was last
                                         given for it (DxgkDdiSetRootPageTable); its node's worker
                                         only, after creation (vidmm/vaspace.c) */
};

/* A context allocation (DxgkCbCreateContextAllocation, seed 000, docs/semantics.md §1): created by
 * the KMD for a non-system context (GPU context allocation) or device (device context
 * allocation). The handle's reference owns it; it is on exactly one owner list while its
 * handle lives. */
struct dxgk_context_allocation {
    struct dxgk_object obj;
    struct dxgk_adapter *adapter;     /* immutable; outlives every device */
    struct dxgk_device *device;       /* the owning device (no reference: the device destroys its
                                         context allocations before it goes); immutable */
    struct dxgk_context *context;     /* the owning context, NULL for a device context allocation;
                                         same lifetime rule; immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    DXGKARGCB_CREATECONTEXTALLOCATION args; /* the verified creation parameters as the KMD gave
                                         them (hAllocation = handle); immutable */
    UINT priority;                    /* D3DDDI_ALLOCATIONPRIORITY_HIGH (§1.2 invariant 6); immutable */
    struct dxgk_allocation *vm;       /* its VidMm object (placement, eviction, paging with
                                         info.hAllocation = hDriverAllocation); one reference;
                                         immutable */
    void *kernel_va;                  /* Destination.VirtualAddress of INIT_CONTEXT_RESOURCE: the
                                         backing store when CpuVisible + Protected + aperture-only
                                         (docs/semantics.md §1.3), else NULL; valid for its life;
                                         immutable */
    bool initialized;                 /* INIT_CONTEXT_RESOURCE built (once); adapter->lock */
    struct dxgk_context_allocation *owner_next; /* owner's list; adapter->lock */
};

struct dxgk_resource {
    struct dxgk_object obj;
    struct dxgk_device *device;       /* immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    HANDLE kmd;                       /* the KMD's hResource; immutable after creation */
    struct dxgk_allocation *allocations; /* members; protected by adapter->lock */
    bool dead;                        /* protected by adapter->lock */
};

struct dxgk_allocation {
    struct dxgk_object obj;
    struct dxgk_device *device;       /* immutable */
    struct dxgk_resource *resource;   /* immutable (holds no reference) */
    D3DKMT_HANDLE handle;             /* immutable */
    DXGK_ALLOCATIONINFO info;         /* the verified creation parameters; immutable */
    HANDLE kmd_device_specific;       /* DxgkDdiOpenAllocation's handle; immutable */
    bool dead;                        /* destroyed by the app; protected by adapter->lock */
    struct vidmm_instance *current;   /* protected by adapter->lock */
    struct vidmm_instance *instances; /* oldest first; protected by adapter->lock */
    struct vidmm_instance *instances_tail; /* newest; protected by adapter->lock */
    UINT instance_count;              /* protected by adapter->lock */
    UINT lock_count;                  /* protected by adapter->lock */
    UINT held_refs;                   /* DMA buffers held behind a GPU wait that name it: they take
                                         their instance when released (sched/queue.c), so a lock
                                         waits for them first (vidmm/lock.c); adapter->lock */
    bool primary;                     /* D3DDDI_ALLOCATIONINFO.Flags.Primary: never renamed (§3.2),
                                         placed by the NonCpuVisiblePrimary rule; immutable */
    bool kmd_backing;                 /* Flags2.ShareBackingStoreWithKmd: first.backing was handed
                                         to the KMD at creation; never renamed (seed 002); immutable */
    UINT resident_refs;               /* D3DKMTMakeResident minus D3DKMTEvict: the current instance
                                         is not evicted while > 0 (vidmm/makeresident.c); adapter->lock */
    UINT priority;                    /* D3DDDI_ALLOCATIONPRIORITY_*: eviction order (lower goes
                                         first; D3DKMTSetAllocationPriority); adapter->lock */
    UINT offer_priority;              /* D3DKMT_OFFER_PRIORITY while offered (AUTO as NORMAL), 0
                                         when not: offered ones are the first victims and lose
                                         their content (vidmm/offer.c); adapter->lock */
    bool discarded;                   /* offered content dropped since the offer; adapter->lock */
    UINT64 unmap_fence;               /* paging fence of the UNMAP_APERTURE_SEGMENT of its last
                                         aperture range, issued at destruction: a backing store
                                         shared with the KMD is freed only once it passed;
                                         adapter->lock */
    struct dxgk_allocation *dev_next; /* device->allocations (doubly linked: unlinked in O(1) at
                                         destruction); adapter->lock */
    struct dxgk_allocation *dev_prev;
    struct dxgk_allocation *res_next; /* resource->allocations; adapter->lock */
    struct vidmm_instance first;      /* storage of the first instance */
    UINT64 gen_seq;                   /* last vidmm_instance.gen handed out; adapter->lock */
    UINT64 retired_below;             /* instance-ordering invariant (docs/semantics.md §3.3): a DMA
                                         buffer referenced the instance of this gen, so every older
                                         instance without `keep` is retired for references;
                                         adapter->lock (vidmm/rename.c) */
    struct vidmm_mapping *mappings;   /* its GPU VA mappings (GpuMmu, vidmm/vaspace.c); adapter->lock */
    struct dxgk_share *share;         /* its global share (CreateShared), one reference; NULL
                                         otherwise (objects/share.c); immutable */
    bool opened;                      /* opened from another adapter's cross-adapter resource
                                         (D3DKMTOpenResource): DxgkDdiCloseAllocation releases the
                                         KMD's object, no DxgkDdiDestroyAllocation; immutable */
    struct dxgk_allocation *alias;    /* a same-adapter open (objects/share.c): the creator's
                                         allocation whose memory (instances, placement, locks)
                                         this handle names, one object reference; this object
                                         then has no instance of its own; NULL otherwise; immutable */
    struct dxgk_allocation *aliases;  /* the live same-adapter opens naming this one's memory
                                         (alias_next); adapter->lock */
    struct dxgk_allocation *alias_next; /* alias->aliases; adapter->lock */
    bool orphan;                      /* destroyed by its creator while opens named it: not dead,
                                         its memory stays until the last open goes too; adapter->lock */
    bool orphan_entry_done;           /* the creator's deferred entry ran; adapter->lock */
    UINT nt_holds;                    /* NT objects holding its memory (objects/share.c,
                                         D3DKMTShareObjects): an orphan too; adapter->lock */
    struct dxgk_context_allocation *ctx_owner; /* the context allocation this VidMm object
                                         belongs to (no handle, not on device->allocations:
                                         vidmm/context_allocation.c), NULL for the
                                         application's; immutable */
};

/* lookup.c */
struct dxgk_adapter *dxgk_adapter_get(D3DKMT_HANDLE h);
void dxgk_adapter_put(struct dxgk_adapter *a);
struct dxgk_device *dxgk_device_get(D3DKMT_HANDLE h);
void dxgk_device_put(struct dxgk_device *d);
/* objects/device.c */
NTSTATUS dxgk_device_destroy(struct dxgk_device *d, D3DKMT_HANDLE h);
/* Puts the device in error (the first cause sticks): every later D3DKMT call on it fails with
 * `st` and its queued work is dropped. Returns true if this call lost it. Adapter lock held.
 * The caller then signals its monitored fences with dxgk_syncobj_signal_max_device (no lock
 * held) when recovery requires it (docs/semantics.md §8.3). (sched/tdr.c) */
bool dxgk_device_set_error_locked(struct dxgk_device *d, NTSTATUS st, D3DKMT_DEVICEEXECUTION_STATE state);
/* objects/context.c */
void dxgk_context_destroy(struct dxgk_context *c);
/* lookup.c: an allocation object's release (the put of the memory an opened handle names) */
void dxgk_allocation_release(struct dxgk_object *obj);
/* objects/allocation.c */
void dxgk_deferred_process(struct dxgk_adapter *a, struct dxgk_device *only, bool wait);
/* Room for DXGK_DEFERRED_STACK allocations on the caller's stack: an idle list is freed
 * without a heap entry (the CreateBuffer+Release path). */
#define DXGK_DEFERRED_STACK 8u
union dxgk_deferred_stack {
    struct dxgk_deferred e;
    unsigned char bytes[sizeof(struct dxgk_deferred) + DXGK_DEFERRED_STACK * sizeof(struct dxgk_allocation *)];
};
/* The device's list of its allocations (adapter->lock): linked at creation or open, unlinked
 * once at destruction (a no-op for one not on it). */
void dxgk_device_link_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al);
void dxgk_device_unlink_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al);
NTSTATUS dxgk_allocation_destroy_list_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                              struct dxgk_resource *res, struct dxgk_allocation **allocs,
                                              UINT count, struct dxgk_deferred *e,
                                              struct dxgk_deferred **out_now);
/* The entry dxgk_allocation_destroy_list_locked will need for these allocations of dev, taken
 * before their handles are removed, so that running out of memory destroys nothing: the
 * caller's stack storage when the list is idle, else the heap; NULL when out of memory (also
 * for the GpuMmu room vidmm_va_reserve_held_locked makes). Adapter lock held from here to the
 * destroy. */
struct dxgk_deferred *dxgk_deferred_entry_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                                struct dxgk_allocation *const *allocs, UINT count,
                                                union dxgk_deferred_stack *stack);
void dxgk_deferred_free_now(struct dxgk_adapter *a, struct dxgk_deferred *d);

/* lookup.c: an allocation handle of device d (or of any device when d is NULL) resolved to the
 * allocation whose memory it names, with one reference: a same-adapter open's handle names its
 * creator's allocation (objects/share.c). *device_specific (optional) gets the handle's own
 * DxgkDdiOpenAllocation handle, the one d's allocation lists carry. NULL: no such handle. */
struct dxgk_allocation *dxgk_allocation_get(D3DKMT_HANDLE h, const struct dxgk_device *d, HANDLE *device_specific);
/* The same with the handle table locked (dxgk_handle_lock), for a caller resolving several. */
struct dxgk_allocation *dxgk_allocation_get_locked(D3DKMT_HANDLE h, const struct dxgk_device *d,
                                                   HANDLE *device_specific);
/* Device hDevice (*d, with a reference; NULL if invalid) and its allocation handle h, resolved
 * under one handle-table lock (the D3DKMTLock / D3DKMTUnlock fast path). */
struct dxgk_allocation *dxgk_device_allocation_get(D3DKMT_HANDLE hDevice, D3DKMT_HANDLE h, struct dxgk_device **d);

/* objects/standard_allocation.c (issue 6, seed 003: a cross-adapter resource "created as a
 * standard allocation from kernel mode and later opened by the UMD"): the kernel's own
 * cross-adapter surface, as dxgkrnl makes it for the hybrid present path. The KMD of hDevice's
 * adapter describes it (DxgkDdiGetStandardAllocationDriverData, D3DKMDT_STANDARDALLOCATION_
 * GDISURFACE of type D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER); it is created on hDevice through
 * the usual D3DKMTCreateAllocation path (CrossAdapter + CreateShared + CreateResource). Out:
 * the global share handle any adapter's device opens with D3DKMTOpenResource, the resource and
 * allocation handles (of hDevice, destroyed like any) and the KMD's pitch (optional outputs may
 * be NULL). pPrivateRuntimeData: what the runtime that will open it needs (D3D11: its
 * description, src/runtime/runtime.h struct rt_shared_runtime_data), stored like a UMD-made
 * resource's; may be NULL. No D3DKMT thunk exists for it: it is the kernel's. */
NTSTATUS dxgk_create_standard_cross_adapter(D3DKMT_HANDLE hDevice, UINT width, UINT height, D3DDDIFORMAT format,
                                            const void *pPrivateRuntimeData, UINT PrivateRuntimeDataSize,
                                            D3DKMT_HANDLE *hGlobalShare, D3DKMT_HANDLE *hResource,
                                            D3DKMT_HANDLE *hAllocation, UINT *pitch);

/* objects/share.c: global share handles and cross-adapter resources (issue 6, seed 003) */
struct dxgk_share;
/* The creator's allocation, named by same-adapter opens of the share (set before publish). */
void dxgk_share_set_owner(struct dxgk_share *s, struct dxgk_allocation *owner);
/* Its memory is gone: the share no longer opens on the creator's adapter. */
void dxgk_share_clear_owner(struct dxgk_share *s, const struct dxgk_allocation *owner);
/* Releases what a same-adapter open named (objects/share.c), from its deferred entry, without
 * the adapter lock, after its DxgkDdiCloseAllocation. */
void dxgk_share_alias_release(struct dxgk_adapter *a, struct dxgk_allocation *y);
/* The memory of an allocation its creator destroyed while opens named it (objects/allocation.c). */
void dxgk_allocation_orphan_free(struct dxgk_adapter *a, struct dxgk_allocation *x);
/* Whether nothing links to orphan x any more (its creator's deferred entry ran, no open aliases
 * it, no NT object holds it); then it is marked dead, under the lock that decided it, and the
 * caller frees it with dxgk_allocation_orphan_free once the lock is dropped. adapter->lock
 * (objects/share.c). */
bool dxgk_orphan_unlinked_locked(struct dxgk_allocation *x);
NTSTATUS dxgk_share_create(struct dxgk_adapter *a, const D3DKMT_CREATEALLOCATION *args, const DXGK_ALLOCATIONINFO *info,
                           bool cross_adapter, struct dxgk_share **out);
D3DKMT_HANDLE dxgk_share_publish(struct dxgk_share *s);
void dxgk_share_put(struct dxgk_share *s);
/* A cross-adapter share's pages (and the share) outlive a hold, though its global handle goes
 * with its last reference: an adapter holds them until its UNMAP of them ran. */
void dxgk_share_pages_hold(struct dxgk_share *s);
void dxgk_share_pages_release(struct dxgk_share *s);
void dxgk_share_attach(struct dxgk_share *s, struct vidmm_instance *in);
void dxgk_share_detach(struct vidmm_instance *in);
bool dxgk_share_is_cross_adapter(const struct dxgk_share *s);
/* NT-handle sharing of a resource (CreateShared + NtSecuritySharing: the share is never
 * published under a global handle). nt_hold: from a live resource handle, the share and its
 * creator's memory held for an NT object (the creator's allocation then outlives its handles
 * as it does for same-adapter opens: orphan); STATUS_INVALID_PARAMETER for an allocation handle,
 * a resource not shared by NT handle, or a stale handle. nt_release undoes it. */
struct dxgk_share_nt_hold {
    struct dxgk_share *share;
    struct dxgk_adapter *adapter;     /* the creator's, one object reference */
    struct dxgk_allocation *owner;    /* the creator's allocation, one object reference and one
                                         nt_holds count */
};
NTSTATUS dxgk_share_nt_hold(D3DKMT_HANDLE hResource, struct dxgk_share_nt_hold *out);
void dxgk_share_nt_release(struct dxgk_share_nt_hold *h);
/* D3DKMTQueryResourceInfoFromNtHandle / D3DKMTOpenResourceFromNtHandle's resource part: as
 * D3DKMTQueryResourceInfo / D3DKMTOpenResource2 with the held share instead of a global one. */
NTSTATUS dxgk_share_nt_query(const char *fn, D3DKMT_HANDLE hDevice, struct dxgk_share *s,
                             D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE *args);
NTSTATUS dxgk_share_nt_open(struct dxgk_share *s, D3DKMT_OPENRESOURCE *args);

/* verifier.c: the documented MUST rules for what the KMD reports; each failed check is one
 * report of verifier_report.c (an id, the DDI, the field and the rule). */
bool dxgk_verify_driver_init(const struct dxgk_adapter *a, const DRIVER_INITIALIZATION_DATA *ddi);
/* a->caps, and the DDIs the caps require of a->driver.ddi */
bool dxgk_verify_driver_caps(const struct dxgk_adapter *a);
/* A primary's DXGK_ALLOCATIONINFO (docs/semantics.md §3.5, seed 003 NonCpuVisiblePrimary). */
bool dxgk_verify_primary(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *i, UINT index);
bool dxgk_verify_segments(const struct dxgk_adapter *a, const DXGK_QUERYSEGMENTOUT *out);
/* HintedBank against PreferredSegment.SegmentId0's banks (one line naming `who` when refused). */
bool dxgk_verify_hinted_bank(const struct dxgk_adapter *a, const DXGK_SEGMENTPREFERENCE *p,
                             DXGK_SEGMENTBANKPREFERENCE h, const char *who);
bool dxgk_verify_allocation_info(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *info, UINT index);
bool dxgk_verify_share_backing_store(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *info, UINT index,
                                     bool shared, bool existing_sysmem);
bool dxgk_verify_context_info(DXGK_CONTEXTINFO *info);
bool dxgk_verify_cross_adapter(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *info, UINT index);
bool dxgk_verify_gpummu_ddi(const struct dxgk_adapter *a);
bool dxgk_verify_gpummu_caps(const struct dxgk_adapter *a, const DXGK_GPUMMUCAPS *caps);
bool dxgk_verify_page_table_level(const struct dxgk_adapter *a, const DXGK_PAGE_TABLE_LEVEL_DESC *l, UINT level,
                                  UINT levels);
/* verifier_report.c: WDDM_VERIFIER read (and its summary registered) when adapters start; one
 * failed check reported and counted (`limit`: a feature this kernel lacks, not a violation). */
void dxgk_verifier_start(void);
void dxgk_verifier_report(const struct dxgk_adapter *a, const char *ddi, const char *id, bool limit,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The adapter's KMD as the verifier names it: its module path, or the built-in or in-process entry. */
const char *dxgk_adapter_driver_name(const struct dxgk_adapter *a);

/* vidmm/segment.c */
bool vidmm_segment_init(struct vidmm_segment *s, UINT id, const DXGK_SEGMENTDESCRIPTOR *desc);
void vidmm_segment_fini(struct vidmm_segment *s);
bool vidmm_segment_alloc_locked(struct vidmm_segment *s, UINT64 size, UINT64 align, UINT64 *offset);
/* Place `size` bytes inside [lo, hi) of the segment: the lowest fitting offset, or with top_down
 * the highest (DXGK_SEGMENTPREFERENCE / DXGK_SEGMENTBANKPREFERENCE directions). */
bool vidmm_segment_alloc_in_locked(struct vidmm_segment *s, UINT64 size, UINT64 align, UINT64 lo, UINT64 hi,
                                   bool top_down, UINT64 *offset);
/* Bank `bank` (1-based, DXGK_SEGMENTBANKPREFERENCE) of a banked segment as [*lo, *hi); false if
 * the segment has no such bank. */
bool vidmm_segment_bank(const struct vidmm_segment *s, UINT bank, UINT64 *lo, UINT64 *hi);
void vidmm_segment_free_locked(struct vidmm_segment *s, UINT64 offset, UINT64 size);
/* How fragmented the free space is: the number of free ranges and the largest one. */
void vidmm_segment_holes(const struct vidmm_segment *s, UINT64 *count, UINT64 *largest);
/* vidmm/placement.c */
UINT vidmm_allowed_segments(const struct dxgk_adapter *a, const DXGK_ALLOCATIONINFO *info);
NTSTATUS vidmm_place_locked(struct dxgk_adapter *a, struct vidmm_instance *inst, struct vidmm_paging_batch *batch);
void vidmm_unplace_locked(struct dxgk_adapter *a, struct vidmm_instance *inst);
/* vidmm/budget.c: the system-memory budget of backing stores (WDDM_SYSMEM_BUDGET_MB) */
bool vidmm_commit_charge(UINT64 bytes);
void vidmm_commit_uncharge(UINT64 bytes);
UINT64 vidmm_commit_budget(void);   /* 0 = unlimited */
UINT64 vidmm_commit_used(void);
/* vidmm/process_budget.c: the process's budget of a group (its segments' limits less other
 * processes' use, never below its reservation) and its use of the group now. */
UINT64 vidmm_group_budget_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g);
UINT64 vidmm_group_usage_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g);
/* Drops the device's budget-change and trim registrations (D3DKMTDestroyDevice; no lock held). */
void vidmm_notifications_drop_device(D3DKMT_HANDLE device);
/* vidmm/reservation.c (docs/semantics.md §9.3): the reservation of a group and what may be reserved. */
UINT64 vidmm_reservation_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g);
UINT64 vidmm_reservable_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g);
/* The hProcess of the video-memory thunks: NULL or NtCurrentProcess() names this process (the
 * only one); anything else is not a process handle, STATUS_INVALID_HANDLE. */
NTSTATUS vidmm_check_process_handle(const char *who, HANDLE hProcess);
/* vidmm/evict.c */
void vidmm_lru_link_locked(struct dxgk_adapter *a, struct vidmm_instance *inst);
void vidmm_lru_unlink_locked(struct dxgk_adapter *a, struct vidmm_instance *inst);
void vidmm_touch_locked(struct dxgk_adapter *a, struct vidmm_instance *inst);
/* The segment address of an instance (0 while it is not resident). Adapter lock held. */
static inline LONGLONG vidmm_instance_address(const struct dxgk_adapter *a, const struct vidmm_instance *in)
{
    return in->segment_id ? a->seg[in->segment_id - 1].desc.BaseAddress.QuadPart + (LONGLONG)in->offset : 0;
}
/* An allocation-list entry says where its instance lives now (what DxgkDdiPatch writes). */
static inline void vidmm_list_entry_locate(const struct dxgk_adapter *a, DXGK_ALLOCATIONLIST *e,
                                           const struct vidmm_instance *in)
{
    e->SegmentId = in->segment_id;
    e->PhysicalAddress.QuadPart = vidmm_instance_address(a, in);
}
/* The zeroed system page UNMAP_APERTURE_SEGMENT points a range at (vidmm/evict.c). */
void *vidmm_dummy_page(void);
UINT vidmm_evict_one_locked(struct dxgk_adapter *a, const UINT *segments, UINT count,
                            struct vidmm_paging_batch *batch);
/* How far an eviction may go (vidmm/evict.c). */
enum vidmm_evict_mode {
    VIDMM_EVICT_ORDINARY,   /* keeps an instance D3DKMTMakeResident pinned (resident_refs) */
    VIDMM_EVICT_PINNED_TOO, /* takes it too: the caller idled the GPU and places it back
                               (a power transition that loses the segment, vidmm/power.c) */
};
bool vidmm_evictable_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst);
/* The CPU's locks hold the instance where it is: locked, and not through the alternate VA of a
 * UseAlternateVA lock that lets VidMm move it (vidmm_instance.swz_movable). */
static inline bool vidmm_locked_in_place(const struct vidmm_instance *inst)
{
    return inst->lock_count && !inst->swz_movable;
}
/* The instance is held through a range that follows its moves: its paging TRANSFERs are
 * DXGK_OPERATION_SPECIAL_LOCK_TRANSFERs. */
static inline bool vidmm_moves_under_lock(const struct vidmm_instance *inst)
{
    return inst->lock_count && inst->swz_movable && inst->swz_range;
}
/* Turns a TRANSFER built in *args into the SPECIAL_LOCK_TRANSFER of an instance held through
 * its range (vidmm/evict.c). */
void vidmm_special_lock_transfer_args(DXGKARG_BUILDPAGINGBUFFER *args, const struct vidmm_instance *inst);
NTSTATUS vidmm_evict_instance_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                     struct vidmm_paging_batch *batch, enum vidmm_evict_mode mode);
bool vidmm_backing_commit(struct vidmm_instance *inst);
/* `bytes` of page-aligned system memory at `pages` as an MDL, its PFN array written into pfn
 * (room for every page): a PFN is the host address >> 12 (docs/architecture.md "Memory and
 * addresses"). */
MDL vidmm_mdl_of(void *pages, UINT64 bytes, PFN_NUMBER *pfn);
/* The backing store as a section (memfd, mapped shared) from now on: a section-backed primary
 * (DXGK_VIDMMCAPS.SectionBackedPrimary, issue 6). Not yet committed only. */
bool vidmm_backing_commit_section(struct vidmm_instance *inst);
void vidmm_backing_free(struct vidmm_instance *inst);
/* Waits (adapter lock dropped) until every node retired what it had submitted at the call
 * (queued: every packet that had a ticket; packets held behind a GPU wait have none). */
void vidmm_wait_submitted_locked(struct dxgk_adapter *a);
void vidmm_wait_queued_locked(struct dxgk_adapter *a);
void vidmm_batch_stamp_locked(struct vidmm_paging_batch *b, struct vidmm_instance *inst, bool cpu_wait);
/* vidmm/residency.c */
/* hDevice of (UN)MAP_APERTURE_SEGMENT(2): the owning device's KMD handle, NULL for a primary
 * (docs/semantics.md §2.3), and NULL for an orphan (issue 6: its creator destroyed it while
 * same-adapter opens named it; it lives on for them and may outlive its device). */
static inline HANDLE vidmm_aperture_owner(const struct dxgk_allocation *al)
{
    return al->primary || al->orphan ? NULL : al->device->kmd;
}
/* The paging operation that maps an instance's backing store at `offset` of aperture segment
 * `segment_id`: MAP_APERTURE_SEGMENT2 with an ADL when the KMD declared
 * DXGK_VIDMMCAPS.MapAperture2Supported, MAP_APERTURE_SEGMENT with its MDL otherwise (issue 6). */
void vidmm_map_aperture_args(const struct dxgk_adapter *a, DXGKARG_BUILDPAGINGBUFFER *args,
                             const struct vidmm_instance *inst, UINT segment_id, UINT64 offset);
/* A backing store whose aperture range VidMm unmapped when it freed the placement: the pages
 * go once the paging node passed that UNMAP, so the GART never names freed pages (vidmm/
 * placement.c). `pages` carries what vidmm_backing_free releases. */
struct vidmm_retiring {
    struct vidmm_retiring *next;
    UINT64 fence;
    struct vidmm_instance pages;
    void (*release)(void *);  /* or: memory of another owner, given back by release(release_arg) */
    void *release_arg;
};
/* Frees in's backing store now if the paging node passed `fence` (0: nothing to wait for), else
 * parks it on the adapter until it has; in has none afterwards. Adapter lock held. */
void vidmm_backing_retire_locked(struct dxgk_adapter *a, struct vidmm_instance *in, UINT64 fence);
/* The same for memory VidMm does not own (a cross-adapter share's pages, which this adapter
 * mapped): true if the paging node has yet to pass `fence`, and then release(arg) runs once it
 * has (under the adapter lock: it may take only leaf locks); false if there is nothing to
 * wait for, or no memory to remember it. Adapter lock held. */
bool vidmm_release_after_locked(struct dxgk_adapter *a, UINT64 fence, void (*release)(void *), void *arg);
/* Frees the parked backing stores whose UNMAP ran (all: every one; the adapter is stopping and
 * its nodes are idle). Adapter lock held. */
void vidmm_retiring_reap_locked(struct dxgk_adapter *a, bool all);
/* The paging operation that points the aperture range of an instance at the dummy page
 * (UNMAP_APERTURE_SEGMENT, docs/semantics.md §2.3). */
void vidmm_unmap_aperture_args(DXGKARG_BUILDPAGINGBUFFER *args, const struct vidmm_instance *inst, UINT segment_id,
                               UINT64 offset);
NTSTATUS vidmm_make_resident_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                    struct vidmm_paging_batch *batch, bool fill);
/* vidmm/residency.c: records that the packet with ticket t on node uses (writes) the instance,
 * keeping last_use/prior_use (last_write/prior_write) such that the instance is idle when its
 * last packet itself retired and every ticket up to prior did: a high-priority packet that
 * retired before a preempted one is seen done at once when only it used the instance. */
void vidmm_stamp_locked(const struct dxgk_adapter *a, struct vidmm_instance *in, UINT node, UINT64 t, bool write);
bool vidmm_instance_idle_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only);
bool vidmm_instance_retired_locked(const struct dxgk_adapter *a, const struct vidmm_instance *inst);
void vidmm_instance_wait_locked(struct dxgk_adapter *a, const struct vidmm_instance *inst, bool writes_only);
/* vidmm/paging.c */
void vidmm_batch_init(struct vidmm_paging_batch *b, struct dxgk_adapter *a);
NTSTATUS vidmm_paging_build_locked(struct vidmm_paging_batch *b, DXGKARG_BUILDPAGINGBUFFER *args,
                                   const struct vidmm_instance *inst);
void vidmm_paging_flush_locked(struct vidmm_paging_batch *b);
void vidmm_paging_pool_fini(struct dxgk_adapter *a);
/* vidmm/purge.c: after DxgkDdiResetFromTimeout, every allocation leaves its segment (memory
 * segments: content lost, TRANSFER of size 0; apertures: UNMAP); waits for the paging node.
 * No lock held; the paging node's gate open. Returns how many instances were purged. */
UINT64 vidmm_purge_after_reset(struct dxgk_adapter *a);
/* vidmm/purge.c: applies `clear` to every instance resident in the segments of the mask (bit
 * id-1) that no CPU lock holds in place (vidmm_locked_in_place) and that is not dead (nor, with
 * keep_pinned, pinned by MakeResident), in one paging batch, and waits for it. GPU idle; no lock
 * held. Returns how many `clear` moved. */
typedef NTSTATUS (*vidmm_clear_fn)(struct dxgk_adapter *a, struct vidmm_instance *in, struct vidmm_paging_batch *batch);
UINT64 vidmm_clear_segments(struct dxgk_adapter *a, UINT segments, bool keep_pinned, vidmm_clear_fn clear);
/* A packet of the paging pool (DMA buffer empty); NULL when out of memory. Adapter lock held. */
struct dxgk_packet *vidmm_paging_packet_get_locked(struct dxgk_adapter *a);
/* Paging buffers outstanding before a paging-queue call (D3DKMTMapGpuVirtualAddress,
 * D3DKMTMakeResident) waits for the paging node to retire some (issue 14 §4). */
#define VIDMM_PAGING_QUEUE_DEPTH 128u
/* No lock held: waits while VIDMM_PAGING_QUEUE_DEPTH paging buffers are outstanding. */
void vidmm_paging_wait_room(struct dxgk_adapter *a);
/* vidmm/rename.c */
/* Makes another instance current for a Discard lock: the recycling candidate once the GPU is
 * done with it, else a new one; NULL when neither is possible (the list is at
 * MaximumRenamingListLength, or memory is short). */
struct vidmm_instance *vidmm_rename_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc,
                                           struct vidmm_paging_batch *batch, bool no_existing_reference);
/* The one instance a rename may recycle (the oldest that is not current) when nothing but the
 * GPU's progress stands in its way; NULL if there is none. */
struct vidmm_instance *vidmm_rename_candidate_locked(struct dxgk_allocation *alloc, bool no_existing_reference);
/* `in` is a renamed instance no later DMA buffer may name (retired for references and not
 * kept): its content is dead (WRITE_DISCARD) once the GPU is done with it. */
bool vidmm_instance_dead_locked(const struct dxgk_allocation *alloc, const struct vidmm_instance *in);
void vidmm_instances_free_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc);
/* vidmm/rename.c: instance handles (docs/semantics.md §3.3 "pfnLockCb returns the new instance").
 * The instance handle h names in `alloc` (the allocation's own handle: its current instance);
 * NULL when h names no instance of it. Adapter lock held. */
struct vidmm_instance *vidmm_instance_resolve_locked(struct dxgk_allocation *alloc, D3DKMT_HANDLE h);
bool vidmm_handle_names_allocation_locked(const struct dxgk_allocation *al, D3DKMT_HANDLE h);
/* The instance's own handle, inserted and published on first use; 0 when the handle table is
 * full (the caller keeps the allocation's handle). Adapter lock held. */
D3DKMT_HANDLE vidmm_instance_handle_locked(struct dxgk_allocation *alloc, struct vidmm_instance *in);
/* The instance-ordering invariant (docs/semantics.md §3.3, issue 3): may a DMA buffer reference
 * `in` now? False: an instance newer than it was referenced by an earlier buffer and `in` was
 * not kept by DoNotRetireInstance. Adapter lock held. */
bool vidmm_instance_reference_ok_locked(const struct dxgk_allocation *alloc, const struct vidmm_instance *in);
/* Records an accepted reference: retires the instances older than `in` (except kept ones);
 * do_not_retire = D3DDDI_ALLOCATIONLIST.DoNotRetireInstance keeps `in` itself valid for a later
 * buffer. Adapter lock held. */
void vidmm_instance_referenced_locked(struct dxgk_allocation *alloc, struct vidmm_instance *in, bool do_not_retire);
/* vidmm/lock.c: gives back the swizzling range `in` holds (DxgkDdiReleaseSwizzlingRange) and
 * ends its AcquireAperture lock state. Adapter lock held. */
void vidmm_swizzle_release_locked(struct dxgk_adapter *a, struct vidmm_instance *in);

/* sched/fence.c */
UINT64 gsched_fence_extend(UINT64 last64, UINT fence32);
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
/* sched/preempt.c: has the packet with this very ticket retired (the watermark or, above it,
 * its bit)? Exact, where gsched_ticket_retired says whether every ticket up to it did. Lock-free;
 * may answer "not yet" for a moment after the fact, never "done" early. */
bool gsched_ticket_done(const struct gsched_node *n, UINT64 ticket);
void gsched_wait_ticket_done(struct gsched_node *n, UINT64 ticket);
void gsched_wait_ticket(struct gsched_node *n, UINT64 ticket);
void gsched_wait_fence(struct gsched_node *n, UINT64 fence);
void gsched_wait_node_idle(struct gsched_node *n);
/* Submission with node->submit_lock already held (released on return): see queue.c's direct
 * submission. */
UINT64 gsched_submit_locked(struct gsched_node *n, struct dxgk_packet *p);
/* Lazy context switching (sched/switch.c). Before a packet enters the hardware queue (its fence
 * set; submit_lock held): */
void gsched_switch_locked(struct gsched_node *n, const struct dxgk_packet *p);
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
/* Returns the node's retired packets to their pools; adapter->lock held. */
void gsched_recycle_retired_locked(struct dxgk_adapter *a, struct gsched_node *n);
/* sched/node.c */
bool gsched_node_start(struct gsched_node *n, struct dxgk_adapter *a, UINT ordinal);
void gsched_node_stop(struct gsched_node *n);
void gsched_node_kick(struct gsched_node *n, UINT new_packets);
UINT64 gsched_submit(struct gsched_node *n, struct dxgk_packet *p);
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
void gsched_packet_free(struct dxgk_packet *p);
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
/* Signals `s` to `value` once node fence `fence` completed (at once if it has): the paging
 * queue's fence (vidmm/pagingqueue.c). Takes its own reference to s. No lock or the adapter
 * lock held. STATUS_NO_MEMORY when the signal cannot be recorded (nothing armed). */
NTSTATUS gsched_gpu_signal_arm_fence(struct gsched_node *n, struct dxgk_syncobj *s, UINT64 fence, UINT64 value);
/* Raises s to `value` now if it is lower (never lowers it) and releases the satisfied CPU and
 * GPU waiters. No lock or the adapter lock held. */
void dxgk_syncobj_signal_at_least(struct dxgk_syncobj *s, UINT64 value);

/* vidmm/pagingqueue.c: device paging queues (WDDM 2.0, docs/semantics.md §8.5 rule 6, §9.2). */
struct dxgk_paging_queue {
    struct dxgk_object obj;
    D3DKMT_HANDLE device;             /* the owning device's handle; immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    D3DDDI_PAGINGQUEUE_PRIORITY priority; /* immutable */
    struct dxgk_syncobj *fence;       /* its monitored fence (one reference); immutable */
    D3DKMT_HANDLE fence_handle;       /* the fence's handle (hSyncObject); immutable */
    UINT64 last_value;                /* last PagingFenceValue handed out; adapter->lock */
    UINT64 last_paging_fence;         /* paging-node fence that value waits for; adapter->lock */
};
/* D3DDDI_MAKERESIDENT.hPagingQueue: a paging queue (*q set, one reference) or, for callers of
 * the WDDM 1.x era, a device handle (*q NULL). Returns the device with a reference, NULL after
 * a refusal line. */
struct dxgk_device *dxgk_paging_queue_resolve(D3DKMT_HANDLE h, struct dxgk_paging_queue **q, const char *who);
/* The PagingFenceValue of a MakeResident on q whose paging work ends at paging-node fence
 * `paging_fence` (0 or completed: nothing to wait for, returns 0); arms the queue's fence to
 * reach the returned value when that paging completed. adapter->lock held. */
UINT64 dxgk_paging_queue_fence_locked(struct dxgk_adapter *a, struct dxgk_paging_queue *q, UINT64 paging_fence);
void dxgk_paging_queue_put(struct dxgk_paging_queue *q);
/* Destroys the device's paging queues (D3DKMTDestroyDevice; no lock held). */
void dxgk_paging_queues_destroy_device(D3DKMT_HANDLE device);

/* sched/trace.c: the scheduling event trace (wddm_sched_trace_*, include/wddm/wddm.h) and the
 * same event on the timeline (src/common/timeline.h). Each is off by default: a call is then
 * two relaxed loads; on, one atomic index increment and the stores of one ring slot each. */
void gsched_trace(const struct dxgk_adapter *a, UINT type, UINT node, D3DKMT_HANDLE context, D3DKMT_HANDLE from,
                  UINT64 fence);
/* The adapter's number on the timeline: its index (LUID 0x1000 + index, objects/adapter.c). */
static inline UINT dxgk_timeline_adapter(const struct dxgk_adapter *a) { return a->luid.LowPart & 0xFFFu; }
/* sched/interrupt.c */
VOID APIENTRY dxgk_cb_notify_interrupt(HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *data);
BOOLEAN APIENTRY dxgk_cb_queue_dpc(HANDLE hAdapter);
VOID APIENTRY dxgk_cb_notify_dpc(HANDLE hAdapter);
NTSTATUS APIENTRY dxgk_cb_synchronize_execution(HANDLE hAdapter, PKSYNCHRONIZE_ROUTINE routine, PVOID ctx,
                                                ULONG msg, BOOLEAN *ret);
PVOID APIENTRY dxgk_cb_get_handle_data(const DXGKARGCB_GETHANDLEDATA *args);
/* dxgkrnl/feature.c: the OS feature set (WDDM_FEATURES) and the feature-query callbacks */
NTSTATUS dxgk_features_init(struct dxgk_adapter *a);
/* The WDDM_FEATURES list in memory (size bytes, no terminator needed) applied over *set;
 * on a refusal *set is unchanged (the fuzz harness fuzz/fuzz_features.c calls this). */
#define DXGK_FEATURES_TEXT_MAX 511u
UINT64 dxgk_features_default(void);
NTSTATUS dxgk_features_parse(const char *text, size_t size, UINT64 *set);
bool dxgk_feature_enabled(const struct dxgk_adapter *a, DXGK_FEATURE_ID id);
/* Seed 002: the KMD of `a` asked about `id` and its last answer was Enabled TRUE. */
bool dxgk_feature_granted(const struct dxgk_adapter *a, DXGK_FEATURE_ID id);
NTSTATUS APIENTRY dxgk_cb_query_feature_support(DXGKARGCB_QUERYFEATURESUPPORT *args);
NTSTATUS APIENTRY dxgk_cb_is_feature_enabled(DXGKARGCB_ISFEATUREENABLED *args);
/* vidmm/context_allocation.c (seed 000) */
NTSTATUS APIENTRY dxgk_cb_create_context_allocation(DXGKARGCB_CREATECONTEXTALLOCATION *args);
NTSTATUS APIENTRY dxgk_cb_destroy_context_allocation(HANDLE hAdapter, HANDLE hAllocation);
/* Destroys the context allocations left on a context (ctx != NULL) or device (implicit
 * destruction, docs/semantics.md §1.2 invariant 7); their handles become invalid. */
/* Seed 000 residency rule: may VidMm evict this context allocation now? When it may not only
 * because a context is loaded (or its save is on its way), *loaded (if not NULL) names that
 * context: a switch to the null context frees it (gsched_unload_context). adapter->lock. */
bool dxgk_context_allocation_evictable_locked(const struct dxgk_adapter *a, const struct dxgk_context_allocation *ca,
                                              struct dxgk_context **loaded);
/* The packet with this ticket is being readied: c's context allocations are not evicted to make
 * room for its other allocations (their prepared_use). adapter->lock. */
void dxgk_context_allocations_claim_locked(struct dxgk_context *c, UINT64 ticket);
/* Makes every context allocation of c and of its device resident (INIT_CONTEXT_RESOURCE at
 * the first page-in) in batch. */
NTSTATUS dxgk_context_allocations_make_resident_locked(struct dxgk_adapter *a, struct dxgk_context *c,
                                                        struct vidmm_paging_batch *batch);
/* Records that c's packet with this ticket uses them; returns the paging fence that packet
 * must wait for (after the batch was flushed). */
UINT64 dxgk_context_allocations_mark_used_locked(struct dxgk_context *c, UINT64 ticket);
/* All of them resident with their paging done (the direct-submission path may skip prepare). */
bool dxgk_context_allocations_ready_locked(const struct dxgk_adapter *a, const struct dxgk_context *c);
void dxgk_context_allocations_destroy_owned(struct dxgk_adapter *a, struct dxgk_device *d, struct dxgk_context *c);

/* vidmm/vaspace.c: the GpuMmu model (issue 6, docs/semantics.md §9.2): GPU VA space, page tables. */
struct vidmm_gpummu;
struct vidmm_mapping;
/* Adapter start on a GpuMmu adapter: queries and verifies the GpuMmu caps and levels, creates
 * the process (DxgkDdiCreateProcess) and its root page table. No lock held. */
NTSTATUS vidmm_gpummu_start(struct dxgk_adapter *a);
void vidmm_gpummu_stop(struct dxgk_adapter *a);
/* GpuMmu: every page table written again (roots, zeroed leaves, every mapping's entries as its
 * allocation lies now) after the memory holding them lost its content (a power transition,
 * vidmm/power.c). In the batch. */
NTSTATUS vidmm_va_rewrite_tables_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b);
/* The instance of a mapped allocation moved (placed, evicted, restored): its PTEs follow, in
 * the same paging batch. Adapter lock held. */
NTSTATUS vidmm_va_instance_moved_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                        struct vidmm_paging_batch *batch);
/* No allocation list says what a virtual packet touches: an instance counts as used and written
 * by every packet device d queued so far (its contexts' last tickets), so it is neither evicted
 * nor freed before they retired (D3DKMTEvict, destruction); packets held behind a GPU wait
 * get their ticket later, so the instance is parked on such a context until they did
 * (held_va_refs). Adapter lock held. */
void vidmm_va_device_use_locked(struct dxgk_device *d, struct vidmm_instance *in);
/* Room for n more parked instances on each of d's held contexts, made before the change that
 * needs it (so vidmm_va_device_use_locked never lacks memory); STATUS_NO_MEMORY changes nothing
 * that matters (the arrays only grow). Adapter lock held. */
NTSTATUS vidmm_va_reserve_held_locked(struct dxgk_device *d, UINT n);
/* GpuMmu: the context's held packets were all queued (stamp with its last_ticket) or dropped
 * (stamp nothing): the instances vidmm_va_device_use_locked parked on it become free to go. */
void vidmm_va_held_done_locked(struct dxgk_context *c, bool queued);
/* Destruction: every mapping of alloc is unmapped (PTEs invalidated). Adapter lock held. */
void vidmm_va_unmap_allocation_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc);
/* Unmaps the mappings made through handle `via` (a same-adapter open going, issue 6). */
void vidmm_va_unmap_via_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc, D3DKMT_HANDLE via);
/* DxgkDdiSetRootPageTable for a new context (objects/context.c). No lock held. */
void vidmm_va_set_root(struct dxgk_adapter *a, struct dxgk_context *c);
/* The root page table a virtual packet prepared now must run with (adapter->lock), and the
 * worker's DxgkDdiSetRootPageTable when its context still has an older one (no lock held,
 * after the packet's paging wait: the grown root's content is written by then). */
struct vidmm_root_ref { D3DGPU_PHYSICAL_ADDRESS address; UINT entries; UINT64 gen; };
void vidmm_va_root_locked(const struct dxgk_adapter *a, struct vidmm_root_ref *r);
void vidmm_va_switch_root(struct dxgk_adapter *a, struct dxgk_context *c, const struct vidmm_root_ref *r);
/* vidmm/packet.c, vidmm/split.c: the scheduler's packets (struct dxgk_upcalls says what each
 * does). */
NTSTATUS vidmm_packet_prepare_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT64 *paging_fence,
                                     struct vidmm_root_ref *root);
void vidmm_packet_ticketed_locked(struct dxgk_adapter *a, struct dxgk_packet *p);
NTSTATUS vidmm_split_submit_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p);
/* Allocation-list entry i of a packet whose instance was made resident: touched (LRU), located;
 * returns the paging fence the packet must wait for. Adapter lock held. */
UINT64 vidmm_packet_entry_ready_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT i);
/* The paging fence of the last page-table update: virtual packets wait for it. adapter->lock. */
UINT64 vidmm_va_pt_fence_locked(const struct dxgk_adapter *a);
/* sched/interrupt.c + sched/tdr.c: a recorded page fault puts its device in error
 * (D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT). Adapter lock held. */
void dxgk_device_fault_sync_locked(struct dxgk_device *d);

/* objects/callbacks_not_modeled.c: the DXGKRNL_INTERFACE members the kernel does not model */
void dxgk_interface_fill_not_modeled(DXGKRNL_INTERFACE *ifc);
/* objects/driver_load.c: drivers loaded by path (WDDM_KMD, WDDM_UMD; issue 19 §1) */
extern const struct wddm_platform_imports dxgk_platform_imports;
/* How many adapters the driver lists name (the longer list), 0 when neither is set. */
UINT dxgk_driver_list_length(void);
/* Adapter index's DriverEntry: the module WDDM_KMD names for it (dlopen'ed, kept loaded; *name
 * its path, malloc'ed), else `builtin` (*name NULL). STATUS_DLL_NOT_FOUND /
 * STATUS_ENTRYPOINT_NOT_FOUND with one message otherwise. */
NTSTATUS dxgk_driver_kmd_entry(UINT index, PDRIVER_INITIALIZE builtin, PDRIVER_INITIALIZE *entry, char **name);
/* An in-process entry's name for reports: its symbol and file as the dynamic linker knows them
 * (malloc'ed, NULL when memory runs out). */
char *dxgk_driver_entry_name(PDRIVER_INITIALIZE entry);
/* Adapter index's UMD module path from WDDM_UMD (malloc'ed), NULL for the built-in UMD;
 * STATUS_NO_MEMORY or STATUS_NAME_TOO_LONG (more than MAX_PATH - 1 UTF-16 units). */
NTSTATUS dxgk_driver_umd_name(UINT index, char **name);
/* KMTQAITYPE_UMDRIVERNAME */
NTSTATUS dxgk_driver_query_umd_name(const struct dxgk_adapter *a, D3DKMT_UMDFILENAMEINFO *info);

/* pages_and_clock.c */
void *dxgk_page_alloc(size_t size);   /* zeroed, page aligned, NULL on failure */
void dxgk_page_free(void *p, size_t size); /* size as allocated */
UINT64 dxgk_now_ns(void);

#endif /* DXGKRNL_DXGKRNL_H */
