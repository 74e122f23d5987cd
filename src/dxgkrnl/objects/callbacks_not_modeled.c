/* The DXGKRNL_INTERFACE callbacks this kernel does not model (issue 19 §2): ACPI, device space,
 * child devices, VidPN and monitors, power components, display ownership, ETW,
 * protected sessions... Each is a function of the callback's WDK type (include/wddm/
 * d3dkmddi_unmodeled.h), so the interface table is filled without a cast and a KMD's call is
 * checked against the real parameters. A KMD that calls one gets the "not supported" answer of the
 * callback's kind of result (STATUS_NOT_SUPPORTED, NULL, 0, or nothing) and the verifier reports
 * it (Callback.NotModeled, counted as an unsupported feature), so a driver brought up here learns
 * what it leaned on instead of crashing. The parameters are never read. */
#include "dxgkrnl/objects/objects.h"

static void report(const char *name, const char *answer)
{
    dxgk_verifier_report(NULL, name, "Callback.NotModeled", true,
                         "the KMD called a kernel callback this kernel does not model; answered %s", answer);
}

/* One stub per callback, with the callback's prototype; the name is the DXGKRNL_INTERFACE member. */
#define NOT_MODELED_STATUS(cb, ...)                                                                \
    static NTSTATUS APIENTRY nm_##cb(__VA_ARGS__)                                                  \
    {                                                                                              \
        report(#cb, "STATUS_NOT_SUPPORTED");                                                       \
        return STATUS_NOT_SUPPORTED;                                                               \
    }
#define NOT_MODELED_VOID(cb, ...)                                                                  \
    static VOID APIENTRY nm_##cb(__VA_ARGS__) { report(#cb, "nothing (it returns nothing)"); }
#define NOT_MODELED_NULL(cb, ...)                                                                  \
    static PVOID APIENTRY nm_##cb(__VA_ARGS__)                                                     \
    {                                                                                              \
        report(#cb, "NULL");                                                                       \
        return NULL;                                                                               \
    }
#define NOT_MODELED_ZERO(type, cb, ...)                                                            \
    static type APIENTRY nm_##cb(__VA_ARGS__)                                                      \
    {                                                                                              \
        report(#cb, "0");                                                                          \
        return 0;                                                                                  \
    }

NOT_MODELED_STATUS(DxgkCbEvalAcpiMethod, HANDLE DeviceHandle, ULONG DeviceUid, ACPI_EVAL_INPUT_BUFFER_COMPLEX *AcpiInputBuffer, ULONG AcpiInputSize, ACPI_EVAL_OUTPUT_BUFFER *AcpiOutputBuffer, ULONG AcpiOutputSize)
NOT_MODELED_STATUS(DxgkCbGetDeviceInformation, HANDLE DeviceHandle, DXGK_DEVICE_INFO *DeviceInfo)
NOT_MODELED_STATUS(DxgkCbIndicateChildStatus, HANDLE DeviceHandle, DXGK_CHILD_STATUS *ChildStatus)
NOT_MODELED_STATUS(DxgkCbMapMemory, HANDLE DeviceHandle, PHYSICAL_ADDRESS TranslatedAddress, ULONG Length, BOOLEAN InIoSpace, BOOLEAN MapToUserMode, MEMORY_CACHING_TYPE CacheType, PVOID *VirtualAddress)
NOT_MODELED_STATUS(DxgkCbQueryServices, HANDLE DeviceHandle, DXGK_SERVICES ServicesType, INTERFACE *Interface)
NOT_MODELED_STATUS(DxgkCbReadDeviceSpace, HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, ULONG *BytesRead)
NOT_MODELED_STATUS(DxgkCbUnmapMemory, HANDLE DeviceHandle, PVOID VirtualAddress)
NOT_MODELED_STATUS(DxgkCbWriteDeviceSpace, HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, ULONG *BytesWritten)
NOT_MODELED_STATUS(DxgkCbIsDevicePresent, HANDLE DeviceHandle, PCI_DEVICE_PRESENCE_PARAMETERS *DevicePresenceParameters, BOOLEAN *DevicePresent)
NOT_MODELED_ZERO(D3DKMT_HANDLE, DxgkCbGetHandleParent, D3DKMT_HANDLE hAllocation)
NOT_MODELED_ZERO(D3DKMT_HANDLE, DxgkCbEnumHandleChildren, const DXGKARGCB_ENUMHANDLECHILDREN *pData)
NOT_MODELED_STATUS(DxgkCbQueryVidPnInterface, const D3DKMDT_HVIDPN hVidPn, const DXGK_VIDPN_INTERFACE_VERSION VidPnInterfaceVersion, const DXGK_VIDPN_INTERFACE **ppVidPnInterface)
NOT_MODELED_STATUS(DxgkCbQueryMonitorInterface, const HANDLE hAdapter, const DXGK_MONITOR_INTERFACE_VERSION MonitorInterfaceVersion, const DXGK_MONITOR_INTERFACE **ppMonitorInterface)
NOT_MODELED_STATUS(DxgkCbGetCaptureAddress, DXGKARGCB_GETCAPTUREADDRESS *pData)
NOT_MODELED_VOID(DxgkCbLogEtwEvent, const LPCGUID EventGuid, UCHAR Type, USHORT EventBufferSize, PVOID EventBuffer)
NOT_MODELED_STATUS(DxgkCbExcludeAdapterAccess, HANDLE DeviceHandle, ULONG Attributes, PDXGKDDI_PROTECTED_CALLBACK DxgkProtectedCallback, PVOID ProtectedCallbackContext)
NOT_MODELED_VOID(DxgkCbSetPowerComponentActive, const HANDLE hAdapter, UINT ComponentIndex)
NOT_MODELED_VOID(DxgkCbSetPowerComponentIdle, const HANDLE hAdapter, UINT ComponentIndex)
NOT_MODELED_STATUS(DxgkCbAcquirePostDisplayOwnership, HANDLE DeviceHandle, DXGK_DISPLAY_INFORMATION *DisplayInfo)
NOT_MODELED_STATUS(DxgkCbPowerRuntimeControlRequest, const HANDLE hAdapter, LPCGUID PowerControlCode, PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer, SIZE_T OutBufferSize, SIZE_T *BytesReturned)
NOT_MODELED_VOID(DxgkCbSetPowerComponentLatency, const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Latency)
NOT_MODELED_VOID(DxgkCbSetPowerComponentResidency, const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Residency)
NOT_MODELED_VOID(DxgkCbCompleteFStateTransition, const HANDLE hAdapter, UINT ComponentIndex)
NOT_MODELED_VOID(DxgkCbCompletePStateTransition, const HANDLE hAdapter, UINT ComponentIndex, UINT CompletedPState)
NOT_MODELED_ZERO(D3DGPU_VIRTUAL_ADDRESS, DxgkCbMapContextAllocation, const HANDLE hAdapter, const DXGKARGCB_MAPCONTEXTALLOCATION *pArgs)
NOT_MODELED_STATUS(DxgkCbUpdateContextAllocation, const HANDLE hAdapter, const DXGKARGCB_UPDATECONTEXTALLOCATION *pArgs)
NOT_MODELED_STATUS(DxgkCbReserveGpuVirtualAddressRange, const HANDLE hAdapter, DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE *pArgs)
NOT_MODELED_NULL(DxgkCbAcquireHandleData, const DXGKARGCB_GETHANDLEDATA *pData, DXGKARGCB_RELEASEHANDLEDATA *pReleaseHandleData)
NOT_MODELED_VOID(DxgkCbReleaseHandleData, DXGKARGCB_RELEASEHANDLEDATA ReleaseHandleData)
NOT_MODELED_VOID(DxgkCbHardwareContentProtectionTeardown, const HANDLE hAdapter, UINT Flags)
NOT_MODELED_VOID(DxgkCbMultiPlaneOverlayDisabled, const HANDLE hAdapter, const UINT VidPnSourceId)
NOT_MODELED_STATUS(DxgkCbMitigatedRangeUpdate, const HANDLE hAdapter, ULONG VirtualFunctionIndex)
NOT_MODELED_STATUS(DxgkCbInvalidateHwContext, const DXGKARGCB_INVALIDATEHWCONTEXT *pArgs)
NOT_MODELED_STATUS(DxgkCbIndicateConnectorChange, const HANDLE hAdapter)
NOT_MODELED_VOID(DxgkCbUnblockUEFIFrameBufferRanges, const HANDLE hAdapter, const DXGKARGCB_UNBLOCKUEFIFRAMEBUFFERRANGES *pArgs)
NOT_MODELED_STATUS(DxgkCbAcquirePostDisplayOwnership2, HANDLE DeviceHandle, DXGK_DISPLAY_INFORMATION *DisplayInfo, DXGK_DISPLAY_OWNERSHIP_FLAGS *Flags)
NOT_MODELED_STATUS(DxgkCbSetProtectedSessionStatus, const DXGKARGCB_PROTECTEDSESSIONSTATUS *pProtectedSessionStatus)
NOT_MODELED_STATUS(DxgkCbReportDiagnostic, HANDLE DeviceHandle, DXGK_DIAGNOSTIC_HEADER *pDiagnostic)
NOT_MODELED_STATUS(DxgkCbSignalEvent, const DXGKARGCB_SIGNALEVENT *pArgs)

void dxgk_interface_fill_not_modeled(DXGKRNL_INTERFACE *i)
{
#define SET(cb) i->cb = nm_##cb
    SET(DxgkCbEvalAcpiMethod);
    SET(DxgkCbGetDeviceInformation);
    SET(DxgkCbIndicateChildStatus);
    SET(DxgkCbMapMemory);
    SET(DxgkCbQueryServices);
    SET(DxgkCbReadDeviceSpace);
    SET(DxgkCbUnmapMemory);
    SET(DxgkCbWriteDeviceSpace);
    SET(DxgkCbIsDevicePresent);
    SET(DxgkCbGetHandleParent);
    SET(DxgkCbEnumHandleChildren);
    SET(DxgkCbQueryVidPnInterface);
    SET(DxgkCbQueryMonitorInterface);
    SET(DxgkCbGetCaptureAddress);
    SET(DxgkCbLogEtwEvent);
    SET(DxgkCbExcludeAdapterAccess);
    SET(DxgkCbSetPowerComponentActive);
    SET(DxgkCbSetPowerComponentIdle);
    SET(DxgkCbAcquirePostDisplayOwnership);
    SET(DxgkCbPowerRuntimeControlRequest);
    SET(DxgkCbSetPowerComponentLatency);
    SET(DxgkCbSetPowerComponentResidency);
    SET(DxgkCbCompleteFStateTransition);
    SET(DxgkCbCompletePStateTransition);
    SET(DxgkCbMapContextAllocation);
    SET(DxgkCbUpdateContextAllocation);
    SET(DxgkCbReserveGpuVirtualAddressRange);
    SET(DxgkCbAcquireHandleData);
    SET(DxgkCbReleaseHandleData);
    SET(DxgkCbHardwareContentProtectionTeardown);
    SET(DxgkCbMultiPlaneOverlayDisabled);
    SET(DxgkCbMitigatedRangeUpdate);
    SET(DxgkCbInvalidateHwContext);
    SET(DxgkCbIndicateConnectorChange);
    SET(DxgkCbUnblockUEFIFrameBufferRanges);
    SET(DxgkCbAcquirePostDisplayOwnership2);
    SET(DxgkCbSetProtectedSessionStatus);
    SET(DxgkCbReportDiagnostic);
    SET(DxgkCbSignalEvent);
#undef SET
}
