/* Video memory across a system power transition (issue 20 §5; DXGK_SEGMENTFLAGS "Optimized
 * standby settings", the WDK's "Standby hibernate optimizations", DXGK_VIDMMCAPS).
 *
 * Before the adapter goes to D3 for a standby or a hibernation, VidMm takes out of every memory
 * segment that will not keep its content everything resident there, by evictions that take
 * what D3DKMTMakeResident pinned too (vidmm/evict.c, VIDMM_EVICT_PINNED_TOO: the content goes
 * to the backing store, the next use brings it back):
 *   standby   - a segment keeps its content if it is PreservedDuringStandby (self-refreshing
 *               VRAM) and the KMD did not set DisableSelfRefreshVRAMInS3, or if the KMD set
 *               AlwaysPoweredVRAM (its VRAM stays powered through standby);
 *   hibernate - only a PreservedDuringHibernate segment keeps it (the power is off; a
 *               PartiallyPreservedDuringHibernate segment is purged whole: QUERYSEGMENT's
 *               descriptor has no SystemMemoryEndAddress);
 *   aperture segments are system memory and always keep it.
 * Kept where they are: an allocation the CPU holds locked (its pointer stays valid; the model's
 * choice, its content is then lost with the segment), unless through a UseAlternateVA lock that
 * lets VidMm move it (a SPECIAL_LOCK_TRANSFER then saves it, vidmm/evict.c), and a destroyed one
 * waiting to be freed.
 *
 * The GpuMmu model: VidMm's page tables are pinned ranges of a memory segment, so a transition
 * that loses it loses them. After D0 VidMm writes every table again (vidmm/vaspace.c) and puts
 * back, with their content, the allocations a device made resident (D3DKMTMakeResident: the
 * GPU reaches them without an allocation list, so nothing else would bring them back). */
#include "dxgkrnl/vidmm/vidmm.h"

#include <stdlib.h>

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

/* An eviction of a pinned allocation too (D3DKMTMakeResident): its content would otherwise go
 * with the power. The GPU is idle and the caller places the pinned ones back (at their next use,
 * or at once in the GpuMmu model: gpummu_restore). */
static NTSTATUS power_evict_locked(struct dxgk_adapter *a, struct vidmm_instance *in, struct vidmm_paging_batch *b)
{
    WDDM_ASSERT_HELD(&a->lock);
    return vidmm_evict_instance_locked(a, in, b, VIDMM_EVICT_PINNED_TOO);
}

/* After D0 in the GpuMmu model: the pinned allocations placed again, every page table
 * rewritten, in one paging batch the caller's next work waits for. */
static NTSTATUS gpummu_restore(struct dxgk_adapter *a)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    size_t count = dxgk_handle_collect(DXGK_TYPE_ALLOCATION, &objs, &hs);
    NTSTATUS st = STATUS_SUCCESS;
    pthread_mutex_lock(&a->lock);
    struct vidmm_paging_batch batch;
    vidmm_batch_init(&batch, a);
    for (size_t i = 0; i < count && NT_SUCCESS(st); i++) {
        struct dxgk_allocation *al = (struct dxgk_allocation *)objs[i];
        if (al->device->adapter == a && !al->dead && al->resident_refs && !al->current->segment_id)
            st = vidmm_make_resident_locked(a, al->current, &batch, true);
    }
    if (NT_SUCCESS(st))
        st = vidmm_va_rewrite_tables_locked(a, &batch);
    vidmm_paging_flush_locked(&batch);
    UINT64 fence = batch.fence;
    pthread_mutex_unlock(&a->lock);
    if (fence)
        gsched_wait_fence(&a->node[a->paging_node], fence);
    for (size_t i = 0; i < count; i++)
        dxgk_object_put(objs[i]);
    free(objs);
    free(hs);
    if (!NT_SUCCESS(st))
        dxgk_refuse("wddm_test_system_power_cycle: the GpuMmu page tables or a resident allocation could not be "
                    "restored: 0x%08x", (unsigned)st);
    return st;
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
    PDXGKDDI_SETPOWERSTATE set_power = a->driver.ddi.DxgkDdiSetPowerState;
    bool standby = system_state == WDDM_SYSTEM_STANDBY;
    UINT purge = segments_to_purge(a, standby);
    if (!set_power) {
        dxgk_refuse("wddm_test_system_power_cycle: the KMD has no DxgkDdiSetPowerState");
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    gsched_unload_every_node(a); /* the engines lose their registers in D3 */
    /* Pinned allocations too (power_evict_locked): their content would go with the power. They
     * come back on their next use, or at once in the GpuMmu model (gpummu_restore). */
    (void)vidmm_clear_segments(a, purge, false, power_evict_locked);
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
    if (NT_SUCCESS(st) && a->mmu && purge)
        st = gpummu_restore(a);
out:
    dxgk_adapter_put(a);
    return st;
}
