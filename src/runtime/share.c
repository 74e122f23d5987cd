/*
 * share.c - shared resources at the API (issue 6): the IDXGIResource face of a resource
 * (GetSharedHandle: the global share handle of a D3D11_RESOURCE_MISC_SHARED resource) and
 * ID3D11Device::OpenSharedResource (D3DKMTQueryResourceInfo + D3DKMTOpenResource, then the
 * UMD's pfnOpenResource builds its resource from the creator's private data; the D3D11
 * description comes back from the runtime's private data, struct rt_shared_runtime_data).
 * It opens on the creator's adapter, and on another adapter when the resource is
 * cross-adapter (the kernel refuses the rest with a line).
 *
 * NT handles (D3D11_RESOURCE_MISC_SHARED_NTHANDLE; docs/api.md "What DXGI does here"): such a
 * resource has no global handle (GetSharedHandle fails); IDXGIResource1::CreateSharedHandle makes
 * an NT handle of it (D3DKMTShareObjects, with its keyed mutex and fence), which
 * ID3D11Device1::OpenSharedResource1 opens (D3DKMTQueryResourceInfoFromNtHandle +
 * D3DKMTOpenResourceFromNtHandle, the same UMD open) and CloseHandle closes; OpenSharedResourceByName
 * opens one by the name given to CreateSharedHandle.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static struct rt_resource *from_dxgi(IDXGIResource *iface)
{
    return (struct rt_resource *)(void *)((char *)iface - offsetof(struct rt_resource, dxgi));
}

struct rt_resource *rt_resource_from_dxgi(IDXGIResource *iface)
{
    if (!iface || iface->lpVtbl != rt_dxgi_resource_vtbl)
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

/* ---- IDXGIResource1::CreateSharedHandle ------------------------------------------------------ */

/* The NT object name of an API name: the session's \BaseNamedObjects directory, where Windows
 * puts a name without a "Global\" prefix (Kernel Object Namespaces); one session here, 0.
 * FALSE when the name is empty or longer than MAX_PATH characters (CreateSharedHandle: "The
 * name is limited to MAX_PATH characters"). */
static BOOL nt_name(const WCHAR *name, WCHAR *buf, size_t cap, UNICODE_STRING *out)
{
    static const char prefix[] = "\\Sessions\\0\\BaseNamedObjects\\";
    size_t n = 0, p = sizeof prefix - 1;
    while (name[n] && n <= MAX_PATH)
        n++;
    if (!n || n > MAX_PATH || p + n > cap)
        return FALSE;
    for (size_t i = 0; i < p; i++)
        buf[i] = (WCHAR)prefix[i];
    memcpy(buf + p, name, n * sizeof *name);
    *out = (UNICODE_STRING){ .Length = (USHORT)((p + n) * sizeof *buf), .MaximumLength = (USHORT)(cap * sizeof *buf),
                             .Buffer = buf };
    return TRUE;
}

#define NT_NAME_CAP (MAX_PATH + 40)

/* Kernel objects shared as one NT handle (D3DKMTShareObjects), under an optional name: the
 * common half of IDXGIResource1::CreateSharedHandle and ID3D11Fence::CreateSharedHandle (fence.c).
 * A name in use answers DXGI_ERROR_NAME_ALREADY_EXISTS; `dxgi` files the refusals with DXGI's
 * debug layer, else with the device's. */
#define SHARE_REFUSE(dxgi, ...)                   \
    do {                                          \
        if (dxgi)                                 \
            RT_REFUSE_DXGI(RESOURCE, __VA_ARGS__); \
        else                                      \
            RT_REFUSE(__VA_ARGS__);               \
    } while (0)
HRESULT rt_share_objects(const char *fn, BOOL dxgi, const D3DKMT_HANDLE *objs, UINT n,
                         const SECURITY_ATTRIBUTES *attributes, DWORD access, const WCHAR *name, HANDLE *handle)
{
    WCHAR buf[NT_NAME_CAP];
    UNICODE_STRING uname;
    if (name && !nt_name(name, buf, NT_NAME_CAP, &uname)) {
        SHARE_REFUSE(dxgi, "%s: lpName is empty or longer than MAX_PATH characters", fn);
        return E_INVALIDARG;
    }
    OBJECT_ATTRIBUTES oa;
    InitializeObjectAttributes(&oa, name ? &uname : NULL, OBJ_CASE_INSENSITIVE, NULL,
                               attributes ? attributes->lpSecurityDescriptor : NULL);
    NTSTATUS st = D3DKMTShareObjects(n, objs, &oa, access, handle);
    if (st == STATUS_OBJECT_NAME_COLLISION) {
        SHARE_REFUSE(dxgi, "%s: the name is already in use by another shared object", fn);
        return DXGI_ERROR_NAME_ALREADY_EXISTS;
    }
    if (!NT_SUCCESS(st)) {
        SHARE_REFUSE(dxgi, "%s: D3DKMTShareObjects failed 0x%08x", fn, (UINT)st);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    return S_OK;
}

/* A MISC_SHARED_NTHANDLE resource (created, or opened by OpenSharedResource1) becomes an NT
 * handle of its kernel resource, with its keyed mutex and fence for a keyed-mutex one. A
 * resource not created for NT handles is refused with E_INVALIDARG (Wine d3d11: "CreateSharedHandle
 * will fail", IDXGIResource1::CreateSharedHandle remarks). Each call makes a new NT handle. */
static HRESULT STDMETHODCALLTYPE dxgi_CreateSharedHandle(IDXGIResource1 *This, const SECURITY_ATTRIBUTES *attributes,
                                                        DWORD access, const WCHAR *name, HANDLE *handle)
{
    static const char fn[] = "IDXGIResource1::CreateSharedHandle";
    if (!handle) {
        RT_REFUSE_DXGI(RESOURCE, "%s: pHandle is NULL", fn);
        return E_INVALIDARG;
    }
    *handle = NULL;
    struct rt_resource *res = from_dxgi((IDXGIResource *)This);
    if (!(res->misc_flags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) || !res->km_resource) {
        RT_REFUSE_DXGI(RESOURCE, "%s: the resource was not created with D3D11_RESOURCE_MISC_SHARED_NTHANDLE (a "
                       "MISC_SHARED resource shares through GetSharedHandle)", fn);
        return E_INVALIDARG;
    }
    D3DKMT_HANDLE objs[3] = { res->km_resource };
    UINT n = 1;
    if (res->km) {
        rt_keyed_mutex_locals(res->km, &objs[1], &objs[2]);
        n = 3;
    }
    return rt_share_objects(fn, TRUE, objs, n, attributes, access, name, handle);
}

static const struct {
    struct IDXGIResourceVtbl base;
    struct rt_own_IDXGIResource1 ext;
} dxgi_vtbl = {
    .base = {
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
    },
    .ext = {
        RT_API_OWN_STUBS_IDXGIResource1,
        .CreateSharedHandle = dxgi_CreateSharedHandle,
    },
};

const struct IDXGIResourceVtbl *const rt_dxgi_resource_vtbl = &dxgi_vtbl.base;

/* ---- ID3D11Device::OpenSharedResource, ID3D11Device1::OpenSharedResource1 ---------------------- */

#define OPEN_DATA_MAX 65536u /* bounds the private data a share may ask us to hold */

/* Where a shared resource comes from: a global handle (OpenSharedResource) or an NT handle
 * (OpenSharedResource1). */
struct open_src {
    const char *fn;
    D3DKMT_HANDLE global;
    HANDLE nt;
};

/* D3DKMTQueryResourceInfo(FromNtHandle): the buffer sizes of the open. */
static NTSTATUS src_query(struct rt_device *dev, const struct open_src *src, UINT *allocs, UINT *runtime, UINT *total,
                          UINT *resdata)
{
    NTSTATUS st;
    if (src->nt) {
        D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE q = { .hDevice = dev->km_device, .hNtHandle = src->nt };
        st = D3DKMTQueryResourceInfoFromNtHandle(&q);
        *allocs = q.NumAllocations, *runtime = q.PrivateRuntimeDataSize, *total = q.TotalPrivateDriverDataSize;
        *resdata = q.ResourcePrivateDriverDataSize;
    } else {
        D3DKMT_QUERYRESOURCEINFO q = { .hDevice = dev->km_device, .hGlobalShare = src->global };
        st = D3DKMTQueryResourceInfo(&q);
        *allocs = q.NumAllocations, *runtime = q.PrivateRuntimeDataSize, *total = q.TotalPrivateDriverDataSize;
        *resdata = q.ResourcePrivateDriverDataSize;
    }
    return st;
}

/* D3DKMTOpenResource(FromNtHandle) with the buffers of o (o->hResource out); the NT form also
 * opens the keyed mutex and fence it shares (0 when it shares none). */
static NTSTATUS src_open(const struct open_src *src, D3DKMT_OPENRESOURCE *o, D3DKMT_HANDLE *mutex,
                         D3DKMT_HANDLE *sync)
{
    *mutex = *sync = 0;
    if (!src->nt) {
        o->hGlobalShare = src->global;
        return D3DKMTOpenResource(o);
    }
    D3DDDI_OPENALLOCATIONINFO2 oi2 = { 0 };
    D3DKMT_OPENRESOURCEFROMNTHANDLE n = { .hDevice = o->hDevice, .hNtHandle = src->nt,
                                          .NumAllocations = o->NumAllocations, .pOpenAllocationInfo2 = &oi2,
                                          .PrivateRuntimeDataSize = o->PrivateRuntimeDataSize,
                                          .pPrivateRuntimeData = o->pPrivateRuntimeData,
                                          .ResourcePrivateDriverDataSize = o->ResourcePrivateDriverDataSize,
                                          .pResourcePrivateDriverData = o->pResourcePrivateDriverData,
                                          .TotalPrivateDriverDataBufferSize = o->TotalPrivateDriverDataBufferSize,
                                          .pTotalPrivateDriverDataBuffer = o->pTotalPrivateDriverDataBuffer };
    NTSTATUS st = D3DKMTOpenResourceFromNtHandle(&n);
    if (NT_SUCCESS(st)) {
        o->pOpenAllocationInfo[0] = (D3DDDI_OPENALLOCATIONINFO){ .hAllocation = oi2.hAllocation,
                                                                 .pPrivateDriverData = oi2.pPrivateDriverData,
                                                                 .PrivateDriverDataSize = oi2.PrivateDriverDataSize };
        o->hResource = n.hResource;
        o->TotalPrivateDriverDataBufferSize = n.TotalPrivateDriverDataBufferSize;
        *mutex = n.hKeyedMutex;
        *sync = n.hSyncObject;
    }
    return st;
}

static void destroy_opened(struct rt_device *dev, D3DKMT_HANDLE res, D3DKMT_HANDLE mutex, D3DKMT_HANDLE sync)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = dev->km_device, .hResource = res };
    (void)D3DKMTDestroyAllocation(&da);
    if (mutex) {
        D3DKMT_DESTROYKEYEDMUTEX dm = { .hKeyedMutex = mutex };
        (void)D3DKMTDestroyKeyedMutex(&dm);
    }
    if (sync) {
        D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = sync };
        (void)D3DKMTDestroySynchronizationObject(&ds);
    }
}

static BOOL open_iid_ok(REFIID riid)
{
    return rt_iid_equal(riid, &IID_ID3D11Texture2D) || rt_iid_equal(riid, &IID_ID3D11Resource) ||
           rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_IDXGIResource) ||
           rt_iid_equal(riid, &IID_IDXGIResource1);
}

/* Phase 2 of an open: the kernel resource (and, NT, its keyed mutex and fence) opened on this
 * device, then the UMD's resource from the creator's description. */
static HRESULT open_shared(struct rt_device *dev, const struct open_src *src, REFIID riid, void **out)
{
    const char *fn = src->fn;
    UINT allocs = 0, runtime = 0, total_size = 0, res_size = 0;
    NTSTATUS st = src_query(dev, src, &allocs, &runtime, &total_size, &res_size);
    if (!NT_SUCCESS(st)) {
        HRESULT hr = st == STATUS_DEVICE_REMOVED ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
        RT_REFUSE("%s: handle %p does not open on this device (0x%08x)", fn,
                  src->nt ? src->nt : (HANDLE)(uintptr_t)src->global, (UINT)st);
        return hr;
    }
    if (allocs != 1 || runtime != sizeof(struct rt_shared_runtime_data) || total_size > OPEN_DATA_MAX ||
        res_size > OPEN_DATA_MAX) {
        RT_REFUSE("%s: handle %p is not a D3D11 shared texture (%u allocations, %u bytes of runtime data)", fn,
                  src->nt ? src->nt : (HANDLE)(uintptr_t)src->global, allocs, runtime);
        return E_INVALIDARG;
    }
    struct rt_shared_runtime_data rd;
    void *total = wddm_calloc(1, total_size ? total_size : 1);
    void *resdata = res_size ? wddm_calloc(1, res_size) : NULL;
    if (!total || (res_size && !resdata)) {
        free(total);
        free(resdata);
        return E_OUTOFMEMORY;
    }
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = dev->km_device, .NumAllocations = 1, .pOpenAllocationInfo = &oi,
                              .pPrivateRuntimeData = &rd, .PrivateRuntimeDataSize = sizeof rd,
                              .pResourcePrivateDriverData = resdata, .ResourcePrivateDriverDataSize = res_size,
                              .pTotalPrivateDriverDataBuffer = total, .TotalPrivateDriverDataBufferSize = total_size };
    D3DKMT_HANDLE mutex = 0, sync = 0;
    st = src_open(src, &o, &mutex, &sync);
    HRESULT hr;
    if (!NT_SUCCESS(st)) {
        hr = st == STATUS_DEVICE_REMOVED ? DXGI_ERROR_DEVICE_REMOVED
             : st == STATUS_NO_MEMORY    ? E_OUTOFMEMORY
                                         : E_INVALIDARG;
        RT_REFUSE("%s: opening the kernel resource failed 0x%08x", fn, (UINT)st);
        goto out;
    }
    const D3D11_TEXTURE2D_DESC *td = &rd.tex2d;
    BOOL nt_made = (td->MiscFlags & D3D11_RESOURCE_MISC_SHARED_NTHANDLE) != 0;
    if (rd.magic != RT_SHARED_RUNTIME_MAGIC || rd.version != 1 || rd.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D ||
        !td->Width || !td->Height || td->MipLevels != 1 || td->ArraySize != 1 || nt_made != (src->nt != NULL) ||
        ((td->MiscFlags & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX) && src->nt && !(mutex && sync))) {
        BOOL ours = rd.magic == RT_SHARED_RUNTIME_MAGIC && rd.version == 1 &&
                    rd.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D && td->Width && td->Height;
        BOOL one_sub = td->MipLevels == 1 && td->ArraySize == 1;
        if (ours && !one_sub) /* FIXME(sharing): one subresource only (the UMD's pfnOpenResource too) */
            RT_REFUSE("%s: the texture has %u mips x %u slices: only one subresource is opened", fn, td->MipLevels,
                      td->ArraySize);
        else if (ours)
            RT_REFUSE("%s: a MISC_SHARED_NTHANDLE texture opens by NT handle (OpenSharedResource1), any other by "
                      "its global handle (OpenSharedResource)", fn);
        else
            RT_REFUSE("%s: the handle carries no D3D11 Texture2D description this runtime made", fn);
        destroy_opened(dev, o.hResource, mutex, sync);
        hr = ours && !one_sub ? E_NOTIMPL : E_INVALIDARG;
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
    tmpl.global_share = src->global;
    if (src->nt && mutex) { /* keyed_mutex.c: the handles the NT open made are this resource's */
        hr = rt_keyed_mutex_adopt(mutex, sync, &tmpl.km);
        if (FAILED(hr)) {
            destroy_opened(dev, o.hResource, mutex, sync);
            goto out;
        }
    } else if (!src->nt && rd.keyed_mutex) { /* this device's handles on the creator's objects */
        hr = rt_keyed_mutex_open(rd.keyed_mutex, rd.keyed_mutex_sync, &tmpl.km);
        if (FAILED(hr)) {
            destroy_opened(dev, o.hResource, 0, 0);
            goto out;
        }
    } else if (mutex || sync) {
        destroy_opened(dev, 0, mutex, sync); /* shared with a texture that has no keyed mutex */
    }
    D3D10DDIARG_OPENRESOURCE args = { .NumAllocations = 1, .pOpenAllocationInfo = &oi, .hKMResource = o.hResource,
                                      .pPrivateDriverData = resdata, .PrivateDriverDataSize = res_size };
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

/* Phase 1, both forms: the arguments and the device. */
static HRESULT open_args(struct rt_device *dev, const char *fn, REFIID riid, void **out)
{
    if (out)
        *out = NULL;
    if (!out || !riid) {
        RT_REFUSE("%s: ppResource or ReturnedInterface is NULL", fn);
        return E_INVALIDARG;
    }
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("%s on a removed device", fn);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (!open_iid_ok(riid)) {
        RT_REFUSE("%s: ReturnedInterface must be ID3D11Texture2D, ID3D11Resource, IUnknown, IDXGIResource or "
                  "IDXGIResource1 (only Texture2D resources are shared)", fn);
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResource(ID3D11Device *iface, HANDLE handle, REFIID riid, void **out)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    static const char fn[] = "OpenSharedResource";
    HRESULT hr = open_args(dev, fn, riid, out);
    if (FAILED(hr))
        return hr;
    uintptr_t hv = (uintptr_t)handle;
    if (!hv || hv > 0xFFFFFFFFu) {
        RT_REFUSE("%s: %p is not a shared resource handle", fn, handle);
        return E_INVALIDARG;
    }
    const struct open_src src = { .fn = fn, .global = (D3DKMT_HANDLE)hv };
    return open_shared(dev, &src, riid, out);
}

/* ID3D11Device1::OpenSharedResource1: an NT handle from IDXGIResource1::CreateSharedHandle (or
 * OpenSharedResourceByName's); the handle stays the caller's to close. A closed or forged handle,
 * or a global one, is refused with E_INVALIDARG. */
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResource1(ID3D11Device1 *iface, HANDLE handle, REFIID riid, void **out)
{
    struct rt_device *dev = rt_device_from_iface((ID3D11Device *)iface);
    static const char fn[] = "OpenSharedResource1";
    HRESULT hr = open_args(dev, fn, riid, out);
    if (FAILED(hr))
        return hr;
    if (!handle) {
        RT_REFUSE("%s: hResource is NULL", fn);
        return E_INVALIDARG;
    }
    const struct open_src src = { .fn = fn, .nt = handle };
    return open_shared(dev, &src, riid, out);
}

/* ID3D11Device1::OpenSharedResourceByName: the NT handle the name opens (D3DKMTOpenNtHandleFromName
 * with dwDesiredAccess; no right asked: E_ACCESSDENIED), opened as OpenSharedResource1 does, then
 * closed: the opened resource holds what it needs. An unknown name answers E_INVALIDARG. */
HRESULT STDMETHODCALLTYPE rt_device_OpenSharedResourceByName(ID3D11Device1 *iface, LPCWSTR name, DWORD access,
                                                            REFIID riid, void **out)
{
    struct rt_device *dev = rt_device_from_iface((ID3D11Device *)iface);
    static const char fn[] = "OpenSharedResourceByName";
    HRESULT hr = open_args(dev, fn, riid, out);
    if (FAILED(hr))
        return hr;
    WCHAR buf[NT_NAME_CAP];
    UNICODE_STRING uname;
    if (!name || !nt_name(name, buf, NT_NAME_CAP, &uname)) {
        RT_REFUSE("%s: lpName is NULL, empty or longer than MAX_PATH characters", fn);
        return E_INVALIDARG;
    }
    OBJECT_ATTRIBUTES oa;
    InitializeObjectAttributes(&oa, &uname, OBJ_CASE_INSENSITIVE, NULL, NULL);
    D3DKMT_OPENNTHANDLEFROMNAME by = { .dwDesiredAccess = access, .pObjAttrib = &oa };
    NTSTATUS st = D3DKMTOpenNtHandleFromName(&by);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: D3DKMTOpenNtHandleFromName failed 0x%08x", fn, (UINT)st);
        return st == STATUS_ACCESS_DENIED ? E_ACCESSDENIED : st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
    }
    const struct open_src src = { .fn = fn, .nt = by.hNtHandle };
    hr = open_shared(dev, &src, riid, out);
    CloseHandle(by.hNtHandle);
    return hr;
}
