/*
 * dxgi_factory.c - CreateDXGIFactory / 1 / 2 and the factory object (IDXGIFactory ..
 * IDXGIFactory4): the kernel's adapters as DXGI enumerates them (issue 15 §3).
 *
 * Windows' answers (DXGI reference; Wine's dxgi tests, run on Windows): the factory takes a
 * snapshot of the adapters when it is made (IsCurrent turns FALSE when they change);
 * EnumAdapters(i) past the last → DXGI_ERROR_NOT_FOUND with *ppAdapter NULL; a NULL output →
 * DXGI_ERROR_INVALID_CALL; the factory has no parent (GetParent → E_NOINTERFACE, NULL). Swap
 * chains, window association and software adapters answer E_NOTIMPL: libwddm presents nothing
 * on a screen (docs/api.md).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

static struct rt_factory *factory_from(IDXGIFactory4 *iface)
{
    return (struct rt_factory *)iface;
}

static BOOL factory_iid(REFIID riid)
{
    return rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_IDXGIObject) ||
           rt_iid_equal(riid, &IID_IDXGIFactory) || rt_iid_equal(riid, &IID_IDXGIFactory1) ||
           rt_iid_equal(riid, &IID_IDXGIFactory2) || rt_iid_equal(riid, &IID_IDXGIFactory3) ||
           rt_iid_equal(riid, &IID_IDXGIFactory4);
}

static HRESULT STDMETHODCALLTYPE factory_QueryInterface(IDXGIFactory4 *This, REFIID riid, void **out)
{
    if (!out)
        return E_POINTER;
    *out = NULL;
    if (!riid || !factory_iid(riid))
        return E_NOINTERFACE;
    atomic_fetch_add(&factory_from(This)->refs, 1);
    *out = This;
    return S_OK;
}

static ULONG STDMETHODCALLTYPE factory_AddRef(IDXGIFactory4 *This)
{
    return atomic_fetch_add(&factory_from(This)->refs, 1) + 1;
}

ULONG rt_factory_release(struct rt_factory *f)
{
    ULONG n = atomic_fetch_sub(&f->refs, 1) - 1;
    if (n)
        return n;
    rt_private_clear(&f->private_data);
    pthread_mutex_destroy(&f->private_lock);
    free(f->luids);
    free(f);
    return 0;
}

static ULONG STDMETHODCALLTYPE factory_Release(IDXGIFactory4 *This)
{
    return rt_factory_release(factory_from(This));
}

RT_PRIVATE_DATA_METHODS(factory, IDXGIFactory4, &factory_from(This)->private_lock, &factory_from(This)->private_data)

static HRESULT STDMETHODCALLTYPE factory_GetParent(IDXGIFactory4 *This, REFIID riid, void **parent)
{
    if (!parent)
        return E_INVALIDARG;
    *parent = NULL;
    return E_NOINTERFACE; /* a factory is the root of DXGI's object tree */
}

static HRESULT enum_adapter(struct rt_factory *f, UINT index, IDXGIAdapter **out)
{
    if (!out) {
        RT_REFUSE_DXGI(FACTORY, "IDXGIFactory::EnumAdapters: ppAdapter is NULL");
        return DXGI_ERROR_INVALID_CALL;
    }
    *out = NULL;
    if (index >= f->count)
        return DXGI_ERROR_NOT_FOUND;
    struct rt_adapter *a = NULL;
    HRESULT hr = rt_adapter_create(f, f->luids[index], &a);
    if (SUCCEEDED(hr))
        *out = (IDXGIAdapter *)&a->iface;
    return hr;
}

static HRESULT STDMETHODCALLTYPE factory_EnumAdapters(IDXGIFactory4 *This, UINT index, IDXGIAdapter **out)
{
    return enum_adapter(factory_from(This), index, out);
}

static HRESULT STDMETHODCALLTYPE factory_EnumAdapters1(IDXGIFactory4 *This, UINT index, IDXGIAdapter1 **out)
{
    return enum_adapter(factory_from(This), index, (IDXGIAdapter **)out);
}

/* FALSE once the kernel's adapters differ from the factory's snapshot (an adapter came or went). */
static BOOL STDMETHODCALLTYPE factory_IsCurrent(IDXGIFactory4 *This)
{
    struct rt_factory *f = factory_from(This);
    LUID *now = NULL;
    UINT count = 0;
    if (FAILED(rt_adapters_enum(&now, &count)))
        return f->count == 0;
    BOOL same = count == f->count;
    for (UINT i = 0; same && i < count; i++)
        same = rt_luid_equal(now[i], f->luids[i]);
    free(now);
    return same;
}

static UINT STDMETHODCALLTYPE factory_GetCreationFlags(IDXGIFactory4 *This)
{
    return factory_from(This)->flags;
}

static HRESULT STDMETHODCALLTYPE factory_EnumAdapterByLuid(IDXGIFactory4 *This, LUID luid, REFIID riid, void **out)
{
    struct rt_factory *f = factory_from(This);
    if (!out || !riid) {
        RT_REFUSE_DXGI(FACTORY, "IDXGIFactory4::EnumAdapterByLuid: %s is NULL", !out ? "ppvAdapter" : "riid");
        return E_INVALIDARG;
    }
    *out = NULL;
    for (UINT i = 0; i < f->count; i++) {
        if (!rt_luid_equal(f->luids[i], luid))
            continue;
        struct rt_adapter *a = NULL;
        HRESULT hr = rt_adapter_create(f, luid, &a);
        if (FAILED(hr))
            return hr;
        hr = a->iface.lpVtbl->QueryInterface(&a->iface, riid, out);
        a->iface.lpVtbl->Release(&a->iface);
        return hr;
    }
    return DXGI_ERROR_NOT_FOUND;
}

/* The adapter a shared resource was created on (D3DKMTGetSharedResourceAdapterLuid), so that an
 * application opens it on a device of that adapter: Windows opens a shared resource only on
 * its creator's adapter (IDXGIFactory2::GetSharedResourceAdapterLuid, "You cannot share resources
 * across adapters"). The handle is the NT handle IDXGIResource1::CreateSharedHandle returned, as
 * documented; an invalid one is DXGI_ERROR_INVALID_CALL. */
static HRESULT STDMETHODCALLTYPE factory_GetSharedResourceAdapterLuid(IDXGIFactory4 *This, HANDLE resource, LUID *luid)
{
    (void)This;
    if (!luid) {
        RT_REFUSE_DXGI(FACTORY, "IDXGIFactory2::GetSharedResourceAdapterLuid: pLuid is NULL");
        return E_INVALIDARG;
    }
    D3DKMT_GETSHAREDRESOURCEADAPTERLUID q = { .hNtHandle = resource };
    if (!resource || !NT_SUCCESS(D3DKMTGetSharedResourceAdapterLuid(&q))) {
        RT_REFUSE_DXGI(FACTORY,
                       "IDXGIFactory2::GetSharedResourceAdapterLuid: %p is not an NT handle of a shared resource "
                       "(IDXGIResource1::CreateSharedHandle)",
                       resource);
        return DXGI_ERROR_INVALID_CALL;
    }
    *luid = q.AdapterLuid;
    return S_OK;
}

static const struct IDXGIFactory4Vtbl factory_vtbl = {
    RT_API_STUBS_IDXGIFactory4, /* every slot answers "not implemented" until named below */
    .QueryInterface = factory_QueryInterface,
    .AddRef = factory_AddRef,
    .Release = factory_Release,
    RT_PRIVATE_DATA_SLOTS(factory),
    .GetParent = factory_GetParent,
    .EnumAdapters = factory_EnumAdapters,
    .EnumAdapters1 = factory_EnumAdapters1,
    .IsCurrent = factory_IsCurrent,
    .GetCreationFlags = factory_GetCreationFlags,
    .EnumAdapterByLuid = factory_EnumAdapterByLuid,
    .GetSharedResourceAdapterLuid = factory_GetSharedResourceAdapterLuid,
};

HRESULT rt_factory_create(UINT flags, struct rt_factory **out)
{
    struct rt_factory *f = wddm_calloc(1, sizeof *f);
    if (!f)
        return E_OUTOFMEMORY;
    HRESULT hr = rt_adapters_enum(&f->luids, &f->count);
    if (FAILED(hr) && hr != DXGI_ERROR_UNSUPPORTED) {
        free(f);
        return hr;
    }
    /* No adapter is not a failure for a factory: EnumAdapters(0) then answers NOT_FOUND. */
    f->iface.lpVtbl = &factory_vtbl;
    atomic_init(&f->refs, 1);
    f->flags = flags;
    pthread_mutex_init(&f->private_lock, NULL);
    *out = f;
    return S_OK;
}

static HRESULT create_factory(UINT flags, REFIID riid, void **out)
{
    if (!out) {
        RT_REFUSE_DXGI(FACTORY, "CreateDXGIFactory: ppFactory is NULL");
        return E_INVALIDARG;
    }
    *out = NULL;
    if (!riid || !factory_iid(riid)) {
        RT_REFUSE_DXGI(FACTORY, "CreateDXGIFactory: riid is not an IDXGIFactory interface");
        return E_NOINTERFACE;
    }
    struct rt_factory *f = NULL;
    HRESULT hr = rt_factory_create(flags, &f);
    if (SUCCEEDED(hr))
        *out = &f->iface;
    return hr;
}

HRESULT WINAPI CreateDXGIFactory(REFIID riid, void **ppFactory)
{
    return create_factory(0, riid, ppFactory);
}

HRESULT WINAPI CreateDXGIFactory1(REFIID riid, void **ppFactory)
{
    return create_factory(0, riid, ppFactory);
}

HRESULT WINAPI CreateDXGIFactory2(UINT Flags, REFIID riid, void **ppFactory)
{
    if (Flags & ~(UINT)DXGI_CREATE_FACTORY_DEBUG) {
        RT_REFUSE_DXGI(FACTORY, "CreateDXGIFactory2: Flags 0x%x has bits other than DXGI_CREATE_FACTORY_DEBUG", Flags);
        if (ppFactory)
            *ppFactory = NULL;
        return E_INVALIDARG;
    }
    if (Flags & DXGI_CREATE_FACTORY_DEBUG)
        rt_dxgi_debug_enable(); /* the DXGI debug layer, as dxgidebug.dll loads on Windows (dxgi_debug.c) */
    return create_factory(Flags, riid, ppFactory);
}
