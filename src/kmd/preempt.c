/* DxgkDdiPreemptCommand (docs/semantics.md §8.2 invariant 4, WDK "GPU preemption"): asks the
 * node's engine to stop and answer. The answer comes later, from the ISR, as
 * DXGK_INTERRUPT_DMA_PREEMPTED {PreemptionFenceId, LastCompletedFenceId} (interrupt.c): the
 * engine answers from its own thread, never on this call's (the kernel calls PreemptCommand
 * with its own locks held), and an idle engine answers at once the same way.
 *
 * Granularity is the one the driver declared (caps.c): PRIMITIVE_BOUNDARY or finer stops after
 * the current command, saving its place in the context's save area; DMA_BUFFER_BOUNDARY (a
 * user's WDDM_KMD_CAPS) lets the current buffer finish. */
#include "kmd/kmd.h"

#include "common/debug.h"

NTSTATUS APIENTRY SwKmdPreemptCommand(const HANDLE hAdapter, const DXGKARG_PREEMPTCOMMAND *p)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !p || !a->gpu) {
        wddm_debug("kmd", "PreemptCommand: bad adapter, NULL arguments or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    if (swkmd_exclusive_refuses(a, "PreemptCommand"))
        return STATUS_INVALID_DEVICE_STATE;
    if (p->NodeOrdinal >= SWKMD_NODE_COUNT || p->EngineOrdinal != 0) {
        wddm_debug("kmd", "PreemptCommand: NodeOrdinal %u / EngineOrdinal %u: this GPU has %u nodes of one engine",
                   p->NodeOrdinal, p->EngineOrdinal, SWKMD_NODE_COUNT);
        return STATUS_INVALID_PARAMETER;
    }
    if (p->Flags.Value != 0) {
        wddm_debug("kmd", "PreemptCommand: Flags 0x%x: no flag is defined", p->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    int mid_buffer = a->caps.PreemptionCaps.GraphicsPreemptionGranularity >= D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY;
    swgpu_preempt(a->gpu, p->NodeOrdinal, p->PreemptionFenceId, mid_buffer);
    return STATUS_SUCCESS;
}
