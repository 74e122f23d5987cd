/*
 * share.c - shared resources at the API (issue 6): the IDXGIResource face of a resource
 * (GetSharedHandle: the global share handle of a D3D11_RESOURCE_MISC_SHARED resource) and
 * ID3D11Device::OpenSharedResource (D3DKMTQueryResourceInfo + D3DKMTOpenResource, then the
 * UMD's pfnOpenResource builds its resource from the creator's private data; the D3D11
 * description comes back from the runtime's private data, struct rt_shared_runtime_data).
 * It opens on the creator's adapter, and on another adapter when the resource is
 * cross-adapter (the kernel refuses the rest with a line).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdlib.h>

static struct rt_resource *from_dxgi(IDXGIResource *iface)
{
    return (struct rt_resource *)(void *)((char *)iface - offsetof(struct rt_resource, dxgi));
}

struct rt_resource *rt_resource_from_dxgi(IDXGIResource *iface)
{
    if (!iface || iface->lpVtbl != &rt_dxgi_resource_vtbl)
        return NULL;
    struct rt_resource *res = from_dxgi(iface);
    return res->magic == RT_RESOURCE_MAGIC ? res : NULL;
}

static HRESULT STDMETHODCALLTYPE dxgi_QueryInterface(IDXGIResource *This, REFIID riid, void **ppv)
{
    return rt_resource_query_interface(from_dxgi(This), riid, ppv);
}

static ULONG STDMETHODCALLTYPE dxgi_AddRef(IDXGIResource *This)
{
    return rt_resource_addref(from_dxgi(This));
}

static ULONG STDMETHODCALLTYPE dxgi_Release(IDXGIResource *This)
{
    return rt_resource_release(from_dxgi(This));
}

/* The DXGI face shares the resource's private data (one object, two faces). */
RT_PRIVATE_DATA_METHODS(dxgi, IDXGIResource, &from_dxgi(This)->device->private_lock, &from_dxgi(This)->private_data)

/* IDXGIDeviceSubObject of a resource's DXGI faces (this one and surface.c's): the parent is the
 * device's IDXGIDevice face, the device the ID3D11Device (DXGI reference; Wine dxgi tests). */
HRESULT rt_resource_dxgi_parent(struct rt_resource *res, REFIID riid, void **parent)
{
    if (!parent)
        return E_INVALIDARG;
    IDXGIDevice3 *d = &res->device->dxgi;
    return d->lpVtbl->QueryInterface(d, riid, parent);
}

HRESULT rt_resource_dxgi_device(struct rt_resource *res, REFIID riid, void **device)
{
    if (!device)
        return E_POINTER;
    ID3D11Device *d = &res->device->iface;
    return d->lpVtbl->QueryInterface(d, riid, device);
}

static HRESULT STDMETHODCALLTYPE dxgi_GetParent(IDXGIResource *This, REFIID riid, void **parent)
{
    return rt_resource_dxgi_parent(from_dxgi(This), riid, parent);
}

static HRESULT STDMETHODCALLTYPE dxgi_GetDevice(IDXGIResource *This, REFIID riid, void **device)
{
    return rt_resource_dxgi_device(from_dxgi(This), riid, device);
}

/* The global share handle (issue 6). Only a MISC_SHARED resource (or an opened one) has one. */
static HRESULT STDMETHODCALLTYPE dxgi_GetSharedHandle(IDXGIResource *This, HANDLE *handle)
{
    if (!handle) {
        RT_REFUSE_DXGI(RESOURCE, "IDXGIResource::GetSharedHandle: pSharedHandle is NULL");
        return E_INVALIDARG;
    }
    struct rt_resource *res = from_dxgi(This);
    *handle = (HANDLE)(uintptr_t)res->global_share;
    if (!res->global_share) {
        RT_REFUSE_DXGI(RESOURCE, "IDXGIResource::GetSharedHandle: the resource was not created with D3D11_RESOURCE_MISC_SHARED or "
                  "D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX");
        return E_INVALIDARG;
    }
    return S_OK;
}

/* The DXGI view of the resource's binds and CPU access: the inverse of IDXGIDevice::CreateSurface's
 * translation (dxgi_device.c), so a surface's usage comes back as it was asked; MISC_SHARED is
 * DXGI_USAGE_SHARED (DXGI_USAGE reference). */
static HRESULT STDMETHODCALLTYPE dxgi_GetUsage(IDXGIResource *This, DXGI_USAGE *usage)
{
    if (!usage) {
        RT_REFUSE_DXGI(RESOURCE, "IDXGIResource::GetUsage: pUsage is NULL");
        return E_INVALIDARG;
    }
    const struct rt_resource *res = from_dxgi(This);
    DXGI_USAGE u = (res->bind_flags & D3D11_BIND_SHADER_RESOURCE ? DXGI_USAGE_SHADER_INPUT : 0) |
                   (res->bind_flags & D3D11_BIND_RENDER_TARGET ? DXGI_USAGE_RENDER_TARGET_OUTPUT : 0) |
                   (res->bind_flags & D3D11_BIND_UNORDERED_ACCESS ? DXGI_USAGE_UNORDERED_ACCESS : 0) |
                   (res->misc_flags & RT_MISC_SHARED_ANY ? DXGI_USAGE_SHARED : 0);
    if (res->usage == D3D11_USAGE_DYNAMIC)
        u |= DXGI_CPU_ACCESS_DYNAMIC;
    else if (res->usage == D3D11_USAGE_STAGING)
        u |= DXGI_CPU_ACCESS_READ_WRITE;
    *usage = u;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxgi_SetEvictionPriority(IDXGIResource *This, UINT prio)
{
    rt_resource_set_eviction_priority(from_dxgi(This), prio);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dxgi_GetEvictionPriority(IDXGIResource *This, UINT *prio)
{
    if (!prio)
        return E_INVALIDARG;
    *prio = from_dxgi(This)->eviction_priority;
    return S_OK;
}

const struct IDXGIResourceVtbl rt_dxgi_resource_vtbl = {
    RT_API_STUBS_IDXGIResource, /* every slot answers "not implemented" until named below */
    .QueryInterface = dxgi_QueryInterface,
    .AddRef = dxgi_AddRef,
    .Release = dxgi_Release,
    RT_PRIVATE_DATA_SLOTS(dxgi),
    .GetParent = dxgi_GetParent,
    .GetDevice = dxgi_GetDevice,
    .GetSharedHandle = dxgi_GetSharedHandle,
    .GetUsage = dxgi_GetUsage,
    .SetEvictionPriority = dxgi_SetEvictionPriority,
    .GetEvictionPriority = dxgi_GetEvictionPriority,
};

/* ---- ID3D11Device::OpenSharedResource --------------------------------------------------------- */

#define OPEN_DATA_MAX 65536u /* bounds the private data a share may ask us to hold */

HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResource(ID3D11Device *iface, HANDLE handle, REFIID riid, void **out)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    if (!out || !riid) {
        RT_REFUSE("OpenSharedResource: ppResource or ReturnedInterface is NULL");
        return E_INVALIDARG;
    }
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("OpenSharedResource on a removed device");
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (!rt_iid_equal(riid, &IID_ID3D11Texture2D) && !rt_iid_equal(riid, &IID_ID3D11Resource) &&
        !rt_iid_equal(riid, &IID_IUnknown) && !rt_iid_equal(riid, &IID_IDXGIResource)) {
        RT_REFUSE("OpenSharedResource: ReturnedInterface must be ID3D11Texture2D, ID3D11Resource, IUnknown or "
                  "IDXGIResource (only Texture2D resources are shared)");
        return E_INVALIDARG;
    }
    uintptr_t hv = (uintptr_t)handle;
    if (!hv || hv > 0xFFFFFFFFu) {
        RT_REFUSE("OpenSharedResource: %p is not a shared resource handle", handle);
        return E_INVALIDARG;
    }
    D3DKMT_HANDLE share = (D3DKMT_HANDLE)hv;
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = dev->km_device, .hGlobalShare = share };
    NTSTATUS st = D3DKMTQueryResourceInfo(&q);
    if (!NT_SUCCESS(st)) {
        HRESULT hr = st == STATUS_DEVICE_REMOVED ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
        RT_REFUSE("OpenSharedResource: handle 0x%08x does not open on this device (D3DKMTQueryResourceInfo "
                  "0x%08x)", share, (UINT)st);
        return hr;
    }
    if (q.NumAllocations != 1 || q.PrivateRuntimeDataSize != sizeof(struct rt_shared_runtime_data) ||
        q.TotalPrivateDriverDataSize > OPEN_DATA_MAX || q.ResourcePrivateDriverDataSize > OPEN_DATA_MAX) {
        RT_REFUSE("OpenSharedResource: handle 0x%08x is not a D3D11 shared texture (%u allocations, %u bytes of "
                  "runtime data)", share, q.NumAllocations, q.PrivateRuntimeDataSize);
        return E_INVALIDARG;
    }
    struct rt_shared_runtime_data rd;
    void *total = wddm_calloc(1, q.TotalPrivateDriverDataSize ? q.TotalPrivateDriverDataSize : 1);
    void *resdata = q.ResourcePrivateDriverDataSize ? wddm_calloc(1, q.ResourcePrivateDriverDataSize) : NULL;
    if (!total || (q.ResourcePrivateDriverDataSize && !resdata)) {
        free(total);
        free(resdata);
        return E_OUTOFMEMORY;
    }
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = dev->km_device, .hGlobalShare = share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pPrivateRuntimeData = &rd,
                              .PrivateRuntimeDataSize = sizeof rd, .pResourcePrivateDriverData = resdata,
                              .ResourcePrivateDriverDataSize = q.ResourcePrivateDriverDataSize,
                              .pTotalPrivateDriverDataBuffer = total,
                              .TotalPrivateDriverDataBufferSize = q.TotalPrivateDriverDataSize };
    st = D3DKMTOpenResource(&o);
    HRESULT hr;
    if (!NT_SUCCESS(st)) {
        hr = st == STATUS_DEVICE_REMOVED ? DXGI_ERROR_DEVICE_REMOVED
             : st == STATUS_NO_MEMORY    ? E_OUTOFMEMORY
                                         : E_INVALIDARG;
        RT_REFUSE("OpenSharedResource: D3DKMTOpenResource(0x%08x) failed 0x%08x", share, (UINT)st);
        goto out;
    }
    const D3D11_TEXTURE2D_DESC *td = &rd.tex2d;
    if (rd.magic != RT_SHARED_RUNTIME_MAGIC || rd.version != 1 || rd.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D ||
        !td->Width || !td->Height || td->MipLevels != 1 || td->ArraySize != 1) {
        BOOL ours = rd.magic == RT_SHARED_RUNTIME_MAGIC && rd.version == 1 &&
                    rd.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D && td->Width && td->Height;
        if (ours) /* FIXME(sharing): one subresource only (the UMD's pfnOpenResource too) */
            RT_REFUSE("OpenSharedResource: handle 0x%08x is a texture of %u mips x %u slices: only one subresource "
                      "is opened", share, td->MipLevels, td->ArraySize);
        else
            RT_REFUSE("OpenSharedResource: handle 0x%08x carries no D3D11 Texture2D description this runtime made",
                      share);
        D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = o.hResource };
        (void)D3DKMTDestroyAllocation(&da);
        hr = ours ? E_NOTIMPL : E_INVALIDARG;
        goto out;
    }
    /* The description as the creator made it (docs/semantics.md §4.2 normalised view). */
    struct rt_resource tmpl;
    memset(&tmpl, 0, sizeof tmpl);
    tmpl.iface.lpVtbl = (const struct ID3D11ResourceVtbl *)(const void *)&rt_texture2d_vtbl;
    tmpl.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    tmpl.desc.tex2d = *td;
    tmpl.width = td->Width;
    tmpl.height = td->Height;
    tmpl.depth = 1;
    tmpl.mip_levels = 1;
    tmpl.array_size = 1;
    tmpl.format = td->Format;
    tmpl.sample_count = td->SampleDesc.Count ? td->SampleDesc.Count : 1;
    tmpl.sample_quality = td->SampleDesc.Quality;
    tmpl.usage = td->Usage;
    tmpl.bind_flags = td->BindFlags;
    tmpl.cpu_access = td->CPUAccessFlags;
    tmpl.misc_flags = td->MiscFlags;
    tmpl.subresource_count = 1;
    tmpl.global_share = share;
    if (rd.keyed_mutex) { /* keyed_mutex.c: this device's handles on the creator's objects */
        hr = rt_keyed_mutex_open(rd.keyed_mutex, rd.keyed_mutex_sync, &tmpl.km);
        if (FAILED(hr)) {
            D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = o.hResource };
            (void)D3DKMTDestroyAllocation(&da);
            goto out;
        }
    }
    D3D10DDIARG_OPENRESOURCE args = { .NumAllocations = 1, .pOpenAllocationInfo = &oi, .hKMResource = o.hResource,
                                      .pPrivateDriverData = resdata,
                                      .PrivateDriverDataSize = q.ResourcePrivateDriverDataSize };
    struct rt_resource *res;
    hr = rt_resource_open(dev, &tmpl, &args, &res);
    if (FAILED(hr)) {
        rt_keyed_mutex_free(tmpl.km);
        goto out;
    }
    hr = rt_resource_query_interface(res, riid, out);
    rt_resource_release(res); /* the interface's reference is the caller's */
out:
    free(total);
    free(resdata);
    return hr;
}
