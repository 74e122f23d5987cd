/* DxgkDdiSubmitCommand: puts a patched DMA buffer in the ring of its node's engine
 * (wddm-semantics §8.1 step 4). Runs at "DISPATCH_LEVEL" and must not fail: problems are
 * logged and the buffer degrades to an empty one that still completes its fence, so the
 * scheduler's fence accounting stays whole. */
#include "kmd/kmd.h"

#include "common/debug.h"

NTSTATUS APIENTRY SwKmdSubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !a || !ad->gpu) {
        wddm_debug("kmd", "SubmitCommand: bad adapter, NULL arguments or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    UINT32 node = a->NodeOrdinal;
    if (node >= SWKMD_NODE_COUNT) {
        wddm_debug("kmd", "SubmitCommand: NodeOrdinal %u >= %u", node, SWKMD_NODE_COUNT);
        return STATUS_INVALID_PARAMETER;
    }
    /* DMA and paging buffers are in system memory (DmaBufferSegmentSet 0, PagingBufferSegmentId
     * 0): the "physical" address is the host address (architecture.md). */
    const void *dma = (const void *)(uintptr_t)a->DmaBufferPhysicalAddress.QuadPart;
    UINT32 start = a->DmaBufferSubmissionStartOffset;
    UINT32 end = a->DmaBufferSubmissionEndOffset;
    if (end < start || a->DmaBufferSegmentId != 0 || (!dma && end > start)) {
        wddm_debug("kmd", "SubmitCommand: DMA buffer (segment %u, [%u, %u)) not in system memory; fence %u completes empty",
                   a->DmaBufferSegmentId, start, end, a->SubmissionFenceId);
        end = start;
    }
    /* Seed 000: the kernel made the context's context allocations resident first. */
    if (!a->Flags.Paging)
        (void)swkmd_context_resources_mapped(a->hContext);
    /* NullRendering: signal the fence without executing (wddm-semantics §8.1). */
    if (a->Flags.NullRendering)
        end = start;
    swgpu_submit(ad->gpu, node, dma, start, end, a->SubmissionFenceId, a->Flags.Paging);
    return STATUS_SUCCESS;
}
