/* DxgkDdiInterruptRoutine, DxgkDdiDpcRoutine, DxgkDdiQueryCurrentFence (docs/semantics.md §8.2).
 *
 * The ISR reads each engine's last-completed-fence register and reports every advance with
 * DXGK_INTERRUPT_DMA_COMPLETED (completion is cumulative per node: fence F means every buffer
 * with fence <= F is done), then queues the DPC. GPU faults are reported by the hardware as
 * completed buffers plus a fault record; the KMD logs them (DMA_FAULTED is reserved for the
 * system, §8.2). A fault of a buffer that ran in a GPU virtual address space (GpuMmu, issue 6)
 * is also reported as DXGK_INTERRUPT_DMA_PAGE_FAULTED, before the DMA_COMPLETED of its fence. Preemption answers (preempt.c) are reported as DXGK_INTERRUPT_DMA_PREEMPTED,
 * after the node's DMA_COMPLETED. */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <string.h>

/* Preemption answers reported per batch (the register is read again before each batch). */
#define SWKMD_PREEMPTIONS_PER_ISR 8u

/* DXGK_INTERRUPT_DMA_PAGE_FAULTED for one fault of a VA-mode buffer (docs/semantics.md §8.4):
 * FENCE_INVALID clear, the faulting buffer's fence is known. A translation fault carries its
 * VA, direction and level (DXGK_GENERAL_ERROR_PAGE_FAULT); a malformed or privileged command
 * is not an address fault: VA 0 and DXGK_GENERAL_ERROR_INVALID_INSTRUCTION. */
static void notify_page_fault(struct swkmd_adapter *a, UINT32 node, const struct swgpu_fault *f)
{
    int address_fault = f->kind != SWGPU_PF_NONE && f->kind != SWGPU_PF_PRIVILEGED;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n;
    memset(&n, 0, sizeof n);
    n.InterruptType = DXGK_INTERRUPT_DMA_PAGE_FAULTED;
    n.DmaPageFaulted.FaultedFenceId = f->fence_id;
    n.DmaPageFaulted.FaultedPrimitiveAPISequenceNumber = DXGK_PRIMITIVE_API_SEQUENCE_NUMBER_UNKNOWN;
    n.DmaPageFaulted.FaultedPipelineStage = DXGK_RENDER_PIPELINE_STAGE_UNKNOWN;
    /* DXGK_PAGE_FAULT_IOMMU: the VA was one the IOMMU translates, not the GPU's MMU. */
    n.DmaPageFaulted.PageFaultFlags = (DXGK_PAGE_FAULT_FLAGS)(((address_fault && f->write) ? DXGK_PAGE_FAULT_WRITE : 0) |
                                                              (f->iommu ? DXGK_PAGE_FAULT_IOMMU : 0));
    n.DmaPageFaulted.FaultedVirtualAddress = address_fault ? f->virtual_address : 0;
    n.DmaPageFaulted.NodeOrdinal = node;
    n.DmaPageFaulted.EngineOrdinal = 0;
    n.DmaPageFaulted.PageTableLevel = address_fault ? f->page_table_level : 0;
    n.DmaPageFaulted.FaultErrorCode.IsDeviceSpecificCode = 0;
    n.DmaPageFaulted.FaultErrorCode.GeneralErrorCode =
        address_fault ? DXGK_GENERAL_ERROR_PAGE_FAULT : DXGK_GENERAL_ERROR_INVALID_INSTRUCTION;
    if (a->dxgk.DxgkCbNotifyInterrupt)
        a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
}

BOOLEAN swkmd_report_completed_fences(struct swkmd_adapter *a)
{
    BOOLEAN ours = FALSE;
    for (UINT32 node = 0; node < SWKMD_NODE_COUNT; node++) {
        /* ResetEngine is moving this node's register to the aborted fence: the kernel ignores
         * the engine's interrupts until it returns (docs/semantics.md §8.3). */
        if (atomic_load_explicit(&a->resetting[node], memory_order_relaxed))
            continue;
        struct swgpu_fault f;
        while (swgpu_take_fault(a->gpu, node, &f)) {
            wddm_debug("kmd", "GPU fault on node %u: fence %u, opcode %u at DMA offset %u, address 0x%llx, VA 0x%llx: %s",
                       node, f.fence_id, f.opcode, f.command_offset, (unsigned long long)f.address,
                       (unsigned long long)f.virtual_address, f.reason);
            /* A buffer of a GPU virtual address space reports its fault as WDDM 2.x does, before
             * the DMA_COMPLETED of its fence (read below: the engine records the fault before
             * it writes the fence register), so the kernel puts the device in error
             * (docs/semantics.md §8.4, common.md). WDDM 1.x faults stay logged only. */
            if (f.virtual_mode)
                notify_page_fault(a, node, &f);
            ours = TRUE;
        }
        /* Preemption answers are taken BEFORE the register is read: each answer's
         * LastCompletedFenceId is then at most the fence reported with it, so DMA_COMPLETED
         * never trails a DMA_PREEMPTED that claims more (§8.2 invariant 4). Every answer is
         * reported, a batch at a time. */
        for (int first = 1;; first = 0) {
            struct swgpu_preemption pre[SWKMD_PREEMPTIONS_PER_ISR];
            UINT32 npre = 0;
            while (npre < SWKMD_PREEMPTIONS_PER_ISR && swgpu_take_preemption(a->gpu, node, &pre[npre]))
                npre++;
            if (!first && npre == 0)
                break;
            UINT32 cur = swgpu_last_completed_fence(a->gpu, node);
            if (cur != atomic_load_explicit(&a->notified_fence[node], memory_order_relaxed)) {
                atomic_store_explicit(&a->notified_fence[node], cur, memory_order_relaxed);
                DXGKARGCB_NOTIFY_INTERRUPT_DATA n = {0};
                n.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
                n.DmaCompleted.SubmissionFenceId = cur;
                n.DmaCompleted.NodeOrdinal = node;
                n.DmaCompleted.EngineOrdinal = 0;
                if (a->dxgk.DxgkCbNotifyInterrupt)
                    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
                ours = TRUE;
            }
            for (UINT32 i = 0; i < npre; i++) {
                DXGKARGCB_NOTIFY_INTERRUPT_DATA n = {0};
                n.InterruptType = DXGK_INTERRUPT_DMA_PREEMPTED;
                n.DmaPreempted.PreemptionFenceId = pre[i].preemption_fence_id;
                n.DmaPreempted.LastCompletedFenceId = pre[i].last_completed;
                n.DmaPreempted.NodeOrdinal = node;
                n.DmaPreempted.EngineOrdinal = 0;
                if (a->dxgk.DxgkCbNotifyInterrupt)
                    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
                ours = TRUE;
            }
            if (npre < SWKMD_PREEMPTIONS_PER_ISR)
                break;
        }
    }
    /* Every ISR notification is followed by a DPC request (§8.2 invariant 2). */
    if (ours && a->dxgk.DxgkCbQueueDpc)
        a->dxgk.DxgkCbQueueDpc(a->dxgk.DeviceHandle);
    return ours;
}

BOOLEAN APIENTRY SwKmdInterruptRoutine(const PVOID MiniportDeviceContext, ULONG MessageNumber)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a || !a->gpu)
        return FALSE;
    return swkmd_report_completed_fences(a);
}

VOID APIENTRY SwKmdDpcRoutine(const PVOID MiniportDeviceContext)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (a && a->dxgk.DxgkCbNotifyDpc)
        a->dxgk.DxgkCbNotifyDpc(a->dxgk.DeviceHandle);
}

static BOOLEAN sync_report(PVOID context)
{
    return swkmd_report_completed_fences(context);
}

NTSTATUS APIENTRY SwKmdQueryCurrentFence(const HANDLE hAdapter, DXGKARG_QUERYCURRENTFENCE *q)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !q || !a->gpu || q->NodeOrdinal >= SWKMD_NODE_COUNT || q->EngineOrdinal != 0) {
        wddm_debug("kmd", "QueryCurrentFence: bad adapter or node/engine ordinal");
        return STATUS_INVALID_PARAMETER;
    }
    /* Report any completion the ISR has not yet seen, serialized with the ISR, before
     * answering (§8.2 invariant 3: VidSch recovers a missed fence this way). */
    if (a->dxgk.DxgkCbSynchronizeExecution) {
        BOOLEAN ret = FALSE;
        a->dxgk.DxgkCbSynchronizeExecution(a->dxgk.DeviceHandle, sync_report, a, 0, &ret);
        q->CurrentFence = atomic_load_explicit(&a->notified_fence[q->NodeOrdinal], memory_order_relaxed);
    } else {
        q->CurrentFence = swgpu_last_completed_fence(a->gpu, q->NodeOrdinal);
    }
    return STATUS_SUCCESS;
}
