/* The DXGKRNL_INTERFACE callbacks this kernel does not model (issue 19 §2): ACPI, device space,
 * child devices, VidPN and monitors, power components, display ownership, ETW, IOMMU mapping,
 * protected sessions... A KMD that calls one gets the "not supported" answer of the callback's
 * kind of result (include/wddm/d3dkmddi.h DXGKCB_NOT_MODELED*) and the verifier reports it
 * (Callback.NotModeled, counted as an unsupported feature), so a driver brought up here learns
 * what it leaned on instead of crashing. */
#include "dxgkrnl/dxgkrnl.h"

static void report(const char *name, const char *answer)
{
    dxgk_verifier_report(NULL, name, "Callback.NotModeled", true,
                         "the KMD called a kernel callback this kernel does not model; answered %s", answer);
}

#define STATUS_CB(name)                                             \
    static NTSTATUS APIENTRY name(HANDLE h, ...)                    \
    {                                                               \
        report(#name, "STATUS_NOT_SUPPORTED");                      \
        return STATUS_NOT_SUPPORTED;                                \
    }
#define VOID_CB(name)                                               \
    static VOID APIENTRY name(HANDLE h, ...)                        \
    {                                                               \
        report(#name, "nothing (it returns nothing)");              \
    }
#define PTR_CB(name)                                                \
    static PVOID APIENTRY name(HANDLE h, ...)                       \
    {                                                               \
        report(#name, "NULL");                                      \
        return NULL;                                                \
    }
#define VALUE_CB(name)                                              \
    static UINT64 APIENTRY name(HANDLE h, ...)                      \
    {                                                               \
        report(#name, "0");                                         \
        return 0;                                                   \
    }

STATUS_CB(DxgkCbEvalAcpiMethod)
STATUS_CB(DxgkCbGetDeviceInformation)
STATUS_CB(DxgkCbIndicateChildStatus)
STATUS_CB(DxgkCbMapMemory)
STATUS_CB(DxgkCbQueryServices)
STATUS_CB(DxgkCbReadDeviceSpace)
STATUS_CB(DxgkCbUnmapMemory)
STATUS_CB(DxgkCbWriteDeviceSpace)
STATUS_CB(DxgkCbIsDevicePresent)
VALUE_CB(DxgkCbGetHandleParent)
VALUE_CB(DxgkCbEnumHandleChildren)
STATUS_CB(DxgkCbQueryVidPnInterface)
STATUS_CB(DxgkCbQueryMonitorInterface)
STATUS_CB(DxgkCbGetCaptureAddress)
VOID_CB(DxgkCbLogEtwEvent)
STATUS_CB(DxgkCbExcludeAdapterAccess)
STATUS_CB(DxgkCbSetPowerComponentActive)
VOID_CB(DxgkCbSetPowerComponentIdle)
STATUS_CB(DxgkCbAcquirePostDisplayOwnership)
STATUS_CB(DxgkCbPowerRuntimeControlRequest)
VOID_CB(DxgkCbSetPowerComponentLatency)
VOID_CB(DxgkCbSetPowerComponentResidency)
VOID_CB(DxgkCbCompleteFStateTransition)
VOID_CB(DxgkCbCompletePStateTransition)
VALUE_CB(DxgkCbMapContextAllocation)
STATUS_CB(DxgkCbUpdateContextAllocation)
STATUS_CB(DxgkCbReserveGpuVirtualAddressRange)
PTR_CB(DxgkCbAcquireHandleData)
VOID_CB(DxgkCbReleaseHandleData)
VOID_CB(DxgkCbHardwareContentProtectionTeardown)
VOID_CB(DxgkCbMultiPlaneOverlayDisabled)
STATUS_CB(DxgkCbMitigatedRangeUpdate)
STATUS_CB(DxgkCbInvalidateHwContext)
STATUS_CB(DxgkCbIndicateConnectorChange)
VOID_CB(DxgkCbUnblockUEFIFrameBufferRanges)
STATUS_CB(DxgkCbAcquirePostDisplayOwnership2)
VOID_CB(DxgkCbSetProtectedSessionStatus)
PTR_CB(DxgkCbAllocateContiguousMemory)
STATUS_CB(DxgkCbFreeContiguousMemory)
PTR_CB(DxgkCbAllocatePagesForMdl)
VOID_CB(DxgkCbFreePagesFromMdl)
STATUS_CB(DxgkCbPinFrameBufferForSave)
VOID_CB(DxgkCbUnpinFrameBufferForSave)
STATUS_CB(DxgkCbMapFrameBufferPointer)
STATUS_CB(DxgkCbUnmapFrameBufferPointer)
STATUS_CB(DxgkCbMapMdlToIoMmu)
VOID_CB(DxgkCbUnmapMdlFromIoMmu)
STATUS_CB(DxgkCbReportDiagnostic)
VOID_CB(DxgkCbSignalEvent)

void dxgk_interface_fill_not_modeled(DXGKRNL_INTERFACE *i)
{
#define SET(name) i->name = name
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
    SET(DxgkCbAllocateContiguousMemory);
    SET(DxgkCbFreeContiguousMemory);
    SET(DxgkCbAllocatePagesForMdl);
    SET(DxgkCbFreePagesFromMdl);
    SET(DxgkCbPinFrameBufferForSave);
    SET(DxgkCbUnpinFrameBufferForSave);
    SET(DxgkCbMapFrameBufferPointer);
    SET(DxgkCbUnmapFrameBufferPointer);
    SET(DxgkCbMapMdlToIoMmu);
    SET(DxgkCbUnmapMdlFromIoMmu);
    SET(DxgkCbReportDiagnostic);
    SET(DxgkCbSignalEvent);
#undef SET
}
