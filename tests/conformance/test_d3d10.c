/* The Direct3D 10 API as Windows answers it (issue 15 §1). Sources: Wine's
 * dlls/d3d10core/tests/d3d10core.c, which runs on Windows - test_device_interfaces,
 * test_create_texture1d, test_create_texture2d, test_texture1d_interfaces, test_create_query,
 * test_multithread - and the D3D10CreateDevice / ID3D10Multithread reference pages. Where
 * Windows versions differ (the tests accept both), the answer of Windows 8 and later, which
 * layer D3D10 over the D3D11 core, is the one asserted. */
#define COBJMACROS
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <cmocka.h>

#include <d3d10_1.h>
#include <d3d11.h>
#include <d3d11sdklayers.h>
#include <dxgi.h>

static int setup(void **state)
{
    ID3D10Device *dev = NULL;
    if (FAILED(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &dev)))
        return -1;
    *state = dev;
    return 0;
}

static int teardown(void **state)
{
    assert_int_equal(ID3D10Device_Release((ID3D10Device *)*state), 0); /* nothing leaked a reference */
    return 0;
}

static void check_iface(void *obj, REFIID iid, BOOL supported)
{
    IUnknown *out = NULL;
    HRESULT hr = IUnknown_QueryInterface((IUnknown *)obj, iid, (void **)&out);
    assert_int_equal(hr, supported ? S_OK : E_NOINTERFACE);
    if (out)
        IUnknown_Release(out);
}

/* Creation: the SDK version is checked (out NULL on failure), a D3D10 adapter goes with
 * HARDWARE, D3D10CreateDevice1 takes a D3D10_FEATURE_LEVEL1 and answers it back. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 (SDK version, HARDWARE with an adapter, the 10.1 level) */
static void create_device_answers(void **state)
{
    (void)state;
    ID3D10Device *dev = (ID3D10Device *)(uintptr_t)1;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION + 1, &dev),
                     E_INVALIDARG);
    assert_null(dev);
    ID3D10Device1 *dev1 = NULL;
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, (D3D10_FEATURE_LEVEL1)0x1234,
                                        D3D10_1_SDK_VERSION, &dev1), E_INVALIDARG);
    assert_int_equal(D3D10CreateDevice1(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_FEATURE_LEVEL_10_0,
                                        D3D10_1_SDK_VERSION, &dev1), S_OK);
    assert_int_equal(ID3D10Device1_GetFeatureLevel(dev1), D3D10_FEATURE_LEVEL_10_0);
    assert_int_equal(ID3D10Device1_Release(dev1), 0);

    IDXGIFactory *f = NULL;
    assert_int_equal(CreateDXGIFactory(&IID_IDXGIFactory, (void **)&f), S_OK);
    IDXGIAdapter *a = NULL;
    assert_int_equal(IDXGIFactory_EnumAdapters(f, 0, &a), S_OK);
    assert_int_equal(D3D10CreateDevice(a, D3D10_DRIVER_TYPE_REFERENCE, NULL, 0, D3D10_SDK_VERSION, &dev), E_INVALIDARG);
    assert_int_equal(D3D10CreateDevice(a, D3D10_DRIVER_TYPE_HARDWARE, NULL, 0, D3D10_SDK_VERSION, &dev), S_OK);
    IDXGIDevice *dxgi = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_IDXGIDevice, (void **)&dxgi), S_OK);
    IDXGIAdapter *got = NULL;
    assert_int_equal(IDXGIDevice_GetAdapter(dxgi, &got), S_OK);
    assert_ptr_equal(got, a);
    IDXGIAdapter_Release(got);
    IDXGIDevice_Release(dxgi);
    assert_int_equal(ID3D10Device_GetCreationFlags(dev), 0);
    assert_int_equal(ID3D10Device_Release(dev), 0);
    IDXGIAdapter_Release(a);
    IDXGIFactory_Release(f);
}

/* The device's faces (test_device_interfaces): IUnknown, IDXGIObject, IDXGIDevice(1),
 * ID3D10Multithread, ID3D10Device1, ID3D11Device (FL 10_0 for a D3D10CreateDevice device);
 * the debug layer's queue only with the debug flag. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 */
static void device_interfaces(void **state)
{
    ID3D10Device *dev = *state;
    check_iface(dev, &IID_IUnknown, TRUE);
    check_iface(dev, &IID_IDXGIObject, TRUE);
    check_iface(dev, &IID_IDXGIDevice, TRUE);
    check_iface(dev, &IID_IDXGIDevice1, TRUE);
    check_iface(dev, &IID_ID3D10Multithread, TRUE);
    check_iface(dev, &IID_ID3D10Device1, TRUE);
    check_iface(dev, &IID_ID3D11Device, TRUE);
    check_iface(dev, &IID_ID3D11InfoQueue, FALSE);
    ID3D11Device *d11 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D11Device, (void **)&d11), S_OK);
    assert_int_equal(ID3D11Device_GetFeatureLevel(d11), D3D_FEATURE_LEVEL_10_0);
    IUnknown *u1 = NULL, *u2 = NULL; /* one object: one IUnknown */
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_IUnknown, (void **)&u1), S_OK);
    assert_int_equal(ID3D11Device_QueryInterface(d11, &IID_IUnknown, (void **)&u2), S_OK);
    assert_ptr_equal(u1, u2);
    IUnknown_Release(u1);
    IUnknown_Release(u2);
    ID3D11Device_Release(d11);

    /* A device made by D3D11CreateDevice is not a D3D10 device (docs/api.md, model decision). */
    ID3D11Device *plain = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &plain,
                                       NULL, NULL), S_OK);
    check_iface(plain, &IID_ID3D10Device, FALSE);
    assert_int_equal(ID3D11Device_Release(plain), 0);
}

/* test_create_texture1d: a NULL pSysMem in initial data and ArraySize 0 are refused;
 * MipLevels 0 is the full chain (10 for 512 texels); GetDevice adds a reference; a texture of
 * one level and one slice is an IDXGISurface, more levels or slices are not. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 (NULL pSysMem / ArraySize 0 refused, MipLevels 0 → full chain, IDXGISurface only for one level and slice) */
static void texture1d_answers(void **state)
{
    ID3D10Device *dev = *state;
    D3D10_TEXTURE1D_DESC d = { 512, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D10_USAGE_DEFAULT,
                               D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    D3D10_SUBRESOURCE_DATA none = { NULL, 0, 0 };
    ID3D10Texture1D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture1D(dev, &d, &none, &t), E_INVALIDARG);
    assert_int_equal(ID3D10Device_CreateTexture1D(dev, &d, NULL, &t), S_OK);
    check_iface(t, &IID_IDXGISurface, TRUE);
    ULONG before = ID3D10Device_AddRef(dev);
    ID3D10Device_Release(dev);
    ID3D10Device *got = NULL;
    ID3D10Texture1D_GetDevice(t, &got);
    assert_ptr_equal(got, dev);
    assert_int_equal(ID3D10Device_AddRef(dev), before + 1);
    ID3D10Device_Release(dev);
    ID3D10Device_Release(got);
    ID3D10Texture1D_Release(t);

    d.MipLevels = 0;
    assert_int_equal(ID3D10Device_CreateTexture1D(dev, &d, NULL, &t), S_OK);
    D3D10_TEXTURE1D_DESC back;
    ID3D10Texture1D_GetDesc(t, &back);
    assert_int_equal(back.MipLevels, 10);
    assert_int_equal(back.BindFlags, D3D10_BIND_SHADER_RESOURCE);
    check_iface(t, &IID_IDXGISurface, FALSE);
    D3D10_RESOURCE_DIMENSION dim = D3D10_RESOURCE_DIMENSION_UNKNOWN;
    ID3D10Texture1D_GetType(t, &dim);
    assert_int_equal(dim, D3D10_RESOURCE_DIMENSION_TEXTURE1D);
    ID3D10Texture1D_Release(t);
    d.MipLevels = 1;
    d.ArraySize = 2;
    assert_int_equal(ID3D10Device_CreateTexture1D(dev, &d, NULL, &t), S_OK);
    check_iface(t, &IID_IDXGISurface, FALSE);
    ID3D10Texture1D_Release(t);
    d.ArraySize = 0;
    assert_int_equal(ID3D10Device_CreateTexture1D(dev, &d, NULL, &t), E_INVALIDARG);
}

/* test_texture*_interfaces: a D3D10 texture is also the ID3D11 texture; its description there
 * has the same values with the misc flags in D3D11's spelling (D3D10 SHARED 0x2 -> D3D11
 * SHARED 0x2); a D3D10 misc bit that does not exist is refused. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 (misc flags translated, one private-data store, unknown D3D10 misc / bind bits refused) */
static void texture2d_is_the_d3d11_texture(void **state)
{
    ID3D10Device *dev = *state;
    D3D10_TEXTURE2D_DESC d = { 64, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                               D3D10_BIND_SHADER_RESOURCE | D3D10_BIND_RENDER_TARGET, 0, D3D10_RESOURCE_MISC_SHARED };
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &d, NULL, &t), S_OK);
    ID3D11Texture2D *t11 = NULL;
    assert_int_equal(ID3D10Texture2D_QueryInterface(t, &IID_ID3D11Texture2D, (void **)&t11), S_OK);
    D3D11_TEXTURE2D_DESC d11;
    ID3D11Texture2D_GetDesc(t11, &d11);
    assert_int_equal(d11.Width, 64);
    assert_int_equal(d11.Height, 32);
    assert_int_equal(d11.BindFlags, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET);
    assert_int_equal(d11.MiscFlags, D3D11_RESOURCE_MISC_SHARED);
    D3D10_TEXTURE2D_DESC back;
    ID3D10Texture2D_GetDesc(t, &back);
    assert_int_equal(back.MiscFlags, D3D10_RESOURCE_MISC_SHARED);

    /* One private-data store behind both faces. */
    static const char name[] = "texture";
    assert_int_equal(ID3D10Texture2D_SetPrivateData(t, &WKPDID_D3DDebugObjectName, sizeof name, name), S_OK);
    char got[16] = { 0 };
    UINT size = sizeof got;
    assert_int_equal(ID3D11Texture2D_GetPrivateData(t11, &WKPDID_D3DDebugObjectName, &size, got), S_OK);
    assert_string_equal(got, name);
    ID3D11Texture2D_Release(t11);
    ID3D10Texture2D_Release(t);

    d.MiscFlags = 0x8; /* not a D3D10_RESOURCE_MISC_FLAG */
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &d, NULL, &t), E_INVALIDARG);
    d.MiscFlags = 0;
    d.BindFlags = 0x80; /* D3D11's UNORDERED_ACCESS: not a D3D10 bind flag */
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &d, NULL, &t), E_INVALIDARG);
}

/* Map through the resource (the D3D11 rules): DEFAULT is never mapped; DYNAMIC takes
 * WRITE_DISCARD (and NO_OVERWRITE on a vertex buffer), not READ; STAGING takes READ / WRITE /
 * READ_WRITE, not WRITE_DISCARD; a mapped subresource is not mapped again; an out-of-range
 * subresource is refused; a failed Map leaves the pointer NULL. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 */
static void map_rules(void **state)
{
    ID3D10Device *dev = *state;
    struct { D3D10_USAGE usage; UINT bind, cpu; D3D10_MAP type; HRESULT want; } rows[] = {
        { D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, D3D10_MAP_READ, E_INVALIDARG },
        { D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, D3D10_MAP_WRITE_DISCARD, E_INVALIDARG },
        { D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE, D3D10_MAP_WRITE_DISCARD, S_OK },
        { D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE, D3D10_MAP_WRITE_NO_OVERWRITE, S_OK },
        { D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE, D3D10_MAP_READ, E_INVALIDARG },
        { D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE, D3D10_MAP_WRITE, E_INVALIDARG },
        { D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE, D3D10_MAP_READ, S_OK },
        { D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE, D3D10_MAP_WRITE, S_OK },
        { D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE, D3D10_MAP_READ_WRITE, S_OK },
        { D3D10_USAGE_STAGING, 0, D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE, D3D10_MAP_WRITE_DISCARD,
          E_INVALIDARG },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        D3D10_BUFFER_DESC bd = { 256, rows[i].usage, rows[i].bind, rows[i].cpu, 0 };
        ID3D10Buffer *b = NULL;
        assert_int_equal(ID3D10Device_CreateBuffer(dev, &bd, NULL, &b), S_OK);
        void *p = (void *)(uintptr_t)1;
        HRESULT hr = ID3D10Buffer_Map(b, rows[i].type, 0, &p);
        if (hr != rows[i].want)
            fail_msg("row %zu: Map answered 0x%08x, want 0x%08x", i, (unsigned)hr, (unsigned)rows[i].want);
        if (FAILED(hr))
            assert_null(p);
        else
            ID3D10Buffer_Unmap(b);
        ID3D10Buffer_Release(b);
    }

    D3D10_TEXTURE2D_DESC td = { 16, 16, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_STAGING, 0,
                                D3D10_CPU_ACCESS_READ, 0 };
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &td, NULL, &t), S_OK);
    D3D10_MAPPED_TEXTURE2D m = { (void *)(uintptr_t)1, 0xabab };
    assert_int_equal(ID3D10Texture2D_Map(t, 2, D3D10_MAP_READ, 0, &m), E_INVALIDARG); /* 2 subresources */
    assert_null(m.pData);
    assert_int_equal(ID3D10Texture2D_Map(t, 1, D3D10_MAP_READ, 0, &m), S_OK);
    assert_true(m.RowPitch >= 8 * 4); /* mip 1 is 8 texels wide */
    D3D10_MAPPED_TEXTURE2D again;
    assert_int_equal(ID3D10Texture2D_Map(t, 1, D3D10_MAP_READ, 0, &again), E_INVALIDARG);
    ID3D10Texture2D_Unmap(t, 1);
    ID3D10Texture2D_Release(t);
}

/* test_create_query (the EVENT kind): GetData before End is DXGI_ERROR_INVALID_CALL; after
 * End it answers S_FALSE until the GPU is there, then S_OK with TRUE; GetDataSize is a BOOL's;
 * GetDesc returns the description; a D3D10_QUERY value out of range is refused. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 */
static void event_query(void **state)
{
    ID3D10Device *dev = *state;
    D3D10_QUERY_DESC qd = { D3D10_QUERY_EVENT, 0 };
    ID3D10Query *q = NULL;
    assert_int_equal(ID3D10Device_CreateQuery(dev, &qd, &q), S_OK);
    assert_int_equal(ID3D10Query_GetDataSize(q), sizeof(BOOL));
    D3D10_QUERY_DESC back = { 99, 99 };
    ID3D10Query_GetDesc(q, &back);
    assert_int_equal(back.Query, D3D10_QUERY_EVENT);
    assert_int_equal(back.MiscFlags, 0);
    BOOL done = FALSE;
    assert_int_equal(ID3D10Query_GetData(q, &done, sizeof done, 0), DXGI_ERROR_INVALID_CALL);
    ID3D10Query_End(q);
    HRESULT hr;
    for (int i = 0; (hr = ID3D10Query_GetData(q, &done, sizeof done, 0)) == S_FALSE && i < 1000000; i++)
        ;
    assert_int_equal(hr, S_OK);
    assert_true(done);
    ID3D10Query_Release(q);
    qd.Query = (D3D10_QUERY)(D3D10_QUERY_SO_OVERFLOW_PREDICATE + 1);
    assert_int_equal(ID3D10Device_CreateQuery(dev, &qd, &q), E_INVALIDARG);
}

/* Views: a NULL description views the whole texture (TEXTURE2D); GetResource hands back the
 * D3D10 texture with a reference; a D3D10.1 device's CreateShaderResourceView1 describes it
 * with GetDesc1. */
/* rule: d3d10.d3d10-device-one-object-id3d10device1 */
static void views(void **state)
{
    ID3D10Device *dev = *state;
    D3D10_TEXTURE2D_DESC td = { 32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D10_USAGE_DEFAULT,
                                D3D10_BIND_RENDER_TARGET | D3D10_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D10Texture2D *t = NULL;
    assert_int_equal(ID3D10Device_CreateTexture2D(dev, &td, NULL, &t), S_OK);
    ID3D10RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D10Device_CreateRenderTargetView(dev, (ID3D10Resource *)t, NULL, &rtv), S_OK);
    D3D10_RENDER_TARGET_VIEW_DESC rd;
    ID3D10RenderTargetView_GetDesc(rtv, &rd);
    assert_int_equal(rd.ViewDimension, D3D10_RTV_DIMENSION_TEXTURE2D);
    assert_int_equal(rd.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    ID3D10Resource *r = NULL;
    ID3D10RenderTargetView_GetResource(rtv, &r);
    assert_ptr_equal(r, (ID3D10Resource *)t);
    ID3D10Resource_Release(r);
    ID3D10RenderTargetView_Release(rtv);

    ID3D10Device1 *dev1 = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D10Device1, (void **)&dev1), S_OK);
    ID3D10ShaderResourceView1 *srv = NULL;
    assert_int_equal(ID3D10Device1_CreateShaderResourceView1(dev1, (ID3D10Resource *)t, NULL, &srv), S_OK);
    D3D10_SHADER_RESOURCE_VIEW_DESC1 sd;
    ID3D10ShaderResourceView1_GetDesc1(srv, &sd);
    assert_int_equal(sd.ViewDimension, D3D10_1_SRV_DIMENSION_TEXTURE2D);
    assert_int_equal(sd.Texture2D.MipLevels, 1);
    ID3D10ShaderResourceView1_Release(srv);
    ID3D10Device1_Release(dev1);
    ID3D10Texture2D_Release(t);
}

/* ID3D10Multithread: protection is on by default (off with D3D10_CREATE_DEVICE_SINGLETHREADED),
 * SetMultithreadProtected answers the previous setting, and while a thread is inside Enter
 * another thread's D3D10 call waits for Leave - unless protection is off. */
struct mt_call {
    ID3D10Device *dev;
    atomic_int started, finished;
};

static void *create_buffer_thread(void *arg)
{
    struct mt_call *c = arg;
    atomic_store(&c->started, 1);
    D3D10_BUFFER_DESC bd = { 64, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0 };
    ID3D10Buffer *b = NULL;
    if (SUCCEEDED(ID3D10Device_CreateBuffer(c->dev, &bd, NULL, &b)))
        ID3D10Buffer_Release(b);
    atomic_store(&c->finished, 1);
    return NULL;
}

/* Runs a CreateBuffer on another thread while this one is inside Enter; answers whether the
 * call finished before Leave. */
static int finishes_inside_enter(ID3D10Device *dev, ID3D10Multithread *mt)
{
    struct mt_call c = { .dev = dev };
    ID3D10Multithread_Enter(mt);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, create_buffer_thread, &c), 0);
    while (!atomic_load(&c.started))
        usleep(1000);
    for (int i = 0; i < 200 && !atomic_load(&c.finished); i++) /* up to 200 ms */
        usleep(1000);
    int finished = atomic_load(&c.finished);
    ID3D10Multithread_Leave(mt);
    pthread_join(th, NULL);
    assert_true(atomic_load(&c.finished));
    return finished;
}

/* rule: d3d10.thread-safety-d3d10-device-calls-through (another thread's call waits for Leave; mutation-checked: no critical section fails it) */
static void multithread_protection(void **state)
{
    ID3D10Device *dev = *state;
    ID3D10Multithread *mt = NULL;
    assert_int_equal(ID3D10Device_QueryInterface(dev, &IID_ID3D10Multithread, (void **)&mt), S_OK);
    assert_true(ID3D10Multithread_GetMultithreadProtected(mt));
    assert_false(finishes_inside_enter(dev, mt)); /* it waited for Leave */
    ID3D10Multithread_Enter(mt);                  /* Enter nests */
    ID3D10Multithread_Enter(mt);
    ID3D10Multithread_Leave(mt);
    ID3D10Multithread_Leave(mt);
    assert_true(ID3D10Multithread_SetMultithreadProtected(mt, FALSE));
    assert_false(ID3D10Multithread_GetMultithreadProtected(mt));
    assert_true(finishes_inside_enter(dev, mt)); /* no critical section around the call */
    assert_false(ID3D10Multithread_SetMultithreadProtected(mt, TRUE));
    ID3D10Multithread_Release(mt);

    ID3D10Device *single = NULL;
    assert_int_equal(D3D10CreateDevice(NULL, D3D10_DRIVER_TYPE_HARDWARE, NULL, D3D10_CREATE_DEVICE_SINGLETHREADED,
                                       D3D10_SDK_VERSION, &single), S_OK);
    assert_int_equal(ID3D10Device_QueryInterface(single, &IID_ID3D10Multithread, (void **)&mt), S_OK);
    assert_false(ID3D10Multithread_GetMultithreadProtected(mt));
    assert_int_equal(ID3D10Device_GetCreationFlags(single), D3D10_CREATE_DEVICE_SINGLETHREADED);
    ID3D10Multithread_Release(mt);
    assert_int_equal(ID3D10Device_Release(single), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_device_answers),
        cmocka_unit_test_setup_teardown(device_interfaces, setup, teardown),
        cmocka_unit_test_setup_teardown(texture1d_answers, setup, teardown),
        cmocka_unit_test_setup_teardown(texture2d_is_the_d3d11_texture, setup, teardown),
        cmocka_unit_test_setup_teardown(map_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(event_query, setup, teardown),
        cmocka_unit_test_setup_teardown(views, setup, teardown),
        cmocka_unit_test_setup_teardown(multithread_protection, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
