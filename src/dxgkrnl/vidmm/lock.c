/* D3DKMTLock / D3DKMTUnlock (docs/semantics.md §3.2, seed 001 §8).
 *
 * Only CpuVisible allocations lock. The flag algebra is validated first. A lock places a
 * non-resident instance in a CPU-accessible segment; the pointer is the segment's CPU mapping
 * + offset (a CpuVisible memory segment: CpuTranslatedAddress is the host address) or the
 * aperture placement's backing store. Implicit synchronisation: ReadOnly (and IgnoreReadSync)
 * waits for the last GPU write of the instance, other locks for its last GPU use; DonotWait
 * on a busy instance returns STATUS_GRAPHICS_ALLOCATION_BUSY at once; Discard on a busy
 * instance renames (vidmm/rename.c); IgnoreSync + DonotWait does not synchronise at all.
 * Discard without NoExistingReference always moves to another instance (the caller may have
 * commands naming the current one it has not submitted) and fails with STATUS_NO_MEMORY when none
 * can be created or recycled; with NoExistingReference the current instance is kept when idle
 * (vidmm/rename.c). A Discard of an allocation that is already locked does not rename
 * (the outstanding pointer must stay valid): it synchronises like a plain lock.
 * An evicted instance (vidmm/evict.c) is restored first, always into a CPU-accessible segment
 * (CpuVisible allocations are only placed there), and the CPU waits for that restore; with
 * DonotWait the restore is started and the lock returns STATUS_GRAPHICS_ALLOCATION_BUSY. When
 * nothing is evictable the lock waits once for the work in flight and retries, then fails with
 * STATUS_NO_MEMORY. A locked current instance is never evicted (DonotEvict is implied), except
 * under a UseAlternateVA lock that did not ask DonotEvict (below).
 *
 * Instances (docs/semantics.md §3.3, DXGK_VIDMMCAPS.OutOfOrderLock, issue 3): a Discard lock that
 * renames returns the new instance's own handle in hAllocation (vidmm/rename.c). A lock naming
 * an instance handle locks that instance. The newest instance may always be locked; an older
 * one only when the KMD sets DXGK_VIDMMCAPS.OutOfOrderLock ("the driver can lock allocation
 * instances other than the latest instance", e.g. a DDI thread locking a buffer the application
 * thread already discarded): without the cap STATUS_INVALID_PARAMETER. Such a lock synchronises
 * with that instance's own GPU use (not the newest's), never renames (Discard on it is refused),
 * and keeps it from being recycled or evicted until unlocked (vidmm_instance.lock_count).
 *
 * AcquireAperture (docs/semantics.md §3.2; "Locking Swizzled Allocations"; DxgkDdiAcquireSwizzlingRange),
 * when the KMD reports DXGK_DRIVERCAPS.NumberOfSwizzlingRanges > 0: the lock synchronises as a
 * plain lock (a Discard does not rename), places the instance, then VidMm hands a free range to
 * DxgkDdiAcquireSwizzlingRange and returns its CPUTranslatedAddress: the allocation as it looks
 * after an unswizzling eviction. The range is released at the unlock (or when the allocation is
 * destroyed) with DxgkDdiReleaseSwizzlingRange; ranges are arbitrated among all allocations of
 * the adapter. At the limit (no free range, or every free one answered UNAVAILABLE; ranges in use
 * belong to outstanding locks and cannot be taken back): with DonotEvict the lock fails with
 * STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE (D3DERR_NOTAVAILABLE at pfnLockCb); without, the
 * instance is evicted to system memory and the CPU gets its backing store (the KMD stores a
 * CPU-visible allocation linear when it evicts it, docs/semantics.md §2.4). Refused: AcquireAperture
 * on an allocation that can only live in an aperture segment, or that is already locked; any
 * lock while an AcquireAperture lock of it is outstanding; a DMA buffer naming an instance locked
 * that way (sched/queue.c) (§3.2 rules 6, 11). Such a lock, like any, holds the instance where it
 * is (DonotEvict is implied), except a UseAlternateVA one.
 * UseAlternateVA (D3DDDICB_LOCKFLAGS): the KMD may return a view of another address and size
 * (CPUTranslatedAddress, RangeSize), also for an instance resident in an aperture segment (the
 * range then untiles the system pages on the fly); at the range limit the lock fails (no other
 * view); refused on shared allocations and on a primary not created UseAlternateVA, required on
 * one created so (rule 7). Without DonotEvict (the model reads it as "not while the lock lasts
 * either"; the docs speak of it for the lock's own eviction) it lets VidMm move the instance
 * while the CPU holds it (D3DDDICB_LOCKFLAGS: the alternate VA goes when "the allocation is not
 * accessible to the CPU and is being evicted" or "is being paged in after it was evicted while
 * under lock"; Locking Swizzled Allocations: such an eviction is "invisible to the
 * application"): each move out of or into a memory segment is a
 * DXGK_OPERATION_SPECIAL_LOCK_TRANSFER ("transferred from or to the alternate virtual address"),
 * the TRANSFER fields plus SwizzlingRangeId and SwizzlingRangeData (vidmm/evict.c,
 * vidmm/residency.c); the KMD points the range at the new place, so the CPU's pointer stays
 * valid and shows the content. The unlock releases the range once the last such copy ran. The
 * operation is WDDM 1.x only (DXGK_BUILDPAGINGBUFFER_OPERATION): in the GpuMmu model the lock
 * holds the instance in place (vidmm_instance.swz_movable).
 * Without UseAlternateVA, an instance that is evicted or resident in an aperture segment is first
 * paged into a memory segment (case 2 of Locking Swizzled Allocations), then acquired as case 1.
 * Allocations the KMD marks Swizzled: VidMm tracks the form of the backing store
 * (vidmm_instance.unswizzled). An ordinary eviction keeps them swizzled (no TRANSFER flag); the
 * eviction at the range limit asks the KMD to unswizzle (DXGK_TRANSFERFLAGS.Unswizzle), and a
 * later AcquireAperture lock of the instance still evicted that way gets the backing store at
 * once (case 3); its restore goes only into a memory segment, with Swizzle. IgnoreSync on them is
 * refused. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <stdlib.h>

static bool lock_flags_valid(const D3DKMT_LOCK *l, const struct dxgk_adapter *a)
{
    D3DDDICB_LOCKFLAGS f = l->Flags;
    if (f.Reserved) {
        dxgk_refuse("D3DKMTLock: reserved D3DDDICB_LOCKFLAGS bits set (0x%08x)", f.Value);
        return false;
    }
    if (f.ReadOnly && f.WriteOnly) {
        dxgk_refuse("D3DKMTLock: ReadOnly with WriteOnly");
        return false;
    }
    if (f.IgnoreSync && f.AcquireAperture) {
        dxgk_refuse("D3DKMTLock: IgnoreSync with AcquireAperture");
        return false;
    }
    if (f.UseAlternateVA && !f.AcquireAperture) {
        dxgk_refuse("D3DKMTLock: UseAlternateVA without AcquireAperture");
        return false;
    }
    if (f.AcquireAperture && a->caps.NumberOfSwizzlingRanges == 0) {
        dxgk_refuse("D3DKMTLock: AcquireAperture but the KMD reports no swizzling ranges "
                    "(DXGK_DRIVERCAPS.NumberOfSwizzlingRanges 0)");
        return false;
    }
    if (f.AcquireAperture &&
        (!a->driver.ddi.DxgkDdiAcquireSwizzlingRange || !a->driver.ddi.DxgkDdiReleaseSwizzlingRange)) {
        dxgk_refuse("verifier: the KMD reports %u swizzling ranges but no DxgkDdiAcquireSwizzlingRange / "
                    "DxgkDdiReleaseSwizzlingRange", a->caps.NumberOfSwizzlingRanges);
        return false;
    }
    if (f.LockEntire && (l->NumPages || l->pPages)) {
        dxgk_refuse("D3DKMTLock: LockEntire with a page list (NumPages %u)", l->NumPages);
        return false;
    }
    if (l->NumPages && !l->pPages) {
        dxgk_refuse("D3DKMTLock: NumPages %u with NULL pPages", l->NumPages);
        return false;
    }
    if (l->GpuVirtualAddress) {
        dxgk_refuse("D3DKMTLock: GpuVirtualAddress is reserved and must be 0");
        return false;
    }
    return true;
}

/* Until the paging fence `fence` (0: none) passed, with the adapter lock let go meanwhile: the
 * caller looks again at whatever the lock protects. */
static void wait_paging_fence_locked(struct dxgk_adapter *a, UINT64 fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!fence || gsched_fence_completed(&a->node[a->paging_node], fence))
        return;
    pthread_mutex_unlock(&a->lock);
    gsched_wait_fence(&a->node[a->paging_node], fence);
    pthread_mutex_lock(&a->lock);
}

/* Locking Swizzled Allocations, cases 1 and 3: the CPU gets `in`'s backing store in system
 * memory. It is marked an AcquireAperture lock (no DMA buffer may name it) and pinned while the
 * paging fence `fence` (its copy out) passes with the adapter lock let go. False: the allocation
 * was destroyed meanwhile (refusal logged). The caller then counts the lock as any. */
static bool hold_backing_for_cpu_locked(struct dxgk_adapter *a, struct dxgk_allocation *al, struct vidmm_instance *in,
                                        UINT64 fence, D3DKMT_HANDLE h)
{
    WDDM_ASSERT_HELD(&a->lock);
    in->swz_lock = true;
    al->lock_count++;
    in->lock_count++;
    wait_paging_fence_locked(a, fence);
    if (al->dead) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", h);
        return false;
    }
    al->lock_count--;
    in->lock_count--;
    return true;
}

/* DxgkDdiAcquireSwizzlingRange for `in` (resident, idle, about to be locked): the first free range
 * the KMD can program. STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE: the limit (every range
 * in use or refused as UNAVAILABLE). Adapter lock held (the DDI calls are serialised by it). */
static NTSTATUS swizzle_acquire_locked(struct dxgk_adapter *a, struct dxgk_allocation *al, struct vidmm_instance *in,
                                       UINT private_data, bool alternate_va, bool movable, UINT8 **cpu)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* Without UseAlternateVA the lock paged the instance into a memory segment first (case 2). */
    UINT n = a->caps.NumberOfSwizzlingRanges < DXGK_MAX_SWIZZLING_RANGES ? a->caps.NumberOfSwizzlingRanges
                                                                          : DXGK_MAX_SWIZZLING_RANGES;
    for (UINT r = 0; r < n; r++) {
        if (a->swz_owner[r])
            continue;
        DXGKARG_ACQUIRESWIZZLINGRANGE arg = { .hAllocation = al->info.hAllocation, .PrivateDriverData = private_data,
                                              .RangeId = r, .SegmentId = in->segment_id,
                                              .RangeSize = (SIZE_T)al->info.Size };
        NTSTATUS st = a->driver.ddi.DxgkDdiAcquireSwizzlingRange(a->miniport, &arg);
        if (st == STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE)
            continue; /* the KMD's own resource for this range is busy: the next free one */
        if (!NT_SUCCESS(st)) {
            dxgk_refuse("D3DKMTLock: DxgkDdiAcquireSwizzlingRange(range %u) failed 0x%08x", r, (unsigned)st);
            return st;
        }
        /* UseAlternateVA: the KMD may move the view and change its footprint (D3DDDICB_LOCKFLAGS). */
        if (!arg.CPUTranslatedAddress.QuadPart || !arg.RangeSize ||
            (arg.RangeSize != (SIZE_T)al->info.Size && !alternate_va)) {
            DXGKARG_RELEASESWIZZLINGRANGE rel = { .hAllocation = arg.hAllocation, .PrivateDriverData = private_data,
                                                  .RangeId = r };
            a->driver.ddi.DxgkDdiReleaseSwizzlingRange(a->miniport, &rel);
            dxgk_refuse("verifier: DxgkDdiAcquireSwizzlingRange returned no CPUTranslatedAddress or changed "
                        "RangeSize without UseAlternateVA");
            return STATUS_UNSUCCESSFUL;
        }
        a->swz_owner[r] = in;
        in->swz_range = r + 1;
        in->swz_private = private_data;
        in->swz_lock = true;
        /* SPECIAL_LOCK_TRANSFER is a WDDM 1.x operation (DXGK_BUILDPAGINGBUFFER_OPERATION): in
         * the GpuMmu model the lock keeps the instance in place. */
        in->swz_movable = movable && !a->mmu;
        *cpu = (UINT8 *)(uintptr_t)arg.CPUTranslatedAddress.QuadPart;
        return STATUS_SUCCESS;
    }
    return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE;
}

void vidmm_swizzle_release_locked(struct dxgk_adapter *a, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (in->swz_range) {
        UINT r = in->swz_range - 1;
        DXGKARG_RELEASESWIZZLINGRANGE rel = { .hAllocation = in->alloc->info.hAllocation,
                                              .PrivateDriverData = in->swz_private, .RangeId = r };
        NTSTATUS st = a->driver.ddi.DxgkDdiReleaseSwizzlingRange(a->miniport, &rel);
        if (!NT_SUCCESS(st))
            dxgk_refuse("DxgkDdiReleaseSwizzlingRange(range %u) failed 0x%08x (ignored)", r, (unsigned)st);
        a->swz_owner[r] = NULL;
        in->swz_range = 0;
    }
    in->swz_lock = false;
    in->swz_movable = false;
}

/* D3DKMTLock as phases over one operation (issue 16): the arguments; the instance the handle
 * names; synchronisation (or a Discard's rename); placement where the CPU can reach it; the
 * view (an AcquireAperture range); handing it out. The adapter lock is held from the instance
 * on; every phase that lets it go checks the allocation is still alive (lock_alive_locked). */
struct lock_op {
    D3DKMT_LOCK *args;
    bool paging_waits;                /* D3DKMTLock2: VidMm's own paging is waited for */
    struct dxgk_device *d;
    struct dxgk_adapter *a;
    struct dxgk_allocation *al;       /* one object reference */
    D3DDDICB_LOCKFLAGS f;
    bool discard, no_sync, writes_only;
    bool renamed, waited;
    UINT64 t0;                        /* when the first wait began */
    struct vidmm_paging_batch batch;
    struct vidmm_instance *want;      /* an older instance the handle names, NULL: the current one */
    struct vidmm_instance *in;        /* the instance being locked */
    UINT memory_only;                 /* AcquireAperture without UseAlternateVA: memory segments only */
    UINT8 *cpu;                       /* what the CPU gets */
};

static struct vidmm_instance *lock_target(const struct lock_op *op)
{
    return op->want ? op->want : op->al->current;
}

/* After the adapter lock was let go: false (with the refusal) if the allocation was destroyed. */
static bool lock_alive_locked(const struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    if (!op->al->dead)
        return true;
    dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", op->args->hAllocation);
    return false;
}

/* The lock's device was lost to a timeout recovery (sched/tdr.c): refused, with the reason. */
static bool lock_device_lost(const struct lock_op *op)
{
    if (op->d->error != STATUS_DEVICE_REMOVED)
        return false;
    dxgk_refuse("D3DKMTLock: device 0x%08x is lost (0x%08x)", op->args->hDevice, (unsigned)op->d->error);
    return true;
}

static void lock_wait_begins(struct lock_op *op)
{
    if (!op->waited)
        op->t0 = dxgk_now_ns();
    op->waited = true;
}

/* Phase 1 (no lock): the flags, the CPU-visibility rules of docs/semantics.md §3.2, the pages, an
 * offer (vidmm/offer.c), and the model's renaming rule (§3.3). */
static NTSTATUS lock_check_args(struct lock_op *op)
{
    D3DKMT_LOCK *args = op->args;
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!lock_flags_valid(args, a))
        return st;
    /* docs/semantics.md §3.2 rule 8 */
    if (!al->info.Flags.CpuVisible) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x was not created CpuVisible",
                    args->hAllocation);
        return st;
    }
    /* Rule 7 (D3DDDICB_LOCKFLAGS.UseAlternateVA): never on a shared allocation; a primary uses it
     * exactly when the KMD created it with DXGK_ALLOCATIONINFOFLAGS.UseAlternateVA. A second lock
     * while one is outstanding is refused below with every AcquireAperture lock (rule 11). */
    if (args->Flags.UseAlternateVA && (al->share || al->opened)) {
        dxgk_refuse("D3DKMTLock: UseAlternateVA on shared allocation 0x%08x",
                    args->hAllocation);
        return st;
    }
    if (al->primary && args->Flags.UseAlternateVA != al->info.Flags.UseAlternateVA) {
        dxgk_refuse("D3DKMTLock: primary 0x%08x %s", args->hAllocation,
                    al->info.Flags.UseAlternateVA ? "was created UseAlternateVA and must be locked with it"
                                                  : "was not created UseAlternateVA and cannot be locked with it");
        return st;
    }
    /* An offered allocation's content may go at any moment: reclaim it first (vidmm/offer.c). */
    pthread_mutex_lock(&a->lock);
    bool offered = al->offer_priority != 0;
    pthread_mutex_unlock(&a->lock);
    if (offered) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x is offered; reclaim it before locking it", args->hAllocation);
        return st;
    }
    UINT pages = (UINT)((al->info.Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE);
    for (UINT i = 0; i < args->NumPages; i++) {
        if (args->pPages[i] >= pages) {
            dxgk_refuse("D3DKMTLock: page %u (entry %u) beyond the allocation's %u pages", args->pPages[i], i, pages);
            return st;
        }
    }
    D3DDDICB_LOCKFLAGS f = args->Flags;
    if (f.Discard && a->mmu) {
        /* docs/semantics.md §3.3: with a WDDM 2.x KMD VidMm never renames; the UMD does. */
        dxgk_refuse("D3DKMTLock: Discard on a GpuMmu (WDDM 2.x) adapter: VidMm does not rename, the UMD "
                    "renames its own allocations; lock with D3DKMTLock2");
        st = STATUS_NOT_SUPPORTED;
        return st;
    }
    /* Rules 4 and 5: Discard neutralises IgnoreSync/DonotWait; IgnoreSync needs DonotWait. An
     * AcquireAperture lock does not rename: the KMD's range names the allocation's placement,
     * and the KMD cannot tell instances apart (docs/semantics.md §3.3). */
    op->f = f;
    op->discard = f.Discard && !f.AcquireAperture;
    op->no_sync = !op->discard && f.IgnoreSync && f.DonotWait;
    op->writes_only = f.ReadOnly || f.IgnoreReadSync; /* seed 001 §8: a read waits for writes */
    return STATUS_SUCCESS;
}

/* Phase 2 (adapter lock): the instance the handle names - an older one is `want` (locked as
 * such, OutOfOrderLock), else the current one whichever it is after a wait - and the rules that
 * depend on the allocation's locks now (docs/semantics.md §3.2 rules 6 and 11, Locking Swizzled
 * Allocations), then the device's state. */
static NTSTATUS lock_resolve_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    D3DKMT_LOCK *args = op->args;
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    if (al->dead) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x is being destroyed", args->hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    op->want = vidmm_instance_resolve_locked(a, al, args->hAllocation);
    if (!op->want) {
        dxgk_refuse("D3DKMTLock: handle 0x%08x names no instance of its allocation", args->hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    if (op->want == al->current) {
        op->want = NULL;
    } else if (!a->caps.MemoryManagementCaps.OutOfOrderLock) {
        dxgk_refuse("D3DKMTLock: handle 0x%08x names an instance older than the newest and the KMD does not "
                    "set DXGK_VIDMMCAPS.OutOfOrderLock", args->hAllocation);
        return STATUS_INVALID_PARAMETER;
    } else if (op->f.Discard) {
        dxgk_refuse("D3DKMTLock: Discard of instance 0x%08x, which is not the newest: only the newest "
                    "instance is renamed", args->hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    /* Swizzled and unswizzled views are never outstanding together; a lock holding a range is
     * the only lock. Such a lock is counted in lock_count, so an unlocked allocation (every W1
     * Map) skips the walk over its instances. */
    for (const struct vidmm_instance *x = al->lock_count ? al->instances : NULL; x; x = x->next) {
        if (x->swz_lock) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x has an AcquireAperture lock outstanding: unlock it first",
                        args->hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
    }
    /* "A no-overwrite lock (that is, a lock obtained by setting IgnoreSync) is not allowed on a
     * swizzled allocation" (Locking Swizzled Allocations). */
    if (op->f.IgnoreSync && al->info.Flags.Swizzled) {
        dxgk_refuse("D3DKMTLock: IgnoreSync on allocation 0x%08x, which the KMD created Swizzled "
                    "(locking-swizzled-allocations)", args->hAllocation);
        return STATUS_INVALID_PARAMETER;
    }
    if (op->f.AcquireAperture) {
        UINT allowed = vidmm_allowed_segments(a, &al->info);
        bool memory = false;
        for (UINT i = 0; i < a->segment_count; i++)
            memory |= (allowed & (1u << i)) && !a->seg[i].aperture;
        if (!memory) {
            dxgk_refuse("D3DKMTLock: AcquireAperture on allocation 0x%08x, which can only be placed in an aperture "
                        "segment", args->hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
        if (al->lock_count) {
            dxgk_refuse("D3DKMTLock: AcquireAperture on allocation 0x%08x, which is already locked",
                        args->hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
    }
    return lock_device_lost(op) ? STATUS_DEVICE_REMOVED : STATUS_SUCCESS;
}

/* Phase 3a: a Discard renames the current instance (vidmm/rename.c) - unless it is locked, its
 * backing store is shared with the KMD (seed 002 / docs/semantics.md §7 rule 8) or it is a primary
 * (§3.2): then it synchronises like a plain lock. Without NoExistingReference the caller's
 * unsubmitted commands may name the current instance: it is never reused, even idle. At
 * MaximumRenamingListLength (or out of memory) it waits for an instance to recycle, or, with
 * NoExistingReference, for the current one when there is none; without it, waiting for the GPU
 * cannot help: the caller must flush and retry. */
static NTSTATUS lock_rename_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    bool no_ref = op->f.NoExistingReference;
    while (!no_ref || !vidmm_instance_idle_locked(a, op->in, false)) {
        struct vidmm_instance *n = vidmm_rename_locked(a, al, &op->batch, no_ref);
        if (n) {
            op->in = n;
            op->renamed = true;
            DXGK_COUNT(a, renames, 1);
            wddm_tl(WDDM_TL_RENAME, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), op->args->hAllocation, al->info.Size);
            return STATUS_SUCCESS;
        }
        struct vidmm_instance *oldest = vidmm_rename_candidate_locked(a, al, no_ref);
        if (oldest && vidmm_instance_retired_locked(a, oldest))
            oldest = NULL; /* free to recycle, yet not recycled: memory is short */
        if (!no_ref && !oldest) {
            dxgk_refuse("D3DKMTLock: Discard of allocation 0x%08x: no instance can be created or reused until "
                        "the caller submits its commands and retries with NoExistingReference", op->args->hAllocation);
            return STATUS_NO_MEMORY;
        }
        if (!oldest)
            oldest = op->in; /* nothing to recycle (out of memory): stall on the current one */
        lock_wait_begins(op);
        vidmm_paging_flush_locked(&op->batch);
        vidmm_instance_wait_locked(a, oldest, false);
        if (!lock_alive_locked(op))
            return STATUS_INVALID_PARAMETER;
        op->in = al->current;
    }
    return STATUS_SUCCESS;
}

/* Phase 3: synchronisation with the GPU's use (seed 001 §8): a DMA buffer held behind a GPU wait
 * names the allocation and has no ticket yet - it takes the instance when released
 * (sched/queue.c), so the CPU waits for that first, or is told it is busy; then a Discard
 * renames (lock_rename_locked), or the CPU waits until the instance is idle (DonotWait: busy,
 * an expected answer with no refusal line - a program polling with DO_NOT_WAIT would print one
 * per poll; the counter keeps the count). */
static NTSTATUS lock_sync_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    if (!op->no_sync && al->held_refs) {
        if (op->f.DonotWait) {
            DXGK_COUNT(a, lock_still_drawing, 1);
            dxgk_refuse("D3DKMTLock: allocation 0x%08x is named by a DMA buffer held behind a GPU wait and "
                        "DonotWait is set", op->args->hAllocation);
            return STATUS_GRAPHICS_ALLOCATION_BUSY;
        }
        lock_wait_begins(op);
        while (al->held_refs && !al->dead)
            pthread_cond_wait(&a->held_cond, &a->lock);
        if (!lock_alive_locked(op))
            return STATUS_INVALID_PARAMETER;
    }
    op->in = lock_target(op);
    if (op->discard && op->in->lock_count == 0 && !al->kmd_backing && !al->primary)
        return lock_rename_locked(op);
    if (op->no_sync || vidmm_instance_idle_locked(a, op->in, op->writes_only))
        return STATUS_SUCCESS;
    if (op->f.DonotWait) {
        DXGK_COUNT(a, lock_still_drawing, 1);
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    }
    op->t0 = dxgk_now_ns();
    op->waited = true;
    vidmm_instance_wait_locked(a, op->in, op->writes_only);
    if (!lock_alive_locked(op))
        return STATUS_INVALID_PARAMETER;
    op->in = lock_target(op);
    return STATUS_SUCCESS;
}

/* Whether `x` must still be placed: not resident, or (AcquireAperture without UseAlternateVA,
 * Locking Swizzled Allocations case 2) not in a memory segment, where a range shows it linear. */
static bool lock_needs_place(const struct lock_op *op, const struct vidmm_instance *x)
{
    return !x->segment_id || (op->memory_only && !(op->memory_only & (1u << (x->segment_id - 1))));
}

/* Phase 4 (a): one placement of the target where the CPU can reach it; with everything evictable
 * referenced by work in flight, wait for that work and try once more. *paged: the lock had to
 * restore the instance or evict others for it. */
static NTSTATUS lock_place_once_locked(struct lock_op *op, bool *paged)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct vidmm_instance *in = op->in;
    bool was_evicted = in->evicted || in->segment_id; /* moving out of an aperture pages too */
    in->place_mask = op->memory_only;
    NTSTATUS st = vidmm_make_resident_locked(a, in, &op->batch, !op->renamed);
    in->place_mask = 0;
    if (st == STATUS_NO_MEMORY && (!op->f.DonotWait || op->paging_waits)) {
        vidmm_paging_flush_locked(&op->batch);
        lock_wait_begins(op);
        vidmm_wait_submitted_locked(a);
        if (!lock_alive_locked(op))
            return STATUS_INVALID_PARAMETER;
        in = op->in = lock_target(op);
        was_evicted = in->evicted || in->segment_id;
        in->place_mask = op->memory_only;
        st = lock_needs_place(op, in) ? vidmm_make_resident_locked(a, in, &op->batch, !op->renamed) : STATUS_SUCCESS;
        in->place_mask = 0;
    }
    if (!NT_SUCCESS(st)) {
        vidmm_paging_flush_locked(&op->batch);
        dxgk_refuse("D3DKMTLock: no %s room for allocation 0x%08x", op->memory_only ? "memory-segment" : "CPU-visible",
                    op->args->hAllocation);
        return STATUS_NO_MEMORY;
    }
    *paged = was_evicted || op->batch.evicted;
    return STATUS_SUCCESS;
}

/* Phase 4: resident where the CPU can reach it, its paging done. The adapter lock is let go by a
 * BUSY wait inside the paging build and by the waits for paging fences: whenever the instance
 * was evicted or replaced meanwhile, start over from the current instance's residency. The CPU
 * must not race the kernel's own zero FILL of a fresh placement, or a restore; with DonotWait
 * (not D3DKMTLock2) a lock whose restore or evictions are still running is busy (docs/semantics.md
 * §3.2, §9.1): a retry succeeds. */
static NTSTATUS lock_place_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct gsched_node *paging = &a->node[a->paging_node];
    if (op->f.AcquireAperture && !op->f.UseAlternateVA)
        for (UINT i = 0; i < a->segment_count; i++)
            if (!a->seg[i].aperture)
                op->memory_only |= 1u << i;
    bool paged = false;
    for (;;) {
        /* Lost while the lock waited (the work it waited for was aborted): nothing is placed for
         * it, also not during an adapter reset's cleanup (vidmm/purge.c). */
        if (lock_device_lost(op))
            return STATUS_DEVICE_REMOVED;
        if (lock_needs_place(op, op->in)) {
            NTSTATUS st = lock_place_once_locked(op, &paged);
            if (!NT_SUCCESS(st))
                return st;
        }
        vidmm_paging_flush_locked(&op->batch);
        if (lock_needs_place(op, op->in) || op->in != lock_target(op) || op->al->dead) {
            if (!lock_alive_locked(op))
                return STATUS_INVALID_PARAMETER;
            op->in = lock_target(op);
            vidmm_batch_init(&op->batch, a);
            continue;
        }
        vidmm_touch_locked(a, op->in);
        if (paged && op->f.DonotWait && !op->paging_waits && op->in->paging_fence &&
            !gsched_fence_completed(paging, op->in->paging_fence)) {
            DXGK_COUNT(a, lock_still_drawing, 1);
            dxgk_refuse("D3DKMTLock: allocation 0x%08x is being paged in and DonotWait is set", op->args->hAllocation);
            return STATUS_GRAPHICS_ALLOCATION_BUSY;
        }
        bool moved = false;
        while (!moved && op->in->paging_fence && !gsched_fence_completed(paging, op->in->paging_fence)) {
            UINT64 pf = op->in->paging_fence;
            pthread_mutex_unlock(&a->lock);
            gsched_wait_fence(paging, pf);
            pthread_mutex_lock(&a->lock);
            if (!lock_alive_locked(op))
                return STATUS_INVALID_PARAMETER;
            /* Not locked yet while the adapter lock was let go: an eviction or a rename may have
             * moved it (start over), or an eviction and a restore by a DMA buffer (the loop waits
             * for that restore too). */
            moved = op->in != lock_target(op) || !op->in->segment_id;
        }
        if (!moved)
            return STATUS_SUCCESS;
        op->in = lock_target(op);
        vidmm_batch_init(&op->batch, a);
    }
}

/* Phase 5: the view - an AcquireAperture lock takes a swizzling range (Locking Swizzled
 * Allocations case 1); with none free it is refused under DonotEvict or UseAlternateVA ("if the
 * video memory manager cannot allocate the new virtual address, the lock request fails",
 * D3DDDICB_LOCKFLAGS), else the allocation goes back to system memory (the KMD unswizzles it on
 * the way out, marked before the adapter lock is let go: no DMA buffer takes it meanwhile) and
 * the CPU uses it there. A device lost while the lock waited is refused first (docs/semantics.md
 * §8.3: the work it waited for was aborted, so the content cannot be trusted). */
static NTSTATUS lock_view_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    struct vidmm_instance *in = op->in;
    if (lock_device_lost(op))
        return STATUS_DEVICE_REMOVED;
    op->cpu = in->cpu;
    if (!op->f.AcquireAperture)
        return STATUS_SUCCESS;
    NTSTATUS st = swizzle_acquire_locked(a, al, in, op->args->PrivateDriverData, op->f.UseAlternateVA,
                                         op->f.UseAlternateVA && !op->f.DonotEvict, &op->cpu);
    if (st != STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE)
        return st;
    if (op->f.DonotEvict || op->f.UseAlternateVA) {
        dxgk_refuse("D3DKMTLock: every swizzling range is in use and %s (locking-swizzled-allocations)",
                    op->f.DonotEvict ? "DonotEvict is set" : "UseAlternateVA has no other view");
        return st;
    }
    vidmm_batch_init(&op->batch, a);
    in->unswizzle = al->info.Flags.Swizzled;
    st = vidmm_evict_instance_locked(a, in, &op->batch, VIDMM_EVICT_ORDINARY);
    vidmm_paging_flush_locked(&op->batch);
    if (!NT_SUCCESS(st) || in->segment_id || al->dead) {
        dxgk_refuse("D3DKMTLock: no swizzling range and allocation 0x%08x could not be evicted (0x%08x)",
                    op->args->hAllocation, (unsigned)st);
        return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE;
    }
    if (!hold_backing_for_cpu_locked(a, al, in, op->batch.fence, op->args->hAllocation))
        return STATUS_INVALID_PARAMETER;
    op->cpu = in->backing;
    return STATUS_SUCCESS;
}

/* Phase 6: the pointer (at the first page asked), the lock counts, and for a rename the new
 * instance's handle (D3DDDICB_LOCK.hAllocation, vidmm/rename.c; with the handle table full, the
 * allocation's own, which names the current instance - never the old instance's handle). A
 * memory-segment instance the CPU may write is no longer clean: an eviction must copy it out. */
static void lock_hand_out_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    struct dxgk_adapter *a = op->a;
    struct dxgk_allocation *al = op->al;
    struct vidmm_instance *in = op->in;
    D3DKMT_LOCK *args = op->args;
    args->pData = op->cpu + (args->NumPages ? (size_t)args->pPages[0] * DXGK_PAGE_SIZE : 0);
    al->lock_count++;
    in->lock_count++;
    if (!op->f.ReadOnly && in->segment_id && !a->seg[in->segment_id - 1].aperture)
        in->backing_valid = false;
    if (op->renamed) {
        D3DKMT_HANDLE h = vidmm_instance_handle_locked(a, al, in);
        args->hAllocation = h ? h : al->handle;
    }
}

/* The phases under the adapter lock. Locking Swizzled Allocations case 3: a Swizzled allocation
 * evicted unswizzled (a lock at the range limit stored it linear) is handed out where it is,
 * its backing store, once that copy out is done: nothing is paged and no range is taken; as in
 * case 1 it is then the only lock and no DMA buffer may name it (the GPU's next use restores it
 * with Swizzle). */
static NTSTATUS lock_locked(struct lock_op *op)
{
    WDDM_ASSERT_HELD(&op->a->lock);
    NTSTATUS st = lock_resolve_locked(op);
    if (NT_SUCCESS(st))
        st = lock_sync_locked(op);
    if (!NT_SUCCESS(st))
        return st;
    struct vidmm_instance *in = op->in;
    if (op->f.AcquireAperture && !op->f.UseAlternateVA && in->evicted && in->unswizzled && !in->segment_id) {
        if (!hold_backing_for_cpu_locked(op->a, op->al, in, in->gpu_fence, op->args->hAllocation))
            return STATUS_INVALID_PARAMETER;
        op->cpu = in->backing;
    } else {
        st = lock_place_locked(op);
        if (NT_SUCCESS(st))
            st = lock_view_locked(op);
        if (!NT_SUCCESS(st))
            return st;
    }
    lock_hand_out_locked(op);
    return STATUS_SUCCESS;
}

/* D3DKMTLock, and D3DKMTLock2 with paging_waits: its DonotWait skips only the GPU-use sync
 * (the UMD synchronises itself, docs/semantics.md §3.3 "WDDM 2.x"); VidMm's own paging - a restore,
 * the evictions it needs, or the wait for room - is still waited for by the CPU, as pfnLock2Cb
 * documents no "busy" answer for it. */
static NTSTATUS lock_allocation(D3DKMT_LOCK *args, bool paging_waits)
{
    if (!args) {
        dxgk_refuse("D3DKMTLock: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    /* A same-adapter open's handle locks its creator's memory (issue 6). */
    struct dxgk_device *d;
    struct dxgk_allocation *al = dxgk_device_allocation_get(args->hDevice, args->hAllocation, &d);
    if (!d) {
        dxgk_refuse("D3DKMTLock: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct lock_op op = { .args = args, .paging_waits = paging_waits, .d = d, .a = d->adapter, .al = al };
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!al)
        dxgk_refuse("D3DKMTLock: invalid allocation handle 0x%08x for device 0x%08x", args->hAllocation,
                    args->hDevice);
    else
        st = lock_check_args(&op);
    if (NT_SUCCESS(st)) {
        struct dxgk_adapter *a = op.a;
        vidmm_batch_init(&op.batch, a);
        pthread_mutex_lock(&a->lock);
        st = lock_locked(&op);
        pthread_mutex_unlock(&a->lock);
        if (op.waited) {
            DXGK_COUNT(a, lock_waits, 1);
            DXGK_COUNT(a, lock_wait_ns, dxgk_now_ns() - op.t0);
        }
        if (NT_SUCCESS(st))
            DXGK_COUNT(a, locks, 1);
    }
    if (al)
        dxgk_object_put(&al->obj);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTLock(D3DKMT_LOCK *args)
{
    return lock_allocation(args, false);
}

NTSTATUS APIENTRY D3DKMTUnlock(const D3DKMT_UNLOCK *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTUnlock: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    UINT n = args->NumAllocations;
    /* The device and the first allocation under one handle-table lock (most unlocks name one). */
    struct dxgk_device *d = NULL;
    struct dxgk_allocation *first = NULL;
    if (n && args->phAllocations)
        first = dxgk_device_allocation_get(args->hDevice, args->phAllocations[0], &d);
    else
        d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTUnlock: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!n || !args->phAllocations) {
        dxgk_refuse("D3DKMTUnlock: NumAllocations %u with %s list", n, args->phAllocations ? "a" : "a NULL");
        dxgk_device_put(d);
        return st;
    }
    /* Unlock is all or nothing: every handle is validated before any is unlocked. The instance
     * unlocked is the one the handle names when it is locked (an instance handle, or the
     * allocation's handle for its current instance), else a locked instance of the allocation
     * (the allocation's handle after an out-of-order lock). Remembered for the roll-back. */
    struct vidmm_instance *stack_done[16];
    struct vidmm_instance **done = n <= 16 ? stack_done : wddm_calloc(n, sizeof *done);
    if (!done) {
        if (first)
            dxgk_object_put(&first->obj);
        dxgk_device_put(d);
        return STATUS_NO_MEMORY;
    }
    UINT i = 0;
    bool ranges = false; /* an AcquireAperture lock may have ended: its range goes back below */
    for (; i < n; i++) {
        struct dxgk_allocation *al = i == 0 ? first : dxgk_allocation_get(args->phAllocations[i], d, NULL);
        bool ok = al;
        if (ok) {
            pthread_mutex_lock(&a->lock);
            ok = al->lock_count > 0 && !al->dead;
            struct vidmm_instance *in = ok ? vidmm_instance_resolve_locked(a, al, args->phAllocations[i]) : NULL;
            if (ok && (!in || !in->lock_count))
                for (in = al->instances; in && !in->lock_count; in = in->next)
                    ;
            ok = ok && in;
            if (ok) {
                al->lock_count--;
                in->lock_count--;
                done[i] = in;
                ranges |= in->swz_lock;
            }
            pthread_mutex_unlock(&a->lock);
            if (!ok)
                dxgk_refuse("D3DKMTUnlock: allocation 0x%08x (entry %u) is not locked", args->phAllocations[i], i);
        } else {
            dxgk_refuse("D3DKMTUnlock: invalid allocation handle 0x%08x (entry %u) for device 0x%08x",
                        args->phAllocations[i], i, args->hDevice);
        }
        if (al)
            dxgk_object_put(&al->obj);
        if (!ok)
            break;
    }
    if (i == n) {
        st = STATUS_SUCCESS;
        /* The last unlock of an AcquireAperture lock gives its range back (all entries are
         * unlocked now: nothing to roll back). The allocation keeps the instance alive. */
        for (UINT j = 0; ranges && j < n; j++) {
            struct dxgk_allocation *al = dxgk_allocation_get(args->phAllocations[j], NULL, NULL);
            if (!al)
                continue;
            pthread_mutex_lock(&a->lock);
            /* Moved under the lock (SPECIAL_LOCK_TRANSFER): the range is released once that copy
             * ran, so that nothing the CPU wrote through it lands before the copy. */
            UINT64 pf;
            while (!al->dead && !done[j]->lock_count && done[j]->swz_lock && (pf = done[j]->paging_fence) &&
                   !gsched_fence_completed(&a->node[a->paging_node], pf))
                wait_paging_fence_locked(a, pf);
            if (!al->dead && !done[j]->lock_count && done[j]->swz_lock)
                vidmm_swizzle_release_locked(a, done[j]);
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(&al->obj);
        }
    } else {
        /* Roll back the entries already unlocked. */
        for (UINT j = 0; j < i; j++) {
            struct dxgk_allocation *al = dxgk_allocation_get(args->phAllocations[j], NULL, NULL);
            if (!al)
                continue;
            pthread_mutex_lock(&a->lock);
            if (!al->dead) {
                al->lock_count++;
                done[j]->lock_count++;
            }
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(&al->obj);
        }
    }
    if (done != stack_done)
        free(done);
    dxgk_device_put(d);
    return st;
}

/* D3DKMTLock2 / D3DKMTUnlock2 (WDDM 2.x, docs/semantics.md §3.3): a CPU pointer to the allocation,
 * no renaming and no implicit synchronisation (the caller synchronises itself). The model
 * places a non-resident allocation first, as D3DKMTLock does (CPU-accessible segment), and the
 * CPU waits for that paging: only the GPU's own use is not synchronised. For a backing store
 * shared with the KMD this is the very memory the KMD was given (seed 002). */
NTSTATUS APIENTRY D3DKMTLock2(D3DKMT_LOCK2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTLock2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Value) {
        dxgk_refuse("D3DKMTLock2: reserved D3DDDICB_LOCK2FLAGS bits set (0x%08x)", args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_LOCK l = { .hDevice = args->hDevice, .hAllocation = args->hAllocation };
    l.Flags.IgnoreSync = 1;
    l.Flags.DonotWait = 1;
    l.Flags.LockEntire = 1;
    NTSTATUS st = lock_allocation(&l, true);
    args->pData = NT_SUCCESS(st) ? l.pData : NULL;
    return st;
}

NTSTATUS APIENTRY D3DKMTUnlock2(const D3DKMT_UNLOCK2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTUnlock2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_UNLOCK u = { .hDevice = args->hDevice, .NumAllocations = 1, .phAllocations = &args->hAllocation };
    return D3DKMTUnlock(&u);
}
