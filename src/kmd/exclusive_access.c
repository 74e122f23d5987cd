/* DxgkDdiBeginExclusiveAccess / DxgkDdiEndExclusiveAccess (IOMMU-based GPU isolation, WDDM 2.4;
 * MicrosoftDocs "IOMMU-based GPU isolation", "Exclusive access"): the kernel is about to switch the
 * device's IOMMU domain, and until the end call the device must not read or write system memory.
 * The kernel suspends its scheduler and calls no other DDI in between; the reference KMD holds it
 * to that: a submission, a preemption or a second begin inside the window is refused with one line
 * (STATUS_INVALID_DEVICE_STATE), so a kernel that breaks the promise is caught. */
#include "kmd/kmd.h"

#include "common/debug.h"

NTSTATUS APIENTRY SwKmdBeginExclusiveAccess(const HANDLE hAdapter, DXGKARG_BEGINEXCLUSIVEACCESS *args)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !args) {
        wddm_debug("kmd", "BeginExclusiveAccess: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (atomic_exchange(&ad->exclusive, 1)) {
        wddm_debug("kmd", "BeginExclusiveAccess: already inside an exclusive access");
        return STATUS_INVALID_DEVICE_STATE;
    }
    /* The software GPU touches system memory only for the DMA buffers it was given, and the
     * kernel gave it none it has not seen complete: silent. */
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdEndExclusiveAccess(const HANDLE hAdapter, DXGKARG_ENDEXCLUSIVEACCESS *args)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !args) {
        wddm_debug("kmd", "EndExclusiveAccess: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (!atomic_exchange(&ad->exclusive, 0)) {
        wddm_debug("kmd", "EndExclusiveAccess: no exclusive access to end");
        return STATUS_INVALID_DEVICE_STATE;
    }
    return STATUS_SUCCESS;
}

bool swkmd_exclusive_refuses(struct swkmd_adapter *ad, const char *ddi)
{
    if (!atomic_load(&ad->exclusive))
        return false;
    wddm_debug("kmd", "%s: called inside the exclusive access of an IOMMU domain switch (the kernel promised no "
               "other DDI call)", ddi);
    return true;
}
