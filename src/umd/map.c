/* map.c - ResourceMap / ResourceUnmap (every map slot of the device tables) and
 * ResourceIsStagingBusy: CPU access only through pfnLockCb / pfnUnlockCb (seed 001 §6). */
#include "umd/umd.h"

/* Seed 001 §6.3: D3D10_DDI_MAP -> D3DDDICB_LOCKFLAGS, one row per map type.
 *
 * WRITE_NOOVERWRITE: seed 001 §6.3 asks for "WriteOnly = 1, NoOverwrite = 1", but
 * D3DDDICB_LOCKFLAGS has no NoOverwrite bit (docs/semantics.md §3.4). Its documented equivalent
 * on an aperture-capable allocation is the "no-overwrite lock": IgnoreSync, which VidMm honours
 * only together with DonotWait (docs/semantics.md §3.2, IgnoreSync row and rule 5). DYNAMIC
 * allocations are SWGPU_ALLOC_UPLOAD, CPU-visible and aperture-capable, so the row is
 * WriteOnly + IgnoreSync + DonotWait. */
static const D3DDDICB_LOCKFLAGS umd_map_lock_flags[D3D10_DDI_MAP_WRITE_NOOVERWRITE + 1] = {
    [D3D10_DDI_MAP_READ]              = { .ReadOnly = 1 },
    [D3D10_DDI_MAP_WRITE]             = { .WriteOnly = 1 },
    [D3D10_DDI_MAP_READWRITE]         = { .ReadOnly = 0, .WriteOnly = 0 },
    [D3D10_DDI_MAP_WRITE_DISCARD]     = { .WriteOnly = 1, .Discard = 1 },
    [D3D10_DDI_MAP_WRITE_NOOVERWRITE] = { .WriteOnly = 1, .IgnoreSync = 1, .DonotWait = 1 },
};
/* ... and D3D10_DDI_MAP_FLAG_DONOTWAIT adds DonotWait to any row (seed 001 §6.3 "Additional flags"). */

static void umd_map_fail(D3D10DDI_MAPPED_SUBRESOURCE *out)
{
    if (out) {
        out->pData = NULL;
        out->RowPitch = 0;
        out->DepthPitch = 0;
    }
}

/* A failed pfnLockCb as the HRESULT a Map reports (docs/semantics.md §3.6, §4.3; seed 001 §8). */
static HRESULT umd_map_lock_error(HRESULT hr)
{
    if (hr == D3DDDIERR_WASSTILLDRAWING)
        return DXGI_DDI_ERR_WASSTILLDRAWING;
    if (hr != D3DDDIERR_DEVICEREMOVED && hr != E_OUTOFMEMORY) /* critical for the runtime */
        UMD_REFUSE("Map: pfnLockCb failed (0x%08x)", (unsigned)hr);
    return hr;
}

/* The first Map of a resource on the WDDM 1.x path: flush what must reach the kernel, then
 * pfnLockCb with the row's flags (VidMm waits, renames or answers WASSTILLDRAWING). S_OK with
 * res->lock_data set, or the HRESULT for pfnSetErrorCb. */
static HRESULT umd_map_lock(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP DDIMap, UINT Flags)
{
    /* Work queued against the allocation must reach the kernel first, or the lock's
     * implicit synchronization cannot see it (docs/semantics.md §8.1; seed 001 §8). A Discard
     * lock needs no flush (docs/semantics.md §3.3, pfnLockCb remarks): VidMm moves to another
     * instance and the queued commands keep the instance handles they name, unless one
     * names the allocation's own handle, which would follow the rename. The buffer is
     * still submitted every UMD_RENAMED_BYTES_PER_FLUSH, so the GPU works meanwhile and
     * retired instances come back for recycling. */
    BOOL discard = DDIMap == D3D10_DDI_MAP_WRITE_DISCARD;
    if (umd_is_queued(dev, res) && (!discard || res->hAllocation == res->hAllocationOwn ||
                                    dev->queued_rename_bytes + res->size > UMD_RENAMED_BYTES_PER_FLUSH)) {
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr))
            return hr;
    }
    BOOL queued = umd_is_queued(dev, res);
    D3DDDICB_LOCK lock = { .hAllocation = res->hAllocation, .Flags = umd_map_lock_flags[DDIMap] };
    /* Nothing queued names any instance: VidMm may keep the current one if it is idle. */
    lock.Flags.NoExistingReference = discard && !queued;
    if (Flags & D3D10_DDI_MAP_FLAG_DONOTWAIT)
        lock.Flags.DonotWait = 1;
    HRESULT hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
    if (hr == D3DDDIERR_WASSTILLDRAWING && !(Flags & D3D10_DDI_MAP_FLAG_DONOTWAIT)) {
        /* Only the no-overwrite row sets DonotWait without the application asking; a kernel
         * that does not honour IgnoreSync may still refuse it. WASSTILLDRAWING is legal only
         * for a DONOTWAIT map (docs/semantics.md §4.3), so wait instead: a plain WriteOnly lock. */
        UMD_REFUSE("Map: no-overwrite lock refused as still drawing; retrying as a waiting WriteOnly lock");
        lock = (D3DDDICB_LOCK){ .hAllocation = res->hAllocation, .Flags = { .WriteOnly = 1 } };
        hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
    }
    if (FAILED(hr) && lock.Flags.Discard && !lock.Flags.NoExistingReference && hr != D3DDDIERR_WASSTILLDRAWING &&
        hr != D3DDDIERR_DEVICEREMOVED) {
        /* docs/semantics.md §3.3: a Discard lock that finds no instance to rename to is retried
         * after a flush with NoExistingReference (nothing queued names any instance now). */
        HRESULT fhr = umd_flush(dev);
        if (SUCCEEDED(fhr)) {
            lock.hAllocation = res->hAllocation;
            lock.Flags.NoExistingReference = 1;
            hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
        }
    }
    if (FAILED(hr))
        return umd_map_lock_error(hr);
    /* With Discard VidMm may hand out another instance (docs/semantics.md §3.3): later
     * commands (in a new allocation-list entry, cmdbuf.c) and the unlock name the new one. */
    if (lock.hAllocation && lock.hAllocation != res->hAllocation) {
        res->hAllocation = lock.hAllocation;
        dev->queued_rename_bytes += umd_is_queued(dev, res) ? res->size : 0u;
    }
    res->lock_data = lock.pData;
    return S_OK;
}

HRESULT umd_map_wait_idle(struct umd_device *dev, struct umd_resource *res, D3DDDICB_LOCKFLAGS flags, BOOL donotwait)
{
    if (dev->renaming) /* the UMD's own stamp (rename.c); flushes first if it is the open buffer */
        return umd_rename_wait(dev, res->cb_gen, donotwait);
    if (umd_is_queued(dev, res)) {
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr))
            return hr;
    }
    /* VidMm's implicit synchronisation, as for the first lock: a nested pfnLockCb of the locked
     * allocation waits (or refuses with DonotWait) and never renames (a locked instance stays);
     * given back at once, the first lock keeps the pointer. */
    D3DDDICB_LOCK lock = { .hAllocation = res->hAllocation, .Flags = flags };
    lock.Flags.Discard = 0;
    lock.Flags.DonotWait = donotwait;
    HRESULT hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
    if (FAILED(hr))
        return umd_map_lock_error(hr);
    D3DDDICB_UNLOCK u = { .NumAllocations = 1, .phAllocations = &res->hAllocation };
    (void)dev->kt.pfnUnlockCb(dev->hRTDevice.handle, &u);
    return S_OK;
}

/* A Map of one subresource while another of the same resource is mapped. The allocation is
 * already locked and the CPU pointer stays the first lock's, but this Map still owes seed 001
 * §8's synchronisation: GPU work queued since the first Map (a copy into this subresource) must
 * retire first, or DONOTWAIT answers WASSTILLDRAWING. The UMD tracks no per-subresource
 * writes, so it waits for every use of the allocation, as the first lock did. A no-overwrite
 * map waits for nothing (the application's promise). Discard cannot reach here: a DYNAMIC
 * resource has one subresource. */
static HRESULT umd_map_sync_mapped(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP DDIMap, UINT Flags)
{
    if (DDIMap == D3D10_DDI_MAP_WRITE_NOOVERWRITE)
        return S_OK;
    return umd_map_wait_idle(dev, res, umd_map_lock_flags[DDIMap], (Flags & D3D10_DDI_MAP_FLAG_DONOTWAIT) != 0);
}

HRESULT umd_map_begin(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags)
{
    if (umd_ring_backed(res)) { /* a slice of the upload ring: no kernel call (ring.c) */
        BYTE *data = NULL;
        HRESULT hr = umd_ring_map(dev, res, map, flags, &data);
        res->lock_data = SUCCEEDED(hr) ? data : NULL;
        return hr;
    }
    if (!dev->renaming)
        return umd_map_lock(dev, res, map, flags);
    /* The UMD renames and synchronises itself (rename.c, docs/semantics.md §3.3 "WDDM 2.x"). */
    BYTE *data = NULL;
    HRESULT hr = umd_rename_map(dev, res, map, flags, &data);
    res->lock_data = SUCCEEDED(hr) ? data : NULL;
    return hr;
}

HRESULT umd_map_end(struct umd_device *dev, struct umd_resource *res)
{
    res->lock_data = NULL;
    if (umd_ring_backed(res)) /* its chunk stays locked (ring.c) */
        return S_OK;
    if (dev->renaming) {
        D3DDDICB_UNLOCK2 u2 = { .hAllocation = res->hAllocation };
        return dev->kt.pfnUnlock2Cb(dev->hRTDevice.handle, &u2);
    }
    D3DDDICB_UNLOCK u = { .NumAllocations = 1, .phAllocations = &res->hAllocation };
    return dev->kt.pfnUnlockCb(dev->hRTDevice.handle, &u);
}

VOID APIENTRY umd_ResourceMap(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hResource, UINT Subresource,
                              D3D10_DDI_MAP DDIMap, UINT Flags, D3D10DDI_MAPPED_SUBRESOURCE *pMapped)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);

    if (res->usage == D3D10_DDI_USAGE_DEFAULT || res->usage == D3D10_DDI_USAGE_IMMUTABLE) {
        /* Seed 001 §5: a GPU-only resource's Map fails cleanly; nothing is locked. */
        UMD_REFUSE("Map: resource of usage %s is GPU-only (Map not allowed)",
                   res->usage == D3D10_DDI_USAGE_DEFAULT ? "DEFAULT" : "IMMUTABLE");
        umd_map_fail(pMapped);
        umd_set_error(dev, E_INVALIDARG);
        return;
    }
    if ((UINT)DDIMap < D3D10_DDI_MAP_READ || (UINT)DDIMap > D3D10_DDI_MAP_WRITE_NOOVERWRITE ||
        (Flags & ~(UINT)D3D10_DDI_MAP_FLAG_MASK) || Subresource >= res->subresource_count || !pMapped) {
        UMD_REFUSE("Map: map type %u, flags 0x%x or subresource %u (of %u) invalid", (unsigned)DDIMap, Flags,
                   Subresource, res->subresource_count);
        umd_map_fail(pMapped);
        umd_set_error(dev, E_INVALIDARG);
        return;
    }
    const struct umd_subresource *sr = &res->sub[Subresource];

    HRESULT hr = res->lock_count ? umd_map_sync_mapped(dev, res, DDIMap, Flags) : umd_map_begin(dev, res, DDIMap, Flags);
    if (FAILED(hr)) {
        /* WASSTILLDRAWING only comes back for a DONOTWAIT map; anything but it, DEVICEREMOVED
         * and E_OUTOFMEMORY is critical for the runtime (docs/semantics.md §4.3). */
        umd_map_fail(pMapped);
        umd_set_error(dev, hr);
        return;
    }
    res->lock_count++;
    pMapped->pData = res->lock_data + sr->offset;
    pMapped->RowPitch = sr->row_pitch;     /* never 0 (docs/semantics.md §4.3) */
    pMapped->DepthPitch = sr->depth_pitch; /* never 0, even for 2-D */
}

VOID APIENTRY umd_ResourceUnmap(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hResource, UINT Subresource)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);
    if (res->lock_count == 0) {
        UMD_REFUSE("Unmap: subresource %u is not mapped", Subresource);
        return;
    }
    if (--res->lock_count)
        return;
    HRESULT hr = umd_map_end(dev, res);
    if (FAILED(hr)) {
        UMD_REFUSE("Unmap: pfnUnlockCb failed (0x%08x)", (unsigned)hr);
        if (hr == D3DDDIERR_DEVICEREMOVED)
            umd_set_error(dev, hr); /* the only error Unmap may report (docs/semantics.md §4.3) */
    }
}

BOOL APIENTRY umd_ResourceIsStagingBusy(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRESOURCE hResource)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_resource *res = umd_resource(hResource);
    /* Work not yet submitted certainly still uses it. */
    if (umd_is_queued(dev, res))
        return TRUE;
    if (res->lock_count)
        return FALSE; /* the application holds it mapped: the GPU is not using it */
    if (dev->renaming)
        return umd_rename_busy(dev, res); /* from the stamp, no kernel call (rename.c) */
    /* The UMD tracks no fences (WDDM 1.x: the kernel does); ask the kernel with a lock that
     * never waits and checks every GPU use (neither ReadOnly nor WriteOnly), then give it back. */
    D3DDDICB_LOCK lock = { .hAllocation = res->hAllocation, .Flags = { .DonotWait = 1 } };
    HRESULT hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
    if (hr == D3DDDIERR_WASSTILLDRAWING)
        return TRUE;
    if (FAILED(hr))
        return FALSE;
    D3DDDICB_UNLOCK u = { .NumAllocations = 1, .phAllocations = &res->hAllocation };
    (void)dev->kt.pfnUnlockCb(dev->hRTDevice.handle, &u);
    return FALSE;
}
