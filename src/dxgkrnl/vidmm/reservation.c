/* D3DKMTChangeVideoMemoryReservation (docs/semantics.md §9.3: CurrentReservation /
 * AvailableForReservation back the app-reserved minimum; IDXGIAdapter3::SetVideoMemoryReservation
 * reaches the kernel by this WDK entry point).
 *
 * The process asks VidMm to keep at least Reservation bytes of a segment group (LOCAL = the
 * memory segments, NON_LOCAL = the aperture, as D3DKMTQueryVideoMemoryInfo groups them) for it.
 *   - What may be reserved (AvailableForReservation): half of the group's Budget (the bytes VidMm
 *     may place there), as Windows offers about half of a group for reservation; a request above
 *     it is refused with STATUS_INVALID_PARAMETER and nothing changes. 0 clears the reservation.
 *   - It is kept per adapter object (one process: the process's adapter state), for both groups
 *     independently, until it is changed or the adapter object goes away with its last handle.
 *     D3DKMTQueryVideoMemoryInfo reports it as CurrentReservation.
 *   - Effect: Windows uses the reservation so that the process is not trimmed below it when
 *     *other* processes need memory: its budget never goes below it. Here the other processes
 *     are a test control (vidmm/process_budget.c, wddm_vidmm_set_external_usage), and the
 *     budget it lowers stops at the reservation. VidMm itself only evicts this process's own
 *     allocations to place this process's own allocations.
 *   - hProcess: NULL or NtCurrentProcess() (the one process); another is STATUS_INVALID_HANDLE.
 *     PhysicalAdapterIndex: only 0 (no linked adapters). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/timeline.h"

UINT64 vidmm_reservable_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    WDDM_ASSERT_HELD(&a->lock);
    return vidmm_group_budget_locked(a, g) / 2;
}

UINT64 vidmm_reservation_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    WDDM_ASSERT_HELD(&a->lock);
    return a->reservation[g == D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL ? 1 : 0];
}

NTSTATUS vidmm_check_process_handle(const char *who, HANDLE hProcess)
{
    /* Wine win32u d3dkmt tests (run on Windows): D3DKMTQueryVideoMemoryInfo answers the current
     * process's pseudo handle, and STATUS_INVALID_HANDLE for a handle that is no process. */
    if (hProcess && hProcess != NtCurrentProcess()) {
        dxgk_refuse("%s: hProcess %p is not a process handle (NULL or the current process's pseudo handle)", who,
                    hProcess);
        return STATUS_INVALID_HANDLE;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTChangeVideoMemoryReservation(const D3DKMT_CHANGEVIDEOMEMORYRESERVATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTChangeVideoMemoryReservation: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS pst = vidmm_check_process_handle("D3DKMTChangeVideoMemoryReservation", args->hProcess);
    if (!NT_SUCCESS(pst))
        return pst;
    if (args->MemorySegmentGroup != D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL &&
        args->MemorySegmentGroup != D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL) {
        dxgk_refuse("D3DKMTChangeVideoMemoryReservation: MemorySegmentGroup %d is neither LOCAL nor NON_LOCAL",
                    (int)args->MemorySegmentGroup);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->PhysicalAdapterIndex != 0) {
        dxgk_refuse("D3DKMTChangeVideoMemoryReservation: PhysicalAdapterIndex %u (no linked adapters)",
                    args->PhysicalAdapterIndex);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTChangeVideoMemoryReservation: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    pthread_mutex_lock(&a->lock);
    UINT64 avail = vidmm_reservable_locked(a, args->MemorySegmentGroup);
    if (args->Reservation > avail)
        st = STATUS_INVALID_PARAMETER;
    else {
        bool non_local = args->MemorySegmentGroup == D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL;
        a->reservation[non_local ? 1 : 0] = args->Reservation;
        wddm_tl(WDDM_TL_RESERVATION, WDDM_TL_VIDMM(dxgk_timeline_adapter(a)), args->Reservation, non_local);
    }
    pthread_mutex_unlock(&a->lock);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTChangeVideoMemoryReservation: Reservation %llu bytes is above AvailableForReservation "
                    "%llu (half of the group's budget): nothing changed",
                    (unsigned long long)args->Reservation, (unsigned long long)avail);
    dxgk_adapter_put(a);
    return st;
}
