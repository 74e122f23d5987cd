/*
 * test_device.c - D3D11CreateDevice argument rules, COM reference counting and identity,
 * device queries, and how errors a UMD reports through pfnSetErrorCb reach the API
 * (docs/semantics.md §3.6, §4.3; docs/architecture.md "Errors and bad input").
 */
#include "runtime/mock_umd.h"

static HRESULT create(IDXGIAdapter *a, D3D_DRIVER_TYPE t, HMODULE sw, UINT flags, const D3D_FEATURE_LEVEL *fl,
                      UINT nfl, UINT sdk, ID3D11Device **dev, D3D_FEATURE_LEVEL *out_fl, ID3D11DeviceContext **ctx)
{
    return D3D11CreateDevice(a, t, sw, flags, fl, nfl, sdk, dev, out_fl, ctx);
}

/* rule: runtime.d3d11createdevice-refuses-bad-arguments */
/* rule: runtime.d3d-driver-type-null-not-provided */
static void create_device_refuses_bad_arguments(void **state)
{
    static const D3D_FEATURE_LEVEL only_12[] = { D3D_FEATURE_LEVEL_12_0 };
    static const D3D_FEATURE_LEVEL bogus[] = { (D3D_FEATURE_LEVEL)0x1234 };
    static const D3D_FEATURE_LEVEL fl10[] = { D3D_FEATURE_LEVEL_10_0 };
    ID3D11Device *dev = (ID3D11Device *)(uintptr_t)1;
    ID3D11DeviceContext *ctx = (ID3D11DeviceContext *)(uintptr_t)1;
    int dummy;
    wddm_set_umd_entry(mock_OpenAdapter);

    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, 6, &dev, NULL, &ctx), E_INVALIDARG);
    assert_null(dev);
    assert_null(ctx);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create((IDXGIAdapter *)&dummy, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                            &dev, NULL, &ctx), E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_SOFTWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, &dummy, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, (D3D_DRIVER_TYPE)42, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0x80000000u, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                            &ctx), E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 3, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, fl10, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, bogus, 1, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, only_12, 1, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     E_INVALIDARG);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_NULL, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     DXGI_ERROR_UNSUPPORTED);
    assert_null(dev);
    assert_null(ctx);
    wddm_set_umd_entry(NULL);
}

/* rule: runtime.first-supported-level-list-chosen */
static void create_device_picks_first_supported_feature_level(void **state)
{
    static const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_10_1,
                                                D3D_FEATURE_LEVEL_10_0 };
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    D3D_FEATURE_LEVEL fl = 0;
    memset(&mock, 0, sizeof(mock));
    wddm_set_umd_entry(mock_OpenAdapter);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, D3D11_CREATE_DEVICE_SINGLETHREADED, levels, 3,
                            D3D11_SDK_VERSION, &dev, &fl, &ctx), S_OK);
    assert_int_equal(fl, D3D_FEATURE_LEVEL_10_1);
    assert_int_equal(ID3D11Device_GetFeatureLevel(dev), D3D_FEATURE_LEVEL_10_1);
    assert_int_equal(ID3D11Device_GetCreationFlags(dev), D3D11_CREATE_DEVICE_SINGLETHREADED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(dev), S_OK);
    assert_int_equal(ID3D11DeviceContext_GetType(ctx), D3D11_DEVICE_CONTEXT_IMMEDIATE);
    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
    assert_int_equal(mock.destroy_device, 1);

    /* No output pointers: validation only, S_FALSE, nothing left behind. */
    fl = 0;
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, &fl, NULL),
                     S_FALSE);
    assert_int_equal(fl, D3D_FEATURE_LEVEL_11_0);
    assert_int_equal(mock.destroy_device, 2);
    wddm_set_umd_entry(NULL);
}

/* rule: runtime.children-hold-device-device-destroyed */
static void children_keep_the_device_alive(void **state)
{
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    memset(&mock, 0, sizeof(mock));
    wddm_set_umd_entry(mock_OpenAdapter);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx),
                     S_OK);
    D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    ID3D11Buffer *buf;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &buf), S_OK);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    assert_int_equal(mock.destroy_device, 0); /* the buffer still holds the device */

    ID3D11Device *dev2 = NULL;
    ID3D11Buffer_GetDevice(buf, &dev2);
    assert_ptr_equal(dev2, dev);
    ID3D11DeviceContext *ctx2 = NULL;
    ID3D11Device_GetImmediateContext(dev2, &ctx2);
    ID3D11Device_Release(dev2);
    ID3D11DeviceContext_Release(ctx2);
    assert_int_equal(mock.destroy_device, 0);

    assert_int_equal(ID3D11Buffer_Release(buf), 0);
    assert_int_equal(mock.destroy_resource, 1);
    assert_int_equal(mock.destroy_device, 1); /* last reference gone: device destroyed after its child */
    wddm_set_umd_entry(NULL);
}

/* rule: runtime.queryinterface-follows-inheritance-chain */
static void query_interface_follows_the_inheritance_chain(void **state)
{
    struct mock_env *env = *state;
    D3D11_TEXTURE2D_DESC td = { 16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
    ID3D11Texture2D *tex;
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &td, NULL, &tex), S_OK);
    void *p;
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_IUnknown, &p), S_OK);
    assert_ptr_equal(p, tex);
    IUnknown_Release((IUnknown *)p);
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_ID3D11DeviceChild, &p), S_OK);
    ID3D11DeviceChild_Release((ID3D11DeviceChild *)p);
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_ID3D11Resource, &p), S_OK);
    D3D11_RESOURCE_DIMENSION dim = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    ID3D11Resource_GetType((ID3D11Resource *)p, &dim);
    assert_int_equal(dim, D3D11_RESOURCE_DIMENSION_TEXTURE2D);
    ID3D11Resource_Release((ID3D11Resource *)p);
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_ID3D11Texture2D, &p), S_OK);
    ID3D11Texture2D_Release((ID3D11Texture2D *)p);
    p = (void *)1;
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_ID3D11Buffer, &p), E_NOINTERFACE);
    assert_null(p);
    assert_int_equal(ID3D11Texture2D_QueryInterface(tex, &IID_ID3D11Device, &p), E_NOINTERFACE);

    ID3D11RenderTargetView *rtv;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(env->dev, (ID3D11Resource *)tex, NULL, &rtv), S_OK);
    assert_int_equal(ID3D11RenderTargetView_QueryInterface(rtv, &IID_ID3D11View, &p), S_OK);
    ID3D11Resource *r = NULL;
    ID3D11View_GetResource((ID3D11View *)p, &r);
    assert_ptr_equal(r, tex);
    ID3D11Resource_Release(r);
    ID3D11View_Release((ID3D11View *)p);
    assert_int_equal(ID3D11RenderTargetView_QueryInterface(rtv, &IID_ID3D11Resource, &p), E_NOINTERFACE);

    assert_int_equal(ID3D11Device_QueryInterface(env->dev, &IID_ID3D11Device, &p), S_OK);
    ID3D11Device_Release((ID3D11Device *)p);
    assert_int_equal(ID3D11DeviceContext_QueryInterface(env->ctx, &IID_ID3D11DeviceChild, &p), S_OK);
    ID3D11DeviceContext_Release((ID3D11DeviceContext *)p);

    /* The view keeps the texture alive: the texture is destroyed after the view. */
    ID3D11Texture2D_Release(tex);
    assert_int_equal(mock.destroy_resource, 0);
    ID3D11RenderTargetView_Release(rtv);
    assert_int_equal(mock.destroy_rtv, 1);
    assert_int_equal(mock.destroy_resource, 1);
}

/* rule: runtime.checkfeaturesupport-reports-umd */
/* rule: runtime.checkformatsupport-answers-format-table */
static void threading_feature_reports_the_umd_caps(void **state)
{
    ID3D11Device *dev;
    memset(&mock, 0, sizeof(mock));
    mock.threading_caps = D3D11DDICAPS_FREETHREADED;
    wddm_set_umd_entry(mock_OpenAdapter);
    assert_int_equal(create(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, NULL),
                     S_OK);
    D3D11_FEATURE_DATA_THREADING t = { 7, 7 };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_THREADING, &t, sizeof(t)), S_OK);
    assert_true(t.DriverConcurrentCreates);
    assert_false(t.DriverCommandLists);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_THREADING, &t, sizeof(t) - 1), E_INVALIDARG);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_THREADING, NULL, sizeof(t)), E_INVALIDARG);
    UINT s = 0;
    assert_int_equal(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_R8G8B8A8_UNORM, &s), S_OK);
    assert_true(s & D3D11_FORMAT_SUPPORT_RENDER_TARGET);
    assert_int_equal(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_D24_UNORM_S8_UINT, &s), S_OK);
    assert_true(s & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL);
    assert_false(s & D3D11_FORMAT_SUPPORT_RENDER_TARGET);
    assert_int_equal(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_NV12, &s), E_FAIL);
    ID3D11Device_Release(dev);
    wddm_set_umd_entry(NULL);
}

/* rule: runtime.createresource-reports-error-dead-no */
static void create_error_from_umd_means_no_destroy(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    ID3D11Buffer *buf = (ID3D11Buffer *)(uintptr_t)1;
    mock.create_error = E_OUTOFMEMORY;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), E_OUTOFMEMORY);
    assert_null(buf);
    assert_int_equal(mock.create_resource, 1);
    assert_int_equal(mock.destroy_resource, 0); /* docs/semantics.md §4.2: the handle is dead */
    mock.create_error = DXGI_DDI_ERR_UNSUPPORTED;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), DXGI_ERROR_UNSUPPORTED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), S_OK);
}

/* rule: runtime.unmap-subresource-not-mapped-refused */
/* rule: runtime.dxgi-ddi-err-wasstilldrawing-allowed-map */
static void map_still_drawing_becomes_dxgi_error_was_still_drawing(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
    ID3D11Buffer *buf;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    mock.map_error = DXGI_DDI_ERR_WASSTILLDRAWING;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)buf, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m), DXGI_ERROR_WAS_STILL_DRAWING);
    assert_int_equal(mock.last_map_flags, D3D10_DDI_MAP_FLAG_DONOTWAIT);
    assert_null(m.pData);
    /* Not mapped: an Unmap now is refused before the UMD. */
    ID3D11DeviceContext_Unmap(env->ctx, (ID3D11Resource *)buf, 0);
    assert_int_equal(mock.slot[MOCK_UNMAP_STAGING], 0);
    /* Still usable afterwards. */
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)buf, 0, D3D11_MAP_READ, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(env->ctx, (ID3D11Resource *)buf, 0);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), S_OK);
    ID3D11Buffer_Release(buf);
}

/* rule: runtime.error-ddi-may-not-report-critical */
static void still_drawing_without_do_not_wait_is_critical(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0 };
    ID3D11Buffer *buf;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    /* docs/semantics.md §4.3: WASSTILLDRAWING only with DONOTWAIT; otherwise critical -> removed. */
    mock.map_error = DXGI_DDI_ERR_WASSTILLDRAWING;
    assert_int_equal(ID3D11DeviceContext_Map(env->ctx, (ID3D11Resource *)buf, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), DXGI_ERROR_DRIVER_INTERNAL_ERROR);
    ID3D11Buffer_Release(buf);
}

/* rule: runtime.d3dddierr-deviceremoved-ddi-removes */
static void device_removed_is_sticky(void **state)
{
    struct mock_env *env = *state;
    mock.flush_error = D3DDDIERR_DEVICEREMOVED;
    ID3D11DeviceContext_Flush(env->ctx);
    assert_int_equal(mock.flush, 1);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(env->dev), DXGI_ERROR_DEVICE_REMOVED);

    D3D11_BUFFER_DESC bd = { 256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0 };
    ID3D11Buffer *buf = (ID3D11Buffer *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(buf);
    assert_int_equal(mock.create_resource, 0);
    ID3D11DeviceContext_Flush(env->ctx);
    assert_int_equal(mock.flush, 1); /* nothing more reaches the UMD */
}

/* rule: runtime.flush-reaches-umd-pfnflush */
static void flush_reaches_the_umd(void **state)
{
    struct mock_env *env = *state;
    ID3D11DeviceContext_Flush(env->ctx);
    ID3D11DeviceContext_Flush(env->ctx);
    assert_int_equal(mock.flush, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_device_refuses_bad_arguments),
        cmocka_unit_test(create_device_picks_first_supported_feature_level),
        cmocka_unit_test(children_keep_the_device_alive),
        cmocka_unit_test(threading_feature_reports_the_umd_caps),
        cmocka_unit_test_setup_teardown(query_interface_follows_the_inheritance_chain, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(create_error_from_umd_means_no_destroy, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(map_still_drawing_becomes_dxgi_error_was_still_drawing, mock_setup,
                                        mock_teardown),
        cmocka_unit_test_setup_teardown(still_drawing_without_do_not_wait_is_critical, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(device_removed_is_sticky, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(flush_reaches_the_umd, mock_setup, mock_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
