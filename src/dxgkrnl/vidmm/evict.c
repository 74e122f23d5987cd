/* Eviction under oversubscription (WDDM 1.x model, docs/semantics.md §9.1).
 *
 * Every segment keeps its resident instances in least-recently-used order: an instance moves
 * to the tail when a DMA buffer references it (D3DKMTRender's snapshot, the worker's prepare
 * step) or the CPU locks it. When a placement finds no room in any allowed segment
 * (vidmm/placement.c), VidMm evicts from the allowed segments in preference order until the
 * new instance fits. The victim is the lowest-priority evictable instance (allocation priority:
 * D3DKMTSetAllocationPriority, D3DDDI_ALLOCATIONPRIORITY_*); among equals the one whose next
 * reference by a queued packet is farthest ahead (none within the lookahead: farthest of all),
 * then the least recently used; a soft-pinned one (D3DDDI_ALLOCATIONPRIORITY_MAXIMUM and
 * above, docs/semantics.md §9.4) only when nothing else in the allowed segments is evictable. Evictable means: resident; not
 * referenced by any queued or in-flight packet (its
 * node tickets retired: a ticket is given at D3DKMTRender, so queued work counts); not on the
 * current paging batch (its pending paging operations are ordered before the eviction on the
 * paging node); its
 * allocation not locked by the CPU (the pointer must stay valid: DonotEvict is implied; except
 * through a UseAlternateVA lock's range, which follows a move: SPECIAL_LOCK_TRANSFER), not
 * pinned by D3DKMTMakeResident (unless the caller asks VIDMM_EVICT_PINNED_TOO: a power
 * transition, vidmm/power.c) and not being destroyed.
 *
 * The move is a real paging operation built by DxgkDdiBuildPagingBuffer:
 *   memory segment -> when the allocation's EvictionSegmentSet (DXGK_ALLOCATIONINFO, aperture
 *     segments only, docs/semantics.md §6.4) names an aperture segment with a free range *now*
 *     (nothing is evicted to make room for an eviction: the choice, docs/rules/vidmm.md), the
 *     instance moves there: MAP_APERTURE_SEGMENT of its backing store into that range, then a
 *     TRANSFER from the memory segment into the aperture range (a DISCARD_CONTENT when the
 *     backing store is clean); the GPU can still reach it and the backing store pages are the
 *     aperture's pages, as for any aperture placement. A use that needs a segment of its
 *     supported set brings it back (vidmm/residency.c). Otherwise (set 0, which is what the
 *     reference KMD returns, or every named aperture full): TRANSFER to the instance's
 *     system-memory backing store (an MDL), committed at the first eviction and kept until
 *     destruction;
 *   aperture      -> UNMAP_APERTURE_SEGMENT (the range points at the adapter's dummy page);
 *     the backing store already is the content;
 *   a renamed instance that is not current and that no DMA buffer may name again (retired for
 *     references, vidmm/rename.c) -> DISCARD_CONTENT (its content is dead: WRITE_DISCARD
 *     semantics), and it is recycled without content;
 *   a clean instance (its backing store still holds its content: restored, or saved, and not
 *     written since) -> DISCARD_CONTENT: no copy, the backing store is the content.
 * The range is free for the rest of the batch at once; ordering is kept by fences: the paging
 * node runs its buffers in order, and every later placement of the batch waits for the batch's
 * fence on the GPU (prepare's paging fence) and the CPU (a lock waits for paging_fence), so no
 * write reaches the range before the eviction copied it out. A restore (vidmm/residency.c) is a
 * TRANSFER from the backing store (or a MAP of it) on the next use. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <sys/mman.h>
#include <unistd.h>

#include <stdlib.h>
#include <string.h>

/* Private (customer bit set): an eviction given up after a BUSY wait, the victim having been
 * taken meanwhile; its caller picks another victim. Never leaves vidmm/. */
#define STATUS_VIDMM_EVICTION_ABANDONED ((NTSTATUS)0xE01E0F01)

void vidmm_lru_link_locked(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    in->lru_next = NULL;
    in->lru_prev = s->lru_tail;
    if (s->lru_tail)
        s->lru_tail->lru_next = in;
    else
        s->lru_head = in;
    s->lru_tail = in;
    in->last_touch = ++a->use_clock;
}

void vidmm_lru_unlink_locked(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    if (in->lru_prev)
        in->lru_prev->lru_next = in->lru_next;
    else
        s->lru_head = in->lru_next;
    if (in->lru_next)
        in->lru_next->lru_prev = in->lru_prev;
    else
        s->lru_tail = in->lru_prev;
    in->lru_prev = in->lru_next = NULL;
}

void vidmm_touch_locked(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!in->segment_id)
        return;
    if (a->seg[in->segment_id - 1].lru_tail == in) {
        in->last_touch = ++a->use_clock;
    } else {
        vidmm_lru_unlink_locked(a, in);
        vidmm_lru_link_locked(a, in);
    }
}

bool vidmm_backing_commit(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    if (in->backing)
        return true;
    UINT64 size = in->alloc->info.Size;
    size_t pages = (size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    void *backing = dxgk_page_alloc(a, pages * DXGK_PAGE_SIZE);
    PFN_NUMBER *pfn = wddm_calloc(pages, sizeof *pfn);
    if (!backing || !pfn) {
        dxgk_page_free(a, backing, pages * DXGK_PAGE_SIZE);
        free(pfn);
        dxgk_refuse("vidmm: cannot commit a %zu-byte backing store", (size_t)size);
        return false;
    }
    in->backing = backing;
    in->mdl = vidmm_mdl_of(backing, size, pfn);
    return true;
}

MDL vidmm_mdl_of(void *pages, UINT64 bytes, PFN_NUMBER *pfn)
{
    size_t n = (size_t)((bytes + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE);
    for (size_t p = 0; p < n; p++)
        pfn[p] = ((uintptr_t)pages >> 12) + p;
    /* Locked and mapped for as long as the instance has them, as VidMm's MDLs are: a KMD's
     * MmGetSystemAddressForMdlSafe answers MappedSystemVa (wdm.h). */
    return (MDL){ .StartVa = pages, .ByteOffset = 0, .ByteCount = (ULONG)bytes, .PageCount = n, .PfnArray = pfn,
                  .MdlFlags = MDL_PAGES_LOCKED | MDL_MAPPED_TO_SYSTEM_VA, .MappedSystemVa = pages };
}

/* Seed 003 SectionBackedPrimary: the system-memory backing store of a primary is a section
 * rather than private pages. The model's section is an anonymous shared memory object (memfd)
 * mapped shared: it exists from the primary's creation, every view of it sees the same bytes
 * (the lock's, the aperture's, a second mapping of the object), and it lives until the
 * primary is destroyed (never discarded, never renamed). */
bool vidmm_backing_commit_section(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    if (in->backing)
        return in->section;
    UINT64 size = in->alloc->info.Size;
    size_t pages = (size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    int fd = memfd_create("wddm-section-primary", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)(pages * DXGK_PAGE_SIZE)) != 0) {
        if (fd >= 0)
            close(fd);
        dxgk_refuse("vidmm: cannot create a %zu-byte section for a primary", (size_t)size);
        return false;
    }
    void *view = mmap(NULL, pages * DXGK_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    PFN_NUMBER *pfn = wddm_calloc(pages, sizeof *pfn);
    /* An isolated device may reach it: in its domain while it lives. */
    if (view == MAP_FAILED || !pfn || !dxgk_iommu_kernel_map(a, view, pages * DXGK_PAGE_SIZE, true)) {
        if (view != MAP_FAILED)
            munmap(view, pages * DXGK_PAGE_SIZE);
        free(pfn);
        close(fd);
        dxgk_refuse("vidmm: cannot map a %zu-byte section for a primary", (size_t)size);
        return false;
    }
    in->backing = view;
    in->section = true;
    in->section_fd = fd;
    in->mdl = vidmm_mdl_of(view, size, pfn);
    return true;
}

void vidmm_backing_free(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    if (!in->backing)
        return;
    if (in->section) {
        dxgk_iommu_kernel_map(a, in->backing, in->mdl.PageCount * DXGK_PAGE_SIZE, false);
        munmap(in->backing, in->mdl.PageCount * DXGK_PAGE_SIZE);
        close(in->section_fd);
        in->section = false;
        in->section_fd = -1;
    } else {
        dxgk_page_free(a, in->backing, in->mdl.PageCount * DXGK_PAGE_SIZE);
    }
    free(in->mdl.PfnArray);
    in->backing = NULL;
    memset(&in->mdl, 0, sizeof in->mdl);
}

void vidmm_batch_stamp_locked(struct vidmm_paging_batch *b, struct vidmm_instance *in, bool cpu_wait)
{
    WDDM_ASSERT_HELD(&b->adapter->lock);
    if (cpu_wait)
        in->stamp_fill = true;
    if (in->in_batch)
        return;
    in->in_batch = true;
    in->paging_next = b->stamp;
    b->stamp = in;
}

/* *loaded (when not NULL) is set when only a loaded context keeps the instance (seed 000). */
static bool evictable_tier_locked(const struct dxgk_adapter *a, const struct vidmm_instance *in, bool queued_too,
                                  enum vidmm_evict_mode mode, struct dxgk_context **loaded)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct dxgk_allocation *al = in->alloc;
    if (loaded)
        *loaded = NULL;
    if (in->in_batch || in->evicting || al->dead)
        return false;
    if (vidmm_locked_in_place(in))
        return false; /* the CPU holds a pointer into it (any instance: OutOfOrderLock, vidmm/lock.c);
                         not one through a range that follows the moves (SPECIAL_LOCK_TRANSFER) */
    if (in == al->current && al->resident_refs && mode != VIDMM_EVICT_PINNED_TOO)
        return false; /* MakeResident pinned it */
    /* GpuMmu: a packet reaches memory through VAs, and no prepare step makes what it uses
     * resident again before it runs (there is no allocation list): every packet its device
     * queued before the Evict protects it, also one held behind a GPU wait (no ticket yet,
     * vidmm_va_device_use_locked). */
    if (a->mmu && in->held_va_refs)
        return false;
    if (a->mmu)
        queued_too = true;
    /* No queued or in-flight DMA buffer references it. A paging operation of it still pending
     * (its FILL, restore or MAP) is no obstacle: the eviction runs after it on the same
     * paging node, in order. */
    for (UINT n = 0; n < a->node_count; n++) {
        UINT64 t = queued_too ? in->last_use[n] : in->prepared_use[n];
        if (t && !gsched_ticket_retired(&a->node[n], t))
            return false;
    }
    /* A context allocation also stays while its context is still loaded on its node (lazy
     * switching), a device's while a context of the device has work or is loaded (seed 000,
     * vidmm/context_allocation.c). Checked after the tickets: see there why. */
    if (al->ctx_owner && !dxgk_context_allocation_evictable_locked(a, al->ctx_owner, loaded))
        return false;
    return true;
}

bool vidmm_evictable_locked(const struct dxgk_adapter *a, const struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    return evictable_tier_locked(a, in, true, VIDMM_EVICT_ORDINARY, NULL);
}

/* The dummy page UNMAP_APERTURE_SEGMENT points the range at (docs/semantics.md §2.3): one zeroed
 * system page per process, committed at the first unmap and never freed (it must outlive every
 * aperture mapping of every adapter). */
static void *dummy_storage;
static pthread_once_t dummy_once = PTHREAD_ONCE_INIT;
static void dummy_init(void)
{
    dummy_storage = dxgk_page_alloc(NULL, DXGK_PAGE_SIZE); /* every isolated adapter maps it (objects/adapter.c) */
}

void *vidmm_dummy_page(void)
{
    pthread_once(&dummy_once, dummy_init);
    return dummy_storage;
}

/* The aperture segment of EvictionSegmentSet (ascending id) that has a free range for the
 * instance right now, its range reserved in *offset; 0 when none. */
static UINT eviction_aperture_locked(struct dxgk_adapter *a, const struct vidmm_instance *in, UINT64 *offset)
{
    WDDM_ASSERT_HELD(&a->lock);
    const DXGK_ALLOCATIONINFO *info = &in->alloc->info;
    for (UINT id = 1; id <= a->segment_count; id++) {
        struct vidmm_segment *t = &a->seg[id - 1];
        if (!(info->EvictionSegmentSet & (1u << (id - 1))) || !t->aperture || id == in->segment_id)
            continue;
        if (vidmm_segment_alloc_locked(t, info->Size, info->Alignment, offset))
            return id;
    }
    return 0;
}

void vidmm_special_lock_transfer_args(DXGKARG_BUILDPAGINGBUFFER *args, const struct vidmm_instance *in)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFER t = args->Transfer;
    DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER *x = &args->SpecialLockTransfer;
    memset(x, 0, sizeof *x);
    args->Operation = DXGK_OPERATION_SPECIAL_LOCK_TRANSFER;
    x->hAllocation = t.hAllocation;
    x->TransferOffset = t.TransferOffset;
    x->TransferSize = t.TransferSize;
    x->Source.SegmentId = t.Source.SegmentId;
    x->Source.SegmentAddress = t.Source.SegmentAddress; /* or the MDL pointer: the same union */
    x->Destination.SegmentId = t.Destination.SegmentId;
    x->Destination.SegmentAddress = t.Destination.SegmentAddress;
    x->Flags = t.Flags; /* no MdlOffset: an MDL side starts at its first page */
    x->SwizzlingRangeId = in->swz_range - 1;
    x->SwizzlingRangeData = in->swz_private;
}

/* The paging operation that takes `in` out of its segment: an UNMAP from the aperture; a
 * TRANSFER into the aperture range `ap` just mapped over its backing store; a DISCARD_CONTENT
 * when its content is dead (renamed, offered) or already in a clean backing store; else a
 * TRANSFER to its system-memory backing store (committed here; false: no memory). Held through
 * a range that follows it (`special`): always that last TRANSFER, as a SPECIAL_LOCK_TRANSFER -
 * the KMD points the range at the backing store, so no copy may be skipped. */
static bool evict_op(struct dxgk_adapter *a, struct vidmm_instance *in, UINT ap, UINT64 ap_offset, bool dead_content,
                     bool want_linear, bool special, UINT idle, DXGKARG_BUILDPAGINGBUFFER *args)
{
    struct dxgk_allocation *al = in->alloc;
    struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    if (s->aperture) {
        vidmm_unmap_aperture_args(args, in, in->segment_id, in->offset);
    } else if (ap && !in->backing_valid) {
        /* Into the aperture range just mapped over the backing store (docs/semantics.md §2.3: a
         * segment side is BaseAddress + offset). */
        args->Operation = DXGK_OPERATION_TRANSFER;
        args->Transfer.hAllocation = al->info.hAllocation;
        args->Transfer.TransferOffset = 0;
        args->Transfer.TransferSize = al->info.Size;
        args->Transfer.Source.SegmentId = in->segment_id;
        args->Transfer.Source.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)in->offset;
        args->Transfer.Destination.SegmentId = ap;
        args->Transfer.Destination.SegmentAddress.QuadPart =
            a->seg[ap - 1].desc.BaseAddress.QuadPart + (LONGLONG)ap_offset;
        args->Transfer.Flags.AllocationIsIdle = idle;
    } else if (!special &&
               (dead_content || (in->backing && in->backing_valid && (!want_linear || in->unswizzled)))) {
        args->Operation = DXGK_OPERATION_DISCARD_CONTENT;
        args->DiscardContent.hAllocation = al->info.hAllocation;
        args->DiscardContent.SegmentId = in->segment_id;
        args->DiscardContent.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)in->offset;
        args->DiscardContent.Flags.AllocationIsIdle = idle;
    } else {
        if (!vidmm_backing_commit(a, in))
            return false;
        args->Operation = DXGK_OPERATION_TRANSFER;
        args->Transfer.hAllocation = al->info.hAllocation;
        args->Transfer.TransferOffset = 0;
        args->Transfer.TransferSize = al->info.Size;
        args->Transfer.Source.SegmentId = in->segment_id;
        args->Transfer.Source.SegmentAddress.QuadPart = s->desc.BaseAddress.QuadPart + (LONGLONG)in->offset;
        args->Transfer.Destination.SegmentId = 0;
        args->Transfer.Destination.pMdl = &in->mdl;
        args->Transfer.MdlOffset = 0;
        args->Transfer.Flags.AllocationIsIdle = idle;
        args->Transfer.Flags.Unswizzle = want_linear;
        if (special)
            vidmm_special_lock_transfer_args(args, in);
    }
    return true;
}

NTSTATUS vidmm_evict_instance_locked(struct dxgk_adapter *a, struct vidmm_instance *in,
                                      struct vidmm_paging_batch *batch, enum vidmm_evict_mode mode)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct dxgk_allocation *al = in->alloc;
    struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    /* A renamed instance no DMA buffer may name again holds dead WRITE_DISCARD content; one the
     * caller's unsubmitted commands may still name (not yet retired for references, or kept by
     * DoNotRetireInstance) does not (vidmm/rename.c). */
    bool dead_content = vidmm_instance_dead_locked(a, al, in);
    /* An offered allocation's content is the application's to lose (vidmm/offer.c). */
    bool offered = al->offer_priority && in == al->current;
    dead_content |= offered;
    /* Locking Swizzled Allocations: a Swizzled allocation is stored linear only when a lock asks
     * (in->unswizzle), and a linear backing store can never back an aperture range. Any other
     * CPU-visible allocation the KMD always stores linear; VidMm tracks nothing for it. */
    bool swizzled = al->info.Flags.Swizzled, want_linear = swizzled && in->unswizzle;
    in->unswizzle = false;
    /* Held through the alternate VA of a UseAlternateVA lock (D3DDDICB_LOCKFLAGS; vidmm/lock.c):
     * the content goes to the backing store by a SPECIAL_LOCK_TRANSFER, the form the KMD keeps
     * (the range untiles on the fly wherever it points), never discarded (a lock excludes a
     * rename or an offer: it is current, its content alive), never into an aperture range. */
    bool special = vidmm_moves_under_lock(in) && !s->aperture;
    if (special) {
        dead_content = false;
        want_linear = false;
    }
    /* EvictionSegmentSet: out of a memory segment into an aperture segment that has room. A
     * renamed instance's content is dead: it is discarded, never moved. */
    UINT64 ap_offset = 0;
    UINT ap = 0;
    if (!s->aperture && !dead_content && !special && al->info.EvictionSegmentSet &&
        !(swizzled && (want_linear || in->unswizzled)) && vidmm_backing_commit(a, in))
        ap = eviction_aperture_locked(a, in, &ap_offset);
    if (ap) {
        DXGKARG_BUILDPAGINGBUFFER map = { 0 };
        vidmm_map_aperture_args(a, &map, in, ap, ap_offset); /* op 5, or 17 with MapAperture2Supported */
        if (!NT_SUCCESS(vidmm_paging_build_locked(batch, &map, in))) {
            /* Nothing moved: evict to system memory as without a set. */
            vidmm_segment_free_locked(&a->seg[ap - 1], ap_offset, al->info.Size);
            ap = 0;
        }
    }
    /* No DMA buffer references it (it is a victim), but a paging operation of it may still be
     * pending (its FILL or restore): then it is not idle, and a KMD may answer
     * STATUS_GRAPHICS_ALLOCATION_BUSY (docs/semantics.md §2.4): vidmm/paging.c waits for it with
     * the adapter lock let go and calls again with AllocationIsIdle. */
    UINT idle = vidmm_instance_retired_locked(a, in) ? 1u : 0u;
    DXGKARG_BUILDPAGINGBUFFER args = { 0 };
    if (!evict_op(a, in, ap, ap_offset, dead_content, want_linear, special, idle, &args))
        return STATUS_NO_MEMORY;
    in->evicting = true; /* through a BUSY wait: neither freed nor chosen again meanwhile */
    NTSTATUS st = vidmm_paging_build_locked(batch, &args, in);
    in->evicting = false;
    /* After a BUSY wait the lock was let go: if the CPU locked it, MakeResident pinned it (not
     * an obstacle in VIDMM_EVICT_PINNED_TOO) or a DMA buffer took it meanwhile, the eviction is
     * abandoned. The copy out already built only reads the range (into the backing store, or
     * the aperture range over it); the backing store is not marked valid. A reserved aperture
     * range is given back: it stays mapped to the backing store until the next MAP over it,
     * which nothing reads meanwhile. */
    if (NT_SUCCESS(st) && !evictable_tier_locked(a, in, false, mode, NULL))
        st = STATUS_VIDMM_EVICTION_ABANDONED;
    if (!NT_SUCCESS(st)) {
        if (ap)
            vidmm_segment_free_locked(&a->seg[ap - 1], ap_offset, al->info.Size);
        return st;
    }
    UINT64 touch = in->last_touch;
    vidmm_lru_unlink_locked(a, in);
    vidmm_segment_free_locked(s, in->offset, al->info.Size);
    s->evicted_bytes[vidmm_priority_class(al->priority)] += al->info.Size;
    if (ap) {
        /* Resident in the aperture, content in its backing store: a later eviction from there is
         * an UNMAP, a lock reads the backing store (wait for this batch: stamp_fill). It keeps
         * its age: it was the least recently used, it stays the first victim there. */
        in->segment_id = ap;
        in->offset = ap_offset;
        in->cpu = in->backing;
        vidmm_lru_link_locked(a, in);
        in->last_touch = touch;
        in->evicted = false;
        in->backing_valid = true;
    } else {
        in->segment_id = 0;
        in->offset = 0;
        in->cpu = NULL;
        in->evicted = !dead_content; /* a committed backing store stays for the next eviction */
        in->backing_valid = in->evicted;
        if (swizzled && (args.Operation == DXGK_OPERATION_TRANSFER || special))
            in->unswizzled = want_linear; /* else the backing store keeps the form it had */
    }
    /* GpuMmu (issue 6): the PTEs follow (Valid 0 once not resident), in this batch, after the
     * copy out: the engine faults instead of reading a freed range. */
    (void)vidmm_va_instance_moved_locked(a, in, batch);
    /* Destruction waits for the copy out; so do a lock in the aperture and, for a move under a
     * lock, the range's release (vidmm/lock.c D3DKMTUnlock): the copy runs first. */
    vidmm_batch_stamp_locked(batch, in, ap != 0 || special);
    batch->evicted = true;
    if (offered)
        al->discarded = true;
    DXGK_COUNT(a, evictions, 1);
    if (al->ctx_owner)
        DXGK_COUNT(a, context_allocation_evictions, 1);
    wddm_tl(WDDM_TL_EVICT, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), al->handle, al->info.Size);
    if (args.Operation == DXGK_OPERATION_TRANSFER || special)
        DXGK_COUNT(a, bytes_paged_out, al->info.Size);
    return STATUS_SUCCESS;
}

/* Picks the victim among the given segments (the new instance's allowed segments): lowest
 * priority first, then needed last by the queued work, then least recently used, across all
 * of them (better_victim below); soft-pinned instances
 * (MAXIMUM and above) only once no other is evictable in either tier below. First among the instances no
 * queued or in-flight packet references (their tickets retired); only when there is none,
 * among those referenced by queued packets that were not made ready for the GPU yet (no
 * prepared_use outstanding): the worker's prepare step restores them when their packet comes
 * (as Windows, which only protects what the GPU may touch), so a queue referencing more than
 * the segments hold never deadlocks. Returns the segment it was evicted from, 0 when nothing
 * is evictable. */
/* How far VidMm looks into the queued packets (submitted by D3DKMTRender, not yet taken by the
 * node worker) for the victim choice: packets up to this many node tickets past the first
 * queued one. The queue is what VidMm legitimately knows of the future: Belady's MIN on it
 * (evict what is needed last) beats any recency or frequency guess. The bound keeps the walk,
 * repeated for each eviction, cheap next to the copy it decides (a few thousand list entries).
 * On the V1 trace of `wddm bench` with the whole trace queued, a lookahead of 64 packets paged
 * ~1.3-1.45x MIN, 256 ~1.15x, 512 and more ~1.01-1.03x; plain LRU ~1.6-1.8x. An application
 * queues a few frames: then the queue, not this bound, limits what VidMm sees. */
#define VIDMM_LOOKAHEAD_TICKETS 1024u

static _Atomic UINT64 scan_clock; /* numbers the walks; unique across adapters */

/* Marks every instance referenced by a queued packet within the lookahead with how far ahead
 * its first such reference is (node tickets from the node's first queued packet). Returns the
 * walk's number: an instance with another next_ref_scan has no queued reference within the
 * lookahead. Packets held behind a GPU wait have no ticket yet and are not looked at. */
static UINT64 scan_queued_locked(struct dxgk_adapter *a)
{
    WDDM_ASSERT_HELD(&a->lock);
    UINT64 scan = atomic_fetch_add(&scan_clock, 1) + 1;
    for (UINT n = 0; n < a->node_count; n++) {
        struct gsched_queued_iter it;
        for (struct dxgk_packet *p = gsched_queued_first_locked(&a->node[n], VIDMM_LOOKAHEAD_TICKETS, &it); p;
             p = gsched_queued_next_locked(&it))
            for (UINT i = 0; i < p->alloc_count; i++) {
                struct vidmm_instance *in = p->inst[i];
                UINT64 d = p->ticket - it.base;
                if (in->next_ref_scan != scan || d < in->next_ref) {
                    in->next_ref_scan = scan;
                    in->next_ref = d;
                }
            }
    }
    return scan;
}

/* Priority first (docs/semantics.md §9.4: a lower priority is always evicted before a higher one);
 * among equals the one needed last by the queued work (Belady's MIN on what VidMm knows); then
 * the least recently used (§9.5 #2: LRU is all that is left when the queue says nothing, e.g.
 * for every instance of tier 0, which no queued packet references). Tried and not kept: a
 * segmented LRU that evicts instances used once since placement first (V1 paged 2-3x more,
 * evicting newly restored members of the hot set); LRU-2 on the D3DKMTRender references, with
 * the history kept across evictions (V1 with three frames queued: 1.30-1.32x MIN at 2x local
 * and 1.21-1.24x at 4x, against 1.31-1.34x and 1.31x, but V2's render-target readback went
 * from 3.4-4.5 to 8-12 ms in a quick run with the same counts of evictions and restores: 5 of
 * its 6 victims held content never saved (80 MiB copied out) where all of LRU's were clean;
 * over a full run's 40 readbacks 4.1 -> 4.7 ms, 272 MiB saved against none: a frequency order
 * says nothing of what an eviction costs). */
static bool better_victim(const struct vidmm_instance *in, const struct vidmm_instance *v, UINT64 scan)
{
    /* Offered allocations go first, the lowest offer priority first (vidmm/offer.c). */
    UINT oi = in->alloc->offer_priority ? in->alloc->offer_priority : UINT32_MAX;
    UINT ov = v->alloc->offer_priority ? v->alloc->offer_priority : UINT32_MAX;
    if (oi != ov)
        return oi < ov;
    if (in->alloc->priority != v->alloc->priority)
        return in->alloc->priority < v->alloc->priority;
    UINT64 ni = in->next_ref_scan == scan ? in->next_ref : UINT64_MAX;
    UINT64 nv = v->next_ref_scan == scan ? v->next_ref : UINT64_MAX;
    if (ni != nv)
        return ni > nv;
    return in->last_touch < v->last_touch;
}

/* D3DDDI_ALLOCATIONPRIORITY_MAXIMUM and above is soft-pinned (docs/semantics.md §9.4): evicted only
 * when nothing else resolves the request, after every other evictable allocation of the allowed
 * segments, of any age and either tier. */
static bool soft_pinned(const struct vidmm_instance *in)
{
    return in->alloc->priority >= D3DDDI_ALLOCATIONPRIORITY_MAXIMUM && !in->alloc->offer_priority;
}

/* Seed 000, docs/semantics.md §1.2 invariant 3: when nothing else is evictable, a context
 * allocation kept only because its context is loaded on a node is freed by switching that node
 * to the null context first. How many such switches one eviction may wait for before it gives
 * up (each frees one context; a context loaded again meanwhile needs another). */
#define VIDMM_UNLOAD_ATTEMPTS 4

static struct vidmm_instance *pick_victim_locked(struct dxgk_adapter *a, const UINT *segments, UINT count,
                                                 struct dxgk_context **unload)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_instance *victim = NULL;
    *unload = NULL;
    UINT64 scan = scan_queued_locked(a);
    /* Passes: not soft-pinned (tier 0, then tier 1), then soft-pinned (tier 0, then tier 1). */
    for (int pass = 0; pass < 4 && !victim; pass++) {
        int tier = pass % 2;
        bool soft = pass >= 2;
        for (UINT k = 0; k < count; k++) {
            struct vidmm_segment *s = &a->seg[segments[k] - 1];
            for (struct vidmm_instance *in = s->lru_head; in; in = in->lru_next) {
                struct dxgk_context *loaded = NULL;
                if (soft_pinned(in) != soft ||
                    !evictable_tier_locked(a, in, tier == 0, VIDMM_EVICT_ORDINARY, &loaded)) {
                    if (loaded && !*unload)
                        *unload = loaded;
                    continue;
                }
                if (!victim || better_victim(in, victim, scan))
                    victim = in;
            }
        }
    }
    return victim;
}

UINT vidmm_evict_one_locked(struct dxgk_adapter *a, const UINT *segments, UINT count,
                            struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (int unloads = 0;;) {
        struct dxgk_context *unload = NULL;
        struct vidmm_instance *victim = pick_victim_locked(a, segments, count, &unload);
        if (!victim) {
            if (!unload || unloads++ == VIDMM_UNLOAD_ATTEMPTS)
                return 0;
            /* The adapter lock is let go while the node switches (as for a BUSY wait, paging.c):
             * the context may be destroyed meanwhile, its reference keeps it. */
            dxgk_object_get(&unload->obj);
            pthread_mutex_unlock(&a->lock);
            bool unloaded = gsched_unload_context(a, unload);
            dxgk_object_put(&unload->obj);
            pthread_mutex_lock(&a->lock);
            if (!unloaded)
                return 0;
            continue;
        }
        UINT id = victim->segment_id;
        NTSTATUS st = vidmm_evict_instance_locked(a, victim, batch, VIDMM_EVICT_ORDINARY);
        if (st == STATUS_VIDMM_EVICTION_ABANDONED) /* abandoned after a BUSY wait: it is no victim any more, pick again */
            continue;
        return NT_SUCCESS(st) ? id : 0;
    }
}

/* Waits (adapter lock dropped) until every node retired what it had submitted to the hardware
 * at the call (queued: once the paging node ran dry, every ticket handed out by then). */
static void wait_nodes_locked(struct dxgk_adapter *a, bool queued)
{
    WDDM_ASSERT_HELD(&a->lock);
    UINT64 f[DXGK_MAX_NODES];
    if (queued) {
        /* Packets held behind a GPU wait for a paging fence get their tickets when the paging
         * node reaches it: let it run dry first, so that they are among the work waited for. */
        pthread_mutex_unlock(&a->lock);
        gsched_wait_node_idle(&a->node[a->paging_node]);
        pthread_mutex_lock(&a->lock);
    }
    for (UINT n = 0; n < a->node_count; n++) {
        pthread_mutex_lock(&a->node[n].lock);
        f[n] = queued ? a->node[n].queued_ticket : a->node[n].submitted_fence;
        pthread_mutex_unlock(&a->node[n].lock);
    }
    pthread_mutex_unlock(&a->lock);
    for (UINT n = 0; n < a->node_count; n++) {
        if (f[n] && queued)
            gsched_wait_ticket(&a->node[n], f[n]);
        else if (f[n])
            gsched_wait_fence(&a->node[n], f[n]);
        /* The DPC publishes the completed fence and the retired tickets in one node->lock
         * section: after this the tickets of those packets read retired. */
        pthread_mutex_lock(&a->node[n].lock);
        pthread_mutex_unlock(&a->node[n].lock);
    }
    /* Destroyed allocations that this work kept alive are never victims (they are dead) but
     * hold segment ranges: free them now. The caller may be the node worker, which would
     * otherwise free them only after the placement that needs their room has failed. */
    a->up->deferred_process(a, NULL, false);
    pthread_mutex_lock(&a->lock);
}

void vidmm_wait_submitted_locked(struct dxgk_adapter *a)
{
    WDDM_ASSERT_HELD(&a->lock);
    wait_nodes_locked(a, false);
}

void vidmm_wait_queued_locked(struct dxgk_adapter *a)
{
    WDDM_ASSERT_HELD(&a->lock);
    wait_nodes_locked(a, true);
}
