/* Timeout detection and recovery, the KMD's side (docs/semantics.md §8.3, WDK "TDR changes in
 * Windows 8"): per-engine reset (SupportPerEngineTDR: DxgkDdiQueryDependentEngineGroup,
 * DxgkDdiQueryEngineStatus, DxgkDdiResetEngine) and adapter reset (DxgkDdiResetFromTimeout,
 * DxgkDdiRestartFromTimeout).
 *
 * The fence the ISR last reported (notified_fence) is only changed under interrupt
 * synchronization (DxgkCbSynchronizeExecution), like the ISR itself, so that no
 * DMA_COMPLETED is ever reported for an aborted buffer after the reset returns. */
#include "kmd/kmd.h"

#include "common/debug.h"

static struct swkmd_adapter *checked(HANDLE hAdapter, const void *args, UINT32 node, UINT32 engine, const char *ddi)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !args || !a->gpu) {
        wddm_debug("kmd", "%s: bad adapter, NULL arguments or adapter not started", ddi);
        return NULL;
    }
    if (node >= SWKMD_NODE_COUNT || engine != 0) {
        wddm_debug("kmd", "%s: NodeOrdinal %u / EngineOrdinal %u: this GPU has %u nodes of one engine", ddi, node,
                   engine, SWKMD_NODE_COUNT);
        return NULL;
    }
    return a;
}

struct set_notified {
    struct swkmd_adapter *a;
    UINT32 node;
    UINT32 fence;
};

/* Run by DxgkCbSynchronizeExecution (serialized with the ISR). */
static BOOLEAN set_notified_sync(PVOID context)
{
    struct set_notified *s = context;
    atomic_store_explicit(&s->a->notified_fence[s->node], s->fence, memory_order_relaxed);
    /* Answers the engine gave before the reset are about work that no longer exists. */
    struct swgpu_preemption p;
    while (swgpu_take_preemption(s->a->gpu, s->node, &p))
        ;
    atomic_store_explicit(&s->a->resetting[s->node], 0, memory_order_relaxed);
    return TRUE;
}

static void set_notified(struct swkmd_adapter *a, UINT32 node, UINT32 fence)
{
    struct set_notified s = {a, node, fence};
    if (a->dxgk.DxgkCbSynchronizeExecution) {
        BOOLEAN ret = FALSE;
        a->dxgk.DxgkCbSynchronizeExecution(a->dxgk.DeviceHandle, set_notified_sync, &s, 0, &ret);
    } else {
        set_notified_sync(&s);
    }
}

NTSTATUS APIENTRY SwKmdResetEngine(const HANDLE hAdapter, DXGKARG_RESETENGINE *r)
{
    struct swkmd_adapter *a = checked(hAdapter, r, r ? r->NodeOrdinal : 0, r ? r->EngineOrdinal : 0, "ResetEngine");
    if (!a)
        return STATUS_INVALID_PARAMETER;
    UINT32 node = r->NodeOrdinal;
    /* The ISR leaves the node alone while the register jumps to the aborted fence. */
    atomic_store_explicit(&a->resetting[node], 1, memory_order_relaxed);
    UINT32 aborted = 0;
    /* Returns once the engine is idle and takes new work, as ResetEngine must. */
    swgpu_reset_engine(a->gpu, node, &aborted);
    /* The ring is empty now: nothing submitted is outstanding (what was behind the aborted
     * buffer is the kernel's to resubmit), and the engine's progress starts a new reading. */
    atomic_store_explicit(&a->submitted_fence[node], aborted, memory_order_relaxed);
    atomic_store_explicit(&a->status_progress[node], 0, memory_order_relaxed);
    set_notified(a, node, aborted);
    r->LastAbortedFenceId = aborted;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdQueryEngineStatus(const HANDLE hAdapter, DXGKARG_QUERYENGINESTATUS *q)
{
    struct swkmd_adapter *a =
        checked(hAdapter, q, q ? q->NodeOrdinal : 0, q ? q->EngineOrdinal : 0, "QueryEngineStatus");
    if (!a)
        return STATUS_INVALID_PARAMETER;
    UINT32 node = q->NodeOrdinal;
    UINT64 progress = swgpu_engine_progress(a->gpu, node);
    UINT64 previous = atomic_exchange_explicit(&a->status_progress[node], progress + 1, memory_order_relaxed);
    UINT32 submitted = atomic_load_explicit(&a->submitted_fence[node], memory_order_relaxed);
    int has_work = (INT32)(submitted - swgpu_last_completed_fence(a->gpu, node)) > 0;
    /* Unresponsive: stopped in a hang, or work pending on a running (not paused) engine that
     * finished no command since the previous query. A paused engine is waiting, not hung. */
    int stalled = has_work && !swgpu_engine_paused(a->gpu, node) && previous == progress + 1;
    q->EngineStatus.Value = 0;
    q->EngineStatus.Responsive = (swgpu_engine_hung(a->gpu, node) || stalled) ? 0 : 1;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdQueryDependentEngineGroup(const HANDLE hAdapter, DXGKARG_QUERYDEPENDENTENGINEGROUP *q)
{
    struct swkmd_adapter *a =
        checked(hAdapter, q, q ? q->NodeOrdinal : 0, q ? q->EngineOrdinal : 0, "QueryDependentEngineGroup");
    if (!a)
        return STATUS_INVALID_PARAMETER;
    /* Every engine is its own thread with its own ring: a reset touches no other node. */
    q->DependentNodeOrdinalMask = 1ull << q->NodeOrdinal;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdResetFromTimeout(const PVOID MiniportDeviceContext)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a || !a->gpu) {
        wddm_debug("kmd", "ResetFromTimeout: bad adapter or adapter not started");
        return STATUS_INVALID_PARAMETER;
    }
    /* Adapter reset: every engine abandons its work, and every submitted fence counts as
     * completed (§8.2 invariant 1: "on adapter reset, to the last submitted fence"). */
    for (UINT32 node = 0; node < SWKMD_NODE_COUNT; node++) {
        atomic_store_explicit(&a->resetting[node], 1, memory_order_relaxed);
        UINT32 aborted = 0;
        swgpu_reset_engine(a->gpu, node, &aborted);
        UINT32 submitted = atomic_load_explicit(&a->submitted_fence[node], memory_order_relaxed);
        swgpu_force_completed_fence(a->gpu, node, submitted);
        set_notified(a, node, submitted);
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdRestartFromTimeout(const PVOID MiniportDeviceContext)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a) {
        wddm_debug("kmd", "RestartFromTimeout: bad adapter");
        return STATUS_INVALID_PARAMETER;
    }
    /* The engines were left idle and ready by ResetFromTimeout: nothing to restart. */
    return STATUS_SUCCESS;
}
