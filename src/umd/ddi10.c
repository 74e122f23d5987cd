/* ddi10.c - the D3D10.0 and D3D10.1 device tables (issue 15 §1). One code base serves the
 * D3D10 and D3D11 DDIs, as real UMDs do: the 10.x tables point at the same implementation,
 * and the few functions whose argument types differ (resources without ByteStride, the 10.0 /
 * 10.1 shader-resource views) restate their arguments in the D3D11 form and call it. Map and
 * Unmap are device functions here (seed 001 §5 "D3D10 Map/Unmap (device funcs)"); the
 * runtime reaches them through D3D10DDI_DEVICEFUNCS. */
#include "umd/umd.h"

static D3D11DDIARG_CREATERESOURCE resource_args11(const D3D10DDIARG_CREATERESOURCE *a)
{
    D3D11DDIARG_CREATERESOURCE r = {
        .pMipInfoList = a->pMipInfoList, .pInitialDataUP = a->pInitialDataUP,
        .ResourceDimension = a->ResourceDimension, .Usage = a->Usage, .BindFlags = a->BindFlags,
        .MapFlags = a->MapFlags, .MiscFlags = a->MiscFlags, .Format = a->Format, .SampleDesc = a->SampleDesc,
        .MipLevels = a->MipLevels, .ArraySize = a->ArraySize, .pPrimaryDesc = a->pPrimaryDesc,
        .ByteStride = 0, /* no structured buffers before D3D11 */
    };
    return r;
}

static SIZE_T APIENTRY umd_CalcPrivateResourceSize10(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATERESOURCE *a)
{
    D3D11DDIARG_CREATERESOURCE r = a ? resource_args11(a) : (D3D11DDIARG_CREATERESOURCE){ 0 };
    return umd_CalcPrivateResourceSize(d, a ? &r : NULL);
}

static VOID APIENTRY umd_CreateResource10(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATERESOURCE *a,
                                          D3D10DDI_HRESOURCE h, D3D10DDI_HRTRESOURCE rt)
{
    D3D11DDIARG_CREATERESOURCE r = a ? resource_args11(a) : (D3D11DDIARG_CREATERESOURCE){ 0 };
    umd_CreateResource(d, a ? &r : NULL, h, rt);
}

/* The 10.0 and 10.1 view arguments carry the D3D11 members this model implements. */
#define SRV_ARGS11(a)                                                                                    \
    ((a)->ResourceDimension == D3D10DDIRESOURCE_BUFFER                                                   \
         ? (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ .hDrvResource = (a)->hDrvResource, .Format = (a)->Format, \
                                                   .ResourceDimension = (a)->ResourceDimension,            \
                                                   .Buffer = (a)->Buffer }                                 \
         : (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ .hDrvResource = (a)->hDrvResource, .Format = (a)->Format, \
                                                   .ResourceDimension = (a)->ResourceDimension,            \
                                                   .Tex2D = (a)->Tex2D })

static SIZE_T APIENTRY umd_CalcPrivateShaderResourceViewSize10(D3D10DDI_HDEVICE d,
                                                               const D3D10DDIARG_CREATESHADERRESOURCEVIEW *a)
{
    D3D11DDIARG_CREATESHADERRESOURCEVIEW r = a ? SRV_ARGS11(a) : (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ 0 };
    return umd_CalcPrivateShaderResourceViewSize(d, a ? &r : NULL);
}

static VOID APIENTRY umd_CreateShaderResourceView10(D3D10DDI_HDEVICE d, const D3D10DDIARG_CREATESHADERRESOURCEVIEW *a,
                                                    D3D10DDI_HSHADERRESOURCEVIEW h, D3D10DDI_HRTSHADERRESOURCEVIEW rt)
{
    D3D11DDIARG_CREATESHADERRESOURCEVIEW r = a ? SRV_ARGS11(a) : (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ 0 };
    umd_CreateShaderResourceView(d, a ? &r : NULL, h, rt);
}

static SIZE_T APIENTRY umd_CalcPrivateShaderResourceViewSize10_1(D3D10DDI_HDEVICE d,
                                                                 const D3D10_1DDIARG_CREATESHADERRESOURCEVIEW *a)
{
    D3D11DDIARG_CREATESHADERRESOURCEVIEW r = a ? SRV_ARGS11(a) : (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ 0 };
    return umd_CalcPrivateShaderResourceViewSize(d, a ? &r : NULL);
}

static VOID APIENTRY umd_CreateShaderResourceView10_1(D3D10DDI_HDEVICE d,
                                                      const D3D10_1DDIARG_CREATESHADERRESOURCEVIEW *a,
                                                      D3D10DDI_HSHADERRESOURCEVIEW h, D3D10DDI_HRTSHADERRESOURCEVIEW rt)
{
    D3D11DDIARG_CREATESHADERRESOURCEVIEW r = a ? SRV_ARGS11(a) : (D3D11DDIARG_CREATESHADERRESOURCEVIEW){ 0 };
    umd_CreateShaderResourceView(d, a ? &r : NULL, h, rt);
}

/* Every member both tables share; the view functions differ by type and are set by the caller. */
#define FILL_SHARED(f)                                                                    \
    do {                                                                                  \
        (f)->pfnDefaultConstantBufferUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP; \
        (f)->pfnDynamicIABufferMapNoOverwrite = umd_ResourceMap;                          \
        (f)->pfnDynamicIABufferUnmap = umd_ResourceUnmap;                                 \
        (f)->pfnDynamicConstantBufferMapDiscard = umd_ResourceMap;                        \
        (f)->pfnDynamicIABufferMapDiscard = umd_ResourceMap;                              \
        (f)->pfnDynamicConstantBufferUnmap = umd_ResourceUnmap;                           \
        (f)->pfnDynamicResourceMapDiscard = umd_ResourceMap;                              \
        (f)->pfnDynamicResourceUnmap = umd_ResourceUnmap;                                 \
        (f)->pfnStagingResourceMap = umd_ResourceMap;                                     \
        (f)->pfnStagingResourceUnmap = umd_ResourceUnmap;                                 \
        (f)->pfnQueryEnd = umd_QueryEnd;                                                  \
        (f)->pfnQueryBegin = umd_QueryBegin;                                              \
        (f)->pfnResourceCopyRegion = umd_ResourceCopyRegion;                              \
        (f)->pfnResourceUpdateSubresourceUP = umd_ResourceUpdateSubresourceUP;            \
        (f)->pfnClearRenderTargetView = umd_ClearRenderTargetView;                        \
        (f)->pfnQueryGetData = umd_QueryGetData;                                          \
        (f)->pfnFlush = umd_Flush;                                                        \
        (f)->pfnResourceCopy = umd_ResourceCopy;                                          \
        (f)->pfnResourceMap = umd_ResourceMap;                                            \
        (f)->pfnResourceUnmap = umd_ResourceUnmap;                                        \
        (f)->pfnResourceIsStagingBusy = umd_ResourceIsStagingBusy;                        \
        (f)->pfnCalcPrivateResourceSize = umd_CalcPrivateResourceSize10;                  \
        (f)->pfnCalcPrivateOpenedResourceSize = umd_CalcPrivateOpenedResourceSize;        \
        (f)->pfnCreateResource = umd_CreateResource10;                                    \
        (f)->pfnOpenResource = umd_OpenResource;                                          \
        (f)->pfnDestroyResource = umd_DestroyResource;                                    \
        (f)->pfnDestroyShaderResourceView = umd_DestroyShaderResourceView;                \
        (f)->pfnCalcPrivateRenderTargetViewSize = umd_CalcPrivateRenderTargetViewSize;    \
        (f)->pfnCreateRenderTargetView = umd_CreateRenderTargetView;                      \
        (f)->pfnDestroyRenderTargetView = umd_DestroyRenderTargetView;                    \
        (f)->pfnCalcPrivateQuerySize = umd_CalcPrivateQuerySize;                          \
        (f)->pfnCreateQuery = umd_CreateQuery;                                            \
        (f)->pfnDestroyQuery = umd_DestroyQuery;                                          \
        (f)->pfnCheckFormatSupport = umd_CheckFormatSupport;                              \
        (f)->pfnCheckMultisampleQualityLevels = umd_CheckMultisampleQualityLevels;        \
        (f)->pfnDestroyDevice = umd_DestroyDevice;                                        \
    } while (0)

void umd_fill_device_funcs10(D3D10DDI_DEVICEFUNCS *f)
{
    FILL_SHARED(f);
    f->pfnCalcPrivateShaderResourceViewSize = umd_CalcPrivateShaderResourceViewSize10;
    f->pfnCreateShaderResourceView = umd_CreateShaderResourceView10;
}

void umd_fill_device_funcs10_1(D3D10_1DDI_DEVICEFUNCS *f)
{
    FILL_SHARED(f);
    f->pfnCalcPrivateShaderResourceViewSize = umd_CalcPrivateShaderResourceViewSize10_1;
    f->pfnCreateShaderResourceView = umd_CreateShaderResourceView10_1;
}
