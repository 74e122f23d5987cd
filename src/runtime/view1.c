/*
 * view1.c - the Direct3D 11.3 view descriptions and their Create methods:
 * ID3D11Device3::CreateShaderResourceView1 / CreateRenderTargetView1 / CreateUnorderedAccessView1
 * and the GetDesc1 of ID3D11ShaderResourceView1 / RenderTargetView1 / UnorderedAccessView1.
 *
 * A DESC1 is its DESC with a PlaneSlice in the Texture2D and Texture2DArray members (the plane of
 * a planar format a view sees). No format this stack creates has more than one plane, so a view
 * sees plane 0: a DESC1 naming another is refused with E_INVALIDARG, and the rest is the
 * D3D11.0 method's (its rules, its refusals). GetDesc1 answers the view's DESC with PlaneSlice 0.
 */
#include "runtime/runtime.h"

#include <stddef.h>

/* The union of a DESC1 holds its DESC's union at the same offset; for a dimension whose member
 * is the same type in both, the DESC's bytes are copied as they are. */
#define COPY_UNION(dst, src, Desc) \
    memcpy(&(dst)->Buffer, &(src)->Buffer, sizeof(Desc) - offsetof(Desc, Buffer))

static BOOL plane_zero(const char *fn, UINT plane)
{
    if (!plane)
        return TRUE;
    RT_REFUSE("%s: PlaneSlice %u: the formats of this stack have one plane (PlaneSlice 0)", fn, plane);
    return FALSE;
}

/* ---- shader-resource views ------------------------------------------------------------------ */

static BOOL srv_from1(const char *fn, const D3D11_SHADER_RESOURCE_VIEW_DESC1 *in, D3D11_SHADER_RESOURCE_VIEW_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    switch (in->ViewDimension) {
    case D3D11_SRV_DIMENSION_TEXTURE2D:
        out->Texture2D = (D3D11_TEX2D_SRV){ in->Texture2D.MostDetailedMip, in->Texture2D.MipLevels };
        return plane_zero(fn, in->Texture2D.PlaneSlice);
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_SRV){ in->Texture2DArray.MostDetailedMip, in->Texture2DArray.MipLevels,
                                                      in->Texture2DArray.FirstArraySlice, in->Texture2DArray.ArraySize };
        return plane_zero(fn, in->Texture2DArray.PlaneSlice);
    default:
        COPY_UNION(out, in, D3D11_SHADER_RESOURCE_VIEW_DESC);
        return TRUE;
    }
}

void rt_srv_desc1(const D3D11_SHADER_RESOURCE_VIEW_DESC *in, D3D11_SHADER_RESOURCE_VIEW_DESC1 *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    if (in->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2D)
        out->Texture2D = (D3D11_TEX2D_SRV1){ in->Texture2D.MostDetailedMip, in->Texture2D.MipLevels, 0 };
    else if (in->ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2DARRAY)
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_SRV1){ in->Texture2DArray.MostDetailedMip, in->Texture2DArray.MipLevels,
                                                       in->Texture2DArray.FirstArraySlice, in->Texture2DArray.ArraySize,
                                                       0 };
    else
        COPY_UNION(out, in, D3D11_SHADER_RESOURCE_VIEW_DESC);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateShaderResourceView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                              const D3D11_SHADER_RESOURCE_VIEW_DESC1 *desc,
                                                              ID3D11ShaderResourceView1 **out)
{
    D3D11_SHADER_RESOURCE_VIEW_DESC d;
    if (desc && !srv_from1("CreateShaderResourceView1", desc, &d)) {
        if (out)
            *out = NULL;
        return E_INVALIDARG;
    }
    return rt_traced_CreateShaderResourceView((ID3D11Device *)iface, resource, desc ? &d : NULL,
                                              (ID3D11ShaderResourceView **)out);
}

/* ---- render-target views -------------------------------------------------------------------- */

static BOOL rtv_from1(const char *fn, const D3D11_RENDER_TARGET_VIEW_DESC1 *in, D3D11_RENDER_TARGET_VIEW_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    switch (in->ViewDimension) {
    case D3D11_RTV_DIMENSION_TEXTURE2D:
        out->Texture2D = (D3D11_TEX2D_RTV){ in->Texture2D.MipSlice };
        return plane_zero(fn, in->Texture2D.PlaneSlice);
    case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_RTV){ in->Texture2DArray.MipSlice, in->Texture2DArray.FirstArraySlice,
                                                      in->Texture2DArray.ArraySize };
        return plane_zero(fn, in->Texture2DArray.PlaneSlice);
    default:
        COPY_UNION(out, in, D3D11_RENDER_TARGET_VIEW_DESC);
        return TRUE;
    }
}

void rt_rtv_desc1(const D3D11_RENDER_TARGET_VIEW_DESC *in, D3D11_RENDER_TARGET_VIEW_DESC1 *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    if (in->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2D)
        out->Texture2D = (D3D11_TEX2D_RTV1){ in->Texture2D.MipSlice, 0 };
    else if (in->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DARRAY)
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_RTV1){ in->Texture2DArray.MipSlice, in->Texture2DArray.FirstArraySlice,
                                                       in->Texture2DArray.ArraySize, 0 };
    else
        COPY_UNION(out, in, D3D11_RENDER_TARGET_VIEW_DESC);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateRenderTargetView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                             const D3D11_RENDER_TARGET_VIEW_DESC1 *desc,
                                                             ID3D11RenderTargetView1 **out)
{
    D3D11_RENDER_TARGET_VIEW_DESC d;
    if (desc && !rtv_from1("CreateRenderTargetView1", desc, &d)) {
        if (out)
            *out = NULL;
        return E_INVALIDARG;
    }
    return rt_traced_CreateRenderTargetView((ID3D11Device *)iface, resource, desc ? &d : NULL,
                                            (ID3D11RenderTargetView **)out);
}

/* ---- unordered-access views ------------------------------------------------------------------ */

static BOOL uav_from1(const char *fn, const D3D11_UNORDERED_ACCESS_VIEW_DESC1 *in,
                      D3D11_UNORDERED_ACCESS_VIEW_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    switch (in->ViewDimension) {
    case D3D11_UAV_DIMENSION_TEXTURE2D:
        out->Texture2D = (D3D11_TEX2D_UAV){ in->Texture2D.MipSlice };
        return plane_zero(fn, in->Texture2D.PlaneSlice);
    case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_UAV){ in->Texture2DArray.MipSlice, in->Texture2DArray.FirstArraySlice,
                                                      in->Texture2DArray.ArraySize };
        return plane_zero(fn, in->Texture2DArray.PlaneSlice);
    default:
        COPY_UNION(out, in, D3D11_UNORDERED_ACCESS_VIEW_DESC);
        return TRUE;
    }
}

void rt_uav_desc1(const D3D11_UNORDERED_ACCESS_VIEW_DESC *in, D3D11_UNORDERED_ACCESS_VIEW_DESC1 *out)
{
    memset(out, 0, sizeof *out);
    out->Format = in->Format;
    out->ViewDimension = in->ViewDimension;
    if (in->ViewDimension == D3D11_UAV_DIMENSION_TEXTURE2D)
        out->Texture2D = (D3D11_TEX2D_UAV1){ in->Texture2D.MipSlice, 0 };
    else if (in->ViewDimension == D3D11_UAV_DIMENSION_TEXTURE2DARRAY)
        out->Texture2DArray = (D3D11_TEX2D_ARRAY_UAV1){ in->Texture2DArray.MipSlice, in->Texture2DArray.FirstArraySlice,
                                                       in->Texture2DArray.ArraySize, 0 };
    else
        COPY_UNION(out, in, D3D11_UNORDERED_ACCESS_VIEW_DESC);
}

HRESULT STDMETHODCALLTYPE rt_device_CreateUnorderedAccessView1(ID3D11Device3 *iface, ID3D11Resource *resource,
                                                               const D3D11_UNORDERED_ACCESS_VIEW_DESC1 *desc,
                                                               ID3D11UnorderedAccessView1 **out)
{
    D3D11_UNORDERED_ACCESS_VIEW_DESC d;
    if (desc && !uav_from1("CreateUnorderedAccessView1", desc, &d)) {
        if (out)
            *out = NULL;
        return E_INVALIDARG;
    }
    return rt_traced_CreateUnorderedAccessView((ID3D11Device *)iface, resource, desc ? &d : NULL,
                                               (ID3D11UnorderedAccessView **)out);
}
