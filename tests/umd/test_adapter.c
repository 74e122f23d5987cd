/* Opening the reference UMD: OpenAdapter10_2 / OpenAdapter11, adapter functions, GetCaps,
 * CreateDevice (function tables, rendering context on the render node) and DestroyDevice
 * (docs/architecture.md "Process model and entry points"). */
#include "umd/umd_fake.h"
#include "umd/deferred.h"

/* OpenAdapter10_2 fills every D3D10_2DDI_ADAPTERFUNCS member and returns its adapter;
 * OpenAdapter11 is the same entry point. */
/* rule: umd.openadapter10-2-fills-every-d3d10-2ddi */
static void test_open_adapter_fills_adapter_funcs(void **state)
{
    for (int alias = 0; alias < 2; alias++) {
        struct fake *f = fake_new_sized(4096, 8, 8);
        f->open = (D3D10DDIARG_OPENADAPTER){ .hRTAdapter = { f }, .pAdapterCallbacks = &f->adapter_cb,
                                             .pAdapterFuncs_2 = &f->adapter_funcs };
        assert_int_equal(alias ? OpenAdapter11(&f->open) : OpenAdapter10_2(&f->open), S_OK);
        assert_non_null(f->open.hAdapter.pDrvPrivate);
        assert_non_null(f->adapter_funcs.pfnCalcPrivateDeviceSize);
        assert_non_null(f->adapter_funcs.pfnCreateDevice);
        assert_non_null(f->adapter_funcs.pfnCloseAdapter);
        assert_non_null(f->adapter_funcs.pfnGetSupportedVersions);
        assert_non_null(f->adapter_funcs.pfnGetCaps);
        fake_teardown(f);
    }
}

/* The UMD reads struct swgpu_umd_adapter_info through pfnQueryAdapterInfoCb and refuses data
 * that is not its driver package's. */
/* rule: umd.umd-reads-adapter-info-through */
static void test_open_adapter_refuses_foreign_private_data(void **state)
{
    struct fake *f = fake_new_sized(4096, 8, 8);
    f->info.magic = 0x12345678;
    assert_int_equal(fake_open_adapter(f), E_FAIL);
    assert_null(f->open.hAdapter.pDrvPrivate);
    fake_teardown(f);
}

/* GetCaps(D3D11DDICAPS_THREADING) reports honestly: command lists (deferred.c) but no
 * free-threaded creates; with the command-list switch off, nothing (the runtime emulates). */
/* rule: umd.getsupportedversions-reports-d3d10-0 */
static void test_threading_caps_report_command_lists_unless_switched_off(void **state)
{
    struct fake *f = fake_new_sized(4096, 8, 8);
    assert_int_equal(fake_open_adapter(f), S_OK);
    D3D11DDI_THREADING_CAPS caps = { 0xFFFFFFFF };
    D3D10_2DDIARG_GETCAPS gc = { .Type = D3D11DDICAPS_THREADING, .pData = &caps, .DataSize = sizeof caps };
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    assert_int_equal(f->adapter_funcs.pfnGetCaps(f->open.hAdapter, &gc), S_OK);
    assert_int_equal(caps.Caps, D3D11DDICAPS_COMMANDLISTS | D3D11DDICAPS_COMMANDLISTS_BUILD_2);
    setenv("WDDM_UMD_NO_COMMANDLISTS", "1", 1);
    assert_int_equal(f->adapter_funcs.pfnGetCaps(f->open.hAdapter, &gc), S_OK);
    assert_int_equal(caps.Caps, 0);
    unsetenv("WDDM_UMD_NO_COMMANDLISTS");
    fake_teardown(f);
}

/* GetSupportedVersions: count first, then every DDI the one code base serves: D3D10.0,
 * D3D10.1, D3D11.0 and D3D11.1 (issue 15 §1, §4), each as the WDK's *_SUPPORTED value. */
/* rule: umd.getsupportedversions-reports-d3d10-0 */
/* rule: runtime.d3d11-device-drives-umd-through-d3d11 */
static void test_supported_versions_report_d3d10_and_d3d11(void **state)
{
    struct fake *f = fake_new_sized(4096, 8, 8);
    assert_int_equal(fake_open_adapter(f), S_OK);
    UINT32 n = 0;
    assert_int_equal(f->adapter_funcs.pfnGetSupportedVersions(f->open.hAdapter, &n, NULL), S_OK);
    assert_int_equal(n, 4);
    UINT64 v[4] = { 0 };
    UINT32 small = 3;
    assert_int_equal(f->adapter_funcs.pfnGetSupportedVersions(f->open.hAdapter, &small, v), E_INVALIDARG);
    assert_int_equal(f->adapter_funcs.pfnGetSupportedVersions(f->open.hAdapter, &n, v), S_OK);
    assert_int_equal(v[0], D3D10_0_DDI_SUPPORTED);
    assert_int_equal(v[1], D3D10_1_DDI_SUPPORTED);
    assert_int_equal(v[2], D3D11_0_DDI_SUPPORTED);
    assert_int_equal(v[3], D3D11_1_DDI_SUPPORTED);
    assert_int_equal(v[3] >> 32, 0xb000f); /* the WDK's values: interface 11.15, build 0 */
    assert_int_equal(v[2] >> 32, 0xb000a);
    assert_int_equal(v[0] >> 32, (10u << 16) | 1);
    assert_int_equal(v[1] >> 32, (10u << 16) | 2);
    fake_teardown(f);
}

/* OpenAdapter10 (the D3D10 runtime's entry) fills the three-member D3D10DDI_ADAPTERFUNCS and
 * takes only the D3D10.0 / 10.1 interfaces; CreateDevice with Interface = D3D10.0 fills
 * D3D10DDI_DEVICEFUNCS, with Map and Unmap among the device functions (seed 001 §1, §5), and
 * the table drives a staging buffer through pfnLockCb. */
/* rule: umd.umd-fills-d3d10ddi-devicefuncs-d3d10 (a staging buffer made through the 10.x `CreateResource` maps through the table's `pfnResourceMap` with one `pfnLockCb`, ReadOnly) */
/* rule: d3d10.one-table-context-immediate-context */
static void test_open_adapter10_and_d3d10_device_table(void **state)
{
    for (int v = 0; v < 2; v++) {
        struct fake *f = fake_new_sized(64 * 1024, 64, 64);
        UINT iface = v ? D3D10_1_DDI_INTERFACE_VERSION : D3D10_0_DDI_INTERFACE_VERSION;
        D3D10DDI_ADAPTERFUNCS af = { 0 };
        f->open = (D3D10DDIARG_OPENADAPTER){ .hRTAdapter = { f }, .Interface = D3D11_0_DDI_INTERFACE_VERSION,
                                             .pAdapterCallbacks = &f->adapter_cb, .pAdapterFuncs = &af };
        assert_int_equal(OpenAdapter10(&f->open), E_INVALIDARG); /* not a D3D10 interface */
        f->open.Interface = iface;
        assert_int_equal(OpenAdapter10(&f->open), S_OK);
        assert_non_null(af.pfnCalcPrivateDeviceSize);
        assert_non_null(af.pfnCreateDevice);
        assert_non_null(af.pfnCloseAdapter);
        f->adapter_funcs.pfnCloseAdapter = af.pfnCloseAdapter; /* fake_teardown closes through it */

        D3D10DDIARG_CALCPRIVATEDEVICESIZE cs = { .Interface = iface };
        f->device_mem = calloc(1, af.pfnCalcPrivateDeviceSize(f->open.hAdapter, &cs));
        f->hDevice.pDrvPrivate = f->device_mem;
        D3D10DDI_CORELAYER_DEVICECALLBACKS um = { .pfnSetErrorCb = f->core.pfnSetErrorCb };
        union { D3D10DDI_DEVICEFUNCS f10; D3D10_1DDI_DEVICEFUNCS f10_1; } t;
        memset(&t, 0, sizeof t);
        D3D10DDIARG_CREATEDEVICE cd = { .hRTDevice = { f }, .Interface = 0x000b0009, .pKTCallbacks = &f->kt,
                                        .pDeviceFuncs = &t.f10, .hDrvDevice = f->hDevice, .hRTCoreLayer = { f },
                                        .pUMCallbacks = &um };
        assert_int_equal(af.pfnCreateDevice(f->open.hAdapter, &cd), E_INVALIDARG); /* unknown interface */
        cd.Interface = iface;
        assert_int_equal(af.pfnCreateDevice(f->open.hAdapter, &cd), S_OK);
        /* Every slot this UMD implements is filled, the others stay NULL (the members below sit
         * alike in the 10.0 and 10.1 tables). */
        const D3D10DDI_DEVICEFUNCS *d = &t.f10;
        const void *filled[] = {
            d->pfnDefaultConstantBufferUpdateSubresourceUP, d->pfnDynamicIABufferMapNoOverwrite,
            d->pfnDynamicIABufferUnmap, d->pfnDynamicConstantBufferMapDiscard, d->pfnDynamicIABufferMapDiscard,
            d->pfnDynamicConstantBufferUnmap, d->pfnDynamicResourceMapDiscard, d->pfnDynamicResourceUnmap,
            d->pfnStagingResourceMap, d->pfnStagingResourceUnmap, d->pfnQueryEnd, d->pfnQueryBegin,
            d->pfnResourceCopyRegion, d->pfnResourceUpdateSubresourceUP, d->pfnClearRenderTargetView,
            d->pfnQueryGetData, d->pfnFlush, d->pfnResourceCopy, d->pfnResourceMap, d->pfnResourceUnmap,
            d->pfnResourceIsStagingBusy, d->pfnCalcPrivateResourceSize, d->pfnCalcPrivateOpenedResourceSize,
            d->pfnCreateResource, d->pfnOpenResource, d->pfnDestroyResource, d->pfnCalcPrivateShaderResourceViewSize,
            d->pfnCreateShaderResourceView, d->pfnDestroyShaderResourceView, d->pfnCalcPrivateRenderTargetViewSize,
            d->pfnCreateRenderTargetView, d->pfnDestroyRenderTargetView, d->pfnCalcPrivateQuerySize,
            d->pfnCreateQuery, d->pfnDestroyQuery, d->pfnCheckFormatSupport, d->pfnCheckMultisampleQualityLevels,
            d->pfnDestroyDevice,
        };
        for (size_t i = 0; i < sizeof filled / sizeof filled[0]; i++)
            assert_non_null(filled[i]);
        assert_null(d->pfnDraw);
        assert_null(d->pfnCreateBlendState);
        assert_null(d->pfnSetTextFilterSize);
        if (iface == D3D10_1_DDI_INTERFACE_VERSION)
            assert_null(t.f10_1.pfnResourceConvertRegion);
        f->df.pfnDestroyDevice = t.f10.pfnDestroyDevice;

        /* A staging buffer, created through the 10.x CreateResource, read through the device's
         * pfnResourceMap: one pfnLockCb with ReadOnly (seed 001 §6.3 row MAP_READ). */
        D3D10DDI_MIPINFO mip = { 256, 1, 1, 256, 1, 1 };
        D3D10DDIARG_CREATERESOURCE ra = { .pMipInfoList = &mip, .ResourceDimension = D3D10DDIRESOURCE_BUFFER,
                                          .Usage = D3D10_DDI_USAGE_STAGING,
                                          .MapFlags = D3D10_DDI_CPU_ACCESS_READ | D3D10_DDI_CPU_ACCESS_WRITE,
                                          .Format = DXGI_FORMAT_UNKNOWN, .SampleDesc = { 1, 0 }, .MipLevels = 1,
                                          .ArraySize = 1 };
        SIZE_T rs = t.f10.pfnCalcPrivateResourceSize(f->hDevice, &ra);
        assert_true(rs > 0);
        D3D10DDI_HRESOURCE hr_ = { calloc(1, rs) };
        t.f10.pfnCreateResource(f->hDevice, &ra, hr_, (D3D10DDI_HRTRESOURCE){ f });
        assert_int_equal(f->n_errors, 0);
        int locks = f->lock_calls;
        D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
        t.f10.pfnResourceMap(f->hDevice, hr_, 0, D3D10_DDI_MAP_READ, 0, &m);
        assert_int_equal(f->n_errors, 0);
        assert_non_null(m.pData);
        assert_int_equal(f->lock_calls, locks + 1);
        assert_true(f->lock_log[locks].ReadOnly);
        assert_false(f->lock_log[locks].WriteOnly);
        t.f10.pfnResourceUnmap(f->hDevice, hr_, 0);
        t.f10.pfnDestroyResource(f->hDevice, hr_);
        free(hr_.pDrvPrivate);
        fake_teardown(f);
    }
}

/* CreateDevice creates the rendering context with pfnCreateContextCb on render_node, fills
 * both function tables, and DestroyDevice destroys the context. */
/* rule: umd.createdevice-creates-context */
/* rule: d3d10.one-table-context-immediate-context */
static void test_create_device_creates_context_on_render_node(void **state)
{
    struct fake *f = fake_new_sized(4096, 8, 8);
    f->info.render_node = 3;
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), S_OK);
    assert_int_equal(f->create_context_calls, 1);
    assert_int_equal(f->node_ordinal, 3);
    /* The one table holds every slot this UMD implements: the commands, the object functions
     * and the IC's deferred-context slots. The DC-only ones (AbandonCommandList,
     * CreateCommandList) and the slots of what it does not model (draws, shaders, states) stay
     * NULL. */
    const D3D11DDI_DEVICEFUNCS *t = &f->df;
    const void *filled[] = {
        t->pfnDefaultConstantBufferUpdateSubresourceUP, t->pfnDynamicIABufferMapNoOverwrite, t->pfnDynamicIABufferUnmap,
        t->pfnDynamicConstantBufferMapDiscard, t->pfnDynamicIABufferMapDiscard, t->pfnDynamicConstantBufferUnmap,
        t->pfnDynamicResourceMapDiscard, t->pfnDynamicResourceUnmap, t->pfnStagingResourceMap, t->pfnStagingResourceUnmap,
        t->pfnQueryEnd, t->pfnQueryBegin, t->pfnResourceCopyRegion, t->pfnResourceUpdateSubresourceUP,
        t->pfnClearRenderTargetView, t->pfnQueryGetData, t->pfnFlush, t->pfnResourceCopy, t->pfnResourceMap,
        t->pfnResourceUnmap, t->pfnResourceIsStagingBusy, t->pfnCalcPrivateResourceSize,
        t->pfnCalcPrivateOpenedResourceSize, t->pfnCreateResource, t->pfnOpenResource, t->pfnDestroyResource,
        t->pfnCalcPrivateShaderResourceViewSize, t->pfnCreateShaderResourceView, t->pfnDestroyShaderResourceView,
        t->pfnCalcPrivateRenderTargetViewSize, t->pfnCreateRenderTargetView, t->pfnDestroyRenderTargetView,
        t->pfnCalcPrivateQuerySize, t->pfnCreateQuery, t->pfnDestroyQuery, t->pfnCheckFormatSupport,
        t->pfnCheckMultisampleQualityLevels, t->pfnDestroyDevice, t->pfnCommandListExecute,
        t->pfnCheckDeferredContextHandleSizes, t->pfnCalcDeferredContextHandleSize,
        t->pfnCalcPrivateDeferredContextSize, t->pfnCreateDeferredContext, t->pfnCalcPrivateCommandListSize,
        t->pfnDestroyCommandList, t->pfnCalcPrivateUnorderedAccessViewSize, t->pfnCreateUnorderedAccessView,
        t->pfnDestroyUnorderedAccessView, t->pfnClearUnorderedAccessViewUint,
    };
    for (size_t i = 0; i < sizeof filled / sizeof filled[0]; i++)
        assert_non_null(filled[i]);
    assert_null(t->pfnAbandonCommandList);
    assert_null(t->pfnCreateCommandList);
    assert_null(t->pfnDraw);
    assert_null(t->pfnCreateVertexShader);
    assert_null(t->pfnSetBlendState);
    f->df.pfnDestroyDevice(f->hDevice);
    assert_int_equal(f->destroy_context_calls, 1);
    free(f->device_mem);
    f->device_mem = NULL;
    fake_teardown(f);
}

/* A failing pfnCreateContextCb fails CreateDevice with its HRESULT. */
static HRESULT APIENTRY failing_CreateContextCb(HANDLE hDevice, D3DDDICB_CREATECONTEXT *c)
{
    return E_OUTOFMEMORY;
}

/* rule: umd.createdevice-creates-context */
static void test_create_device_fails_when_context_creation_fails(void **state)
{
    struct fake *f = fake_new_sized(4096, 8, 8);
    f->kt.pfnCreateContextCb = failing_CreateContextCb;
    assert_int_equal(fake_open_adapter(f), S_OK);
    assert_int_equal(fake_create_device(f), E_OUTOFMEMORY);
    free(f->device_mem);
    f->device_mem = NULL;
    fake_teardown(f);
}

/* CheckFormatSupport answers from the shared format table. */
static void test_check_format_support_uses_format_table(void **state)
{
    struct fake *f = fake_setup();
    UINT s = 0;
    f->df.pfnCheckFormatSupport(f->hDevice, DXGI_FORMAT_R8G8B8A8_UNORM, &s);
    assert_int_equal(s, wddm_format_info(DXGI_FORMAT_R8G8B8A8_UNORM)->support);
    f->df.pfnCheckFormatSupport(f->hDevice, (DXGI_FORMAT)9999, &s);
    assert_int_equal(s, 0);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_adapter_fills_adapter_funcs),
        cmocka_unit_test(test_open_adapter_refuses_foreign_private_data),
        cmocka_unit_test(test_threading_caps_report_command_lists_unless_switched_off),
        cmocka_unit_test(test_supported_versions_report_d3d10_and_d3d11),
        cmocka_unit_test(test_open_adapter10_and_d3d10_device_table),
        cmocka_unit_test(test_create_device_creates_context_on_render_node),
        cmocka_unit_test(test_create_device_fails_when_context_creation_fails),
        cmocka_unit_test(test_check_format_support_uses_format_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
