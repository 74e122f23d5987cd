/* gpuva.c - the reference UMD on a WDDM 2.x GpuMmu adapter (issue 6; docs/semantics.md §3.3
 * "WDDM 2.x", §9.2; common brief "The shared model").
 *
 * When the KMD's private data says gpummu, the kernel hands a context no command buffer and no
 * allocation / patch-location list, refuses pfnRenderCb, and never makes anything resident on
 * its own. The UMD then:
 *  - gives every allocation it creates (resources, rename-pool instances, event queries, its
 *    command buffers) a GPU virtual address over the whole allocation with
 *    pfnMapGpuVirtualAddressCb (Write protection unless the resource is IMMUTABLE; command
 *    buffers are read-only: the engine only fetches them) and makes it resident with
 *    pfnMakeResidentCb: the UMD owns residency (§9.2). Both go through the device's one paging
 *    queue (pfnCreatePagingQueueCb);
 *  - paging fence values: Map and MakeResident may return a value of the paging queue's
 *    monitored fence that must pass before the GPU uses the VA. The UMD keeps the highest one and,
 *    before the next submission, queues a GPU wait for it on the rendering context
 *    (pfnWaitForSynchronizationObjectFromGpuCb; nothing when the fence's CPU-visible value already
 *    passed it). A GPU wait, not a CPU wait: the CPU never blocks on paging (the paging engine
 *    may be paused, or simply behind), as a WDDM 1.x submission does not either;
 *  - writes commands into its own command ring (UMD_VA_RING_SLOTS CPU-visible allocations of
 *    UMD_VA_SLOT_BYTES, mapped read-only, resident, locked once with pfnLock2Cb) and submits the
 *    slot with pfnSubmitCommandCb (Commands = slot VA, CommandLength); then umd_flush signals the
 *    device's monitored fence (rename.c) with the generation, which is the slot's stamp. A slot is
 *    written again only after the fence reached its stamp: when the next slot is still busy the
 *    ring grows (up to UMD_VA_RING_MAX), and only at that bound does the CPU wait;
 *  - destruction: the kernel unmaps an allocation's VAs when it is destroyed, once the work the
 *    device submitted before (also what is still held behind a GPU wait) retired; nothing is
 *    evicted and the UMD never waits (docs/architecture.md "No allocation list").
 * Address fields hold VA + offset, decided in one place (cmdbuf.c umd_cmd_address).
 * Threading: as the rest of the immediate context (umd.h): serialised by the runtime.
 */
#include "umd/umd.h"

#include <stdatomic.h>
#include <string.h>

#define UMD_VA_PAGE 4096u

static UINT64 umd_paging_completed(const struct umd_device *dev)
{
    return atomic_load_explicit((const _Atomic UINT64 *)dev->paging_fence_cpu, memory_order_acquire);
}

/* Before the GPU may use a VA just mapped or made resident: a GPU wait for the paging fence
 * on the rendering context, queued ahead of the submission (see above). */
static HRESULT umd_paging_wait(struct umd_device *dev)
{
    UINT64 v = dev->paging_fence_pending;
    if (!v || v <= dev->paging_gpu_waited)
        return S_OK; /* already waited for by an earlier submission of this context (in order) */
    if (v <= umd_paging_completed(dev)) {
        dev->paging_gpu_waited = v;
        return S_OK;
    }
    D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = {
        .hContext = dev->hContext, .ObjectCount = 1, .ObjectHandleArray = &dev->hPagingFence,
        .MonitoredFenceValueArray = &v,
    };
    HRESULT hr = dev->kt.pfnWaitForSynchronizationObjectFromGpuCb(dev->hRTDevice.handle, &w);
    if (FAILED(hr)) {
        UMD_REFUSE("submit: GPU wait for paging fence %llu failed (0x%08x)", (unsigned long long)v, (unsigned)hr);
        return hr;
    }
    dev->paging_gpu_waited = v;
    return S_OK;
}

static void umd_paging_fence(struct umd_device *dev, UINT64 v)
{
    if (v > dev->paging_fence_pending)
        dev->paging_fence_pending = v;
}

/* Evicts the least recently used resource of the residency list that no command being
 * written names (its generation is older than the current one) and no Map holds; FALSE when
 * there is none. The kernel keeps it in place until the work already submitted with it
 * retired (D3DKMTEvict in the GpuMmu model). */
static BOOL umd_trim_one(struct umd_device *dev, const struct umd_resource *except)
{
    struct umd_resource *victim = NULL;
    for (struct umd_resource *r = dev->residency; r; r = r->res_next)
        if (r != except && !r->evicted && !r->lock_count && r->cb_gen < dev->cb_gen &&
            (!victim || r->cb_gen < victim->cb_gen))
            victim = r;
    if (!victim)
        return FALSE;
    D3DDDICB_EVICT e = { .NumAllocations = 1, .AllocationList = &victim->hAllocation };
    if (FAILED(dev->kt.pfnEvictCb(dev->hRTDevice.handle, &e)))
        return FALSE;
    victim->evicted = TRUE;
    return TRUE;
}

/* MakeResident of one allocation; when it does not fit (atomic failure, E_OUTOFMEMORY) the UMD
 * trims its own residency list and tries again (docs/semantics.md §9.2: the UMD owns residency). */
static HRESULT umd_make_resident(struct umd_device *dev, D3DKMT_HANDLE h, const struct umd_resource *except)
{
    BOOL drained = FALSE;
    for (;;) {
        D3DDDI_MAKERESIDENT r = { .hPagingQueue = dev->hPagingQueue, .NumAllocations = 1, .AllocationList = &h };
        HRESULT hr = dev->kt.pfnMakeResidentCb(dev->hRTDevice.handle, &r);
        if (SUCCEEDED(hr) || hr == E_PENDING) {
            umd_paging_fence(dev, r.PagingFenceValue);
            return S_OK;
        }
        if (hr != E_OUTOFMEMORY)
            return hr;
        if (umd_trim_one(dev, except))
            continue;
        /* Nothing left to trim, yet what was trimmed keeps its room while work submitted
         * before the Evict may read it (the kernel lets it go only after that work retired).
         * Once: wait for everything submitted so far (the device's fence), then try again. */
        if (drained || dev->cb_gen < 2 || FAILED(umd_rename_wait(dev, dev->cb_gen - 1, FALSE)))
            return hr;
        drained = TRUE;
    }
}

/* IoMmu: the allocation's address is the one the CPU uses (MicrosoftDocs "IoMmu model": the GPU
 * and the CPU use the same pointer), which a lock gives; the IOMMU maps it while it is resident. */
static HRESULT umd_iommu_address(struct umd_device *dev, D3DKMT_HANDLE h, D3DGPU_VIRTUAL_ADDRESS *va)
{
    D3DDDICB_LOCK2 l = { .hAllocation = h };
    HRESULT hr = dev->kt.pfnLock2Cb(dev->hRTDevice.handle, &l);
    if (FAILED(hr)) {
        UMD_REFUSE("pfnLock2Cb(allocation 0x%x) for its shared address failed (0x%08x)", h, (unsigned)hr);
        return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
    }
    *va = (D3DGPU_VIRTUAL_ADDRESS)(uintptr_t)l.pData;
    D3DDDICB_UNLOCK2 u = { .hAllocation = h };
    (void)dev->kt.pfnUnlock2Cb(dev->hRTDevice.handle, &u);
    return S_OK;
}

HRESULT umd_va_prepare(struct umd_device *dev, D3DKMT_HANDLE h, UINT64 size, BOOL writable,
                       D3DGPU_VIRTUAL_ADDRESS *va, BOOL may_stay_evicted)
{
    *va = 0;
    if (dev->iommu) {
        D3DGPU_VIRTUAL_ADDRESS shared = 0;
        HRESULT hr = umd_iommu_address(dev, h, &shared);
        if (FAILED(hr))
            return hr;
        hr = umd_make_resident(dev, h, NULL);
        *va = shared;
        if (hr == E_OUTOFMEMORY && may_stay_evicted)
            return S_FALSE;
        if (FAILED(hr)) {
            UMD_REFUSE("pfnMakeResidentCb(allocation 0x%x) failed (0x%08x)", h, (unsigned)hr);
            *va = 0;
            return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
        }
        return S_OK;
    }
    D3DDDI_MAPGPUVIRTUALADDRESS m = {
        .hPagingQueue = dev->hPagingQueue,
        .hAllocation = h,
        .OffsetInPages = 0,
        .SizeInPages = (size + UMD_VA_PAGE - 1) / UMD_VA_PAGE ? (size + UMD_VA_PAGE - 1) / UMD_VA_PAGE : 1,
        .Protection = { .Write = writable ? 1 : 0 },
    };
    HRESULT hr = dev->kt.pfnMapGpuVirtualAddressCb(dev->hRTDevice.handle, &m);
    if (FAILED(hr) && hr != E_PENDING) {
        UMD_REFUSE("pfnMapGpuVirtualAddressCb(allocation 0x%x, %llu pages) failed (0x%08x)", h,
                   (unsigned long long)m.SizeInPages, (unsigned)hr);
        return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
    }
    umd_paging_fence(dev, m.PagingFenceValue);
    /* docs/semantics.md §9.2: in WDDM 2.x the UMD's residency list is the only control; a VA of a
     * non-resident allocation faults. */
    hr = umd_make_resident(dev, h, NULL);
    *va = m.VirtualAddress;
    if (hr == E_OUTOFMEMORY && may_stay_evicted)
        return S_FALSE; /* mapped, not resident: umd_va_ensure_resident before the GPU uses it */
    if (FAILED(hr)) {
        UMD_REFUSE("pfnMakeResidentCb(allocation 0x%x) failed (0x%08x)", h, (unsigned)hr);
        /* The mapping dies with the allocation, which the caller destroys. */
        *va = 0;
        return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
    }
    return S_OK;
}

void umd_va_track(struct umd_device *dev, struct umd_resource *res)
{
    /* DYNAMIC resources rename (their pool's allocations stay resident): not trimmed. */
    if (res->usage == D3D10_DDI_USAGE_DYNAMIC)
        return;
    res->trimmable = TRUE;
    res->res_prev = NULL;
    res->res_next = dev->residency;
    if (dev->residency)
        dev->residency->res_prev = res;
    dev->residency = res;
}

HRESULT umd_va_ensure_resident(struct umd_device *dev, struct umd_resource *res)
{
    if (!res->evicted)
        return S_OK;
    HRESULT hr = umd_make_resident(dev, res->hAllocation, res);
    if (SUCCEEDED(hr))
        res->evicted = FALSE;
    return hr;
}

/* One ring slot: a device allocation (no kernel resource), CPU-visible (SWGPU_ALLOC_UPLOAD). */
static HRESULT umd_slot_create(struct umd_device *dev, struct umd_cmd_slot *s)
{
    struct swgpu_alloc_private priv = {
        .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION, .kind = SWGPU_ALLOC_UPLOAD,
        .format = DXGI_FORMAT_UNKNOWN, .size = UMD_VA_SLOT_BYTES, .dimension = D3D10DDIRESOURCE_BUFFER,
        .width = UMD_VA_SLOT_BYTES, .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1,
        .usage = D3D10_DDI_USAGE_DYNAMIC, .cpu_access = D3D10_DDI_CPU_ACCESS_WRITE,
    };
    D3DDDI_ALLOCATIONINFO info = {
        .pPrivateDriverData = &priv, .PrivateDriverDataSize = sizeof priv, .VidPnSourceId = D3DDDI_ID_NOTAPPLICABLE,
    };
    D3DDDICB_ALLOCATE a = { .NumAllocations = 1, .pAllocationInfo = &info };
    HRESULT hr = dev->kt.pfnAllocateCb(dev->hRTDevice.handle, &a);
    if (FAILED(hr)) {
        UMD_REFUSE("CreateDevice: pfnAllocateCb for a command buffer failed (0x%08x)", (unsigned)hr);
        return hr;
    }
    s->hAllocation = info.hAllocation;
    hr = umd_va_prepare(dev, s->hAllocation, UMD_VA_SLOT_BYTES, FALSE, &s->va, FALSE);
    if (SUCCEEDED(hr)) {
        D3DDDICB_LOCK2 l = { .hAllocation = s->hAllocation };
        hr = dev->kt.pfnLock2Cb(dev->hRTDevice.handle, &l);
        s->cpu = SUCCEEDED(hr) ? l.pData : NULL;
        if (FAILED(hr))
            UMD_REFUSE("pfnLock2Cb of a command buffer failed (0x%08x)", (unsigned)hr);
    }
    s->stamp = 0;
    return hr;
}

static void umd_slot_destroy(struct umd_device *dev, struct umd_cmd_slot *s)
{
    if (s->cpu) {
        D3DDDICB_UNLOCK2 u = { .hAllocation = s->hAllocation };
        (void)dev->kt.pfnUnlock2Cb(dev->hRTDevice.handle, &u);
    }
    if (s->hAllocation) {
        /* The kernel waits for the work this device queued before destroying it, and unmaps it. */
        D3DDDICB_DEALLOCATE d = { .NumAllocations = 1, .HandleList = &s->hAllocation };
        (void)dev->kt.pfnDeallocateCb(dev->hRTDevice.handle, &d);
    }
    memset(s, 0, sizeof *s);
}

HRESULT umd_va_device_init(struct umd_device *dev)
{
    const D3DDDI_DEVICECALLBACKS *kt = &dev->kt;
    if (!dev->renaming || !kt->pfnCreatePagingQueueCb || !kt->pfnDestroyPagingQueueCb ||
        !(dev->iommu ? kt->pfnLock2Cb && kt->pfnUnlock2Cb : kt->pfnMapGpuVirtualAddressCb != NULL) ||
        !kt->pfnMakeResidentCb || !kt->pfnSubmitCommandCb) {
        UMD_REFUSE("CreateDevice: the adapter runs the GpuMmu model but the runtime lacks a WDDM 2.x callback "
                   "(paging queue, monitored fence, pfnMapGpuVirtualAddressCb, pfnMakeResidentCb, pfnSubmitCommandCb)");
        return E_FAIL;
    }
    D3DDDICB_CREATEPAGINGQUEUE q = { .Priority = D3DDDI_PAGINGQUEUE_PRIORITY_NORMAL };
    HRESULT hr = kt->pfnCreatePagingQueueCb(dev->hRTDevice.handle, &q);
    if (FAILED(hr) || !q.FenceValueCPUVirtualAddress) {
        UMD_REFUSE("CreateDevice: pfnCreatePagingQueueCb failed (0x%08x)", (unsigned)hr);
        return FAILED(hr) ? hr : E_FAIL;
    }
    dev->gpuva = TRUE;
    dev->hPagingQueue = q.hPagingQueue;
    dev->hPagingFence = q.hSyncObject;
    dev->paging_fence_cpu = q.FenceValueCPUVirtualAddress;
    dev->paging_fence_pending = 0;
    dev->paging_gpu_waited = 0;
    for (UINT i = 0; i < UMD_VA_RING_SLOTS; i++) {
        hr = umd_slot_create(dev, &dev->ring[i]);
        dev->ring_count = i + 1;
        if (FAILED(hr)) {
            umd_va_device_fini(dev);
            return hr;
        }
    }
    dev->ring_cur = 0;
    dev->cmd = dev->ring[0].cpu;
    dev->cmd_size = UMD_VA_SLOT_BYTES;
    dev->cmd_used = 0;
    /* No lists in this model: sizes 0 keep the 1.x helpers from ever touching them. */
    dev->alloc_list = NULL;
    dev->alloc_size = 0;
    dev->patch_list = NULL;
    dev->patch_size = 0;
    return S_OK;
}

void umd_va_device_fini(struct umd_device *dev)
{
    if (!dev->gpuva)
        return;
    for (UINT i = 0; i < dev->ring_count; i++)
        umd_slot_destroy(dev, &dev->ring[i]);
    dev->ring_count = 0;
    dev->upload_pending_count = 0;
    /* Waits for the queue's paging work and destroys it with its fence (pfnDestroyPagingQueueCb). */
    D3DDDI_DESTROYPAGINGQUEUE d = { .hPagingQueue = dev->hPagingQueue };
    (void)dev->kt.pfnDestroyPagingQueueCb(dev->hRTDevice.handle, &d);
    dev->hPagingQueue = 0;
    dev->hPagingFence = 0;
    dev->paging_fence_cpu = NULL;
    dev->cmd = NULL;
    dev->cmd_size = 0;
    dev->gpuva = FALSE;
}

HRESULT umd_va_submit(struct umd_device *dev)
{
    HRESULT hr = umd_paging_wait(dev);
    if (FAILED(hr))
        return hr;
    struct umd_cmd_slot *s = &dev->ring[dev->ring_cur];
    D3DDDICB_SUBMITCOMMAND c = {
        .Commands = s->va,
        .CommandLength = dev->cmd_used,
        .BroadcastContextCount = 1,
        .BroadcastContext = { dev->hContext },
    };
    hr = dev->kt.pfnSubmitCommandCb(dev->hRTDevice.handle, &c);
    /* The generation the caller signals next is this slot's stamp, submitted or dropped. */
    s->stamp = dev->cb_gen;
    return hr;
}

/* Free the writable upload mappings of IMMUTABLE resources whose WRITE commands retired. */
static void umd_upload_reap(struct umd_device *dev)
{
    if (!dev->upload_pending_count)
        return;
    UINT64 done = umd_rename_completed(dev);
    for (UINT i = 0; i < dev->upload_pending_count;) {
        struct umd_resource *res = dev->upload_pending[i];
        if (res->upload_stamp > done) {
            i++;
            continue;
        }
        if (dev->kt.pfnFreeGpuVirtualAddressCb) {
            D3DDDICB_FREEGPUVIRTUALADDRESS f = {
                .BaseAddress = res->upload_va,
                .Size = (res->size + UMD_VA_PAGE - 1) / UMD_VA_PAGE * UMD_VA_PAGE,
            };
            (void)dev->kt.pfnFreeGpuVirtualAddressCb(dev->hRTDevice.handle, &f);
        }
        res->upload_va = 0;
        dev->upload_pending[i] = dev->upload_pending[--dev->upload_pending_count];
    }
}

HRESULT umd_va_next_slot(struct umd_device *dev)
{
    HRESULT hr = S_OK;
    UINT next = (dev->ring_cur + 1) % dev->ring_count;
    UINT64 done = umd_rename_completed(dev);
    if (dev->ring[next].stamp > done && dev->ring_count < UMD_VA_RING_MAX) {
        /* The engine may still fetch the next slot's commands: grow the ring rather than block
         * the CPU on a GPU that lags (or is paused). The new slot goes after the current one. */
        struct umd_cmd_slot fresh;
        memset(&fresh, 0, sizeof fresh);
        if (SUCCEEDED(umd_slot_create(dev, &fresh))) {
            memmove(&dev->ring[dev->ring_cur + 2], &dev->ring[dev->ring_cur + 1],
                    (dev->ring_count - dev->ring_cur - 1) * sizeof dev->ring[0]);
            dev->ring[dev->ring_cur + 1] = fresh;
            dev->ring_count++;
            next = dev->ring_cur + 1;
        } else {
            umd_slot_destroy(dev, &fresh);
        }
    }
    dev->ring_cur = next;
    struct umd_cmd_slot *s = &dev->ring[next];
    dev->cmd = s->cpu;
    dev->cmd_size = UMD_VA_SLOT_BYTES;
    /* Reuse only after the slot's last commands retired (the ring is at its bound). */
    if (s->stamp > done)
        hr = umd_rename_wait(dev, s->stamp, FALSE);
    umd_upload_reap(dev);
    return hr;
}

HRESULT umd_va_upload_begin(struct umd_device *dev, struct umd_resource *res)
{
    /* IMMUTABLE: the GPU reads it through a read-only mapping, but its initial data is written
     * by the GPU (SWGPU_OP_WRITE, seed 001 §4.3): a second, writable mapping carries those writes
     * and is freed once they retired (umd_upload_reap). */
    D3DGPU_VIRTUAL_ADDRESS va = 0;
    if (dev->iommu) { /* the IOMMU has no read-only mapping of it: the one address takes the WRITEs */
        res->upload_va = res->va;
        return S_OK;
    }
    D3DDDI_MAPGPUVIRTUALADDRESS m = {
        .hPagingQueue = dev->hPagingQueue, .hAllocation = res->hAllocation,
        .SizeInPages = (res->size + UMD_VA_PAGE - 1) / UMD_VA_PAGE ? (res->size + UMD_VA_PAGE - 1) / UMD_VA_PAGE : 1,
        .Protection = { .Write = 1 },
    };
    HRESULT hr = dev->kt.pfnMapGpuVirtualAddressCb(dev->hRTDevice.handle, &m);
    if (FAILED(hr) && hr != E_PENDING) {
        UMD_REFUSE("CreateResource: writable upload mapping of an IMMUTABLE resource failed (0x%08x)", (unsigned)hr);
        return hr == D3DDDIERR_DEVICEREMOVED ? hr : E_OUTOFMEMORY;
    }
    umd_paging_fence(dev, m.PagingFenceValue);
    va = m.VirtualAddress;
    /* Commands emitted until umd_va_upload_end name the writable mapping. */
    res->upload_va = res->va;
    res->va = va;
    return S_OK;
}

void umd_va_upload_end(struct umd_device *dev, struct umd_resource *res)
{
    if (dev->iommu) { /* nothing was mapped for the upload */
        res->upload_va = 0;
        return;
    }
    D3DGPU_VIRTUAL_ADDRESS upload = res->va;
    res->va = res->upload_va;
    res->upload_va = upload;
    res->upload_stamp = res->cb_gen;
    if (dev->upload_pending_count < UMD_VA_UPLOAD_PENDING)
        dev->upload_pending[dev->upload_pending_count++] = res;
    /* else: the mapping stays until the allocation is destroyed (the kernel unmaps it then). */
}

void umd_va_resource_fini(struct umd_device *dev, struct umd_resource *res)
{
    if (res->trimmable) {
        if (res->res_prev)
            res->res_prev->res_next = res->res_next;
        else
            dev->residency = res->res_next;
        if (res->res_next)
            res->res_next->res_prev = res->res_prev;
        res->trimmable = FALSE;
    }
    for (UINT i = 0; i < dev->upload_pending_count; i++) {
        if (dev->upload_pending[i] == res) {
            dev->upload_pending[i] = dev->upload_pending[--dev->upload_pending_count];
            break;
        }
    }
    res->upload_va = 0;
}
