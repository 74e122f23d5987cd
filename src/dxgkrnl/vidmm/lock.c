/* D3DKMTLock / D3DKMTUnlock (wddm-semantics §3.2, seed 001 §8).
 *
 * Only CpuVisible allocations lock. The flag algebra is validated first. A lock places a
 * non-resident instance in a CPU-accessible segment; the pointer is the segment's CPU mapping
 * + offset (a CpuVisible memory segment: CpuTranslatedAddress is the host address) or the
 * aperture placement's backing store. Implicit synchronisation: ReadOnly (and IgnoreReadSync)
 * waits for the last GPU write of the instance, other locks for its last GPU use; DonotWait
 * on a busy instance returns STATUS_GRAPHICS_ALLOCATION_BUSY at once; Discard on a busy
 * instance renames (vidmm/rename.c); IgnoreSync + DonotWait does not synchronise at all.
 * NoExistingReference is accepted and treated like a plain Discard (VidMm still checks the GPU,
 * which is always safe). A Discard of an allocation that is already locked does not rename
 * (the outstanding pointer must stay valid): it synchronises like a plain lock.
 * An evicted instance (vidmm/evict.c) is restored first, always into a CPU-accessible segment
 * (CpuVisible allocations are only placed there), and the CPU waits for that restore; with
 * DonotWait the restore is started and the lock returns STATUS_GRAPHICS_ALLOCATION_BUSY. When
 * nothing is evictable the lock waits once for the work in flight and retries, then fails with
 * STATUS_NO_MEMORY. A locked current instance is never evicted (DonotEvict is implied).
 * FIXME(swizzling): AcquireAperture / UseAlternateVA (swizzling ranges) are refused. */
#include "dxgkrnl/dxgkrnl.h"

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
        /* FIXME(swizzling): swizzling ranges (DxgkDdiAcquireSwizzlingRange) are not modelled. */
        dxgk_refuse("D3DKMTLock: AcquireAperture but the KMD reports no swizzling ranges");
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

NTSTATUS APIENTRY D3DKMTLock(D3DKMT_LOCK *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTLock: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTLock: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_allocation *al =
        (struct dxgk_allocation *)dxgk_handle_get(args->hAllocation, DXGK_TYPE_ALLOCATION);
    if (!al || al->device != d) {
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
    /* Rules 4 and 5: Discard neutralises IgnoreSync/DonotWait; IgnoreSync needs DonotWait. */
    bool discard = f.Discard;
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
    struct vidmm_instance *in = al->current;
    /* Seed 002 / wddm-semantics §7 rule 8: a backing store shared with the KMD is never
     * renamed: a Discard synchronises like a plain lock. */
    if (discard && al->lock_count == 0 && !al->kmd_backing) {
        while (!vidmm_instance_idle_locked(a, in, false)) {
            struct vidmm_instance *n = vidmm_rename_locked(a, al, &batch);
            if (n) {
                in = n;
                renamed = true;
                DXGK_COUNT(a, renames, 1);
                break;
            }
            /* At MaximumRenamingListLength (or out of memory): wait for the oldest instance. */
            struct vidmm_instance *oldest = al->instances;
            while (oldest && oldest == al->current && oldest->next)
                oldest = oldest->next;
            if (!oldest || vidmm_instance_idle_locked(a, oldest, false))
                oldest = in; /* no instance to recycle (out of memory): stall on the current one */
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
            DXGK_COUNT(a, lock_still_drawing, 1);
            dxgk_refuse("D3DKMTLock: allocation 0x%08x is busy and DonotWait is set", args->hAllocation);
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
        in = al->current;
    }
    bool paged = false; /* the lock had to restore the instance or evict others for it */
resident:
    if (!in->segment_id) {
        bool was_evicted = in->evicted;
        st = vidmm_make_resident_locked(a, in, &batch, !renamed);
        if (st == STATUS_NO_MEMORY && !f.DonotWait) {
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
            in = al->current;
            was_evicted = in->evicted;
            st = in->segment_id ? STATUS_SUCCESS : vidmm_make_resident_locked(a, in, &batch, !renamed);
        }
        if (!NT_SUCCESS(st)) {
            vidmm_paging_flush_locked(&batch);
            dxgk_refuse("D3DKMTLock: no CPU-visible room for allocation 0x%08x", args->hAllocation);
            st = STATUS_NO_MEMORY;
            goto unlock;
        }
        paged = was_evicted || batch.evicted;
    }
    vidmm_paging_flush_locked(&batch);
    if (!in->segment_id || in != al->current || al->dead) {
        /* A BUSY wait inside the paging build let the lock go and the instance was evicted or
         * replaced meanwhile: place the current one again. */
        if (al->dead) {
            dxgk_refuse("D3DKMTLock: allocation 0x%08x destroyed during the lock", args->hAllocation);
            st = STATUS_INVALID_PARAMETER;
            goto unlock;
        }
        in = al->current;
        vidmm_batch_init(&batch, a);
        goto resident;
    }
    vidmm_touch_locked(a, in);
    /* DonotWait during eviction (wddm-semantics §3.2, §9.1): the restore or the evictions it
     * needed are submitted, but the CPU may not wait for them: busy now, a retry succeeds. */
    if (paged && f.DonotWait && in->paging_fence &&
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
        if (in != al->current || !in->segment_id) {
            in = al->current;
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
    args->pData = in->cpu + (args->NumPages ? (size_t)args->pPages[0] * DXGK_PAGE_SIZE : 0);
    al->lock_count++;
    if (!f.ReadOnly && !a->seg[in->segment_id - 1].aperture)
        in->backing_valid = false; /* the CPU may write it: an eviction must copy it out */
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

NTSTATUS APIENTRY D3DKMTUnlock(const D3DKMT_UNLOCK *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTUnlock: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTUnlock: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    UINT n = args->NumAllocations;
    if (!n || !args->phAllocations) {
        dxgk_refuse("D3DKMTUnlock: NumAllocations %u with %s list", n, args->phAllocations ? "a" : "a NULL");
        dxgk_device_put(d);
        return st;
    }
    /* Unlock is all or nothing: every handle is validated before any is unlocked. */
    UINT i = 0;
    for (; i < n; i++) {
        struct dxgk_allocation *al =
            (struct dxgk_allocation *)dxgk_handle_get(args->phAllocations[i], DXGK_TYPE_ALLOCATION);
        bool ok = al && al->device == d;
        if (ok) {
            pthread_mutex_lock(&a->lock);
            ok = al->lock_count > 0 && !al->dead;
            if (ok)
                al->lock_count--;
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
    } else {
        /* Roll back the entries already unlocked. */
        for (UINT j = 0; j < i; j++) {
            struct dxgk_allocation *al =
                (struct dxgk_allocation *)dxgk_handle_get(args->phAllocations[j], DXGK_TYPE_ALLOCATION);
            if (!al)
                continue;
            pthread_mutex_lock(&a->lock);
            if (!al->dead)
                al->lock_count++;
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(&al->obj);
        }
    }
    dxgk_device_put(d);
    return st;
}

/* D3DKMTLock2 / D3DKMTUnlock2 (WDDM 2.x, wddm-semantics §3.3): a CPU pointer to the allocation,
 * no renaming and no implicit synchronisation (the caller synchronises itself). The model
 * places a non-resident allocation first, as D3DKMTLock does (CPU-accessible segment); for a
 * backing store shared with the KMD this is the very memory the KMD was given (seed 002). */
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
    NTSTATUS st = D3DKMTLock(&l);
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
