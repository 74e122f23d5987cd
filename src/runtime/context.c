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

/* The immediate context's methods that reach the driver or its state, each inside the device's
 * critical section while ID3D10Multithread / ID3D11Multithread protection is on (multithread.c):
 * the wrapper takes it around the method the vtable would otherwise name. */
#define MT_DEV(iface) (rt_context_from_iface((ID3D11DeviceContext *)(iface))->device)
#define MT_VOID(name, Iface, fn, params, args)                                                            \
    static void STDMETHODCALLTYPE name params                                                             \
    {                                                                                                     \
        struct rt_device *dev_ = MT_DEV(iface);                                                           \
        BOOL locked_ = rt_mt_enter(dev_);                                                                 \
        fn args;                                                                                          \
        rt_mt_leave(dev_, locked_);                                                                       \
    }
#define MT_HR(name, Iface, fn, params, args)                                                              \
    static HRESULT STDMETHODCALLTYPE name params                                                          \
    {                                                                                                     \
        struct rt_device *dev_ = MT_DEV(iface);                                                           \
        BOOL locked_ = rt_mt_enter(dev_);                                                                 \
        HRESULT hr_ = fn args;                                                                            \
        rt_mt_leave(dev_, locked_);                                                                       \
        return hr_;                                                                                       \
    }
typedef ID3D11DeviceContext Ctx;
MT_HR(mt_Map, Ctx, rt_traced_Map,
      (Ctx *iface, ID3D11Resource *r, UINT sub, D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *m),
      (iface, r, sub, type, flags, m))
MT_VOID(mt_Unmap, Ctx, rt_traced_Unmap, (Ctx *iface, ID3D11Resource *r, UINT sub), (iface, r, sub))
MT_VOID(mt_CopySubresourceRegion, Ctx, rt_traced_CopySubresourceRegion,
        (Ctx *iface, ID3D11Resource *dst, UINT ds, UINT x, UINT y, UINT z, ID3D11Resource *src, UINT ss,
         const D3D11_BOX *box),
        (iface, dst, ds, x, y, z, src, ss, box))
MT_VOID(mt_CopyResource, Ctx, rt_traced_CopyResource, (Ctx *iface, ID3D11Resource *dst, ID3D11Resource *src),
        (iface, dst, src))
MT_VOID(mt_UpdateSubresource, Ctx, rt_traced_UpdateSubresource,
        (Ctx *iface, ID3D11Resource *dst, UINT ds, const D3D11_BOX *box, const void *data, UINT rp, UINT dp),
        (iface, dst, ds, box, data, rp, dp))
MT_VOID(mt_ClearRenderTargetView, Ctx, rt_traced_ClearRenderTargetView,
        (Ctx *iface, ID3D11RenderTargetView *rtv, const FLOAT color[4]), (iface, rtv, color))
MT_VOID(mt_Flush, Ctx, ctx_Flush, (Ctx *iface), (iface))
MT_VOID(mt_ClearState, Ctx, rt_context_ClearState, (Ctx *iface), (iface))
MT_VOID(mt_ExecuteCommandList, Ctx, rt_traced_ExecuteCommandList, (Ctx *iface, ID3D11CommandList *l, BOOL restore),
        (iface, l, restore))
MT_VOID(mt_ClearUnorderedAccessViewUint, Ctx, rt_traced_ClearUnorderedAccessViewUint,
        (Ctx *iface, ID3D11UnorderedAccessView *uav, const UINT values[4]), (iface, uav, values))
MT_VOID(mt_Begin, Ctx, rt_traced_Begin, (Ctx *iface, ID3D11Asynchronous *a), (iface, a))
MT_VOID(mt_End, Ctx, rt_traced_End, (Ctx *iface, ID3D11Asynchronous *a), (iface, a))
MT_HR(mt_GetData, Ctx, rt_traced_GetData, (Ctx *iface, ID3D11Asynchronous *a, void *data, UINT size, UINT flags),
      (iface, a, data, size, flags))
MT_VOID(mt_CopySubresourceRegion1, ID3D11DeviceContext1, rt_context_CopySubresourceRegion1,
        (ID3D11DeviceContext1 *iface, ID3D11Resource *dst, UINT ds, UINT x, UINT y, UINT z, ID3D11Resource *src,
         UINT ss, const D3D11_BOX *box, UINT flags),
        (iface, dst, ds, x, y, z, src, ss, box, flags))
MT_VOID(mt_UpdateSubresource1, ID3D11DeviceContext1, rt_context_UpdateSubresource1,
        (ID3D11DeviceContext1 *iface, ID3D11Resource *dst, UINT ds, const D3D11_BOX *box, const void *data, UINT rp,
         UINT dp, UINT flags),
        (iface, dst, ds, box, data, rp, dp, flags))
MT_VOID(mt_DiscardResource, ID3D11DeviceContext1, rt_context_DiscardResource,
        (ID3D11DeviceContext1 *iface, ID3D11Resource *r), (iface, r))
MT_VOID(mt_DiscardView, ID3D11DeviceContext1, rt_context_DiscardView, (ID3D11DeviceContext1 *iface, ID3D11View *v),
        (iface, v))
MT_VOID(mt_DiscardView1, ID3D11DeviceContext1, rt_context_DiscardView1,
        (ID3D11DeviceContext1 *iface, ID3D11View *v, const D3D11_RECT *rects, UINT n), (iface, v, rects, n))
MT_VOID(mt_Flush1, ID3D11DeviceContext3, rt_context_Flush1,
        (ID3D11DeviceContext3 *iface, D3D11_CONTEXT_TYPE type, HANDLE event), (iface, type, event))
MT_HR(mt_Signal, ID3D11DeviceContext4, rt_context_Signal, (ID3D11DeviceContext4 *iface, ID3D11Fence *f, UINT64 v),
      (iface, f, v))
MT_HR(mt_Wait, ID3D11DeviceContext4, rt_context_Wait, (ID3D11DeviceContext4 *iface, ID3D11Fence *f, UINT64 v),
      (iface, f, v))

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
        .Map = mt_Map,
        .Unmap = mt_Unmap,
        .CopySubresourceRegion = mt_CopySubresourceRegion,
        .CopyResource = mt_CopyResource,
        .UpdateSubresource = mt_UpdateSubresource,
        .ClearRenderTargetView = mt_ClearRenderTargetView,
        .Flush = mt_Flush,
        .GetType = ctx_GetType,
        .ClearState = mt_ClearState,
        .ExecuteCommandList = mt_ExecuteCommandList,
        .FinishCommandList = ctx_FinishCommandList,
        .GetContextFlags = ctx_GetContextFlags,
        .ClearUnorderedAccessViewUint = mt_ClearUnorderedAccessViewUint,
        .Begin = mt_Begin,
        .End = mt_End,
        .GetData = mt_GetData,
    },
    .ext = {
        RT_API_OWN_STUBS_ID3D11DeviceContext1,
        .CopySubresourceRegion1 = mt_CopySubresourceRegion1,
        .UpdateSubresource1 = mt_UpdateSubresource1,
        .DiscardResource = mt_DiscardResource,
        .DiscardView = mt_DiscardView,
        .DiscardView1 = mt_DiscardView1,
    },
    .ext2 = { RT_API_OWN_STUBS_ID3D11DeviceContext2 },
    .ext3 = { RT_API_OWN_STUBS_ID3D11DeviceContext3, .Flush1 = mt_Flush1 },
    .ext4 = { RT_API_OWN_STUBS_ID3D11DeviceContext4, .Signal = mt_Signal, .Wait = mt_Wait },
};

void rt_context_init(struct rt_context *ctx, struct rt_device *dev)
{
    ctx->iface.lpVtbl = &context_vtbl.base;
    atomic_init(&ctx->refs, 0);
    ctx->device = dev;
    ctx->dc = NULL;
}
