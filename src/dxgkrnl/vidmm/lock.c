/* D3DKMTLock / D3DKMTUnlock (wddm-semantics §3.2, seed 001 §8).
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
 * STATUS_NO_MEMORY. A locked current instance is never evicted (DonotEvict is implied).
 *
 * Instances (wddm-semantics §3.3, DXGK_VIDMMCAPS.OutOfOrderLock, issue 3): a Discard lock that
 * renames returns the new instance's own handle in hAllocation (vidmm/rename.c). A lock naming
 * an instance handle locks that instance. The newest instance may always be locked; an older
 * one only when the KMD sets DXGK_VIDMMCAPS.OutOfOrderLock ("the driver can lock allocation
 * instances other than the latest instance", e.g. a DDI thread locking a buffer the application
 * thread already discarded): without the cap STATUS_INVALID_PARAMETER. Such a lock synchronises
 * with that instance's own GPU use (not the newest's), never renames (Discard on it is refused),
 * and keeps it from being recycled or evicted until unlocked (vidmm_instance.lock_count).
 *
 * AcquireAperture (wddm-semantics §3.2; "Locking Swizzled Allocations"; DxgkDdiAcquireSwizzlingRange),
 * when the KMD reports DXGK_DRIVERCAPS.NumberOfSwizzlingRanges > 0: the lock synchronises as a
 * plain lock (a Discard does not rename), places the instance, then VidMm hands a free range to
 * DxgkDdiAcquireSwizzlingRange and returns its CPUTranslatedAddress: the allocation as it looks
 * after an unswizzling eviction. The range is released at the unlock (or when the allocation is
 * destroyed) with DxgkDdiReleaseSwizzlingRange; ranges are arbitrated among all allocations of
 * the adapter. At the limit (no free range, or every free one answered UNAVAILABLE; ranges in use
 * belong to outstanding locks and cannot be taken back): with DonotEvict the lock fails with
 * STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE (D3DERR_NOTAVAILABLE at pfnLockCb); without, the
 * instance is evicted to system memory and the CPU gets its backing store (the KMD stores a
 * CPU-visible allocation linear when it evicts it, wddm-semantics §2.4). Refused: AcquireAperture
 * on an allocation that can only live in an aperture segment, or that is already locked; any
 * lock while an AcquireAperture lock of it is outstanding; a DMA buffer naming an instance locked
 * that way (sched/queue.c) (§3.2 rules 6, 11). A locked instance is never evicted (DonotEvict is
 * implied), so SPECIAL_LOCK_TRANSFER is never needed.
 * UseAlternateVA (D3DDDICB_LOCKFLAGS): the KMD may return a view of another address and size
 * (CPUTranslatedAddress, RangeSize), also for an instance resident in an aperture segment (the
 * range then untiles the system pages on the fly); at the range limit the lock fails (no other
 * view); refused on shared allocations and on a primary not created UseAlternateVA, required on
 * one created so (rule 7).
 * Without UseAlternateVA, an instance that is evicted or resident in an aperture segment is first
 * paged into a memory segment (case 2 of Locking Swizzled Allocations), then acquired as case 1.
 * Allocations the KMD marks Swizzled: VidMm tracks the form of the backing store
 * (vidmm_instance.unswizzled). An ordinary eviction keeps them swizzled (no TRANSFER flag); the
 * eviction at the range limit asks the KMD to unswizzle (DXGK_TRANSFERFLAGS.Unswizzle), and a
 * later AcquireAperture lock of the instance still evicted that way gets the backing store at
 * once (case 3); its restore goes only into a memory segment, with Swizzle. IgnoreSync on them is
 * refused. */
#include "dxgkrnl/dxgkrnl.h"
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
        dxgk_refuse("D3DKMTLock: ReadOnly with WriteOnly (wddm-semantics §3.2 rule 1)");
        return false;
    }
    if (f.IgnoreSync && f.AcquireAperture) {
        dxgk_refuse("D3DKMTLock: IgnoreSync with AcquireAperture (wddm-semantics §3.2 rule 2)");
        return false;
    }
    if (f.UseAlternateVA && !f.AcquireAperture) {
        dxgk_refuse("D3DKMTLock: UseAlternateVA without AcquireAperture (wddm-semantics §3.2 rule 3)");
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

/* Locking Swizzled Allocations, cases 1 and 3: the CPU gets `in`'s backing store in system
 * memory. It is marked an AcquireAperture lock (no DMA buffer may name it) and pinned while the
 * paging fence `fence` (its copy out) passes with the adapter lock let go. False: the allocation
 * was destroyed meanwhile (refusal logged). The caller then counts the lock as any. */
static bool hold_backing_for_cpu_locked(struct dxgk_adapter *a, struct dxgk_allocation *al, struct vidmm_instance *in,
                                        UINT64 fence, D3DKMT_HANDLE h)
{
    in->swz_lock = true;
    al->lock_count++;
    in->lock_count++;
    while (fence && !sched_fence_completed(&a->node[a->paging_node], fence)) {
        pthread_mutex_unlock(&a->lock);
        sched_wait_fence(&a->node[a->paging_node], fence);
        pthread_mutex_lock(&a->lock);
    }
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
                                       UINT private_data, bool alternate_va, UINT8 **cpu)
{
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
        *cpu = (UINT8 *)(uintptr_t)arg.CPUTranslatedAddress.QuadPart;
        return STATUS_SUCCESS;
    }
    return STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE;
}

void vidmm_swizzle_release_locked(struct dxgk_adapter *a, struct vidmm_instance *in)
{
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
}

/* D3DKMTLock, and D3DKMTLock2 with paging_waits: its DonotWait skips only the GPU-use sync
 * (the UMD synchronises itself, wddm-semantics §3.3 "WDDM 2.x"); VidMm's own paging - a restore,
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
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (!al) {
        dxgk_refuse("D3DKMTLock: invalid allocation handle 0x%08x for device 0x%08x", args->hAllocation,
                    args->hDevice);
        goto out;
    }
    if (!lock_flags_valid(args, a))
        goto out;
    /* wddm-semantics §3.2 rule 8 */
    if (!al->info.Flags.CpuVisible) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x was not created CpuVisible (wddm-semantics §3.2 rule 8)",
                    args->hAllocation);
        goto out;
    }
    /* Rule 7 (D3DDDICB_LOCKFLAGS.UseAlternateVA): never on a shared allocation; a primary uses it
     * exactly when the KMD created it with DXGK_ALLOCATIONINFOFLAGS.UseAlternateVA. A second lock
     * while one is outstanding is refused below with every AcquireAperture lock (rule 11). */
    if (args->Flags.UseAlternateVA && (al->share || al->opened)) {
        dxgk_refuse("D3DKMTLock: UseAlternateVA on shared allocation 0x%08x (wddm-semantics §3.2 rule 7)",
                    args->hAllocation);
        goto out;
    }
    if (al->primary && args->Flags.UseAlternateVA != al->info.Flags.UseAlternateVA) {
        dxgk_refuse("D3DKMTLock: primary 0x%08x %s (wddm-semantics §3.2 rule 7)", args->hAllocation,
                    al->info.Flags.UseAlternateVA ? "was created UseAlternateVA and must be locked with it"
                                                  : "was not created UseAlternateVA and cannot be locked with it");
        goto out;
    }
    /* An offered allocation's content may go at any moment: reclaim it first (vidmm/offer.c). */
    pthread_mutex_lock(&a->lock);
    bool offered = al->offer_priority != 0;
    pthread_mutex_unlock(&a->lock);
    if (offered) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x is offered; reclaim it before locking it", args->hAllocation);
        goto out;
    }
    UINT pages = (UINT)((al->info.Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE);
    for (UINT i = 0; i < args->NumPages; i++) {
        if (args->pPages[i] >= pages) {
            dxgk_refuse("D3DKMTLock: page %u (entry %u) beyond the allocation's %u pages", args->pPages[i], i, pages);
            goto out;
        }
    }
    D3DDDICB_LOCKFLAGS f = args->Flags;
    if (f.Discard && a->mmu) {
        /* wddm-semantics §3.3: with a WDDM 2.x KMD VidMm never renames; the UMD does. */
        dxgk_refuse("D3DKMTLock: Discard on a GpuMmu (WDDM 2.x) adapter: VidMm does not rename, the UMD "
                    "renames its own allocations (wddm-semantics §3.3); lock with D3DKMTLock2");
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    /* Rules 4 and 5: Discard neutralises IgnoreSync/DonotWait; IgnoreSync needs DonotWait. An
     * AcquireAperture lock does not rename: the KMD's range names the allocation's placement,
     * and the KMD cannot tell instances apart (wddm-semantics §3.3). */
    bool discard = f.Discard && !f.AcquireAperture;
    bool no_sync = !discard && f.IgnoreSync && f.DonotWait;
    bool writes_only = f.ReadOnly || f.IgnoreReadSync; /* seed 001 §8: a read waits for writes */
    bool renamed = false, waited = false;
    UINT64 t0 = 0;
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);

    pthread_mutex_lock(&a->lock);
    if (al->dead) {
        dxgk_refuse("D3DKMTLock: allocation 0x%08x is being destroyed", args->hAllocation);
        goto unlock;
    }
    /* The instance the handle names: an older one is `want` (locked as such), else NULL (the
     * current instance, whichever it is after a wait). */
    struct vidmm_instance *want = vidmm_instance_resolve_locked(al, args->hAllocation);
    if (!want) {
        dxgk_refuse("D3DKMTLock: handle 0x%08x names no instance of its allocation", args->hAllocation);
        goto unlock;
    }
    if (want == al->current) {
        want = NULL;
    } else {
        if (!a->caps.MemoryManagementCaps.OutOfOrderLock) {
            dxgk_refuse("D3DKMTLock: handle 0x%08x names an instance older than the newest and the KMD does not "
                        "set DXGK_VIDMMCAPS.OutOfOrderLock (wddm-semantics §3.3)", args->hAllocation);
            goto unlock;
        }
        if (f.Discard) {
            dxgk_refuse("D3DKMTLock: Discard of instance 0x%08x, which is not the newest: only the newest "
                        "instance is renamed (wddm-semantics §3.3)", args->hAllocation);
            goto unlock;
        }
    }
    /* wddm-semantics §3.2 rules 6 and 11: swizzled and unswizzled views are never outstanding
     * together; a lock holding a range is the only lock. Such a lock is counted in lock_count, so
     * an unlocked allocation (every W1 Map) skips the walk over its instances. */
    for (const struct vidmm_instance *x = al->lock_count ? al->instances : NULL; x; x = x->next) {
        if (x->swz_lock) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x has an AcquireAperture lock outstanding: unlock it first "
                        "(wddm-semantics §3.2 rule 11)", args->hAllocation);
            goto unlock;
        }
    }
    /* "A no-overwrite lock (that is, a lock obtained by setting IgnoreSync) is not allowed on a
     * swizzled allocation" (Locking Swizzled Allocations). */
    if (f.IgnoreSync && al->info.Flags.Swizzled) {
        dxgk_refuse("D3DKMTLock: IgnoreSync on allocation 0x%08x, which the KMD created Swizzled "
                    "(locking-swizzled-allocations)", args->hAllocation);
        goto unlock;
    }
    if (f.AcquireAperture) {
        UINT allowed = vidmm_allowed_segments(a, &al->info);
        bool memory = false;
        for (UINT i = 0; i < a->segment_count; i++)
            memory |= (allowed & (1u << i)) && !a->seg[i].aperture;
        if (!memory) {
            dxgk_refuse("D3DKMTLock: AcquireAperture on allocation 0x%08x, which can only be placed in an aperture "
                        "segment (wddm-semantics §3.2 rule 6)", args->hAllocation);
            goto unlock;
        }
        if (al->lock_count) {
            dxgk_refuse("D3DKMTLock: AcquireAperture on allocation 0x%08x, which is already locked (wddm-semantics "
                        "§3.2 rule 6)", args->hAllocation);
            goto unlock;
        }
    }
#define LOCK_TARGET() (want ? want : al->current)
    if (d->error == STATUS_DEVICE_REMOVED) { /* lost to a timeout recovery (sched/tdr.c) */
        dxgk_refuse("D3DKMTLock: device 0x%08x is lost (0x%08x)", args->hDevice, (unsigned)d->error);
        st = d->error;
        goto unlock;
    }
    /* A DMA buffer held behind a GPU wait names it and has no ticket yet: it takes the
     * allocation's instance when it is released (sched/queue.c), so the CPU waits for that
     * first, like for any queued work (seed 001 §8), or is told it is busy. */
    if (!no_sync && al->held_refs) {
        if (f.DonotWait) {
            DXGK_COUNT(a, lock_still_drawing, 1);
            dxgk_refuse("D3DKMTLock: allocation 0x%08x is named by a DMA buffer held behind a GPU wait and "
                        "DonotWait is set", args->hAllocation);
            st = STATUS_GRAPHICS_ALLOCATION_BUSY;
            goto unlock;
        }
        if (!waited)
            t0 = dxgk_now_ns();
        waited = true;
        while (al->held_refs && !al->dead)
            pthread_cond_wait(&a->held_cond, &a->lock);
        if (al->dead) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
            goto unlock;
        }
    }
    struct vidmm_instance *in = LOCK_TARGET();
    /* Seed 002 / wddm-semantics §7 rule 8: a backing store shared with the KMD is never
     * renamed: a Discard synchronises like a plain lock. A locked current instance is not
     * renamed either (its pointer stays valid); an older instance locked out of order is no
     * obstacle. */
    /* A primary is never renamed either: Discard is ignored for primaries (wddm-semantics §3.2). */
    if (discard && in->lock_count == 0 && !al->kmd_backing && !al->primary) {
        /* Without NoExistingReference the caller's unsubmitted commands may name the current
         * instance: it is never reused, even idle (vidmm/rename.c, pfnLockCb remarks). */
        bool no_ref = f.NoExistingReference;
        while (!no_ref || !vidmm_instance_idle_locked(a, in, false)) {
            struct vidmm_instance *n = vidmm_rename_locked(a, al, &batch, no_ref);
            if (n) {
                in = n;
                renamed = true;
                DXGK_COUNT(a, renames, 1);
                wddm_tl(WDDM_TL_RENAME, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), args->hAllocation, al->info.Size);
                break;
            }
            /* At MaximumRenamingListLength (or out of memory): wait for the instance to recycle,
             * or, with NoExistingReference, for the current one when there is none. Without it,
             * waiting for the GPU cannot help: the caller must flush and retry. */
            struct vidmm_instance *oldest = vidmm_rename_candidate_locked(al, no_ref);
            if (oldest && vidmm_instance_retired_locked(a, oldest))
                oldest = NULL; /* free to recycle, yet not recycled: memory is short */
            if (!no_ref && !oldest) {
                dxgk_refuse("D3DKMTLock: Discard of allocation 0x%08x: no instance can be created or reused until "
                            "the caller submits its commands and retries with NoExistingReference "
                            "(wddm-semantics §3.3)", args->hAllocation);
                st = STATUS_NO_MEMORY;
                goto unlock;
            }
            if (!oldest)
                oldest = in; /* nothing to recycle (out of memory): stall on the current one */
            if (!waited)
                t0 = dxgk_now_ns();
            waited = true;
            vidmm_paging_flush_locked(&batch);
            vidmm_instance_wait_locked(a, oldest, false);
            if (al->dead) {
                dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
                goto unlock;
            }
            in = al->current;
        }
    } else if (!no_sync && !vidmm_instance_idle_locked(a, in, writes_only)) {
        if (f.DonotWait) {
            /* An expected answer, not a broken rule: no refusal line (a program polling with
             * DO_NOT_WAIT would print one per poll); the counter keeps the count. */
            DXGK_COUNT(a, lock_still_drawing, 1);
            st = STATUS_GRAPHICS_ALLOCATION_BUSY;
            goto unlock;
        }
        t0 = dxgk_now_ns();
        waited = true;
        vidmm_instance_wait_locked(a, in, writes_only);
        if (al->dead) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
            goto unlock;
        }
        in = LOCK_TARGET();
    }
    /* Locking Swizzled Allocations, case 3: a Swizzled allocation evicted unswizzled (a lock at
     * the range limit stored it linear) is handed out where it is, its backing store, once that
     * copy out is done: nothing is paged and no range is taken. As in case 1 it is then the only
     * lock and no DMA buffer may name it; the GPU's next use restores it with Swizzle. */
    UINT8 *cpu; /* what the CPU gets (hand_out) */
    if (f.AcquireAperture && !f.UseAlternateVA && in->evicted && in->unswizzled && !in->segment_id) {
        if (!hold_backing_for_cpu_locked(a, al, in, in->gpu_fence, args->hAllocation)) {
            st = STATUS_INVALID_PARAMETER;
            goto unlock;
        }
        cpu = in->backing;
        goto hand_out;
    }
    bool paged = false; /* the lock had to restore the instance or evict others for it */
    /* Locking Swizzled Allocations, case 2: an AcquireAperture lock (without UseAlternateVA) of an
     * instance that is evicted or in an aperture segment first pages it into a memory segment,
     * where a range can show it linear (case 1). */
    UINT memory_only = 0;
    if (f.AcquireAperture && !f.UseAlternateVA)
        for (UINT i = 0; i < a->segment_count; i++)
            if (!a->seg[i].aperture)
                memory_only |= 1u << i;
#define NEEDS_PLACE(x) (!(x)->segment_id || (memory_only && !(memory_only & (1u << ((x)->segment_id - 1)))))
resident:
    if (NEEDS_PLACE(in)) {
        bool was_evicted = in->evicted || in->segment_id; /* moving out of an aperture pages too */
        in->place_mask = memory_only;
        st = vidmm_make_resident_locked(a, in, &batch, !renamed);
        in->place_mask = 0;
        if (st == STATUS_NO_MEMORY && (!f.DonotWait || paging_waits)) {
            /* Everything evictable is referenced by work in flight: wait for it and retry once. */
            vidmm_paging_flush_locked(&batch);
            if (!waited)
                t0 = dxgk_now_ns();
            waited = true;
            vidmm_wait_submitted_locked(a);
            if (al->dead) {
                dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
                st = STATUS_INVALID_PARAMETER;
                goto unlock;
            }
            in = LOCK_TARGET();
            was_evicted = in->evicted || in->segment_id;
            in->place_mask = memory_only;
            st = NEEDS_PLACE(in) ? vidmm_make_resident_locked(a, in, &batch, !renamed) : STATUS_SUCCESS;
            in->place_mask = 0;
        }
        if (!NT_SUCCESS(st)) {
            vidmm_paging_flush_locked(&batch);
            dxgk_refuse("D3DKMTLock: no %s room for allocation 0x%08x", memory_only ? "memory-segment" : "CPU-visible",
                        args->hAllocation);
            st = STATUS_NO_MEMORY;
            goto unlock;
        }
        paged = was_evicted || batch.evicted;
    }
    vidmm_paging_flush_locked(&batch);
    if (NEEDS_PLACE(in) || in != LOCK_TARGET() || al->dead) {
        /* A BUSY wait inside the paging build let the lock go and the instance was evicted or
         * replaced meanwhile: place the current one again. */
        if (al->dead) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
            st = STATUS_INVALID_PARAMETER;
            goto unlock;
        }
        in = LOCK_TARGET();
        vidmm_batch_init(&batch, a);
        goto resident;
    }
    vidmm_touch_locked(a, in);
    /* DonotWait during eviction (wddm-semantics §3.2, §9.1): the restore or the evictions it
     * needed are submitted, but the CPU may not wait for them: busy now, a retry succeeds. */
    if (paged && f.DonotWait && !paging_waits && in->paging_fence &&
        !sched_fence_completed(&a->node[a->paging_node], in->paging_fence)) {
        DXGK_COUNT(a, lock_still_drawing, 1);
        dxgk_refuse("D3DKMTLock: allocation 0x%08x is being paged in and DonotWait is set", args->hAllocation);
        st = STATUS_GRAPHICS_ALLOCATION_BUSY;
        goto unlock;
    }
    /* The CPU must not race the kernel's own zero FILL of a fresh placement, or a restore. */
    while (in->paging_fence && !sched_fence_completed(&a->node[a->paging_node], in->paging_fence)) {
        UINT64 pf = in->paging_fence;
        pthread_mutex_unlock(&a->lock);
        sched_wait_fence(&a->node[a->paging_node], pf);
        pthread_mutex_lock(&a->lock);
        if (al->dead) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
            st = STATUS_INVALID_PARAMETER;
            goto unlock;
        }
        /* Not locked yet while the adapter lock was let go: an eviction or a rename may have
         * moved it (then start over from the current instance's residency), or an eviction and
         * a restore by a DMA buffer (then the loop waits for that restore too). */
        if (in != LOCK_TARGET() || !in->segment_id) {
            in = LOCK_TARGET();
            vidmm_batch_init(&batch, a);
            goto resident;
        }
    }
    if (d->error == STATUS_DEVICE_REMOVED) {
        /* Lost while the lock waited (a timeout recovery, wddm-semantics §8.3): the work it
         * waited for was aborted, so the content cannot be trusted. */
        dxgk_refuse("D3DKMTLock: device 0x%08x is lost (0x%08x)", args->hDevice, (unsigned)d->error);
        st = d->error;
        goto unlock;
    }
    cpu = in->cpu;
    if (f.AcquireAperture) {
        st = swizzle_acquire_locked(a, al, in, args->PrivateDriverData, f.UseAlternateVA, &cpu);
        if (st == STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE) {
            /* UseAlternateVA: "if the video memory manager cannot allocate the new virtual address,
             * the lock request fails" (D3DDDICB_LOCKFLAGS) - no fallback to the backing store. */
            if (f.DonotEvict || f.UseAlternateVA) {
                dxgk_refuse("D3DKMTLock: every swizzling range is in use and %s (locking-swizzled-allocations)",
                            f.DonotEvict ? "DonotEvict is set" : "UseAlternateVA has no other view");
                goto unlock;
            }
            /* Locking Swizzled Allocations, case 1: no aperture, so the allocation goes back to
             * system memory and the CPU uses it there. Marked before the adapter lock is let go:
             * no DMA buffer takes it meanwhile (sched/queue.c). */
            vidmm_batch_init(&batch, a);
            in->unswizzle = al->info.Flags.Swizzled; /* the KMD unswizzles it on the way out */
            st = vidmm_evict_instance_locked(a, in, &batch);
            vidmm_paging_flush_locked(&batch);
            if (!NT_SUCCESS(st) || in->segment_id || al->dead) {
                dxgk_refuse("D3DKMTLock: no swizzling range and allocation 0x%08x could not be evicted (0x%08x)",
                            args->hAllocation, (unsigned)st);
                st = STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE;
                goto unlock;
            }
            if (!hold_backing_for_cpu_locked(a, al, in, batch.fence, args->hAllocation)) {
                st = STATUS_INVALID_PARAMETER;
                goto unlock;
            }
            cpu = in->backing;
        } else if (!NT_SUCCESS(st)) {
            goto unlock;
        }
    }
hand_out:
    args->pData = cpu + (args->NumPages ? (size_t)args->pPages[0] * DXGK_PAGE_SIZE : 0);
    al->lock_count++;
    in->lock_count++;
    if (!f.ReadOnly && in->segment_id && !a->seg[in->segment_id - 1].aperture)
        in->backing_valid = false; /* the CPU may write it: an eviction must copy it out (an
                                      evicted instance is written in its backing store) */
    if (renamed) {
        /* D3DDDICB_LOCK.hAllocation: the new instance's handle (vidmm/rename.c); with the handle
         * table full, the allocation's own, which names the current instance, never the old
         * instance's handle the caller passed. */
        D3DKMT_HANDLE h = vidmm_instance_handle_locked(al, in);
        args->hAllocation = h ? h : al->handle;
    }
#undef LOCK_TARGET
#undef NEEDS_PLACE
    st = STATUS_SUCCESS;
unlock:
    pthread_mutex_unlock(&a->lock);
    if (waited) {
        DXGK_COUNT(a, lock_waits, 1);
        DXGK_COUNT(a, lock_wait_ns, dxgk_now_ns() - t0);
    }
    if (NT_SUCCESS(st))
        DXGK_COUNT(a, locks, 1);
out:
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
            struct vidmm_instance *in = ok ? vidmm_instance_resolve_locked(al, args->phAllocations[i]) : NULL;
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

/* D3DKMTLock2 / D3DKMTUnlock2 (WDDM 2.x, wddm-semantics §3.3): a CPU pointer to the allocation,
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
