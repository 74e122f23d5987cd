/*
 * ddi10.c - the D3D10.0 / 10.1 DDIs behind a D3D10 device (issue 15 §1).
 *
 * A D3D10CreateDevice(1) device opens its UMD through OpenAdapter10 and creates it with
 * Interface = D3D10_0 / D3D10_1_DDI_INTERFACE_VERSION: the UMD fills D3D10DDI_DEVICEFUNCS (or
 * the 10.1 table), one table where Map and Unmap are device functions (seed 001 §1, §5). Most
 * of its members have the D3D11 tables' very types, so the runtime copies them into the
 * table every path already calls (rt_device.funcs); the few whose argument types
 * differ - resource creation (no ByteStride) and shader-resource views (the 10.0 and 10.1
 * argument structures) - go through the rt_ddi_* functions below, which restate the D3D11
 * arguments in the device's DDI. The D3D11-only functions (UAVs, command lists) stay NULL, and
 * the API refuses what would need them.
 */
#include "runtime/runtime.h"

#include <string.h>

UINT rt_ddi_build_version(UINT ddi_interface)
{
    switch (ddi_interface) {
    case D3D10_0_DDI_INTERFACE_VERSION:
        return D3D10_0_DDI_BUILD_VERSION;
    case D3D10_1_DDI_INTERFACE_VERSION:
        return D3D10_1_DDI_BUILD_VERSION;
    case D3D11_1_DDI_INTERFACE_VERSION:
        return D3D11_1_DDI_BUILD_VERSION;
    default:
        return D3D11_0_DDI_BUILD_VERSION;
    }
}

BOOL rt_device_is_d3d10(const struct rt_device *dev)
{
    return dev->ddi_interface == D3D10_0_DDI_INTERFACE_VERSION || dev->ddi_interface == D3D10_1_DDI_INTERFACE_VERSION;
}

const char *rt_device_creator(const struct rt_device *dev)
{
    switch (dev->ddi_interface) {
    case D3D10_0_DDI_INTERFACE_VERSION:
        return "D3D10CreateDevice";
    case D3D10_1_DDI_INTERFACE_VERSION:
        return "D3D10CreateDevice1";
    default:
        return "D3D11CreateDevice";
    }
}

void rt_ddi10_adopt(struct rt_device *dev)
{
    /* The D3D10.0 table is the first 101 slots of the D3D11.0 one, the 10.1 table the first 103,
     * the same members in the same places; twelve of them have other types in D3D11. Those stay
     * NULL: the runtime calls the resource and view ones through funcs10 (below) and no path
     * calls the others. */
    _Static_assert(offsetof(D3D11DDI_DEVICEFUNCS, pfnSetTextFilterSize) == offsetof(D3D10DDI_DEVICEFUNCS, pfnSetTextFilterSize) &&
                       offsetof(D3D11DDI_DEVICEFUNCS, pfnResourceConvertRegion) ==
                           offsetof(D3D10_1DDI_DEVICEFUNCS, pfnResourceConvertRegion),
                   "the D3D10 tables are prefixes of the D3D11.0 one");
    D3D11DDI_DEVICEFUNCS *f = &dev->funcs;
    memset(f, 0, sizeof *f);
    memcpy(f, &dev->funcs10, dev->ddi_interface == D3D10_1_DDI_INTERFACE_VERSION ? sizeof(D3D10_1DDI_DEVICEFUNCS)
                                                                                   : sizeof(D3D10DDI_DEVICEFUNCS));
    f->pfnSetRenderTargets = NULL;
    f->pfnRelocateDeviceFuncs = NULL;
    f->pfnCalcPrivateResourceSize = NULL;
    f->pfnCreateResource = NULL;
    f->pfnCalcPrivateShaderResourceViewSize = NULL;
    f->pfnCreateShaderResourceView = NULL;
    f->pfnCalcPrivateDepthStencilViewSize = NULL;
    f->pfnCreateDepthStencilView = NULL;
    f->pfnCalcPrivateBlendStateSize = NULL;
    f->pfnCreateBlendState = NULL;
    f->pfnCalcPrivateGeometryShaderWithStreamOutput = NULL;
    f->pfnCreateGeometryShaderWithStreamOutput = NULL;
}

BOOL rt_ddi_has_resource_functions(const struct rt_device *dev)
{
    if (rt_device_is_d3d10(dev))
        return dev->funcs10.f10.pfnCalcPrivateResourceSize && dev->funcs10.f10.pfnCreateResource;
    return dev->funcs.pfnCalcPrivateResourceSize && dev->funcs.pfnCreateResource;
}

static D3D10DDIARG_CREATERESOURCE resource_args10(const D3D11DDIARG_CREATERESOURCE *a)
{
    /* ByteStride has no place: rt_resource_create refused the D3D11-only kinds beforehand. */
    return (D3D10DDIARG_CREATERESOURCE){
        .pMipInfoList = a->pMipInfoList, .pInitialDataUP = a->pInitialDataUP,
        .ResourceDimension = a->ResourceDimension, .Usage = a->Usage, .BindFlags = a->BindFlags,
        .MapFlags = a->MapFlags, .MiscFlags = a->MiscFlags, .Format = a->Format, .SampleDesc = a->SampleDesc,
        .MipLevels = a->MipLevels, .ArraySize = a->ArraySize, .pPrimaryDesc = a->pPrimaryDesc,
    };
}

SIZE_T rt_ddi_calc_resource_size(struct rt_device *dev, const D3D11DDIARG_CREATERESOURCE *args)
{
    if (!rt_device_is_d3d10(dev))
        return dev->funcs.pfnCalcPrivateResourceSize(dev->drv_device, args);
    D3D10DDIARG_CREATERESOURCE a = resource_args10(args);
    return dev->funcs10.f10.pfnCalcPrivateResourceSize(dev->drv_device, &a);
}

void rt_ddi_create_resource(struct rt_device *dev, const D3D11DDIARG_CREATERESOURCE *args, D3D10DDI_HRESOURCE h,
                            D3D10DDI_HRTRESOURCE rt)
{
    if (!rt_device_is_d3d10(dev)) {
        dev->funcs.pfnCreateResource(dev->drv_device, args, h, rt);
        return;
    }
    D3D10DDIARG_CREATERESOURCE a = resource_args10(args);
    dev->funcs10.f10.pfnCreateResource(dev->drv_device, &a, h, rt);
}

BOOL rt_ddi_has_srv_functions(const struct rt_device *dev)
{
    if (rt_device_is_d3d10(dev))
        return dev->funcs10.f10.pfnCalcPrivateShaderResourceViewSize && dev->funcs10.f10.pfnCreateShaderResourceView;
    return dev->funcs.pfnCalcPrivateShaderResourceViewSize && dev->funcs.pfnCreateShaderResourceView;
}

/* The view in the 10.0 or 10.1 argument structure (the same members in this model). */
#define SRV_ARGS10(T, a)                                                                                   \
    ((a)->ResourceDimension == D3D10DDIRESOURCE_BUFFER                                                     \
         ? (T){ .hDrvResource = (a)->hDrvResource, .Format = (a)->Format,                                 \
                .ResourceDimension = (a)->ResourceDimension, .Buffer = (a)->Buffer }                      \
         : (T){ .hDrvResource = (a)->hDrvResource, .Format = (a)->Format,                                 \
                .ResourceDimension = (a)->ResourceDimension, .Tex2D = (a)->Tex2D })

SIZE_T rt_ddi_calc_srv_size(struct rt_device *dev, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args)
{
    if (dev->ddi_interface == D3D10_0_DDI_INTERFACE_VERSION) {
        D3D10DDIARG_CREATESHADERRESOURCEVIEW a = SRV_ARGS10(D3D10DDIARG_CREATESHADERRESOURCEVIEW, args);
        return dev->funcs10.f10.pfnCalcPrivateShaderResourceViewSize(dev->drv_device, &a);
    }
    if (dev->ddi_interface == D3D10_1_DDI_INTERFACE_VERSION) {
        D3D10_1DDIARG_CREATESHADERRESOURCEVIEW a = SRV_ARGS10(D3D10_1DDIARG_CREATESHADERRESOURCEVIEW, args);
        return dev->funcs10.f10_1.pfnCalcPrivateShaderResourceViewSize(dev->drv_device, &a);
    }
    return dev->funcs.pfnCalcPrivateShaderResourceViewSize(dev->drv_device, args);
}

void rt_ddi_create_srv(struct rt_device *dev, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *args,
                       D3D10DDI_HSHADERRESOURCEVIEW h, D3D10DDI_HRTSHADERRESOURCEVIEW rt)
{
    if (dev->ddi_interface == D3D10_0_DDI_INTERFACE_VERSION) {
        D3D10DDIARG_CREATESHADERRESOURCEVIEW a = SRV_ARGS10(D3D10DDIARG_CREATESHADERRESOURCEVIEW, args);
        dev->funcs10.f10.pfnCreateShaderResourceView(dev->drv_device, &a, h, rt);
    } else if (dev->ddi_interface == D3D10_1_DDI_INTERFACE_VERSION) {
        D3D10_1DDIARG_CREATESHADERRESOURCEVIEW a = SRV_ARGS10(D3D10_1DDIARG_CREATESHADERRESOURCEVIEW, args);
        dev->funcs10.f10_1.pfnCreateShaderResourceView(dev->drv_device, &a, h, rt);
    } else {
        dev->funcs.pfnCreateShaderResourceView(dev->drv_device, args, h, rt);
    }
}
