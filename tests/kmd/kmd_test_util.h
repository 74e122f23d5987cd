/* A minimal stand-in for the graphics kernel's side of the DXGK interface, so the reference
 * KMD can be driven through the DDI table its DriverEntry registers
 * (SwKmdGetDriverInitializationData): DXGKRNL_INTERFACE callbacks that record what the KMD
 * reports, and an interrupt line that runs the ISR then the DPC serialized, as the kernel
 * does (docs/semantics.md §8.2). */
#ifndef KMD_TEST_UTIL_H
#define KMD_TEST_UTIL_H

#include "kmd/kmd.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The KMD's interrupt line is redirected (swkmd_adapter_set_interrupt_line) to fk_raise_line
 * below, so the kernel's WddmInterruptLineRaise is never reached with this fake device; the
 * tests never call SwKmdDriverEntry (that would register with the real kernel). */

struct fake_kernel {
    DRIVER_INITIALIZATION_DATA ddi;
    PVOID adapter;
    pthread_mutex_t isr_lock;
    pthread_cond_t cv;
    /* Protected by isr_lock: */
    UINT32 completed[SWKMD_NODE_COUNT]; /* last DMA_COMPLETED fence per node */
    UINT32 notifications;
    /* DMA_PREEMPTED notifications (issue 4): how many per node and the last one's payload. */
    UINT32 preempted_count[SWKMD_NODE_COUNT];
    UINT32 preempted_fence[SWKMD_NODE_COUNT];      /* PreemptionFenceId */
    UINT32 preempted_last_completed[SWKMD_NODE_COUNT]; /* LastCompletedFenceId */
    UINT32 preempted_engine[SWKMD_NODE_COUNT];
    /* Every DMA notification in order (the first FK_MAX_EVENTS), so tests assert on order. */
#define FK_MAX_EVENTS 256
    struct fk_event {
        DXGK_INTERRUPT_TYPE type;
        UINT32 node;
        UINT32 fence;      /* SubmissionFenceId, or PreemptionFenceId */
        UINT32 completed;  /* DMA_PREEMPTED: LastCompletedFenceId */
    } events[FK_MAX_EVENTS];
    UINT32 nevents;
    /* DMA_PAGE_FAULTED notifications (issue 6, GpuMmu): the first FK_MAX_PAGE_FAULTS payloads.
     * Their events[] entry has fence = FaultedFenceId. */
#define FK_MAX_PAGE_FAULTS 16
    DXGKARGCB_NOTIFY_INTERRUPT_DATA page_faults[FK_MAX_PAGE_FAULTS];
    UINT32 npage_faults;
    int dpc_queued;
    UINT32 dpcs;
    atomic_int drop_interrupts; /* the line is "disconnected": lost interrupts */
    /* Allocation handles for DxgkCbGetHandleData: index = D3DKMT handle. */
    HANDLE handles[16];
};

static struct fake_kernel fk;

/* The feature-query callback fk_start puts in the DXGKRNL_INTERFACE (NULL: none, as a kernel
 * older than WDDM 2.9). Set before fk_start; not reset by it. */
static DXGKCB_QUERYFEATURESUPPORT fk_query_feature_support;

/* Context allocations (seed 000): when fk_context_allocations is set before fk_start, the
 * interface offers DxgkCbCreate/DestroyContextAllocation, so the KMD gives its non-system
 * contexts a save area (whose KMD handle, hDriverAllocation, the test then maps and
 * initialises through BuildPagingBuffer as VidMm would). The last one created is kept. */
static int fk_context_allocations;
static HANDLE fk_last_context_allocation; /* hDriverAllocation of the last one created */

static NTSTATUS APIENTRY fk_create_context_allocation(DXGKARGCB_CREATECONTEXTALLOCATION *a)
{
    static int kernel_handle;
    fk_last_context_allocation = a->hDriverAllocation;
    a->hAllocation = &kernel_handle;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY fk_destroy_context_allocation(HANDLE hAdapter, HANDLE hAllocation)
{
    return STATUS_SUCCESS;
}

static VOID APIENTRY fk_notify_page_fault(const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    if (fk.npage_faults < FK_MAX_PAGE_FAULTS)
        fk.page_faults[fk.npage_faults] = *d;
    fk.npage_faults++;
    if (fk.nevents < FK_MAX_EVENTS)
        fk.events[fk.nevents++] = (struct fk_event){d->InterruptType, d->DmaPageFaulted.NodeOrdinal,
                                                    d->DmaPageFaulted.FaultedFenceId, 0};
}

static VOID APIENTRY fk_notify_interrupt(HANDLE h, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    /* Called from the ISR, with isr_lock held by fk_raise_line / fk_sync. */
    if (d->InterruptType == DXGK_INTERRUPT_DMA_COMPLETED && d->DmaCompleted.NodeOrdinal < SWKMD_NODE_COUNT) {
        fk.completed[d->DmaCompleted.NodeOrdinal] = d->DmaCompleted.SubmissionFenceId;
        fk.notifications++;
        if (fk.nevents < FK_MAX_EVENTS)
            fk.events[fk.nevents++] = (struct fk_event){d->InterruptType, d->DmaCompleted.NodeOrdinal,
                                                        d->DmaCompleted.SubmissionFenceId, 0};
    }
    if (d->InterruptType == DXGK_INTERRUPT_DMA_PAGE_FAULTED)
        fk_notify_page_fault(d);
    if (d->InterruptType == DXGK_INTERRUPT_DMA_PREEMPTED && d->DmaPreempted.NodeOrdinal < SWKMD_NODE_COUNT) {
        UINT32 n = d->DmaPreempted.NodeOrdinal;
        fk.preempted_count[n]++;
        fk.preempted_fence[n] = d->DmaPreempted.PreemptionFenceId;
        fk.preempted_last_completed[n] = d->DmaPreempted.LastCompletedFenceId;
        fk.preempted_engine[n] = d->DmaPreempted.EngineOrdinal;
        if (fk.nevents < FK_MAX_EVENTS)
            fk.events[fk.nevents++] = (struct fk_event){d->InterruptType, n, d->DmaPreempted.PreemptionFenceId,
                                                        d->DmaPreempted.LastCompletedFenceId};
    }
}

static BOOLEAN APIENTRY fk_queue_dpc(HANDLE h)
{
    fk.dpc_queued = 1;
    return TRUE;
}

static VOID APIENTRY fk_notify_dpc(HANDLE h)
{
    fk.dpcs++;
    pthread_cond_broadcast(&fk.cv);
}

static PVOID APIENTRY fk_get_handle_data(const DXGKARGCB_GETHANDLEDATA *q)
{
    if (q->Type != DXGK_HANDLE_ALLOCATION || q->hObject >= 16)
        return NULL;
    return fk.handles[q->hObject];
}

static void fk_run_dpc_locked(void)
{
    if (fk.dpc_queued) {
        fk.dpc_queued = 0;
        fk.ddi.DxgkDdiDpcRoutine(fk.adapter);
    }
}

static NTSTATUS APIENTRY fk_sync(HANDLE h, PKSYNCHRONIZE_ROUTINE routine, PVOID ctx, ULONG msg, BOOLEAN *ret)
{
    pthread_mutex_lock(&fk.isr_lock);
    BOOLEAN r = routine(ctx);
    if (ret)
        *ret = r;
    fk_run_dpc_locked();
    pthread_mutex_unlock(&fk.isr_lock);
    return STATUS_SUCCESS;
}

/* The platform interrupt line: ISR, then DPC, one at a time. */
static VOID fk_raise_line(PDEVICE_OBJECT pdo, ULONG msg)
{
    if (atomic_load(&fk.drop_interrupts))
        return;
    pthread_mutex_lock(&fk.isr_lock);
    fk.ddi.DxgkDdiInterruptRoutine(fk.adapter, msg);
    fk_run_dpc_locked();
    pthread_mutex_unlock(&fk.isr_lock);
}

/* Waits until the KMD reported `fence` completed on `node`. */
static inline void fk_wait_completed(UINT32 node, UINT32 fence)
{
    pthread_mutex_lock(&fk.isr_lock);
    while ((INT32)(fk.completed[node] - fence) < 0)
        pthread_cond_wait(&fk.cv, &fk.isr_lock);
    pthread_mutex_unlock(&fk.isr_lock);
}

/* Waits until the KMD reported `count` DMA_PREEMPTED notifications on `node`. */
static inline void fk_wait_preempted(UINT32 node, UINT32 count)
{
    pthread_mutex_lock(&fk.isr_lock);
    while (fk.preempted_count[node] < count)
        pthread_cond_wait(&fk.cv, &fk.isr_lock);
    pthread_mutex_unlock(&fk.isr_lock);
}

static inline UINT32 fk_completed(UINT32 node)
{
    pthread_mutex_lock(&fk.isr_lock);
    UINT32 v = fk.completed[node];
    pthread_mutex_unlock(&fk.isr_lock);
    return v;
}

/* AddDevice + StartDevice with small segments (the environment sizes them). */
static inline NTSTATUS fk_start(void)
{
    memset(&fk, 0, sizeof fk);
    pthread_mutex_init(&fk.isr_lock, NULL);
    pthread_cond_init(&fk.cv, NULL);
    SwKmdGetDriverInitializationData(&fk.ddi);
    setenv("WDDM_SEGMENT_LOCAL_MB", "16", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "8", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "32", 1);
    static int pdo_storage;
    NTSTATUS st = fk.ddi.DxgkDdiAddDevice((PDEVICE_OBJECT)(void *)&pdo_storage, &fk.adapter);
    if (!NT_SUCCESS(st))
        return st;
    swkmd_adapter_set_interrupt_line(fk.adapter, fk_raise_line);
    DXGKRNL_INTERFACE ifc;
    memset(&ifc, 0, sizeof ifc);
    ifc.Size = sizeof ifc;
    ifc.DeviceHandle = &fk;
    ifc.DxgkCbSynchronizeExecution = fk_sync;
    ifc.DxgkCbNotifyInterrupt = fk_notify_interrupt;
    ifc.DxgkCbNotifyDpc = fk_notify_dpc;
    ifc.DxgkCbQueueDpc = fk_queue_dpc;
    ifc.DxgkCbGetHandleData = fk_get_handle_data;
    ifc.DxgkCbQueryFeatureSupport = fk_query_feature_support;
    if (fk_context_allocations) {
        ifc.DxgkCbCreateContextAllocation = fk_create_context_allocation;
        ifc.DxgkCbDestroyContextAllocation = fk_destroy_context_allocation;
    }
    DXGK_START_INFO si;
    memset(&si, 0, sizeof si);
    ULONG sources = 99, children = 99;
    st = fk.ddi.DxgkDdiStartDevice(fk.adapter, &si, &ifc, &sources, &children);
    if (NT_SUCCESS(st) && (sources != 0 || children != 0))
        return STATUS_UNSUCCESSFUL;
    return st;
}

static inline void fk_stop(void)
{
    fk.ddi.DxgkDdiStopDevice(fk.adapter);
    fk.ddi.DxgkDdiRemoveDevice(fk.adapter);
    pthread_mutex_destroy(&fk.isr_lock);
    pthread_cond_destroy(&fk.cv);
}

static inline struct swgpu_alloc_private fk_private(UINT32 kind, UINT64 size)
{
    struct swgpu_alloc_private p;
    memset(&p, 0, sizeof p);
    p.magic = SWGPU_PRIVATE_MAGIC;
    p.version = SWGPU_PRIVATE_VERSION;
    p.kind = kind;
    p.size = size;
    return p;
}

/* Creates one allocation with SWGPU_ALLOC_FLAG_* flags; returns the KMD's handle (NULL on
 * failure). */
static inline HANDLE fk_create_allocation_flags(UINT32 kind, UINT64 size, UINT32 flags, DXGK_ALLOCATIONINFO *info_out)
{
    struct swgpu_alloc_private p = fk_private(kind, size);
    p.flags = flags;
    DXGK_ALLOCATIONINFO info;
    memset(&info, 0, sizeof info);
    info.pPrivateDriverData = &p;
    info.PrivateDriverDataSize = sizeof p;
    DXGKARG_CREATEALLOCATION ca;
    memset(&ca, 0, sizeof ca);
    ca.NumAllocations = 1;
    ca.pAllocationInfo = &info;
    if (!NT_SUCCESS(fk.ddi.DxgkDdiCreateAllocation(fk.adapter, &ca)))
        return NULL;
    if (info_out)
        *info_out = info;
    return info.hAllocation;
}

static inline HANDLE fk_create_allocation(UINT32 kind, UINT64 size, DXGK_ALLOCATIONINFO *info_out)
{
    return fk_create_allocation_flags(kind, size, 0, info_out);
}

static inline void fk_destroy_allocation(HANDLE h)
{
    DXGKARG_DESTROYALLOCATION da;
    memset(&da, 0, sizeof da);
    da.NumAllocations = 1;
    da.pAllocationList = &h;
    fk.ddi.DxgkDdiDestroyAllocation(fk.adapter, &da);
}

#endif
