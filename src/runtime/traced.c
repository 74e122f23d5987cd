/* traced.c - the API calls as the timeline and the debug layer see them (docs/timeline.md,
 * docs/api.md "The debug layer"): both kinds of context's maps, copies, updates, clears,
 * command-list executions, query begins, ends and GetData, a deferred context's
 * FinishCommandList, and the device's resource, view, query and deferred-context creations and
 * OpenSharedResource, each wrapped once here and put in the vtables (context.c, deferred.c,
 * device.c), so the entry points themselves keep one exit path of their own. A wrapper opens
 * the call scope a refusal inside reports to (debug_layer.c: the device, the category and the
 * message ID Windows' debug layer gives the method) and, for the ones the timeline shows, a span
 * on the calling thread (Map and Flush record inside: their span covers the DDI call only).
 * While the timeline is off and the device has no debug layer a wrapper costs a few loads and
 * stores. */
#include "runtime/runtime.h"
#include "common/timeline.h"

#define CTX_DEV(iface) (rt_context_from_iface(iface)->device)
/* The call scope of one wrapper: opened first, closed last. */
#define CALL(dev, id, category)                                                                            \
    struct rt_api_call call_;                                                                              \
    rt_call_begin(&call_, (dev), D3D11_MESSAGE_ID_##id, D3D11_MESSAGE_CATEGORY_##category)
#define DONE() rt_call_end(&call_)

/* A copy, update or clear on a context: its span, its scope, and the debug layer's per-op
 * flush or finish (ID3D11Debug feature mask) after it. */
#define RENDER_OP(span, id, call)                                                                          \
    do {                                                                                                   \
        struct rt_device *dev_ = CTX_DEV(iface);                                                           \
        CALL(dev_, id, RESOURCE_MANIPULATION);                                                             \
        wddm_tl_begin(span);                                                                               \
        call;                                                                                              \
        wddm_tl_end(span, 0);                                                                              \
        DONE();                                                                                            \
        if (dev_->info_queue)                                                                              \
            rt_debug_render_op(dev_, iface);                                                               \
    } while (0)

void STDMETHODCALLTYPE rt_traced_CopySubresourceRegion(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                       UINT x, UINT y, UINT z, ID3D11Resource *src, UINT src_sub,
                                                       const D3D11_BOX *box)
{
    RENDER_OP(WDDM_TL_CALL_COPY_REGION, COPYSUBRESOURCEREGION_INVALIDSOURCE,
              rt_context_CopySubresourceRegion(iface, dst, dst_sub, x, y, z, src, src_sub, box));
}

void STDMETHODCALLTYPE rt_traced_CopyResource(ID3D11DeviceContext *iface, ID3D11Resource *dst, ID3D11Resource *src)
{
    RENDER_OP(WDDM_TL_CALL_COPY, COPYRESOURCE_INVALIDSOURCE, rt_context_CopyResource(iface, dst, src));
}

void STDMETHODCALLTYPE rt_traced_UpdateSubresource(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                   const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                   UINT depth_pitch)
{
    RENDER_OP(WDDM_TL_CALL_UPDATE, UPDATESUBRESOURCE_INVALIDDESTINATIONSTATE,
              rt_context_UpdateSubresource(iface, dst, dst_sub, box, data, row_pitch, depth_pitch));
}

void STDMETHODCALLTYPE rt_traced_ClearRenderTargetView(ID3D11DeviceContext *iface, ID3D11RenderTargetView *rtv,
                                                       const FLOAT color[4])
{
    RENDER_OP(WDDM_TL_CALL_CLEAR, DEVICE_CLEARVIEW_INVALIDVIEW, rt_context_ClearRenderTargetView(iface, rtv, color));
}

void STDMETHODCALLTYPE rt_traced_ExecuteCommandList(ID3D11DeviceContext *iface, ID3D11CommandList *list, BOOL restore)
{
    CALL(CTX_DEV(iface), UNKNOWN, EXECUTION);
    wddm_tl_begin(WDDM_TL_CALL_EXECUTE);
    rt_context_ExecuteCommandList(iface, list, restore);
    wddm_tl_end(WDDM_TL_CALL_EXECUTE, 0);
    DONE();
}

/* The four creations differ only in their description and interface types. */
#define TRACED_CREATE(Kind, Desc, Iface, id)                                                               \
    HRESULT STDMETHODCALLTYPE rt_traced_Create##Kind(ID3D11Device *iface, const Desc *desc,               \
                                                     const D3D11_SUBRESOURCE_DATA *data, Iface **out)    \
    {                                                                                                      \
        CALL(rt_device_from_iface(iface), id, STATE_CREATION);                                             \
        wddm_tl_begin(WDDM_TL_CALL_CREATE);                                                                \
        HRESULT hr = rt_device_Create##Kind(iface, desc, data, out);                                       \
        wddm_tl_end(WDDM_TL_CALL_CREATE, (UINT32)hr);                                                      \
        DONE();                                                                                            \
        return hr;                                                                                         \
    }

TRACED_CREATE(Buffer, D3D11_BUFFER_DESC, ID3D11Buffer, CREATEBUFFER_INVALIDARG_RETURN)
TRACED_CREATE(Texture1D, D3D11_TEXTURE1D_DESC, ID3D11Texture1D, CREATETEXTURE1D_INVALIDARG_RETURN)
TRACED_CREATE(Texture2D, D3D11_TEXTURE2D_DESC, ID3D11Texture2D, CREATETEXTURE2D_INVALIDARG_RETURN)
TRACED_CREATE(Texture3D, D3D11_TEXTURE3D_DESC, ID3D11Texture3D, CREATETEXTURE3D_INVALIDARG_RETURN)

/* The three view creations likewise. */
#define TRACED_CREATE_VIEW(Kind, Desc, Iface, id)                                                          \
    HRESULT STDMETHODCALLTYPE rt_traced_Create##Kind(ID3D11Device *iface, ID3D11Resource *resource,       \
                                                     const Desc *desc, Iface **out)                       \
    {                                                                                                      \
        CALL(rt_device_from_iface(iface), id, STATE_CREATION);                                             \
        wddm_tl_begin(WDDM_TL_CALL_CREATE_VIEW);                                                           \
        HRESULT hr = rt_device_Create##Kind(iface, resource, desc, out);                                   \
        wddm_tl_end(WDDM_TL_CALL_CREATE_VIEW, (UINT32)hr);                                                 \
        DONE();                                                                                            \
        return hr;                                                                                         \
    }

TRACED_CREATE_VIEW(RenderTargetView, D3D11_RENDER_TARGET_VIEW_DESC, ID3D11RenderTargetView,
                   CREATERENDERTARGETVIEW_INVALIDARG_RETURN)
TRACED_CREATE_VIEW(ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC, ID3D11ShaderResourceView,
                   CREATESHADERRESOURCEVIEW_INVALIDARG_RETURN)
TRACED_CREATE_VIEW(UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC, ID3D11UnorderedAccessView,
                   CREATEUNORDEREDACCESSVIEW_INVALIDARG_RETURN)

void STDMETHODCALLTYPE rt_traced_End(ID3D11DeviceContext *iface, ID3D11Asynchronous *async)
{
    CALL(CTX_DEV(iface), QUERY_END_WITHOUT_BEGIN, EXECUTION);
    wddm_tl_begin(WDDM_TL_CALL_QUERY_END);
    rt_context_End(iface, async);
    wddm_tl_end(WDDM_TL_CALL_QUERY_END, 0);
    DONE();
}

HRESULT STDMETHODCALLTYPE rt_traced_GetData(ID3D11DeviceContext *iface, ID3D11Asynchronous *async, void *data,
                                            UINT size, UINT flags)
{
    CALL(CTX_DEV(iface), QUERY_GETDATA_INVALID_CALL, EXECUTION);
    /* A run of S_FALSE polls of one query is one span with a count (timeline.h
     * wddm_tl_record_poll; issue 18 §1: a polling loop must not overwrite the thread's ring). */
    uint64_t t0 = wddm_tl_poll_start();
    HRESULT hr = rt_context_GetData(iface, async, data, size, flags);
    wddm_tl_poll_end(WDDM_TL_CALL_GET_DATA, (uintptr_t)async, t0, (UINT32)hr, hr == S_FALSE);
    DONE();
    return hr;
}

HRESULT STDMETHODCALLTYPE rt_traced_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                      ID3D11CommandList **out)
{
    CALL(CTX_DEV(iface), FINISHDISPLAYLIST_INVALID_CALL_RETURN, EXECUTION);
    wddm_tl_begin(WDDM_TL_CALL_FINISH);
    HRESULT hr = rt_deferred_FinishCommandList(iface, restore, out);
    wddm_tl_end(WDDM_TL_CALL_FINISH, (UINT32)hr);
    DONE();
    return hr;
}

/* ---- calls the debug layer scopes but the timeline does not show as a span ---------------------- */

HRESULT STDMETHODCALLTYPE rt_traced_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                        D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    CALL(CTX_DEV(iface), RESOURCE_MAP_INVALIDMAPTYPE, RESOURCE_MANIPULATION);
    HRESULT hr = rt_context_from_iface(iface)->dc ? rt_deferred_Map(iface, resource, sub, type, flags, mapped)
                                                  : rt_context_Map(iface, resource, sub, type, flags, mapped);
    DONE();
    return hr;
}

void STDMETHODCALLTYPE rt_traced_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub)
{
    CALL(CTX_DEV(iface), RESOURCE_UNMAP_NOTMAPPED, RESOURCE_MANIPULATION);
    if (rt_context_from_iface(iface)->dc)
        rt_deferred_Unmap(iface, resource, sub);
    else
        rt_context_Unmap(iface, resource, sub);
    DONE();
}

void STDMETHODCALLTYPE rt_traced_Begin(ID3D11DeviceContext *iface, ID3D11Asynchronous *async)
{
    CALL(CTX_DEV(iface), QUERY_BEGIN_UNSUPPORTED, EXECUTION);
    rt_context_Begin(iface, async);
    DONE();
}

void STDMETHODCALLTYPE rt_traced_ClearUnorderedAccessViewUint(ID3D11DeviceContext *iface,
                                                              ID3D11UnorderedAccessView *uav, const UINT values[4])
{
    RENDER_OP(WDDM_TL_CALL_CLEAR, DEVICE_CLEARVIEW_INVALIDVIEW,
              rt_context_ClearUnorderedAccessViewUint(iface, uav, values));
}

HRESULT STDMETHODCALLTYPE rt_traced_CreateQuery(ID3D11Device *iface, const D3D11_QUERY_DESC *desc, ID3D11Query **out)
{
    CALL(rt_device_from_iface(iface), CREATEQUERYORPREDICATE_INVALIDQUERY, STATE_CREATION);
    HRESULT hr = rt_device_CreateQuery(iface, desc, out);
    DONE();
    return hr;
}

HRESULT STDMETHODCALLTYPE rt_traced_CreateDeferredContext(ID3D11Device *iface, UINT flags, ID3D11DeviceContext **out)
{
    CALL(rt_device_from_iface(iface), CREATEDEFERREDCONTEXT_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = rt_device_CreateDeferredContext(iface, flags, out);
    DONE();
    return hr;
}

HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResource(ID3D11Device *iface, HANDLE handle, REFIID riid, void **out)
{
    CALL(rt_device_from_iface(iface), DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = rt_device_OpenSharedResource(iface, handle, riid, out);
    DONE();
    return hr;
}

/* ID3D11Device1's two opens report as OpenSharedResource does: d3d11sdklayers.h has no
 * INVALIDARG_RETURN ID of their own. */
HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResource1(ID3D11Device1 *iface, HANDLE handle, REFIID riid, void **out)
{
    CALL(rt_device_from_iface((ID3D11Device *)iface), DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = rt_device_OpenSharedResource1(iface, handle, riid, out);
    DONE();
    return hr;
}

HRESULT STDMETHODCALLTYPE rt_traced_OpenSharedResourceByName(ID3D11Device1 *iface, LPCWSTR name, DWORD access,
                                                             REFIID riid, void **out)
{
    CALL(rt_device_from_iface((ID3D11Device *)iface), DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = rt_device_OpenSharedResourceByName(iface, name, access, riid, out);
    DONE();
    return hr;
}
