/* view.c - render-target, shader-resource and unordered-access views: which subresources (or
 * buffer elements) a view names and in which format, so the clears can fill them (clear.c). */
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

/* Fills a view record (render-target, shader-resource and unordered-access views all use struct
 * umd_rtv): a buffer's element range, or a mip (out of range: 0) and a slice range clamped to
 * the array size, or to that mip's depth for a 3-D render-target view (FirstW/WSize). */
static void view_fill(struct umd_rtv *v, struct umd_resource *res, DXGI_FORMAT format, D3D10DDIRESOURCE_TYPE dim,
                      UINT first_element, UINT num_elements, UINT mip, UINT first_slice, UINT slice_count,
                      BOOL depth_slices)
{
    memset(v, 0, sizeof *v);
    v->resource = res;
    v->format = format;
    v->dimension = dim;
    if (dim == D3D10DDIRESOURCE_BUFFER || dim == D3D11DDIRESOURCE_BUFFEREX) {
        v->first_element = first_element;
        v->element_count = num_elements;
        return;
    }
    v->mip = mip < res->mip_levels ? mip : 0;
    UINT total = depth_slices ? res->sub[v->mip].depth : res->array_size;
    v->first_slice = first_slice;
    v->slice_count = umd_clamp_count(first_slice, slice_count, total);
}

VOID APIENTRY umd_CreateRenderTargetView(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATERENDERTARGETVIEW *args,
                                         D3D10DDI_HRENDERTARGETVIEW hView, D3D10DDI_HRTRENDERTARGETVIEW hRTView)
{
    struct umd_resource *res = umd_resource(args->hDrvResource);
    DXGI_FORMAT format = args->Format != DXGI_FORMAT_UNKNOWN ? args->Format : res->format;
    if (args->ResourceDimension == D3D10DDIRESOURCE_TEXTURE3D)
        view_fill(hView.pDrvPrivate, res, format, args->ResourceDimension, 0, 0, args->Tex3D.MipSlice,
                  args->Tex3D.FirstW, args->Tex3D.WSize, TRUE);
    else /* buffers; Tex1D, Tex2D and TexCube views share one layout {MipSlice, FirstArraySlice, ArraySize} */
        view_fill(hView.pDrvPrivate, res, format, args->ResourceDimension, args->Buffer.FirstElement,
                  args->Buffer.NumElements, args->Tex2D.MipSlice, args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize,
                  FALSE);
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
    view_fill(hView.pDrvPrivate, umd_resource(args->hDrvResource), args->Format, args->ResourceDimension,
              args->Buffer.FirstElement, args->Buffer.NumElements, args->Tex2D.MostDetailedMip,
              args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize, FALSE);
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
    view_fill(hView.pDrvPrivate, umd_resource(args->hDrvResource), args->Format, args->ResourceDimension,
              args->Buffer.FirstElement, args->Buffer.NumElements, args->Tex2D.MipSlice,
              args->Tex2D.FirstArraySlice, args->Tex2D.ArraySize, FALSE);
}

VOID APIENTRY umd_DestroyUnorderedAccessView(D3D10DDI_HDEVICE hDevice, D3D11DDI_HUNORDEREDACCESSVIEW hView)
{
}
