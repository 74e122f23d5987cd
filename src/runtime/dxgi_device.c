/*
 * dxgi_device.c - the D3D11 device's DXGI face (IDXGIDevice .. IDXGIDevice3; issue 15 §3):
 * the same object as the ID3D11Device (QueryInterface goes both ways, one reference count, one
 * private-data store), through which a program reaches its adapter.
 *
 * Windows' answers (DXGI reference; Wine's dxgi tests, run on Windows):
 * - GetAdapter hands out the same adapter object every time, and GetParent(IID_IDXGIAdapter) is
 *   that object too; NULL → E_INVALIDARG.
 * - SetGPUThreadPriority: -7..7, else E_INVALIDARG; GetGPUThreadPriority answers it (NULL →
 *   E_POINTER).
 * - SetMaximumFrameLatency: 0 restores the default 3; above 16 → DXGI_ERROR_INVALID_CALL;
 *   GetMaximumFrameLatency(NULL) → DXGI_ERROR_INVALID_CALL.
 * - Trim drops what the runtime keeps for reuse (the resource blocks it recycles, docs/api.md).
 * - OfferResources / ReclaimResources: VidMm's offers of the resources' kernel resources
 *   (D3DKMTOfferAllocations / D3DKMTReclaimAllocations, vidmm/offer.c); E_INVALIDARG for no
 *   resources, a priority that is not a DXGI_OFFER_RESOURCE_PRIORITY, a resource of another
 *   device or a mapped one. A resource without a kernel resource of its own (a small buffer the
 *   UMD suballocates) is offered at the API only: its content is kept, which an offer allows.
 *   An offered resource cannot be mapped until it is reclaimed (map.c).
 * EnqueueSetEvent flushes and sets the event once the GPU finished everything submitted before
 *   (the kernel's EnqueueCpuEvent signal after each context's work, gpu_sync.c).
 * QueryResourceResidency answers E_NOTIMPL.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"
#include "common/event.h"

#include <stdlib.h>

#define MAX_FRAME_LATENCY 16u     /* DXGI_MAX_SWAP_CHAIN_BUFFERS */
#define DEFAULT_FRAME_LATENCY 3u

static struct rt_device *device_from(IDXGIDevice3 *iface)
{
    return (struct rt_device *)((char *)iface - offsetof(struct rt_device, dxgi));
}

BOOL rt_dxgi_device_iid(REFIID riid)
{
    return rt_iid_equal(riid, &IID_IDXGIObject) || rt_iid_equal(riid, &IID_IDXGIDevice) ||
           rt_iid_equal(riid, &IID_IDXGIDevice1) || rt_iid_equal(riid, &IID_IDXGIDevice2) ||
           rt_iid_equal(riid, &IID_IDXGIDevice3);
}

static HRESULT STDMETHODCALLTYPE dxdev_QueryInterface(IDXGIDevice3 *This, REFIID riid, void **out)
{
    ID3D11Device *d = &device_from(This)->iface;
    return d->lpVtbl->QueryInterface(d, riid, out);
}

static ULONG STDMETHODCALLTYPE dxdev_AddRef(IDXGIDevice3 *This)
{
    ID3D11Device *d = &device_from(This)->iface;
    return d->lpVtbl->AddRef(d);
}

static ULONG STDMETHODCALLTYPE dxdev_Release(IDXGIDevice3 *This)
{
    ID3D11Device *d = &device_from(This)->iface;
    return d->lpVtbl->Release(d);
}

RT_PRIVATE_DATA_METHODS(dxdev, IDXGIDevice3, &device_from(This)->private_lock, &device_from(This)->private_data)

/* The device's adapter object, made at the first call when the device was created without one. */
static HRESULT device_adapter(struct rt_device *dev, struct rt_adapter **out)
{
    pthread_mutex_lock(&dev->private_lock);
    HRESULT hr = S_OK;
    if (!dev->adapter) {
        struct rt_factory *f = NULL;
        hr = rt_factory_create(0, &f);
        if (SUCCEEDED(hr)) {
            hr = rt_adapter_create(f, dev->adapter_luid, &dev->adapter);
            rt_factory_release(f); /* the adapter holds its factory */
        }
    }
    if (SUCCEEDED(hr)) {
        atomic_fetch_add(&dev->adapter->refs, 1);
        *out = dev->adapter;
    }
    pthread_mutex_unlock(&dev->private_lock);
    return hr;
}

static HRESULT STDMETHODCALLTYPE dxdev_GetAdapter(IDXGIDevice3 *This, IDXGIAdapter **out)
{
    if (!out) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice::GetAdapter: pAdapter is NULL");
        return E_INVALIDARG;
    }
    *out = NULL;
    struct rt_adapter *a = NULL;
    HRESULT hr = device_adapter(device_from(This), &a);
    if (SUCCEEDED(hr))
        *out = (IDXGIAdapter *)&a->iface;
    return hr;
}

static HRESULT STDMETHODCALLTYPE dxdev_GetParent(IDXGIDevice3 *This, REFIID riid, void **parent)
{
    if (!parent)
        return E_INVALIDARG;
    *parent = NULL;
    struct rt_adapter *a = NULL;
    HRESULT hr = device_adapter(device_from(This), &a);
    if (FAILED(hr))
        return hr;
    hr = a->iface.lpVtbl->QueryInterface(&a->iface, riid, parent);
    a->iface.lpVtbl->Release(&a->iface);
    return hr;
}

static void set_context_priority(D3DKMT_HANDLE context, INT priority)
{
    D3DKMT_SETCONTEXTSCHEDULINGPRIORITY p = { .hContext = context, .Priority = priority };
    (void)D3DKMTSetContextSchedulingPriority(&p);
}

void rt_device_context_created(struct rt_device *dev, D3DKMT_HANDLE context)
{
    pthread_mutex_lock(&dev->private_lock);
    if (dev->km_context_count < RT_MAX_KM_CONTEXTS) {
        dev->km_contexts[dev->km_context_count++] = context;
        if (dev->gpu_thread_priority)
            set_context_priority(context, dev->gpu_thread_priority);
    } else {
        RT_REFUSE("kernel context 0x%08x: more than %u on one device, SetGPUThreadPriority will not reach it",
                  context, RT_MAX_KM_CONTEXTS);
    }
    pthread_mutex_unlock(&dev->private_lock);
}

void rt_device_context_destroyed(struct rt_device *dev, D3DKMT_HANDLE context)
{
    pthread_mutex_lock(&dev->private_lock);
    for (UINT i = 0; i < dev->km_context_count; i++) {
        if (dev->km_contexts[i] == context) {
            dev->km_contexts[i] = dev->km_contexts[--dev->km_context_count];
            break;
        }
    }
    pthread_mutex_unlock(&dev->private_lock);
}

/* The priority is the kernel's scheduling priority of every context of the device (the same
 * -7..7 range, D3DKMTSetContextSchedulingPriority), now and for contexts made later. */
static HRESULT STDMETHODCALLTYPE dxdev_SetGPUThreadPriority(IDXGIDevice3 *This, INT priority)
{
    if (priority < -7 || priority > 7) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice::SetGPUThreadPriority: %d is outside -7..7", priority);
        return E_INVALIDARG;
    }
    struct rt_device *dev = device_from(This);
    pthread_mutex_lock(&dev->private_lock);
    dev->gpu_thread_priority = priority;
    for (UINT i = 0; i < dev->km_context_count; i++)
        set_context_priority(dev->km_contexts[i], priority);
    pthread_mutex_unlock(&dev->private_lock);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxdev_GetGPUThreadPriority(IDXGIDevice3 *This, INT *priority)
{
    if (!priority)
        return E_POINTER;
    struct rt_device *dev = device_from(This);
    pthread_mutex_lock(&dev->private_lock);
    *priority = dev->gpu_thread_priority;
    pthread_mutex_unlock(&dev->private_lock);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxdev_SetMaximumFrameLatency(IDXGIDevice3 *This, UINT latency)
{
    if (latency > MAX_FRAME_LATENCY) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice1::SetMaximumFrameLatency: %u exceeds %u", latency, MAX_FRAME_LATENCY);
        return DXGI_ERROR_INVALID_CALL;
    }
    device_from(This)->max_frame_latency = latency ? latency : DEFAULT_FRAME_LATENCY;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxdev_GetMaximumFrameLatency(IDXGIDevice3 *This, UINT *latency)
{
    if (!latency) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice1::GetMaximumFrameLatency: pMaxLatency is NULL");
        return DXGI_ERROR_INVALID_CALL;
    }
    *latency = device_from(This)->max_frame_latency;
    return S_OK;
}

/* CreateSurface: NumSurfaces one-mip 2D textures of the description, as the D3D11 device makes
 * them (CreateTexture2D's rules apply), each handed out as its IDXGISurface. DXGI_USAGE's bind
 * bits become bind flags (SHADER_INPUT, RENDER_TARGET_OUTPUT, UNORDERED_ACCESS) and its CPU
 * access the usage (DYNAMIC: dynamic, writable; READ_WRITE or SCRATCH: staging, read-write).
 * All or none: a failure releases the surfaces made so far. Opening a shared resource
 * (pSharedResource) is not implemented. */
static HRESULT surface_texture_desc(const DXGI_SURFACE_DESC *desc, DXGI_USAGE usage, D3D11_TEXTURE2D_DESC *t)
{
    memset(t, 0, sizeof *t);
    t->Width = desc->Width;
    t->Height = desc->Height;
    t->MipLevels = 1;
    t->ArraySize = 1;
    t->Format = desc->Format;
    t->SampleDesc = desc->SampleDesc;
    t->BindFlags = (usage & DXGI_USAGE_SHADER_INPUT ? D3D11_BIND_SHADER_RESOURCE : 0) |
                   (usage & DXGI_USAGE_RENDER_TARGET_OUTPUT ? D3D11_BIND_RENDER_TARGET : 0) |
                   (usage & DXGI_USAGE_UNORDERED_ACCESS ? D3D11_BIND_UNORDERED_ACCESS : 0);
    switch (usage & DXGI_CPU_ACCESS_FIELD) {
    case DXGI_CPU_ACCESS_NONE: t->Usage = D3D11_USAGE_DEFAULT; break;
    case DXGI_CPU_ACCESS_DYNAMIC:
        t->Usage = D3D11_USAGE_DYNAMIC;
        t->CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
        break;
    case DXGI_CPU_ACCESS_READ_WRITE:
    case DXGI_CPU_ACCESS_SCRATCH:
        t->Usage = D3D11_USAGE_STAGING;
        t->CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
        break;
    default:
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice::CreateSurface: CPU access %u is not a DXGI_CPU_ACCESS value", usage & 15u);
        return E_INVALIDARG;
    }
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxdev_CreateSurface(IDXGIDevice3 *This, const DXGI_SURFACE_DESC *desc, UINT count,
                                                     DXGI_USAGE usage, const DXGI_SHARED_RESOURCE *shared,
                                                     IDXGISurface **out)
{
    if (!desc || !out || !count) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice::CreateSurface: %s", !desc ? "pDesc is NULL" : !out ? "ppSurface is NULL"
                                                                                   : "NumSurfaces is 0");
        return E_INVALIDARG;
    }
    if (shared) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice::CreateSurface: opening a shared resource is not implemented "
                  "(ID3D11Device::OpenSharedResource opens one)");
        return E_NOTIMPL;
    }
    D3D11_TEXTURE2D_DESC td;
    HRESULT hr = surface_texture_desc(desc, usage, &td);
    ID3D11Device *d = &device_from(This)->iface;
    for (UINT i = 0; SUCCEEDED(hr) && i < count; i++) {
        ID3D11Texture2D *tex = NULL;
        out[i] = NULL;
        hr = d->lpVtbl->CreateTexture2D(d, &td, NULL, &tex);
        if (SUCCEEDED(hr)) {
            hr = tex->lpVtbl->QueryInterface(tex, &IID_IDXGISurface, (void **)&out[i]);
            tex->lpVtbl->Release(tex);
        }
        if (FAILED(hr))
            while (i--) {
                out[i]->lpVtbl->Release(out[i]);
                out[i] = NULL;
            }
    }
    return hr;
}

/* "Flushes any outstanding rendering commands and sets the specified event object when all
 * previously submitted rendering commands complete" (DXGI reference). */
static HRESULT STDMETHODCALLTYPE dxdev_EnqueueSetEvent(IDXGIDevice3 *This, HANDLE event)
{
    struct wddm_event *e = wddm_event_get(event);
    if (!e) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::EnqueueSetEvent: %p is not an event handle", event);
        return E_INVALIDARG;
    }
    wddm_event_put(e);
    struct rt_device *dev = device_from(This);
    if (rt_device_is_removed(dev)) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::EnqueueSetEvent on a removed device");
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    (void)rt_gpu_signal_after_work(dev, 0, 0, event);
    return S_OK;
}

static void STDMETHODCALLTYPE dxdev_Trim(IDXGIDevice3 *This)
{
    rt_resource_cache_trim(device_from(This));
}

/* The resources of this device behind an application's array, or NULL (refused) if any is not. */
static HRESULT offer_targets(struct rt_device *dev, const char *what, UINT n, IDXGIResource *const *in,
                             struct rt_resource ***out)
{
    if (!n || !in) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::%s: no resources", what);
        return E_INVALIDARG;
    }
    struct rt_resource **res = wddm_calloc(n, sizeof *res);
    if (!res)
        return E_OUTOFMEMORY;
    for (UINT i = 0; i < n; i++) {
        res[i] = rt_resource_from_dxgi(in[i]);
        if (!res[i] || res[i]->device != dev) {
            RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::%s: entry %u is not a resource of this device", what, i);
            free(res);
            return E_INVALIDARG;
        }
    }
    *out = res;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxdev_OfferResources(IDXGIDevice3 *This, UINT n, IDXGIResource *const *resources,
                                                      DXGI_OFFER_RESOURCE_PRIORITY priority)
{
    struct rt_device *dev = device_from(This);
    if (priority < DXGI_OFFER_RESOURCE_PRIORITY_LOW || priority > DXGI_OFFER_RESOURCE_PRIORITY_HIGH) {
        RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::OfferResources: Priority %u is not a DXGI_OFFER_RESOURCE_PRIORITY", (UINT)priority);
        return E_INVALIDARG;
    }
    struct rt_resource **res = NULL;
    HRESULT hr = offer_targets(dev, "OfferResources", n, resources, &res);
    if (FAILED(hr))
        return hr;
    pthread_mutex_lock(&dev->lock); /* the map state (map.c) */
    for (UINT i = 0; i < n && SUCCEEDED(hr); i++) {
        if (res[i]->mapped_count) {
            RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::OfferResources: entry %u is mapped; Unmap it first", i);
            hr = E_INVALIDARG;
        }
    }
    /* DXGI_OFFER_RESOURCE_PRIORITY_* are D3DKMT_OFFER_PRIORITY_LOW .. HIGH. */
    for (UINT i = 0; i < n && SUCCEEDED(hr); i++) {
        if (res[i]->km_resource) {
            D3DKMT_OFFERALLOCATIONS o = { .hDevice = dev->km_device, .pResources = &res[i]->km_resource,
                                          .NumAllocations = 1, .Priority = (D3DKMT_OFFER_PRIORITY)priority };
            NTSTATUS st = D3DKMTOfferAllocations(&o);
            if (!NT_SUCCESS(st)) {
                RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::OfferResources: D3DKMTOfferAllocations failed (0x%08x)", (UINT)st);
                hr = E_INVALIDARG;
                break;
            }
        }
        res[i]->offered = TRUE;
    }
    pthread_mutex_unlock(&dev->lock);
    free(res);
    return hr;
}

static HRESULT STDMETHODCALLTYPE dxdev_ReclaimResources(IDXGIDevice3 *This, UINT n, IDXGIResource *const *resources,
                                                        BOOL *discarded)
{
    struct rt_device *dev = device_from(This);
    struct rt_resource **res = NULL;
    HRESULT hr = offer_targets(dev, "ReclaimResources", n, resources, &res);
    if (FAILED(hr))
        return hr;
    pthread_mutex_lock(&dev->lock);
    for (UINT i = 0; i < n; i++) {
        BOOL lost = FALSE;
        if (res[i]->km_resource) {
            D3DKMT_RECLAIMALLOCATIONS r = { .hDevice = dev->km_device, .pResources = &res[i]->km_resource,
                                            .pDiscarded = &lost, .NumAllocations = 1 };
            NTSTATUS st = D3DKMTReclaimAllocations(&r);
            if (!NT_SUCCESS(st)) {
                RT_REFUSE_DXGI(DEVICE, "IDXGIDevice2::ReclaimResources: D3DKMTReclaimAllocations failed (0x%08x)", (UINT)st);
                hr = E_INVALIDARG;
            }
        }
        res[i]->offered = FALSE;
        if (discarded)
            discarded[i] = lost;
    }
    pthread_mutex_unlock(&dev->lock);
    free(res);
    return hr;
}

const struct IDXGIDevice3Vtbl rt_dxgi_device_vtbl = {
    RT_API_STUBS_IDXGIDevice3, /* every slot answers "not implemented" until named below */
    .QueryInterface = dxdev_QueryInterface,
    .AddRef = dxdev_AddRef,
    .Release = dxdev_Release,
    RT_PRIVATE_DATA_SLOTS(dxdev),
    .GetParent = dxdev_GetParent,
    .GetAdapter = dxdev_GetAdapter,
    .CreateSurface = dxdev_CreateSurface,
    .SetGPUThreadPriority = dxdev_SetGPUThreadPriority,
    .GetGPUThreadPriority = dxdev_GetGPUThreadPriority,
    .SetMaximumFrameLatency = dxdev_SetMaximumFrameLatency,
    .GetMaximumFrameLatency = dxdev_GetMaximumFrameLatency,
    .Trim = dxdev_Trim,
    .OfferResources = dxdev_OfferResources,
    .ReclaimResources = dxdev_ReclaimResources,
    .EnqueueSetEvent = dxdev_EnqueueSetEvent,
};
