/*
 * ddi11_1.c - the D3D11.1 DDI behind a D3D11 device (issue 15 §4).
 *
 * A D3D11CreateDevice device asks its UMD for D3D11_1_DDI_INTERFACE_VERSION when the UMD lists
 * it among its supported versions, and for D3D11.0 otherwise (a driver written before
 * Windows 8). The 11.1 table holds the 11.0 one's 150 slots in the same places - 25 of them
 * with their 11.1 types - and five more (Discard, DynamicConstantBufferMapNoOverwrite, ...).
 * The runtime copies the same-typed slots into the table every path already calls
 * (rt_device.funcs) and calls the retyped ones it uses - the two copies that now carry
 * D3D11_1_DDI_COPY_FLAGS, DefaultConstantBufferUpdateSubresourceUP and
 * Flush - through the functions below, for the immediate context and deferred ones alike.
 *
 * What the 11.1 DDI changes at the API (D3D11_FEATURE_DATA_D3D11_OPTIONS reference): the
 * driver sees discards and the copy flags (DiscardAPIsSeenByDriver,
 * FlagsForUpdateAndCopySeenByDriver), constant buffers take partial updates
 * (ConstantBufferPartialUpdate) and dynamic constant / shader-resource buffers take
 * Map(WRITE_NO_OVERWRITE) (MapNoOverwriteOnDynamicConstantBuffer / ...BufferSRV). Through an
 * 11.0 driver all four are FALSE: the flags are dropped (the plain copy is what they allow) and
 * discards end in the runtime, as Windows' runtime does.
 */
#include "runtime/runtime.h"

#include <string.h>

const D3D11_1DDI_DEVICEFUNCS *rt_device_funcs1(const struct rt_device *dev)
{
    return dev->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION ? &dev->funcs1 : NULL;
}

void rt_ddi11_1_adopt(D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1)
{
    /* The 11.0 table's 150 slots sit at the same places in the 11.1 one; the 25 whose types
     * differ are cleared so nothing calls them with the 11.0 arguments (the runtime calls the
     * copy, update and flush ones through f1, below). */
    _Static_assert(offsetof(D3D11_1DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList) ==
                       offsetof(D3D11DDI_DEVICEFUNCS, pfnRecycleDestroyCommandList),
                   "the 11.1 table starts with the 11.0 one's slots");
    memcpy(f, f1, sizeof *f);
    f->pfnDefaultConstantBufferUpdateSubresourceUP = NULL;
    f->pfnVsSetConstantBuffers = NULL;
    f->pfnPsSetConstantBuffers = NULL;
    f->pfnGsSetConstantBuffers = NULL;
    f->pfnHsSetConstantBuffers = NULL;
    f->pfnDsSetConstantBuffers = NULL;
    f->pfnCsSetConstantBuffers = NULL;
    f->pfnResourceCopyRegion = NULL;
    f->pfnResourceUpdateSubresourceUP = NULL;
    f->pfnFlush = NULL;
    f->pfnRelocateDeviceFuncs = NULL;
    f->pfnCalcPrivateBlendStateSize = NULL;
    f->pfnCreateBlendState = NULL;
    f->pfnCalcPrivateRasterizerStateSize = NULL;
    f->pfnCreateRasterizerState = NULL;
    f->pfnCalcPrivateShaderSize = NULL;
    f->pfnCreateVertexShader = NULL;
    f->pfnCreateGeometryShader = NULL;
    f->pfnCreatePixelShader = NULL;
    f->pfnCalcPrivateGeometryShaderWithStreamOutput = NULL;
    f->pfnCreateGeometryShaderWithStreamOutput = NULL;
    f->pfnResourceConvertRegion = NULL;
    f->pfnCreateHullShader = NULL;
    f->pfnCreateDomainShader = NULL;
    f->pfnCalcPrivateTessellationShaderSize = NULL;
}

BOOL rt_ddi_has_copy_region(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1)
{
    return f1 ? f1->pfnResourceCopyRegion != NULL : f->pfnResourceCopyRegion != NULL;
}

void rt_ddi_copy_region(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1,
                        D3D10DDI_HDEVICE h, D3D10DDI_HRESOURCE dst, UINT dst_sub, UINT x, UINT y, UINT z,
                        D3D10DDI_HRESOURCE src, UINT src_sub, const D3D10_DDI_BOX *box, UINT flags)
{
    if (f1)
        f1->pfnResourceCopyRegion(h, dst, dst_sub, x, y, z, src, src_sub, box, flags);
    else
        f->pfnResourceCopyRegion(h, dst, dst_sub, x, y, z, src, src_sub, box);
}

BOOL rt_ddi_has_update(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1)
{
    return f1 ? f1->pfnResourceUpdateSubresourceUP != NULL : f->pfnResourceUpdateSubresourceUP != NULL;
}

/* A constant buffer goes to DefaultConstantBufferUpdateSubresourceUP when the driver has one
 * (docs/semantics.md §4.3). */
void rt_ddi_update(const D3D11DDI_DEVICEFUNCS *f, const D3D11_1DDI_DEVICEFUNCS *f1, BOOL cb,
                   D3D10DDI_HDEVICE h, D3D10DDI_HRESOURCE dst, UINT dst_sub, const D3D10_DDI_BOX *box,
                   const void *data, UINT row_pitch, UINT depth_pitch, UINT flags)
{
    if (f1) {
        PFND3D11_1DDI_RESOURCEUPDATESUBRESOURCEUP fn = f1->pfnResourceUpdateSubresourceUP;
        if (cb && f1->pfnDefaultConstantBufferUpdateSubresourceUP)
            fn = f1->pfnDefaultConstantBufferUpdateSubresourceUP;
        fn(h, dst, dst_sub, box, data, row_pitch, depth_pitch, flags);
        return;
    }
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP fn = f->pfnResourceUpdateSubresourceUP;
    if (cb && f->pfnDefaultConstantBufferUpdateSubresourceUP)
        fn = f->pfnDefaultConstantBufferUpdateSubresourceUP;
    fn(h, dst, dst_sub, box, data, row_pitch, depth_pitch);
}

BOOL rt_ddi_has_flush(const struct rt_device *dev)
{
    const D3D11_1DDI_DEVICEFUNCS *f1 = rt_device_funcs1(dev);
    return f1 ? f1->pfnFlush != NULL : dev->funcs.pfnFlush != NULL;
}

void rt_ddi_flush(struct rt_device *dev)
{
    const D3D11_1DDI_DEVICEFUNCS *f1 = rt_device_funcs1(dev);
    if (f1)
        (void)f1->pfnFlush(dev->drv_device, 0); /* a failure arrives through pfnSetErrorCb */
    else
        dev->funcs.pfnFlush(dev->drv_device);
}
