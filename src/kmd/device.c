/* DxgkDdiCreateDevice / DxgkDdiDestroyDevice: a device owns nothing on this GPU but its
 * contexts (docs/semantics.md §0). */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdlib.h>

struct swkmd_device *swkmd_device_from(HANDLE h)
{
    struct swkmd_device *d = h;
    return (d && d->magic == SWKMD_MAGIC_DEVICE) ? d : NULL;
}

NTSTATUS APIENTRY SwKmdCreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *args)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !args) {
        wddm_debug("kmd", "CreateDevice: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct swkmd_device *d = wddm_calloc(1, sizeof(*d));
    if (!d)
        return STATUS_NO_MEMORY;
    d->magic = SWKMD_MAGIC_DEVICE;
    d->adapter = a;
    d->kernel_handle = args->hDevice;
    d->flags = args->Flags;
    d->pasid = args->Pasid;
    /* Page-table storage for every non-system device (seed 000): a device context allocation. */
    if (!args->Flags.SystemDevice) {
        NTSTATUS st = swkmd_context_resource_create(a, args->hDevice, NULL, &d->page_tables);
        if (!NT_SUCCESS(st)) {
            free(d);
            return st;
        }
    }
    if (args->pInfo) {
        /* The same limits every context reports (CreateContext). */
        args->pInfo->DmaBufferSize = SWKMD_DMA_BUFFER_SIZE;
        args->pInfo->DmaBufferSegmentSet = 0;
        args->pInfo->DmaBufferPrivateDataSize = 0;
        args->pInfo->AllocationListSize = SWKMD_ALLOCATION_LIST_SIZE;
        args->pInfo->PatchLocationListSize = SWKMD_PATCH_LIST_SIZE;
        args->pInfo->Flags = 0;
    }
    args->hDevice = d;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdDestroyDevice(const HANDLE hDevice)
{
    struct swkmd_device *d = swkmd_device_from(hDevice);
    if (!d) {
        wddm_debug("kmd", "DestroyDevice: not a device handle");
        return STATUS_INVALID_PARAMETER;
    }
    if (d->page_tables)
        swkmd_context_resource_destroy(d->adapter, d->page_tables);
    d->magic = 0;
    free(d);
    return STATUS_SUCCESS;
}
