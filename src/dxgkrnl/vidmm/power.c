/* Video memory across a system power transition (issue 20 §5; DXGK_SEGMENTFLAGS "Optimized
 * standby settings", the WDK's "Standby hibernate optimizations", DXGK_VIDMMCAPS).
 *
 * Before the adapter goes to D3 for a standby or a hibernation, VidMm takes out of every memory
 * segment that will not keep its content everything resident there, by ordinary evictions
 * (vidmm/evict.c: the content goes to the backing store, the next use brings it back):
 *   standby   - a segment keeps its content if it is PreservedDuringStandby (self-refreshing
 *               VRAM) and the KMD did not set DisableSelfRefreshVRAMInS3, or if the KMD set
 *               AlwaysPoweredVRAM (its VRAM stays powered through standby);
 *   hibernate - only a PreservedDuringHibernate segment keeps it (the power is off; a
 *               PartiallyPreservedDuringHibernate segment is purged whole: QUERYSEGMENT's
 *               descriptor has no SystemMemoryEndAddress);
 *   aperture segments are system memory and always keep it.
 * Kept where they are: an allocation the CPU holds locked (its pointer stays valid; the model's
 * choice, its content is then lost with the segment) and a destroyed one waiting to be freed. */
#include "dxgkrnl/dxgkrnl.h"

static bool segment_survives(const DXGK_VIDMMCAPS *mm, DXGK_SEGMENTFLAGS f, bool standby)
{
    if (f.Aperture)
        return true;
    if (standby)
        return mm->AlwaysPoweredVRAM || (f.PreservedDuringStandby && !mm->DisableSelfRefreshVRAMInS3);
    return f.PreservedDuringHibernate;
}

/* The memory segments that lose their content in the transition (bit id-1). */
static UINT segments_to_purge(const struct dxgk_adapter *a, bool standby)
{
    UINT mask = 0;
    for (UINT id = 1; id <= a->segment_count; id++)
        if (!segment_survives(&a->caps.MemoryManagementCaps, a->seg[id - 1].desc.Flags, standby))
            mask |= 1u << (id - 1);
    return mask;
}

NTSTATUS wddm_test_system_power_cycle(UINT hAdapter, UINT system_state)
{
    if (system_state != WDDM_SYSTEM_STANDBY && system_state != WDDM_SYSTEM_HIBERNATE) {
        dxgk_refuse("wddm_test_system_power_cycle: state %u is neither WDDM_SYSTEM_STANDBY nor WDDM_SYSTEM_HIBERNATE",
                    system_state);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(hAdapter);
    if (!a) {
        dxgk_refuse("wddm_test_system_power_cycle: invalid adapter handle 0x%08x", hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    DXGKDDI_SETPOWERSTATE set_power = a->driver.ddi.DxgkDdiSetPowerState;
    bool standby = system_state == WDDM_SYSTEM_STANDBY;
    UINT purge = segments_to_purge(a, standby);
    /* GpuMmu: VidMm's page tables live in local memory and are not saved yet: only a transition
     * that keeps every memory segment is possible. */
    if (!set_power || (a->mmu && purge)) {
        dxgk_refuse("wddm_test_system_power_cycle: %s", !set_power ? "the KMD has no DxgkDdiSetPowerState"
                                                                     : "the GpuMmu model's page tables would be lost "
                                                                       "(they are not saved across power transitions yet)");
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    for (UINT i = 0; i < a->node_count; i++)
        gsched_wait_node_idle(&a->node[i]);
    gsched_unload_every_node(a); /* the engines lose their registers in D3 */
    /* Pinned allocations too: their content would go with the power (they come back when used). */
    (void)vidmm_clear_segments(a, purge, false, vidmm_evict_instance_locked);
    st = set_power(a->miniport, DISPLAY_ADAPTER_HW_ID, PowerDeviceD3, standby ? PowerActionSleep : PowerActionHibernate);
    if (!NT_SUCCESS(st))
        dxgk_refuse("verifier: DxgkDdiSetPowerState(D3) failed 0x%08x", (unsigned)st);
    NTSTATUS st0 = set_power(a->miniport, DISPLAY_ADAPTER_HW_ID, PowerDeviceD0, PowerActionNone);
    if (!NT_SUCCESS(st0))
        dxgk_refuse("verifier: DxgkDdiSetPowerState(D0) failed 0x%08x", (unsigned)st0);
    for (UINT i = 0; i < a->node_count; i++) { /* the engines woke up in the null context */
        pthread_mutex_lock(&a->node[i].submit_lock);
        gsched_switch_forget_locked(&a->node[i]);
        pthread_mutex_unlock(&a->node[i].submit_lock);
    }
    if (NT_SUCCESS(st))
        st = st0;
out:
    dxgk_adapter_put(a);
    return st;
}
