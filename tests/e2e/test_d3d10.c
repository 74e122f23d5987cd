/*
 * test_d3d10.c - the Direct3D 10 API end to end (issue 15 §1): ID3D10Device / ID3D10Device1
 * from D3D10CreateDevice(1), its resources, Map on the resource, copies, clears and event
 * queries, with real data through the runtime, the UMD (D3D10 DDI), the kernel, the KMD and
 * the software GPU. Windows' answers: the D3D10 API reference (D3D10CreateDevice,
 * D3D10CreateDevice1, ID3D10Multithread, ID3D10Texture2D::Map, D3D10_MAP_FLAG) and Wine's
 * dlls/d3d10core/tests/d3d10core.c, which runs on Windows (test_device_interfaces,
 * test_create_texture1d/2d/3d, test_texture1d/2d_interfaces, test_resource_map,
 * test_create_query, test_multithread); seed 001's D3D10 Map rows. Where Windows versions
 * differ, Windows 8 and later (D3D10 layered over the D3D11 core). docs/rules/d3d10.md.
 */
#include "e2e/e2e.h"

#include <d3d10_1.h>
#include <dxgi.h>
#include <time.h>

#define POISON ((void *)(uintptr_t)0xdeadbeef)

struct t10 {
    ID3D10Device *dev;
};

static int setup10(void **state)
{
    struct t10 *t = calloc(1, sizeof *t);
    HRESULT hr = D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &t->dev);
    if (FAILED(hr)) {
        fprintf(stderr, "D3D10CreateDevice failed: 0x%08x\n", (unsigned)hr);
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static int teardown10(void **state)
{
    struct t10 *t = *state;
    wddm_swgpu_set_paused(0); /* a failed test must not leave the GPU paused */
    ULONG left = ID3D10Device_Release(t->dev);
    free(t);
    assert_int_equal(left, 0); /* every child released, no reference leaked */
    return 0;
}

static ULONG refcount(void *obj)
{
    IUnknown *u = obj;
    u->lpVtbl->AddRef(u);
    return u->lpVtbl->Release(u);
}

static void check_iface(void *obj, REFIID iid, BOOL supported)
{
    IUnknown *out = POISON;
    HRESULT hr = ((IUnknown *)obj)->lpVtbl->QueryInterface((IUnknown *)obj, iid, (void **)&out);
    assert_int_equal(hr, supported ? S_OK : E_NOINTERFACE);
    if (supported)
        out->lpVtbl->Release(out);
    else
        assert_null(out);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };
    nanosleep(&ts, NULL);
}

static ID3D10Buffer *buffer10(ID3D10Device *dev, UINT size, D3D10_USAGE usage, UINT bind, UINT cpu,
                              const void *init)
{
    D3D10_BUFFER_DESC bd = { size, usage, bind, cpu, 0 };
    D3D10_SUBRESOURCE_DATA sd = { init, 0, 0 };
    ID3D10Buffer *b = NULL;
    assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, init ? &sd : NULL, &b), S_OK);
    return b;
}

static ID3D10Texture2D *texture2d10(ID3D10Device *dev, UINT w, UINT h, D3D10_USAGE usage, UINT bind, UINT cpu,
                                    const D3D10_SUBRESOURCE_DATA *init)
{
    D3D10_TEXTURE2D_DESC td = { w, h, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, usage, bind, cpu, 0 };
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &td, init, &t), S_OK);
    return t;
}

/* Creation (D3D10CreateDevice / D3D10CreateDevice1 reference): a wrong SDKVersion is
 * E_INVALIDARG with *ppDevice NULL; D3D10CreateDevice1 answers the level it was asked, and its
 * ID3D10Device1::CreateShaderResourceView1 takes a 10.1 description that GetDesc1 hands back;
 * an explicit DXGI adapter goes with DriverType HARDWARE (not UNKNOWN, unlike D3D11) and the
 * device's DXGI face hands that adapter back. */
static void creation_answers(void **state)
{
    (void)state;
    ID3D10Device *dev = POISON;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION + 1, &dev),
                     E_INVALIDARG);
    assert_null(dev);

    ID3D10Device1 *dev1 = NULL;
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_1,
                                        D3D10_1_SDK_VERSION, &dev1), S_OK);
    assert_int_equal(ID3D10Device1_GetFeatureLevel(dev1), D3D10_FEATURE_LEVEL_10_1);
    ID3D11Device *d11 = NULL;
    assert_int_equal(ID3D10Device1_QueryInterface(dev1, &IID_ID3D11Device, (void **)&d11), S_OK);
    assert_int_equal(ID3D11Device_GetFeatureLevel(d11), D3D_FEATURE_LEVEL_10_1);
    ID3D11Device_Release(d11);
    D3D10_TEXTURE2D_DESC td = { 16, 16, 3, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture2D *tex = NULL;
    assert_int_equal(ID3D10Device1_CreateTexture2D(dev1, &td, NULL, &tex), S_OK);
    D3D10_SHADER_RESOURCE_VIEW_DESC1 d = { .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
                                           .ViewDimension = D3D10_1_SRV_DIMENSION_TEXTURE2D,
                                           .Texture2D = { .MostDetailedMip = 1, .MipLevels = 2 } };
    ID3D10ShaderResourceView1 *srv = NULL;
    assert_int_equal(ID3D10Device1_CreateShaderResourceView1(dev1, (ID3D10Resource *)tex, &d, &srv), S_OK);
    D3D10_SHADER_RESOURCE_VIEW_DESC1 sd;
    memset(&sd, 0xcc, sizeof sd);
    ID3D10ShaderResourceView1_GetDesc1(srv, &sd);
    assert_int_equal(sd.ViewDimension, D3D10_1_SRV_DIMENSION_TEXTURE2D);
    assert_int_equal(sd.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(sd.Texture2D.MostDetailedMip, 1);
    assert_int_equal(sd.Texture2D.MipLevels, 2);
    ID3D10ShaderResourceView1_Release(srv);
    ID3D10Texture2D_Release(tex);
    assert_int_equal(ID3D10Device1_Release(dev1), 0);

    IDXGIFactory1 *factory = NULL;
    assert_int_equal(CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&factory), S_OK);
    IDXGIAdapter1 *adapter = NULL;
    assert_int_equal(IDXGIFactory1_EnumAdapters1(factory, 0, &adapter), S_OK);
    dev = NULL;
    assert_int_equal(D3D10CreateDevice((IDXGIAdapter *)adapter, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0,
                                       D3D10_SDK_VERSION, &dev), S_OK);
    IDXGIDevice *dxgi = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    IDXGIAdapter *got = NULL;
    assert_int_equal(IDXGIDevice_GetAdapter(dxgi, &got), S_OK);
    assert_ptr_equal(got, adapter);
    IDXGIAdapter_Release(got);
    IDXGIDevice_Release(dxgi);
    assert_int_equal(ID3D10Device_Release(dev), 0);
    IDXGIAdapter1_Release(adapter);
    assert_int_equal(IDXGIFactory1_Release(factory), 0);
}

/* The device's faces (test_device_interfaces, Windows 8+): IUnknown, IDXGIObject, IDXGIDevice,
 * IDXGIDevice1, ID3D10Multithread, ID3D10Device1 and ID3D11Device all answer, one object with
 * one reference count; IDXGIDevice::GetParent gives the adapter; the ID3D11Device face of a
 * D3D10CreateDevice device is at feature level 10_0. */
static void device_faces(void **state)
{
    struct t10 *t = *state;
    const IID *faces[] = { &IID_IUnknown, &IID_IDXGIObject, &IID_IDXGIDevice, &IID_IDXGIDevice1,
                           &IID_ID3D10Multithread, &IID_ID3D10Device1, &IID_ID3D11Device };
    for (size_t i = 0; i < sizeof faces / sizeof faces[0]; i++)
        check_iface(t->dev, faces[i], TRUE);
    check_iface(t->dev, &IID_ID3D10Texture2D, FALSE);

    ID3D11Device *d11 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(t->dev, &IID_ID3D11Device, (void **)&d11), S_OK);
    assert_int_equal(ID3D11Device_GetFeatureLevel(d11), D3D_FEATURE_LEVEL_10_0);
    assert_int_equal(refcount(d11), refcount(t->dev));
    ID3D10Device *back = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(d11, &IID_ID3D10Device, (void **)&back), S_OK);
    assert_ptr_equal(back, t->dev);
    ID3D10Device_Release(back);
    ID3D11Device_Release(d11);

    IDXGIDevice *dxgi = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(t->dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    IDXGIAdapter *adapter = NULL;
    assert_int_equal(IDXGIDevice_GetParent(dxgi, &IID_IDXGIAdapter, (void **)&adapter), S_OK);
    assert_non_null(adapter);
    IDXGIAdapter_Release(adapter);
    IDXGIDevice_Release(dxgi);
}

/* ID3D10Multithread (reference page, test_multithread): a D3D10 device is protected by
 * default; SetMultithreadProtected returns the previous setting; Enter / Leave nest (the
 * section is recursive, a device call inside it does not deadlock). */
static void multithread_defaults(void **state)
{
    struct t10 *t = *state;
    ID3D10Multithread *mt = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(t->dev, &IID_ID3D10Multithread, (void **)&mt), S_OK);
    assert_true(ID3D10Multithread_GetMultithreadProtected(mt));
    ID3D10Multithread_Enter(mt);
    ID3D10Multithread_Enter(mt);
    ID3D10Buffer *b = buffer10(t->dev, 256, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    ID3D10Multithread_Leave(mt);
    ID3D10Multithread_Leave(mt);
    ID3D10Buffer_Release(b);
    assert_true(ID3D10Multithread_SetMultithreadProtected(mt, FALSE));
    assert_false(ID3D10Multithread_GetMultithreadProtected(mt));
    assert_false(ID3D10Multithread_SetMultithreadProtected(mt, TRUE));
    assert_true(ID3D10Multithread_GetMultithreadProtected(mt));
    ID3D10Multithread_Release(mt);
}

/* Creation of the four kinds (test_create_texture1d/2d/3d, test_create_buffer): MipLevels 0
 * is the full chain (512 wide: 10 levels); GetType answers the D3D10_RESOURCE_DIMENSION;
 * initial data whose pSysMem is NULL and ArraySize 0 are E_INVALIDARG with no object; a
 * child's GetDevice is the device, with a reference added. */
static void resource_creation(void **state)
{
    struct t10 *t = *state;
    ID3D10Buffer *buf = buffer10(t->dev, 1024, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    D3D10_RESOURCE_DIMENSION dim = D3D10_RESOURCE_DIMENSION_UNKNOWN;
    ID3D10Buffer_GetType(buf, &dim);
    assert_int_equal(dim, D3D10_RESOURCE_DIMENSION_BUFFER);
    D3D10_BUFFER_DESC bdesc, bwant = { 1024, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer_GetDesc(buf, &bdesc);
    assert_memory_equal(&bdesc, &bwant, sizeof bwant);

    D3D10_TEXTURE1D_DESC d1 = { 512, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture1D *t1 = NULL;
    assert_int_equal(ID3D10Device_CreateTexture1D(t->dev, &d1, NULL, &t1), S_OK);
    ID3D10Texture1D_GetDesc(t1, &d1);
    assert_int_equal(d1.MipLevels, 10);
    assert_int_equal(d1.Width, 512);
    ID3D10Texture1D_GetType(t1, &dim);
    assert_int_equal(dim, D3D10_RESOURCE_DIMENSION_TEXTURE1D);

    ID3D10Texture2D *t2 = texture2d10(t->dev, 32, 16, D3D10_USAGE_DEFAULT, D3D10_BIND_SHADER_RESOURCE, 0, NULL);
    ID3D10Texture2D_GetType(t2, &dim);
    assert_int_equal(dim, D3D10_RESOURCE_DIMENSION_TEXTURE2D);

    D3D10_TEXTURE3D_DESC d3 = { 16, 16, 8, 0, DXGI_FORMAT_R8G8B8A8_UNORM, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture3D *t3 = NULL;
    assert_int_equal(ID3D10Device_CreateTexture3D(t->dev, &d3, NULL, &t3), S_OK);
    ID3D10Texture3D_GetDesc(t3, &d3);
    assert_int_equal(d3.MipLevels, 5);
    assert_int_equal(d3.Depth, 8);
    ID3D10Texture3D_GetType(t3, &dim);
    assert_int_equal(dim, D3D10_RESOURCE_DIMENSION_TEXTURE3D);

    /* Refusals: NULL pSysMem in the initial data, ArraySize 0. */
    D3D10_SUBRESOURCE_DATA none = { NULL, 0, 0 };
    D3D10_BUFFER_DESC bd = { 256, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer *nb = POISON;
    assert_int_equal(ID3D10Device_CreateBuffer(t->dev, &bd, &none, &nb), E_INVALIDARG);
    assert_null(nb);
    D3D10_TEXTURE2D_DESC td = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture2D *nt = POISON;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &td, &none, &nt), E_INVALIDARG);
    assert_null(nt);
    td.ArraySize = 0;
    nt = POISON;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &td, NULL, &nt), E_INVALIDARG);
    assert_null(nt);

    /* GetDevice: the same ID3D10Device pointer, one more reference. */
    ULONG before = refcount(t->dev);
    ID3D10Device *got = NULL;
    ID3D10Texture2D_GetDevice(t2, &got);
    assert_ptr_equal(got, t->dev);
    assert_int_equal(refcount(t->dev), before + 1);
    ID3D10Device_Release(got);
    assert_int_equal(refcount(t->dev), before);

    ID3D10Texture3D_Release(t3);
    ID3D10Texture2D_Release(t2);
    ID3D10Texture1D_Release(t1);
    ID3D10Buffer_Release(buf);
}

/* test_texture1d_interfaces / test_texture2d_interfaces (Windows 8+): a texture of one mip and
 * one slice is also an IDXGISurface (1D too); with 2 mips or 2 slices it is not. The
 * ID3D11Texture2D face is the same object, its description the same, with
 * D3D10_RESOURCE_MISC_SHARED as D3D11_RESOURCE_MISC_SHARED and the bind flags unchanged. */
static void texture_faces(void **state)
{
    struct t10 *t = *state;
    D3D10_TEXTURE1D_DESC d1 = { 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture1D *t1 = NULL;
    assert_int_equal(ID3D10Device_CreateTexture1D(t->dev, &d1, NULL, &t1), S_OK);
    check_iface(t1, &IID_IDXGISurface, TRUE);
    check_iface(t1, &IID_ID3D11Texture1D, TRUE);
    ID3D10Texture1D_Release(t1);

    D3D10_TEXTURE2D_DESC d2 = { 64, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_SHADER_RESOURCE | D3D10_BIND_RENDER_TARGET, 0,
                                D3D10_RESOURCE_MISC_SHARED };
    ID3D10Texture2D *t2 = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &d2, NULL, &t2), S_OK);
    check_iface(t2, &IID_IDXGISurface, TRUE);
    check_iface(t2, &IID_ID3D10Resource, TRUE);
    check_iface(t2, &IID_ID3D10Buffer, FALSE);

    D3D10_TEXTURE2D_DESC g10;
    ID3D10Texture2D_GetDesc(t2, &g10);
    assert_int_equal(g10.MiscFlags, D3D10_RESOURCE_MISC_SHARED);
    ID3D11Texture2D *t11 = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(t2, &IID_ID3D11Texture2D, (void **)&t11), S_OK);
    assert_int_equal(refcount(t11), refcount(t2));
    D3D11_TEXTURE2D_DESC g11, want = { 64, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                       D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0,
                                       D3D11_RESOURCE_MISC_SHARED };
    memset(&g11, 0xcc, sizeof g11);
    ID3D11Texture2D_GetDesc(t11, &g11);
    assert_memory_equal(&g11, &want, sizeof want);
    ID3D10Texture2D *back = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(t11, &IID_ID3D10Texture2D, (void **)&back), S_OK);
    assert_ptr_equal(back, t2);
    ID3D10Texture2D_Release(back);
    ID3D11Texture2D_Release(t11);
    ID3D10Texture2D_Release(t2);

    d2.MiscFlags = 0;
    d2.MipLevels = 2;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &d2, NULL, &t2), S_OK);
    check_iface(t2, &IID_IDXGISurface, FALSE);
    ID3D10Texture2D_Release(t2);
    d2.MipLevels = 1;
    d2.ArraySize = 2;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &d2, NULL, &t2), S_OK);
    check_iface(t2, &IID_IDXGISurface, FALSE);
    ID3D10Texture2D_Release(t2);
}

/* Map on the resource (ID3D10Buffer::Map, ID3D10Texture2D::Map, ID3D10Texture3D::Map; seed
 * 001's D3D10 rows): a staging buffer maps for READ; a 2D texture gives a row pitch of at
 * least a row, a 3D one a depth pitch of at least a slice; written bytes read back. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d */
static void map_gives_pointers_and_pitches(void **state)
{
    struct t10 *t = *state;
    const UINT rw = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
    ID3D10Buffer *b = buffer10(t->dev, 512, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, NULL);
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(b, D3D10_MAP_READ, 0, &p), S_OK);
    assert_non_null(p);
    ID3D10Buffer_Unmap(b);
    ID3D10Buffer_Release(b);

    ID3D10Texture2D *t2 = texture2d10(t->dev, 100, 20, D3D10_USAGE_STAGING, 0, rw, NULL);
    D3D10_MAPPED_TEXTURE2D m2 = { NULL, 0 };
    assert_int_equal(ID3D10Texture2D_Map(t2, 0, D3D10_MAP_WRITE, 0, &m2), S_OK);
    assert_non_null(m2.pData);
    assert_true(m2.RowPitch >= 100 * 4);
    memset((BYTE *)m2.pData + 19 * m2.RowPitch, 0x3c, 100 * 4);
    ID3D10Texture2D_Unmap(t2, 0);
    assert_int_equal(ID3D10Texture2D_Map(t2, 0, D3D10_MAP_READ, 0, &m2), S_OK);
    assert_int_equal(((BYTE *)m2.pData)[19 * m2.RowPitch + 399], 0x3c);
    ID3D10Texture2D_Unmap(t2, 0);
    ID3D10Texture2D_Release(t2);

    D3D10_TEXTURE3D_DESC d3 = { 16, 8, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D10_USAGE_STAGING, 0, rw, 0 };
    ID3D10Texture3D *t3 = NULL;
    assert_int_equal(ID3D10Device_CreateTexture3D(t->dev, &d3, NULL, &t3), S_OK);
    D3D10_MAPPED_TEXTURE3D m3 = { NULL, 0, 0 };
    assert_int_equal(ID3D10Texture3D_Map(t3, 0, D3D10_MAP_READ_WRITE, 0, &m3), S_OK);
    assert_non_null(m3.pData);
    assert_true(m3.RowPitch >= 16 * 4);
    assert_true(m3.DepthPitch >= m3.RowPitch * 8);
    ID3D10Texture3D_Unmap(t3, 0);
    ID3D10Texture3D_Release(t3);
}

/* One Map type against one buffer: S_OK then Unmap, or E_INVALIDARG with the pointer NULL. */
static void check_map(ID3D10Buffer *b, D3D10_MAP type, HRESULT expect)
{
    void *p = POISON;
    assert_int_equal(ID3D10Buffer_Map(b, type, 0, &p), expect);
    if (expect == S_OK) {
        assert_non_null(p);
        ID3D10Buffer_Unmap(b);
    } else {
        assert_null(p);
    }
}

/* Which Map types each usage takes (test_resource_map; D3D10_MAP and D3D10_USAGE reference,
 * the same matrix as D3D11): DEFAULT none; DYNAMIC WRITE_DISCARD and, for a vertex buffer,
 * WRITE_NO_OVERWRITE; STAGING READ / WRITE / READ_WRITE but no DISCARD. A second Map of a
 * mapped subresource fails and the first mapping stays; a subresource out of range fails; a
 * failed Map leaves the out pointer NULL. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d */
static void map_matrix(void **state)
{
    struct t10 *t = *state;
    ID3D10Buffer *def = buffer10(t->dev, 256, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    for (int type = D3D10_MAP_READ; type <= D3D10_MAP_WRITE_NO_OVERWRITE; type++)
        check_map(def, (D3D10_MAP)type, E_INVALIDARG);

    ID3D10Buffer *dyn = buffer10(t->dev, 256, D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER,
                                 D3D10_CPU_ACCESS_WRITE, NULL);
    check_map(dyn, D3D10_MAP_WRITE_DISCARD, S_OK);
    check_map(dyn, D3D10_MAP_WRITE_NO_OVERWRITE, S_OK);
    check_map(dyn, D3D10_MAP_READ, E_INVALIDARG);
    check_map(dyn, D3D10_MAP_WRITE, E_INVALIDARG);
    check_map(dyn, D3D10_MAP_READ_WRITE, E_INVALIDARG);

    ID3D10Buffer *stg = buffer10(t->dev, 256, D3D10_USAGE_STAGING, 0,
                                 D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE, NULL);
    check_map(stg, D3D10_MAP_READ, S_OK);
    check_map(stg, D3D10_MAP_WRITE, S_OK);
    check_map(stg, D3D10_MAP_READ_WRITE, S_OK);
    check_map(stg, D3D10_MAP_WRITE_DISCARD, E_INVALIDARG);
    check_map(stg, D3D10_MAP_WRITE_NO_OVERWRITE, E_INVALIDARG);

    /* Already mapped: refused, and the first mapping keeps working. */
    void *first = NULL;
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ_WRITE, 0, &first), S_OK);
    check_map(stg, D3D10_MAP_READ, E_INVALIDARG);
    memset(first, 0x77, 256);
    ID3D10Buffer_Unmap(stg);
    void *again = NULL;
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ, 0, &again), S_OK);
    assert_int_equal(((BYTE *)again)[255], 0x77);
    ID3D10Buffer_Unmap(stg);

    /* Subresource out of range: one-mip texture, subresource 1. */
    ID3D10Texture2D *t2 = texture2d10(t->dev, 8, 8, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, NULL);
    D3D10_MAPPED_TEXTURE2D m = { POISON, 0xabab };
    assert_int_equal(ID3D10Texture2D_Map(t2, 1, D3D10_MAP_READ, 0, &m), E_INVALIDARG);
    assert_null(m.pData);

    ID3D10Texture2D_Release(t2);
    ID3D10Buffer_Release(stg);
    ID3D10Buffer_Release(dyn);
    ID3D10Buffer_Release(def);
}

/* Staging readback (seed 001's flow through the D3D10 API): a DEFAULT texture made with
 * initial data, CopyResource to a STAGING one, Map(READ): every row as uploaded, whatever the
 * row pitch. */
static void copy_resource_reads_back_a_texture(void **state)
{
    struct t10 *t = *state;
    enum { W = 64, H = 64 };
    static BYTE src[W * H * 4];
    e2e_fill(src, sizeof src, 10);
    D3D10_SUBRESOURCE_DATA init = { src, W * 4, 0 };
    ID3D10Texture2D *gpu = texture2d10(t->dev, W, H, D3D10_USAGE_DEFAULT, D3D10_BIND_SHADER_RESOURCE, 0, &init);
    ID3D10Texture2D *stg = texture2d10(t->dev, W, H, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, NULL);
    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)stg, (ID3D10Resource *)gpu);
    D3D10_MAPPED_TEXTURE2D m;
    assert_int_equal(ID3D10Texture2D_Map(stg, 0, D3D10_MAP_READ, 0, &m), S_OK);
    assert_true(m.RowPitch >= W * 4);
    for (UINT y = 0; y < H; y++)
        assert_memory_equal((BYTE *)m.pData + (size_t)y * m.RowPitch, src + (size_t)y * W * 4, W * 4);
    ID3D10Texture2D_Unmap(stg, 0);
    ID3D10Texture2D_Release(stg);
    ID3D10Texture2D_Release(gpu);
}

/* CopySubresourceRegion with a D3D10_BOX lands the box's bytes at the destination offset and
 * leaves the rest; UpdateSubresource fills a DEFAULT buffer (ID3D10Device reference). */
static void region_copy_and_update(void **state)
{
    struct t10 *t = *state;
    enum { N = 4096 };
    static BYTE a[N], b[N], zero[N];
    e2e_fill(a, N, 11);
    e2e_fill(b, N, 12);
    ID3D10Buffer *src = buffer10(t->dev, N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, a);
    ID3D10Buffer *stg = buffer10(t->dev, N, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, zero);
    D3D10_BOX box = { .left = 1000, .right = 1500, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D10Device_CopySubresourceRegion(t->dev, (ID3D10Resource *)stg, 0, 200, 0, 0, (ID3D10Resource *)src, 0, &box);
    void *p = NULL;
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ, 0, &p), S_OK);
    assert_memory_equal(p, zero, 200);
    assert_memory_equal((BYTE *)p + 200, a + 1000, 500);
    assert_memory_equal((BYTE *)p + 700, zero, N - 700);
    ID3D10Buffer_Unmap(stg);

    ID3D10Buffer *dst = buffer10(t->dev, N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    ID3D10Device_UpdateSubresource(t->dev, (ID3D10Resource *)dst, 0, NULL, b, 0, 0);
    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)stg, (ID3D10Resource *)dst);
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ, 0, &p), S_OK);
    assert_memory_equal(p, b, N);
    ID3D10Buffer_Unmap(stg);

    ID3D10Buffer_Release(dst);
    ID3D10Buffer_Release(stg);
    ID3D10Buffer_Release(src);
}

/* Views (ID3D10Device::CreateRenderTargetView / CreateShaderResourceView reference): a NULL
 * description views the whole 2D texture (TEXTURE2D, its format, mip 0); GetResource hands
 * the texture back with a reference; ClearRenderTargetView writes the colour, read back as
 * R8G8B8A8_UNORM bytes (1,0,0,1 -> ff 00 00 ff) through a staging copy. */
static void render_target_clear_and_views(void **state)
{
    struct t10 *t = *state;
    enum { W = 32, H = 16 };
    ID3D10Texture2D *rt = texture2d10(t->dev, W, H, D3D10_USAGE_DEFAULT,
                                      D3D10_BIND_RENDER_TARGET | D3D10_BIND_SHADER_RESOURCE, 0, NULL);
    ID3D10RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D10Device_CreateRenderTargetView(t->dev, (ID3D10Resource *)rt, NULL, &rtv), S_OK);
    D3D10_RENDER_TARGET_VIEW_DESC rd;
    memset(&rd, 0xcc, sizeof rd);
    ID3D10RenderTargetView_GetDesc(rtv, &rd);
    assert_int_equal(rd.ViewDimension, D3D10_RTV_DIMENSION_TEXTURE2D);
    assert_int_equal(rd.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(rd.Texture2D.MipSlice, 0);
    ULONG before = refcount(rt);
    ID3D10Resource *res = NULL;
    ID3D10RenderTargetView_GetResource(rtv, &res);
    assert_ptr_equal(res, rt);
    assert_int_equal(refcount(rt), before + 1);
    ID3D10Resource_Release(res);

    const FLOAT red[4] = { 1.0f, 0.0f, 0.0f, 1.0f };
    ID3D10Device_ClearRenderTargetView(t->dev, rtv, red);
    ID3D10Texture2D *stg = texture2d10(t->dev, W, H, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, NULL);
    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)stg, (ID3D10Resource *)rt);
    D3D10_MAPPED_TEXTURE2D m;
    assert_int_equal(ID3D10Texture2D_Map(stg, 0, D3D10_MAP_READ, 0, &m), S_OK);
    BYTE want[W * 4];
    for (UINT x = 0; x < W; x++)
        memcpy(want + 4 * x, "\xff\x00\x00\xff", 4);
    for (UINT y = 0; y < H; y++)
        assert_memory_equal((const BYTE *)m.pData + (size_t)y * m.RowPitch, want, sizeof want);
    ID3D10Texture2D_Unmap(stg, 0);

    ID3D10ShaderResourceView *srv = NULL;
    assert_int_equal(ID3D10Device_CreateShaderResourceView(t->dev, (ID3D10Resource *)rt, NULL, &srv), S_OK);
    D3D10_SHADER_RESOURCE_VIEW_DESC sd;
    ID3D10ShaderResourceView_GetDesc(srv, &sd);
    assert_int_equal(sd.ViewDimension, D3D10_SRV_DIMENSION_TEXTURE2D);
    assert_int_equal(sd.Texture2D.MipLevels, 1);
    /* A staging texture has no SHADER_RESOURCE binding: no view. */
    ID3D10ShaderResourceView *none = POISON;
    assert_int_equal(ID3D10Device_CreateShaderResourceView(t->dev, (ID3D10Resource *)stg, NULL, &none),
                     E_INVALIDARG);
    assert_null(none);

    ID3D10ShaderResourceView_Release(srv);
    ID3D10Texture2D_Release(stg);
    ID3D10RenderTargetView_Release(rtv);
    ID3D10Texture2D_Release(rt);
}

/* Maps the staging buffer with D3D10_MAP_FLAG_DO_NOT_WAIT until it succeeds (at most ~5 s):
 * only S_OK or DXGI_ERROR_WAS_STILL_DRAWING (pointer NULL) may be answered meanwhile. */
static void *map_do_not_wait(ID3D10Buffer *stg)
{
    double deadline = now_s() + 5.0;
    for (;;) {
        void *p = POISON;
        HRESULT hr = ID3D10Buffer_Map(stg, D3D10_MAP_READ, D3D10_MAP_FLAG_DO_NOT_WAIT, &p);
        if (hr == S_OK)
            return p;
        assert_int_equal(hr, DXGI_ERROR_WAS_STILL_DRAWING);
        assert_null(p);
        assert_true(now_s() < deadline);
        sleep_ms(1);
    }
}

/* D3D10_MAP_FLAG_DO_NOT_WAIT (D3D10_MAP_FLAG reference; seed 001 §8): after a big copy the
 * Map answers S_OK or DXGI_ERROR_WAS_STILL_DRAWING without blocking, and once S_OK the data is
 * the copy's. With the GPU held (include/wddm/swgpu.h) the copy cannot have retired: the
 * answer must be WAS_STILL_DRAWING, at once. Only that one copy is submitted while the GPU is
 * held (the uploads come before the first readback, which drains them): more work than the
 * context's queue holds would make the submission itself wait, as on Windows. */
/* rule: d3d10.id3d10buffer-map-id3d10texture1d-2d-3d (WAS_STILL_DRAWING while the GPU is paused) */
static void do_not_wait_readback(void **state)
{
    struct t10 *t = *state;
    enum { N = 4 << 20 };
    static BYTE a[N], b[N];
    e2e_fill(a, N, 13);
    e2e_fill(b, N, 14);
    ID3D10Buffer *gpu_a = buffer10(t->dev, N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, a);
    ID3D10Buffer *gpu_b = buffer10(t->dev, N, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    ID3D10Buffer *stg = buffer10(t->dev, N, D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ, NULL);
    ID3D10Device_UpdateSubresource(t->dev, (ID3D10Resource *)gpu_b, 0, NULL, b, 0, 0);

    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)stg, (ID3D10Resource *)gpu_a);
    ID3D10Device_Flush(t->dev);
    void *p = map_do_not_wait(stg);
    assert_memory_equal(p, a, N);
    ID3D10Buffer_Unmap(stg);

    wddm_swgpu_set_paused(1);
    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)stg, (ID3D10Resource *)gpu_b);
    ID3D10Device_Flush(t->dev);
    p = POISON;
    assert_int_equal(ID3D10Buffer_Map(stg, D3D10_MAP_READ, D3D10_MAP_FLAG_DO_NOT_WAIT, &p),
                     DXGI_ERROR_WAS_STILL_DRAWING);
    assert_null(p);
    wddm_swgpu_set_paused(0);
    p = map_do_not_wait(stg);
    assert_memory_equal(p, b, N);
    ID3D10Buffer_Unmap(stg);

    ID3D10Buffer_Release(stg);
    ID3D10Buffer_Release(gpu_b);
    ID3D10Buffer_Release(gpu_a);
}

/* Event queries (ID3D10Query / ID3D10Asynchronous reference, test_create_query): the data is a
 * BOOL; GetDesc returns the description; after End, GetData with flags 0 (which flushes, so
 * polling progresses) answers S_FALSE while pending and then S_OK with TRUE. */
static void event_query(void **state)
{
    struct t10 *t = *state;
    D3D10_QUERY_DESC qd = { D3D10_QUERY_EVENT, 0 };
    ID3D10Query *q = NULL;
    assert_int_equal(ID3D10Device_CreateQuery(t->dev, &qd, &q), S_OK);
    assert_int_equal(ID3D10Query_GetDataSize(q), sizeof(BOOL));
    D3D10_QUERY_DESC got = { (D3D10_QUERY)0x55, 0x55 };
    ID3D10Query_GetDesc(q, &got);
    assert_int_equal(got.Query, D3D10_QUERY_EVENT);
    assert_int_equal(got.MiscFlags, 0);
    check_iface(q, &IID_ID3D10Asynchronous, TRUE);

    /* Some GPU work before the event, so that it has something to wait for. */
    ID3D10Buffer *src = buffer10(t->dev, 1 << 20, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    ID3D10Buffer *dst = buffer10(t->dev, 1 << 20, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, NULL);
    ID3D10Device_CopyResource(t->dev, (ID3D10Resource *)dst, (ID3D10Resource *)src);
    ID3D10Query_End(q);
    double deadline = now_s() + 5.0;
    BOOL done = FALSE;
    HRESULT hr;
    while ((hr = ID3D10Query_GetData(q, &done, sizeof done, 0)) == S_FALSE && now_s() < deadline)
        sleep_ms(1);
    assert_int_equal(hr, S_OK);
    assert_true(done);

    ID3D10Buffer_Release(dst);
    ID3D10Buffer_Release(src);
    ID3D10Query_Release(q);
}

/* The UINT32 stored under key, read through the given interface's GetPrivateData. */
#define ASSERT_PRIVATE_U32(Iface, obj, key, want)                                \
    do {                                                                         \
        UINT32 got_ = 0;                                                         \
        UINT size_ = sizeof got_;                                                \
        assert_int_equal(Iface##_GetPrivateData(obj, key, &size_, &got_), S_OK); \
        assert_int_equal(size_, sizeof got_);                                    \
        assert_int_equal(got_, want);                                            \
    } while (0)

/* Private data (ID3D10Device / ID3D10DeviceChild::SetPrivateData): a round trip on the device
 * and on a texture; the texture's store is the object's, so the ID3D11Texture2D face reads
 * what the D3D10 face stored, and the device's store is its ID3D11Device face's. */
static void private_data(void **state)
{
    struct t10 *t = *state;
    static const GUID key = { 0x6a0c92d4, 0x3b71, 0x4e08, { 0x95, 0x2f, 0x1d, 0x6e, 0xa3, 0x47, 0xc0, 0x8b } };
    UINT32 v = 0x10aa55;
    assert_int_equal(ID3D10Device_SetPrivateData(t->dev, &key, sizeof v, &v), S_OK);
    ASSERT_PRIVATE_U32(ID3D10Device, t->dev, &key, 0x10aa55);
    ID3D11Device *d11 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(t->dev, &IID_ID3D11Device, (void **)&d11), S_OK);
    ASSERT_PRIVATE_U32(ID3D11Device, d11, &key, 0x10aa55);
    ID3D11Device_Release(d11);

    ID3D10Texture2D *tex = texture2d10(t->dev, 8, 8, D3D10_USAGE_DEFAULT, D3D10_BIND_SHADER_RESOURCE, 0, NULL);
    v = 0x2bb66;
    assert_int_equal(ID3D10Texture2D_SetPrivateData(tex, &key, sizeof v, &v), S_OK);
    ASSERT_PRIVATE_U32(ID3D10Texture2D, tex, &key, 0x2bb66);
    ID3D11Texture2D *t11 = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(tex, &IID_ID3D11Texture2D, (void **)&t11), S_OK);
    ASSERT_PRIVATE_U32(ID3D11Texture2D, t11, &key, 0x2bb66);
    ID3D11Texture2D_Release(t11);
    ID3D10Texture2D_Release(tex);

    assert_int_equal(ID3D10Device_SetPrivateData(t->dev, &key, 0, NULL), S_OK); /* removed */
    UINT size = sizeof v;
    assert_int_equal(ID3D10Device_GetPrivateData(t->dev, &key, &size, &v), DXGI_ERROR_NOT_FOUND);
}

/* A D3D10 texture created with D3D10_RESOURCE_MISC_SHARED_KEYEDMUTEX has IDXGIKeyedMutex, and
 * another D3D10 device that opens it acquires the key the first one released (DXGI reference,
 * IDXGIKeyedMutex::AcquireSync's D3D10 example). */
/* rule: d3d10.same-through-direct3d-10-d3d10-resource */
static void keyed_mutex_texture(void **state)
{
    struct t10 *t = *state;
    D3D10_TEXTURE2D_DESC d = { 32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                               D3D10_BIND_SHADER_RESOURCE | D3D10_BIND_RENDER_TARGET, 0,
                               D3D10_RESOURCE_MISC_SHARED_KEYEDMUTEX };
    ID3D10Texture2D *tex = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(t->dev, &d, NULL, &tex), S_OK);
    IDXGIKeyedMutex *km = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(tex, &IID_IDXGIKeyedMutex, (void **)&km), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(km, 0, INFINITE), S_OK);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(km, 1), S_OK);
    IDXGIResource *r = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(tex, &IID_IDXGIResource, (void **)&r), S_OK);
    HANDLE h = NULL;
    assert_int_equal(IDXGIResource_GetSharedHandle(r, &h), S_OK);
    IDXGIResource_Release(r);
    ID3D10Device *other = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &other), S_OK);
    ID3D10Texture2D *opened = NULL;
    assert_int_equal(ID3D10Device_OpenSharedResource(other, h, &IID_ID3D10Texture2D, (void **)&opened), S_OK);
    IDXGIKeyedMutex *km2 = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(opened, &IID_IDXGIKeyedMutex, (void **)&km2), S_OK);
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(km2, 0, 0), WAIT_TIMEOUT); /* released to 1 */
    assert_int_equal(IDXGIKeyedMutex_AcquireSync(km2, 1, 0), S_OK);
    assert_int_equal(IDXGIKeyedMutex_ReleaseSync(km2, 0), S_OK);
    IDXGIKeyedMutex_Release(km2);
    ID3D10Texture2D_Release(opened);
    ID3D10Device_Release(other);
    IDXGIKeyedMutex_Release(km);
    ID3D10Texture2D_Release(tex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(creation_answers),
        cmocka_unit_test_setup_teardown(device_faces, setup10, teardown10),
        cmocka_unit_test_setup_teardown(multithread_defaults, setup10, teardown10),
        cmocka_unit_test_setup_teardown(resource_creation, setup10, teardown10),
        cmocka_unit_test_setup_teardown(texture_faces, setup10, teardown10),
        cmocka_unit_test_setup_teardown(map_gives_pointers_and_pitches, setup10, teardown10),
        cmocka_unit_test_setup_teardown(map_matrix, setup10, teardown10),
        cmocka_unit_test_setup_teardown(copy_resource_reads_back_a_texture, setup10, teardown10),
        cmocka_unit_test_setup_teardown(region_copy_and_update, setup10, teardown10),
        cmocka_unit_test_setup_teardown(render_target_clear_and_views, setup10, teardown10),
        cmocka_unit_test_setup_teardown(do_not_wait_readback, setup10, teardown10),
        cmocka_unit_test_setup_teardown(event_query, setup10, teardown10),
        cmocka_unit_test_setup_teardown(private_data, setup10, teardown10),
        cmocka_unit_test_setup_teardown(keyed_mutex_texture, setup10, teardown10),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
