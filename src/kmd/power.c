/* DxgkDdiSetPowerState (issue 20 §5): the adapter (DISPLAY_ADAPTER_HW_ID) going to D3 for a
 * system standby or hibernation, and back to D0.
 *
 * This GPU's local memory is self-refreshing VRAM: its memory segments are reported
 * PreservedDuringStandby (caps.c), so it keeps its content in standby, unless the KMD's caps
 * say DisableSelfRefreshVRAMInS3 (then standby loses it, as without power); with
 * AlwaysPoweredVRAM it stays powered through standby whatever the self-refresh. Hibernation
 * turns everything off: every memory segment loses its content (none is PreservedDuringHibernate).
 * The aperture is system memory and keeps its pages. The engines lose their registers in D3.
 * VidMm is told by the same flags what to take out of video memory before (vidmm/power.c). */
#include "kmd/kmd.h"

#include "common/debug.h"

NTSTATUS APIENTRY SwKmdSetPowerState(const PVOID MiniportDeviceContext, ULONG DeviceUid,
                                     DEVICE_POWER_STATE DevicePowerState, POWER_ACTION ActionType)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a || !a->gpu) {
        wddm_debug("kmd", "SetPowerState: bad adapter or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    if (DeviceUid != DISPLAY_ADAPTER_HW_ID || DevicePowerState != PowerDeviceD3)
        return STATUS_SUCCESS; /* no child devices; D0 needs nothing restored by the KMD */
    const DXGK_VIDMMCAPS *mm = &a->caps.MemoryManagementCaps;
    bool kept = ActionType == PowerActionSleep && (mm->AlwaysPoweredVRAM || !mm->DisableSelfRefreshVRAMInS3);
    UINT32 lost = 0;
    if (!kept)
        lost = (1u << (SWKMD_SEGMENT_LOCAL - 1)) | (1u << (SWKMD_SEGMENT_VISIBLE - 1));
    swgpu_power_off(a->gpu, lost);
    return STATUS_SUCCESS;
}
