/* rename.c - the UMD renames and synchronises itself (docs/semantics.md §3.3, "WDDM 2.x" bullet;
 * §8.5 monitored fences; issue 3 "Discard renaming, in both driver models").
 *
 * A WDDM 2.x VidMm never renames and pfnLock2Cb returns a CPU pointer with no implicit
 * synchronisation, so the UMD does both:
 *  - one monitored fence per device (its one rendering context): umd_flush signals it from the
 *    GPU after every pfnRenderCb with the generation of the command buffer it submitted
 *    (device->cb_gen, 1, 2, 3 ...). A resource's cb_gen, the last generation that named its
 *    current allocation, is therefore that allocation's stamp: the GPU is done with it once the
 *    fence's CPU-visible value reached it, which the UMD reads without a kernel call;
 *  - Map(WRITE_DISCARD) of a DYNAMIC resource whose stamp has not passed switches to another
 *    allocation of the resource's own pool whose stamp has passed, or creates one with
 *    pfnAllocateCb (same private data, attached to the resource's hRTResource so that the
 *    resource's pfnDeallocateCb frees them all), up to the bound in rename.h; at the bound it
 *    waits on the fence for the oldest retired instance (WASSTILLDRAWING with DONOTWAIT).
 *    Later commands name the new allocation (umd_cmd_ref adds it to the allocation list, the
 *    old entry stays for the commands already written). VidMm is never asked for Discard;
 *  - Map(WRITE_NOOVERWRITE): the current allocation, no wait, no rename;
 *  - Map(READ / WRITE / READ_WRITE): the CPU waits on the fence for the stamp (a read waits for
 *    the last use, not only the last write: conservative), or DONOTWAIT answers
 *    DXGI_DDI_ERR_WASSTILLDRAWING; then pfnLock2Cb.
 * Threading: the immediate context's calls are serialised by the runtime (umd.h); the counters
 * are process-wide atomics for tests.
 */
#include "umd/umd.h"
#include "common/alloc.h"
#include "umd/rename.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The retired allocations of one DYNAMIC resource (the current one is res->hAllocation). */
struct umd_pool {
    UINT n;
    struct {
        D3DKMT_HANDLE hAllocation;
        D3DGPU_VIRTUAL_ADDRESS va;  /* GpuMmu: its own mapping (gpuva.c), 0 otherwise */
        UINT64 stamp;               /* fence value after which the GPU no longer uses it */
    } inst[UMD_RENAME_MAX_INSTANCES - 1];
};

static _Atomic UINT64 c_renames, c_created, c_waits, c_still_drawing, c_signals;

void wddm_umd_get_rename_counters(struct wddm_umd_rename_counters *out)
{
    if (!out)
        return;
    out->renames = atomic_load(&c_renames);
    out->instances_created = atomic_load(&c_created);
    out->waits = atomic_load(&c_waits);
    out->still_drawing = atomic_load(&c_still_drawing);
    out->fence_signals = atomic_load(&c_signals);
}

BOOL umd_renaming_wanted(const struct umd_adapter *ad)
{
    /* A WDDM 2.x KMD (DXGKQAITYPE_UMDRIVERPRIVATE): VidMm does not rename, the UMD must. The
     * environment switch turns the mode on over a WDDM 1.x KMD too (issue 3: both models). */
    if (ad && (ad->info.wddm_version >= 0x2000u || ad->info.gpummu || ad->info.iommu)) /* DXGKDDI_WDDMv2, implied */
        return TRUE;
    const char *e = getenv("WDDM_UMD_RENAMING");
    return e && e[0] == '1' && e[1] == '\0';
}

HRESULT umd_rename_device_init(struct umd_device *dev)
{
    const D3DDDI_DEVICECALLBACKS *kt = &dev->kt;
    if (!kt->pfnCreateSynchronizationObject2Cb || !kt->pfnDestroySynchronizationObjectCb ||
        !kt->pfnSignalSynchronizationObjectFromGpuCb || !kt->pfnWaitForSynchronizationObjectFromCpuCb ||
        !kt->pfnLock2Cb || !kt->pfnUnlock2Cb) {
        /* A runtime from before WDDM 2.0 (or a test's fake one): the mode stays off. */
        UMD_REFUSE("CreateDevice: UMD renaming needs the WDDM 2.x runtime callbacks (monitored fence, "
                   "pfnLock2Cb); the runtime lacks one, so VidMm keeps renaming and synchronising");
        return S_OK;
    }
    UINT max = UMD_RENAME_MAX_INSTANCES;
    const char *e = getenv("WDDM_UMD_RENAME_MAX_INSTANCES");
    if (e && *e) {
        char *end;
        unsigned long v = strtoul(e, &end, 10);
        if (*end || v < 1 || v > UMD_RENAME_MAX_INSTANCES)
            UMD_REFUSE("WDDM_UMD_RENAME_MAX_INSTANCES=%s is not 1..%u; using %u", e, UMD_RENAME_MAX_INSTANCES, max);
        else
            max = (UINT)v;
    }
    D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 c = { 0 };
    c.Info.Type = D3DDDI_MONITORED_FENCE;
    c.Info.MonitoredFence.InitialFenceValue = 0; /* generation 0 = "never used" has passed */
    HRESULT hr = kt->pfnCreateSynchronizationObject2Cb(dev->hRTDevice.handle, &c);
    if (FAILED(hr) || !c.Info.MonitoredFence.FenceValueCPUVirtualAddress) {
        UMD_REFUSE("CreateDevice: pfnCreateSynchronizationObject2Cb (monitored fence) failed (0x%08x)", (unsigned)hr);
        return FAILED(hr) ? hr : E_FAIL;
    }
    dev->renaming = TRUE;
    dev->hFence = c.hSyncObject;
    dev->fence_cpu = c.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    dev->rename_max_instances = max;
    dev->rename_bytes = 0;
    return S_OK;
}

void umd_rename_device_fini(struct umd_device *dev)
{
    if (!dev->renaming)
        return;
    D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT d = { .hSyncObject = dev->hFence };
    (void)dev->kt.pfnDestroySynchronizationObjectCb(dev->hRTDevice.handle, &d);
    dev->renaming = FALSE;
    dev->hFence = 0;
    dev->fence_cpu = NULL;
}

#if defined(__SANITIZE_THREAD__)
#define UMD_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UMD_TSAN 1
#endif
#endif

/* The fence's CPU-visible value: read-only mapping, no kernel call (docs/semantics.md §8.5 rule 1). */
static UINT64 umd_fence_completed(const struct umd_device *dev)
{
    UINT64 v = atomic_load_explicit((const _Atomic UINT64 *)dev->fence_cpu, memory_order_acquire);
#ifdef UMD_TSAN
    /* ThreadSanitizer builds only: the kernel stores the value through its own mapping of the
     * fence page (one memfd mapped twice, docs/architecture.md "Monitored fences"), so TSan
     * cannot pair that release with this acquire and would report the GPU thread's writes as
     * racing with the CPU's use of the memory. A wait for the value just read returns at once
     * and synchronises through the kernel's mapping. */
    if (v) {
        D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = {
            .ObjectCount = 1, .ObjectHandleArray = &dev->hFence, .FenceValueArray = &v,
        };
        (void)dev->kt.pfnWaitForSynchronizationObjectFromCpuCb(dev->hRTDevice.handle, &w);
    }
#endif
    return v;
}

void umd_rename_signal(struct umd_device *dev, UINT64 gen)
{
    /* Signalled even when pfnRenderCb failed: the value then only means "nothing of that
     * generation is left on the GPU", which is true, and no CPU wait for it can hang. */
    D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = {
        .hContext = dev->hContext, .ObjectCount = 1, .ObjectHandleArray = &dev->hFence,
        .MonitoredFenceValueArray = &gen,
    };
    HRESULT hr = dev->kt.pfnSignalSynchronizationObjectFromGpuCb(dev->hRTDevice.handle, &s);
    atomic_fetch_add(&c_signals, 1);
    if (SUCCEEDED(hr) && gen > dev->signalled_gen)
        dev->signalled_gen = gen;
    if (FAILED(hr)) {
        /* Until a later signal succeeds, no fence value covers this generation: umd_fence_wait
         * signals again before it waits (or fails), so no CPU wait can hang on it. */
        UMD_REFUSE("flush: pfnSignalSynchronizationObjectFromGpuCb(%llu) failed (0x%08x)", (unsigned long long)gen,
                   (unsigned)hr);
        if (hr == D3DDDIERR_DEVICEREMOVED)
            umd_set_error(dev, hr);
    }
}

/* Until the fence reached `stamp`: S_OK at once when it has; submits the command buffer first
 * when the stamp is the generation still being filled (no signal for it exists yet); then the
 * monitored-fence CPU wait (non-polling, docs/semantics.md §3.3), or WASSTILLDRAWING for DONOTWAIT. */
static HRESULT umd_fence_wait(struct umd_device *dev, UINT64 stamp, BOOL donotwait)
{
    if (stamp <= umd_fence_completed(dev))
        return S_OK;
    if (stamp >= dev->cb_gen) {
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr))
            return hr;
    }
    if (stamp <= umd_fence_completed(dev))
        return S_OK;
    if (stamp > dev->signalled_gen) {
        /* The GPU signal for that generation failed (out of memory in the kernel): the signal of
         * the last generation submitted covers it, since a context's buffers retire in order.
         * Without one, the wait could never end: the call fails instead. */
        umd_rename_signal(dev, dev->cb_gen - 1);
        if (stamp > dev->signalled_gen)
            return E_OUTOFMEMORY;
    }
    if (donotwait) {
        atomic_fetch_add(&c_still_drawing, 1);
        return DXGI_DDI_ERR_WASSTILLDRAWING;
    }
    atomic_fetch_add(&c_waits, 1);
    D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = {
        .ObjectCount = 1, .ObjectHandleArray = &dev->hFence, .FenceValueArray = &stamp,
    };
    HRESULT hr = dev->kt.pfnWaitForSynchronizationObjectFromCpuCb(dev->hRTDevice.handle, &w);
    if (FAILED(hr))
        UMD_REFUSE("Map: pfnWaitForSynchronizationObjectFromCpuCb(%llu) failed (0x%08x)", (unsigned long long)stamp,
                   (unsigned)hr);
    return hr;
}

HRESULT umd_rename_wait(struct umd_device *dev, UINT64 stamp, BOOL donotwait)
{
    return umd_fence_wait(dev, stamp, donotwait);
}

UINT64 umd_rename_completed(const struct umd_device *dev)
{
    return umd_fence_completed(dev);
}

/* A new pool allocation with the resource's own creation data (docs/semantics.md §3.5); in the
 * GpuMmu model it gets its own VA and is made resident like the resource's first one. */
static HRESULT umd_pool_allocate(struct umd_device *dev, struct umd_resource *res, D3DKMT_HANDLE *out,
                                 D3DGPU_VIRTUAL_ADDRESS *va)
{
    struct swgpu_alloc_private priv = res->priv;
    D3DDDI_ALLOCATIONINFO info = {
        .pPrivateDriverData = &priv,
        .PrivateDriverDataSize = sizeof priv,
        .VidPnSourceId = D3DDDI_ID_NOTAPPLICABLE,
    };
    D3DDDICB_ALLOCATE a = { .hResource = res->hRTResource.handle, .NumAllocations = 1, .pAllocationInfo = &info };
    HRESULT hr = dev->kt.pfnAllocateCb(dev->hRTDevice.handle, &a);
    if (FAILED(hr)) {
        UMD_REFUSE("Map(WRITE_DISCARD): pfnAllocateCb for a renaming instance failed (0x%08x)", (unsigned)hr);
        return hr;
    }
    *out = info.hAllocation;
    *va = 0;
    if (dev->gpuva) {
        hr = umd_va_prepare(dev, info.hAllocation, res->size, TRUE, va, FALSE);
        if (FAILED(hr)) {
            /* Not usable by the GPU: give it back (one allocation of the resource, by handle). */
            D3DDDICB_DEALLOCATE d = { .NumAllocations = 1, .HandleList = &info.hAllocation };
            (void)dev->kt.pfnDeallocateCb(dev->hRTDevice.handle, &d);
            return hr;
        }
    }
    return S_OK;
}

/* Whether a discard of res, whose current allocation the open buffer names, submits that buffer
 * first: once the renamed bytes it names would pass UMD_RENAMED_BYTES_PER_FLUSH, the WDDM 1.x
 * path's rule (map.c). Otherwise a buffer renamed every frame fills its whole pool inside one
 * unsubmitted buffer, and at the bound the CPU waits for all of it while the GPU had nothing to
 * do (issue 17 aim 2: the GPU copies the earlier instances while the CPU fills the next). */
static BOOL discard_should_submit(const struct umd_device *dev, const struct umd_resource *res,
                                  const struct umd_pool *p)
{
    if (dev->queued_rename_bytes + res->size > UMD_RENAMED_BYTES_PER_FLUSH)
        return TRUE;
    /* ... or half a pool of at least 4 would be instances only the open buffer names (a smaller
     * pool is triple buffering: its bound's wait submits). */
    if (dev->rename_max_instances < 4)
        return FALSE;
    UINT open = 1; /* the current allocation */
    for (UINT i = 0; p && i < p->n; i++)
        open += p->inst[i].stamp >= dev->cb_gen;
    return open >= dev->rename_max_instances / 2;
}

/* WRITE_DISCARD of a DYNAMIC resource: make res->hAllocation an allocation the GPU is done with. */
static HRESULT umd_discard(struct umd_device *dev, struct umd_resource *res, BOOL donotwait)
{
    UINT64 done = umd_fence_completed(dev);
    if (res->cb_gen <= done)
        return S_OK; /* the GPU is done with the current allocation: keep it */
    if (res->priv.flags & SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD)
        return umd_fence_wait(dev, res->cb_gen, donotwait); /* one memory, shared with the KMD (seed 002) */
    struct umd_pool *p = res->pool;
    if (umd_is_queued(dev, res) && discard_should_submit(dev, res, p)) {
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr))
            return hr;
    }
    if (!p) {
        /* The only allocation on the map path, once per resource and only when it first renames. */
        p = wddm_calloc(1, sizeof *p);
        if (!p)
            return E_OUTOFMEMORY;
        res->pool = p;
    }
    /* 1. A retired allocation whose stamp passed: the oldest (any would do; the oldest keeps the
     *    recycling order predictable). */
    int pick = -1;
    for (UINT i = 0; i < p->n; i++)
        if (p->inst[i].stamp <= done && (pick < 0 || p->inst[i].stamp < p->inst[pick].stamp))
            pick = (int)i;
    /* 2. A new one, below the bound. */
    if (pick < 0 && p->n + 1 < dev->rename_max_instances && dev->rename_bytes + res->size <= UMD_RENAME_MAX_BYTES) {
        D3DKMT_HANDLE h;
        D3DGPU_VIRTUAL_ADDRESS va;
        HRESULT hr = umd_pool_allocate(dev, res, &h, &va);
        if (hr == D3DDDIERR_DEVICEREMOVED)
            return hr;
        if (SUCCEEDED(hr)) {
            pick = (int)p->n++;
            p->inst[pick].hAllocation = h;
            p->inst[pick].va = va;
            p->inst[pick].stamp = 0;
            dev->rename_bytes += res->size;
            atomic_fetch_add(&c_created, 1);
        }
        /* Out of memory: the same as the bound. */
    }
    /* 3. At the bound: wait for the oldest retired allocation (the current one when the pool is
     *    empty: a bound of 1, or no memory for a second one). */
    if (pick < 0) {
        if (p->n == 0)
            return umd_fence_wait(dev, res->cb_gen, donotwait);
        pick = 0;
        for (UINT i = 1; i < p->n; i++)
            if (p->inst[i].stamp < p->inst[pick].stamp)
                pick = (int)i;
        HRESULT hr = umd_fence_wait(dev, p->inst[pick].stamp, donotwait);
        if (FAILED(hr))
            return hr;
    }
    /* Switch: the current allocation retires with its stamp; the picked one becomes current with
     * its own (passed) stamp, which is below device->cb_gen, so the next command that names the
     * resource adds the new allocation to the allocation list (umd_cmd_ref). */
    D3DKMT_HANDLE h = p->inst[pick].hAllocation;
    D3DGPU_VIRTUAL_ADDRESS va = p->inst[pick].va;
    UINT64 stamp = p->inst[pick].stamp;
    if (umd_is_queued(dev, res))
        dev->queued_rename_bytes += res->size;
    p->inst[pick].hAllocation = res->hAllocation;
    p->inst[pick].va = res->va;
    p->inst[pick].stamp = res->cb_gen;
    res->hAllocation = h;
    res->va = va; /* GpuMmu: later commands carry the new allocation's VA (cmdbuf.c) */
    res->cb_gen = stamp;
    atomic_fetch_add(&c_renames, 1);
    return S_OK;
}

HRESULT umd_rename_map(struct umd_device *dev, struct umd_resource *res, D3D10_DDI_MAP map, UINT flags, BYTE **data)
{
    BOOL donotwait = (flags & D3D10_DDI_MAP_FLAG_DONOTWAIT) != 0;
    HRESULT hr;
    if (map == D3D10_DDI_MAP_WRITE_DISCARD && res->usage == D3D10_DDI_USAGE_DYNAMIC)
        hr = umd_discard(dev, res, donotwait);
    else if (map == D3D10_DDI_MAP_WRITE_NOOVERWRITE)
        hr = S_OK; /* the application promises not to touch what the GPU still uses */
    else
        hr = umd_fence_wait(dev, res->cb_gen, donotwait);
    if (FAILED(hr))
        return hr;
    /* VidMm waits for its own paging of the allocation, if any (vidmm/lock.c D3DKMTLock2). */
    D3DDDICB_LOCK2 l = { .hAllocation = res->hAllocation };
    hr = dev->kt.pfnLock2Cb(dev->hRTDevice.handle, &l);
    if (FAILED(hr)) {
        UMD_REFUSE("Map: pfnLock2Cb failed (0x%08x)", (unsigned)hr);
        return hr;
    }
    *data = l.pData;
    return S_OK;
}

BOOL umd_rename_busy(struct umd_device *dev, struct umd_resource *res)
{
    return res->cb_gen > umd_fence_completed(dev);
}

void umd_rename_resource_fini(struct umd_device *dev, struct umd_resource *res)
{
    struct umd_pool *p = res->pool;
    if (!p)
        return;
    /* A retired allocation named by the command buffer still being filled must reach the kernel
     * before the resource's allocations are freed (VidMm then defers their destruction). */
    for (UINT i = 0; i < p->n; i++) {
        if (p->inst[i].stamp >= dev->cb_gen) {
            HRESULT hr = umd_flush(dev);
            if (FAILED(hr))
                umd_set_error(dev, hr);
            break;
        }
    }
    /* A device allocation (the UMD's own buffer) has no kernel resource whose release takes
     * every instance with it: each is freed by its handle (VidMm defers what queued work names). */
    if (!res->hRTResource.handle) {
        for (UINT i = 0; i < p->n; i++) {
            D3DDDICB_DEALLOCATE d = { .NumAllocations = 1, .HandleList = &p->inst[i].hAllocation };
            HRESULT hr = dev->kt.pfnDeallocateCb(dev->hRTDevice.handle, &d);
            if (FAILED(hr))
                UMD_REFUSE("pfnDeallocateCb of a renaming instance failed (0x%08x)", (unsigned)hr);
        }
    }
    dev->rename_bytes -= (UINT64)p->n * res->size;
    free(p);
    res->pool = NULL;
}
