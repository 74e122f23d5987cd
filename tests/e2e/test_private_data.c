/*
 * test_private_data.c - GetPrivateData / SetPrivateData / SetPrivateDataInterface on every
 * object the runtime creates (issue 15 §4; D3D11 API reference, and the answers Wine's d3d11
 * tests record from Windows). docs/rules/runtime.md.
 */
#include "e2e/e2e.h"

static const GUID guid_a = { 0x5b1e6c2a, 0x11d3, 0x4c8e, { 0x9a, 0x01, 0x3c, 0x77, 0x21, 0x5e, 0x90, 0x4b } };
static const GUID guid_b = { 0x0d7f43a9, 0x6e25, 0x4f10, { 0x86, 0x3b, 0xa4, 0x12, 0xc9, 0x0e, 0x5d, 0x71 } };

static ULONG refcount(IUnknown *u)
{
    u->lpVtbl->AddRef(u);
    return u->lpVtbl->Release(u);
}

/* Removing: NULL data removes whatever the GUID holds (S_OK), or reports there was nothing
 * (S_FALSE), whatever the size; SetPrivateDataInterface(NULL) stores a NULL pointer. */
/* rule: runtime.setprivatedata-stores-copy-replacing */
static void set_and_remove(void **state)
{
    struct e2e *e = *state;
    ID3D11Device *dev = e->dev;
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, 0, NULL), S_FALSE);
    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, NULL), S_OK);
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, ~0u, NULL), S_OK);
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, ~0u, NULL), S_FALSE);

    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, NULL), S_OK);
    IUnknown *ptr = (IUnknown *)(uintptr_t)0x1234;
    UINT size = 2 * sizeof(ptr);
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &size, &ptr), S_OK);
    assert_null(ptr);
    assert_int_equal(size, sizeof(IUnknown *));
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, 0, NULL), S_OK);

    /* The SDK's debug-name GUID is one key like any other. */
    static const char name[] = "staging ring";
    char got[32] = { 0 };
    size = sizeof got;
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &WKPDID_D3DDebugObjectName, sizeof name - 1, name), S_OK);
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectName, &size, got), S_OK);
    assert_int_equal(size, sizeof name - 1);
    assert_string_equal(got, name);
}

/* Sizes and refusals of GetPrivateData, and the stored bytes are a copy. */
/* rule: runtime.getprivatedata-null-pdatasize-e */
static void get_answers(void **state)
{
    struct e2e *e = *state;
    ID3D11Device *dev = e->dev;
    UINT32 data[4] = { 1, 2, 3, 4 }, out[4] = { 0 };
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, sizeof data, data), S_OK);
    data[0] = 99; /* the device kept a copy */

    UINT size = 1;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &size, NULL), S_OK);
    assert_int_equal(size, sizeof data);
    size = 4;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &size, out), DXGI_ERROR_MORE_DATA);
    assert_int_equal(size, sizeof data);
    assert_int_equal(out[0], 0); /* untouched */
    size = sizeof out;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &size, out), S_OK);
    assert_int_equal(size, sizeof data);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[3], 4);

    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_b, NULL, NULL), E_INVALIDARG);
    size = 0xdeadu;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_b, &size, out), DXGI_ERROR_NOT_FOUND);
    assert_int_equal(size, 0);
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, NULL, out), E_INVALIDARG);
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, 0, NULL), S_OK);
}

/* An interface is held with one reference: storing the same one again keeps one, NULL or bytes
 * in its place release it, GetPrivateData hands out a new reference, and the holder's
 * destruction releases it. */
/* rule: runtime.setprivatedata-stores-copy-replacing (mutation-checked: always `S_OK` fails the first; not releasing a replaced interface fails the second) */
/* rule: runtime.getprivatedata-null-pdatasize-e */
/* rule: runtime.device-both-kinds-context-buffers-1d (a texture that dies holding an interface releases it) */
static void interfaces_are_referenced(void **state)
{
    struct e2e *e = *state;
    ID3D11Device *dev = e->dev, *other = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &other,
                                       NULL, NULL), S_OK);
    IUnknown *obj = (IUnknown *)other;
    ULONG base = refcount(obj);

    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, obj), S_OK);
    assert_int_equal(refcount(obj), base + 1);
    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, obj), S_OK);
    assert_int_equal(refcount(obj), base + 1);
    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, NULL), S_OK);
    assert_int_equal(refcount(obj), base);

    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, obj), S_OK);
    UINT32 bytes = 7;
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, sizeof bytes, &bytes), S_OK);
    assert_int_equal(refcount(obj), base);

    assert_int_equal(ID3D11Device_SetPrivateDataInterface(dev, &guid_a, obj), S_OK);
    IUnknown *got = NULL;
    UINT size = sizeof got;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &size, &got), S_OK);
    assert_ptr_equal(got, obj);
    assert_int_equal(refcount(obj), base + 2);
    got->lpVtbl->Release(got);
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, 0, NULL), S_OK);
    assert_int_equal(refcount(obj), base);

    /* A texture that dies holding the interface releases it; its DXGI face shares the store. */
    D3D11_TEXTURE2D_DESC td = { .Width = 64, .Height = 64, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_RENDER_TARGET };
    ID3D11Texture2D *tex = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(dev, &td, NULL, &tex), S_OK);
    assert_int_equal(ID3D11Texture2D_SetPrivateDataInterface(tex, &guid_b, obj), S_OK);
    IDXGIResource *dxgi = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_IDXGIResource, (void **)&dxgi), S_OK);
    got = NULL;
    size = sizeof got;
    assert_int_equal(IDXGIResource_GetPrivateData(dxgi, &guid_b, &size, &got), S_OK);
    assert_ptr_equal(got, obj);
    got->lpVtbl->Release(got);
    IDXGIResource_Release(dxgi);
    assert_int_equal(refcount(obj), base + 1);
    ID3D11Texture2D_Release(tex);
    assert_int_equal(refcount(obj), base);
    ID3D11Device_Release(other);
}

/* Every kind of object the runtime hands out keeps its own data. */
#define ROUND_TRIP(Iface, obj, value)                                                                        \
    do {                                                                                                     \
        UINT32 in = (value), out = 0;                                                                        \
        UINT sz = sizeof out;                                                                                \
        assert_int_equal(Iface##_SetPrivateData(obj, &guid_a, sizeof in, &in), S_OK);                       \
        assert_int_equal(Iface##_GetPrivateData(obj, &guid_a, &sz, &out), S_OK);                             \
        assert_int_equal(out, (value));                                                                      \
    } while (0)

/* rule: runtime.device-both-kinds-context-buffers-1d */
static void every_object_keeps_its_own(void **state)
{
    struct e2e *e = *state;
    ID3D11Device *dev = e->dev;
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT,
                             .BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS,
                             .MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS };
    ID3D11Buffer *buf = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &buf), S_OK);
    D3D11_TEXTURE1D_DESC t1 = { .Width = 64, .MipLevels = 1, .ArraySize = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture1D *tex1 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture1D(dev, &t1, NULL, &tex1), S_OK);
    D3D11_TEXTURE2D_DESC t2 = { .Width = 16, .Height = 16, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT,
                                .BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture2D *tex2 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(dev, &t2, NULL, &tex2), S_OK);
    D3D11_TEXTURE3D_DESC t3 = { .Width = 8, .Height = 8, .Depth = 4, .MipLevels = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .Usage = D3D11_USAGE_DEFAULT,
                                .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Texture3D *tex3 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture3D(dev, &t3, NULL, &tex3), S_OK);
    ID3D11RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(dev, (ID3D11Resource *)tex2, NULL, &rtv), S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = { .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
                                           .ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D,
                                           .Texture2D = { .MostDetailedMip = 0, .MipLevels = 1 } };
    ID3D11ShaderResourceView *srv = NULL;
    assert_int_equal(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)tex2, &sd, &srv), S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = { .Format = DXGI_FORMAT_R32_TYPELESS,
                                            .ViewDimension = D3D11_UAV_DIMENSION_BUFFER,
                                            .Buffer = { .FirstElement = 0, .NumElements = 64,
                                                        .Flags = D3D11_BUFFER_UAV_FLAG_RAW } };
    ID3D11UnorderedAccessView *uav = NULL;
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)buf, &ud, &uav), S_OK);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *query = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(dev, &qd, &query), S_OK);
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(dev, 0, &dc), S_OK);
    ID3D11CommandList *list = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &list), S_OK);

    ROUND_TRIP(ID3D11Device, dev, 1);
    ROUND_TRIP(ID3D11DeviceContext, e->ctx, 2);
    ROUND_TRIP(ID3D11DeviceContext, dc, 3);
    ROUND_TRIP(ID3D11Buffer, buf, 4);
    ROUND_TRIP(ID3D11Texture1D, tex1, 5);
    ROUND_TRIP(ID3D11Texture2D, tex2, 6);
    ROUND_TRIP(ID3D11Texture3D, tex3, 7);
    ROUND_TRIP(ID3D11RenderTargetView, rtv, 8);
    ROUND_TRIP(ID3D11ShaderResourceView, srv, 9);
    ROUND_TRIP(ID3D11UnorderedAccessView, uav, 10);
    ROUND_TRIP(ID3D11Query, query, 11);
    ROUND_TRIP(ID3D11CommandList, list, 12);
    /* Each kept its own: the device's value is still 1, the buffer's still 4. */
    UINT32 out = 0;
    UINT sz = sizeof out;
    assert_int_equal(ID3D11Device_GetPrivateData(dev, &guid_a, &sz, &out), S_OK);
    assert_int_equal(out, 1);
    assert_int_equal(ID3D11Buffer_GetPrivateData(buf, &guid_a, &sz, &out), S_OK);
    assert_int_equal(out, 4);
    assert_int_equal(ID3D11Device_SetPrivateData(dev, &guid_a, 0, NULL), S_OK);

    ID3D11CommandList_Release(list);
    ID3D11DeviceContext_Release(dc);
    ID3D11Query_Release(query);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11ShaderResourceView_Release(srv);
    ID3D11RenderTargetView_Release(rtv);
    ID3D11Texture3D_Release(tex3);
    ID3D11Texture2D_Release(tex2);
    ID3D11Texture1D_Release(tex1);
    ID3D11Buffer_Release(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(set_and_remove, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(get_answers, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(interfaces_are_referenced, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(every_object_keeps_its_own, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
