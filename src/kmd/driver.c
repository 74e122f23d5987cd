/* The reference KMD's DriverEntry: registers the DDI table with the kernel (DxgkInitialize),
 * as a WDDM miniport does (docs/architecture.md "The UMD and the KMD are replaceable"). */
#include "kmd/kmd.h"

#include <string.h>

void SwKmdGetDriverInitializationData(DRIVER_INITIALIZATION_DATA *d)
{
    memset(d, 0, sizeof(*d));
    /* WDDM 3.1: the oldest interface the kernel offers DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD
     * to (seed 002: "The DDI is available for WDDM 3.1 drivers or newer"); the kernel checks
     * only that it is at least WIN7, and nothing else reads it. */
    d->Version = DXGKDDI_INTERFACE_VERSION_WDDM3_1;
    d->DxgkDdiAddDevice = SwKmdAddDevice;
    d->DxgkDdiStartDevice = SwKmdStartDevice;
    d->DxgkDdiStopDevice = SwKmdStopDevice;
    d->DxgkDdiRemoveDevice = SwKmdRemoveDevice;
    d->DxgkDdiInterruptRoutine = SwKmdInterruptRoutine;
    d->DxgkDdiDpcRoutine = SwKmdDpcRoutine;
    d->DxgkDdiQueryAdapterInfo = SwKmdQueryAdapterInfo;
    d->DxgkDdiCreateDevice = SwKmdCreateDevice;
    d->DxgkDdiCreateAllocation = SwKmdCreateAllocation;
    d->DxgkDdiDestroyAllocation = SwKmdDestroyAllocation;
    d->DxgkDdiPatch = SwKmdPatch;
    d->DxgkDdiSubmitCommand = SwKmdSubmitCommand;
    d->DxgkDdiBuildPagingBuffer = SwKmdBuildPagingBuffer;
    /* Called only when a caps file gives the KMD swizzling ranges (swizzle.c). */
    d->DxgkDdiAcquireSwizzlingRange = SwKmdAcquireSwizzlingRange;
    d->DxgkDdiReleaseSwizzlingRange = SwKmdReleaseSwizzlingRange;
    d->DxgkDdiQueryCurrentFence = SwKmdQueryCurrentFence;
    d->DxgkDdiDestroyDevice = SwKmdDestroyDevice;
    d->DxgkDdiOpenAllocation = SwKmdOpenAllocation;
    d->DxgkDdiCloseAllocation = SwKmdCloseAllocation;
    d->DxgkDdiGetStandardAllocationDriverData = SwKmdGetStandardAllocationDriverData;
    d->DxgkDdiRender = SwKmdRender;
    d->DxgkDdiCreateContext = SwKmdCreateContext;
    d->DxgkDdiDestroyContext = SwKmdDestroyContext;
    d->DxgkDdiSetAllocationBackingStore = SwKmdSetAllocationBackingStore;
    d->DxgkDdiEscape = SwKmdEscape;
    d->DxgkDdiPreemptCommand = SwKmdPreemptCommand;
    d->DxgkDdiResetFromTimeout = SwKmdResetFromTimeout;
    d->DxgkDdiSetPowerState = SwKmdSetPowerState;
    d->DxgkDdiRestartFromTimeout = SwKmdRestartFromTimeout;
    d->DxgkDdiQueryDependentEngineGroup = SwKmdQueryDependentEngineGroup;
    d->DxgkDdiQueryEngineStatus = SwKmdQueryEngineStatus;
    d->DxgkDdiResetEngine = SwKmdResetEngine;
    d->DxgkDdiBeginExclusiveAccess = SwKmdBeginExclusiveAccess;
    d->DxgkDdiEndExclusiveAccess = SwKmdEndExclusiveAccess;
    /* GpuMmu model (issue 6): always registered; they answer STATUS_NOT_SUPPORTED (or do
     * nothing) unless the caps select the model, so one table serves both modes. */
    d->DxgkDdiSetRootPageTable = SwKmdSetRootPageTable;
    d->DxgkDdiGetRootPageTableSize = SwKmdGetRootPageTableSize;
    d->DxgkDdiSubmitCommandVirtual = SwKmdSubmitCommandVirtual;
    d->DxgkDdiCreateProcess = SwKmdCreateProcess;
    d->DxgkDdiDestroyProcess = SwKmdDestroyProcess;
}

NTSTATUS SwKmdDriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA data;
    SwKmdGetDriverInitializationData(&data);
    return DxgkInitialize(DriverObject, RegistryPath, &data);
}
