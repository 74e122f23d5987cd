/*
 * callbacks.c - the runtime callbacks a UMD calls (D3DDDI_DEVICECALLBACKS,
 * D3DDDI_ADAPTERCALLBACKS, D3D11DDI_CORELAYER_DEVICECALLBACKS).
 *
 * Each D3DDDI callback is one D3DKMT thunk (seed 001 §2: "the UMD gets memory only through
 * pfnAllocateCb and CPU pointers only through pfnLockCb"); the kernel's NTSTATUS becomes the
 * HRESULT the callback documents (docs/semantics.md §3.1-3.6). The callbacks do not take the
 * device lock: the UMD calls them from inside a DDI call that already holds it.
 */
#include "runtime/runtime.h"
#include "common/timeline.h"

HRESULT rt_ntstatus_to_hresult(NTSTATUS st)
{
    switch (st) {
    case STATUS_SUCCESS:
        return S_OK;
    case STATUS_GRAPHICS_ALLOCATION_BUSY:
        return D3DDDIERR_WASSTILLDRAWING;        /* pfnLockCb with DonotWait (§3.2) */
    case STATUS_DEVICE_REMOVED:
        return D3DDDIERR_DEVICEREMOVED;
    case STATUS_NO_MEMORY:
    case STATUS_GRAPHICS_NO_VIDEO_MEMORY:
        return E_OUTOFMEMORY;
    case STATUS_INVALID_PARAMETER:
    case STATUS_INVALID_HANDLE:
    case STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE:
    case STATUS_BUFFER_TOO_SMALL:
        return E_INVALIDARG;
    case STATUS_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION:
        return D3DDDIERR_CANTEVICTPINNEDALLOCATION;
    case STATUS_NOT_SUPPORTED:
    case STATUS_NOT_IMPLEMENTED:
        return E_NOTIMPL;
    default:
        return NT_SUCCESS(st) ? S_OK : E_FAIL;
    }
}

static struct rt_device *dev_from_handle(HANDLE h)
{
    return (struct rt_device *)h;
}

/* Every thunk's status goes through here: a removed device stays removed (the UMD must also
 * propagate D3DDDIERR_DEVICEREMOVED through pfnSetErrorCb; this catches a UMD that does not). */
static HRESULT thunk_result(struct rt_device *dev, NTSTATUS st, const char *cb)
{
    HRESULT hr = rt_ntstatus_to_hresult(st);
    if (hr == D3DDDIERR_DEVICEREMOVED)
        rt_device_set_removed(dev, DXGI_ERROR_DEVICE_REMOVED);
    else if (FAILED(hr) && hr != D3DDDIERR_WASSTILLDRAWING)
        RT_REFUSE("%s: kernel returned 0x%08x -> 0x%08x", cb, (UINT)st, (UINT)hr);
    return hr;
}

static inline D3DKMT_HANDLE km_handle(HANDLE h)
{
    return (D3DKMT_HANDLE)(uintptr_t)h;
}

/* ---- pfnQueryAdapterInfoCb ------------------------------------------------------------------ */
static HRESULT APIENTRY cb_QueryAdapterInfo(HANDLE hAdapter, D3DDDICB_QUERYADAPTERINFO *info)
{
    struct rt_device *dev = dev_from_handle(hAdapter);
    if (!dev || !info)
        return E_INVALIDARG;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = dev->km_adapter, .Type = KMTQAITYPE_UMDRIVERPRIVATE,
                                  .pPrivateDriverData = info->pPrivateDriverData,
                                  .PrivateDriverDataSize = info->PrivateDriverDataSize };
    return thunk_result(dev, D3DKMTQueryAdapterInfo(&q), "pfnQueryAdapterInfoCb");
}

/* ---- pfnAllocateCb / pfnDeallocateCb (docs/semantics.md §3.5) ---------------------------------- */

/* hResource of D3DDDICB_ALLOCATE/DEALLOCATE is the runtime resource handle the runtime gave in
 * pfnCreateResource (hRTResource): our rt_resource. Recognise it before trusting it. */
static struct rt_resource *rt_resource_from_handle(struct rt_device *dev, HANDLE h)
{
    struct rt_resource *res = (struct rt_resource *)h;
    if (!res || res->magic != RT_RESOURCE_MAGIC || res->device != dev)
        return NULL;
    return res;
}

static HRESULT APIENTRY cb_Allocate(HANDLE hDevice, D3DDDICB_ALLOCATE *a)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !a || (a->NumAllocations && !a->pAllocationInfo))
        return E_INVALIDARG;
    if (rt_device_is_removed(dev))
        return D3DDDIERR_DEVICEREMOVED;
    struct rt_resource *res = NULL;
    if (a->hResource) {
        res = rt_resource_from_handle(dev, a->hResource);
        if (!res) {
            RT_REFUSE("pfnAllocateCb: hResource is not a runtime resource handle of this device");
            return E_INVALIDARG;
        }
    }
    D3DKMT_CREATEALLOCATION ca = { 0 };
    ca.hDevice = dev->km_device;
    ca.pPrivateDriverData = a->pPrivateDriverData;
    ca.PrivateDriverDataSize = a->PrivateDriverDataSize;
    ca.NumAllocations = a->NumAllocations;
    ca.pAllocationInfo = a->pAllocationInfo;
    struct rt_shared_runtime_data shared = { 0 };
    if (res) {
        /* First allocation of the resource creates the kernel resource; later ones attach to it. */
        ca.hResource = res->km_resource;
        ca.Flags.CreateResource = res->km_resource ? 0 : 1;
        ca.hPrivateRuntimeResourceHandle = a->hResource;
        if ((res->misc_flags & RT_MISC_SHARED_ANY) && !res->km_resource) {
            /* Issue 6: a MISC_SHARED (or keyed-mutex) resource is created shared (a global
             * share handle) with the runtime's description, which OpenSharedResource rebuilds
             * it from, and the global handles of its keyed mutex and fence. */
            ca.Flags.CreateShared = 1;
            /* MISC_SHARED_NTHANDLE: no global handle; CreateSharedHandle makes NT ones (share.c). */
            ca.Flags.NtSecuritySharing = (res->misc_flags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) ? 1 : 0;
            shared = (struct rt_shared_runtime_data){ .magic = RT_SHARED_RUNTIME_MAGIC, .version = 1,
                                                      .dimension = res->dimension, .tex2d = res->desc.tex2d };
            rt_keyed_mutex_globals(res->km, &shared.keyed_mutex, &shared.keyed_mutex_sync);
            ca.pPrivateRuntimeData = &shared;
            ca.PrivateRuntimeDataSize = sizeof shared;
        }
    }
    HRESULT hr = thunk_result(dev, D3DKMTCreateAllocation(&ca), "pfnAllocateCb");
    if (SUCCEEDED(hr) && res) {
        if (ca.Flags.CreateShared)
            res->global_share = ca.hGlobalShare;
        res->km_resource = ca.hResource;
        a->hKMResource = ca.hResource;
    }
    return hr;
}

static HRESULT APIENTRY cb_Deallocate(HANDLE hDevice, const D3DDDICB_DEALLOCATE *d)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !d)
        return E_INVALIDARG;
    D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device };
    struct rt_resource *res = NULL;
    if (d->hResource) {
        /* hResource set: every allocation of the resource and the resource itself (§3.5). */
        res = rt_resource_from_handle(dev, d->hResource);
        if (!res) {
            RT_REFUSE("pfnDeallocateCb: hResource is not a runtime resource handle of this device");
            return E_INVALIDARG;
        }
        if (!res->km_resource)
            return S_OK; /* nothing was allocated through it */
        da.hResource = res->km_resource;
    } else {
        if (d->NumAllocations && !d->HandleList)
            return E_INVALIDARG;
        da.phAllocationList = d->HandleList;
        da.AllocationCount = d->NumAllocations;
    }
    HRESULT hr = thunk_result(dev, D3DKMTDestroyAllocation(&da), "pfnDeallocateCb");
    if (SUCCEEDED(hr) && res)
        res->km_resource = 0;
    /* Destruction after removal still frees memory; only removal itself is reported. */
    return hr == D3DDDIERR_DEVICEREMOVED ? S_OK : hr;
}

/* ---- pfnLockCb / pfnUnlockCb (docs/semantics.md §3.1, §3.2) ------------------------------------- */
static HRESULT APIENTRY cb_Lock(HANDLE hDevice, D3DDDICB_LOCK *l)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !l)
        return E_INVALIDARG;
    D3DKMT_LOCK kl = { 0 };
    kl.hDevice = dev->km_device;
    kl.hAllocation = l->hAllocation;
    kl.PrivateDriverData = l->PrivateDriverData;
    kl.NumPages = l->NumPages;
    kl.pPages = l->pPages;
    kl.Flags = l->Flags;
    kl.GpuVirtualAddress = l->GpuVirtualAddress;
    HRESULT hr = thunk_result(dev, D3DKMTLock(&kl), "pfnLockCb");
    if (SUCCEEDED(hr)) {
        l->pData = kl.pData;
        l->hAllocation = kl.hAllocation; /* Discard may hand out another instance (§3.3) */
    }
    return hr;
}

static HRESULT APIENTRY cb_Unlock(HANDLE hDevice, const D3DDDICB_UNLOCK *u)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !u || (u->NumAllocations && !u->phAllocations))
        return E_INVALIDARG;
    D3DKMT_UNLOCK ku = { .hDevice = dev->km_device, .NumAllocations = u->NumAllocations,
                         .phAllocations = u->phAllocations };
    return thunk_result(dev, D3DKMTUnlock(&ku), "pfnUnlockCb");
}

/* ---- pfnRenderCb ------------------------------------------------------------------------------ */
static HRESULT APIENTRY cb_Render(HANDLE hDevice, D3DDDICB_RENDER *r)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !r)
        return E_INVALIDARG;
    if (r->BroadcastContextCount > 64)
        return E_INVALIDARG;
    D3DKMT_RENDER kr = { 0 };
    kr.hContext = km_handle(r->hContext);
    kr.CommandOffset = r->CommandOffset;
    kr.CommandLength = r->CommandLength;
    kr.AllocationCount = r->NumAllocations;
    kr.PatchLocationCount = r->NumPatchLocations;
    kr.NewCommandBufferSize = r->NewCommandBufferSize;
    kr.NewAllocationListSize = r->NewAllocationListSize;
    kr.NewPatchLocationListSize = r->NewPatchLocationListSize;
    kr.Flags.ResizeCommandBuffer = r->Flags.ResizeCommandBuffer;
    kr.Flags.ResizeAllocationList = r->Flags.ResizeAllocationList;
    kr.Flags.ResizePatchLocationList = r->Flags.ResizePatchLocationList;
    kr.BroadcastContextCount = r->BroadcastContextCount;
    for (UINT i = 0; i < r->BroadcastContextCount; i++)
        kr.BroadcastContext[i] = km_handle(r->BroadcastContext[i]);
    wddm_tl_begin(WDDM_TL_CALL_RENDER);
    HRESULT hr = thunk_result(dev, D3DKMTRender(&kr), "pfnRenderCb");
    wddm_tl_end(WDDM_TL_CALL_RENDER, (UINT64)(UINT32)hr);
    if (SUCCEEDED(hr)) {
        r->pNewCommandBuffer = kr.pNewCommandBuffer;
        r->NewCommandBufferSize = kr.NewCommandBufferSize;
        r->pNewAllocationList = kr.pNewAllocationList;
        r->NewAllocationListSize = kr.NewAllocationListSize;
        r->pNewPatchLocationList = kr.pNewPatchLocationList;
        r->NewPatchLocationListSize = kr.NewPatchLocationListSize;
    }
    return hr;
}

/* ---- pfnCreateContextCb / pfnDestroyContextCb ------------------------------------------------ */
static HRESULT APIENTRY cb_CreateContext(HANDLE hDevice, D3DDDICB_CREATECONTEXT *c)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !c)
        return E_INVALIDARG;
    if (rt_device_is_removed(dev))
        return D3DDDIERR_DEVICEREMOVED;
    D3DKMT_CREATECONTEXT kc = { 0 };
    kc.hDevice = dev->km_device;
    kc.NodeOrdinal = c->NodeOrdinal;
    kc.EngineAffinity = c->EngineAffinity;
    kc.Flags.Value = c->Flags;
    kc.pPrivateDriverData = c->pPrivateDriverData;
    kc.PrivateDriverDataSize = c->PrivateDriverDataSize;
    kc.ClientHint = D3DKMT_CLIENTHINT_DX11;
    HRESULT hr = thunk_result(dev, D3DKMTCreateContext(&kc), "pfnCreateContextCb");
    if (SUCCEEDED(hr)) {
        c->hContext = (HANDLE)(uintptr_t)kc.hContext;
        c->pCommandBuffer = kc.pCommandBuffer;
        c->CommandBufferSize = kc.CommandBufferSize;
        c->pAllocationList = kc.pAllocationList;
        c->AllocationListSize = kc.AllocationListSize;
        c->pPatchLocationList = kc.pPatchLocationList;
        c->PatchLocationListSize = kc.PatchLocationListSize;
        c->CommandBuffer = kc.CommandBuffer;
        rt_device_context_created(dev, kc.hContext);
    }
    return hr;
}

static HRESULT APIENTRY cb_DestroyContext(HANDLE hDevice, const D3DDDICB_DESTROYCONTEXT *c)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !c)
        return E_INVALIDARG;
    D3DKMT_DESTROYCONTEXT kc = { .hContext = km_handle(c->hContext) };
    rt_device_context_destroyed(dev, kc.hContext);
    HRESULT hr = thunk_result(dev, D3DKMTDestroyContext(&kc), "pfnDestroyContextCb");
    return hr == D3DDDIERR_DEVICEREMOVED ? S_OK : hr;
}

/* ---- WDDM 2.x callbacks (docs/semantics.md §3.3, §8.5, §9.2): one thunk each --------------------- */
static HRESULT APIENTRY cb_CreateSynchronizationObject2(HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 *c)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !c)
        return E_INVALIDARG;
    if (rt_device_is_removed(dev))
        return D3DDDIERR_DEVICEREMOVED;
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 k = { .hDevice = dev->km_device, .Info = c->Info };
    HRESULT hr = thunk_result(dev, D3DKMTCreateSynchronizationObject2(&k), "pfnCreateSynchronizationObject2Cb");
    if (SUCCEEDED(hr)) {
        c->Info = k.Info; /* the monitored fence's CPU and GPU addresses are out parameters */
        c->hSyncObject = k.hSyncObject;
    }
    return hr;
}

static HRESULT APIENTRY cb_DestroySynchronizationObject(HANDLE hDevice, const D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT *d)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !d)
        return E_INVALIDARG;
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT k = { .hSyncObject = d->hSyncObject };
    HRESULT hr = thunk_result(dev, D3DKMTDestroySynchronizationObject(&k), "pfnDestroySynchronizationObjectCb");
    return hr == D3DDDIERR_DEVICEREMOVED ? S_OK : hr; /* destruction after removal still frees */
}

static HRESULT APIENTRY cb_MakeResident(HANDLE hDevice, D3DDDI_MAKERESIDENT *m)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !m)
        return E_INVALIDARG;
    NTSTATUS st = D3DKMTMakeResident(m);
    /* pfnMakeResidentCb's codes (docs/semantics.md §9.2): paging still in flight is E_PENDING, which
     * tells the UMD to wait for PagingFenceValue; an atomic failure is E_OUTOFMEMORY. */
    if (st == STATUS_PENDING)
        return E_PENDING;
    return thunk_result(dev, st, "pfnMakeResidentCb");
}

static HRESULT APIENTRY cb_Evict(HANDLE hDevice, D3DDDICB_EVICT *e)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !e)
        return E_INVALIDARG;
    D3DKMT_EVICT k = { .hDevice = dev->km_device, .NumAllocations = e->NumAllocations,
                       .AllocationList = e->AllocationList, .Flags = e->Flags };
    HRESULT hr = thunk_result(dev, D3DKMTEvict(&k), "pfnEvictCb");
    e->NumBytesToTrim = k.NumBytesToTrim;
    return hr;
}

/* pfnQueryResidencyCb: D3DKMTQueryAllocationResidency for the UMD, hResource being the
 * runtime's resource handle (as pfnDeallocateCb takes it). D3DDDI_RESIDENCYSTATUS has the
 * thunk's values. */
static HRESULT APIENTRY cb_QueryResidency(HANDLE hDevice, const D3DDDICB_QUERYRESIDENCY *q)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !q)
        return E_INVALIDARG;
    D3DKMT_QUERYALLOCATIONRESIDENCY k = { .hDevice = dev->km_device, .phAllocationList = q->HandleList,
                                          .AllocationCount = q->NumAllocations,
                                          .pResidencyStatus = (D3DKMT_ALLOCATIONRESIDENCYSTATUS *)q->pResidencyStatus };
    if (q->hResource) {
        struct rt_resource *res = rt_resource_from_handle(dev, q->hResource);
        if (!res || !res->km_resource) {
            RT_REFUSE("pfnQueryResidencyCb: hResource is not a runtime resource handle of this device with "
                      "kernel allocations");
            return E_INVALIDARG;
        }
        k.hResource = res->km_resource;
    }
    return thunk_result(dev, D3DKMTQueryAllocationResidency(&k), "pfnQueryResidencyCb");
}

static HRESULT APIENTRY cb_WaitForSynchronizationObjectFromCpu(HANDLE hDevice,
                                                              const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *w)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !w)
        return E_INVALIDARG;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU k = {
        .hDevice = dev->km_device, .ObjectCount = w->ObjectCount, .ObjectHandleArray = w->ObjectHandleArray,
        .FenceValueArray = w->FenceValueArray, .hAsyncEvent = w->hAsyncEvent, .Flags = w->Flags,
    };
    return thunk_result(dev, D3DKMTWaitForSynchronizationObjectFromCpu(&k), "pfnWaitForSynchronizationObjectFromCpuCb");
}

static HRESULT APIENTRY cb_SignalSynchronizationObjectFromCpu(HANDLE hDevice,
                                                             const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMCPU *s)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !s)
        return E_INVALIDARG;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU k = {
        .hDevice = dev->km_device, .ObjectCount = s->ObjectCount, .ObjectHandleArray = s->ObjectHandleArray,
        .FenceValueArray = s->FenceValueArray, .Flags = s->Flags,
    };
    return thunk_result(dev, D3DKMTSignalSynchronizationObjectFromCpu(&k), "pfnSignalSynchronizationObjectFromCpuCb");
}

static HRESULT APIENTRY cb_WaitForSynchronizationObjectFromGpu(HANDLE hDevice,
                                                              const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *w)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !w)
        return E_INVALIDARG;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU k = {
        .hContext = km_handle(w->hContext), .ObjectCount = w->ObjectCount, .ObjectHandleArray = w->ObjectHandleArray,
    };
    memcpy(k.Reserved, w->Reserved, sizeof k.Reserved); /* the union: value array pointer or FenceValue */
    return thunk_result(dev, D3DKMTWaitForSynchronizationObjectFromGpu(&k), "pfnWaitForSynchronizationObjectFromGpuCb");
}

static HRESULT APIENTRY cb_SignalSynchronizationObjectFromGpu(HANDLE hDevice,
                                                             const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *s)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !s)
        return E_INVALIDARG;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU k = {
        .hContext = km_handle(s->hContext), .ObjectCount = s->ObjectCount, .ObjectHandleArray = s->ObjectHandleArray,
    };
    memcpy(k.Reserved, s->Reserved, sizeof k.Reserved);
    return thunk_result(dev, D3DKMTSignalSynchronizationObjectFromGpu(&k), "pfnSignalSynchronizationObjectFromGpuCb");
}

static HRESULT APIENTRY cb_Lock2(HANDLE hDevice, D3DDDICB_LOCK2 *l)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !l)
        return E_INVALIDARG;
    D3DKMT_LOCK2 k = { .hDevice = dev->km_device, .hAllocation = l->hAllocation, .Flags = l->Flags };
    HRESULT hr = thunk_result(dev, D3DKMTLock2(&k), "pfnLock2Cb");
    l->pData = SUCCEEDED(hr) ? k.pData : NULL;
    return hr;
}

static HRESULT APIENTRY cb_Unlock2(HANDLE hDevice, const D3DDDICB_UNLOCK2 *u)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !u)
        return E_INVALIDARG;
    D3DKMT_UNLOCK2 k = { .hDevice = dev->km_device, .hAllocation = u->hAllocation };
    return thunk_result(dev, D3DKMTUnlock2(&k), "pfnUnlock2Cb");
}

/* ---- WDDM 2.0 GpuMmu callbacks (docs/semantics.md §9.2; issue 6): one thunk each ------------------ */
static HRESULT APIENTRY cb_CreatePagingQueue(HANDLE hDevice, D3DDDICB_CREATEPAGINGQUEUE *c)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !c)
        return E_INVALIDARG;
    if (rt_device_is_removed(dev))
        return D3DDDIERR_DEVICEREMOVED;
    D3DKMT_CREATEPAGINGQUEUE k = { .hDevice = dev->km_device, .Priority = c->Priority,
                                   .PhysicalAdapterIndex = c->PhysicalAdapterIndex };
    HRESULT hr = thunk_result(dev, D3DKMTCreatePagingQueue(&k), "pfnCreatePagingQueueCb");
    if (SUCCEEDED(hr)) {
        c->hPagingQueue = k.hPagingQueue;
        c->hSyncObject = k.hSyncObject;
        c->FenceValueCPUVirtualAddress = k.FenceValueCPUVirtualAddress;
    }
    return hr;
}

static HRESULT APIENTRY cb_DestroyPagingQueue(HANDLE hDevice, const D3DDDI_DESTROYPAGINGQUEUE *d)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !d)
        return E_INVALIDARG;
    D3DKMT_DESTROYPAGINGQUEUE k = { .hPagingQueue = d->hPagingQueue };
    HRESULT hr = thunk_result(dev, D3DKMTDestroyPagingQueue(&k), "pfnDestroyPagingQueueCb");
    return hr == D3DDDIERR_DEVICEREMOVED ? S_OK : hr; /* destruction after removal still frees */
}

static HRESULT APIENTRY cb_ReserveGpuVirtualAddress(HANDLE hDevice, D3DDDI_RESERVEGPUVIRTUALADDRESS *r)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !r)
        return E_INVALIDARG;
    /* The UMD names its paging queue; the thunk takes the adapter (one VA space per process). */
    D3DDDI_RESERVEGPUVIRTUALADDRESS k = *r;
    k.hAdapter = dev->km_adapter;
    HRESULT hr = thunk_result(dev, D3DKMTReserveGpuVirtualAddress(&k), "pfnReserveGpuVirtualAddressCb");
    r->VirtualAddress = SUCCEEDED(hr) ? k.VirtualAddress : 0;
    r->PagingFenceValue = SUCCEEDED(hr) ? k.PagingFenceValue : 0;
    return hr;
}

static HRESULT APIENTRY cb_MapGpuVirtualAddress(HANDLE hDevice, D3DDDI_MAPGPUVIRTUALADDRESS *m)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !m)
        return E_INVALIDARG;
    NTSTATUS st = D3DKMTMapGpuVirtualAddress(m);
    /* STATUS_PENDING: mapped; the page-table writes are queued and PagingFenceValue (a value
     * of the paging queue's fence) must be waited for before the GPU uses the address. */
    if (st == STATUS_PENDING)
        return E_PENDING;
    return thunk_result(dev, st, "pfnMapGpuVirtualAddressCb");
}

static HRESULT APIENTRY cb_FreeGpuVirtualAddress(HANDLE hDevice, const D3DDDICB_FREEGPUVIRTUALADDRESS *f)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !f)
        return E_INVALIDARG;
    D3DKMT_FREEGPUVIRTUALADDRESS k = { .hAdapter = dev->km_adapter, .BaseAddress = f->BaseAddress, .Size = f->Size };
    return thunk_result(dev, D3DKMTFreeGpuVirtualAddress(&k), "pfnFreeGpuVirtualAddressCb");
}

static HRESULT APIENTRY cb_SubmitCommand(HANDLE hDevice, const D3DDDICB_SUBMITCOMMAND *s)
{
    struct rt_device *dev = dev_from_handle(hDevice);
    if (!dev || !s)
        return E_INVALIDARG;
    if (s->BroadcastContextCount > D3DDDI_MAX_BROADCAST_CONTEXT) {
        RT_REFUSE("pfnSubmitCommandCb: BroadcastContextCount %u > %u", s->BroadcastContextCount,
                  D3DDDI_MAX_BROADCAST_CONTEXT);
        return E_INVALIDARG;
    }
    D3DKMT_SUBMITCOMMAND k = {
        .Commands = s->Commands, .CommandLength = s->CommandLength,
        .Flags = { .NullRendering = s->Flags.NullRendering, .PresentRedirected = s->Flags.PresentRedirected },
        .PresentHistoryToken = s->PresentHistoryToken, .BroadcastContextCount = s->BroadcastContextCount,
        .pPrivateDriverData = s->pPrivateDriverData, .PrivateDriverDataSize = s->PrivateDriverDataSize,
        .NumPrimaries = s->NumPrimaries, .NumHistoryBuffers = s->NumHistoryBuffers,
        .HistoryBufferArray = s->HistoryBufferArray,
    };
    for (UINT i = 0; i < s->BroadcastContextCount; i++)
        k.BroadcastContext[i] = km_handle(s->BroadcastContext[i]);
    memcpy(k.WrittenPrimaries, s->WrittenPrimaries, sizeof k.WrittenPrimaries);
    wddm_tl_begin(WDDM_TL_CALL_RENDER);
    HRESULT hr = thunk_result(dev, D3DKMTSubmitCommand(&k), "pfnSubmitCommandCb");
    wddm_tl_end(WDDM_TL_CALL_RENDER, (UINT64)(UINT32)hr);
    return hr;
}

/* ---- pfnSetErrorCb (docs/semantics.md §4.2-4.4) ---------------------------------------------- */
static VOID APIENTRY cb_SetError(D3D10DDI_HRTCORELAYER hCore, HRESULT hr)
{
    struct rt_device *dev = hCore.handle;
    if (!dev)
        return;
    /* Called by the UMD from inside a DDI call: the device lock is held by that call, so the
     * slot belongs to it. The first error wins (it names the cause). */
    if (dev->call_error == S_OK)
        dev->call_error = hr;
    if (hr == D3DDDIERR_DEVICEREMOVED)
        rt_device_set_removed(dev, DXGI_ERROR_DEVICE_REMOVED);
}

void rt_callbacks_init(struct rt_device *dev)
{
    dev->adapter_callbacks.pfnQueryAdapterInfoCb = cb_QueryAdapterInfo;
    dev->kt_callbacks.pfnAllocateCb = cb_Allocate;
    dev->kt_callbacks.pfnDeallocateCb = cb_Deallocate;
    dev->kt_callbacks.pfnRenderCb = cb_Render;
    dev->kt_callbacks.pfnLockCb = cb_Lock;
    dev->kt_callbacks.pfnUnlockCb = cb_Unlock;
    dev->kt_callbacks.pfnCreateContextCb = cb_CreateContext;
    dev->kt_callbacks.pfnDestroyContextCb = cb_DestroyContext;
    dev->kt_callbacks.pfnDestroySynchronizationObjectCb = cb_DestroySynchronizationObject;
    dev->kt_callbacks.pfnCreateSynchronizationObject2Cb = cb_CreateSynchronizationObject2;
    dev->kt_callbacks.pfnMakeResidentCb = cb_MakeResident;
    dev->kt_callbacks.pfnEvictCb = cb_Evict;
    dev->kt_callbacks.pfnQueryResidencyCb = cb_QueryResidency;
    dev->kt_callbacks.pfnWaitForSynchronizationObjectFromCpuCb = cb_WaitForSynchronizationObjectFromCpu;
    dev->kt_callbacks.pfnSignalSynchronizationObjectFromCpuCb = cb_SignalSynchronizationObjectFromCpu;
    dev->kt_callbacks.pfnWaitForSynchronizationObjectFromGpuCb = cb_WaitForSynchronizationObjectFromGpu;
    dev->kt_callbacks.pfnSignalSynchronizationObjectFromGpuCb = cb_SignalSynchronizationObjectFromGpu;
    dev->kt_callbacks.pfnLock2Cb = cb_Lock2;
    dev->kt_callbacks.pfnUnlock2Cb = cb_Unlock2;
    dev->kt_callbacks.pfnCreatePagingQueueCb = cb_CreatePagingQueue;
    dev->kt_callbacks.pfnDestroyPagingQueueCb = cb_DestroyPagingQueue;
    dev->kt_callbacks.pfnReserveGpuVirtualAddressCb = cb_ReserveGpuVirtualAddress;
    dev->kt_callbacks.pfnMapGpuVirtualAddressCb = cb_MapGpuVirtualAddress;
    dev->kt_callbacks.pfnFreeGpuVirtualAddressCb = cb_FreeGpuVirtualAddress;
    dev->kt_callbacks.pfnSubmitCommandCb = cb_SubmitCommand;
    dev->core_callbacks.pfnSetErrorCb = cb_SetError;
    dev->core_callbacks10.pfnSetErrorCb = cb_SetError; /* a D3D10 device's (pUMCallbacks) */
    rt_callbacks_not_modeled_init(&dev->kt_callbacks, &dev->adapter_callbacks, &dev->core_callbacks10,
                                  &dev->core_callbacks, &dev->dxgi_callbacks);
}
