/* VidMm's interface inside the kernel (issue 16 §1): what vidmm/ offers the room above it
 * (objects/) and the scheduler's upcalls. VidMm uses the base and the scheduler (fences,
 * waits, paging submissions), never objects/. */
#ifndef DXGKRNL_VIDMM_VIDMM_H
#define DXGKRNL_VIDMM_VIDMM_H

#include "dxgkrnl/dxgkrnl.h"
#include "dxgkrnl/sched/for_vidmm.h"

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

/* vidmm/reservation.c (docs/semantics.md §9.6): the reservation of a group and what may be reserved. */
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
bool vidmm_backing_commit(struct dxgk_adapter *a, struct vidmm_instance *inst);
/* `bytes` of page-aligned system memory at `pages` as an MDL, its PFN array written into pfn
 * (room for every page): a PFN is the host address >> 12 (docs/architecture.md "Memory and
 * addresses"). */
MDL vidmm_mdl_of(void *pages, UINT64 bytes, PFN_NUMBER *pfn);
/* The backing store as a section (memfd, mapped shared) from now on: a section-backed primary
 * (DXGK_VIDMMCAPS.SectionBackedPrimary, issue 6). Not yet committed only. */
bool vidmm_backing_commit_section(struct dxgk_adapter *a, struct vidmm_instance *inst);
void vidmm_backing_free(struct dxgk_adapter *a, struct vidmm_instance *inst);
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
/* The same for a DMA buffer's allocation-list entry e naming the instance: a write entry also
 * leaves the backing store stale (D3DKMTRender's packets and held ones taking their ticket). */
void vidmm_stamp_list_entry_locked(const struct dxgk_adapter *a, struct vidmm_instance *in, UINT node, UINT64 t,
                                   const DXGK_ALLOCATIONLIST *e);
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
struct vidmm_instance *vidmm_rename_candidate_locked(const struct dxgk_adapter *a, struct dxgk_allocation *alloc,
                                                     bool no_existing_reference);
/* `in` is a renamed instance no later DMA buffer may name (retired for references and not
 * kept): its content is dead (WRITE_DISCARD) once the GPU is done with it. */
bool vidmm_instance_dead_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *alloc,
                                const struct vidmm_instance *in);
void vidmm_instances_free_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc);

/* vidmm/rename.c: instance handles (docs/semantics.md §3.3 "pfnLockCb returns the new instance").
 * The instance handle h names in `alloc` (the allocation's own handle: its current instance);
 * NULL when h names no instance of it. Adapter lock held. */
struct vidmm_instance *vidmm_instance_resolve_locked(const struct dxgk_adapter *a, struct dxgk_allocation *alloc,
                                                     D3DKMT_HANDLE h);
bool vidmm_handle_names_allocation_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al,
                                          D3DKMT_HANDLE h);
/* The instance's own handle, inserted and published on first use; 0 when the handle table is
 * full (the caller keeps the allocation's handle). Adapter lock held. */
D3DKMT_HANDLE vidmm_instance_handle_locked(const struct dxgk_adapter *a, struct dxgk_allocation *alloc,
                                           struct vidmm_instance *in);
/* The instance-ordering invariant (docs/semantics.md §3.3, issue 3): may a DMA buffer reference
 * `in` now? False: an instance newer than it was referenced by an earlier buffer and `in` was
 * not kept by DoNotRetireInstance. Adapter lock held. */
bool vidmm_instance_reference_ok_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *alloc,
                                        const struct vidmm_instance *in);
/* Records an accepted reference: retires the instances older than `in` (except kept ones);
 * do_not_retire = D3DDDI_ALLOCATIONLIST.DoNotRetireInstance keeps `in` itself valid for a later
 * buffer. Adapter lock held. */
void vidmm_instance_referenced_locked(const struct dxgk_adapter *a, struct dxgk_allocation *alloc,
                                      struct vidmm_instance *in, bool do_not_retire);

/* vidmm/lock.c: gives back the swizzling range `in` holds (DxgkDdiReleaseSwizzlingRange) and
 * ends its AcquireAperture lock state. Adapter lock held. */
void vidmm_swizzle_release_locked(struct dxgk_adapter *a, struct vidmm_instance *in);

/* vidmm/pagingqueue.c: device paging queues (WDDM 2.0, docs/semantics.md §8.5 rule 6, §9.2). */
struct dxgk_paging_queue {
    struct dxgk_object obj;
    D3DKMT_HANDLE device;             /* the owning device's handle; immutable */
    D3DKMT_HANDLE handle;             /* immutable */
    D3DDDI_PAGINGQUEUE_PRIORITY priority; /* immutable */
    struct dxgk_syncobj *fence;       /* its monitored fence (one reference); immutable */
    D3DKMT_HANDLE fence_handle;       /* the fence's handle (hSyncObject); immutable */
    VOID *fence_cpu_va;               /* its value's read-only view; immutable */
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

/* vidmm/framebuffer_save.c: the frame buffer save area of an IOMMU-isolation KMD (WDDM 2.4): the
 * start's query and commit charge, the stop's release, and the four DXGKRNL_INTERFACE callbacks. */
NTSTATUS vidmm_fb_save_start(struct dxgk_adapter *a);
void vidmm_fb_save_stop(struct dxgk_adapter *a);
NTSTATUS APIENTRY dxgk_cb_pin_frame_buffer_for_save(const HANDLE hAdapter, DXGKARGCB_PINFRAMEBUFFERFORSAVE *args);
NTSTATUS APIENTRY dxgk_cb_unpin_frame_buffer_for_save(const HANDLE hAdapter,
                                                      const DXGKARGCB_UNPINFRAMEBUFFERFORSAVE *args);
NTSTATUS APIENTRY dxgk_cb_map_frame_buffer_pointer(const HANDLE hAdapter, DXGKARGCB_MAPFRAMEBUFFERPOINTER *args);
NTSTATUS APIENTRY dxgk_cb_unmap_frame_buffer_pointer(const HANDLE hAdapter,
                                                     const DXGKARGCB_UNMAPFRAMEBUFFERPOINTER *args);

/* vidmm/kmd_memory.c: a KMD's own memory for its GPU under IOMMU isolation (WDDM 2.4): the six
 * DXGKRNL_INTERFACE callbacks, and at the adapter's stop the blocks it left (named, then freed). */
NTSTATUS APIENTRY dxgk_cb_allocate_pages_for_mdl(const HANDLE hAdapter, DXGKARGCB_ALLOCATEPAGESFORMDL *args);
NTSTATUS APIENTRY dxgk_cb_free_pages_from_mdl(const HANDLE hAdapter, const DXGKARGCB_FREEPAGESFROMMDL *args);
NTSTATUS APIENTRY dxgk_cb_allocate_contiguous_memory(const HANDLE hAdapter, DXGKARGCB_ALLOCATECONTIGUOUSMEMORY *args);
NTSTATUS APIENTRY dxgk_cb_free_contiguous_memory(const HANDLE hAdapter, const DXGKARGCB_FREECONTIGUOUSMEMORY *args);
NTSTATUS APIENTRY dxgk_cb_map_mdl_to_iommu(const HANDLE hAdapter, DXGKARGCB_MAPMDLTOIOMMU *args);
VOID APIENTRY dxgk_cb_unmap_mdl_from_iommu(const HANDLE hAdapter, const DXGKARGCB_UNMAPMDLFROMIOMMU *args);
void vidmm_kmd_memory_stop(struct dxgk_adapter *a);

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
/* IoMmu model (docs/semantics.md §9.6): a new allocation's one mapping, at the address of its
 * backing store (committed here): what the CPU's lock returns and the GPU names. Before the
 * allocation is published (no lock); nothing is in the IOMMU until it is made resident. A failed
 * creation frees it with vidmm_va_iommu_detach_unpublished. Not an IoMmu adapter: nothing. */
NTSTATUS vidmm_va_iommu_attach(struct dxgk_adapter *a, struct dxgk_allocation *al);
void vidmm_va_iommu_detach_unpublished(struct dxgk_allocation *al);
/* The PASID of the adapter's process (DXGKARG_CREATEDEVICE.Pasid); 0 outside the IoMmu model. */
ULONG vidmm_va_pasid(const struct dxgk_adapter *a);
/* The KMD's process of a WDDM 2.0 adapter (DXGKARG_CREATEDEVICE.hKmdProcess); NULL in WDDM 1.x. */
HANDLE vidmm_va_kmd_process(const struct dxgk_adapter *a);
/* That address (D3DDDI_ALLOCATIONINFO2.GpuVirtualAddress); 0 outside the IoMmu model. */
D3DGPU_VIRTUAL_ADDRESS vidmm_va_iommu_address(const struct dxgk_adapter *a, const struct dxgk_allocation *al);
/* Destruction: every mapping of alloc is unmapped (PTEs invalidated). Adapter lock held. */
void vidmm_va_unmap_allocation_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc);
/* Unmaps the mappings made through handle `via` (a same-adapter open going, issue 6). */
void vidmm_va_unmap_via_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc, D3DKMT_HANDLE via);
/* DxgkDdiSetRootPageTable for a new context (objects/context.c). No lock held. */
void vidmm_va_set_root(struct dxgk_adapter *a, struct dxgk_context *c);
/* The root page table a virtual packet prepared now must run with (adapter->lock), and the
 * worker's DxgkDdiSetRootPageTable when its context still has an older one (no lock held,
 * after the packet's paging wait: the grown root's content is written by then). */
void vidmm_va_root_locked(const struct dxgk_adapter *a, struct vidmm_root_ref *r);
void vidmm_va_switch_root(struct dxgk_adapter *a, struct dxgk_context *c, const struct vidmm_root_ref *r);

/* vidmm/packet.c, vidmm/split.c: the scheduler's packets (struct dxgk_upcalls says what each
 * does). */
NTSTATUS vidmm_packet_prepare_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT64 *paging_fence,
                                     struct vidmm_root_ref *root);
void vidmm_packet_ticketed_locked(struct dxgk_adapter *a, struct dxgk_packet *p);
bool vidmm_packet_direct_locked(struct dxgk_adapter *a, struct dxgk_packet *p);
NTSTATUS vidmm_split_submit_locked(struct dxgk_adapter *a, struct gsched_node *n, struct dxgk_packet *p);
/* Allocation-list entry i of a packet whose instance was made resident: touched (LRU), located;
 * returns the paging fence the packet must wait for. Adapter lock held. */
UINT64 vidmm_packet_entry_ready_locked(struct dxgk_adapter *a, struct dxgk_packet *p, UINT i);
/* The paging fence of the last page-table update: virtual packets wait for it. adapter->lock. */
UINT64 vidmm_va_pt_fence_locked(const struct dxgk_adapter *a);

/* vidmm/statistics.c: D3DKMTQueryStatistics's SEGMENT answer for the segment counted from 0
 * (STATUS_INVALID_PARAMETER and a line past the last one), read under the adapter lock; the
 * D3DKMT_QUERYSTATISTICS_ALLOCATION_PRIORITY_CLASS a D3DDDI_ALLOCATIONPRIORITY_* value falls in
 * (below LOW: Minimum, below NORMAL: Low, below HIGH: Normal, below MAXIMUM: High, else Maximum). */
NTSTATUS vidmm_query_segment_statistics(struct dxgk_adapter *a, ULONG index,
                                        D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION *o);
D3DKMT_QUERYSTATISTICS_ALLOCATION_PRIORITY_CLASS vidmm_priority_class(UINT priority);

#endif /* DXGKRNL_VIDMM_VIDMM_H */
