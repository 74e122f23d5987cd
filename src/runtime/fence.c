/*
 * fence.c - ID3D11Fence (Direct3D 11.3), ID3D11Device5::CreateFence / OpenSharedFence and
 * ID3D11DeviceContext4::Signal / Wait (issue 20 §3: the D3D programmer's door to the kernel's
 * monitored fences).
 *
 * A fence is a kernel monitored fence of the device (D3DKMTCreateSynchronizationObject2,
 * D3DDDI_MONITORED_FENCE); GetCompletedValue reads the value the kernel maps for the CPU, and
 * SetEventOnCompletion is the kernel's CPU wait with an event (D3DKMTWaitForSynchronization-
 * ObjectFromCpu, hAsyncEvent), or without one a blocking wait, as ID3D12Fence's, which the page
 * names as its equivalent. The D3D11 DDI has no fence entry point, so Signal and Wait are the
 * runtime's, as keyed mutexes are (gpu_sync.c): the immediate context's recorded commands are
 * flushed to the UMD, then the kernel queues the signal after the work of every kernel context
 * the UMD made, or makes each of them wait (docs/api.md "Fences").
 *
 * Sharing: a fence created D3D11_FENCE_FLAG_SHARED (or SHARED_CROSS_ADAPTER, which another
 * adapter's device may open) becomes an NT handle through CreateSharedHandle
 * (D3DKMTShareObjects); OpenSharedFence opens one (D3DKMTOpenSyncObjectFromNtHandle2), on this
 * device's adapter or, for a cross-adapter fence, another. A lost device's fences read
 * UINT64_MAX: the kernel signals them to it after a timeout recovery, and a device the runtime
 * removed answers it too.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

#include <stdint.h>
#include <stdlib.h>

#define RT_FENCE_MAGIC 0x46454e43u /* "FENC" */

struct rt_fence {
    ID3D11Fence iface;              /* first: the COM pointer handed out */
    UINT magic;
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    D3DKMT_HANDLE sync;             /* the kernel monitored fence (this device's handle) */
    const UINT64 *cpu_value;        /* FenceValueCPUVirtualAddress: read-only, the kernel writes it */
    UINT flags;                     /* D3D11_FENCE_FLAG as created (SHARED for an opened fence) */
};

static const struct ID3D11FenceVtbl fence_vtbl;

static struct rt_fence *fence_from_iface(ID3D11Fence *iface)
{
    return (struct rt_fence *)iface;
}

/* A fence the application passed in, or NULL if it is not one of ours. */
static struct rt_fence *fence_checked(ID3D11Fence *iface)
{
    if (!iface || (const void *)iface->lpVtbl != (const void *)&fence_vtbl)
        return NULL;
    struct rt_fence *f = fence_from_iface(iface);
    return f->magic == RT_FENCE_MAGIC ? f : NULL;
}

static HRESULT STDMETHODCALLTYPE fence_QueryInterface(ID3D11Fence *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11Fence)) {
        ID3D11Fence_AddRef(iface);
        *ppv = iface;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE fence_AddRef(ID3D11Fence *iface)
{
    return atomic_fetch_add(&fence_from_iface(iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE fence_Release(ID3D11Fence *iface)
{
    struct rt_fence *f = fence_from_iface(iface);
    ULONG left = atomic_fetch_sub(&f->refs, 1) - 1;
    if (left)
        return left;
    /* Signals and waits already queued keep the kernel object until they ran. */
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = f->sync };
    (void)D3DKMTDestroySynchronizationObject(&ds);
    struct rt_device *dev = f->device;
    rt_private_clear(&f->private_data);
    f->magic = 0;
    free(f);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE fence_GetDevice(ID3D11Fence *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_fence *f = fence_from_iface(iface);
    rt_device_addref(f->device);
    *out = &f->device->iface;
}

RT_PRIVATE_DATA_METHODS(fence, ID3D11Fence, &fence_from_iface(This)->device->private_lock,
                        &fence_from_iface(This)->private_data)

/* ID3D11Fence::GetCompletedValue: the value the GPU (or a CPU signal) reached; UINT64_MAX once the
 * device is lost. */
static UINT64 STDMETHODCALLTYPE fence_GetCompletedValue(ID3D11Fence *iface)
{
    struct rt_fence *f = fence_from_iface(iface);
    if (rt_device_is_removed(f->device))
        return UINT64_MAX;
    return __atomic_load_n(f->cpu_value, __ATOMIC_ACQUIRE);
}

/* ID3D11Fence::SetEventOnCompletion: the event is set when the fence reaches Value (at once if it
 * has); without an event the call returns when it has. */
static HRESULT STDMETHODCALLTYPE fence_SetEventOnCompletion(ID3D11Fence *iface, UINT64 value, HANDLE event)
{
    struct rt_fence *f = fence_from_iface(iface);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = f->device->km_device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &f->sync, .FenceValueArray = &value,
                                                     .hAsyncEvent = event };
    NTSTATUS st = D3DKMTWaitForSynchronizationObjectFromCpu(&w);
    if (NT_SUCCESS(st))
        return S_OK;
    if (st == STATUS_NO_MEMORY)
        return E_OUTOFMEMORY;
    if (st == STATUS_DEVICE_REMOVED)
        return DXGI_ERROR_DEVICE_REMOVED;
    RT_REFUSE("ID3D11Fence::SetEventOnCompletion(%llu): hEvent %p is not an event (0x%08x)", (unsigned long long)value,
              event, (UINT)st);
    return E_INVALIDARG;
}

/* ID3D11Fence::CreateSharedHandle: an NT handle to a fence created SHARED or SHARED_CROSS_ADAPTER
 * (the page's remarks); the only access is GENERIC_ALL; DXGI_ERROR_INVALID_CALL for a parameter
 * that is not valid, DXGI_ERROR_NAME_ALREADY_EXISTS for a name in use. */
static HRESULT STDMETHODCALLTYPE fence_CreateSharedHandle(ID3D11Fence *iface, const SECURITY_ATTRIBUTES *attributes,
                                                         DWORD access, LPCWSTR name, HANDLE *handle)
{
    static const char fn[] = "ID3D11Fence::CreateSharedHandle";
    struct rt_fence *f = fence_from_iface(iface);
    if (!handle) {
        RT_REFUSE("%s: pHandle is NULL", fn);
        return DXGI_ERROR_INVALID_CALL;
    }
    *handle = NULL;
    if (!(f->flags & (D3D11_FENCE_FLAG_SHARED | D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER))) {
        RT_REFUSE("%s: the fence was created without D3D11_FENCE_FLAG_SHARED or D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER",
                  fn);
        return DXGI_ERROR_INVALID_CALL;
    }
    if (access != GENERIC_ALL) {
        RT_REFUSE("%s: dwAccess 0x%x: GENERIC_ALL is the only access a fence's handle takes", fn, (UINT)access);
        return DXGI_ERROR_INVALID_CALL;
    }
    return rt_share_objects(fn, FALSE, &f->sync, 1, attributes, access, name, handle);
}

static const struct ID3D11FenceVtbl fence_vtbl = {
    RT_API_STUBS_ID3D11Fence, /* every slot answers "not implemented" until named below */
    .QueryInterface = fence_QueryInterface,
    .AddRef = fence_AddRef,
    .Release = fence_Release,
    .GetDevice = fence_GetDevice,
    RT_PRIVATE_DATA_SLOTS(fence),
    .CreateSharedHandle = fence_CreateSharedHandle,
    .GetCompletedValue = fence_GetCompletedValue,
    .SetEventOnCompletion = fence_SetEventOnCompletion,
};

/* A new fence object over a kernel fence this device holds; the device reference is the fence's. */
static HRESULT fence_wrap(struct rt_device *dev, D3DKMT_HANDLE sync, const void *cpu_value, UINT flags, REFIID riid,
                          void **out)
{
    struct rt_fence *f = calloc(1, sizeof *f);
    if (!f) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = sync };
        (void)D3DKMTDestroySynchronizationObject(&ds);
        return E_OUTOFMEMORY;
    }
    f->iface.lpVtbl = &fence_vtbl;
    f->magic = RT_FENCE_MAGIC;
    atomic_init(&f->refs, 1);
    f->device = dev;
    rt_device_addref(dev);
    f->sync = sync;
    f->cpu_value = cpu_value;
    f->flags = flags;
    HRESULT hr = fence_QueryInterface(&f->iface, riid, out);
    fence_Release(&f->iface); /* the interface asked holds it, or it goes */
    return hr;
}

/* 0x1 is D3D11_FENCE_FLAG_NONE in the first Windows 10 SDK (and mingw-w64's d3d11_3.h): programs
 * built with it pass it for "no option", so it means nothing here either. */
#define FENCE_FLAG_NONE_OLD_SDK 0x1u
#define FENCE_FLAGS_KNOWN                                                                              \
    (FENCE_FLAG_NONE_OLD_SDK | D3D11_FENCE_FLAG_SHARED | D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER |       \
     D3D11_FENCE_FLAG_NON_MONITORED)

/* ID3D11Device5::CreateFence. NON_MONITORED (a fence only the GPU signals and waits on, for
 * adapters that cannot monitor one) is refused: every fence of this stack is monitored. */
HRESULT STDMETHODCALLTYPE rt_device_CreateFence(ID3D11Device5 *iface, UINT64 initial, D3D11_FENCE_FLAG flags,
                                                REFIID riid, void **out)
{
    static const char fn[] = "ID3D11Device5::CreateFence";
    if (!out) {
        RT_REFUSE("%s: ppFence is NULL", fn);
        return E_INVALIDARG;
    }
    *out = NULL;
    if ((UINT)flags & ~(UINT)FENCE_FLAGS_KNOWN) {
        RT_REFUSE("%s: Flags 0x%x has bits D3D11_FENCE_FLAG does not define", fn, (UINT)flags);
        return E_INVALIDARG;
    }
    if (flags & D3D11_FENCE_FLAG_NON_MONITORED) {
        RT_REFUSE("%s: D3D11_FENCE_FLAG_NON_MONITORED: every fence of this stack is monitored", fn);
        return E_INVALIDARG;
    }
    struct rt_device *dev = rt_device_from_iface((ID3D11Device *)iface);
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = dev->km_device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.MonitoredFence.InitialFenceValue = initial;
    if (flags & (D3D11_FENCE_FLAG_SHARED | D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER)) {
        cs.Info.Flags.Shared = 1;
        cs.Info.Flags.NtSecuritySharing = 1; /* shared through NT handles only */
        cs.Info.Flags.CrossAdapter = (flags & D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER) != 0;
    }
    NTSTATUS st = D3DKMTCreateSynchronizationObject2(&cs);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: the kernel refused the monitored fence (0x%08x)", fn, (UINT)st);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    return fence_wrap(dev, cs.hSyncObject, cs.Info.MonitoredFence.FenceValueCPUVirtualAddress, (UINT)flags, riid, out);
}

/* ID3D11Device5::OpenSharedFence: a fence's NT handle (ID3D11Fence::CreateSharedHandle) opened on
 * this device; any other handle, a resource's included, is E_INVALIDARG. */
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedFence(ID3D11Device5 *iface, HANDLE handle, REFIID riid, void **out)
{
    static const char fn[] = "ID3D11Device5::OpenSharedFence";
    if (!out) {
        RT_REFUSE("%s: ppFence is NULL", fn);
        return E_INVALIDARG;
    }
    *out = NULL;
    struct rt_device *dev = rt_device_from_iface((ID3D11Device *)iface);
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 o = { .hNtHandle = handle, .hDevice = dev->km_device };
    NTSTATUS st = D3DKMTOpenSyncObjectFromNtHandle2(&o);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: %p is not the NT handle of a fence this device may open (0x%08x)", fn, handle, (UINT)st);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    if (!o.MonitoredFence.FenceValueCPUVirtualAddress) { /* a keyed mutex's or a legacy sync object */
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = o.hSyncObject };
        (void)D3DKMTDestroySynchronizationObject(&ds);
        RT_REFUSE("%s: %p names a synchronization object that is not a fence", fn, handle);
        return E_INVALIDARG;
    }
    return fence_wrap(dev, o.hSyncObject, o.MonitoredFence.FenceValueCPUVirtualAddress, D3D11_FENCE_FLAG_SHARED, riid,
                      out);
}

/* The fence a Signal or Wait may use: one of this device's, on the immediate context of a device not
 * removed; else the call's answer, after a line. */
static HRESULT context_fence(struct rt_context *ctx, ID3D11Fence *iface, const char *fn, struct rt_fence **out)
{
    struct rt_fence *f = fence_checked(iface);
    *out = NULL;
    if (!f)
        RT_REFUSE("%s: pFence is not a fence", fn);
    else if (f->device != ctx->device)
        RT_REFUSE("%s: the fence belongs to another device (open its shared handle on this one)", fn);
    else if (ctx->dc)
        RT_REFUSE("%s: a deferred context cannot signal or wait for a fence (the immediate context only)", fn);
    else if (rt_device_is_removed(ctx->device))
        return DXGI_ERROR_DEVICE_REMOVED;
    else
        return (*out = f, S_OK);
    return ctx->dc ? DXGI_ERROR_INVALID_CALL : E_INVALIDARG;
}

/* ID3D11DeviceContext4::Signal: the fence takes Value once the work submitted before it is done. */
HRESULT STDMETHODCALLTYPE rt_context_Signal(ID3D11DeviceContext4 *iface, ID3D11Fence *fence, UINT64 value)
{
    struct rt_context *ctx = rt_context_from_iface((ID3D11DeviceContext *)iface);
    struct rt_fence *f;
    HRESULT hr = context_fence(ctx, fence, "ID3D11DeviceContext4::Signal", &f);
    if (FAILED(hr))
        return hr;
    NTSTATUS st = rt_gpu_signal_monitored(ctx->device, f->sync, value);
    return NT_SUCCESS(st) ? S_OK : st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : DXGI_ERROR_DEVICE_REMOVED;
}

/* ID3D11DeviceContext4::Wait: work submitted after it starts once the fence reached Value. */
HRESULT STDMETHODCALLTYPE rt_context_Wait(ID3D11DeviceContext4 *iface, ID3D11Fence *fence, UINT64 value)
{
    struct rt_context *ctx = rt_context_from_iface((ID3D11DeviceContext *)iface);
    struct rt_fence *f;
    HRESULT hr = context_fence(ctx, fence, "ID3D11DeviceContext4::Wait", &f);
    if (FAILED(hr))
        return hr;
    rt_gpu_flush(ctx->device); /* the commands recorded before the Wait do not wait */
    rt_gpu_wait_monitored(ctx->device, f->sync, value);
    return S_OK;
}
