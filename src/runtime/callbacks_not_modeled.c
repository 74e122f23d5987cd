/* The runtime callbacks this model does not implement (issue 19 §2): every slot of the tables a
 * UMD receives - D3DDDI_DEVICECALLBACKS, D3DDDI_ADAPTERCALLBACKS, the core layer's
 * D3D10DDI_ / D3D11DDI_CORELAYER_DEVICECALLBACKS and DXGI's DXGI_DDI_BASE_CALLBACKS - holds a
 * function, so a UMD written for Windows that calls one learns it instead of jumping through
 * NULL. Each answers E_NOTIMPL (the HRESULT ones) or does nothing (the core layer's state
 * callbacks: this runtime keeps no pipeline state to send again) and, in debug mode, says which
 * callback it was. The modeled ones are in callbacks.c. */
#include "runtime/runtime.h"

#include <stddef.h>
#include <string.h>

static HRESULT not_modeled(const char *slot, const char *answer)
{
    RT_REFUSE("the UMD called %s, a runtime callback this model does not implement; answered %s", slot, answer);
    return E_NOTIMPL;
}

/* One stub per slot, with the slot's WDK prototype (the parameters are never read). */
#define NOT_MODELED_HR_AS(fn, slot, ...)                                                           \
    static HRESULT APIENTRY nm_##fn(__VA_ARGS__) { return not_modeled(#slot, "E_NOTIMPL"); }
#define NOT_MODELED_HR(slot, ...) NOT_MODELED_HR_AS(slot, slot, __VA_ARGS__)
#define NOT_MODELED_VOID(slot, ...)                                                                \
    static VOID APIENTRY nm_##slot(__VA_ARGS__) { (void)not_modeled(#slot, "nothing"); }

NOT_MODELED_HR(pfnSetPriorityCb, HANDLE hDevice, D3DDDICB_SETPRIORITY *pData)
NOT_MODELED_HR(pfnSetDisplayModeCb, HANDLE hDevice, D3DDDICB_SETDISPLAYMODE *pData)
NOT_MODELED_HR(pfnPresentCb, HANDLE hDevice, const D3DDDICB_PRESENT *pData)
NOT_MODELED_HR(pfnEscapeCb, HANDLE hAdapter, const D3DDDICB_ESCAPE *pData)
NOT_MODELED_HR(pfnCreateOverlayCb, HANDLE hDevice, D3DDDICB_CREATEOVERLAY *pData)
NOT_MODELED_HR(pfnUpdateOverlayCb, HANDLE hDevice, const D3DDDICB_UPDATEOVERLAY *pData)
NOT_MODELED_HR(pfnFlipOverlayCb, HANDLE hDevice, const D3DDDICB_FLIPOVERLAY *pData)
NOT_MODELED_HR(pfnDestroyOverlayCb, HANDLE hDevice, const D3DDDICB_DESTROYOVERLAY *pData)
NOT_MODELED_HR(pfnCreateSynchronizationObjectCb, HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT *pData)
NOT_MODELED_HR(pfnWaitForSynchronizationObjectCb, HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT *pData)
NOT_MODELED_HR(pfnSignalSynchronizationObjectCb, HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT *pData)
NOT_MODELED_HR(pfnSetAsyncCallbacksCb, HANDLE hDevice, BOOL Enable)
NOT_MODELED_HR(pfnSetDisplayPrivateDriverFormatCb, HANDLE hDevice, const D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT *pData)
NOT_MODELED_HR(pfnOfferAllocationsCb, HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS *pData)
NOT_MODELED_HR(pfnReclaimAllocationsCb, HANDLE hDevice, const D3DDDICB_RECLAIMALLOCATIONS *pData)
NOT_MODELED_HR(pfnWaitForSynchronizationObject2Cb, HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 *pData)
NOT_MODELED_HR(pfnSignalSynchronizationObject2Cb, HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 *pData)
NOT_MODELED_HR(pfnPresentMultiPlaneOverlayCb, HANDLE hDevice, const D3DDDICB_PRESENTMULTIPLANEOVERLAY *pPresent)
NOT_MODELED_HR(pfnLogUMDMarkerCb, HANDLE hDevice, const D3DDDICB_LOGUMDMARKER *pLogUMDMarker)
NOT_MODELED_HR(pfnInvalidateCacheCb, HANDLE hDevice, const D3DDDICB_INVALIDATECACHE *arg1)
NOT_MODELED_HR(pfnUpdateGpuVirtualAddressCb, HANDLE hDevice, const D3DDDICB_UPDATEGPUVIRTUALADDRESS *pData)
NOT_MODELED_HR(pfnCreateContextVirtualCb, HANDLE hDevice, D3DDDICB_CREATECONTEXTVIRTUAL *pData)
NOT_MODELED_HR(pfnDeallocate2Cb, HANDLE hDevice, const D3DDDICB_DEALLOCATE2 *pData)
NOT_MODELED_HR(pfnSignalSynchronizationObjectFromGpu2Cb, HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2 *pData)
NOT_MODELED_HR(pfnReclaimAllocations2Cb, HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS2 *pData)
NOT_MODELED_HR(pfnGetResourcePresentPrivateDriverDataCb, HANDLE hDevice, D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA *pData)
NOT_MODELED_HR(pfnUpdateAllocationPropertyCb, HANDLE hDevice, D3DDDI_UPDATEALLOCPROPERTY *pUpdateAllocationProperty)
NOT_MODELED_HR(pfnOfferAllocations2Cb, HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS2 *pData)
NOT_MODELED_HR(pfnReclaimAllocations3Cb, HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS3 *pData)
NOT_MODELED_VOID(pfnStateVsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStatePsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStatePsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStatePsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateVsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStatePsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateIaInputLayoutCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateIaVertexBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateIaIndexBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateGsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateGsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateIaPrimitiveTopologyCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateVsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateVsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateGsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateGsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateOmRenderTargetsCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateOmBlendStateCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateOmDepthStateCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateRsRastStateCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateSoTargetsCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateRsViewportsCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateRsScissorCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnDisableDeferredStagingResourceDestruction, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateTextFilterSizeCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateHsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateHsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateHsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateHsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateDsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateDsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateDsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateDsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnPerformAmortizedProcessingCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateCsSrvCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateCsUavCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateCsShaderCb, D3D10DDI_HRTCORELAYER hRuntimeDevice)
NOT_MODELED_VOID(pfnStateCsSamplerCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_VOID(pfnStateCsConstBufCb, D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
NOT_MODELED_HR(pfnGetMultisampleMethodListCb, HANDLE hAdapter, D3DDDICB_GETMULTISAMPLEMETHODLIST *pData)
NOT_MODELED_HR_AS(dxgi_pfnPresentCb, pfnPresentCb, HANDLE hDevice, const DXGIDDICB_PRESENT *pPresentData)
NOT_MODELED_HR(pfnPresentMultiplaneOverlayCb, HANDLE hDevice, const DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY *pPresentDXGI)
/* The core layer's state callbacks and the rest of D3D11DDI_CORELAYER_DEVICECALLBACKS but
 * pfnSetErrorCb (callbacks.c's, or the deferred context's). */
static void fill_core_layer(D3D11DDI_CORELAYER_DEVICECALLBACKS *c)
{
    c->pfnStateVsConstBufCb = nm_pfnStateVsConstBufCb;
    c->pfnStatePsSrvCb = nm_pfnStatePsSrvCb;
    c->pfnStatePsShaderCb = nm_pfnStatePsShaderCb;
    c->pfnStatePsSamplerCb = nm_pfnStatePsSamplerCb;
    c->pfnStateVsShaderCb = nm_pfnStateVsShaderCb;
    c->pfnStatePsConstBufCb = nm_pfnStatePsConstBufCb;
    c->pfnStateIaInputLayoutCb = nm_pfnStateIaInputLayoutCb;
    c->pfnStateIaVertexBufCb = nm_pfnStateIaVertexBufCb;
    c->pfnStateIaIndexBufCb = nm_pfnStateIaIndexBufCb;
    c->pfnStateGsConstBufCb = nm_pfnStateGsConstBufCb;
    c->pfnStateGsShaderCb = nm_pfnStateGsShaderCb;
    c->pfnStateIaPrimitiveTopologyCb = nm_pfnStateIaPrimitiveTopologyCb;
    c->pfnStateVsSrvCb = nm_pfnStateVsSrvCb;
    c->pfnStateVsSamplerCb = nm_pfnStateVsSamplerCb;
    c->pfnStateGsSrvCb = nm_pfnStateGsSrvCb;
    c->pfnStateGsSamplerCb = nm_pfnStateGsSamplerCb;
    c->pfnStateOmRenderTargetsCb = nm_pfnStateOmRenderTargetsCb;
    c->pfnStateOmBlendStateCb = nm_pfnStateOmBlendStateCb;
    c->pfnStateOmDepthStateCb = nm_pfnStateOmDepthStateCb;
    c->pfnStateRsRastStateCb = nm_pfnStateRsRastStateCb;
    c->pfnStateSoTargetsCb = nm_pfnStateSoTargetsCb;
    c->pfnStateRsViewportsCb = nm_pfnStateRsViewportsCb;
    c->pfnStateRsScissorCb = nm_pfnStateRsScissorCb;
    c->pfnDisableDeferredStagingResourceDestruction = nm_pfnDisableDeferredStagingResourceDestruction;
    c->pfnStateTextFilterSizeCb = nm_pfnStateTextFilterSizeCb;
    c->pfnStateHsSrvCb = nm_pfnStateHsSrvCb;
    c->pfnStateHsShaderCb = nm_pfnStateHsShaderCb;
    c->pfnStateHsSamplerCb = nm_pfnStateHsSamplerCb;
    c->pfnStateHsConstBufCb = nm_pfnStateHsConstBufCb;
    c->pfnStateDsSrvCb = nm_pfnStateDsSrvCb;
    c->pfnStateDsShaderCb = nm_pfnStateDsShaderCb;
    c->pfnStateDsSamplerCb = nm_pfnStateDsSamplerCb;
    c->pfnStateDsConstBufCb = nm_pfnStateDsConstBufCb;
    c->pfnPerformAmortizedProcessingCb = nm_pfnPerformAmortizedProcessingCb;
    c->pfnStateCsSrvCb = nm_pfnStateCsSrvCb;
    c->pfnStateCsUavCb = nm_pfnStateCsUavCb;
    c->pfnStateCsShaderCb = nm_pfnStateCsShaderCb;
    c->pfnStateCsSamplerCb = nm_pfnStateCsSamplerCb;
    c->pfnStateCsConstBufCb = nm_pfnStateCsConstBufCb;
}

void rt_callbacks_not_modeled_init(D3DDDI_DEVICECALLBACKS *kt, D3DDDI_ADAPTERCALLBACKS *adapter,
                                     D3D10DDI_CORELAYER_DEVICECALLBACKS *core10,
                                     D3D11DDI_CORELAYER_DEVICECALLBACKS *core11, DXGI_DDI_BASE_CALLBACKS *dxgi)
{
    if (kt) {
        kt->pfnSetPriorityCb = nm_pfnSetPriorityCb;
        kt->pfnSetDisplayModeCb = nm_pfnSetDisplayModeCb;
        kt->pfnPresentCb = nm_pfnPresentCb;
        kt->pfnEscapeCb = nm_pfnEscapeCb;
        kt->pfnCreateOverlayCb = nm_pfnCreateOverlayCb;
        kt->pfnUpdateOverlayCb = nm_pfnUpdateOverlayCb;
        kt->pfnFlipOverlayCb = nm_pfnFlipOverlayCb;
        kt->pfnDestroyOverlayCb = nm_pfnDestroyOverlayCb;
        kt->pfnCreateSynchronizationObjectCb = nm_pfnCreateSynchronizationObjectCb;
        kt->pfnWaitForSynchronizationObjectCb = nm_pfnWaitForSynchronizationObjectCb;
        kt->pfnSignalSynchronizationObjectCb = nm_pfnSignalSynchronizationObjectCb;
        kt->pfnSetAsyncCallbacksCb = nm_pfnSetAsyncCallbacksCb;
        kt->pfnSetDisplayPrivateDriverFormatCb = nm_pfnSetDisplayPrivateDriverFormatCb;
        kt->pfnOfferAllocationsCb = nm_pfnOfferAllocationsCb;
        kt->pfnReclaimAllocationsCb = nm_pfnReclaimAllocationsCb;
        kt->pfnWaitForSynchronizationObject2Cb = nm_pfnWaitForSynchronizationObject2Cb;
        kt->pfnSignalSynchronizationObject2Cb = nm_pfnSignalSynchronizationObject2Cb;
        kt->pfnPresentMultiPlaneOverlayCb = nm_pfnPresentMultiPlaneOverlayCb;
        kt->pfnLogUMDMarkerCb = nm_pfnLogUMDMarkerCb;
        kt->pfnInvalidateCacheCb = nm_pfnInvalidateCacheCb;
        kt->pfnUpdateGpuVirtualAddressCb = nm_pfnUpdateGpuVirtualAddressCb;
        kt->pfnCreateContextVirtualCb = nm_pfnCreateContextVirtualCb;
        kt->pfnDeallocate2Cb = nm_pfnDeallocate2Cb;
        kt->pfnSignalSynchronizationObjectFromGpu2Cb = nm_pfnSignalSynchronizationObjectFromGpu2Cb;
        kt->pfnReclaimAllocations2Cb = nm_pfnReclaimAllocations2Cb;
        kt->pfnGetResourcePresentPrivateDriverDataCb = nm_pfnGetResourcePresentPrivateDriverDataCb;
        kt->pfnUpdateAllocationPropertyCb = nm_pfnUpdateAllocationPropertyCb;
        kt->pfnOfferAllocations2Cb = nm_pfnOfferAllocations2Cb;
        kt->pfnReclaimAllocations3Cb = nm_pfnReclaimAllocations3Cb;
    }
    if (adapter)
        adapter->pfnGetMultisampleMethodListCb = nm_pfnGetMultisampleMethodListCb;
    if (core11)
        fill_core_layer(core11);
    if (core10) {
        /* The D3D10 table is the D3D11 one's first 26 slots, with the same types. */
        _Static_assert(sizeof(D3D10DDI_CORELAYER_DEVICECALLBACKS) ==
                           offsetof(D3D11DDI_CORELAYER_DEVICECALLBACKS, pfnStateHsSrvCb),
                       "the D3D10 core-layer table is a prefix of the D3D11 one");
        D3D11DDI_CORELAYER_DEVICECALLBACKS all = { .pfnSetErrorCb = core10->pfnSetErrorCb };
        fill_core_layer(&all);
        memcpy(core10, &all, sizeof *core10);
    }
    if (dxgi) {
        dxgi->pfnPresentCb = nm_dxgi_pfnPresentCb;
        dxgi->pfnPresentMultiplaneOverlayCb = nm_pfnPresentMultiplaneOverlayCb;
    }
}
