/* traced.c - the API calls the timeline shows as spans on the calling thread (docs/timeline.md):
 * both kinds of context's copies, updates, clears, command-list executions, query ends and
 * GetData, a deferred context's FinishCommandList, and the device's resource and view creations,
 * each wrapped once here and put in the vtables (context.c, deferred.c, device.c), so the
 * entry points themselves keep one exit path of their own. Map and Flush record inside (their
 * span covers the DDI call only). While the timeline is off a wrapper costs two relaxed loads. */
#include "runtime/runtime.h"
#include "common/timeline.h"

void STDMETHODCALLTYPE rt_traced_CopySubresourceRegion(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                       UINT x, UINT y, UINT z, ID3D11Resource *src, UINT src_sub,
                                                       const D3D11_BOX *box)
{
    wddm_tl_begin(WDDM_TL_CALL_COPY_REGION);
    rt_context_CopySubresourceRegion(iface, dst, dst_sub, x, y, z, src, src_sub, box);
    wddm_tl_end(WDDM_TL_CALL_COPY_REGION, 0);
}

void STDMETHODCALLTYPE rt_traced_CopyResource(ID3D11DeviceContext *iface, ID3D11Resource *dst, ID3D11Resource *src)
{
    wddm_tl_begin(WDDM_TL_CALL_COPY);
    rt_context_CopyResource(iface, dst, src);
    wddm_tl_end(WDDM_TL_CALL_COPY, 0);
}

void STDMETHODCALLTYPE rt_traced_UpdateSubresource(ID3D11DeviceContext *iface, ID3D11Resource *dst, UINT dst_sub,
                                                   const D3D11_BOX *box, const void *data, UINT row_pitch,
                                                   UINT depth_pitch)
{
    wddm_tl_begin(WDDM_TL_CALL_UPDATE);
    rt_context_UpdateSubresource(iface, dst, dst_sub, box, data, row_pitch, depth_pitch);
    wddm_tl_end(WDDM_TL_CALL_UPDATE, 0);
}

void STDMETHODCALLTYPE rt_traced_ClearRenderTargetView(ID3D11DeviceContext *iface, ID3D11RenderTargetView *rtv,
                                                       const FLOAT color[4])
{
    wddm_tl_begin(WDDM_TL_CALL_CLEAR);
    rt_context_ClearRenderTargetView(iface, rtv, color);
    wddm_tl_end(WDDM_TL_CALL_CLEAR, 0);
}

void STDMETHODCALLTYPE rt_traced_ExecuteCommandList(ID3D11DeviceContext *iface, ID3D11CommandList *list, BOOL restore)
{
    wddm_tl_begin(WDDM_TL_CALL_EXECUTE);
    rt_context_ExecuteCommandList(iface, list, restore);
    wddm_tl_end(WDDM_TL_CALL_EXECUTE, 0);
}

/* The four creations differ only in their description and interface types. */
#define TRACED_CREATE(Kind, Desc, Iface)                                                                   \
    HRESULT STDMETHODCALLTYPE rt_traced_Create##Kind(ID3D11Device *iface, const Desc *desc,               \
                                                     const D3D11_SUBRESOURCE_DATA *data, Iface **out)    \
    {                                                                                                      \
        wddm_tl_begin(WDDM_TL_CALL_CREATE);                                                                \
        HRESULT hr = rt_device_Create##Kind(iface, desc, data, out);                                       \
        wddm_tl_end(WDDM_TL_CALL_CREATE, (UINT32)hr);                                                      \
        return hr;                                                                                         \
    }

TRACED_CREATE(Buffer, D3D11_BUFFER_DESC, ID3D11Buffer)
TRACED_CREATE(Texture1D, D3D11_TEXTURE1D_DESC, ID3D11Texture1D)
TRACED_CREATE(Texture2D, D3D11_TEXTURE2D_DESC, ID3D11Texture2D)
TRACED_CREATE(Texture3D, D3D11_TEXTURE3D_DESC, ID3D11Texture3D)

/* The three view creations likewise. */
#define TRACED_CREATE_VIEW(Kind, Desc, Iface)                                                              \
    HRESULT STDMETHODCALLTYPE rt_traced_Create##Kind(ID3D11Device *iface, ID3D11Resource *resource,       \
                                                     const Desc *desc, Iface **out)                       \
    {                                                                                                      \
        wddm_tl_begin(WDDM_TL_CALL_CREATE_VIEW);                                                           \
        HRESULT hr = rt_device_Create##Kind(iface, resource, desc, out);                                   \
        wddm_tl_end(WDDM_TL_CALL_CREATE_VIEW, (UINT32)hr);                                                 \
        return hr;                                                                                         \
    }

TRACED_CREATE_VIEW(RenderTargetView, D3D11_RENDER_TARGET_VIEW_DESC, ID3D11RenderTargetView)
TRACED_CREATE_VIEW(ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC, ID3D11ShaderResourceView)
TRACED_CREATE_VIEW(UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC, ID3D11UnorderedAccessView)

void STDMETHODCALLTYPE rt_traced_End(ID3D11DeviceContext *iface, ID3D11Asynchronous *async)
{
    wddm_tl_begin(WDDM_TL_CALL_QUERY_END);
    rt_context_End(iface, async);
    wddm_tl_end(WDDM_TL_CALL_QUERY_END, 0);
}

HRESULT STDMETHODCALLTYPE rt_traced_GetData(ID3D11DeviceContext *iface, ID3D11Asynchronous *async, void *data,
                                            UINT size, UINT flags)
{
    wddm_tl_begin(WDDM_TL_CALL_GET_DATA);
    HRESULT hr = rt_context_GetData(iface, async, data, size, flags);
    wddm_tl_end(WDDM_TL_CALL_GET_DATA, (UINT32)hr);
    return hr;
}

HRESULT STDMETHODCALLTYPE rt_traced_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                      ID3D11CommandList **out)
{
    wddm_tl_begin(WDDM_TL_CALL_FINISH);
    HRESULT hr = rt_deferred_FinishCommandList(iface, restore, out);
    wddm_tl_end(WDDM_TL_CALL_FINISH, (UINT32)hr);
    return hr;
}
