/* Adapter lifetime: DxgkDdiAddDevice / StartDevice / StopDevice / RemoveDevice. StartDevice
 * builds the software GPU with the segment layout of docs/architecture.md and wires its
 * interrupt line to the platform (WddmInterruptLineRaise). */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdlib.h>
#include <string.h>

struct swkmd_adapter *swkmd_adapter_from(HANDLE h)
{
    struct swkmd_adapter *a = h;
    return (a && a->magic == SWKMD_MAGIC_ADAPTER) ? a : NULL;
}

UINT64 swkmd_env_megabytes(const char *name, UINT64 default_mb)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return default_mb;
    char *end = NULL;
    unsigned long long v = strtoull(e, &end, 10);
    /* A size the segment id field cannot address, zero, or garbage keeps the default. */
    if (!end || *end || v == 0 || v > (1ull << 20)) {
        wddm_debug("kmd", "%s=%s is not a size in MiB; using %llu", name, e, (unsigned long long)default_mb);
        return default_mb;
    }
    return v;
}

void swkmd_adapter_set_interrupt_line(struct swkmd_adapter *adapter, swkmd_interrupt_line_fn fn)
{
    if (adapter)
        adapter->raise_line = fn;
}

NTSTATUS APIENTRY SwKmdAddDevice(const PDEVICE_OBJECT PhysicalDeviceObject, PVOID *MiniportDeviceContext)
{
    if (!MiniportDeviceContext)
        return STATUS_INVALID_PARAMETER;
    struct swkmd_adapter *a = wddm_calloc(1, sizeof(*a));
    if (!a)
        return STATUS_NO_MEMORY;
    a->magic = SWKMD_MAGIC_ADAPTER;
    a->pdo = PhysicalDeviceObject;
    a->raise_line = WddmInterruptLineRaise;
    *MiniportDeviceContext = a;
    return STATUS_SUCCESS;
}

/* The GPU's interrupt line: the engine thread raises the platform line of our device; the
 * kernel then runs DxgkDdiInterruptRoutine serialized (docs/semantics.md §8.2). */
static void gpu_interrupt(void *context)
{
    struct swkmd_adapter *a = context;
    a->raise_line(a->pdo, 0);
}

/* The GPU's DMA requests in the IoMmu model go through the platform's IOMMU, which only the
 * kernel programs: our device is the PDO it was added with. */
static int gpu_iommu(void *context, UINT32 pasid, UINT64 va, int write, UINT64 *phys)
{
    struct swkmd_adapter *a = context;
    NTSTATUS st = WddmIoMmuTranslate(a->pdo, pasid, va, write ? 1 : 0, phys);
    return NT_SUCCESS(st) ? 0 : st == STATUS_ACCESS_DENIED ? -2 : -1;
}

NTSTATUS APIENTRY SwKmdStartDevice(const PVOID MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                                   DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                                   ULONG *NumberOfChildren)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a || !DxgkInterface || !NumberOfVideoPresentSources || !NumberOfChildren)
        return STATUS_INVALID_PARAMETER;
    if (a->started)
        return STATUS_INVALID_PARAMETER;
    a->dxgk = *DxgkInterface;
    /* Seed 002: the feature is usable only if the query succeeds and says Enabled; the answer
     * is remembered for every DxgkDdiCreateAllocation. A kernel without the callback: off. */
    a->share_backing_store = FALSE;
    if (a->dxgk.DxgkCbQueryFeatureSupport) {
        DXGKARGCB_QUERYFEATURESUPPORT q = { .DeviceHandle = a->dxgk.DeviceHandle,
                                            .FeatureId = DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD,
                                            .DriverSupportState = DXGK_FEATURE_SUPPORT_STABLE };
        if (NT_SUCCESS(a->dxgk.DxgkCbQueryFeatureSupport(&q)))
            a->share_backing_store = q.Enabled ? TRUE : FALSE;
    }

    struct swgpu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.segment_count = SWKMD_SEGMENT_COUNT;
    cfg.segments[SWKMD_SEGMENT_LOCAL - 1].size = swkmd_env_megabytes("WDDM_SEGMENT_LOCAL_MB", 256) << 20;
    cfg.segments[SWKMD_SEGMENT_LOCAL - 1].kind = SWGPU_SEGMENT_MEMORY;
    cfg.segments[SWKMD_SEGMENT_VISIBLE - 1].size = swkmd_env_megabytes("WDDM_SEGMENT_VISIBLE_MB", 64) << 20;
    cfg.segments[SWKMD_SEGMENT_VISIBLE - 1].kind = SWGPU_SEGMENT_MEMORY;
    cfg.segments[SWKMD_SEGMENT_APERTURE - 1].size = swkmd_env_megabytes("WDDM_SEGMENT_APERTURE_MB", 1024) << 20;
    cfg.segments[SWKMD_SEGMENT_APERTURE - 1].kind = SWGPU_SEGMENT_APERTURE;
    cfg.engine_count = SWKMD_NODE_COUNT;
    cfg.interrupt = a->raise_line ? gpu_interrupt : NULL;
    cfg.interrupt_context = a;
    for (UINT32 id = 1; id <= SWKMD_SEGMENT_COUNT; id++)
        a->segment_size[id] = cfg.segments[id - 1].size;
    for (UINT32 n = 0; n < SWKMD_NODE_COUNT; n++)
        atomic_store(&a->notified_fence[n], 0);
    NTSTATUS st = swkmd_caps_init(a);
    if (!NT_SUCCESS(st))
        return st; /* nothing built yet */
    a->gpummu = swkmd_caps_gpummu(&a->caps);
    a->iommu = swkmd_caps_iommu(&a->caps);
    /* The device sits behind the platform's IOMMU in the IoMmu model, and when it may be isolated
     * (IoMmuSecureModeSupported: its physical accesses go through the IOMMU then). */
    if (a->iommu || a->caps.MemoryManagementCaps.IoMmuSecureModeSupported) {
        cfg.iommu = gpu_iommu;
        cfg.iommu_context = a;
    }

    a->gpu = swgpu_create(&cfg);
    if (!a->gpu) {
        wddm_debug("kmd", "StartDevice: the software GPU could not be created (segment mappings)");
        return STATUS_NO_MEMORY;
    }
    a->started = 1;
    *NumberOfVideoPresentSources = 0; /* render-only adapter: no display */
    *NumberOfChildren = 0;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdStopDevice(const PVOID MiniportDeviceContext)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    /* Joins the engine threads: no interrupt is raised after this returns. */
    swgpu_destroy(a->gpu);
    a->gpu = NULL;
    a->started = 0;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdRemoveDevice(const PVOID MiniportDeviceContext)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    if (a->gpu)
        SwKmdStopDevice(a);
    a->magic = 0;
    free(a);
    return STATUS_SUCCESS;
}
