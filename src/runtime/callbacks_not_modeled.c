/* The runtime callbacks this model does not implement (issue 19 §2): every slot of the tables a
 * UMD receives - D3DDDI_DEVICECALLBACKS, D3DDDI_ADAPTERCALLBACKS, the core layer's
 * D3D10DDI_ / D3D11DDI_CORELAYER_DEVICECALLBACKS and DXGI's DXGI_DDI_BASE_CALLBACKS - holds a
 * function, so a UMD written for Windows that calls one learns it instead of jumping through
 * NULL. Each answers E_NOTIMPL (the HRESULT ones) or does nothing (the core layer's state
 * callbacks: this runtime keeps no pipeline state to send again) and, in debug mode, says which
 * callback it was. The modeled ones are in callbacks.c. */
#include "runtime/runtime.h"

static HRESULT not_modeled(const char *slot, const char *answer)
{
    RT_REFUSE("the UMD called %s, a runtime callback this model does not implement; answered %s", slot, answer);
    return E_NOTIMPL;
}

static HRESULT APIENTRY nm_pfnSetPriorityCb(HANDLE hDevice, D3DDDICB_SETPRIORITY *pData)
{
    return not_modeled("pfnSetPriorityCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnQueryResidencyCb(HANDLE hDevice, const D3DDDICB_QUERYRESIDENCY *pData)
{
    return not_modeled("pfnQueryResidencyCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSetDisplayModeCb(HANDLE hDevice, D3DDDICB_SETDISPLAYMODE *pData)
{
    return not_modeled("pfnSetDisplayModeCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnPresentCb(HANDLE hDevice, const D3DDDICB_PRESENT *pData)
{
    return not_modeled("pfnPresentCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnEscapeCb(HANDLE hAdapter, const D3DDDICB_ESCAPE *pData)
{
    return not_modeled("pfnEscapeCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnCreateOverlayCb(HANDLE hDevice, D3DDDICB_CREATEOVERLAY *pData)
{
    return not_modeled("pfnCreateOverlayCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnUpdateOverlayCb(HANDLE hDevice, const D3DDDICB_UPDATEOVERLAY *pData)
{
    return not_modeled("pfnUpdateOverlayCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnFlipOverlayCb(HANDLE hDevice, const D3DDDICB_FLIPOVERLAY *pData)
{
    return not_modeled("pfnFlipOverlayCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnDestroyOverlayCb(HANDLE hDevice, const D3DDDICB_DESTROYOVERLAY *pData)
{
    return not_modeled("pfnDestroyOverlayCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnCreateSynchronizationObjectCb(HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT *pData)
{
    return not_modeled("pfnCreateSynchronizationObjectCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnWaitForSynchronizationObjectCb(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT *pData)
{
    return not_modeled("pfnWaitForSynchronizationObjectCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSignalSynchronizationObjectCb(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT *pData)
{
    return not_modeled("pfnSignalSynchronizationObjectCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSetAsyncCallbacksCb(HANDLE hDevice, BOOL Enable)
{
    return not_modeled("pfnSetAsyncCallbacksCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSetDisplayPrivateDriverFormatCb(HANDLE hDevice, const D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT *pData)
{
    return not_modeled("pfnSetDisplayPrivateDriverFormatCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnOfferAllocationsCb(HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS *pData)
{
    return not_modeled("pfnOfferAllocationsCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnReclaimAllocationsCb(HANDLE hDevice, const D3DDDICB_RECLAIMALLOCATIONS *pData)
{
    return not_modeled("pfnReclaimAllocationsCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnWaitForSynchronizationObject2Cb(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 *pData)
{
    return not_modeled("pfnWaitForSynchronizationObject2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSignalSynchronizationObject2Cb(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 *pData)
{
    return not_modeled("pfnSignalSynchronizationObject2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnPresentMultiPlaneOverlayCb(HANDLE hDevice, const D3DDDICB_PRESENTMULTIPLANEOVERLAY *pPresent)
{
    return not_modeled("pfnPresentMultiPlaneOverlayCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnLogUMDMarkerCb(HANDLE hDevice, const D3DDDICB_LOGUMDMARKER *pLogUMDMarker)
{
    return not_modeled("pfnLogUMDMarkerCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnInvalidateCacheCb(HANDLE hDevice, const D3DDDICB_INVALIDATECACHE *arg1)
{
    return not_modeled("pfnInvalidateCacheCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnUpdateGpuVirtualAddressCb(HANDLE hDevice, const D3DDDICB_UPDATEGPUVIRTUALADDRESS *pData)
{
    return not_modeled("pfnUpdateGpuVirtualAddressCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnCreateContextVirtualCb(HANDLE hDevice, D3DDDICB_CREATECONTEXTVIRTUAL *pData)
{
    return not_modeled("pfnCreateContextVirtualCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnDeallocate2Cb(HANDLE hDevice, const D3DDDICB_DEALLOCATE2 *pData)
{
    return not_modeled("pfnDeallocate2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnSignalSynchronizationObjectFromGpu2Cb(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2 *pData)
{
    return not_modeled("pfnSignalSynchronizationObjectFromGpu2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnReclaimAllocations2Cb(HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS2 *pData)
{
    return not_modeled("pfnReclaimAllocations2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnGetResourcePresentPrivateDriverDataCb(HANDLE hDevice, D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA *pData)
{
    return not_modeled("pfnGetResourcePresentPrivateDriverDataCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnUpdateAllocationPropertyCb(HANDLE hDevice, D3DDDI_UPDATEALLOCPROPERTY *pUpdateAllocationProperty)
{
    return not_modeled("pfnUpdateAllocationPropertyCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnOfferAllocations2Cb(HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS2 *pData)
{
    return not_modeled("pfnOfferAllocations2Cb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnReclaimAllocations3Cb(HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS3 *pData)
{
    return not_modeled("pfnReclaimAllocations3Cb", "E_NOTIMPL");
}

static VOID APIENTRY nm_pfnStateVsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateVsConstBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStatePsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStatePsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStatePsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStatePsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStatePsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStatePsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateVsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateVsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStatePsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStatePsConstBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStateIaInputLayoutCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateIaInputLayoutCb", "nothing");
}

static VOID APIENTRY nm_pfnStateIaVertexBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateIaVertexBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStateIaIndexBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateIaIndexBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStateGsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateGsConstBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStateGsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateGsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStateIaPrimitiveTopologyCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateIaPrimitiveTopologyCb", "nothing");
}

static VOID APIENTRY nm_pfnStateVsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateVsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStateVsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateVsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateGsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateGsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStateGsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateGsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateOmRenderTargetsCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateOmRenderTargetsCb", "nothing");
}

static VOID APIENTRY nm_pfnStateOmBlendStateCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateOmBlendStateCb", "nothing");
}

static VOID APIENTRY nm_pfnStateOmDepthStateCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateOmDepthStateCb", "nothing");
}

static VOID APIENTRY nm_pfnStateRsRastStateCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateRsRastStateCb", "nothing");
}

static VOID APIENTRY nm_pfnStateSoTargetsCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateSoTargetsCb", "nothing");
}

static VOID APIENTRY nm_pfnStateRsViewportsCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateRsViewportsCb", "nothing");
}

static VOID APIENTRY nm_pfnStateRsScissorCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateRsScissorCb", "nothing");
}

static VOID APIENTRY nm_pfnDisableDeferredStagingResourceDestruction(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnDisableDeferredStagingResourceDestruction", "nothing");
}

static VOID APIENTRY nm_pfnStateTextFilterSizeCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateTextFilterSizeCb", "nothing");
}

static VOID APIENTRY nm_pfnStateHsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateHsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStateHsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateHsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStateHsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateHsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateHsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateHsConstBufCb", "nothing");
}

static VOID APIENTRY nm_pfnStateDsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateDsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStateDsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateDsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStateDsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateDsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateDsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateDsConstBufCb", "nothing");
}

static VOID APIENTRY nm_pfnPerformAmortizedProcessingCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnPerformAmortizedProcessingCb", "nothing");
}

static VOID APIENTRY nm_pfnStateCsSrvCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateCsSrvCb", "nothing");
}

static VOID APIENTRY nm_pfnStateCsUavCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateCsUavCb", "nothing");
}

static VOID APIENTRY nm_pfnStateCsShaderCb(D3D10DDI_HRTCORELAYER hRuntimeDevice)
{
    (void)not_modeled("pfnStateCsShaderCb", "nothing");
}

static VOID APIENTRY nm_pfnStateCsSamplerCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateCsSamplerCb", "nothing");
}

static VOID APIENTRY nm_pfnStateCsConstBufCb(D3D10DDI_HRTCORELAYER hRuntimeDevice, UINT Base, UINT Count)
{
    (void)not_modeled("pfnStateCsConstBufCb", "nothing");
}

static HRESULT APIENTRY nm_pfnGetMultisampleMethodListCb(HANDLE hAdapter, D3DDDICB_GETMULTISAMPLEMETHODLIST *pData)
{
    return not_modeled("pfnGetMultisampleMethodListCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_dxgi_pfnPresentCb(HANDLE hDevice, const DXGIDDICB_PRESENT *pPresentData)
{
    return not_modeled("pfnPresentCb", "E_NOTIMPL");
}

static HRESULT APIENTRY nm_pfnPresentMultiplaneOverlayCb(HANDLE hDevice, const DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY *pPresentDXGI)
{
    return not_modeled("pfnPresentMultiplaneOverlayCb", "E_NOTIMPL");
}

void rt_callbacks_not_modeled_init(D3DDDI_DEVICECALLBACKS *kt, D3DDDI_ADAPTERCALLBACKS *adapter,
                                     D3D10DDI_CORELAYER_DEVICECALLBACKS *core10,
                                     D3D11DDI_CORELAYER_DEVICECALLBACKS *core11, DXGI_DDI_BASE_CALLBACKS *dxgi)
{
    if (kt) {
        kt->pfnSetPriorityCb = nm_pfnSetPriorityCb;
        kt->pfnQueryResidencyCb = nm_pfnQueryResidencyCb;
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
    /* The D3D10 table is the D3D11 one's first 26 slots, with the same types. */
    if (core10) {
        core10->pfnStateVsConstBufCb = nm_pfnStateVsConstBufCb;
        core10->pfnStatePsSrvCb = nm_pfnStatePsSrvCb;
        core10->pfnStatePsShaderCb = nm_pfnStatePsShaderCb;
        core10->pfnStatePsSamplerCb = nm_pfnStatePsSamplerCb;
        core10->pfnStateVsShaderCb = nm_pfnStateVsShaderCb;
        core10->pfnStatePsConstBufCb = nm_pfnStatePsConstBufCb;
        core10->pfnStateIaInputLayoutCb = nm_pfnStateIaInputLayoutCb;
        core10->pfnStateIaVertexBufCb = nm_pfnStateIaVertexBufCb;
        core10->pfnStateIaIndexBufCb = nm_pfnStateIaIndexBufCb;
        core10->pfnStateGsConstBufCb = nm_pfnStateGsConstBufCb;
        core10->pfnStateGsShaderCb = nm_pfnStateGsShaderCb;
        core10->pfnStateIaPrimitiveTopologyCb = nm_pfnStateIaPrimitiveTopologyCb;
        core10->pfnStateVsSrvCb = nm_pfnStateVsSrvCb;
        core10->pfnStateVsSamplerCb = nm_pfnStateVsSamplerCb;
        core10->pfnStateGsSrvCb = nm_pfnStateGsSrvCb;
        core10->pfnStateGsSamplerCb = nm_pfnStateGsSamplerCb;
        core10->pfnStateOmRenderTargetsCb = nm_pfnStateOmRenderTargetsCb;
        core10->pfnStateOmBlendStateCb = nm_pfnStateOmBlendStateCb;
        core10->pfnStateOmDepthStateCb = nm_pfnStateOmDepthStateCb;
        core10->pfnStateRsRastStateCb = nm_pfnStateRsRastStateCb;
        core10->pfnStateSoTargetsCb = nm_pfnStateSoTargetsCb;
        core10->pfnStateRsViewportsCb = nm_pfnStateRsViewportsCb;
        core10->pfnStateRsScissorCb = nm_pfnStateRsScissorCb;
        core10->pfnDisableDeferredStagingResourceDestruction = nm_pfnDisableDeferredStagingResourceDestruction;
        core10->pfnStateTextFilterSizeCb = nm_pfnStateTextFilterSizeCb;
    }
    if (core11) {
        core11->pfnStateVsConstBufCb = nm_pfnStateVsConstBufCb;
        core11->pfnStatePsSrvCb = nm_pfnStatePsSrvCb;
        core11->pfnStatePsShaderCb = nm_pfnStatePsShaderCb;
        core11->pfnStatePsSamplerCb = nm_pfnStatePsSamplerCb;
        core11->pfnStateVsShaderCb = nm_pfnStateVsShaderCb;
        core11->pfnStatePsConstBufCb = nm_pfnStatePsConstBufCb;
        core11->pfnStateIaInputLayoutCb = nm_pfnStateIaInputLayoutCb;
        core11->pfnStateIaVertexBufCb = nm_pfnStateIaVertexBufCb;
        core11->pfnStateIaIndexBufCb = nm_pfnStateIaIndexBufCb;
        core11->pfnStateGsConstBufCb = nm_pfnStateGsConstBufCb;
        core11->pfnStateGsShaderCb = nm_pfnStateGsShaderCb;
        core11->pfnStateIaPrimitiveTopologyCb = nm_pfnStateIaPrimitiveTopologyCb;
        core11->pfnStateVsSrvCb = nm_pfnStateVsSrvCb;
        core11->pfnStateVsSamplerCb = nm_pfnStateVsSamplerCb;
        core11->pfnStateGsSrvCb = nm_pfnStateGsSrvCb;
        core11->pfnStateGsSamplerCb = nm_pfnStateGsSamplerCb;
        core11->pfnStateOmRenderTargetsCb = nm_pfnStateOmRenderTargetsCb;
        core11->pfnStateOmBlendStateCb = nm_pfnStateOmBlendStateCb;
        core11->pfnStateOmDepthStateCb = nm_pfnStateOmDepthStateCb;
        core11->pfnStateRsRastStateCb = nm_pfnStateRsRastStateCb;
        core11->pfnStateSoTargetsCb = nm_pfnStateSoTargetsCb;
        core11->pfnStateRsViewportsCb = nm_pfnStateRsViewportsCb;
        core11->pfnStateRsScissorCb = nm_pfnStateRsScissorCb;
        core11->pfnDisableDeferredStagingResourceDestruction = nm_pfnDisableDeferredStagingResourceDestruction;
        core11->pfnStateTextFilterSizeCb = nm_pfnStateTextFilterSizeCb;
        core11->pfnStateHsSrvCb = nm_pfnStateHsSrvCb;
        core11->pfnStateHsShaderCb = nm_pfnStateHsShaderCb;
        core11->pfnStateHsSamplerCb = nm_pfnStateHsSamplerCb;
        core11->pfnStateHsConstBufCb = nm_pfnStateHsConstBufCb;
        core11->pfnStateDsSrvCb = nm_pfnStateDsSrvCb;
        core11->pfnStateDsShaderCb = nm_pfnStateDsShaderCb;
        core11->pfnStateDsSamplerCb = nm_pfnStateDsSamplerCb;
        core11->pfnStateDsConstBufCb = nm_pfnStateDsConstBufCb;
        core11->pfnPerformAmortizedProcessingCb = nm_pfnPerformAmortizedProcessingCb;
        core11->pfnStateCsSrvCb = nm_pfnStateCsSrvCb;
        core11->pfnStateCsUavCb = nm_pfnStateCsUavCb;
        core11->pfnStateCsShaderCb = nm_pfnStateCsShaderCb;
        core11->pfnStateCsSamplerCb = nm_pfnStateCsSamplerCb;
        core11->pfnStateCsConstBufCb = nm_pfnStateCsConstBufCb;
    }
    if (dxgi) {
        dxgi->pfnPresentCb = nm_dxgi_pfnPresentCb;
        dxgi->pfnPresentMultiplaneOverlayCb = nm_pfnPresentMultiplaneOverlayCb;
    }
}
