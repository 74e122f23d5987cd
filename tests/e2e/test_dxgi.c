/*
 * test_dxgi.c - DXGI over the kernel (issue 15 §3): the factory enumerates the kernel's
 * adapters, an adapter describes one and answers VidMm's budgets, a D3D11 device is made on an
 * explicit adapter, and the device's DXGI face reaches its adapter and sets its contexts'
 * scheduling priority. Windows' answers: DXGI reference and Wine's dxgi tests, run on Windows.
 * docs/rules/dxgi.md.
 */
#include "e2e/shim_umd.h"

#include <dxgi1_4.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>
#include "e2e/kmt_spy.h"

static ULONG refcount(IUnknown *u)
{
    u->lpVtbl->AddRef(u);
    return u->lpVtbl->Release(u);
}

/* The kernel's first adapter, as D3DKMTEnumAdapters2 reports it, and its segment sizes. */
static LUID kernel_first_adapter(D3DKMT_SEGMENTSIZEINFO *sizes, UINT *count)
{
    D3DKMT_ADAPTERINFO infos[8];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 8, .pAdapters = infos };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_true(en.NumAdapters >= 1);
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = infos[0].hAdapter, .Type = KMTQAITYPE_GETSEGMENTSIZE,
                                  .pPrivateDriverData = sizes, .PrivateDriverDataSize = sizeof *sizes };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    for (UINT i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = infos[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
    }
    *count = en.NumAdapters;
    return infos[0].AdapterLuid;
}

/* rule: dxgi.createdxgifactory-1-2-make-factory */
/* rule: dxgi.adapter-describes-kernel-adapter-luid */
static void factory_enumerates_the_kernel_adapters(void **state)
{
    (void)state;
    D3DKMT_SEGMENTSIZEINFO sizes = { 0 };
    UINT count = 0;
    LUID luid = kernel_first_adapter(&sizes, &count);

    IDXGIFactory1 *factory = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&factory), S_OK);
    assert_true(IDXGIFactory1_IsCurrent(factory));
    IDXGIAdapter1 *adapter = NULL;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(factory, 0, &adapter), S_OK);
    DXGI_ADAPTER_DESC1 desc;
    memset(&desc, 0xcc, sizeof desc);
    assert_int_equal(IDXGIAdapter1_GetDesc1(adapter, &desc), S_OK);
    assert_int_equal(desc.AdapterLuid.LowPart, luid.LowPart);
    assert_int_equal(desc.AdapterLuid.HighPart, luid.HighPart);
    assert_true(desc.DedicatedVideoMemory == sizes.DedicatedVideoMemorySize);
    assert_true(desc.SharedSystemMemory == sizes.SharedSystemMemorySize);
    assert_int_equal(desc.Flags, DXGI_ADAPTER_FLAG_NONE);
    assert_true(desc.Description[0] != 0);
    assert_int_equal(IDXGIAdapter1_GetDesc1(adapter, NULL), E_INVALIDARG);

    /* Past the last adapter: NOT_FOUND and a NULL pointer; no output pointer: INVALID_CALL. */
    IDXGIAdapter1 *none = (IDXGIAdapter1 *)(uintptr_t)1;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(factory, count, &none), DXGI_ERROR_NOT_FOUND);
    assert_null(none);
    assert_int_equal(IDXGIFactory1_EnumAdapters1(factory, 0, NULL), DXGI_ERROR_INVALID_CALL);

    /* Parents: the adapter's is its factory, the factory has none. */
    IDXGIFactory *parent = NULL;
    assert_int_equal(IDXGIAdapter1_GetParent(adapter, &IID_IDXGIFactory, (void **)&parent), S_OK);
    assert_ptr_equal(parent, factory);
    IDXGIFactory_Release(parent);
    IUnknown *root = (IUnknown *)(uintptr_t)1;
    assert_int_equal(IDXGIFactory1_GetParent(factory, &IID_IUnknown, (void **)&root), E_NOINTERFACE);
    assert_null(root);

    /* No outputs: nothing is presented. */
    IDXGIOutput *output = NULL;
    assert_int_equal(IDXGIAdapter1_EnumOutputs(adapter, 0, NULL), E_INVALIDARG);
    assert_int_equal(IDXGIAdapter1_EnumOutputs(adapter, 0, &output), DXGI_ERROR_NOT_FOUND);

    /* CheckInterfaceSupport: IDXGIDevice yes; ID3D11Device is UNSUPPORTED, as on Windows. */
    LARGE_INTEGER version = { .QuadPart = 0 };
    assert_int_equal(IDXGIAdapter1_CheckInterfaceSupport(adapter, &IID_IDXGIDevice, &version), S_OK);
    assert_true(version.QuadPart != 0);
    version.QuadPart = 0x1234;
    assert_int_equal(IDXGIAdapter1_CheckInterfaceSupport(adapter, &IID_ID3D11Device, &version),
                     DXGI_ERROR_UNSUPPORTED);
    assert_int_equal(version.QuadPart, 0x1234);

    /* The adapter holds its factory: the factory lives until both are released. */
    ULONG f_refs = refcount((IUnknown *)factory);
    IDXGIAdapter1_Release(adapter);
    assert_int_equal(refcount((IUnknown *)factory), f_refs - 1);
    IDXGIFactory1_Release(factory);

    /* Creation refusals. */
    void *p = (void *)(uintptr_t)1;
    assert_int_equal(CreateDXGIFactory(&IID_ID3D11Device, &p), E_NOINTERFACE);
    assert_null(p);
    assert_int_equal(CreateDXGIFactory2(0x8000, &IID_IDXGIFactory2, &p), E_INVALIDARG);
    assert_int_equal(CreateDXGIFactory2(DXGI_CREATE_FACTORY_DEBUG, &IID_IDXGIFactory3, &p), S_OK);
    assert_int_equal(IDXGIFactory3_GetCreationFlags((IDXGIFactory3 *)p), DXGI_CREATE_FACTORY_DEBUG);
    IDXGIFactory3_Release((IDXGIFactory3 *)p);
}

static IDXGIAdapter *first_adapter(IDXGIFactory **factory)
{
    assert_int_equal(CreateDXGIFactory(&IID_IDXGIFactory, (void **)factory), S_OK);
    IDXGIAdapter *adapter = NULL;
    assert_int_equal(IDXGIFactory_EnumAdapters(*factory, 0, &adapter), S_OK);
    return adapter;
}

/* D3D11CreateDevice on an explicit adapter: only with D3D_DRIVER_TYPE_UNKNOWN; the device
 * works (a GPU copy reads back) and its DXGI face hands back that very adapter. */
/* rule: runtime.d3d11createdevice-makes-device-adapter (a GPU copy reads back on it) */
/* rule: dxgi.device-dxgi-face-same-object */
static void device_on_an_explicit_adapter(void **state)
{
    (void)state;
    IDXGIFactory *factory = NULL;
    IDXGIAdapter *adapter = first_adapter(&factory);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, NULL), E_INVALIDARG);
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, NULL), E_INVALIDARG);
    assert_int_equal(D3D11CreateDevice((IDXGIAdapter *)factory, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0,
                                       D3D11_SDK_VERSION, &dev, NULL, NULL), E_INVALIDARG);
    assert_int_equal(D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, &ctx), S_OK);

    D3D11_BUFFER_DESC bd = { .ByteWidth = 4096, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Buffer *gpu = NULL, *staging = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &gpu), S_OK);
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &staging), S_OK);
    BYTE data[4096];
    e2e_fill(data, sizeof data, 15);
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)gpu, 0, NULL, data, 0, 0);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)gpu);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, data, sizeof data);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);

    IDXGIDevice *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    IDXGIAdapter *got = NULL;
    assert_int_equal(IDXGIDevice_GetAdapter(dxgi, &got), S_OK);
    assert_ptr_equal(got, adapter);
    IDXGIAdapter_Release(got);
    IDXGIDevice_Release(dxgi);

    ID3D11Buffer_Release(staging);
    ID3D11Buffer_Release(gpu);
    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
    IDXGIAdapter_Release(adapter);
    assert_int_equal(IDXGIFactory_Release(factory), 0);
}

/* The DXGI face is the same object: QueryInterface both ways, one reference count, one
 * private-data store; GetAdapter and GetParent give one adapter object; frame latency and GPU
 * thread priority keep Windows' ranges, and the priority reaches every kernel context. */
/* rule: dxgi.device-dxgi-face-same-object */
/* rule: dxgi.setgputhreadpriority-7-7-else-e (the shim UMD records the kernel contexts; `D3DKMTGetContextSchedulingPriority` answers 5) */
/* rule: dxgi.setmaximumframelatency-above-16-dxgi */
static void the_device_s_dxgi_face(void **state)
{
    struct e2e *e = *state;
    IDXGIDevice1 *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice1, (void **)&dxgi), S_OK);
    ID3D11Device *back = NULL;
    assert_int_equal(IDXGIDevice1_QueryInterface(dxgi, &IID_ID3D11Device, (void **)&back), S_OK);
    assert_ptr_equal(back, e->dev);
    assert_int_equal(refcount((IUnknown *)dxgi), refcount((IUnknown *)e->dev));
    ID3D11Device_Release(back);

    static const GUID key = { 0x3e1f0b7d, 0x2a64, 0x4c59, { 0x8b, 0x0e, 0x71, 0x9d, 0x44, 0xa2, 0x13, 0x6c } };
    UINT32 v = 77, out = 0;
    UINT sz = sizeof out;
    assert_int_equal(ID3D11Device_SetPrivateData(e->dev, &key, sizeof v, &v), S_OK);
    assert_int_equal(IDXGIDevice1_GetPrivateData(dxgi, &key, &sz, &out), S_OK);
    assert_int_equal(out, 77);

    IDXGIAdapter *a1 = NULL, *a2 = NULL;
    assert_int_equal(IDXGIDevice1_GetAdapter(dxgi, &a1), S_OK);
    assert_int_equal(IDXGIDevice1_GetParent(dxgi, &IID_IDXGIAdapter, (void **)&a2), S_OK);
    assert_ptr_equal(a1, a2);
    assert_int_equal(IDXGIDevice1_GetAdapter(dxgi, NULL), E_INVALIDARG);
    IDXGIAdapter_Release(a2);
    IDXGIAdapter_Release(a1);

    UINT latency = 0;
    assert_int_equal(IDXGIDevice1_GetMaximumFrameLatency(dxgi, &latency), S_OK);
    assert_int_equal(latency, 3);
    assert_int_equal(IDXGIDevice1_SetMaximumFrameLatency(dxgi, 17), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(IDXGIDevice1_SetMaximumFrameLatency(dxgi, 16), S_OK);
    assert_int_equal(IDXGIDevice1_GetMaximumFrameLatency(dxgi, &latency), S_OK);
    assert_int_equal(latency, 16);
    assert_int_equal(IDXGIDevice1_SetMaximumFrameLatency(dxgi, 0), S_OK);
    assert_int_equal(IDXGIDevice1_GetMaximumFrameLatency(dxgi, &latency), S_OK);
    assert_int_equal(latency, 3);
    assert_int_equal(IDXGIDevice1_GetMaximumFrameLatency(dxgi, NULL), DXGI_ERROR_INVALID_CALL);

    /* Make the UMD create its contexts (a copy), then set the priority: every context the shim
     * saw the UMD create runs at it in the kernel. */
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Buffer *a = NULL, *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &a), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b), S_OK);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)a, (ID3D11Resource *)b);
    ID3D11DeviceContext_Flush(e->ctx);
    assert_true(shim_sub.context_count >= 1);
    INT prio = 99;
    assert_int_equal(IDXGIDevice1_SetGPUThreadPriority(dxgi, 8), E_INVALIDARG);
    assert_int_equal(IDXGIDevice1_SetGPUThreadPriority(dxgi, -8), E_INVALIDARG);
    assert_int_equal(IDXGIDevice1_SetGPUThreadPriority(dxgi, 5), S_OK);
    assert_int_equal(IDXGIDevice1_GetGPUThreadPriority(dxgi, &prio), S_OK);
    assert_int_equal(prio, 5);
    for (UINT i = 0; i < shim_sub.context_count; i++) {
        D3DKMT_GETCONTEXTSCHEDULINGPRIORITY g = { .hContext = shim_sub.contexts[i] };
        assert_int_equal(D3DKMTGetContextSchedulingPriority(&g), STATUS_SUCCESS);
        assert_int_equal(g.Priority, 5);
    }
    ID3D11Buffer_Release(b);
    ID3D11Buffer_Release(a);

    IDXGIDevice3 *d3 = NULL;
    assert_int_equal(IDXGIDevice1_QueryInterface(dxgi, &IID_IDXGIDevice3, (void **)&d3), S_OK);
    IDXGIDevice3_Trim(d3);
    IDXGIDevice3_Release(d3);
    IDXGIDevice1_Release(dxgi);
}

/* IDXGIAdapter3's budgets are VidMm's: the answer follows a reservation and the usage follows
 * what a device of the adapter allocates. */
/* rule: dxgi.idxgiadapter3-queryvideomemoryinfo (the reservation reads back; 2 MiB placed by a device of the adapter raise `CurrentUsage`) */
static void adapter3_budgets_are_vidmm_s(void **state)
{
    (void)state;
    IDXGIFactory *factory = NULL;
    IDXGIAdapter *adapter = first_adapter(&factory);
    IDXGIAdapter3 *a3 = NULL;
    assert_int_equal(IDXGIAdapter_QueryInterface(adapter, &IID_IDXGIAdapter3, (void **)&a3), S_OK);

    DXGI_QUERY_VIDEO_MEMORY_INFO local, nonlocal;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &local), S_OK);
    assert_true(local.Budget >= local.AvailableForReservation);
    assert_true(local.Budget > 0);
    assert_true(local.CurrentReservation == 0);
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL, &nonlocal), S_OK);
    assert_true(nonlocal.Budget >= nonlocal.AvailableForReservation);
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, (DXGI_MEMORY_SEGMENT_GROUP)2, &local), E_INVALIDARG);
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 1, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &local), E_INVALIDARG);
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, NULL), E_INVALIDARG);

    UINT64 want = local.AvailableForReservation / 2;
    assert_int_equal(IDXGIAdapter3_SetVideoMemoryReservation(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, want), S_OK);
    DXGI_QUERY_VIDEO_MEMORY_INFO now;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &now), S_OK);
    assert_true(now.CurrentReservation == want);
    assert_int_equal(IDXGIAdapter3_SetVideoMemoryReservation(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL,
                                                             local.AvailableForReservation + 1), E_INVALIDARG);
    assert_int_equal(IDXGIAdapter3_SetVideoMemoryReservation(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, 0), S_OK);

    /* A device of this adapter places 1 MiB in local memory (in the IoMmu model, which has none,
     * in system memory: the non-local group): the process's usage grows. */
    DXGI_MEMORY_SEGMENT_GROUP used = e2e_iommu() ? DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL : DXGI_MEMORY_SEGMENT_GROUP_LOCAL;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(adapter, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev,
                                       NULL, &ctx), S_OK);
    DXGI_QUERY_VIDEO_MEMORY_INFO before;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, used, &before), S_OK);
    D3D11_BUFFER_DESC bd = { .ByteWidth = 1u << 20, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Buffer *big = NULL, *other = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &big), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &other), S_OK);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)big, (ID3D11Resource *)other); /* makes both resident */
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(dev, &qd, &q), S_OK);
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    while (ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0) != S_OK)
        ;
    DXGI_QUERY_VIDEO_MEMORY_INFO after;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, used, &after), S_OK);
    assert_true(after.CurrentUsage >= before.CurrentUsage + (2u << 20));
    ID3D11Query_Release(q);
    ID3D11Buffer_Release(other);
    ID3D11Buffer_Release(big);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);

    IDXGIAdapter3_Release(a3);
    IDXGIAdapter_Release(adapter);
    IDXGIFactory_Release(factory);
}

/* A one-mip, one-slice 2D texture's IDXGISurface face: its description, its parent (the
 * device's IDXGIDevice), Map / Unmap of its bytes through the GPU path; other resources have no
 * such face. */
/* rule: dxgi.one-mip-one-slice-1d-2d (bytes written through one surface come back through another after two GPU copies) */
static void a_texture_s_surface_face(void **state)
{
    struct e2e *e = *state;
    enum { W = 64, H = 16 };
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_STAGING,
                                .CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE };
    ID3D11Texture2D *up = NULL, *back = NULL, *gpu = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &up), S_OK);
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &back), S_OK);
    td.Usage = D3D11_USAGE_DEFAULT;
    td.CPUAccessFlags = 0;
    td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &gpu), S_OK);

    IDXGISurface *s_up = NULL, *s_back = NULL, *s_gpu = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(up, &IID_IDXGISurface, (void **)&s_up), S_OK);
    assert_int_equal(ID3D11Texture2D_QueryInterface(back, &IID_IDXGISurface, (void **)&s_back), S_OK);
    assert_int_equal(ID3D11Texture2D_QueryInterface(gpu, &IID_IDXGISurface, (void **)&s_gpu), S_OK);
    DXGI_SURFACE_DESC sd;
    assert_int_equal(IDXGISurface_GetDesc(s_up, &sd), S_OK);
    assert_int_equal(sd.Width, W);
    assert_int_equal(sd.Height, H);
    assert_int_equal(sd.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(sd.SampleDesc.Count, 1);

    IDXGIDevice *dxgi = NULL, *parent = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    assert_int_equal(IDXGISurface_GetParent(s_up, &IID_IDXGIDevice, (void **)&parent), S_OK);
    assert_ptr_equal(parent, dxgi);
    IDXGIDevice_Release(parent);
    IDXGIDevice_Release(dxgi);

    /* Write through the surface, copy on the GPU there and back, read through the surface. */
    BYTE want[W * 4 * H];
    e2e_fill(want, sizeof want, 21);
    DXGI_MAPPED_RECT r;
    assert_int_equal(IDXGISurface_Map(s_up, &r, 0), E_INVALIDARG);
    assert_int_equal(IDXGISurface_Map(s_up, NULL, DXGI_MAP_WRITE), E_INVALIDARG);
    assert_int_equal(IDXGISurface_Map(s_up, &r, DXGI_MAP_WRITE), S_OK);
    for (UINT y = 0; y < H; y++)
        memcpy(r.pBits + (size_t)y * (size_t)r.Pitch, want + y * W * 4, W * 4);
    assert_int_equal(IDXGISurface_Unmap(s_up), S_OK);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)gpu, (ID3D11Resource *)up);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)back, (ID3D11Resource *)gpu);
    assert_int_equal(IDXGISurface_Map(s_back, &r, DXGI_MAP_READ), S_OK);
    for (UINT y = 0; y < H; y++)
        assert_memory_equal(r.pBits + (size_t)y * (size_t)r.Pitch, want + y * W * 4, W * 4);
    assert_int_equal(IDXGISurface_Unmap(s_back), S_OK);
    /* A texture the CPU cannot reach is refused by the D3D11 Map beneath. */
    assert_int_equal(IDXGISurface_Map(s_gpu, &r, DXGI_MAP_READ), E_INVALIDARG);

    IDXGISurface_Release(s_gpu);
    IDXGISurface_Release(s_back);
    IDXGISurface_Release(s_up);
    ID3D11Texture2D_Release(gpu);
    ID3D11Texture2D_Release(back);
    ID3D11Texture2D_Release(up);

    /* No face: a mip chain, two slices, a 3D texture, a buffer. */
    IDXGISurface *none = NULL;
    td.MipLevels = 0;
    ID3D11Texture2D *t2 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &t2), S_OK);
    assert_int_equal(ID3D11Texture2D_QueryInterface(t2, &IID_IDXGISurface, (void **)&none), E_NOINTERFACE);
    ID3D11Texture2D_Release(t2);
    td.MipLevels = 1;
    td.ArraySize = 2;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &t2), S_OK);
    assert_int_equal(ID3D11Texture2D_QueryInterface(t2, &IID_IDXGISurface, (void **)&none), E_NOINTERFACE);
    ID3D11Texture2D_Release(t2);
    D3D11_TEXTURE3D_DESC t3d = { .Width = 8, .Height = 8, .Depth = 2, .MipLevels = 1,
                                 .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .Usage = D3D11_USAGE_DEFAULT,
                                 .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture3D *t3 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture3D(e->dev, &t3d, NULL, &t3), S_OK);
    assert_int_equal(ID3D11Texture3D_QueryInterface(t3, &IID_IDXGISurface, (void **)&none), E_NOINTERFACE);
    ID3D11Texture3D_Release(t3);
    assert_null(none);
}

/* VidMm's priority of an allocation of the device the test set up last, asked of the kernel with
 * that device's kernel handle (kmt_spy.h). */
static UINT kernel_priority(D3DKMT_HANDLE al)
{
    UINT prio = 0;
    D3DKMT_GETALLOCATIONPRIORITY g = { .hDevice = kmt_spy.last_device, .phAllocationList = &al,
                                       .AllocationCount = 1, .pPriorities = &prio };
    assert_int_equal(D3DKMTGetAllocationPriority(&g), STATUS_SUCCESS);
    return prio;
}

/* One eviction priority for both faces of a resource, and it is VidMm's priority of the
 * resource's allocation (D3DKMTSetAllocationPriority through its kernel resource). */
/* rule: runtime.setevictionpriority-through (the shim records the allocation; the kernel holds MAXIMUM, then LOW; mutation-checked) */
/* rule: dxgi.idxgidevice-createsurface-numsurfaces */
static void eviction_priority_reaches_vidmm(void **state)
{
    struct e2e *e = *state;
    D3D11_TEXTURE2D_DESC td = { .Width = 256, .Height = 256, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture2D *tex = NULL;
    shim_sub.last_allocation = 0;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &tex), S_OK);
    D3DKMT_HANDLE al = shim_sub.last_allocation;
    assert_true(al != 0);
    assert_true(shim_sub.last_km_resource != 0);
    IDXGIResource *dxgi = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_IDXGIResource, (void **)&dxgi), S_OK);

    ID3D11Texture2D_SetEvictionPriority(tex, DXGI_RESOURCE_PRIORITY_MAXIMUM);
    UINT prio = 0;
    assert_int_equal(IDXGIResource_GetEvictionPriority(dxgi, &prio), S_OK);
    assert_int_equal(prio, DXGI_RESOURCE_PRIORITY_MAXIMUM);
    assert_int_equal(kernel_priority(al), D3DDDI_ALLOCATIONPRIORITY_MAXIMUM);

    assert_int_equal(IDXGIResource_SetEvictionPriority(dxgi, DXGI_RESOURCE_PRIORITY_LOW), S_OK);
    assert_int_equal(ID3D11Texture2D_GetEvictionPriority(tex), DXGI_RESOURCE_PRIORITY_LOW);
    assert_int_equal(kernel_priority(al), D3DDDI_ALLOCATIONPRIORITY_LOW);

    /* Its parent is the device's IDXGIDevice, as the surface's is. */
    IDXGIDevice *parent = NULL, *dev_dxgi = NULL;
    assert_int_equal(IDXGIResource_GetParent(dxgi, &IID_IDXGIDevice, (void **)&parent), S_OK);
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice, (void **)&dev_dxgi), S_OK);
    assert_ptr_equal(parent, dev_dxgi);
    IDXGIDevice_Release(dev_dxgi);
    IDXGIDevice_Release(parent);

    IDXGIResource_Release(dxgi);
    ID3D11Texture2D_Release(tex);
}

/* D3D11CreateDeviceAndSwapChain links; asked for a swap chain it makes nothing (E_NOTIMPL, NULL
 * outputs); without one it is D3D11CreateDevice. */
/* rule: runtime.d3d11createdeviceandswapchain-links */
static void create_device_and_swap_chain(void **state)
{
    (void)state;
    DXGI_SWAP_CHAIN_DESC sc;
    memset(&sc, 0, sizeof sc);
    sc.BufferCount = 2;
    sc.BufferDesc.Width = 64;
    sc.BufferDesc.Height = 64;
    sc.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    sc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    sc.SampleDesc.Count = 1;
    sc.Windowed = TRUE;
    IDXGISwapChain *chain = (IDXGISwapChain *)(uintptr_t)1;
    ID3D11Device *dev = (ID3D11Device *)(uintptr_t)1;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                                                   &sc, &chain, &dev, NULL, &ctx), E_NOTIMPL);
    assert_null(chain);
    assert_null(dev);
    assert_null(ctx);
    assert_int_equal(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                                                   NULL, NULL, &dev, NULL, &ctx), S_OK);
    assert_non_null(dev);
    assert_non_null(ctx);
    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
}

/* IDXGIDevice::CreateSurface makes one-mip 2D textures of the description, bind flags from the
 * DXGI usage, CPU access from its low bits; all or none. */
/* rule: dxgi.idxgidevice-createsurface-numsurfaces (mutation-checked) */
/* rule: dxgi.idxgiresource-getusage-answers-resource */
static void dxgi_device_creates_surfaces(void **state)
{
    struct e2e *e = *state;
    IDXGIDevice *dxgi = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    DXGI_SURFACE_DESC sd = { .Width = 32, .Height = 8, .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 } };
    IDXGISurface *s[2] = { NULL, NULL };
    assert_int_equal(IDXGIDevice_CreateSurface(dxgi, &sd, 2, DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_SHADER_INPUT,
                                               NULL, s), S_OK);
    for (int i = 0; i < 2; i++) {
        ID3D11Texture2D *tex = NULL;
        assert_int_equal(IDXGISurface_QueryInterface(s[i], &IID_ID3D11Texture2D, (void **)&tex), S_OK);
        D3D11_TEXTURE2D_DESC td;
        ID3D11Texture2D_GetDesc(tex, &td);
        assert_int_equal(td.Width, 32);
        assert_int_equal(td.MipLevels, 1);
        assert_int_equal(td.BindFlags, D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
        assert_int_equal(td.Usage, D3D11_USAGE_DEFAULT);
        IDXGIDevice *parent = NULL;
        assert_int_equal(IDXGISurface_GetParent(s[i], &IID_IDXGIDevice, (void **)&parent), S_OK);
        assert_ptr_equal(parent, dxgi);
        IDXGIDevice_Release(parent);
        /* IDXGIResource::GetUsage gives back the usage the surface was made with. */
        IDXGIResource *r = NULL;
        assert_int_equal(IDXGISurface_QueryInterface(s[i], &IID_IDXGIResource, (void **)&r), S_OK);
        DXGI_USAGE u = 0;
        assert_int_equal(IDXGIResource_GetUsage(r, &u), S_OK);
        assert_int_equal(u, DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_SHADER_INPUT);
        assert_int_equal(IDXGIResource_GetUsage(r, NULL), E_INVALIDARG);
        IDXGIResource_Release(r);
        ID3D11Texture2D_Release(tex);
        IDXGISurface_Release(s[i]);
    }
    assert_true(s[0] != s[1]);

    /* READ_WRITE CPU access: a staging surface the CPU maps. */
    IDXGISurface *rw = NULL;
    assert_int_equal(IDXGIDevice_CreateSurface(dxgi, &sd, 1, DXGI_CPU_ACCESS_READ_WRITE, NULL, &rw), S_OK);
    IDXGIResource *rwres = NULL;
    assert_int_equal(IDXGISurface_QueryInterface(rw, &IID_IDXGIResource, (void **)&rwres), S_OK);
    DXGI_USAGE rwu = 0;
    assert_int_equal(IDXGIResource_GetUsage(rwres, &rwu), S_OK);
    assert_int_equal(rwu, DXGI_CPU_ACCESS_READ_WRITE);
    IDXGIResource_Release(rwres);
    DXGI_MAPPED_RECT r;
    assert_int_equal(IDXGISurface_Map(rw, &r, DXGI_MAP_READ | DXGI_MAP_WRITE), S_OK);
    r.pBits[0] = 0x5a;
    assert_int_equal(IDXGISurface_Unmap(rw), S_OK);
    IDXGISurface_Release(rw);

    /* Refusals leave nothing behind. */
    IDXGISurface *none[2] = { (IDXGISurface *)(uintptr_t)1, (IDXGISurface *)(uintptr_t)1 };
    assert_int_equal(IDXGIDevice_CreateSurface(dxgi, &sd, 0, DXGI_USAGE_SHADER_INPUT, NULL, none), E_INVALIDARG);
    DXGI_SHARED_RESOURCE shared = { .Handle = NULL };
    assert_int_equal(IDXGIDevice_CreateSurface(dxgi, &sd, 1, DXGI_USAGE_SHADER_INPUT, &shared, none), E_NOTIMPL);
    sd.Format = DXGI_FORMAT_UNKNOWN;
    assert_int_equal(IDXGIDevice_CreateSurface(dxgi, &sd, 2, DXGI_USAGE_SHADER_INPUT, NULL, none), E_INVALIDARG);
    assert_null(none[0]);
    IDXGIDevice_Release(dxgi);
}

/* DXGI_ADAPTER_DESC2's preemption granularity is the KMD's (DXGK_DRIVERCAPS.PreemptionCaps,
 * passed on by the kernel as KMTQAITYPE_WDDM_1_2_CAPS): D3DKMDT_*_PREEMPTION_* 100..500 are
 * DXGI_*_PREEMPTION_* 0..4 (the reference KMD reports PRIMITIVE / DISPATCH boundaries). */
/* rule: kernel.dxgi-adapter-desc2 (both models) */
static void adapter_desc2_reports_the_kmd_preemption(void **state)
{
    (void)state;
    IDXGIFactory1 *f = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&f), S_OK);
    IDXGIAdapter1 *a1 = NULL;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(f, 0, &a1), S_OK);
    IDXGIAdapter2 *a2 = NULL;
    assert_int_equal(IDXGIAdapter1_QueryInterface(a1, &IID_IDXGIAdapter2, (void **)&a2), S_OK);
    DXGI_ADAPTER_DESC2 d;
    assert_int_equal(IDXGIAdapter2_GetDesc2(a2, &d), S_OK);

    D3DKMT_OPENADAPTERFROMLUID oa = { .AdapterLuid = d.AdapterLuid };
    assert_true(NT_SUCCESS(D3DKMTOpenAdapterFromLuid(&oa)));
    D3DKMT_WDDM_1_2_CAPS caps;
    DXGK_DRIVERCAPS kmd;
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = oa.hAdapter, .Type = KMTQAITYPE_WDDM_1_2_CAPS,
                                  .pPrivateDriverData = &caps, .PrivateDriverDataSize = sizeof caps };
    assert_true(NT_SUCCESS(D3DKMTQueryAdapterInfo(&q)));
    q.Type = KMTQAITYPE_WDDM_DRIVERCAPS;
    q.pPrivateDriverData = &kmd;
    q.PrivateDriverDataSize = sizeof kmd;
    assert_true(NT_SUCCESS(D3DKMTQueryAdapterInfo(&q)));
    assert_int_equal(caps.PreemptionCaps.GraphicsPreemptionGranularity, kmd.PreemptionCaps.GraphicsPreemptionGranularity);
    assert_int_equal(caps.PreemptionCaps.ComputePreemptionGranularity, kmd.PreemptionCaps.ComputePreemptionGranularity);
    assert_int_equal(caps.SupportPerEngineTDR, kmd.SupportPerEngineTDR ? 1 : 0);
    q.Type = KMTQAITYPE_WDDM_1_2_CAPS;
    q.PrivateDriverDataSize = sizeof caps - 1;
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = oa.hAdapter };
    assert_true(NT_SUCCESS(D3DKMTCloseAdapter(&ca)));

    assert_int_equal(d.GraphicsPreemptionGranularity, kmd.PreemptionCaps.GraphicsPreemptionGranularity / 100 - 1);
    assert_int_equal(d.ComputePreemptionGranularity, kmd.PreemptionCaps.ComputePreemptionGranularity / 100 - 1);
    if (kmd.PreemptionCaps.GraphicsPreemptionGranularity == D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY)
        assert_int_equal(d.GraphicsPreemptionGranularity, DXGI_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY);
    IDXGIAdapter2_Release(a2);
    IDXGIAdapter1_Release(a1);
    IDXGIFactory1_Release(f);
}

/* RegisterVideoMemoryBudgetChangeNotificationEvent: the event is set when VidMm changes the
 * budget (other processes' use, the test control wddm_vidmm_set_external_usage), and the new
 * budget is what QueryVideoMemoryInfo answers; unregistered, it is no longer set. */
/* rule: dxgi.idxgiadapter3 */
/* rule: vidmm.dxgi-adapter-opens-device-for-budget (registrations and events on an adapter with no D3D device) */
static void adapter3_budget_change_sets_the_registered_event(void **state)
{
    (void)state;
    IDXGIFactory *factory = NULL;
    IDXGIAdapter *adapter = first_adapter(&factory);
    IDXGIAdapter3 *a3 = NULL;
    assert_int_equal(IDXGIAdapter_QueryInterface(adapter, &IID_IDXGIAdapter3, (void **)&a3), S_OK);
    D3DKMT_ADAPTERINFO info[8];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 8, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    DXGI_QUERY_VIDEO_MEMORY_INFO before, after;
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &before), S_OK);

    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    DWORD cookie = 0;
    assert_int_equal(IDXGIAdapter3_RegisterVideoMemoryBudgetChangeNotificationEvent(a3, ev, &cookie), S_OK);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    UINT64 others = before.Budget / 4;
    assert_int_equal(wddm_vidmm_set_external_usage(info[0].hAdapter, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, others),
                     STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
    assert_int_equal(IDXGIAdapter3_QueryVideoMemoryInfo(a3, 0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &after), S_OK);
    assert_true(after.Budget == before.Budget - others);
    /* The application may close its handle first: the runtime keeps the event. */
    assert_true(CloseHandle(ev));
    assert_int_equal(wddm_vidmm_set_external_usage(info[0].hAdapter, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, 0),
                     STATUS_SUCCESS);
    IDXGIAdapter3_UnregisterVideoMemoryBudgetChangeNotification(a3, cookie);
    /* Unregistered: not set any more. */
    HANDLE ev2 = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD cookie2 = 0;
    assert_int_equal(IDXGIAdapter3_RegisterVideoMemoryBudgetChangeNotificationEvent(a3, ev2, &cookie2), S_OK);
    assert_int_not_equal(cookie2, cookie);
    IDXGIAdapter3_UnregisterVideoMemoryBudgetChangeNotification(a3, cookie2);
    assert_int_equal(wddm_vidmm_set_external_usage(info[0].hAdapter, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, others),
                     STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev2, 0), WAIT_TIMEOUT);
    assert_int_equal(wddm_vidmm_set_external_usage(info[0].hAdapter, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, 0),
                     STATUS_SUCCESS);
    /* Bad arguments. */
    assert_int_equal(IDXGIAdapter3_RegisterVideoMemoryBudgetChangeNotificationEvent(a3, ev2, NULL), E_INVALIDARG);
    assert_int_equal(IDXGIAdapter3_RegisterVideoMemoryBudgetChangeNotificationEvent(a3, NULL, &cookie), E_INVALIDARG);
    IDXGIAdapter3_UnregisterVideoMemoryBudgetChangeNotification(a3, 12345); /* not registered: harmless */
    /* Left registered: goes with the adapter object. */
    assert_int_equal(IDXGIAdapter3_RegisterVideoMemoryBudgetChangeNotificationEvent(a3, ev2, &cookie2), S_OK);
    assert_true(CloseHandle(ev2));
    for (UINT i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
    }
    IDXGIAdapter3_Release(a3);
    IDXGIAdapter_Release(adapter);
    IDXGIFactory_Release(factory);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(factory_enumerates_the_kernel_adapters),
        cmocka_unit_test(device_on_an_explicit_adapter),
        cmocka_unit_test_setup_teardown(the_device_s_dxgi_face, shim_setup, e2e_teardown),
        cmocka_unit_test(adapter3_budgets_are_vidmm_s),
        cmocka_unit_test_setup_teardown(a_texture_s_surface_face, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(eviction_priority_reaches_vidmm, shim_setup, e2e_teardown),
        cmocka_unit_test(create_device_and_swap_chain),
        cmocka_unit_test_setup_teardown(dxgi_device_creates_surfaces, e2e_setup, e2e_teardown),
        cmocka_unit_test(adapter_desc2_reports_the_kmd_preemption),
        cmocka_unit_test(adapter3_budget_change_sets_the_registered_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
