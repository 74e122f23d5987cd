/* The reference kernel-mode driver for the software GPU: its objects and DDI functions.
 *
 * The kernel reaches the KMD only through the DRIVER_INITIALIZATION_DATA that
 * SwKmdDriverEntry registers with DxgkInitialize (docs/architecture.md "The UMD and the KMD are
 * replaceable"). Everything else here is the KMD's own business; tests may include it. */
#ifndef SWKMD_KMD_H
#define SWKMD_KMD_H

#include <wddm/d3dkmddi.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_hw.h"

#include <stdatomic.h>
#include <stdbool.h>

/* The built-in KMD's DriverEntry: the kernel calls it to start the default adapter. */
/* SwKmdDriverEntry is declared in <wddm/wddm.h> (the built-in default KMD). */

/* The DDI table SwKmdDriverEntry registers (also for tests that drive the KMD directly). */
void SwKmdGetDriverInitializationData(DRIVER_INITIALIZATION_DATA *out);

/* ---- Engines, segments and lists the KMD reports ------------------------------------------ */
#define SWKMD_NODE_3D 0u
#define SWKMD_NODE_COPY 1u       /* also the paging node (DXGK_VIDMMCAPS.PagingNode) */
#define SWKMD_NODE_COUNT 2u

#define SWKMD_SEGMENT_LOCAL 1u    /* local video memory, not CPU-visible */
#define SWKMD_SEGMENT_VISIBLE 2u  /* CPU-visible local window */
#define SWKMD_SEGMENT_APERTURE 3u /* aperture over system memory (GART) */
#define SWKMD_SEGMENT_COUNT 3u

#define SWKMD_DMA_BUFFER_SIZE (256u * 1024u)
#define SWKMD_ALLOCATION_LIST_SIZE 1024u
#define SWKMD_PATCH_LIST_SIZE 4096u
#define SWKMD_PAGING_BUFFER_SIZE (64u * 1024u)
/* The most swizzling ranges a caps file may give the KMD (DXGK_DRIVERCAPS.NumberOfSwizzlingRanges;
 * the default is 0: swizzle.c). */
#define SWKMD_MAX_SWIZZLING_RANGES 16u
/* MaximumRenamingListLength of an UPLOAD (DYNAMIC) allocation: at most this many instances,
 * and at most SWKMD_RENAMING_BYTES of them (never fewer than SWKMD_RENAMING_MIN, triple
 * buffering): a deep list for small buffers, whose per-frame overhead it hides, and a short one
 * for large buffers, whose cycle would otherwise leave the CPU caches (W1 of `wddm bench` after
 * its warm-up, 4 MiB: 88-105 us per frame with 3 instances, 100-107 with 4, 130-190 with 8,
 * against a 70 us memcpy; the L3 is 32 MiB). */
#define SWKMD_RENAMING_LIST_LENGTH 64u
#define SWKMD_RENAMING_BYTES (12ull << 20)
#define SWKMD_RENAMING_MIN 3u

/* Object tags: every handle the kernel gives back is checked before use. */
#define SWKMD_MAGIC_ADAPTER 0x4b414441u    /* "ADAK" */
#define SWKMD_MAGIC_DEVICE 0x4b564544u     /* "DEVK" */
#define SWKMD_MAGIC_CONTEXT 0x4b54584eu    /* "NXTK" */
#define SWKMD_MAGIC_ALLOCATION 0x4b4c4c41u /* "ALLK" */
#define SWKMD_MAGIC_CONTEXT_RESOURCE 0x4b585443u /* "CTXK": a context allocation (context_resource.c) */
#define SWKMD_MAGIC_PROCESS 0x4b435250u    /* "PRCK": DxgkDdiCreateProcess (gpummu.c) */

/* GpuMmu model (issue 6, common.md "GpuMmu caps of the reference KMD"): two levels, the root
 * (level 0) resizable up to 2^19 entries, 512-entry leaf tables, both in local memory. */
#define SWKMD_GPUMMU_LEVELS 2u
#define SWKMD_PAGE_TABLE_SEGMENT SWKMD_SEGMENT_LOCAL

typedef VOID (*swkmd_interrupt_line_fn)(PDEVICE_OBJECT PhysicalDeviceObject, ULONG MessageNumber);

struct swkmd_adapter {
    UINT32 magic;
    PDEVICE_OBJECT pdo;                 /* from DxgkDdiAddDevice */
    /* The platform interrupt line the GPU raises: WddmInterruptLineRaise (set in AddDevice). */
    swkmd_interrupt_line_fn raise_line;
    DXGKRNL_INTERFACE dxgk;             /* kept from DxgkDdiStartDevice */
    int started;
    struct swgpu *gpu;
    UINT64 segment_size[SWKMD_SEGMENT_COUNT + 1]; /* by segment id */
    DXGK_DRIVERCAPS caps;               /* set at StartDevice (caps.c), read-only after */
    /* DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD as DxgkCbQueryFeatureSupport answered at
     * StartDevice (seed 002): set there, read-only after. */
    BOOLEAN share_backing_store;
    /* Last fence the ISR reported per node. Written only inside the ISR or a routine run by
     * DxgkCbSynchronizeExecution (serialized with it, docs/semantics.md §8.2); atomic anyway. */
    _Atomic(UINT32) notified_fence[SWKMD_NODE_COUNT];
    /* Last SubmissionFenceId put in each node's ring (SubmitCommand; DxgkDdiResetFromTimeout
     * completes up to it, DxgkDdiQueryEngineStatus tells "has work" from it). */
    _Atomic(UINT32) submitted_fence[SWKMD_NODE_COUNT];
    /* Nonzero while DxgkDdiResetEngine runs on the node: the ISR leaves the node alone (the
     * kernel ignores the engine's interrupts during the reset, docs/semantics.md §8.3). */
    atomic_int resetting[SWKMD_NODE_COUNT];
    /* swgpu_engine_progress + 1 at the node's previous DxgkDdiQueryEngineStatus (0: none). */
    _Atomic(UINT64) status_progress[SWKMD_NODE_COUNT];
    /* The GpuMmu model is on (issue 6): the caps say WDDMVersion >= DXGKDDI_WDDMv2,
     * VirtualAddressingSupported and GpuMmuSupported. Set at StartDevice, read-only after. */
    bool gpummu;
    /* The IoMmu model is on: WDDMVersion >= DXGKDDI_WDDMv2, VirtualAddressingSupported and
     * IoMmuSupported. The GPU reaches memory through the platform's IOMMU by the PASID of the
     * device's process (DXGKARG_CREATEDEVICE.Pasid). Set at StartDevice, read-only after. */
    bool iommu;
    /* Inside DxgkDdiBeginExclusiveAccess ... EndExclusiveAccess (exclusive_access.c). */
    atomic_int exclusive;
    /* Swizzling ranges (swizzle.c), the first caps.NumberOfSwizzlingRanges used. The kernel
     * serialises the acquires, the releases and the paging builds that read them (its adapter
     * lock), as Windows serialises them. */
    struct swkmd_swizzle_range {
        UINT8 *window;                   /* the CPU's view (CPUTranslatedAddress); NULL: free */
        SIZE_T size;                     /* bytes of the allocation it shows */
        struct swkmd_allocation *alloc;  /* the allocation it shows, wherever it lies */
    } swizzle[SWKMD_MAX_SWIZZLING_RANGES];
};

/* gpummu.c: whether the caps select the GpuMmu model (StartDevice). */
bool swkmd_caps_gpummu(const DXGK_DRIVERCAPS *caps);
bool swkmd_caps_iommu(const DXGK_DRIVERCAPS *caps);
/* QueryAdapterInfo DXGKQAITYPE_GPUMMUCAPS / DXGKQAITYPE_PAGETABLELEVELDESC. */
NTSTATUS swkmd_query_gpummu_caps(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q);
NTSTATUS swkmd_query_page_table_level(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q);
/* page_table.c: DXGK_OPERATION_UPDATE_PAGE_TABLE and DXGK_OPERATION_FLUSH_TLB. */
NTSTATUS swkmd_build_update_page_table(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a);
NTSTATUS swkmd_build_flush_tlb(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a);
/* The GPU's own entry for one DXGK_PTE (swgpu_isa.h format); -1 for an entry naming a segment
 * this GPU does not have. */
int swkmd_pte_to_gpu(const DXGK_PTE *pte, UINT32 level, UINT64 *out);

/* A process of the GpuMmu model (DxgkDdiCreateProcess): the KMD's handle comes back in
 * UpdatePageTable.hProcess / FlushTlb.hProcess. This GPU keeps no per-process state (the root
 * page table address names the address space), so it only identifies. */
struct swkmd_process {
    UINT32 magic;
    HANDLE kernel_process;           /* DXGKARG_CREATEPROCESS.hDxgkProcess */
    DXGK_CREATEPROCESSFLAGS flags;
};
struct swkmd_process *swkmd_process_from(HANDLE h);

/* caps.c: the adapter's DXGK_DRIVERCAPS, defaults then the WDDM_KMD_CAPS file (StartDevice). */
NTSTATUS swkmd_caps_init(struct swkmd_adapter *a);

struct swkmd_context_resource;

struct swkmd_device {
    UINT32 magic;
    struct swkmd_adapter *adapter;
    HANDLE kernel_handle;
    DXGK_CREATEDEVICEFLAGS flags;
    struct swkmd_context_resource *page_tables; /* device context allocation (non-system only) */
    ULONG pasid;                                /* IoMmu: DXGKARG_CREATEDEVICE.Pasid, its process's */
};

struct swkmd_context {
    UINT32 magic;
    struct swkmd_device *device;
    HANDLE kernel_handle;
    UINT32 node;
    DXGK_CREATECONTEXTFLAGS flags;
    struct swkmd_context_resource *save_area;   /* GPU context allocation (non-system only) */
    UINT64 gpu_id;         /* names the context to the GPU (swgpu_submission.context_id):
                              unique for the adapter's lifetime, never 0 */
    /* DxgkDdiSetRootPageTable (GpuMmu): the root of the context's address space, 0 = none yet.
     * Written by the kernel before the context's first submission and when the root moves (it
     * does not submit for the context meanwhile); read by SubmitCommandVirtual on node threads. */
    _Atomic(UINT64) root_page_table;
    _Atomic(UINT32) root_entries;
};

/* Context allocations of the reference KMD (context_resource.c, seed 000): a context save area
 * per non-system context, page-table storage per non-system device. Both are created so that
 * INIT_CONTEXT_RESOURCE gets a kernel VirtualAddress (CpuVisible + Protected, aperture only:
 * docs/semantics.md §1.3), through which the KMD writes the header below. */
#define SWKMD_CONTEXT_RESOURCE_SIZE 4096u
#define SWKMD_CSA_HEADER_MAGIC 0x30415343u        /* "CSA0" */
#define SWKMD_PAGE_TABLE_HEADER_MAGIC 0x30535450u /* "PTS0" */
struct swkmd_context_resource_header {
    UINT32 magic;          /* SWKMD_CSA_HEADER_MAGIC or SWKMD_PAGE_TABLE_HEADER_MAGIC */
    UINT32 size;           /* bytes of the allocation */
    UINT64 owner;          /* the kernel's hContext / hDevice it belongs to */
    UINT64 init_count;     /* INIT_CONTEXT_RESOURCE operations seen (must stay 1) */
};
/* Where in a context save area the GPU keeps its struct swgpu_csa_record (the state of a
 * buffer preempted in the middle, issue 4): a fixed offset after the header, inside the
 * 4 KiB page (so the record never straddles two aperture pages). */
#define SWKMD_CSA_RECORD_OFFSET 64u
_Static_assert(sizeof(struct swkmd_context_resource_header) <= SWKMD_CSA_RECORD_OFFSET,
               "the save record follows the header");
_Static_assert(SWKMD_CSA_RECORD_OFFSET + sizeof(struct swgpu_csa_record) <= SWKMD_CONTEXT_RESOURCE_SIZE,
               "the save record fits in the save area");
/* Where the GPU keeps the context's registers (struct swgpu_context_state, issue 20 §1): saved
 * there when the engine switches away from the context, loaded from there when it switches
 * back. INIT_CONTEXT_RESOURCE zeroes it: a fresh context starts from zeroed registers. */
#define SWKMD_CSA_STATE_OFFSET 128u
_Static_assert(SWKMD_CSA_RECORD_OFFSET + sizeof(struct swgpu_csa_record) <= SWKMD_CSA_STATE_OFFSET,
               "the register state follows the save record");
_Static_assert(SWKMD_CSA_STATE_OFFSET + sizeof(struct swgpu_context_state) <= SWKMD_CONTEXT_RESOURCE_SIZE,
               "the register state fits in the save area");
struct swkmd_context_resource {
    UINT32 magic;          /* SWKMD_MAGIC_CONTEXT_RESOURCE */
    UINT32 header_magic;
    HANDLE owner;          /* the kernel's handle of the context or device */
    HANDLE kernel_allocation; /* DXGKARGCB_CREATECONTEXTALLOCATION.hAllocation */
    UINT64 init_count;     /* INIT_CONTEXT_RESOURCE built for it */
    _Atomic UINT32 mapped; /* a MAP_APERTURE_SEGMENT of it was built and no UNMAP since (the
                              paging builds run under the kernel's adapter lock; SubmitCommand
                              reads it from node threads) */
    _Atomic UINT64 gpu_addr; /* its aperture address while mapped, 0 when not (same rules) */
};
/* Seed 000 check on the KMD's side: DxgkDdiSubmitCommand of a context whose save area or whose
 * device's page tables are not mapped counts here (and prints a line). Tests read it. */
unsigned long long swkmd_context_resource_violations(void);
/* MAP (gpu_addr = its aperture address) or UNMAP (gpu_addr 0) of an allocation built. */
void swkmd_context_resource_track_map(HANDLE hAllocation, UINT64 gpu_addr);
bool swkmd_context_resources_mapped(HANDLE hContext);
/* What a submission of the context tells the GPU about it: the save record's GPU address
 * (csa_addr), its register state's (state_addr), both 0 while its save area is not mapped or for
 * a system context, and its context_id (0: none, the paging buffers' system context). */
void swkmd_context_describe(HANDLE hContext, struct swgpu_submission *s);
NTSTATUS swkmd_context_resource_create(struct swkmd_adapter *a, HANDLE kernel_device, HANDLE kernel_context,
                                       struct swkmd_context_resource **out);
void swkmd_context_resource_destroy(struct swkmd_adapter *a, struct swkmd_context_resource *r);
NTSTATUS swkmd_build_init_context_resource(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a);

struct swkmd_allocation {
    UINT32 magic;
    UINT64 size;                        /* DXGK_ALLOCATIONINFO.Size (page-rounded) */
    UINT32 kind;                        /* enum swgpu_alloc_kind */
    struct swgpu_alloc_private priv;    /* the UMD's description, kept */
    BOOLEAN share_backing_store;        /* Flags2.ShareBackingStoreWithKmd was set; immutable */
    /* A cross-adapter allocation another adapter created, opened on this one: made by
     * DxgkDdiOpenAllocation from the creator's private data, freed by DxgkDdiCloseAllocation
     * (no DxgkDdiDestroyAllocation reaches this adapter for it; issue 6). Immutable. */
    BOOLEAN opened_foreign;
    /* The kernel's address of the backing store (DxgkDdiSetAllocationBackingStore, once, during
     * D3DKMTCreateAllocation; seed 002): valid until DxgkDdiDestroyAllocation. Written before
     * D3DKMTCreateAllocation returns the handle, read-only after. */
    UINT8 *backing;
    /* Where its content lies, as the paging operations built so far left it (swizzle.c): bytes
     * the CPU reaches at `host` (a memory segment), or the system pages of `pfn` (its backing
     * store, also when mapped into the aperture); both NULL: nowhere known yet. Written and
     * read under the kernel's adapter lock (paging builds, swizzling-range DDIs). */
    struct swkmd_place {
        UINT8 *host;
        const PFN_NUMBER *pfn;
    } place;
};

/* Handle checks: NULL unless the handle is a live object of that type. */
struct swkmd_adapter *swkmd_adapter_from(HANDLE h);
struct swkmd_device *swkmd_device_from(HANDLE h);
struct swkmd_context *swkmd_context_from(HANDLE h);
struct swkmd_allocation *swkmd_allocation_from(HANDLE h);

/* Environment-sized segment bytes (WDDM_SEGMENT_*_MB, docs/architecture.md). */
UINT64 swkmd_env_megabytes(const char *name, UINT64 default_mb);

/* Test seam: replaces the interrupt line the GPU raises (default WddmInterruptLineRaise). Must
 * be called between AddDevice and StartDevice. */
void swkmd_adapter_set_interrupt_line(struct swkmd_adapter *adapter, swkmd_interrupt_line_fn fn);

/* Checks the engines' fence registers and reports every advance (ISR body). TRUE if any. */
BOOLEAN swkmd_report_completed_fences(struct swkmd_adapter *adapter);

/* ---- DDIs ---------------------------------------------------------------------------------- */
NTSTATUS APIENTRY SwKmdAddDevice(const PDEVICE_OBJECT PhysicalDeviceObject, PVOID *MiniportDeviceContext);
NTSTATUS APIENTRY SwKmdStartDevice(const PVOID MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                                   DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                                   ULONG *NumberOfChildren);
NTSTATUS APIENTRY SwKmdStopDevice(const PVOID MiniportDeviceContext);
NTSTATUS APIENTRY SwKmdRemoveDevice(const PVOID MiniportDeviceContext);
BOOLEAN APIENTRY SwKmdInterruptRoutine(const PVOID MiniportDeviceContext, ULONG MessageNumber);
VOID APIENTRY SwKmdDpcRoutine(const PVOID MiniportDeviceContext);
NTSTATUS APIENTRY SwKmdQueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
NTSTATUS APIENTRY SwKmdCreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice);
NTSTATUS APIENTRY SwKmdDestroyDevice(const HANDLE hDevice);
NTSTATUS APIENTRY SwKmdCreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext);
NTSTATUS APIENTRY SwKmdDestroyContext(const HANDLE hContext);
NTSTATUS APIENTRY SwKmdCreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *pCreateAllocation);
/* allocation.c: the largest allocation of `kind` (SWGPU_ALLOC_GPU_ONLY/UPLOAD/READBACK; sampled:
 * a GPU_ONLY sampled texture) that one of the segments CreateAllocation describes it with can
 * hold; reported to the UMD (caps.c). */
UINT64 swkmd_kind_max_bytes(const struct swkmd_adapter *a, UINT32 kind, bool sampled);
NTSTATUS APIENTRY SwKmdDestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *pDestroyAllocation);
NTSTATUS APIENTRY SwKmdOpenAllocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *pOpenAllocation);
NTSTATUS APIENTRY SwKmdCloseAllocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *pCloseAllocation);
NTSTATUS APIENTRY SwKmdGetStandardAllocationDriverData(const HANDLE hAdapter,
                                                       DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA *pGetStandardAllocationDriverData);
NTSTATUS APIENTRY SwKmdRender(const HANDLE hContext, DXGKARG_RENDER *pRender);
NTSTATUS APIENTRY SwKmdPatch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch);
NTSTATUS APIENTRY SwKmdSubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *pSubmitCommand);
NTSTATUS APIENTRY SwKmdBuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer);
/* Swizzling ranges (swizzle.c). */
NTSTATUS APIENTRY SwKmdAcquireSwizzlingRange(const HANDLE hAdapter, DXGKARG_ACQUIRESWIZZLINGRANGE *pArgs);
NTSTATUS APIENTRY SwKmdReleaseSwizzlingRange(const HANDLE hAdapter, const DXGKARG_RELEASESWIZZLINGRANGE *pArgs);
/* After a paging operation was built: where the allocation it names now lies. */
void swkmd_swizzle_track(struct swkmd_adapter *ad, const DXGKARG_BUILDPAGINGBUFFER *a);
/* Whether range `id` is held for the KMD allocation `h` (a SPECIAL_LOCK_TRANSFER's check). */
bool swkmd_swizzle_range_holds(const struct swkmd_adapter *ad, UINT id, HANDLE h);
/* Whether any range is held for `h` (a plain TRANSFER of it would leave that range behind). */
bool swkmd_swizzle_shown(const struct swkmd_adapter *ad, HANDLE h);
NTSTATUS APIENTRY SwKmdQueryCurrentFence(const HANDLE hAdapter, DXGKARG_QUERYCURRENTFENCE *pCurrentFence);
NTSTATUS APIENTRY SwKmdSetAllocationBackingStore(const HANDLE hAdapter, const DXGKARG_SETALLOCATIONBACKINGSTORE *pArgs);
NTSTATUS APIENTRY SwKmdEscape(const HANDLE hAdapter, const DXGKARG_ESCAPE *pEscape);
/* Preemption and recovery (preempt.c, reset.c; docs/semantics.md §8.2 invariant 4, §8.3). */
NTSTATUS APIENTRY SwKmdPreemptCommand(const HANDLE hAdapter, const DXGKARG_PREEMPTCOMMAND *pPreemptCommand);
NTSTATUS APIENTRY SwKmdResetFromTimeout(const PVOID MiniportDeviceContext);
NTSTATUS APIENTRY SwKmdSetPowerState(const PVOID MiniportDeviceContext, ULONG DeviceUid,
                                     DEVICE_POWER_STATE DevicePowerState, POWER_ACTION ActionType);
NTSTATUS APIENTRY SwKmdRestartFromTimeout(const PVOID MiniportDeviceContext);
NTSTATUS APIENTRY SwKmdQueryDependentEngineGroup(const HANDLE hAdapter, DXGKARG_QUERYDEPENDENTENGINEGROUP *pArgs);
NTSTATUS APIENTRY SwKmdQueryEngineStatus(const HANDLE hAdapter, DXGKARG_QUERYENGINESTATUS *pArgs);
NTSTATUS APIENTRY SwKmdResetEngine(const HANDLE hAdapter, DXGKARG_RESETENGINE *pArgs);
/* IOMMU domain switches (exclusive_access.c): the window, and whether a DDI called inside it is
 * refused (true, after a line). */
NTSTATUS APIENTRY SwKmdBeginExclusiveAccess(const HANDLE hAdapter, DXGKARG_BEGINEXCLUSIVEACCESS *pArgs);
NTSTATUS APIENTRY SwKmdEndExclusiveAccess(const HANDLE hAdapter, DXGKARG_ENDEXCLUSIVEACCESS *pArgs);
bool swkmd_exclusive_refuses(struct swkmd_adapter *ad, const char *ddi);
/* GpuMmu model (gpummu.c, submit.c; issue 6). */
VOID APIENTRY SwKmdSetRootPageTable(const HANDLE hAdapter, const DXGKARG_SETROOTPAGETABLE *pSetPageTable);
SIZE_T APIENTRY SwKmdGetRootPageTableSize(const HANDLE hAdapter, DXGKARG_GETROOTPAGETABLESIZE *pArgs);
NTSTATUS APIENTRY SwKmdCreateProcess(const PVOID MiniportDeviceContext, DXGKARG_CREATEPROCESS *pArgs);
NTSTATUS APIENTRY SwKmdDestroyProcess(const PVOID MiniportDeviceContext, HANDLE KmdProcessHandle);
NTSTATUS APIENTRY SwKmdSubmitCommandVirtual(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDVIRTUAL *pArgs);

#endif /* SWKMD_KMD_H */
