/* DxgkDdiCreateContext / DxgkDdiDestroyContext: a context is a stream of DMA buffers on one
 * node (docs/semantics.md §0). It may fail only for lack of system memory; the KMD supports any
 * number of contexts. */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdatomic.h>
#include <stdlib.h>

struct swkmd_context *swkmd_context_from(HANDLE h)
{
    struct swkmd_context *c = h;
    return (c && c->magic == SWKMD_MAGIC_CONTEXT) ? c : NULL;
}

NTSTATUS APIENTRY SwKmdCreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    struct swkmd_device *d = swkmd_device_from(hDevice);
    if (!d || !args) {
        wddm_debug("kmd", "CreateContext: bad device or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->NodeOrdinal >= SWKMD_NODE_COUNT) {
        wddm_debug("kmd", "CreateContext: NodeOrdinal %u >= NbAsymetricProcessingNodes %u", args->NodeOrdinal,
                   SWKMD_NODE_COUNT);
        return STATUS_INVALID_PARAMETER;
    }
    struct swkmd_context *c = wddm_calloc(1, sizeof(*c));
    if (!c)
        return STATUS_NO_MEMORY;
    c->magic = SWKMD_MAGIC_CONTEXT;
    c->device = d;
    c->kernel_handle = args->hContext;
    c->node = args->NodeOrdinal;
    c->flags = args->Flags;
    static _Atomic UINT64 next_gpu_id; /* process-wide: unique on every adapter too */
    c->gpu_id = atomic_fetch_add(&next_gpu_id, 1) + 1;
    /* A context save area for every non-system context (seed 000): created now, initialised by
     * INIT_CONTEXT_RESOURCE when VidMm first pages it in. */
    if (!args->Flags.SystemContext) {
        NTSTATUS st = swkmd_context_resource_create(d->adapter, d->kernel_handle, args->hContext, &c->save_area);
        if (!NT_SUCCESS(st)) {
            free(c);
            return st;
        }
    }
    /* DMA buffers in system memory (segment set 0), sized so that any UMD command buffer of
     * the same size fits in one (Render only splits when the kernel gives less). */
    args->ContextInfo.DmaBufferSize = SWKMD_DMA_BUFFER_SIZE;
    args->ContextInfo.DmaBufferSegmentSet = 0;
    args->ContextInfo.DmaBufferPrivateDataSize = 0;
    args->ContextInfo.AllocationListSize = SWKMD_ALLOCATION_LIST_SIZE;
    args->ContextInfo.PatchLocationListSize = SWKMD_PATCH_LIST_SIZE;
    args->ContextInfo.Reserved = 0;
    args->ContextInfo.Caps = 0;
    args->ContextInfo.PagingCompanionNodeId = 0;
    args->hContext = c;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdDestroyContext(const HANDLE hContext)
{
    struct swkmd_context *c = swkmd_context_from(hContext);
    if (!c) {
        wddm_debug("kmd", "DestroyContext: not a context handle");
        return STATUS_INVALID_PARAMETER;
    }
    if (c->save_area)
        swkmd_context_resource_destroy(c->device->adapter, c->save_area);
    c->magic = 0;
    free(c);
    return STATUS_SUCCESS;
}
