/* Adapters: the process-wide adapter list (docs/architecture.md "Style": the only hidden global), KMD start-up
 * (DriverEntry -> DxgkInitialize -> AddDevice -> StartDevice -> QueryAdapterInfo), adapter
 * handles, D3DKMTQueryAdapterInfo, counters and teardown (last handle closed, or atexit). */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The built-in reference KMD's DriverEntry (SwKmdDriverEntry); wddm_set_kmd_entry installs
 * another one. Only its entry point is used: the KMD is reached through its DDI table. */
#include <wddm/wddm.h>

static struct {
    pthread_mutex_t lock;
    struct dxgk_adapter *adapters;   /* started adapters; protected by lock */
    PDRIVER_INITIALIZE kmd_entry;    /* NULL = WDDM_KMD's module or SwKmdDriverEntry; protected by lock */
    bool atexit_registered;          /* protected by lock */
    UINT luid_base;                  /* immutable */
    struct wddm_counters stopped;    /* counters of adapters already stopped; protected by lock */
} process = { .lock = PTHREAD_MUTEX_INITIALIZER, .luid_base = 0x1000 };

/* DxgkInitialize: a KMD's DriverEntry registers its DDI table (docs/semantics.md §0). */
NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PVOID RegistryPath, DRIVER_INITIALIZATION_DATA *init)
{
    if (!DriverObject || !init) {
        dxgk_refuse("DxgkInitialize: NULL driver object or initialization data");
        return STATUS_INVALID_PARAMETER;
    }
    if (init->Version < DXGKDDI_INTERFACE_VERSION_WIN7) {
        dxgk_refuse("DxgkInitialize: DRIVER_INITIALIZATION_DATA.Version 0x%x older than WIN7 (0x%x)",
                    (unsigned)init->Version, DXGKDDI_INTERFACE_VERSION_WIN7);
        return STATUS_INVALID_PARAMETER;
    }
    /* The kernel's DRIVER_OBJECT is its adapter's (objects/adapter.c start_driver). */
    const struct dxgk_adapter *a = (const struct dxgk_adapter *)((const char *)DriverObject -
                                                                 offsetof(struct dxgk_adapter, driver));
    if (!dxgk_verify_driver_init(a, init))
        return STATUS_INVALID_PARAMETER;
    DriverObject->ddi = *init;
    DriverObject->registered = true;
    return STATUS_SUCCESS;
}

void wddm_set_kmd_entry(PDRIVER_INITIALIZE entry)
{
    pthread_mutex_lock(&process.lock);
    process.kmd_entry = entry;
    pthread_mutex_unlock(&process.lock);
}

/* The calls the scheduler and VidMm make up into the rooms above them (struct dxgk_upcalls). */
static const struct dxgk_upcalls upcalls = {
    .prepare_packet_locked = vidmm_packet_prepare_locked,
    .split_submit_locked = vidmm_split_submit_locked,
    .switch_root = vidmm_va_switch_root,
    .packet_direct_locked = vidmm_packet_direct_locked,
    .packet_ticketed_locked = vidmm_packet_ticketed_locked,
    .held_done_locked = vidmm_va_held_done_locked,
    .paging_packet_get_locked = vidmm_paging_packet_get_locked,
    .purge_after_reset = vidmm_purge_after_reset,
    .deferred_process = dxgk_deferred_process,
};

static void adapter_stop(struct dxgk_adapter *a);
static void counters_read(const struct dxgk_adapter *a, struct wddm_counters *c);

static void adapter_release(struct dxgk_object *obj)
{
    struct dxgk_adapter *a = (struct dxgk_adapter *)obj;
    pthread_mutex_lock(&process.lock);
    if (a->listed) {
        struct dxgk_adapter **pp = &process.adapters;
        while (*pp && *pp != a)
            pp = &(*pp)->next;
        if (*pp)
            *pp = a->next;
        a->listed = false;
    }
    pthread_mutex_unlock(&process.lock);
    adapter_stop(a);
    /* wddm_get_counters sums over the process's adapters, including stopped ones. */
    pthread_mutex_lock(&process.lock);
    counters_read(a, &process.stopped);
    pthread_mutex_unlock(&process.lock);
    free(a->umd_name);
    free(a->kmd_name);
    free(a);
}

static NTSTATUS query_kmd(struct dxgk_adapter *a, DXGK_QUERYADAPTERINFOTYPE type, void *in, UINT in_size,
                          void *out, UINT out_size)
{
    DXGKARG_QUERYADAPTERINFO q = { .Type = type, .pInputData = in, .InputDataSize = in_size,
                                   .pOutputData = out, .OutputDataSize = out_size };
    return a->driver.ddi.DxgkDdiQueryAdapterInfo(a->miniport, &q);
}

/* The system device and its paging context on DXGK_VIDMMCAPS.PagingNode (docs/semantics.md §0:
 * a system context exists only for the paging engine). */
static NTSTATUS create_system_context(struct dxgk_adapter *a)
{
    DXGK_DEVICEINFO info = { 0 };
    DXGKARG_CREATEDEVICE cd = { .hDevice = (HANDLE)a, .pInfo = &info };
    cd.Flags.SystemDevice = 1;
    NTSTATUS st = a->driver.ddi.DxgkDdiCreateDevice(a->miniport, &cd);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiCreateDevice(system device) failed 0x%08x", (unsigned)st);
        return st;
    }
    a->kmd_system_device = cd.hDevice;
    DXGKARG_CREATECONTEXT cc = { .hContext = (HANDLE)a, .NodeOrdinal = a->paging_node, .EngineAffinity = 1 };
    cc.Flags.SystemContext = 1;
    st = a->driver.ddi.DxgkDdiCreateContext(a->kmd_system_device, &cc);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiCreateContext(system context, node %u) failed 0x%08x",
                    a->paging_node, (unsigned)st);
        a->driver.ddi.DxgkDdiDestroyDevice(a->kmd_system_device);
        a->kmd_system_device = NULL;
        return st;
    }
    a->kmd_system_context = cc.hContext;
    return STATUS_SUCCESS;
}

/* Starts one adapter; on failure everything done so far is undone and a debug line says why. */
/* Adapter start as phases over one operation (issue 16): what has been brought up, so a failure
 * takes down exactly that, in reverse. */
struct start_op {
    struct dxgk_adapter *a;
    bool added, started;              /* DxgkDdiAddDevice / DxgkDdiStartDevice succeeded */
    UINT nodes_started;
};

/* Phase 1: DriverEntry (which calls DxgkInitialize), DxgkDdiAddDevice, the OS feature set,
 * DxgkDdiStartDevice with the kernel's callbacks. */
static NTSTATUS start_driver(struct start_op *op, PDRIVER_INITIALIZE entry)
{
    struct dxgk_adapter *a = op->a;
    if (!entry) {
        dxgk_refuse("adapter start: no KMD entry point");
        return STATUS_NOT_SUPPORTED;
    }
    a->driver.imports = &dxgk_platform_imports; /* what a module's displib calls through */
    NTSTATUS st = entry(&a->driver, NULL);
    if (!NT_SUCCESS(st) || !a->driver.registered) {
        dxgk_refuse("adapter start: DriverEntry failed 0x%08x or did not call DxgkInitialize", (unsigned)st);
        return NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
    }
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    st = ddi->DxgkDdiAddDevice(&a->pdo, &a->miniport);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiAddDevice failed 0x%08x", (unsigned)st);
        return st;
    }
    op->added = true;
    /* The OS feature set exists before the KMD can query it from StartDevice (dxgkrnl/feature.c). */
    st = dxgk_features_init(a);
    if (!NT_SUCCESS(st))
        return st;
    DXGK_START_INFO si = { .RequiredDxgkInterfaceVersion = DXGKDDI_INTERFACE_VERSION, .AdapterLuid = a->luid };
    DXGKRNL_INTERFACE ifc = {
        .Size = sizeof ifc,
        .Version = DXGKDDI_INTERFACE_VERSION,
        .DeviceHandle = (HANDLE)a,
        .DxgkCbSynchronizeExecution = dxgk_cb_synchronize_execution,
        .DxgkCbNotifyInterrupt = dxgk_cb_notify_interrupt,
        .DxgkCbNotifyDpc = dxgk_cb_notify_dpc,
        .DxgkCbQueueDpc = dxgk_cb_queue_dpc,
        .DxgkCbGetHandleData = dxgk_cb_get_handle_data,
        .DxgkCbQueryFeatureSupport = dxgk_cb_query_feature_support,
        .DxgkCbIsFeatureEnabled = dxgk_cb_is_feature_enabled,
        .DxgkCbCreateContextAllocation = dxgk_cb_create_context_allocation,
        .DxgkCbDestroyContextAllocation = dxgk_cb_destroy_context_allocation,
        .DxgkCbPinFrameBufferForSave = dxgk_cb_pin_frame_buffer_for_save,
        .DxgkCbUnpinFrameBufferForSave = dxgk_cb_unpin_frame_buffer_for_save,
        .DxgkCbMapFrameBufferPointer = dxgk_cb_map_frame_buffer_pointer,
        .DxgkCbUnmapFrameBufferPointer = dxgk_cb_unmap_frame_buffer_pointer,
        .DxgkCbAllocatePagesForMdl = dxgk_cb_allocate_pages_for_mdl,
        .DxgkCbFreePagesFromMdl = dxgk_cb_free_pages_from_mdl,
        .DxgkCbAllocateContiguousMemory = dxgk_cb_allocate_contiguous_memory,
        .DxgkCbFreeContiguousMemory = dxgk_cb_free_contiguous_memory,
        .DxgkCbMapMdlToIoMmu = dxgk_cb_map_mdl_to_iommu,
        .DxgkCbUnmapMdlFromIoMmu = dxgk_cb_unmap_mdl_from_iommu,
    };
    dxgk_interface_fill_not_modeled(&ifc); /* every other member answers "not supported" */
    ULONG sources = 0, children = 0;
    st = ddi->DxgkDdiStartDevice(a->miniport, &si, &ifc, &sources, &children);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiStartDevice failed 0x%08x", (unsigned)st);
        return st;
    }
    op->started = true;
    return STATUS_SUCCESS;
}

/* Phase 2: the driver caps, verified, and the DDIs they promise (docs/semantics.md §6.2, §6.3:
 * PreemptionAware needs DxgkDdiPreemptCommand; SupportPerEngineTDR needs
 * QueryDependentEngineGroup, QueryEngineStatus and ResetEngine). */
/* The device's IOMMU domain, attached "shortly after the device is started", inside the KMD's
 * exclusive access: nothing runs on the engines yet and no other DDI is called in between. */
static NTSTATUS attach_isolation_domain(struct dxgk_adapter *a)
{
    DXGKARG_BEGINEXCLUSIVEACCESS begin = { 0 };
    NTSTATUS st = a->driver.ddi.DxgkDdiBeginExclusiveAccess(a->miniport, &begin);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiBeginExclusiveAccess failed 0x%08x: the IOMMU domain cannot be attached",
                    (unsigned)st);
        return st;
    }
    st = dxgk_iommu_isolation_start(a);
    /* Where UNMAP_APERTURE_SEGMENT points an aperture range: the process's one dummy page. */
    if (NT_SUCCESS(st) && !dxgk_iommu_kernel_map(a, vidmm_dummy_page(), DXGK_PAGE_SIZE, true))
        st = STATUS_NO_MEMORY;
    DXGKARG_ENDEXCLUSIVEACCESS end = { 0 };
    NTSTATUS end_st = a->driver.ddi.DxgkDdiEndExclusiveAccess(a->miniport, &end);
    if (!NT_SUCCESS(end_st))
        dxgk_refuse("adapter start: DxgkDdiEndExclusiveAccess failed 0x%08x", (unsigned)end_st);
    return NT_SUCCESS(st) ? end_st : st;
}

static NTSTATUS start_caps(struct start_op *op)
{
    struct dxgk_adapter *a = op->a;
    NTSTATUS st = query_kmd(a, DXGKQAITYPE_DRIVERCAPS, NULL, 0, &a->caps, sizeof a->caps);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiQueryAdapterInfo(DRIVERCAPS) failed 0x%08x", (unsigned)st);
        return st;
    }
    if (!dxgk_verify_driver_caps(a))
        return STATUS_UNSUCCESSFUL;
    /* IOMMU-based GPU isolation (WDDM 2.4, iommu.c): on for a KMD that supports it when it requires
     * it (seed 003: "required or the OS will otherwise not start the adapter": this platform has
     * the IOMMU) or when WDDM_IOMMU_ISOLATION=1 asks, as Windows' IOMMUFlags key does. */
    const DXGK_VIDMMCAPS *mm = &a->caps.MemoryManagementCaps;
    const char *ask = getenv("WDDM_IOMMU_ISOLATION");
    a->isolated = mm->IoMmuSecureModeSupported && (mm->IoMmuSecureModeRequired || (ask && !strcmp(ask, "1")));
    /* "immediately after querying the physical adapter caps" (IOMMU-based GPU isolation) */
    st = vidmm_fb_save_start(a);
    if (NT_SUCCESS(st) && a->isolated)
        st = attach_isolation_domain(a);
    return st;
}

/* Phase 3: the segments, by the two-call query (docs/semantics.md §6.4: count first, then the
 * descriptors), verified and set up. */
static NTSTATUS start_segments(struct start_op *op)
{
    struct dxgk_adapter *a = op->a;
    DXGK_QUERYSEGMENTIN qin = { 0 };
    DXGK_QUERYSEGMENTOUT qout = { 0 };
    NTSTATUS st = query_kmd(a, DXGKQAITYPE_QUERYSEGMENT, &qin, sizeof qin, &qout, sizeof qout);
    if (!NT_SUCCESS(st) || qout.NbSegment == 0 || qout.NbSegment > DXGK_MAX_SEGMENTS) {
        dxgk_refuse("adapter start: QUERYSEGMENT count call failed 0x%08x or NbSegment %u not in 1..%u",
                    (unsigned)st, qout.NbSegment, DXGK_MAX_SEGMENTS);
        return NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
    }
    DXGK_SEGMENTDESCRIPTOR desc[DXGK_MAX_SEGMENTS];
    memset(desc, 0, sizeof desc);
    UINT nb = qout.NbSegment;
    qout.pSegmentDescriptor = desc;
    st = query_kmd(a, DXGKQAITYPE_QUERYSEGMENT, &qin, sizeof qin, &qout, sizeof qout);
    if (!NT_SUCCESS(st) || qout.NbSegment != nb) {
        dxgk_refuse("adapter start: QUERYSEGMENT descriptor call failed 0x%08x or changed NbSegment", (unsigned)st);
        return NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
    }
    if (!dxgk_verify_segments(a, &qout))
        return STATUS_UNSUCCESSFUL;
    a->paging_buffer_size = qout.PagingBufferSize;
    a->paging_priv_size = qout.PagingBufferPrivateDataSize;
    for (UINT i = 0; i < nb; i++) {
        if (!vidmm_segment_init(&a->seg[i], i + 1, &desc[i])) {
            a->segment_count = i;
            return STATUS_NO_MEMORY;
        }
        a->seg[i].timeline_track = WDDM_TL_SEGMENT(dxgk_timeline_adapter(a), i + 1);
    }
    a->segment_count = nb;
    return STATUS_SUCCESS;
}

/* Phase 4: the engines - one scheduler node per node of the topology (PagingNode honoured only
 * with MultiEngineAware, docs/semantics.md §6.1), timeout detection, the system context, and in the
 * GpuMmu model (issue 6) its levels, process and root page table (zeroed by a paging FILL). */
static NTSTATUS start_engines(struct start_op *op)
{
    struct dxgk_adapter *a = op->a;
    a->paging_node = a->caps.SchedulingCaps.MultiEngineAware ? a->caps.MemoryManagementCaps.PagingNode : 0;
    for (UINT i = 0; i < a->caps.GpuEngineTopology.NbAsymetricProcessingNodes; i++) {
        if (!gsched_node_start(&a->node[i], a, i))
            return STATUS_NO_MEMORY;
        op->nodes_started++;
    }
    a->node_count = op->nodes_started; /* the DPC walks only started nodes */
    if (!dxgk_tdr_start(a)) /* timeout detection (sched/tdr.c) */
        return STATUS_NO_MEMORY;
    NTSTATUS st = create_system_context(a);
    if (!NT_SUCCESS(st) || !a->caps.MemoryManagementCaps.VirtualAddressingSupported)
        return st;
    st = vidmm_gpummu_start(a);
    if (!NT_SUCCESS(st)) {
        const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
        for (UINT i = 0; i < a->node_count; i++)
            gsched_wait_node_idle(&a->node[i]);
        vidmm_paging_pool_fini(a);
        ddi->DxgkDdiDestroyContext(a->kmd_system_context);
        ddi->DxgkDdiDestroyDevice(a->kmd_system_device);
        a->kmd_system_context = a->kmd_system_device = NULL;
    }
    return st;
}

/* A failed start: what the phases brought up, taken down in reverse. */
static void start_undo(struct start_op *op)
{
    struct dxgk_adapter *a = op->a;
    dxgk_tdr_stop(a);
    if (op->started && a->driver.ddi.DxgkDdiStopDevice)
        a->driver.ddi.DxgkDdiStopDevice(a->miniport);
    for (UINT i = 0; i < op->nodes_started; i++)
        gsched_node_stop(&a->node[i]);
    for (UINT i = 0; i < a->segment_count; i++)
        vidmm_segment_fini(&a->seg[i]);
    a->segment_count = 0;
    vidmm_fb_save_stop(a);
    if (op->added && a->driver.ddi.DxgkDdiRemoveDevice)
        a->driver.ddi.DxgkDdiRemoveDevice(a->miniport);
    vidmm_kmd_memory_stop(a);
    dxgk_iommu_isolation_stop(a);
    pthread_mutex_destroy(&a->lock);
    pthread_mutex_destroy(&a->interrupt_lock);
    pthread_mutex_destroy(&a->dpc_lock);
    pthread_cond_destroy(&a->deferred_cond);
    pthread_cond_destroy(&a->held_cond);
}

static NTSTATUS adapter_start(struct dxgk_adapter *a, PDRIVER_INITIALIZE entry)
{
    struct start_op op = { .a = a };
    a->pdo.adapter = a;
    a->pdo.imports = &dxgk_platform_imports;
    pthread_mutex_init(&a->lock, NULL);
    pthread_mutex_init(&a->interrupt_lock, NULL);
    pthread_mutex_init(&a->dpc_lock, NULL);
    pthread_cond_init(&a->deferred_cond, NULL);
    pthread_cond_init(&a->held_cond, NULL);
    NTSTATUS st = start_driver(&op, entry);
    if (NT_SUCCESS(st))
        st = start_caps(&op);
    if (NT_SUCCESS(st))
        st = start_segments(&op);
    if (NT_SUCCESS(st))
        st = start_engines(&op);
    if (!NT_SUCCESS(st))
        start_undo(&op);
    return st;
}

static void adapter_stop(struct dxgk_adapter *a)
{
    /* Devices hold adapter references, so none is left; drain the GPU and the deferred list. */
    for (UINT i = 0; i < a->node_count; i++)
        gsched_wait_node_idle(&a->node[i]);
    dxgk_deferred_process(a, NULL, true);
    for (UINT i = 0; i < a->node_count; i++)
        gsched_wait_node_idle(&a->node[i]);
    vidmm_gpummu_stop(a); /* DxgkDdiDestroyProcess (issue 6) */
    if (a->kmd_system_context)
        a->driver.ddi.DxgkDdiDestroyContext(a->kmd_system_context);
    if (a->kmd_system_device)
        a->driver.ddi.DxgkDdiDestroyDevice(a->kmd_system_device);
    for (UINT i = 0; i < a->node_count; i++)
        gsched_wait_node_idle(&a->node[i]);
    /* The watchdog ran until now: a node stuck at teardown was recovered by it. */
    dxgk_tdr_stop(a);
    /* Stop the device first: after StopDevice no interrupt or DPC can reach the node locks
     * (a DPC may still be leaving node_retire when the last wait above returns). */
    if (a->driver.ddi.DxgkDdiStopDevice)
        a->driver.ddi.DxgkDdiStopDevice(a->miniport);
    for (UINT i = 0; i < a->node_count; i++)
        gsched_node_stop(&a->node[i]);
    vidmm_paging_pool_fini(a);
    pthread_mutex_lock(&a->lock);
    vidmm_retiring_reap_locked(a, true); /* the nodes are idle: every UNMAP ran */
    pthread_mutex_unlock(&a->lock);
    if (a->driver.ddi.DxgkDdiRemoveDevice)
        a->driver.ddi.DxgkDdiRemoveDevice(a->miniport);
    for (UINT i = 0; i < a->segment_count; i++)
        vidmm_segment_fini(&a->seg[i]);
    vidmm_fb_save_stop(a);
    vidmm_kmd_memory_stop(a);
    dxgk_iommu_isolation_stop(a); /* last: every page it mapped is unmapped or no longer used */
    pthread_mutex_destroy(&a->lock);
    pthread_mutex_destroy(&a->interrupt_lock);
    pthread_mutex_destroy(&a->dpc_lock);
    pthread_cond_destroy(&a->deferred_cond);
    pthread_cond_destroy(&a->held_cond);
}

/* atexit: destroy what the application left (devices take their contexts and allocations
 * with them), then close adapter handles; the last reference stops each adapter. Keyed mutexes
 * belong to no device: their handles go last. */
static void process_teardown(void)
{
    struct dxgk_object **objs;
    D3DKMT_HANDLE *hs;
    dxgk_nt_handles_close_all(); /* first: their holds go, so the devices' memory goes with them */
    size_t n = dxgk_handle_collect(DXGK_TYPE_DEVICE, &objs, &hs);
    for (size_t i = 0; i < n; i++) {
        dxgk_device_destroy((struct dxgk_device *)objs[i], hs[i]);
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
    dxgk_syncobj_destroy_device(0); /* the opened synchronization objects no device owns */
    n = dxgk_handle_collect(DXGK_TYPE_ADAPTER, &objs, &hs);
    for (size_t i = 0; i < n; i++) {
        struct dxgk_object *o = dxgk_handle_remove(hs[i], DXGK_TYPE_ADAPTER);
        dxgk_object_put(o);
        dxgk_object_put(objs[i]);
    }
    free(objs);
    free(hs);
    dxgk_keyed_mutexes_destroy_all(); /* the process's own objects (no device) */
    dxgk_handle_table_fini();
}

/* How many adapters the process starts (issue 6: a hybrid system is two adapters in one
 * process, each its own KMD instance and software GPU): WDDM_ADAPTER_COUNT, 1..4; by default
 * one per module WDDM_KMD / WDDM_UMD lists (objects/driver_load.c), else 1. Returns 0 (with a
 * debug line) for a bad value. */
static UINT adapter_count(void)
{
    const char *v = getenv("WDDM_ADAPTER_COUNT");
    if (!v || !*v) {
        UINT listed = dxgk_driver_list_length();
        if (listed > DXGK_MAX_ADAPTERS) {
            dxgk_refuse("WDDM_KMD / WDDM_UMD list %u drivers: at most %u adapters", listed, DXGK_MAX_ADAPTERS);
            return 0;
        }
        return listed ? listed : DXGK_DEFAULT_ADAPTER_COUNT;
    }
    char *end = NULL;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n < 1 || n > DXGK_MAX_ADAPTERS) {
        dxgk_refuse("WDDM_ADAPTER_COUNT=\"%s\": not a number of adapters in 1..%u", v, DXGK_MAX_ADAPTERS);
        return 0;
    }
    return (UINT)n;
}

/* Starts the adapter of index i (LUID luid_base + i), listed in index order (process lock held). */
static NTSTATUS adapter_start_index(UINT i, struct dxgk_adapter **out)
{
    struct dxgk_adapter *a = wddm_calloc(1, sizeof *a);
    if (!a)
        return STATUS_NO_MEMORY;
    dxgk_object_init(&a->obj, DXGK_TYPE_ADAPTER, adapter_release);
    a->up = &upcalls;
    /* Stable across restarts: a LUID from an earlier enumeration still opens it. */
    a->luid.LowPart = process.luid_base + i;
    /* wddm_set_kmd_entry, else the adapter's WDDM_KMD module, else the built-in KMD. */
    PDRIVER_INITIALIZE entry = process.kmd_entry;
    NTSTATUS st = STATUS_SUCCESS;
    if (entry)
        a->kmd_name = entry == SwKmdDriverEntry ? NULL : dxgk_driver_entry_name(entry);
    else
        st = dxgk_driver_kmd_entry(i, SwKmdDriverEntry, &entry, &a->kmd_name);
    if (NT_SUCCESS(st))
        st = dxgk_driver_umd_name(i, &a->umd_name);
    if (NT_SUCCESS(st))
        st = adapter_start(a, entry);
    if (!NT_SUCCESS(st)) {
        free(a->umd_name);
        free(a->kmd_name);
        free(a);
        return st;
    }
    /* Listed in index order: D3DKMTEnumAdapters2 returns adapter 0 first. */
    struct dxgk_adapter **pp = &process.adapters;
    while (*pp && (*pp)->luid.LowPart < a->luid.LowPart)
        pp = &(*pp)->next;
    a->next = *pp;
    *pp = a;
    a->listed = true;
    *out = a; /* the list holds no reference: the creation reference is the caller's */
    return STATUS_SUCCESS;
}

/* Returns the adapters with a reference each, in index order, first starting each one of the
 * configured count that is not running: an adapter stops when its last reference goes (no
 * device, handle or enumeration holds it), and comes back, under the same LUID, at the next
 * enumeration or open, while the others may still be running (a program holding a device on
 * one adapter still sees all of them, as on Windows, where adapters do not come and go with
 * their users). */
static NTSTATUS adapters_acquire(struct dxgk_adapter **out, UINT cap, UINT *count)
{
    NTSTATUS st = STATUS_SUCCESS;
    pthread_mutex_lock(&process.lock);
    if (!process.atexit_registered) {
        atexit(process_teardown);
        process.atexit_registered = true;
    }
    UINT n = 0;
    for (struct dxgk_adapter *a = process.adapters; a && n < cap; a = a->next) {
        /* get-unless-zero: an adapter whose last reference is going is being stopped. */
        UINT r = atomic_load(&a->obj.refs);
        while (r && !atomic_compare_exchange_weak(&a->obj.refs, &r, r + 1))
            ;
        if (!r)
            continue;
        out[n++] = a;
    }
    UINT running = n;
    UINT want = adapter_count();
    if (want)
        dxgk_verifier_start();
    if (n == 0 && want == 0)
        st = STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < want && n < cap && NT_SUCCESS(st); i++) {
        bool up = false;
        for (UINT k = 0; k < running && !up; k++)
            up = out[k]->luid.LowPart == process.luid_base + i;
        if (!up)
            st = adapter_start_index(i, &out[n]);
        if (!up && NT_SUCCESS(st))
            n++;
    }
    if (!NT_SUCCESS(st)) {
        /* All or none: an adapter that failed to start fails the enumeration (a half hybrid
         * system would hide the failure). The ones started here are stopped, and the
         * references taken on the running ones given back. */
        for (UINT i = 0; i < n; i++) {
            pthread_mutex_unlock(&process.lock);
            dxgk_object_put(&out[i]->obj);
            pthread_mutex_lock(&process.lock);
        }
        n = 0;
    }
    pthread_mutex_unlock(&process.lock);
    /* Index order, as the list is (the restarted ones were appended). */
    for (UINT i = 1; i < n; i++)
        for (UINT k = i; k && out[k - 1]->luid.LowPart > out[k]->luid.LowPart; k--) {
            struct dxgk_adapter *t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
        }
    *count = n;
    if (n)
        return STATUS_SUCCESS;
    return NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
}

static NTSTATUS open_handle(struct dxgk_adapter *a, D3DKMT_HANDLE *out)
{
    /* The handle takes over the caller's reference. */
    D3DKMT_HANDLE h = dxgk_handle_insert(&a->obj);
    if (!h) {
        dxgk_object_put(&a->obj);
        return STATUS_NO_MEMORY;
    }
    dxgk_handle_publish(h);
    *out = h;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTEnumAdapters2(D3DKMT_ENUMADAPTERS2 *args)
{
    if (!args || (args->NumAdapters && !args->pAdapters)) {
        dxgk_refuse("D3DKMTEnumAdapters2: NULL arguments or pAdapters NULL with NumAdapters %u",
                    args ? args->NumAdapters : 0);
        return STATUS_INVALID_PARAMETER;
    }
    if (!args->pAdapters) {
        /* The capacity to allocate, not the present count: what Windows answers (Wine win32u
         * d3dkmt tests, run on Windows); no adapter is started for it. */
        args->NumAdapters = D3DKMT_ENUMADAPTERS2_MAX_ADAPTERS;
        return STATUS_SUCCESS;
    }
    struct dxgk_adapter *list[DXGK_MAX_ADAPTERS];
    UINT n = 0;
    NTSTATUS st = adapters_acquire(list, DXGK_MAX_ADAPTERS, &n);
    if (!NT_SUCCESS(st))
        return st;
    if (args->NumAdapters < n) {
        dxgk_refuse("D3DKMTEnumAdapters2: NumAdapters %u too small for %u adapters", args->NumAdapters, n);
        args->NumAdapters = n;
        for (UINT i = 0; i < n; i++)
            dxgk_object_put(&list[i]->obj);
        return STATUS_BUFFER_TOO_SMALL;
    }
    for (UINT i = 0; i < n; i++) {
        D3DKMT_ADAPTERINFO *info = &args->pAdapters[i];
        memset(info, 0, sizeof *info);
        info->AdapterLuid = list[i]->luid;
        st = open_handle(list[i], &info->hAdapter);
        if (!NT_SUCCESS(st)) {
            for (UINT j = 0; j < i; j++)
                dxgk_object_put(dxgk_handle_remove(args->pAdapters[j].hAdapter, DXGK_TYPE_ADAPTER));
            for (UINT j = i + 1; j < n; j++)
                dxgk_object_put(&list[j]->obj);
            return st;
        }
    }
    args->NumAdapters = n;
    return STATUS_SUCCESS;
}

struct dxgk_adapter *dxgk_adapter_from_luid(LUID luid, const char *who, NTSTATUS *st)
{
    struct dxgk_adapter *list[DXGK_MAX_ADAPTERS];
    UINT n = 0;
    *st = adapters_acquire(list, DXGK_MAX_ADAPTERS, &n);
    if (!NT_SUCCESS(*st))
        return NULL;
    struct dxgk_adapter *found = NULL;
    for (UINT i = 0; i < n; i++) {
        if (!found && list[i]->luid.LowPart == luid.LowPart && list[i]->luid.HighPart == luid.HighPart)
            found = list[i];
        else
            dxgk_object_put(&list[i]->obj);
    }
    if (!found) {
        dxgk_refuse("%s: no adapter with LUID %08x:%08x", who, (unsigned)luid.HighPart, (unsigned)luid.LowPart);
        *st = STATUS_INVALID_PARAMETER;
    }
    return found;
}

NTSTATUS APIENTRY D3DKMTOpenAdapterFromLuid(D3DKMT_OPENADAPTERFROMLUID *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTOpenAdapterFromLuid: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st;
    struct dxgk_adapter *found = dxgk_adapter_from_luid(args->AdapterLuid, "D3DKMTOpenAdapterFromLuid", &st);
    return found ? open_handle(found, &args->hAdapter) : st;
}

NTSTATUS APIENTRY D3DKMTCloseAdapter(const D3DKMT_CLOSEADAPTER *args)
{
    struct dxgk_object *o = args ? dxgk_handle_remove(args->hAdapter, DXGK_TYPE_ADAPTER) : NULL;
    if (!o) {
        dxgk_refuse("D3DKMTCloseAdapter: invalid adapter handle 0x%08x", args ? args->hAdapter : 0);
        return STATUS_INVALID_PARAMETER;
    }
    dxgk_object_put(o); /* the last one stops the adapter (devices hold references too) */
    return STATUS_SUCCESS;
}

static void counters_read(const struct dxgk_adapter *a, struct wddm_counters *c)
{
    c->dma_buffers_submitted += atomic_load(&a->counters.dma_buffers_submitted);
    c->paging_buffers_submitted += atomic_load(&a->counters.paging_buffers_submitted);
    c->fences_retired += atomic_load(&a->counters.fences_retired);
    c->allocations_created += atomic_load(&a->counters.allocations_created);
    c->allocations_destroyed += atomic_load(&a->counters.allocations_destroyed);
    c->locks += atomic_load(&a->counters.locks);
    c->lock_waits += atomic_load(&a->counters.lock_waits);
    c->lock_wait_ns += atomic_load(&a->counters.lock_wait_ns);
    c->lock_still_drawing += atomic_load(&a->counters.lock_still_drawing);
    c->renames += atomic_load(&a->counters.renames);
    c->bytes_paged_in += atomic_load(&a->counters.bytes_paged_in);
    c->bytes_paged_out += atomic_load(&a->counters.bytes_paged_out);
    c->evictions += atomic_load(&a->counters.evictions);
    c->context_switches += atomic_load(&a->counters.context_switches);
    c->preemptions += atomic_load(&a->counters.preemptions);
    c->engine_resets += atomic_load(&a->counters.engine_resets);
    c->adapter_resets += atomic_load(&a->counters.adapter_resets);
    c->dma_buffer_splits += atomic_load(&a->counters.dma_buffer_splits);
    c->adapter_stops += atomic_load(&a->counters.adapter_stops);
    c->null_context_switches += atomic_load(&a->counters.null_context_switches);
    c->allocations_purged += atomic_load(&a->counters.allocations_purged);
    c->paging_multipass += atomic_load(&a->counters.paging_multipass);
    c->page_table_updates += atomic_load(&a->counters.page_table_updates);
    c->mid_buffer_preemptions += atomic_load(&a->counters.mid_buffer_preemptions);
    c->context_allocations_created += atomic_load(&a->counters.context_allocations_created);
    c->context_allocation_evictions += atomic_load(&a->counters.context_allocation_evictions);
    c->iommu_pages_mapped += atomic_load(&a->counters.iommu_pages_mapped);
    c->iommu_translations += atomic_load(&a->counters.iommu_translations);
}

NTSTATUS wddm_get_counters(struct wddm_counters *out)
{
    if (!out) {
        dxgk_refuse("wddm_get_counters: NULL output");
        return STATUS_INVALID_PARAMETER;
    }
    pthread_mutex_lock(&process.lock);
    *out = process.stopped;
    for (struct dxgk_adapter *a = process.adapters; a; a = a->next)
        counters_read(a, out);
    pthread_mutex_unlock(&process.lock);
    return STATUS_SUCCESS;
}

static NTSTATUS query_segment_size(struct dxgk_adapter *a, D3DKMT_SEGMENTSIZEINFO *out)
{
    memset(out, 0, sizeof *out);
    for (UINT i = 0; i < a->segment_count; i++) {
        const struct vidmm_segment *s = &a->seg[i];
        if (s->aperture)
            out->SharedSystemMemorySize += s->limit;
        else
            out->DedicatedVideoMemorySize += s->desc.Size;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS query_segments(struct dxgk_adapter *a, D3DKMT_WDDM_SEGMENTS *out)
{
    memset(out, 0, sizeof *out);
    out->NbSegment = a->segment_count;
    pthread_mutex_lock(&a->lock);
    for (UINT i = 0; i < a->segment_count; i++) {
        const struct vidmm_segment *s = &a->seg[i];
        out->Segment[i] = (D3DKMT_WDDM_SEGMENTINFO){
            .SegmentId = s->id, .BaseAddress = (UINT64)s->desc.BaseAddress.QuadPart, .Size = s->desc.Size,
            .CommitLimit = s->desc.CommitLimit, .Flags = s->desc.Flags.Value, .BytesResident = s->bytes_used };
    }
    pthread_mutex_unlock(&a->lock);
    return STATUS_SUCCESS;
}

/* KMTQAITYPE_DRIVERVERSION: the driver model the KMD reported in DXGK_DRIVERCAPS.WDDMVersion
 * (0xMm00 -> M*1000 + m*100). A KMD without a WDDMVersion above 1.0 still has the Windows 7
 * DDI interface (adapter_start requires it): WDDM 1.1. */
static D3DKMT_DRIVERVERSION driver_version(const DXGK_DRIVERCAPS *caps)
{
    UINT v = (UINT)caps->WDDMVersion;
    if (v <= DXGKDDI_WDDMv1)
        return KMT_DRIVERVERSION_WDDM_1_1;
    return (D3DKMT_DRIVERVERSION)(((v >> 12) & 0xf) * 1000 + ((v >> 8) & 0xf) * 100);
}

/* KMTQAITYPE_WDDM_1_2_CAPS: the KMD's own answers (DXGK_DRIVERCAPS); a WDDM 1.x-only model has
 * no CCD or display features to report. */
static void wddm_1_2_caps(const DXGK_DRIVERCAPS *caps, void *out)
{
    D3DKMT_WDDM_1_2_CAPS c;
    memset(&c, 0, sizeof c);
    c.PreemptionCaps = caps->PreemptionCaps;
    c.SupportNonVGA = caps->SupportNonVGA ? 1 : 0;
    c.SupportSmoothRotation = caps->SupportSmoothRotation ? 1 : 0;
    c.SupportPerEngineTDR = caps->SupportPerEngineTDR ? 1 : 0;
    memcpy(out, &c, sizeof c);
}

/* KMTQAITYPE_WDDM_2_0_CAPS: the addressing model the adapter started in, set only with virtual
 * addressing (a WDDM 2.0 KMD without it runs the 1.x model); SupportSurpriseRemoval is the KMD's. */
static void wddm_2_0_caps(const DXGK_DRIVERCAPS *caps, void *out)
{
    D3DKMT_WDDM_2_0_CAPS c = { .Value = 0 };
    const DXGK_VIDMMCAPS *mm = &caps->MemoryManagementCaps;
    c.GpuMmuSupported = mm->VirtualAddressingSupported && mm->GpuMmuSupported;
    c.IoMmuSupported = mm->VirtualAddressingSupported && mm->IoMmuSupported;
    c.SupportSurpriseRemoval = caps->SupportSurpriseRemoval ? 1 : 0;
    memcpy(out, &c, sizeof c);
}

NTSTATUS APIENTRY D3DKMTQueryAdapterInfo(const D3DKMT_QUERYADAPTERINFO *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTQueryAdapterInfo: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTQueryAdapterInfo: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_SUCCESS;
    UINT need = 0;
    switch ((int)args->Type) {
    case KMTQAITYPE_UMDRIVERPRIVATE:
        need = 1;
        break;
    case KMTQAITYPE_UMDRIVERNAME:
        need = sizeof(D3DKMT_UMDFILENAMEINFO);
        break;
    case KMTQAITYPE_GETSEGMENTSIZE:
        need = sizeof(D3DKMT_SEGMENTSIZEINFO);
        break;
    case KMTQAITYPE_CHECKDRIVERUPDATESTATUS:
        need = sizeof(BOOL);
        break;
    case KMTQAITYPE_DRIVERVERSION:
        need = sizeof(D3DKMT_DRIVERVERSION);
        break;
    case KMTQAITYPE_WDDM_1_2_CAPS:
        need = sizeof(D3DKMT_WDDM_1_2_CAPS);
        break;
    case KMTQAITYPE_WDDM_2_0_CAPS:
        need = sizeof(D3DKMT_WDDM_2_0_CAPS);
        break;
    case KMTQAITYPE_WDDM_DRIVERCAPS:
    case KMTQAITYPE_WDDM_DEFAULT_DRIVERCAPS:
        need = sizeof(DXGK_DRIVERCAPS);
        break;
    case KMTQAITYPE_WDDM_SEGMENTS:
        need = sizeof(D3DKMT_WDDM_SEGMENTS);
        break;
    case KMTQAITYPE_WDDM_COUNTERS:
        need = sizeof(struct wddm_counters);
        break;
    case KMTQAITYPE_WDDM_KMDNAME:
        need = sizeof(D3DKMT_WDDM_KMDNAME);
        break;
    default:
        dxgk_refuse("D3DKMTQueryAdapterInfo: unsupported type %d", (int)args->Type);
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    if (!args->pPrivateDriverData || args->PrivateDriverDataSize < need) {
        dxgk_refuse("D3DKMTQueryAdapterInfo: type %d needs a buffer of %u bytes, got %u", (int)args->Type, need,
                    args->pPrivateDriverData ? args->PrivateDriverDataSize : 0);
        st = STATUS_INVALID_PARAMETER;
        goto out;
    }
    switch ((int)args->Type) {
    case KMTQAITYPE_UMDRIVERPRIVATE:
        st = query_kmd(a, DXGKQAITYPE_UMDRIVERPRIVATE, NULL, 0, args->pPrivateDriverData,
                       args->PrivateDriverDataSize);
        if (!NT_SUCCESS(st))
            dxgk_refuse("D3DKMTQueryAdapterInfo: KMD refused UMDRIVERPRIVATE 0x%08x", (unsigned)st);
        break;
    case KMTQAITYPE_UMDRIVERNAME:
        st = dxgk_driver_query_umd_name(a, args->pPrivateDriverData);
        break;
    case KMTQAITYPE_GETSEGMENTSIZE:
        st = query_segment_size(a, args->pPrivateDriverData);
        break;
    case KMTQAITYPE_CHECKDRIVERUPDATESTATUS:
        /* No driver update is ever in progress: the KMD is linked in (Windows answers FALSE
         * outside an update: Wine win32u d3dkmt tests, run on Windows). */
        *(BOOL *)args->pPrivateDriverData = FALSE;
        break;
    case KMTQAITYPE_DRIVERVERSION:
        *(D3DKMT_DRIVERVERSION *)args->pPrivateDriverData = driver_version(&a->caps);
        break;
    case KMTQAITYPE_WDDM_1_2_CAPS:
        wddm_1_2_caps(&a->caps, args->pPrivateDriverData);
        break;
    case KMTQAITYPE_WDDM_2_0_CAPS:
        wddm_2_0_caps(&a->caps, args->pPrivateDriverData);
        break;
    case KMTQAITYPE_WDDM_DRIVERCAPS:
        memcpy(args->pPrivateDriverData, &a->caps, sizeof a->caps);
        break;
    case KMTQAITYPE_WDDM_DEFAULT_DRIVERCAPS:
        /* Optional for a KMD: one that does not answer has no defaults to show. */
        st = query_kmd(a, DXGKQAITYPE_LIBWDDM_DEFAULTCAPS, NULL, 0, args->pPrivateDriverData, sizeof(DXGK_DRIVERCAPS));
        if (!NT_SUCCESS(st))
            st = STATUS_NOT_SUPPORTED;
        break;
    case KMTQAITYPE_WDDM_SEGMENTS:
        st = query_segments(a, args->pPrivateDriverData);
        break;
    case KMTQAITYPE_WDDM_KMDNAME: {
        D3DKMT_WDDM_KMDNAME *out = args->pPrivateDriverData;
        int n = snprintf(out->KmdName, sizeof out->KmdName, "%s", a->kmd_name ? a->kmd_name : "");
        if (n < 0 || (size_t)n >= sizeof out->KmdName)
            st = STATUS_NAME_TOO_LONG;
        break;
    }
    case KMTQAITYPE_WDDM_COUNTERS: {
        struct wddm_counters c;
        memset(&c, 0, sizeof c);
        counters_read(a, &c);
        memcpy(args->pPrivateDriverData, &c, sizeof c);
        break;
    }
    default:
        break;
    }
out:
    dxgk_adapter_put(a);
    return st;
}
