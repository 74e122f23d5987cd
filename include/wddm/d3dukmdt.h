/* Types shared by user mode and kernel mode (the WDK's d3dukmdt.h subset).
 * Names, bit positions and values are the WDK's (docs/semantics.md §3, §8.5, §9). */
#ifndef WDDM_D3DUKMDT_H
#define WDDM_D3DUKMDT_H

#include <wddm/wintypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel handles: typed and generation-checked by dxgkrnl (docs/architecture.md "Errors and bad input"). */
typedef UINT D3DKMT_HANDLE;
typedef UINT64 D3DGPU_VIRTUAL_ADDRESS;
typedef UINT64 D3DGPU_PHYSICAL_ADDRESS;
typedef UINT D3DDDI_VIDEO_PRESENT_SOURCE_ID;
typedef UINT D3DDDI_VIDEO_PRESENT_TARGET_ID;
#define D3DDDI_ID_NOTAPPLICABLE 0xFFFFFFFFu

/* D3DDDICB_LOCKFLAGS: bit n = n-th field (docs/semantics.md §3.2). */
typedef struct _D3DDDICB_LOCKFLAGS {
    union {
        struct {
            UINT ReadOnly : 1;            /* 0x001 */
            UINT WriteOnly : 1;           /* 0x002 */
            UINT DonotWait : 1;           /* 0x004 */
            UINT IgnoreSync : 1;          /* 0x008 */
            UINT LockEntire : 1;          /* 0x010 */
            UINT DonotEvict : 1;          /* 0x020 */
            UINT AcquireAperture : 1;     /* 0x040 */
            UINT Discard : 1;             /* 0x080 */
            UINT NoExistingReference : 1; /* 0x100 */
            UINT UseAlternateVA : 1;      /* 0x200 */
            UINT IgnoreReadSync : 1;      /* 0x400 */
            UINT Reserved : 21;
        };
        UINT Value;
    };
} D3DDDICB_LOCKFLAGS;

typedef struct _D3DDDICB_LOCK2FLAGS {
    union { struct { UINT Reserved : 32; }; UINT Value; };
} D3DDDICB_LOCK2FLAGS;

/* D3DDDI_ALLOCATIONLIST: one entry per allocation a command buffer references (§9.1). */
typedef struct _D3DDDI_ALLOCATIONLIST {
    D3DKMT_HANDLE hAllocation;
    union {
        struct {
            UINT WriteOperation : 1;      /* 0x1 */
            UINT DoNotRetireInstance : 1; /* 0x2 */
            UINT OfferPriority : 3;       /* bits 2-4 */
            UINT Reserved : 27;
        };
        UINT Value;
    };
} D3DDDI_ALLOCATIONLIST;

/* D3DDDI_PATCHLOCATIONLIST: where in the command buffer an allocation's address goes. */
typedef struct _D3DDDI_PATCHLOCATIONLIST {
    UINT AllocationIndex;   /* index into the allocation list */
    union {
        struct { UINT SlotId : 24; UINT Reserved : 8; };
        UINT Value;
    };
    UINT DriverId;
    UINT AllocationOffset;  /* byte offset inside the allocation */
    UINT PatchOffset;       /* byte offset of the address field in the command buffer */
    UINT SplitOffset;
} D3DDDI_PATCHLOCATIONLIST;

/* D3DDDI_SEGMENTPREFERENCE: five ordered 5-bit segment ids (0 = no further preference). */
typedef struct _D3DDDI_SEGMENTPREFERENCE {
    union {
        struct {
            UINT SegmentId0 : 5; UINT Direction0 : 1;
            UINT SegmentId1 : 5; UINT Direction1 : 1;
            UINT SegmentId2 : 5; UINT Direction2 : 1;
            UINT SegmentId3 : 5; UINT Direction3 : 1;
            UINT SegmentId4 : 5; UINT Direction4 : 1;
            UINT Reserved : 2;
        };
        UINT Value;
    };
} D3DDDI_SEGMENTPREFERENCE;

/* Allocation priorities (§9.4). */
#define D3DDDI_ALLOCATIONPRIORITY_MINIMUM 0x28000000u
#define D3DDDI_ALLOCATIONPRIORITY_LOW     0x50000000u
#define D3DDDI_ALLOCATIONPRIORITY_NORMAL  0x78000000u
#define D3DDDI_ALLOCATIONPRIORITY_HIGH    0xA0000000u
#define D3DDDI_ALLOCATIONPRIORITY_MAXIMUM 0xC8000000u

/* MakeResident / Evict (docs/semantics.md §9.2). */
typedef struct _D3DDDI_MAKERESIDENT_FLAGS {
    union {
        struct {
            UINT CantTrimFurther : 1; /* 0x1 */
            UINT MustSucceed : 1;     /* 0x2, requires CantTrimFurther */
            UINT Reserved : 30;
        };
        UINT Value;
    };
} D3DDDI_MAKERESIDENT_FLAGS;

typedef struct _D3DDDI_MAKERESIDENT {
    D3DKMT_HANDLE hPagingQueue;       /* in */
    UINT NumAllocations;              /* in: entries; out: how many were made resident */
    const D3DKMT_HANDLE *AllocationList;
    const UINT *PriorityList;         /* ignored, may be NULL */
    D3DDDI_MAKERESIDENT_FLAGS Flags;
    UINT64 PagingFenceValue;          /* out: wait for it before GPU use (pending paging) */
    UINT64 NumBytesToTrim;            /* out: on STATUS_NO_MEMORY, bytes over what fits */
} D3DDDI_MAKERESIDENT;

/* Why a process is asked to trim (D3DKMT_TRIMNOTIFICATION). */
typedef struct _D3DDDI_TRIMRESIDENCYSET_FLAGS {
    union {
        struct {
            UINT PeriodicTrim : 1;            /* 0x1 */
            UINT RestartPeriodicTrim : 1;     /* 0x2 */
            UINT TrimToBudget : 1;            /* 0x4: NumBytesToTrim says how much */
            UINT Reserved : 29;
        };
        UINT Value;
    };
} D3DDDI_TRIMRESIDENCYSET_FLAGS;

/* D3DKMTReclaimAllocations2's answer per entry (offers, vidmm/offer.c). */
typedef enum _D3DDDI_RECLAIM_RESULT {
    D3DDDI_RECLAIM_RESULT_OK = 0,
    D3DDDI_RECLAIM_RESULT_DISCARDED = 1,
    D3DDDI_RECLAIM_RESULT_NOT_COMMITTED = 2,
} D3DDDI_RECLAIM_RESULT;

typedef struct _D3DDDI_EVICT_FLAGS {
    union {
        struct {
            UINT EvictOnlyIfNecessary : 1; /* 0x1 */
            UINT NotWrittenTo : 1;         /* 0x2 */
            UINT Reserved : 30;
        };
        UINT Value;
    };
} D3DDDI_EVICT_FLAGS;

/* D3DDDI_ALLOCATIONINFO: what the UMD asks pfnAllocateCb for, per allocation (§3.5). */
typedef struct _D3DDDI_ALLOCATIONINFO {
    D3DKMT_HANDLE hAllocation;          /* out */
    const VOID *pSystemMem;             /* in: preallocated system memory or NULL */
    VOID *pPrivateDriverData;           /* in: read by DxgkDdiCreateAllocation */
    UINT PrivateDriverDataSize;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    union {
        struct { UINT Primary : 1; UINT Stereo : 1; UINT Reserved : 30; };
        UINT Value;
    } Flags;
} D3DDDI_ALLOCATIONINFO;

/* D3DDDI_ALLOCATIONINFO2 (WDK, Windows 7 and later): D3DKMTCreateAllocation2's, with the GPU
 * virtual address (0 here: the kernel maps nothing at creation) and a priority. */
typedef struct _D3DDDI_ALLOCATIONINFO2 {
    D3DKMT_HANDLE hAllocation;          /* out */
    union {
        HANDLE hSection;
        const VOID *pSystemMem;         /* in: preallocated system memory or NULL */
    };
    VOID *pPrivateDriverData;           /* in: read by DxgkDdiCreateAllocation */
    UINT PrivateDriverDataSize;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    union {
        struct { UINT Primary : 1; UINT Stereo : 1; UINT OverridePriority : 1; UINT Reserved : 29; };
        UINT Value;
    } Flags;
    D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress; /* out */
    union {
        UINT Priority;
        ULONG_PTR Unused;
    };
    ULONG_PTR Reserved[5];
} D3DDDI_ALLOCATIONINFO2;

/* D3DDDI_OPENALLOCATIONINFO: one allocation of a shared resource opened with
 * D3DKMTOpenResource (the opener's handle and the creator's private driver data). */
typedef struct _D3DDDI_OPENALLOCATIONINFO {
    D3DKMT_HANDLE hAllocation;          /* out */
    const VOID *pPrivateDriverData;     /* out: inside pTotalPrivateDriverDataBuffer */
    UINT PrivateDriverDataSize;         /* out */
} D3DDDI_OPENALLOCATIONINFO;

/* D3DDDI_OPENALLOCATIONINFO2 (WDK): D3DKMTOpenResource2's, with the GPU virtual address. */
typedef struct _D3DDDI_OPENALLOCATIONINFO2 {
    D3DKMT_HANDLE hAllocation;          /* out */
    const VOID *pPrivateDriverData;     /* out: inside pTotalPrivateDriverDataBuffer */
    UINT PrivateDriverDataSize;         /* out */
    D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress; /* out: 0 (nothing mapped at open) */
    ULONG_PTR Reserved[6];
} D3DDDI_OPENALLOCATIONINFO2;

/* Synchronization objects (§8.5). */
typedef enum _D3DDDI_SYNCHRONIZATIONOBJECT_TYPE {
    D3DDDI_SYNCHRONIZATION_MUTEX = 1,
    D3DDDI_SEMAPHORE = 2,
    D3DDDI_FENCE = 3,
    D3DDDI_CPU_NOTIFICATION = 4,
    D3DDDI_MONITORED_FENCE = 5,
    D3DDDI_PERIODIC_MONITORED_FENCE = 6,
    D3DDDI_NATIVE_FENCE = 7,
} D3DDDI_SYNCHRONIZATIONOBJECT_TYPE;

#define D3DDDI_MAX_OBJECT_WAITED_ON 32   /* objects in one wait */
#define D3DDDI_MAX_OBJECT_SIGNALED 32    /* objects in one signal */

/* D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS (docs/semantics.md §8.5; bit positions as in the WDK). */
typedef struct _D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS {
    union {
        struct {
            UINT Shared : 1;                   /* 0x1 */
            UINT NtSecuritySharing : 1;        /* 0x2 */
            UINT CrossAdapter : 1;             /* 0x4 */
            UINT TopOfPipeline : 1;            /* 0x8: monitored fences only */
            UINT NoSignal : 1;                 /* 0x10: monitored fences only */
            UINT NoWait : 1;                   /* 0x20: monitored fences only */
            UINT NoSignalMaxValueOnTdr : 1;    /* 0x40 */
            UINT NoGPUAccess : 1;              /* 0x80 */
            UINT SignalByKmd : 1;              /* 0x100 */
            UINT Unused : 1;                   /* 0x200 */
            UINT UnwaitCpuWaitersOnlyOnDestroy : 1; /* 0x400 */
            UINT Reserved : 20;
            UINT D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS_RESERVED0 : 1; /* 0x80000000 */
        };
        UINT Value;
    };
} D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS;

typedef struct _D3DDDI_SYNCHRONIZATIONOBJECTINFO2 {
    D3DDDI_SYNCHRONIZATIONOBJECT_TYPE Type;
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS Flags;
    union {
        struct { BOOL InitialState; } SynchronizationMutex;
        struct { UINT MaxCount; UINT InitialCount; } Semaphore;
        struct { UINT64 FenceValue; } Fence;
        struct { HANDLE Event; } CPUNotification;
        struct {
            UINT64 InitialFenceValue;
            VOID *FenceValueCPUVirtualAddress;              /* out: read-only mapping */
            D3DGPU_VIRTUAL_ADDRESS FenceValueGPUVirtualAddress; /* out */
            UINT EngineAffinity;
            UINT Padding;
        } MonitoredFence;
        struct {
            D3DKMT_HANDLE hAdapter;
            D3DDDI_VIDEO_PRESENT_TARGET_ID VidPnTargetId;
            UINT64 Time;
            VOID *FenceValueCPUVirtualAddress;
            D3DGPU_VIRTUAL_ADDRESS FenceValueGPUVirtualAddress;
            UINT EngineAffinity;
            UINT Padding;
        } PeriodicMonitoredFence;
        struct { UINT64 Reserved[8]; } Reserved;
    };
    D3DKMT_HANDLE SharedHandle;
} D3DDDI_SYNCHRONIZATIONOBJECTINFO2;

/* The first creation form (D3DKMTCreateSynchronizationObject): mutexes and semaphores only. */
typedef struct _D3DDDI_SYNCHRONIZATIONOBJECTINFO {
    D3DDDI_SYNCHRONIZATIONOBJECT_TYPE Type;
    union {
        struct { BOOL InitialState; } SynchronizationMutex;
        struct { UINT MaxCount; UINT InitialCount; } Semaphore;
        struct { UINT Reserved[16]; } Reserved;
    };
} D3DDDI_SYNCHRONIZATIONOBJECTINFO;

#define D3DDDI_MAX_BROADCAST_CONTEXT 64  /* contexts one signal may broadcast to */

typedef struct _D3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPU_FLAGS {
    union {
        struct {
            UINT WaitAny : 1;                  /* 0x1 */
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPU_FLAGS;

typedef struct _D3DDDICB_SIGNALFLAGS {
    union {
        struct {
            UINT SignalAtSubmission : 1;       /* 0x1 */
            UINT EnqueueCpuEvent : 1;          /* 0x2 */
            UINT AllowFenceRewind : 1;         /* 0x4 */
            UINT Reserved : 28;
            UINT DXGK_SIGNAL_FLAG_INTERNAL0 : 1;
        };
        UINT Value;
    };
} D3DDDICB_SIGNALFLAGS;


/* ---- GPU virtual addressing (WDDM 2.0 GpuMmu model; issue 6, docs/architecture.md "Memory and addresses"; the WDK's
 * d3dukmdt.h names and bit positions) ------------------------------------------------------ */
typedef UINT64 D3DGPU_SIZE_T;

/* What VidMm hands the KMD for one page-table entry in DXGK_OPERATION_UPDATE_PAGE_TABLE. For a
 * leaf level, PageAddress is the page's address in 4 KiB units inside segment Segment (0 =
 * system memory); for an upper level, PageTableAddress is the lower table's, in the same units.
 * The KMD translates it into the GPU's own PTE format. */
typedef struct _DXGK_PTE {
    union {
        struct {
            ULONGLONG Valid : 1;
            ULONGLONG Zero : 1;
            ULONGLONG CacheCoherent : 1;
            ULONGLONG ReadOnly : 1;
            ULONGLONG NoExecute : 1;
            ULONGLONG Segment : 5;
            ULONGLONG LargePage : 1;
            ULONGLONG PhysicalAdapterIndex : 6;
            ULONGLONG PageTablePageSize : 2;
            ULONGLONG SystemReserved0 : 1;
            ULONGLONG Reserved : 44;
        };
        ULONGLONG Flags;
    };
    union {
        ULONGLONG PageAddress;
        ULONGLONG PageTableAddress;
    };
} DXGK_PTE;

typedef struct _D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE {
    union {
        struct {
            UINT64 Write : 1;         /* 0x1 */
            UINT64 Execute : 1;       /* 0x2 */
            UINT64 Zero : 1;          /* 0x4 */
            UINT64 NoAccess : 1;      /* 0x8 */
            UINT64 SystemUseOnly : 1; /* 0x10 */
            UINT64 Reserved : 59;
        };
        UINT64 Value;
    };
} D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE;

typedef enum _D3DDDIGPUVIRTUALADDRESS_RESERVATION_TYPE {
    D3DDDIGPUVIRTUALADDRESS_RESERVE_NO_ACCESS = 0,
    D3DDDIGPUVIRTUALADDRESS_RESERVE_ZERO = 1,
    D3DDDIGPUVIRTUALADDRESS_RESERVE_NO_COMMIT = 2,
} D3DDDIGPUVIRTUALADDRESS_RESERVATION_TYPE;

/* Device paging queues (WDDM 2.0, docs/semantics.md §9.2): D3DKMTCreatePagingQueue /
 * pfnCreatePagingQueueCb; the priority values are those of the 2018 pages. */
typedef enum _D3DDDI_PAGINGQUEUE_PRIORITY {
    D3DDDI_PAGINGQUEUE_PRIORITY_BELOW_NORMAL = -1,
    D3DDDI_PAGINGQUEUE_PRIORITY_NORMAL = 0,
    D3DDDI_PAGINGQUEUE_PRIORITY_ABOVE_NORMAL = 1,
} D3DDDI_PAGINGQUEUE_PRIORITY;

typedef struct _D3DDDI_DESTROYPAGINGQUEUE {
    D3DKMT_HANDLE hPagingQueue;                     /* [in] */
} D3DDDI_DESTROYPAGINGQUEUE;

/* D3DKMTMapGpuVirtualAddress / pfnMapGpuVirtualAddressCb. */
typedef struct _D3DDDI_MAPGPUVIRTUALADDRESS {
    D3DKMT_HANDLE hPagingQueue;              /* [in] the device's paging queue (or the device) */
    D3DGPU_VIRTUAL_ADDRESS BaseAddress;      /* [in] 0: VidMm picks in [Minimum, Maximum) */
    D3DGPU_VIRTUAL_ADDRESS MinimumAddress;
    D3DGPU_VIRTUAL_ADDRESS MaximumAddress;   /* 0: no limit */
    D3DKMT_HANDLE hAllocation;
    D3DGPU_SIZE_T OffsetInPages;             /* first page of the allocation mapped */
    D3DGPU_SIZE_T SizeInPages;
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
    UINT64 DriverProtection;
    UINT Reserved0;
    UINT64 Reserved1;
    D3DGPU_VIRTUAL_ADDRESS VirtualAddress;   /* [out] */
    UINT64 PagingFenceValue;                 /* [out] wait for it before the GPU uses the VA */
} D3DDDI_MAPGPUVIRTUALADDRESS;

/* D3DKMTReserveGpuVirtualAddress / pfnReserveGpuVirtualAddressCb. */
typedef struct _D3DDDI_RESERVEGPUVIRTUALADDRESS {
    union {
        D3DKMT_HANDLE hPagingQueue;          /* [in] user-mode driver callback */
        D3DKMT_HANDLE hAdapter;              /* [in] D3DKMT thunk */
    };
    D3DGPU_VIRTUAL_ADDRESS BaseAddress;
    D3DGPU_VIRTUAL_ADDRESS MinimumAddress;
    D3DGPU_VIRTUAL_ADDRESS MaximumAddress;
    D3DGPU_SIZE_T Size;                      /* bytes, page multiple */
    D3DDDIGPUVIRTUALADDRESS_RESERVATION_TYPE ReservationType;
    UINT64 DriverProtection;
    D3DGPU_VIRTUAL_ADDRESS VirtualAddress;   /* [out] */
    UINT64 PagingFenceValue;                 /* [out] */
} D3DDDI_RESERVEGPUVIRTUALADDRESS;

/* GPU page faults (DXGK_INTERRUPT_DMA_PAGE_FAULTED, D3DKMT_DEVICESTATE_PAGE_FAULT). */
typedef enum _DXGK_PAGE_FAULT_FLAGS {
    DXGK_PAGE_FAULT_WRITE = 0x1,
    DXGK_PAGE_FAULT_FENCE_INVALID = 0x2,
    DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED = 0x4,
    DXGK_PAGE_FAULT_ENGINE_RESET_REQUIRED = 0x8,
    DXGK_PAGE_FAULT_FATAL_HARDWARE_ERROR = 0x10,
    DXGK_PAGE_FAULT_IOMMU = 0x20,
    DXGK_PAGE_FAULT_HW_CONTEXT_VALID = 0x40,
    DXGK_PAGE_FAULT_PROCESS_HANDLE_VALID = 0x80,
} DXGK_PAGE_FAULT_FLAGS;

typedef enum _DXGK_GENERAL_ERROR_CODE {
    DXGK_GENERAL_ERROR_PAGE_FAULT = 0,
    DXGK_GENERAL_ERROR_INVALID_INSTRUCTION = 1,
} DXGK_GENERAL_ERROR_CODE;

typedef struct _DXGK_FAULT_ERROR_CODE {
    union {
        struct {
            UINT IsDeviceSpecificCode : 1;
            UINT GeneralErrorCode : 31;      /* DXGK_GENERAL_ERROR_CODE */
        };
        struct {
            UINT IsDeviceSpecificCodeReservedBit : 1;
            UINT DeviceSpecificCode : 31;
        };
    };
} DXGK_FAULT_ERROR_CODE;

typedef enum _DXGK_RENDER_PIPELINE_STAGE {
    DXGK_RENDER_PIPELINE_STAGE_UNKNOWN = 0,
    DXGK_RENDER_PIPELINE_STAGE_INPUT_ASSEMBLER = 1,
    DXGK_RENDER_PIPELINE_STAGE_VERTEX_SHADER = 2,
    DXGK_RENDER_PIPELINE_STAGE_PIXEL_SHADER = 3,
    DXGK_RENDER_PIPELINE_STAGE_HULL_SHADER = 4,
    DXGK_RENDER_PIPELINE_STAGE_DOMAIN_SHADER = 5,
    DXGK_RENDER_PIPELINE_STAGE_GEOMETRY_SHADER = 6,
    DXGK_RENDER_PIPELINE_STAGE_COMPUTE_SHADER = 7,
    DXGK_RENDER_PIPELINE_STAGE_STREAM_OUTPUT = 8,
    DXGK_RENDER_PIPELINE_STAGE_RASTERIZATION = 9,
    DXGK_RENDER_PIPELINE_STAGE_OUTPUT_MERGER = 10,
} DXGK_RENDER_PIPELINE_STAGE;

#define DXGK_PRIMITIVE_API_SEQUENCE_NUMBER_UNKNOWN 0xFFFFFFFFFFFFFFFFull

/* Preemption granularity a KMD reports (DXGK_DRIVERCAPS.PreemptionCaps) and the kernel passes on
 * (KMTQAITYPE_WDDM_1_2_CAPS). */
typedef enum _D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY {
    D3DKMDT_GRAPHICS_PREEMPTION_NONE = 0,
    D3DKMDT_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY = 200,
    D3DKMDT_GRAPHICS_PREEMPTION_TRIANGLE_BOUNDARY = 300,
    D3DKMDT_GRAPHICS_PREEMPTION_PIXEL_BOUNDARY = 400,
    D3DKMDT_GRAPHICS_PREEMPTION_SHADER_BOUNDARY = 500,
} D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY;

typedef enum _D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY {
    D3DKMDT_COMPUTE_PREEMPTION_NONE = 0,
    D3DKMDT_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY = 200,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_GROUP_BOUNDARY = 300,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_BOUNDARY = 400,
    D3DKMDT_COMPUTE_PREEMPTION_SHADER_BOUNDARY = 500,
} D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY;

typedef struct _D3DKMDT_PREEMPTION_CAPS {
    D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY GraphicsPreemptionGranularity;
    D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY ComputePreemptionGranularity;
} D3DKMDT_PREEMPTION_CAPS;

/* ---- Shared by the runtime callbacks' argument structures (d3dumddi.h) and the thunks ----------
 * The ns-d3dukmdt-* / ne-d3dukmdt-* reference pages: members, order, types and values as there. */

/* D3DKMTCreateContext's and pfnCreateContextVirtualCb's flags. */
typedef struct _D3DDDI_CREATECONTEXTFLAGS {
    union {
        struct { UINT NullRendering : 1; UINT InitialData : 1; UINT DisableGpuTimeout : 1; UINT SynchronizationOnly : 1; UINT HwQueueSupported : 1; UINT Reserved : 27; };
        UINT Value;
    };
} D3DDDI_CREATECONTEXTFLAGS;

/* D3DKMTDestroyAllocation2's and pfnDeallocate2Cb's flags. */
typedef struct _D3DDDICB_DESTROYALLOCATION2FLAGS {
    union {
        struct {
            UINT AssumeNotInUse : 1;      /* 0x1 */
            UINT SynchronousDestroy : 1;  /* 0x2 */
            UINT Reserved : 29;
            UINT SystemUseOnly : 1;       /* 0x80000000 */
        };
        UINT Value;
    };
} D3DDDICB_DESTROYALLOCATION2FLAGS;

/* D3DKMTEscape's and pfnEscapeCb's flags. */
typedef struct _D3DDDI_ESCAPEFLAGS {
    union {
        struct {
            UINT HardwareAccess : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DDDI_ESCAPEFLAGS;

/* Surface formats (the WDK's enumeration names the D3D9 formats; the subset the kernel's
 * standard allocations (DxgkDdiGetStandardAllocationDriverData), the unmodeled
 * DxgkDdiSystemDisplayEnable and the callbacks here use). */
typedef enum _D3DDDIFORMAT {
    D3DDDIFMT_UNKNOWN = 0,
    D3DDDIFMT_A8R8G8B8 = 21,
    D3DDDIFMT_X8R8G8B8 = 22,
    D3DDDIFMT_A8 = 28,
    D3DDDIFMT_A8B8G8R8 = 32,
    D3DDDIFMT_X8B8G8R8 = 33,
} D3DDDIFORMAT;

typedef struct _D3DDDIRECT {
    LONG left;
    LONG top;
    LONG right;
    LONG bottom;
} D3DDDIRECT;

/* A kernel overlay: the allocation shown, where, and the KMD's private data (pfnCreateOverlayCb,
 * pfnUpdateOverlayCb). */
typedef struct _D3DDDI_KERNELOVERLAYINFO {
    D3DKMT_HANDLE hAllocation;
    D3DDDIRECT DstRect;
    D3DDDIRECT SrcRect;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
} D3DDDI_KERNELOVERLAYINFO;

/* One multisampling method of a display mode (pfnGetMultisampleMethodListCb). */
typedef struct _D3DDDI_MULTISAMPLINGMETHOD {
    UINT NumSamples;
    UINT NumQualityLevels;
} D3DDDI_MULTISAMPLINGMETHOD;

typedef enum D3DDDI_FLIPINTERVAL_TYPE {
    D3DDDI_FLIPINTERVAL_IMMEDIATE = 0,
    D3DDDI_FLIPINTERVAL_ONE = 1,
    D3DDDI_FLIPINTERVAL_TWO = 2,
    D3DDDI_FLIPINTERVAL_THREE = 3,
    D3DDDI_FLIPINTERVAL_FOUR = 4,
} D3DDDI_FLIPINTERVAL_TYPE;

/* How much an offered allocation's content is worth (pfnOfferAllocationsCb); D3DKMT_OFFER_PRIORITY
 * of the thunk has the same values without NONE. */
typedef enum _D3DDDI_OFFER_PRIORITY {
    D3DDDI_OFFER_PRIORITY_NONE = 0,
    D3DDDI_OFFER_PRIORITY_LOW = 1,
    D3DDDI_OFFER_PRIORITY_NORMAL = 2,
    D3DDDI_OFFER_PRIORITY_HIGH = 3,
    D3DDDI_OFFER_PRIORITY_AUTO = 4,
} D3DDDI_OFFER_PRIORITY;

/* unconfirmed: the page (ns-d3dukmdt-d3dddi_offer_flags) lists AllowDecommit, Reserved and Value,
 * with no syntax block in any revision. */
typedef struct D3DDDI_OFFER_FLAGS {
    union {
        struct {
            UINT AllowDecommit : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DDDI_OFFER_FLAGS;

/* One operation of pfnUpdateGpuVirtualAddressCb's batch. */
typedef enum _D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION_TYPE {
    D3DDDI_UPDATEGPUVIRTUALADDRESS_MAP = 0,
    D3DDDI_UPDATEGPUVIRTUALADDRESS_UNMAP = 1,
    D3DDDI_UPDATEGPUVIRTUALADDRESS_COPY = 2,
    D3DDDI_UPDATEGPUVIRTUALADDRESS_MAP_PROTECT = 3,
} D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION_TYPE;

typedef struct _D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION {
    D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION_TYPE OperationType;
    union {
        struct {
            D3DGPU_VIRTUAL_ADDRESS BaseAddress;
            D3DGPU_SIZE_T SizeInBytes;
            D3DKMT_HANDLE hAllocation;
            D3DGPU_SIZE_T AllocationOffsetInBytes;
            D3DGPU_SIZE_T AllocationSizeInBytes;
        } Map;
        struct {
            D3DGPU_VIRTUAL_ADDRESS BaseAddress;
            D3DGPU_SIZE_T SizeInBytes;
            D3DKMT_HANDLE hAllocation;
            D3DGPU_SIZE_T AllocationOffsetInBytes;
            D3DGPU_SIZE_T AllocationSizeInBytes;
            D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
            UINT64 DriverProtection;
        } MapProtect;
        struct {
            D3DGPU_VIRTUAL_ADDRESS BaseAddress;
            D3DGPU_SIZE_T SizeInBytes;
            D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
        } Unmap;
        struct {
            D3DGPU_VIRTUAL_ADDRESS BaseAddress;
            D3DGPU_SIZE_T SizeInBytes;
            D3DGPU_VIRTUAL_ADDRESS DestAddress;
        } Copy;
    };
} D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION;

/* pfnUpdateAllocationPropertyCb (WDDM 2.1). PreferredSegment is the page's DXGK_SEGMENTPREFERENCE,
 * which d3dkmddi.h defines as this same D3DDDI_SEGMENTPREFERENCE. */
typedef struct _D3DDDI_UPDATEALLOCPROPERTY_FLAGS {
    union {
        struct {
            UINT AccessedPhysically : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DDDI_UPDATEALLOCPROPERTY_FLAGS;

typedef struct D3DDDI_UPDATEALLOCPROPERTY {
    D3DKMT_HANDLE hPagingQueue;
    D3DKMT_HANDLE hAllocation;
    UINT SupportedSegmentSet;
    D3DDDI_SEGMENTPREFERENCE PreferredSegment;
    D3DDDI_UPDATEALLOCPROPERTY_FLAGS Flags;
    UINT64 PagingFenceValue;                        /* out */
    union {
        struct {
            UINT SetAccessedPhysically : 1;
            UINT SetSupportedSegmentSet : 1;
            UINT SetPreferredSegment : 1;
            UINT Reserved : 29;
        };
        UINT PropertyMaskValue;
    };
} D3DDDI_UPDATEALLOCPROPERTY;

/* pfnGetResourcePresentPrivateDriverDataCb: the private data a resource was presented with. */
typedef struct _D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA {
    D3DKMT_HANDLE hResource;
    UINT PrivateDriverDataSize;                     /* in/out */
    PVOID pPrivateDriverData;
} D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA;

#ifdef __cplusplus
}
#endif
#endif /* WDDM_D3DUKMDT_H */
