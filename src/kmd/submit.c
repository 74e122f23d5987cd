/* DxgkDdiSubmitCommand: puts a patched DMA buffer in the ring of its node's engine
 * (docs/semantics.md §8.1 step 4). Runs at "DISPATCH_LEVEL" and must not fail: problems are
 * logged and the buffer degrades to an empty one that still completes its fence, so the
 * scheduler's fence accounting stays whole. Each buffer carries its context's save record
 * (context_resource.c) so the GPU can preempt it in the middle (preempt.c). */
#include "kmd/kmd.h"

#include "common/debug.h"

NTSTATUS APIENTRY SwKmdSubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !a || !ad->gpu) {
        wddm_debug("kmd", "SubmitCommand: bad adapter, NULL arguments or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    if (swkmd_exclusive_refuses(ad, "SubmitCommand"))
        return STATUS_INVALID_DEVICE_STATE;
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
    if (!a->Flags.Paging && !a->Flags.ContextSwitch)
        (void)swkmd_context_resources_mapped(a->hContext);
    /* NullRendering: signal the fence without executing (docs/semantics.md §8.1); ContextSwitch: a
     * zero-length buffer that only switches the engine to the null context (docs/semantics.md
     * §1.2 invariant 3), saving the loaded context's registers into its save area. */
    if (a->Flags.NullRendering || a->Flags.ContextSwitch)
        end = start;
    /* The context's save area travels with each of its buffers so that the GPU can stop one in
     * the middle and resume it when it is resubmitted (issue 4; Resubmission: WDDM2's flag for
     * a packet re-sent after preemption, docs/semantics.md §8.1), and switch to its registers when
     * another context is loaded (issue 20 §1). Paging buffers run for the system context: none. */
    struct swgpu_submission s = {.dma = dma, .start = start, .end = end, .fence_id = a->SubmissionFenceId,
                                 .paging = a->Flags.Paging && !a->Flags.ContextSwitch,
                                 .resubmission = a->Flags.Resubmission,
                                 .switch_to_null = a->Flags.ContextSwitch};
    if (!s.paging && !s.switch_to_null)
        swkmd_context_describe(a->hContext, &s);
    /* Recorded before the ring sees it: ResetFromTimeout completes up to this fence. */
    atomic_store_explicit(&ad->submitted_fence[node], a->SubmissionFenceId, memory_order_relaxed);
    swgpu_submit2(ad->gpu, node, &s);
    return STATUS_SUCCESS;
}

/* DxgkDdiSubmitCommandVirtual (GpuMmu model, issue 6, common.md): the DMA buffer is at
 * DmaBufferVirtualAddress in the context's address space; the engine fetches it through its
 * MMU with the root DxgkDdiSetRootPageTable installed. No Patch, no allocation list. A context
 * without a root is refused (the GPU would have no address space to run it in). In the IoMmu
 * model the address space is the process's, named by its device's PASID; the IOMMU translates. */
NTSTATUS APIENTRY SwKmdSubmitCommandVirtual(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDVIRTUAL *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !a || !ad->gpu) {
        wddm_debug("kmd", "SubmitCommandVirtual: bad adapter, NULL arguments or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    if (swkmd_exclusive_refuses(ad, "SubmitCommandVirtual"))
        return STATUS_INVALID_DEVICE_STATE;
    if (!ad->gpummu && !ad->iommu) {
        wddm_debug("kmd", "SubmitCommandVirtual: the caps select neither the GpuMmu nor the IoMmu model");
        return STATUS_NOT_SUPPORTED;
    }
    struct swkmd_context *c = swkmd_context_from(a->hContext);
    if (!c) {
        wddm_debug("kmd", "SubmitCommandVirtual: hContext is not a context of this KMD");
        return STATUS_INVALID_PARAMETER;
    }
    UINT32 node = a->NodeOrdinal;
    if (node >= SWKMD_NODE_COUNT || node != c->node) {
        wddm_debug("kmd", "SubmitCommandVirtual: NodeOrdinal %u is not the context's node %u", node, c->node);
        return STATUS_INVALID_PARAMETER;
    }
    if (a->Flags.Paging) {
        wddm_debug("kmd", "SubmitCommandVirtual: paging buffers run in physical mode (DxgkDdiSubmitCommand)");
        return STATUS_INVALID_PARAMETER;
    }
    UINT64 root = atomic_load_explicit(&c->root_page_table, memory_order_acquire);
    UINT32 entries = atomic_load_explicit(&c->root_entries, memory_order_relaxed);
    ULONG pasid = ad->iommu ? c->device->pasid : 0;
    if (ad->iommu && !pasid) {
        wddm_debug("kmd", "SubmitCommandVirtual: IoMmu model, the device has no PASID (DXGKARG_CREATEDEVICE.Pasid)");
        return STATUS_INVALID_PARAMETER;
    }
    if (!root && !pasid) {
        wddm_debug("kmd", "SubmitCommandVirtual: context has no root page table (DxgkDdiSetRootPageTable first)");
        return STATUS_INVALID_PARAMETER;
    }
    /* Seed 000: the kernel made the context's context allocations resident first. */
    (void)swkmd_context_resources_mapped(a->hContext);
    struct swgpu_submission s = {.start = 0,
                                 .end = a->Flags.NullRendering ? 0 : a->DmaBufferSize,
                                 .fence_id = a->SubmissionFenceId,
                                 .resubmission = a->Flags.Resubmission,
                                 .root_page_table = root,
                                 .root_entries = entries,
                                 .dma_va = a->DmaBufferVirtualAddress,
                                 .pasid = pasid};
    swkmd_context_describe(a->hContext, &s);
    atomic_store_explicit(&ad->submitted_fence[node], a->SubmissionFenceId, memory_order_relaxed);
    swgpu_submit2(ad->gpu, node, &s);
    return STATUS_SUCCESS;
}
