/*
 * context.c - the immediate context (ID3D11DeviceContext), embedded in the device.
 *
 * Reference counting follows the device-child rule: while the application holds the context,
 * the context holds one device reference (taken on 0 -> 1, dropped on 1 -> 0), so the device
 * lives as long as anything references it. Map/Unmap live in map.c, copies in copy.c.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/timeline.h"

HRESULT STDMETHODCALLTYPE rt_context_QueryInterface(ID3D11DeviceContext *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11DeviceContext) || rt_iid_equal(riid, &IID_ID3D11DeviceContext1) ||
        rt_iid_equal(riid, &IID_ID3D11DeviceContext2) || rt_iid_equal(riid, &IID_ID3D11DeviceContext3) ||
        rt_iid_equal(riid, &IID_ID3D11DeviceContext4)) {
        ID3D11DeviceContext_AddRef(iface);
        *ppv = iface;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE ctx_AddRef(ID3D11DeviceContext *iface)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    ULONG n = atomic_fetch_add(&ctx->refs, 1) + 1;
    if (n == 1)
        rt_device_addref(ctx->device);
    return n;
}

static ULONG STDMETHODCALLTYPE ctx_Release(ID3D11DeviceContext *iface)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    ULONG n = atomic_fetch_sub(&ctx->refs, 1) - 1;
    if (n == 0)
        rt_device_release(ctx->device); /* may destroy the device and this embedded context */
    return n;
}

static void STDMETHODCALLTYPE ctx_GetDevice(ID3D11DeviceContext *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_context *ctx = rt_context_from_iface(iface);
    rt_device_addref(ctx->device);
    *out = &ctx->device->iface;
}

static void STDMETHODCALLTYPE ctx_Flush(ID3D11DeviceContext *iface)
{
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    if (rt_device_is_removed(dev) || !rt_ddi_has_flush(dev))
        return;
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    wddm_tl_begin(WDDM_TL_CALL_FLUSH);
    rt_ddi_begin(dev);
    rt_ddi_flush(dev);
    HRESULT err = rt_ddi_end(dev);
    wddm_tl_end(WDDM_TL_CALL_FLUSH, (UINT64)(UINT32)err);
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnFlush");
}

/* ID3D11DeviceContext3::Flush1: Flush, and with an event, the event is set once the work submitted
 * so far is done (the event query the page describes: as IDXGIDevice2::EnqueueSetEvent). A
 * deferred context has nothing to submit: its event is set at once. */
void STDMETHODCALLTYPE rt_context_Flush1(ID3D11DeviceContext3 *iface, D3D11_CONTEXT_TYPE type, HANDLE event)
{
    struct rt_context *ctx = rt_context_from_iface((ID3D11DeviceContext *)iface);
    if ((UINT)type > D3D11_CONTEXT_TYPE_VIDEO) {
        RT_REFUSE("Flush1: ContextType %u is not a D3D11_CONTEXT_TYPE", (UINT)type);
        return;
    }
    if (ctx->dc || rt_device_is_removed(ctx->device)) {
        if (event)
            (void)SetEvent(event);
        return;
    }
    if (event)
        (void)rt_gpu_signal_after_work(ctx->device, 0, 0, event);
    else
        ctx_Flush((ID3D11DeviceContext *)iface);
}

static D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE ctx_GetType(ID3D11DeviceContext *iface)
{
    return D3D11_DEVICE_CONTEXT_IMMEDIATE;
}

static HRESULT STDMETHODCALLTYPE ctx_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                       ID3D11CommandList **out)
{
    if (out)
        *out = NULL;
    RT_REFUSE("FinishCommandList: only a deferred context records a command list");
    return DXGI_ERROR_INVALID_CALL;
}

static UINT STDMETHODCALLTYPE ctx_GetContextFlags(ID3D11DeviceContext *iface)
{
    return 0;
}

RT_PRIVATE_DATA_DEFINE(, rt_context, ID3D11DeviceContext, &rt_context_from_iface(This)->device->private_lock,
                       &rt_context_from_iface(This)->private_data)

/* ID3D11DeviceContext's vtable and ID3D11DeviceContext1's own slots after it: one object. */
static const struct {
    struct ID3D11DeviceContextVtbl base;
    struct rt_own_ID3D11DeviceContext1 ext;
    RT_CONTEXT_VTBL_EXT;
} context_vtbl = {
    .base = {
        RT_API_STUBS_ID3D11DeviceContext, /* every slot answers "not implemented" until named below */
        .QueryInterface = rt_context_QueryInterface,
        RT_PRIVATE_DATA_SLOTS(rt_context),
        .AddRef = ctx_AddRef,
        .Release = ctx_Release,
        .GetDevice = ctx_GetDevice,
        .Map = rt_traced_Map,
        .Unmap = rt_traced_Unmap,
        .CopySubresourceRegion = rt_traced_CopySubresourceRegion,
        .CopyResource = rt_traced_CopyResource,
        .UpdateSubresource = rt_traced_UpdateSubresource,
        .ClearRenderTargetView = rt_traced_ClearRenderTargetView,
        .Flush = ctx_Flush,
        .GetType = ctx_GetType,
        .ClearState = rt_context_ClearState,
        .ExecuteCommandList = rt_traced_ExecuteCommandList,
        .FinishCommandList = ctx_FinishCommandList,
        .GetContextFlags = ctx_GetContextFlags,
        .ClearUnorderedAccessViewUint = rt_traced_ClearUnorderedAccessViewUint,
        .Begin = rt_traced_Begin,
        .End = rt_traced_End,
        .GetData = rt_traced_GetData,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11DeviceContext1, RT_CONTEXT1_SLOTS },
    .ext2 = { RT_API_OWN_STUBS_ID3D11DeviceContext2 },
    .ext3 = { RT_API_OWN_STUBS_ID3D11DeviceContext3, .Flush1 = rt_context_Flush1 },
    .ext4 = { RT_API_OWN_STUBS_ID3D11DeviceContext4, RT_CONTEXT4_SLOTS },
};

void rt_context_init(struct rt_context *ctx, struct rt_device *dev)
{
    ctx->iface.lpVtbl = &context_vtbl.base;
    atomic_init(&ctx->refs, 0);
    ctx->device = dev;
    ctx->dc = NULL;
}
