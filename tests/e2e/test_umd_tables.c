/*
 * test_umd_tables.c - the user-mode driver's interface tables in the WDK's layout (issue 19 §2,
 * docs/drivers.md "The interface tables"). D3D10DDI_DEVICEFUNCS, D3D10_1DDI_DEVICEFUNCS,
 * D3D11DDI_DEVICEFUNCS and D3D11_1DDI_DEVICEFUNCS hold every documented slot in the documented
 * order, one table per context; the runtime's callback tables (D3DDDI_DEVICECALLBACKS,
 * D3DDDI_ADAPTERCALLBACKS, the core layer's, DXGI's) likewise, and D3D10DDIARG_CREATEDEVICE /
 * D3D11DDIARG_CREATEDEFERREDCONTEXT have the WDK's members (Microsoft's reference pages of those
 * structures, d3d10umddi.h, d3dumddi.h, dxgiddi.h). Through the whole stack: a UMD that fills the
 * slots this model does not implement never sees them called; one that calls a callback this
 * runtime does not implement gets E_NOTIMPL (or nothing, for a void one) and the refusal names
 * the callback. docs/rules/runtime.md.
 */
#include "e2e/e2e.h"

#include <stddef.h>

#include <wddm/wddm.h>

#define SLOTS(type) (sizeof(type) / sizeof(void *))
#define AT(type, member) (offsetof(type, member) / sizeof(void *))

/* Slot counts and anchors across each table, at the places the reference pages' order gives
 * them: a slot added, lost or moved moves an anchor. */
/* rule: runtime.d3d10ddi-devicefuncs-d3d10-1ddi */
/* rule: runtime.psgp-slots-wddm-1-3-not-modeled (101 slots in the 10.0 table, 155 ending with pfnClearView in the 11.1 one) */
static void device_tables_are_in_the_wdk_order(void **state)
{
    (void)state;
    assert_int_equal(SLOTS(D3D10DDI_DEVICEFUNCS), 101);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnDefaultConstantBufferUpdateSubresourceUP), 0);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnDraw), 7);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnIaSetTopology), 23);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnStagingResourceMap), 24);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnSetRenderTargets), 30);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnQueryGetData), 47);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnResourceMap), 52);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnCreateResource), 58);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnCreateQuery), 93);
    assert_int_equal(AT(D3D10DDI_DEVICEFUNCS, pfnDestroyDevice), 99);

    assert_int_equal(SLOTS(D3D10_1DDI_DEVICEFUNCS), 103);
    assert_int_equal(AT(D3D10_1DDI_DEVICEFUNCS, pfnIaSetTopology), 23);
    assert_int_equal(AT(D3D10_1DDI_DEVICEFUNCS, pfnQueryGetData), 47);
    assert_int_equal(AT(D3D10_1DDI_DEVICEFUNCS, pfnCreateShaderResourceView), 62);
    assert_int_equal(AT(D3D10_1DDI_DEVICEFUNCS, pfnResourceConvertRegion), 102);

    /* D3D11.0: the 10.1 table's 103 places, then the D3D11 additions. */
    assert_int_equal(SLOTS(D3D11DDI_DEVICEFUNCS), 150);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnDraw), 7);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnIaSetTopology), 23);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnSetRenderTargets), 30);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnQueryGetData), 47);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnFlush), 48);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnResourceConvert), 101);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnCommandListExecute), 105);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnCreateDeferredContext), 119);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnCreateComputeShader), 131);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnCreateUnorderedAccessView), 137);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnClearUnorderedAccessViewUint), 139);
    assert_int_equal(AT(D3D11DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList), 149);

    /* D3D11.1: the 11.0 slots in the same places, five more at the end. */
    assert_int_equal(SLOTS(D3D11_1DDI_DEVICEFUNCS), 155);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnDraw), 7);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnIaSetTopology), 23);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnSetRenderTargets), 30);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnQueryGetData), 47);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnFlush), 48);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList), 149);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnDiscard), 150);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnDynamicConstantBufferMapNoOverwrite), 152);
    assert_int_equal(AT(D3D11_1DDI_DEVICEFUNCS, pfnClearView), 154);
}

/* rule: runtime.d3d10ddi-devicefuncs-d3d10-1ddi */
static void callback_tables_are_in_the_wdk_order(void **state)
{
    (void)state;
    assert_int_equal(SLOTS(D3DDDI_DEVICECALLBACKS), 53); /* up to WDDM 2.1 */
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnRenderCb), 6);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnCreateContextCb), 14);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnCreateSynchronizationObject2Cb), 24);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnMakeResidentCb), 29);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnLock2Cb), 37);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnSubmitCommandCb), 45);
    assert_int_equal(AT(D3DDDI_DEVICECALLBACKS, pfnReclaimAllocations3Cb), 52);
    assert_int_equal(SLOTS(D3DDDI_ADAPTERCALLBACKS), 2);

    assert_int_equal(SLOTS(D3D10DDI_CORELAYER_DEVICECALLBACKS), 26);
    assert_int_equal(AT(D3D10DDI_CORELAYER_DEVICECALLBACKS, pfnStateTextFilterSizeCb), 25);
    assert_int_equal(SLOTS(D3D11DDI_CORELAYER_DEVICECALLBACKS), 40);
    assert_int_equal(AT(D3D11DDI_CORELAYER_DEVICECALLBACKS, pfnPerformAmortizedProcessingCb), 34);
    assert_int_equal(AT(D3D11DDI_CORELAYER_DEVICECALLBACKS, pfnStateCsConstBufCb), 39);

    assert_int_equal(SLOTS(DXGI_DDI_BASE_FUNCTIONS), 7);
    assert_int_equal(SLOTS(DXGI1_1_DDI_BASE_FUNCTIONS), 8);
    assert_int_equal(SLOTS(DXGI1_2_DDI_BASE_FUNCTIONS), 15);
    assert_int_equal(SLOTS(DXGI_DDI_BASE_CALLBACKS), 2);
}

/* D3D10DDIARG_CREATEDEVICE: the function-table union, then hDrvDevice, DXGIBaseDDI (two
 * pointers), hRTCoreLayer, the callback union, Flags, ppfnRetrieveSubObject. */
/* rule: runtime.d3d10ddi-devicefuncs-d3d10-1ddi (mutation-checked: a slot moved fails it) */
static void argument_structures_have_the_wdk_members(void **state)
{
    (void)state;
    const size_t p = sizeof(void *);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, pDeviceFuncs), 3 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, p11_1DeviceFuncs), 3 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, hDrvDevice), 4 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, DXGIBaseDDI), 5 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, hRTCoreLayer), 7 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, p11UMCallbacks), 8 * p);
    assert_int_equal(offsetof(D3D10DDIARG_CREATEDEVICE, ppfnRetrieveSubObject), 10 * p);
    assert_int_equal(offsetof(D3D11DDIARG_CREATEDEFERREDCONTEXT, p11_1ContextFuncs), 0);
    assert_int_equal(offsetof(D3D11DDIARG_CREATEDEFERREDCONTEXT, hDrvContext), p);
    assert_int_equal(offsetof(D3D11DDIARG_CREATEDEFERREDCONTEXT, p11UMCallbacks), 3 * p);
}

/* ---- a UMD that fills every slot it may and calls what the runtime does not model ------------ */

static struct {
    PFND3D10DDI_CREATEDEVICE real_create_device;
    int traps;                          /* calls of slots the runtime must never call */
    HRESULT escape, dxgi_present, multisample;
    BOOL all_callbacks_set, dxgi_storage;
    char why[512];                      /* the refusals after pfnEscapeCb */
} u;

static VOID APIENTRY trap_draw(D3D10DDI_HDEVICE d, UINT count, UINT start) { u.traps++; }
static VOID APIENTRY trap_set_blend(D3D10DDI_HDEVICE d, D3D10DDI_HBLENDSTATE b, const FLOAT f[4], UINT mask) { u.traps++; }
static VOID APIENTRY trap_dispatch(D3D10DDI_HDEVICE d, UINT x, UINT y, UINT z) { u.traps++; }
static VOID APIENTRY trap_clear_view(D3D10DDI_HDEVICE d, D3D11DDI_HANDLETYPE t, VOID *v, const FLOAT c[4],
                                     const D3D10_DDI_RECT *r, UINT n) { u.traps++; }
static HRESULT APIENTRY trap_present(DXGI_DDI_ARG_PRESENT *a) { u.traps++; return S_OK; }
static HRESULT APIENTRY trap_retrieve(D3D10DDI_HDEVICE d, UINT32 id, SIZE_T ps, void *p, SIZE_T os, void *o)
{
    u.traps++;
    return S_OK;
}

static BOOL all_set(const void *table, size_t slots)
{
    void (*const *f)(void) = table;
    for (size_t i = 0; i < slots; i++)
        if (!f[i])
            return FALSE;
    return TRUE;
}

static HRESULT APIENTRY filling_create_device(D3D10DDI_HADAPTER a, D3D10DDIARG_CREATEDEVICE *args)
{
    HRESULT hr = u.real_create_device(a, args);
    if (FAILED(hr) || args->Interface != D3D11_1_DDI_INTERFACE_VERSION)
        return hr;
    D3D11_1DDI_DEVICEFUNCS *f = args->p11_1DeviceFuncs;
    f->pfnDraw = trap_draw;
    f->pfnSetBlendState = trap_set_blend;
    f->pfnDispatch = trap_dispatch;
    f->pfnClearView = trap_clear_view;
    u.dxgi_storage = args->DXGIBaseDDI.pDXGIBaseCallbacks && args->DXGIBaseDDI.pDXGIDDIBaseFunctions3 &&
                     args->ppfnRetrieveSubObject;
    if (!u.dxgi_storage)
        return hr;
    args->DXGIBaseDDI.pDXGIDDIBaseFunctions3->pfnPresent = trap_present;
    *args->ppfnRetrieveSubObject = trap_retrieve;

    /* Every callback slot holds a function, modeled or not. */
    u.all_callbacks_set = all_set(args->pKTCallbacks, SLOTS(D3DDDI_DEVICECALLBACKS)) &&
                          all_set(args->p11UMCallbacks, SLOTS(D3D11DDI_CORELAYER_DEVICECALLBACKS)) &&
                          all_set(args->DXGIBaseDDI.pDXGIBaseCallbacks, SLOTS(DXGI_DDI_BASE_CALLBACKS));
    if (!u.all_callbacks_set)
        return hr;
    wddm_clear_refusals();
    u.escape = args->pKTCallbacks->pfnEscapeCb(args->hRTDevice.handle, NULL);
    wddm_last_refusals(u.why, sizeof u.why);
    args->p11UMCallbacks->pfnStateVsConstBufCb(args->hRTCoreLayer, 0, 1); /* returns, does nothing */
    args->p11UMCallbacks->pfnPerformAmortizedProcessingCb(args->hRTCoreLayer);
    u.dxgi_present = args->DXGIBaseDDI.pDXGIBaseCallbacks->pfnPresentCb(args->hRTDevice.handle, NULL);
    return hr;
}

static HRESULT APIENTRY filling_open_adapter(D3D10DDIARG_OPENADAPTER *args)
{
    HRESULT hr = OpenAdapter10_2(args);
    if (SUCCEEDED(hr)) {
        u.real_create_device = args->pAdapterFuncs_2->pfnCreateDevice;
        args->pAdapterFuncs_2->pfnCreateDevice = filling_create_device;
        PFND3DDDI_GETMULTISAMPLEMETHODLISTCB cb = args->pAdapterCallbacks->pfnGetMultisampleMethodListCb;
        u.multisample = cb ? cb(args->hRTAdapter.handle, NULL) : E_POINTER;
    }
    return hr;
}

/* rule: runtime.slot-model-not-implement-may-filled (mutation-checked: leaving the slots NULL fails it) */
static void unmodeled_slots_and_callbacks(void **state)
{
    (void)state;
    memset(&u, 0, sizeof u);
    wddm_set_umd_entry(filling_open_adapter);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL, &ctx);
    wddm_set_umd_entry(NULL);
    assert_int_equal(hr, S_OK);
    assert_true(u.dxgi_storage);
    assert_true(u.all_callbacks_set);
    assert_int_equal(u.escape, E_NOTIMPL);
    assert_non_null(strstr(u.why, "pfnEscapeCb"));
    assert_int_equal(u.dxgi_present, E_NOTIMPL);
    assert_int_equal(u.multisample, E_NOTIMPL);

    /* The device works through the slots the model implements; the filled others stay unused. */
    enum { N = 4096 };
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT };
    BYTE data[N], back[N];
    e2e_fill(data, N, 61);
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = data };
    ID3D11Buffer *src, *dst, *staging;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, &init, &src), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &dst), S_OK);
    bd.Usage = D3D11_USAGE_STAGING;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &staging), S_OK);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)dst, (ID3D11Resource *)src);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)dst);
    ID3D11DeviceContext_Flush(ctx);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(back, m.pData, N);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
    assert_memory_equal(back, data, N);
    assert_int_equal(u.traps, 0);

    ID3D11Buffer_Release(staging);
    ID3D11Buffer_Release(dst);
    ID3D11Buffer_Release(src);
    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
    assert_int_equal(u.traps, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_tables_are_in_the_wdk_order),
        cmocka_unit_test(callback_tables_are_in_the_wdk_order),
        cmocka_unit_test(argument_structures_have_the_wdk_members),
        cmocka_unit_test(unmodeled_slots_and_callbacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
