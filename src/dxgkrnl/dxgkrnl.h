/* dxgkrnl: the graphics kernel's base (issue 16 §1) - the object base and handles, the shared
 * types every room reads (adapter, device, context, allocation, instance, packet, node), the
 * upcalls a lower room makes into a higher one, the lock order, and the functions of the files
 * directly in src/dxgkrnl/ (handles, lookups, the verifier, features, pages and the clock). Each
 * room declares what it offers in its own header: sched/sched.h, vidmm/vidmm.h (which includes
 * sched.h), objects/objects.h (which includes both); a room sees only the headers of the rooms
 * below it (src/layers.txt).
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
/* The table lock, for a _locked function outside handle.c to state it (WDDM_ASSERT_HELD). */
const pthread_mutex_t *dxgk_handle_table_lock(void);
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

/* ---- VidMm's types (vidmm/; its functions: vidmm/vidmm.h) ------------------------------------ */
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
    UINT64 evicted_bytes[D3DKMT_MaxAllocationPriorityClass]; /* bytes evicted from it, by priority
                                    class (D3DKMTQueryStatistics); protected by adapter->lock */
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

/* ---- the scheduler's types (sched/; its functions: sched/sched.h) ---------------------------- */
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

/* ---- the kernel objects' types (objects/; their functions: objects/objects.h) ---------------- */
struct dxgk_counters {
    atomic_ullong dma_buffers_submitted, paging_buffers_submitted, fences_retired,
        allocations_created, allocations_destroyed, locks, lock_waits, lock_wait_ns,
        lock_still_drawing, renames, bytes_paged_in, bytes_paged_out, evictions, context_switches,
        preemptions, engine_resets, adapter_resets, dma_buffer_splits, adapter_stops, null_context_switches,
        allocations_purged, paging_multipass, page_table_updates, mid_buffer_preemptions,
        context_allocations_created, context_allocation_evictions, iommu_pages_mapped, iommu_translations;
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
/* A root page table as the scheduler carries it from prepare_packet_locked to switch_root
 * (GpuMmu; gen 0: none to switch to). */
struct vidmm_root_ref { D3DGPU_PHYSICAL_ADDRESS address; UINT entries; UINT64 gen; };
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
    /* A packet its submitting thread may hand to the hardware itself (sched/queue.c
     * gsched_direct_try_locked): true when VidMm has nothing to do first, and then the packet
     * is marked prepared as the worker's prepare step would. Adapter lock held.
     * (vidmm/packet.c vidmm_packet_direct_locked) */
    bool (*packet_direct_locked)(struct dxgk_adapter *a, struct dxgk_packet *p);
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

struct iommu_domain; /* iommu.c */
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
    struct dxgk_kmd_block *kmd_blocks;/* the KMD's own memory for its GPU (vidmm/kmd_memory.c); lock */
    bool isolated;                    /* IOMMU-based GPU isolation on (iommu.c): the device's
                                         physical accesses reach only what the kernel mapped; set
                                         at start, immutable */
    _Atomic(struct iommu_domain *) iommu_kernel; /* isolated: the domain of those accesses
                                         (iommu.c), from start to after stop */
    struct {                          /* the frame buffer save area (vidmm/framebuffer_save.c) */
        SIZE_T max;                   /* DXGK_FRAMEBUFFERSAVEAREA.MaximumSize (0: none); immutable */
        BYTE *area;                   /* its pages, committed at first use; lock */
        PFN_NUMBER *pfn;              /*   ... their page numbers, for the pinned MDL; lock */
        MDL mdl;                      /* the MDL of the pin; lock */
        bool pinned;                  /* lock */
        UINT maps;                    /* CPU pointers handed out and not unmapped; lock */
    } fb_save;
    UINT64 reservation[2];            /* D3DKMTChangeVideoMemoryReservation, per
                                         D3DKMT_MEMORY_SEGMENT_GROUP (vidmm/reservation.c); lock */
    UINT64 external[2];               /* other processes' use of each group, lowering this
                                         process's budget (vidmm/process_budget.c); lock */
};
/* The adapter's number on the timeline: its index (LUID 0x1000 + index, objects/adapter.c). */
static inline UINT dxgk_timeline_adapter(const struct dxgk_adapter *a) { return a->luid.LowPart & 0xFFFu; }

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
                                         objects/allocation.c, vidmm/residency_query.c) */
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
                                         given for it (DxgkDdiSetRootPageTable); written by its
                                         node's worker only, after creation (vidmm/vaspace.c); read
                                         by a direct submission (vidmm/packet.c) only once the node
                                         has nothing pending, ordered after those writes by
                                         node->lock (sched/queue.c) */
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

/* lookup.c: an allocation object's release (the put of the memory an opened handle names) */
void dxgk_allocation_release(struct dxgk_object *obj);

/* lookup.c: the device of a D3DKMT call that names either a resource (hResource, no list, a
 * count of 0) or a list of allocations, D3DKMT_SETALLOCATIONPRIORITY's shape, with a reference;
 * NULL, with a line naming `who`, if it names both or neither or the device is invalid. */
struct dxgk_device *dxgk_named_device(const char *who, D3DKMT_HANDLE hDevice, D3DKMT_HANDLE hResource,
                                      const D3DKMT_HANDLE *list, UINT count);
/* lookup.c: each(a, al, i, ctx) under the adapter lock for every allocation such a call names -
 * each allocation of resource hResource (i = 0: the resource's one entry; the most recently
 * added first), or each of the listed ones (i its entry) - an opened allocation giving its
 * creator's memory. a is d's adapter: use it, never al->device, which an opened resource's
 * creator allocation may have outlived. Nothing is called if a handle is invalid
 * (STATUS_INVALID_PARAMETER and a line naming `who`) or memory runs out (STATUS_NO_MEMORY). */
typedef void dxgk_named_fn(const struct dxgk_adapter *a, struct dxgk_allocation *al, UINT i, void *ctx);
NTSTATUS dxgk_for_each_named(const char *who, struct dxgk_device *d, D3DKMT_HANDLE hResource,
                             const D3DKMT_HANDLE *list, UINT count, dxgk_named_fn *each, void *ctx);
/* Resource handle h of device d, with a reference; NULL with a line naming `who`. */
struct dxgk_resource *dxgk_device_resource_get(struct dxgk_device *d, D3DKMT_HANDLE h, const char *who);
/* lookup.c: the n allocation handles of device d a D3DKMT call lists, each resolved as
 * dxgk_allocation_get does, with one reference each, in *out: STATUS_SUCCESS,
 * STATUS_INVALID_PARAMETER (a line naming `who` and the entry) if one is not d's, or
 * STATUS_NO_MEMORY. dxgk_allocation_list_put drops the references and the array. */
NTSTATUS dxgk_allocation_list_get(struct dxgk_device *d, const D3DKMT_HANDLE *h, UINT n, const char *who,
                                  struct dxgk_allocation ***out);
void dxgk_allocation_list_put(struct dxgk_allocation **al, UINT n);
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
bool dxgk_verify_fb_save_area(const struct dxgk_adapter *a, NTSTATUS st, const DXGK_FRAMEBUFFERSAVEAREA *area);
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

/* The adapter's aperture segments as a segment set (bit id - 1). */
static inline UINT dxgk_aperture_segments(const struct dxgk_adapter *a)
{
    UINT set = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            set |= 1u << s;
    return set;
}

/* The adapter runs the IoMmu model (DXGK_VIDMMCAPS.VirtualAddressingSupported + IoMmuSupported). */
static inline bool dxgk_adapter_iommu(const struct dxgk_adapter *a)
{
    return a->caps.MemoryManagementCaps.VirtualAddressingSupported && a->caps.MemoryManagementCaps.IoMmuSupported;
}

/* iommu.c: the machine's IOMMU (the IoMmu model, docs/semantics.md §9.6). A domain per PASID, bound
 * to one device; map / unmap take 4 KiB pages of system memory; WddmIoMmuTranslate (d3dkmddi.h) is
 * the device's side. A domain is destroyed only once its device no longer uses it. */
NTSTATUS dxgk_iommu_domain_create(PDEVICE_OBJECT pdo, ULONG *pasid);
void dxgk_iommu_domain_destroy(ULONG pasid);
NTSTATUS dxgk_iommu_map(ULONG pasid, UINT64 va, const void *host, UINT64 pages, bool writable);
void dxgk_iommu_unmap(ULONG pasid, UINT64 va, UINT64 pages);
/* IOMMU-based GPU isolation: an isolated adapter's domain for its device's physical accesses
 * (1:1), made at its start and freed after its stop; every page the kernel hands that adapter's
 * device (dxgk_page_alloc, section views, shared pages it opened) is mapped in it while it is
 * in use (map false: one use less; a page is unmapped when its last use went). For an adapter
 * that is not isolated (or NULL) dxgk_iommu_kernel_map does nothing. */
NTSTATUS dxgk_iommu_isolation_start(struct dxgk_adapter *a);
void dxgk_iommu_isolation_stop(struct dxgk_adapter *a);
bool dxgk_iommu_kernel_map(struct dxgk_adapter *a, const void *p, size_t bytes, bool map); /* false: no
                                         memory for the domain's tables (nothing mapped) */

/* pages_and_clock.c: pages for adapter `a`'s device (mapped in its isolation domain), or for no
 * device yet (NULL: mapped by whoever hands them out). */
void *dxgk_page_alloc(struct dxgk_adapter *a, size_t size); /* zeroed, page aligned, NULL on failure */
void dxgk_page_free(struct dxgk_adapter *a, void *p, size_t size); /* as allocated */
UINT64 dxgk_now_ns(void);

#endif /* DXGKRNL_DXGKRNL_H */
