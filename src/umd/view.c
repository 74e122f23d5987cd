/* view.c - render-target views: which subresources (or buffer elements) a view names and in
 * which format, so ClearRenderTargetView can fill them (clear.c). */
#include "umd/umd.h"

#include <string.h>

SIZE_T APIENTRY umd_CalcPrivateRenderTargetViewSize(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATERENDERTARGETVIEW *args)
{
    return sizeof(struct umd_rtv);
}

static UINT umd_clamp_count(UINT first, UINT count, UINT total)
{
    /* D3D uses -1 (all remaining) for some counts; clamp everything to the resource. */
    if (first >= total)
        return 0;
    return count > total - first ? total - first : count;
}

VOID APIENTRY umd_CreateRenderTargetView(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATERENDERTARGETVIEW *args,
                                         D3D10DDI_HRENDERTARGETVIEW hView, D3D10DDI_HRTRENDERTARGETVIEW hRTView)
{
    struct umd_rtv *v = hView.pDrvPrivate;
    struct umd_resource *res = umd_resource(args->hDrvResource);
    memset(v, 0, sizeof *v);
    v->resource = res;
    v->format = args->Format != DXGI_FORMAT_UNKNOWN ? args->Format : res->format;
    v->dimension = args->ResourceDimension;
    switch (args->ResourceDimension) {
    case D3D10DDIRESOURCE_BUFFER:
    case D3D11DDIRESOURCE_BUFFEREX:
        v->first_element = args->Buffer.FirstElement;
        v->element_count = args->Buffer.NumElements;
        break;
    case D3D10DDIRESOURCE_TEXTURE3D: {
        v->mip = args->Tex3D.MipSlice < res->mip_levels ? args->Tex3D.MipSlice : 0;
        UINT depth = res->sub[v->mip].depth;
        v->first_slice = args->Tex3D.FirstW;
        v->slice_count = umd_clamp_count(args->Tex3D.FirstW, args->Tex3D.WSize, depth);
        break;
    }
    case D3D10DDIRESOURCE_TEXTURE1D:
    case D3D10DDIRESOURCE_TEXTURE2D:
    case D3D10DDIRESOURCE_TEXTURECUBE:
    default:
        /* Tex1D, Tex2D and TexCube views share one layout {MipSlice, FirstArraySlice, ArraySize}. */
        v->mip = args->Tex2D.MipSlice < res->mip_levels ? args->Tex2D.MipSlice : 0;
        v->first_slice = args->Tex2D.FirstArraySlice;
        v->slice_count = umd_clamp_count(args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize, res->array_size);
        break;
    }
}

VOID APIENTRY umd_DestroyRenderTargetView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HRENDERTARGETVIEW hView)
{
    /* Nothing owned: the view only names part of its resource. */
}

/* ---- shader resource and unordered access views (issue 5) ------------------------------------ */
/* Both are described by struct umd_rtv (the elements or subresources they name). */
SIZE_T APIENTRY umd_CalcPrivateShaderResourceViewSize(D3D10DDI_HDEVICE hDevice,
                                                      const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args)
{
    return sizeof(struct umd_rtv);
}

VOID APIENTRY umd_CreateShaderResourceView(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args,
                                           D3D10DDI_HSHADERRESOURCEVIEW hView, D3D10DDI_HRTSHADERRESOURCEVIEW hRT)
{
    struct umd_rtv *v = hView.pDrvPrivate;
    struct umd_resource *res = umd_resource(args->hDrvResource);
    memset(v, 0, sizeof *v);
    v->resource = res;
    v->format = args->Format;
    v->dimension = args->ResourceDimension;
    if (args->ResourceDimension == D3D10DDIRESOURCE_BUFFER || args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX) {
        v->first_element = args->Buffer.FirstElement;
        v->element_count = args->Buffer.NumElements;
    } else {
        v->mip = args->Tex2D.MostDetailedMip < res->mip_levels ? args->Tex2D.MostDetailedMip : 0;
        v->first_slice = args->Tex2D.FirstArraySlice;
        v->slice_count = umd_clamp_count(args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize, res->array_size);
    }
}

VOID APIENTRY umd_DestroyShaderResourceView(D3D10DDI_HDEVICE hDevice, D3D10DDI_HSHADERRESOURCEVIEW hView)
{
}

SIZE_T APIENTRY umd_CalcPrivateUnorderedAccessViewSize(D3D10DDI_HDEVICE hDevice,
                                                       const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *args)
{
    return sizeof(struct umd_rtv);
}

VOID APIENTRY umd_CreateUnorderedAccessView(D3D10DDI_HDEVICE hDevice, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *args,
                                            D3D11DDI_HUNORDEREDACCESSVIEW hView, D3D11DDI_HRTUNORDEREDACCESSVIEW hRT)
{
    struct umd_rtv *v = hView.pDrvPrivate;
    struct umd_resource *res = umd_resource(args->hDrvResource);
    memset(v, 0, sizeof *v);
    v->resource = res;
    v->format = args->Format;
    v->dimension = args->ResourceDimension;
    if (args->ResourceDimension == D3D10DDIRESOURCE_BUFFER || args->ResourceDimension == D3D11DDIRESOURCE_BUFFEREX) {
        v->first_element = args->Buffer.FirstElement;
        v->element_count = args->Buffer.NumElements;
    } else {
        v->mip = args->Tex2D.MipSlice < res->mip_levels ? args->Tex2D.MipSlice : 0;
        v->first_slice = args->Tex2D.FirstArraySlice;
        v->slice_count = umd_clamp_count(args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize, res->array_size);
    }
}

VOID APIENTRY umd_DestroyUnorderedAccessView(D3D10DDI_HDEVICE hDevice, D3D11DDI_HUNORDEREDACCESSVIEW hView)
{
}
