/* D3DKMT* kernel thunks: the user-mode runtime's only way into the graphics kernel (the
 * WDK's d3dkmthk.h subset). Every handle argument is typed and generation-checked: a stale,
 * forged or wrong-type handle returns STATUS_INVALID_PARAMETER (issue 2 tests), except where
 * Windows answers STATUS_INVALID_HANDLE (D3DKMTCreateAllocation's hResource, the hProcess of the
 * video-memory thunks: docs/rules/kernel.md). */
#ifndef WDDM_D3DKMTHK_H
#define WDDM_D3DKMTHK_H

#include <wddm/d3dukmdt.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _D3DKMT_ADAPTERINFO {
    D3DKMT_HANDLE hAdapter;
    LUID AdapterLuid;
    ULONG NumOfSources;
    BOOL bPrecisePresentRegionsPreferred;
} D3DKMT_ADAPTERINFO;

/* D3DKMTEnumAdapters2 with NumAdapters 0 and pAdapters NULL answers this capacity, the most
 * adapters Windows 10 enumerates, not how many are present (Wine win32u d3dkmt tests, run on
 * Windows: 32; Windows 11 answers 34). */
#define D3DKMT_ENUMADAPTERS2_MAX_ADAPTERS 32

typedef struct _D3DKMT_ENUMADAPTERS2 {
    ULONG NumAdapters;              /* in: capacity of pAdapters (0 with NULL: the capacity to allocate); out: count */
    D3DKMT_ADAPTERINFO *pAdapters;  /* each returned hAdapter is opened and must be closed */
} D3DKMT_ENUMADAPTERS2;

typedef struct _D3DKMT_OPENADAPTERFROMLUID {
    LUID AdapterLuid;
    D3DKMT_HANDLE hAdapter;         /* out */
} D3DKMT_OPENADAPTERFROMLUID;

typedef struct _D3DKMT_CLOSEADAPTER { D3DKMT_HANDLE hAdapter; } D3DKMT_CLOSEADAPTER;

/* The WDK's numbers; the kernel answers the types marked "answered", and refuses the others
 * with STATUS_NOT_SUPPORTED. */
typedef enum _KMTQUERYADAPTERINFOTYPE {
    KMTQAITYPE_UMDRIVERPRIVATE = 0,  /* answered: the KMD's DXGKQAITYPE_UMDRIVERPRIVATE blob */
    KMTQAITYPE_UMDRIVERNAME = 1,     /* answered: D3DKMT_UMDFILENAMEINFO (the adapter's UMD module) */
    KMTQAITYPE_UMOPENGLINFO = 2,
    KMTQAITYPE_GETSEGMENTSIZE = 3,   /* answered: D3DKMT_SEGMENTSIZEINFO */
    KMTQAITYPE_ADAPTERGUID = 4,
    KMTQAITYPE_FLIPQUEUEINFO = 5,
    KMTQAITYPE_ADAPTERADDRESS = 6,
    KMTQAITYPE_SETWORKINGSETINFO = 7,
    KMTQAITYPE_ADAPTERREGISTRYINFO = 8,
    KMTQAITYPE_CURRENTDISPLAYMODE = 9,
    KMTQAITYPE_MODELIST = 10,
    KMTQAITYPE_CHECKDRIVERUPDATESTATUS = 11, /* answered: a BOOL, FALSE (no driver update pending) */
    KMTQAITYPE_VIRTUALADDRESSINFO = 12,
    KMTQAITYPE_DRIVERVERSION = 13,   /* answered: a D3DKMT_DRIVERVERSION from the KMD's WDDMVersion */
    KMTQAITYPE_ADAPTERTYPE = 15,
    KMTQAITYPE_OUTPUTDUPLCONTEXTSCOUNT = 16,
    KMTQAITYPE_WDDM_1_2_CAPS = 17,   /* answered: D3DKMT_WDDM_1_2_CAPS from the KMD's DXGK_DRIVERCAPS */
    KMTQAITYPE_UMD_DRIVER_VERSION = 18,
    KMTQAITYPE_DIRECTFLIP_SUPPORT = 19,
    KMTQAITYPE_MULTIPLANEOVERLAY_SUPPORT = 20,
    KMTQAITYPE_DLIST_DRIVER_NAME = 21,
    KMTQAITYPE_WDDM_1_3_CAPS = 22,
    KMTQAITYPE_MULTIPLANEOVERLAY_HUD_SUPPORT = 23,
    KMTQAITYPE_WDDM_2_0_CAPS = 24,   /* answered: D3DKMT_WDDM_2_0_CAPS (the addressing model) */
    KMTQAITYPE_NODEMETADATA = 25,
    KMTQAITYPE_CPDRIVERNAME = 26,
    KMTQAITYPE_XBOX = 27,
    /* libwddm extensions (Windows keeps these kernel-side; `wddm info` needs them): */
    KMTQAITYPE_WDDM_DRIVERCAPS = 0x10000,  /* DXGK_DRIVERCAPS as the KMD reported it */
    KMTQAITYPE_WDDM_SEGMENTS = 0x10001,    /* D3DKMT_WDDM_SEGMENTS */
    KMTQAITYPE_WDDM_COUNTERS = 0x10002,    /* struct wddm_counters (include/wddm/wddm.h) */
    KMTQAITYPE_WDDM_DEFAULT_DRIVERCAPS = 0x10003, /* DXGK_DRIVERCAPS the KMD reports without a caps
                                                     file (DXGKQAITYPE_LIBWDDM_DEFAULTCAPS);
                                                     STATUS_NOT_SUPPORTED from a KMD that does not
                                                     say */
    KMTQAITYPE_WDDM_KMDNAME = 0x10004,     /* D3DKMT_WDDM_KMDNAME: which KMD serves the adapter */
} KMTQUERYADAPTERINFOTYPE;

/* KMTQAITYPE_DRIVERVERSION (WDK: D3DKMT_DRIVERVERSION, the display driver model version). */
typedef enum _QAI_DRIVERVERSION {
    KMT_DRIVERVERSION_WDDM_1_0 = 1000,
    KMT_DRIVERVERSION_WDDM_1_1_PRERELEASE = 1102,
    KMT_DRIVERVERSION_WDDM_1_1 = 1105,
    KMT_DRIVERVERSION_WDDM_1_2 = 1200,
    KMT_DRIVERVERSION_WDDM_1_3 = 1300,
    KMT_DRIVERVERSION_WDDM_2_0 = 2000,
    KMT_DRIVERVERSION_WDDM_2_1 = 2100,
    KMT_DRIVERVERSION_WDDM_2_2 = 2200,
    KMT_DRIVERVERSION_WDDM_2_3 = 2300,
    KMT_DRIVERVERSION_WDDM_2_4 = 2400,
    KMT_DRIVERVERSION_WDDM_2_5 = 2500,
    KMT_DRIVERVERSION_WDDM_2_6 = 2600,
    KMT_DRIVERVERSION_WDDM_2_7 = 2700,
    KMT_DRIVERVERSION_WDDM_2_8 = 2800,
    KMT_DRIVERVERSION_WDDM_2_9 = 2900,
    KMT_DRIVERVERSION_WDDM_3_0 = 3000,
    KMT_DRIVERVERSION_WDDM_3_1 = 3100,
} D3DKMT_DRIVERVERSION;

typedef struct _D3DKMT_QUERYADAPTERINFO {
    D3DKMT_HANDLE hAdapter;
    KMTQUERYADAPTERINFOTYPE Type;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
} D3DKMT_QUERYADAPTERINFO;

/* KMTQAITYPE_WDDM_1_2_CAPS: what DXGI reads for DXGI_ADAPTER_DESC2's preemption granularity. */
typedef struct _D3DKMT_WDDM_1_2_CAPS {
    D3DKMDT_PREEMPTION_CAPS PreemptionCaps;
    union {
        struct {
            UINT SupportNonVGA : 1;
            UINT SupportSmoothRotation : 1;
            UINT SupportPerEngineTDR : 1;
            UINT SupportKernelModeCommandBuffer : 1;
            UINT SupportCCD : 1;
            UINT SupportSoftwareDeviceBitmaps : 1;
            UINT SupportGammaRamp : 1;
            UINT SupportHWCursor : 1;
            UINT SupportHWVSync : 1;
            UINT SupportSurpriseRemovalInHibernation : 1;
            UINT Reserved : 22;
        };
        UINT Value;
    };
} D3DKMT_WDDM_1_2_CAPS;

/* KMTQAITYPE_WDDM_2_0_CAPS: the WDDM 2.0 capabilities the KMD reported (DXGK_VIDMMCAPS, DXGK_DRIVERCAPS):
 * which GPU virtual addressing model the adapter runs. */
typedef struct _D3DKMT_WDDM_2_0_CAPS {
    union {
        struct {
            UINT Support64BitAtomics : 1;
            UINT GpuMmuSupported : 1;
            UINT IoMmuSupported : 1;
            UINT FlipOverwriteSupported : 1;
            UINT SupportContextlessPresent : 1;
            UINT SupportSurpriseRemoval : 1;
            UINT Reserved : 26;
        };
        UINT Value;
    };
} D3DKMT_WDDM_2_0_CAPS;

/* KMTQAITYPE_UMDRIVERNAME: which UMD module serves the adapter for one runtime generation (the
 * registry's UserModeDriverName on Windows; here WDDM_UMD, docs/drivers.md). An empty name: the
 * reference UMD built into libwddm. */
typedef enum _KMTUMDVERSION {
    KMTUMDVERSION_DX9 = 0,
    KMTUMDVERSION_DX10 = 1,
    KMTUMDVERSION_DX11 = 2,
    KMTUMDVERSION_DX12 = 3,
    NUM_KMTUMDVERSIONS = 4
} KMTUMDVERSION;

#ifndef MAX_PATH
#define MAX_PATH 260
#endif
typedef struct _D3DKMT_UMDFILENAMEINFO {
    KMTUMDVERSION Version;        /* in */
    WCHAR UmdFileName[MAX_PATH];  /* out: UTF-16, NUL-terminated */
} D3DKMT_UMDFILENAMEINFO;

/* KMTQAITYPE_WDDM_KMDNAME (libwddm): the adapter's KMD as the verifier names it, in UTF-8 - the
 * module's path (WDDM_KMD), the in-process entry's symbol and object (wddm_set_kmd_entry), or ""
 * for the reference KMD built into libwddm. A longer name: STATUS_NAME_TOO_LONG. */
typedef struct _D3DKMT_WDDM_KMDNAME {
    char KmdName[4096];
} D3DKMT_WDDM_KMDNAME;

typedef struct _D3DKMT_SEGMENTSIZEINFO {
    ULONGLONG DedicatedVideoMemorySize;
    ULONGLONG DedicatedSystemMemorySize;
    ULONGLONG SharedSystemMemorySize;
} D3DKMT_SEGMENTSIZEINFO;

/* KMTQAITYPE_WDDM_SEGMENTS: the segment descriptors as the KMD reported them. */
#define D3DKMT_WDDM_MAX_SEGMENTS 8
typedef struct _D3DKMT_WDDM_SEGMENTINFO {
    UINT SegmentId;          /* 1-based */
    UINT64 BaseAddress;
    UINT64 Size;
    UINT64 CommitLimit;
    UINT Flags;              /* DXGK_SEGMENTFLAGS.Value */
    UINT64 BytesResident;    /* what VidMm currently has placed there */
} D3DKMT_WDDM_SEGMENTINFO;
typedef struct _D3DKMT_WDDM_SEGMENTS {
    UINT NbSegment;
    D3DKMT_WDDM_SEGMENTINFO Segment[D3DKMT_WDDM_MAX_SEGMENTS];
} D3DKMT_WDDM_SEGMENTS;

typedef struct _D3DKMT_CREATEDEVICEFLAGS {
    UINT LegacyMode : 1;
    UINT RequestVSync : 1;
    UINT DisableGpuTimeout : 1;
    UINT Reserved : 29;
} D3DKMT_CREATEDEVICEFLAGS;

/* The WDK layout: the command buffer and lists of a WDDM 1.0 device are out-only and always
 * NULL / 0 (contexts own them: D3DKMTCreateContext; Wine win32u d3dkmt tests, run on Windows). */
typedef struct _D3DKMT_CREATEDEVICE {
    union {
        D3DKMT_HANDLE hAdapter;
        VOID *pAdapter;
    };
    D3DKMT_CREATEDEVICEFLAGS Flags;
    D3DKMT_HANDLE hDevice;                        /* out */
    VOID *pCommandBuffer;                         /* out: NULL */
    UINT CommandBufferSize;                       /* out: 0 */
    D3DDDI_ALLOCATIONLIST *pAllocationList;       /* out: NULL */
    UINT AllocationListSize;                      /* out: 0 */
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationList; /* out: NULL */
    UINT PatchLocationListSize;                   /* out: 0 */
} D3DKMT_CREATEDEVICE;

typedef struct _D3DKMT_DESTROYDEVICE { D3DKMT_HANDLE hDevice; } D3DKMT_DESTROYDEVICE;

typedef enum _D3DKMT_CLIENTHINT {
    D3DKMT_CLIENTHINT_UNKNOWN = 0,
    D3DKMT_CLIENTHINT_OPENGL = 1,
    D3DKMT_CLIENTHINT_CDD = 2,
    D3DKMT_CLIENTHINT_DX7 = 7,
    D3DKMT_CLIENTHINT_DX8 = 8,
    D3DKMT_CLIENTHINT_DX9 = 9,
    D3DKMT_CLIENTHINT_DX10 = 10,
    D3DKMT_CLIENTHINT_DX11 = 11,
} D3DKMT_CLIENTHINT;

typedef struct _D3DKMT_CREATECONTEXT {
    D3DKMT_HANDLE hDevice;
    UINT NodeOrdinal;
    UINT EngineAffinity;
    D3DDDI_CREATECONTEXTFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    D3DKMT_CLIENTHINT ClientHint;
    D3DKMT_HANDLE hContext;                       /* out */
    VOID *pCommandBuffer;                         /* out: where the UMD writes commands */
    UINT CommandBufferSize;                       /* out */
    D3DDDI_ALLOCATIONLIST *pAllocationList;       /* out */
    UINT AllocationListSize;                      /* out: entries */
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationList; /* out */
    UINT PatchLocationListSize;                   /* out: entries */
    D3DGPU_VIRTUAL_ADDRESS CommandBuffer;
} D3DKMT_CREATECONTEXT;

typedef struct _D3DKMT_DESTROYCONTEXT { D3DKMT_HANDLE hContext; } D3DKMT_DESTROYCONTEXT;

typedef struct _D3DKMT_CREATEALLOCATIONFLAGS {
    UINT CreateResource : 1;
    UINT CreateShared : 1;
    UINT NonSecure : 1;
    UINT CreateProtected : 1;
    UINT RestrictSharedAccess : 1;
    UINT ExistingSysMem : 1;
    UINT NtSecuritySharing : 1;           /* 0x40 */
    UINT ReadOnly : 1;                    /* 0x80 */
    UINT CreateWriteCombined : 1;         /* 0x100 */
    UINT CreateCached : 1;                /* 0x200 */
    UINT SwapChainBackBuffer : 1;         /* 0x400 */
    UINT CrossAdapter : 1;                /* 0x800: a cross-adapter resource (seed 003, issue 6) */
    UINT OpenCrossAdapter : 1;            /* 0x1000 */
    UINT Reserved : 19;
} D3DKMT_CREATEALLOCATIONFLAGS;

/* Cross-adapter resources (seed 003, docs/semantics.md §6.5): row pitch and height granularity. */
#define D3DKMT_CROSS_ADAPTER_RESOURCE_PITCH_ALIGNMENT 128
#define D3DKMT_CROSS_ADAPTER_RESOURCE_HEIGHT_ALIGNMENT 4

/* D3DKMTCreateAllocation reads pAllocationInfo, D3DKMTCreateAllocation2 pAllocationInfo2 (WDK:
 * D3DKMT_CREATEALLOCATION; the union as in the WDK). Out: hResource (0 without CreateResource)
 * and hGlobalShare (0 unless CreateShared) are always written on success. */
typedef struct _D3DKMT_CREATEALLOCATION {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;              /* in: 0 (or a resource to add to); out: the resource or 0 */
    D3DKMT_HANDLE hGlobalShare;           /* out: the global share, 0 when not shared */
    const VOID *pPrivateRuntimeData;
    UINT PrivateRuntimeDataSize;
    const VOID *pPrivateDriverData;       /* per-resource data for DxgkDdiCreateAllocation */
    UINT PrivateDriverDataSize;
    UINT NumAllocations;
    union {
        D3DDDI_ALLOCATIONINFO *pAllocationInfo;   /* in/out: hAllocation filled on success */
        D3DDDI_ALLOCATIONINFO2 *pAllocationInfo2; /* D3DKMTCreateAllocation2's */
    };
    D3DKMT_CREATEALLOCATIONFLAGS Flags;
    HANDLE hPrivateRuntimeResourceHandle; /* in: an ETW tag, never written */
} D3DKMT_CREATEALLOCATION;

typedef struct _D3DKMT_DESTROYALLOCATION {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;              /* non-zero: every allocation of the resource, and it */
    const D3DKMT_HANDLE *phAllocationList;
    UINT AllocationCount;
} D3DKMT_DESTROYALLOCATION;

/* D3DKMTDestroyAllocation2 (WDK, WDDM 2.0): D3DKMTDestroyAllocation with flags
 * (D3DDDICB_DESTROYALLOCATION2FLAGS, d3dukmdt.h: pfnDeallocate2Cb takes them too). */
typedef struct _D3DKMT_DESTROYALLOCATION2 {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;
    const D3DKMT_HANDLE *phAllocationList;
    UINT AllocationCount;
    D3DDDICB_DESTROYALLOCATION2FLAGS Flags;
} D3DKMT_DESTROYALLOCATION2;

typedef struct _D3DKMT_LOCK {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hAllocation;
    UINT PrivateDriverData;
    UINT NumPages;
    const UINT *pPages;
    VOID *pData;                          /* out */
    D3DDDICB_LOCKFLAGS Flags;
    D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress;
} D3DKMT_LOCK;

typedef struct _D3DKMT_UNLOCK {
    D3DKMT_HANDLE hDevice;
    UINT NumAllocations;
    const D3DKMT_HANDLE *phAllocations;
} D3DKMT_UNLOCK;

/* D3DKMTSetAllocationPriority: with hResource, pPriorities[0] applies to every allocation of
 * the resource; otherwise one D3DDDI_ALLOCATIONPRIORITY_* value per phAllocationList entry. */
typedef struct _D3DKMT_SETALLOCATIONPRIORITY {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;
    const D3DKMT_HANDLE *phAllocationList;
    UINT AllocationCount;
    const UINT *pPriorities;
} D3DKMT_SETALLOCATIONPRIORITY;

/* D3DKMTGetAllocationPriority (vidmm/priority.c): the priorities D3DKMTSetAllocationPriority (or
 * the KMD) gave, one per phAllocationList entry, or a resource's (its first allocation's) in
 * pPriorities[0]. */
typedef struct _D3DKMT_GETALLOCATIONPRIORITY {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;
    const D3DKMT_HANDLE *phAllocationList;
    UINT AllocationCount;
    UINT *pPriorities;                /* out */
} D3DKMT_GETALLOCATIONPRIORITY;

/* Offers (D3DKMTOfferAllocations / D3DKMTReclaimAllocations(2)): exactly one of pResources
 * (kernel resource handles) and HandleList (allocation handles) names the allocations. */
typedef enum _D3DKMT_OFFER_PRIORITY {
    D3DKMT_OFFER_PRIORITY_LOW = 1,    /* the content is not useful */
    D3DKMT_OFFER_PRIORITY_NORMAL,     /* useful but easy to regenerate */
    D3DKMT_OFFER_PRIORITY_HIGH,       /* useful and hard to regenerate */
    D3DKMT_OFFER_PRIORITY_AUTO,       /* VidMm decides (here: NORMAL) */
} D3DKMT_OFFER_PRIORITY;

typedef struct _D3DKMT_OFFER_FLAGS {
    union {
        struct {
            UINT OfferImmediately : 1;
            UINT AllowDecommit : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} D3DKMT_OFFER_FLAGS;

typedef struct _D3DKMT_OFFERALLOCATIONS {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    UINT NumAllocations;
    D3DKMT_OFFER_PRIORITY Priority;
    D3DKMT_OFFER_FLAGS Flags;
} D3DKMT_OFFERALLOCATIONS;

typedef struct _D3DKMT_RECLAIMALLOCATIONS {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    BOOL *pDiscarded;                 /* out: one per entry */
    UINT NumAllocations;
} D3DKMT_RECLAIMALLOCATIONS;

typedef struct _D3DKMT_RECLAIMALLOCATIONS2 {
    D3DKMT_HANDLE hPagingQueue;
    UINT NumAllocations;
    D3DKMT_HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    union {
        BOOL *pDiscarded;
        D3DDDI_RECLAIM_RESULT *pResults; /* out: one per entry */
    };
    UINT64 PagingFenceValue;          /* out */
} D3DKMT_RECLAIMALLOCATIONS2;

typedef struct _D3DKMT_EVICT {
    D3DKMT_HANDLE hDevice;
    UINT NumAllocations;
    const D3DKMT_HANDLE *AllocationList;
    D3DDDI_EVICT_FLAGS Flags;
    UINT64 NumBytesToTrim;            /* out */
} D3DKMT_EVICT;

/* D3DKMTQueryAllocationResidency (vidmm/residency_query.c): where a resource (hResource, no list,
 * a count of 0: one answer) or each listed allocation lives now. */
typedef enum _D3DKMT_ALLOCATIONRESIDENCYSTATUS {
    D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY = 1,
    D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINSHAREDMEMORY = 2,
    D3DKMT_ALLOCATIONRESIDENCYSTATUS_NOTRESIDENT = 3,
} D3DKMT_ALLOCATIONRESIDENCYSTATUS;

typedef struct _D3DKMT_QUERYALLOCATIONRESIDENCY {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hResource;
    const D3DKMT_HANDLE *phAllocationList;
    UINT AllocationCount;
    D3DKMT_ALLOCATIONRESIDENCYSTATUS *pResidencyStatus; /* out */
} D3DKMT_QUERYALLOCATIONRESIDENCY;

/* D3DKMTQueryStatistics (objects/query_statistics.c): the adapter-wide statistics monitoring tools
 * read (docs/semantics.md §9.3). Modeled: ADAPTER and SEGMENT (QuerySegment.SegmentId counts
 * from 0); NODE, the process and the VidPN source queries answer STATUS_NOT_SUPPORTED. The WDK's
 * result structures have more members than these; the ones listed are the ones filled. */
typedef enum _D3DKMT_QUERYSTATISTICS_TYPE {
    D3DKMT_QUERYSTATISTICS_ADAPTER = 0,
    D3DKMT_QUERYSTATISTICS_PROCESS = 1,
    D3DKMT_QUERYSTATISTICS_PROCESS_ADAPTER = 2,
    D3DKMT_QUERYSTATISTICS_SEGMENT = 3,
    D3DKMT_QUERYSTATISTICS_PROCESS_SEGMENT = 4,
    D3DKMT_QUERYSTATISTICS_NODE = 5,
    D3DKMT_QUERYSTATISTICS_PROCESS_NODE = 6,
    D3DKMT_QUERYSTATISTICS_VIDPNSOURCE = 7,
    D3DKMT_QUERYSTATISTICS_PROCESS_VIDPNSOURCE = 8,
    D3DKMT_QUERYSTATISTICS_PROCESS_SEGMENT_GROUP = 9,
    D3DKMT_QUERYSTATISTICS_PHYSICAL_ADAPTER = 10,
} D3DKMT_QUERYSTATISTICS_TYPE;

typedef enum _D3DKMT_QUERYSTATISTICS_ALLOCATION_PRIORITY_CLASS {
    D3DKMT_AllocationPriorityClassMinimum = 0,
    D3DKMT_AllocationPriorityClassLow = 1,
    D3DKMT_AllocationPriorityClassNormal = 2,
    D3DKMT_AllocationPriorityClassHigh = 3,
    D3DKMT_AllocationPriorityClassMaximum = 4,
    D3DKMT_MaxAllocationPriorityClass = 5,
} D3DKMT_QUERYSTATISTICS_ALLOCATION_PRIORITY_CLASS;

typedef struct _D3DKMT_QUERYSTATISTICS_ADAPTER_INFORMATION {
    ULONG NbSegments;
    ULONG NodeCount;
    ULONG VidPnSourceCount;           /* 0: no display */
    ULONG VSyncEnabled;
    ULONG TdrDetectedCount;           /* timeouts recovered (engine or adapter resets) */
    LONGLONG ZeroLengthDmaBuffers;    /* zero-length DMA buffers submitted (context switches) */
    ULONGLONG RestartedPeriod;
} D3DKMT_QUERYSTATISTICS_ADAPTER_INFORMATION;

typedef struct _D3DKMT_QUERYSTATISTICS_MEMORY {
    ULONGLONG TotalBytesEvicted;
    ULONG AllocsCommitted;
    ULONG AllocsResident;
} D3DKMT_QUERYSTATISTICS_MEMORY;

typedef struct _D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION {
    ULONGLONG CommitLimit;
    ULONGLONG BytesCommitted;
    ULONGLONG BytesResident;
    D3DKMT_QUERYSTATISTICS_MEMORY Memory;
    ULONG Aperture;                   /* 1: an aperture segment */
    ULONGLONG TotalBytesEvictedByPriority[D3DKMT_MaxAllocationPriorityClass];
    UINT64 SystemMemoryEndAddress;
} D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION;

typedef union _D3DKMT_QUERYSTATISTICS_RESULT {
    D3DKMT_QUERYSTATISTICS_ADAPTER_INFORMATION AdapterInformation;
    D3DKMT_QUERYSTATISTICS_SEGMENT_INFORMATION SegmentInformation;
} D3DKMT_QUERYSTATISTICS_RESULT;

typedef struct _D3DKMT_QUERYSTATISTICS_QUERY_SEGMENT {
    ULONG SegmentId;
} D3DKMT_QUERYSTATISTICS_QUERY_SEGMENT;

typedef struct _D3DKMT_QUERYSTATISTICS {
    D3DKMT_QUERYSTATISTICS_TYPE Type;
    LUID AdapterLuid;
    HANDLE hProcess;                  /* the process queries only */
    D3DKMT_QUERYSTATISTICS_RESULT QueryResult; /* out (written through the const argument, as
                                                  the WDK's prototype has it) */
    union {
        D3DKMT_QUERYSTATISTICS_QUERY_SEGMENT QuerySegment;
        D3DKMT_QUERYSTATISTICS_QUERY_SEGMENT QueryProcessSegment;
    };
} D3DKMT_QUERYSTATISTICS;

typedef enum _D3DKMT_MEMORY_SEGMENT_GROUP {
    D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL = 0,
    D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL = 1,
} D3DKMT_MEMORY_SEGMENT_GROUP;

typedef struct _D3DKMT_QUERYVIDEOMEMORYINFO {
    HANDLE hProcess;                  /* in, optional */
    D3DKMT_HANDLE hAdapter;
    D3DKMT_MEMORY_SEGMENT_GROUP MemorySegmentGroup;
    UINT64 Budget;                    /* out */
    UINT64 CurrentUsage;              /* out */
    UINT64 CurrentReservation;        /* out */
    UINT64 AvailableForReservation;   /* out */
    UINT PhysicalAdapterIndex;        /* in */
} D3DKMT_QUERYVIDEOMEMORYINFO;

/* Budget-change and trim notifications (vidmm/process_budget.c): VidMm calls the callback
 * when the process's budget on the device's adapter changes, or asks the process to trim
 * when its usage is above a lowered budget. */
typedef struct _D3DKMT_BUDGETCHANGENOTIFICATION {
    VOID *Context;
    UINT64 Budget;                    /* the new budget of the group that changed */
} D3DKMT_BUDGETCHANGENOTIFICATION;
typedef VOID (APIENTRY *PFND3DKMT_BUDGETCHANGENOTIFICATIONCALLBACK)(D3DKMT_BUDGETCHANGENOTIFICATION *);

typedef struct _D3DKMT_REGISTERBUDGETCHANGENOTIFICATION {
    D3DKMT_HANDLE hDevice;
    PFND3DKMT_BUDGETCHANGENOTIFICATIONCALLBACK Callback;
    VOID *Context;
    VOID *Handle;                     /* out: for the unregistration */
} D3DKMT_REGISTERBUDGETCHANGENOTIFICATION;

typedef struct _D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION {
    VOID *Handle;
} D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION;

typedef struct _D3DKMT_TRIMNOTIFICATION {
    VOID *Context;
    D3DDDI_TRIMRESIDENCYSET_FLAGS Flags;
    UINT64 NumBytesToTrim;            /* TrimToBudget: bytes to evict to meet the budget */
} D3DKMT_TRIMNOTIFICATION;
typedef VOID (APIENTRY *PFND3DKMT_TRIMNOTIFICATIONCALLBACK)(D3DKMT_TRIMNOTIFICATION *);

typedef struct _D3DKMT_REGISTERTRIMNOTIFICATION {
    LUID AdapterLuid;
    D3DKMT_HANDLE hDevice;
    PFND3DKMT_TRIMNOTIFICATIONCALLBACK Callback;
    VOID *Context;
    VOID *Handle;                     /* out: for the unregistration */
} D3DKMT_REGISTERTRIMNOTIFICATION;

typedef struct _D3DKMT_UNREGISTERTRIMNOTIFICATION {
    VOID *Handle;
    PFND3DKMT_TRIMNOTIFICATIONCALLBACK Callback;
} D3DKMT_UNREGISTERTRIMNOTIFICATION;

/* D3DKMTChangeVideoMemoryReservation (docs/semantics.md §9.3; the WDK name of what
 * IDXGIAdapter3::SetVideoMemoryReservation calls): the process's minimum of a segment group,
 * 0..AvailableForReservation of D3DKMTQueryVideoMemoryInfo; 0 clears it. */
typedef struct _D3DKMT_CHANGEVIDEOMEMORYRESERVATION {
    HANDLE hProcess;                  /* in, optional: NULL = the current process */
    D3DKMT_HANDLE hAdapter;
    D3DKMT_MEMORY_SEGMENT_GROUP MemorySegmentGroup;
    UINT64 Reservation;
    UINT PhysicalAdapterIndex;
} D3DKMT_CHANGEVIDEOMEMORYRESERVATION;

typedef struct _D3DKMT_RENDERFLAGS {
    UINT ResizeCommandBuffer : 1;
    UINT ResizeAllocationList : 1;
    UINT ResizePatchLocationList : 1;
    UINT NullRendering : 1;
    UINT PresentRedirected : 1;
    UINT RenderKm : 1;
    UINT RenderKmReadback : 1;
    UINT Reserved : 25;
} D3DKMT_RENDERFLAGS;

typedef struct _D3DKMT_RENDER {
    union { D3DKMT_HANDLE hDevice; D3DKMT_HANDLE hContext; };
    UINT CommandOffset;
    UINT CommandLength;                   /* bytes written in the command buffer */
    UINT AllocationCount;                 /* entries used in the allocation list */
    UINT PatchLocationCount;              /* entries used in the patch-location list */
    VOID *pNewCommandBuffer;              /* out: where to write next */
    UINT NewCommandBufferSize;            /* in: wanted; out: got */
    D3DDDI_ALLOCATIONLIST *pNewAllocationList;       /* out */
    UINT NewAllocationListSize;                      /* in/out */
    D3DDDI_PATCHLOCATIONLIST *pNewPatchLocationList; /* out */
    UINT NewPatchLocationListSize;                   /* in/out */
    D3DKMT_RENDERFLAGS Flags;
    ULONGLONG PresentHistoryToken;
    ULONG BroadcastContextCount;
    D3DKMT_HANDLE BroadcastContext[64];
    ULONG QueuedBufferCount;              /* out */
    D3DGPU_VIRTUAL_ADDRESS NewCommandBuffer;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
} D3DKMT_RENDER;

/* WDDM 2.x lock (docs/semantics.md §3.3): no renaming, no implicit synchronisation
 * (D3DDDICB_LOCK2FLAGS is in d3dukmdt.h). */
typedef struct _D3DKMT_LOCK2 {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hAllocation;
    D3DDDICB_LOCK2FLAGS Flags;
    PVOID pData;                          /* out */
} D3DKMT_LOCK2;

typedef struct _D3DKMT_UNLOCK2 {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hAllocation;
} D3DKMT_UNLOCK2;

/* D3DKMTEscape: private data from the caller to the KMD's DxgkDdiEscape (DRIVERPRIVATE), or a
 * request to the kernel itself (TDRDBGCTRL, for testing as on Windows: the private data one
 * D3DKMT_TDRDBGCTRLTYPE, or a D3DKMT_TDRDBGCTRL_ESCAPE naming the node of an ENGINETDR; FORCETDR
 * and ENGINETDR are answered, docs/drivers.md). */
typedef enum _D3DKMT_ESCAPETYPE {
    D3DKMT_ESCAPE_DRIVERPRIVATE = 0,
    D3DKMT_ESCAPE_VIDMM = 1,
    D3DKMT_ESCAPE_TDRDBGCTRL = 2,
    D3DKMT_ESCAPE_VIDSCH = 3,
    D3DKMT_ESCAPE_DEVICE = 4,
    D3DKMT_ESCAPE_DMM = 5,
    D3DKMT_ESCAPE_DEBUG_SNAPSHOT = 6,
    D3DKMT_ESCAPE_SETDRIVERUPDATESTATUS = 7,
} D3DKMT_ESCAPETYPE;

typedef enum _D3DKMT_TDRDBGCTRLTYPE {
    D3DKMT_TDRDBGCTRLTYPE_FORCETDR = 0,       /* simulate a TDR: an adapter timeout, recovered */
    D3DKMT_TDRDBGCTRLTYPE_DISABLEBREAK = 1,
    D3DKMT_TDRDBGCTRLTYPE_ENABLEBREAK = 2,
    D3DKMT_TDRDBGCTRLTYPE_UNCONDITIONAL = 3,
    D3DKMT_TDRDBGCTRLTYPE_VSYNCTDR = 4,
    D3DKMT_TDRDBGCTRLTYPE_GPUTDR = 5,
    D3DKMT_TDRDBGCTRLTYPE_FORCEDODTDR = 6,
    D3DKMT_TDRDBGCTRLTYPE_FORCEDODVSYNCTDR = 7,
    D3DKMT_TDRDBGCTRLTYPE_ENGINETDR = 8,     /* simulate an engine timeout on NodeOrdinal (WIN8) */
} D3DKMT_TDRDBGCTRLTYPE;

typedef struct _D3DKMT_TDRDBGCTRL_ESCAPE {
    D3DKMT_TDRDBGCTRLTYPE TdrControl;
    union {
        ULONG NodeOrdinal;                    /* valid for D3DKMT_TDRDBGCTRLTYPE_ENGINETDR */
    };
} D3DKMT_TDRDBGCTRL_ESCAPE;

/* D3DDDI_ESCAPEFLAGS: d3dukmdt.h (pfnEscapeCb's D3DDDICB_ESCAPE holds it too). */
typedef struct _D3DKMT_ESCAPE {
    D3DKMT_HANDLE hAdapter;
    D3DKMT_HANDLE hDevice;                /* optional */
    D3DKMT_ESCAPETYPE Type;
    D3DDDI_ESCAPEFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    D3DKMT_HANDLE hContext;               /* optional */
} D3DKMT_ESCAPE;

/* Synchronization objects (docs/semantics.md §8.5; issues 4 and 20): mutexes, semaphores, fences,
 * CPU notifications and monitored fences; shared ones have a global handle (Info.SharedHandle). */
typedef struct _D3DKMT_CREATESYNCHRONIZATIONOBJECT2 {
    D3DKMT_HANDLE hDevice;
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 Info;  /* in/out (MonitoredFence addresses are out) */
    D3DKMT_HANDLE hSyncObject;               /* out */
} D3DKMT_CREATESYNCHRONIZATIONOBJECT2;

typedef struct _D3DKMT_CREATESYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hDevice;
    D3DDDI_SYNCHRONIZATIONOBJECTINFO Info;
    D3DKMT_HANDLE hSyncObject;               /* out */
} D3DKMT_CREATESYNCHRONIZATIONOBJECT;

typedef struct _D3DKMT_OPENSYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hSharedHandle;             /* a Shared object's global handle */
    D3DKMT_HANDLE hSyncObject;               /* out: a new local handle */
    UINT64 Reserved[8];
} D3DKMT_OPENSYNCHRONIZATIONOBJECT;

/* GPU waits and signals of mutexes, semaphores, fences and CPU notifications, queued in a
 * context's stream like the monitored-fence forms below. */
typedef struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_WAITED_ON];
} D3DKMT_WAITFORSYNCHRONIZATIONOBJECT;

typedef struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2 {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_WAITED_ON];
    union {
        struct { UINT64 FenceValue; } Fence;
        UINT64 Reserved[8];
    };
} D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2;

typedef struct _D3DKMT_SIGNALSYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_SIGNALED];
    D3DDDICB_SIGNALFLAGS Flags;
} D3DKMT_SIGNALSYNCHRONIZATIONOBJECT;

typedef struct _D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_SIGNALED];
    D3DDDICB_SIGNALFLAGS Flags;
    ULONG BroadcastContextCount;
    D3DKMT_HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    union {
        struct { UINT64 FenceValue; } Fence;
        HANDLE CpuEventHandle;               /* Flags.EnqueueCpuEvent */
        UINT64 Reserved[8];
    };
} D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2;

typedef struct _D3DKMT_DESTROYSYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hSyncObject;
} D3DKMT_DESTROYSYNCHRONIZATIONOBJECT;

typedef struct _D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU {
    D3DKMT_HANDLE hDevice;
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    const UINT64 *FenceValueArray;
    D3DDDICB_SIGNALFLAGS Flags;
} D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU;

typedef struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU {
    D3DKMT_HANDLE hDevice;
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    const UINT64 *FenceValueArray;
    HANDLE hAsyncEvent;                      /* NULL: the call blocks (only mode implemented) */
    D3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPU_FLAGS Flags;
} D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU;

typedef struct _D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    union {
        const UINT64 *MonitoredFenceValueArray;
        UINT64 Reserved[8];
    };
} D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU;

typedef struct _D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU {
    D3DKMT_HANDLE hContext;
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    union {
        const UINT64 *MonitoredFenceValueArray;
        UINT64 FenceValue;
        UINT64 Reserved[8];
    };
} D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU;

/* Device state (D3DKMTGetDeviceState): how a device lost to a TDR, a page fault or a failed
 * residency learns why (the runtime's GetDeviceRemovedReason, docs/semantics.md §8.3). */
typedef enum _D3DKMT_DEVICESTATE_TYPE {
    D3DKMT_DEVICESTATE_EXECUTION = 1,
    D3DKMT_DEVICESTATE_PRESENT = 2,
    D3DKMT_DEVICESTATE_RESET = 3,
    D3DKMT_DEVICESTATE_PRESENT_DWM = 4,
    D3DKMT_DEVICESTATE_PAGE_FAULT = 5,
    D3DKMT_DEVICESTATE_PRESENT_QUEUE = 6,
} D3DKMT_DEVICESTATE_TYPE;

typedef enum _D3DKMT_DEVICEEXECUTION_STATE {
    D3DKMT_DEVICEEXECUTION_ACTIVE = 1,
    D3DKMT_DEVICEEXECUTION_RESET = 2,             /* lost to another device's recovery */
    D3DKMT_DEVICEEXECUTION_HUNG = 3,              /* its own work timed out */
    D3DKMT_DEVICEEXECUTION_STOPPED = 4,
    D3DKMT_DEVICEEXECUTION_ERROR_OUTOFMEMORY = 5, /* a DMA buffer's allocations could not be resident */
    D3DKMT_DEVICEEXECUTION_ERROR_DMAFAULT = 6,
    D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT = 7,
} D3DKMT_DEVICEEXECUTION_STATE;

typedef struct _D3DKMT_DEVICERESET_STATE {
    union {
        struct {
            UINT DesktopSwitched : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DKMT_DEVICERESET_STATE;

/* The last GPU page fault of a device (D3DKMT_DEVICESTATE_PAGE_FAULT, WDDM 2.0). */
typedef struct _D3DKMT_DEVICEPAGEFAULT_STATE {
    UINT64 FaultedPrimitiveAPISequenceNumber;
    DXGK_RENDER_PIPELINE_STAGE FaultedPipelineStage;
    UINT FaultedBindTableEntry;
    DXGK_PAGE_FAULT_FLAGS PageFaultFlags;
    DXGK_FAULT_ERROR_CODE FaultErrorCode;
    D3DGPU_VIRTUAL_ADDRESS FaultedVirtualAddress;
} D3DKMT_DEVICEPAGEFAULT_STATE;

typedef struct _D3DKMT_GETDEVICESTATE {
    D3DKMT_HANDLE hDevice;                          /* [in] */
    D3DKMT_DEVICESTATE_TYPE StateType;              /* [in] EXECUTION, RESET or PAGE_FAULT here */
    union {
        D3DKMT_DEVICEEXECUTION_STATE ExecutionState; /* [out] */
        D3DKMT_DEVICERESET_STATE ResetState;         /* [out] */
        D3DKMT_DEVICEPAGEFAULT_STATE PageFaultState; /* [out] STATUS_NOT_FOUND when none */
        UINT64 Reserved[8];
    };
} D3DKMT_GETDEVICESTATE;

/* Context scheduling priority: -7 (lowest) .. +7 (highest), 0 at creation (our range: the
 * D3D9Ex SetGPUThreadPriority range; the WDK gives none). */
typedef struct _D3DKMT_SETCONTEXTSCHEDULINGPRIORITY {
    D3DKMT_HANDLE hContext;
    INT Priority;
} D3DKMT_SETCONTEXTSCHEDULINGPRIORITY;

typedef struct _D3DKMT_GETCONTEXTSCHEDULINGPRIORITY {
    D3DKMT_HANDLE hContext;                         /* [in] */
    INT Priority;                                   /* [out] */
} D3DKMT_GETCONTEXTSCHEDULINGPRIORITY;

/* Device paging queues (WDDM 2.0; WDK d3dkmthk.h / d3dukmdt.h, docs/semantics.md §9.2).
 * D3DDDI_PAGINGQUEUE_PRIORITY and D3DDDI_DESTROYPAGINGQUEUE are in d3dukmdt.h, as in the WDK
 * (the UMD's pfnCreatePagingQueueCb / pfnDestroyPagingQueueCb use them too). */
typedef struct _D3DKMT_CREATEPAGINGQUEUE {
    D3DKMT_HANDLE hDevice;                          /* [in] */
    D3DDDI_PAGINGQUEUE_PRIORITY Priority;           /* [in] among the device's paging queues */
    D3DKMT_HANDLE hPagingQueue;                     /* [out] */
    D3DKMT_HANDLE hSyncObject;                      /* [out] its monitored fence, destroyed with it */
    VOID *FenceValueCPUVirtualAddress;              /* [out] read-only view of the fence value */
    UINT PhysicalAdapterIndex;                      /* [in] engine ordinal (0: no linked adapters) */
} D3DKMT_CREATEPAGINGQUEUE;

typedef D3DDDI_DESTROYPAGINGQUEUE D3DKMT_DESTROYPAGINGQUEUE;

NTSTATUS APIENTRY D3DKMTGetDeviceState(D3DKMT_GETDEVICESTATE *);
NTSTATUS APIENTRY D3DKMTSetContextSchedulingPriority(const D3DKMT_SETCONTEXTSCHEDULINGPRIORITY *);
NTSTATUS APIENTRY D3DKMTGetContextSchedulingPriority(D3DKMT_GETCONTEXTSCHEDULINGPRIORITY *);
NTSTATUS APIENTRY D3DKMTCreateSynchronizationObject(D3DKMT_CREATESYNCHRONIZATIONOBJECT *);
NTSTATUS APIENTRY D3DKMTCreateSynchronizationObject2(D3DKMT_CREATESYNCHRONIZATIONOBJECT2 *);
NTSTATUS APIENTRY D3DKMTOpenSynchronizationObject(D3DKMT_OPENSYNCHRONIZATIONOBJECT *);
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObject(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECT *);
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObject2(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2 *);
NTSTATUS APIENTRY D3DKMTSignalSynchronizationObject(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECT *);
NTSTATUS APIENTRY D3DKMTSignalSynchronizationObject2(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 *);
NTSTATUS APIENTRY D3DKMTDestroySynchronizationObject(const D3DKMT_DESTROYSYNCHRONIZATIONOBJECT *);
NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromCpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU *);
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObjectFromCpu(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *);
NTSTATUS APIENTRY D3DKMTSignalSynchronizationObjectFromGpu(const D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *);
NTSTATUS APIENTRY D3DKMTWaitForSynchronizationObjectFromGpu(const D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *);
NTSTATUS APIENTRY D3DKMTEnumAdapters2(D3DKMT_ENUMADAPTERS2 *);
NTSTATUS APIENTRY D3DKMTOpenAdapterFromLuid(D3DKMT_OPENADAPTERFROMLUID *);
NTSTATUS APIENTRY D3DKMTCloseAdapter(const D3DKMT_CLOSEADAPTER *);
NTSTATUS APIENTRY D3DKMTQueryAdapterInfo(const D3DKMT_QUERYADAPTERINFO *);
NTSTATUS APIENTRY D3DKMTCreateDevice(D3DKMT_CREATEDEVICE *);
NTSTATUS APIENTRY D3DKMTDestroyDevice(const D3DKMT_DESTROYDEVICE *);
NTSTATUS APIENTRY D3DKMTCreateContext(D3DKMT_CREATECONTEXT *);
NTSTATUS APIENTRY D3DKMTDestroyContext(const D3DKMT_DESTROYCONTEXT *);
NTSTATUS APIENTRY D3DKMTCreateAllocation(D3DKMT_CREATEALLOCATION *);
NTSTATUS APIENTRY D3DKMTDestroyAllocation(const D3DKMT_DESTROYALLOCATION *);
NTSTATUS APIENTRY D3DKMTCreateAllocation2(D3DKMT_CREATEALLOCATION *);
NTSTATUS APIENTRY D3DKMTDestroyAllocation2(const D3DKMT_DESTROYALLOCATION2 *);
NTSTATUS APIENTRY D3DKMTLock(D3DKMT_LOCK *);
NTSTATUS APIENTRY D3DKMTUnlock(const D3DKMT_UNLOCK *);
NTSTATUS APIENTRY D3DKMTSetAllocationPriority(const D3DKMT_SETALLOCATIONPRIORITY *);
NTSTATUS APIENTRY D3DKMTGetAllocationPriority(const D3DKMT_GETALLOCATIONPRIORITY *);
NTSTATUS APIENTRY D3DKMTMakeResident(D3DDDI_MAKERESIDENT *);
/* Device paging queues (WDDM 2.0, docs/semantics.md §8.5 rule 6, §9.2; vidmm/pagingqueue.c). */
NTSTATUS APIENTRY D3DKMTCreatePagingQueue(D3DKMT_CREATEPAGINGQUEUE *);
NTSTATUS APIENTRY D3DKMTDestroyPagingQueue(D3DKMT_DESTROYPAGINGQUEUE *);
NTSTATUS APIENTRY D3DKMTEvict(D3DKMT_EVICT *);
NTSTATUS APIENTRY D3DKMTOfferAllocations(const D3DKMT_OFFERALLOCATIONS *);
NTSTATUS APIENTRY D3DKMTReclaimAllocations(D3DKMT_RECLAIMALLOCATIONS *);
NTSTATUS APIENTRY D3DKMTReclaimAllocations2(D3DKMT_RECLAIMALLOCATIONS2 *);
NTSTATUS APIENTRY D3DKMTQueryVideoMemoryInfo(D3DKMT_QUERYVIDEOMEMORYINFO *);
NTSTATUS APIENTRY D3DKMTQueryAllocationResidency(const D3DKMT_QUERYALLOCATIONRESIDENCY *);
NTSTATUS APIENTRY D3DKMTQueryStatistics(const D3DKMT_QUERYSTATISTICS *);
NTSTATUS APIENTRY D3DKMTRegisterBudgetChangeNotification(D3DKMT_REGISTERBUDGETCHANGENOTIFICATION *);
NTSTATUS APIENTRY D3DKMTUnregisterBudgetChangeNotification(const D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION *);
NTSTATUS APIENTRY D3DKMTRegisterTrimNotification(D3DKMT_REGISTERTRIMNOTIFICATION *);
NTSTATUS APIENTRY D3DKMTUnregisterTrimNotification(const D3DKMT_UNREGISTERTRIMNOTIFICATION *);
NTSTATUS APIENTRY D3DKMTChangeVideoMemoryReservation(const D3DKMT_CHANGEVIDEOMEMORYRESERVATION *);
NTSTATUS APIENTRY D3DKMTRender(D3DKMT_RENDER *);
NTSTATUS APIENTRY D3DKMTLock2(D3DKMT_LOCK2 *);
NTSTATUS APIENTRY D3DKMTUnlock2(const D3DKMT_UNLOCK2 *);
NTSTATUS APIENTRY D3DKMTEscape(const D3DKMT_ESCAPE *);


/* ---- GPU virtual addressing and virtual submission (WDDM 2.0 GpuMmu model, issue 6) ------- */
typedef struct _D3DKMT_FREEGPUVIRTUALADDRESS {
    D3DKMT_HANDLE hAdapter;
    D3DGPU_VIRTUAL_ADDRESS BaseAddress;   /* exactly a range Reserve or Map returned */
    D3DGPU_SIZE_T Size;
} D3DKMT_FREEGPUVIRTUALADDRESS;

typedef struct _D3DKMT_SUBMITCOMMANDFLAGS {
    UINT NullRendering : 1;
    UINT PresentRedirected : 1;
    UINT Reserved : 30;
} D3DKMT_SUBMITCOMMANDFLAGS;

/* D3DKMTSubmitCommand: a command buffer the UMD wrote in its own GPU-virtual memory, executed
 * by the context's engine through the process's page tables; no allocation or patch list. */
typedef struct _D3DKMT_SUBMITCOMMAND {
    D3DGPU_VIRTUAL_ADDRESS Commands;
    UINT CommandLength;
    D3DKMT_SUBMITCOMMANDFLAGS Flags;
    ULONGLONG PresentHistoryToken;
    UINT BroadcastContextCount;           /* 1 here: BroadcastContext[0] is the context */
    D3DKMT_HANDLE BroadcastContext[64];
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT NumPrimaries;
    D3DKMT_HANDLE WrittenPrimaries[16];
    UINT NumHistoryBuffers;
    D3DKMT_HANDLE *HistoryBufferArray;
} D3DKMT_SUBMITCOMMAND;

/* Opening a shared resource by its global share handle (D3DKMT_CREATEALLOCATION.hGlobalShare)
 * from a device of any adapter of the process (issue 6: cross-adapter resources). */
typedef struct _D3DKMT_QUERYRESOURCEINFO {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hGlobalShare;
    VOID *pPrivateRuntimeData;            /* in: never written (Windows copies nothing here) */
    UINT PrivateRuntimeDataSize;          /* in/out: the creator's runtime data size */
    UINT TotalPrivateDriverDataSize;      /* out */
    UINT ResourcePrivateDriverDataSize;   /* out */
    UINT NumAllocations;                  /* out */
} D3DKMT_QUERYRESOURCEINFO;

typedef struct _D3DKMT_OPENRESOURCE {
    D3DKMT_HANDLE hDevice;
    D3DKMT_HANDLE hGlobalShare;
    UINT NumAllocations;                  /* exactly the resource's */
    union {
        D3DDDI_OPENALLOCATIONINFO *pOpenAllocationInfo;   /* out: hAllocation, private data */
        D3DDDI_OPENALLOCATIONINFO2 *pOpenAllocationInfo2; /* D3DKMTOpenResource2's */
    };
    VOID *pPrivateRuntimeData;
    UINT PrivateRuntimeDataSize;          /* exactly D3DKMTQueryResourceInfo's */
    VOID *pResourcePrivateDriverData;
    UINT ResourcePrivateDriverDataSize;   /* exactly D3DKMTQueryResourceInfo's */
    VOID *pTotalPrivateDriverDataBuffer;  /* receives every allocation's private data */
    UINT TotalPrivateDriverDataBufferSize; /* in: at least D3DKMTQueryResourceInfo's; out: written */
    D3DKMT_HANDLE hResource;              /* out */
} D3DKMT_OPENRESOURCE;

NTSTATUS APIENTRY D3DKMTQueryResourceInfo(D3DKMT_QUERYRESOURCEINFO *);
NTSTATUS APIENTRY D3DKMTOpenResource(D3DKMT_OPENRESOURCE *);
NTSTATUS APIENTRY D3DKMTOpenResource2(D3DKMT_OPENRESOURCE *);

/* Keyed mutexes (objects/keyed_mutex.c; docs/architecture.md "Keyed mutexes and global
 * handles"): a process-wide lock with a 64-bit key, created released with InitialValue as its
 * key. D3DKMTAcquireKeyedMutex(2) waits until the mutex is released with the key asked for and
 * then owns it through the handle that acquired; D3DKMTReleaseKeyedMutex(2) by that owner hands
 * it on under a new key with the GPU fence value the next owner must wait for. hSharedHandle is
 * a global handle (the form of D3DKMT_CREATEALLOCATION.hGlobalShare) any caller opens a handle
 * of its own by, until the last handle on the mutex is destroyed. No device: a keyed mutex
 * belongs to the process. */
typedef struct _D3DKMT_CREATEKEYEDMUTEX {
    UINT64 InitialValue;                  /* [in] the key a first acquire must ask for */
    D3DKMT_HANDLE hSharedHandle;          /* [out] global handle */
    D3DKMT_HANDLE hKeyedMutex;            /* [out] this caller's handle */
} D3DKMT_CREATEKEYEDMUTEX;

typedef struct _D3DKMT_OPENKEYEDMUTEX {
    D3DKMT_HANDLE hSharedHandle;          /* [in] global handle (a local one is refused) */
    D3DKMT_HANDLE hKeyedMutex;            /* [out] a new handle of this caller's */
} D3DKMT_OPENKEYEDMUTEX;

typedef struct _D3DKMT_DESTROYKEYEDMUTEX {
    D3DKMT_HANDLE hKeyedMutex;            /* [in] a handle from Create or Open */
} D3DKMT_DESTROYKEYEDMUTEX;

typedef struct _D3DKMT_ACQUIREKEYEDMUTEX {
    D3DKMT_HANDLE hKeyedMutex;            /* [in] */
    UINT64 Key;                           /* [in] the key to acquire the mutex for */
    PLARGE_INTEGER pTimeout;              /* [in] 100-ns units: negative relative, positive absolute
                                             (since 1601), 0 only tests, NULL waits for ever */
    UINT64 FenceValue;                    /* [out] the fence value of the last release */
} D3DKMT_ACQUIREKEYEDMUTEX;

typedef struct _D3DKMT_RELEASEKEYEDMUTEX {
    D3DKMT_HANDLE hKeyedMutex;            /* [in] the handle that acquired it */
    UINT64 Key;                           /* [in] the key to release the mutex to */
    UINT64 FenceValue;                    /* [in] the GPU fence value the next owner waits for */
} D3DKMT_RELEASEKEYEDMUTEX;

/* Windows 8: the same objects with the runtime's private data. */
typedef struct _D3DKMT_CREATEKEYEDMUTEX2_FLAGS {
    union {
        struct {
            UINT NtSecuritySharing : 1;   /* shared by an NT handle, no global handle (0 out) */
            UINT Reserved : 31;
        };
        UINT Value;
    };
} D3DKMT_CREATEKEYEDMUTEX2_FLAGS;

typedef struct _D3DKMT_CREATEKEYEDMUTEX2 {
    UINT64 InitialValue;                  /* [in] */
    D3DKMT_HANDLE hSharedHandle;          /* [out] global handle, 0 with NtSecuritySharing */
    D3DKMT_HANDLE hKeyedMutex;            /* [out] */
    VOID *pPrivateRuntimeData;            /* [in] the mutex's runtime data (copied) */
    UINT PrivateRuntimeDataSize;          /* [in] */
    D3DKMT_CREATEKEYEDMUTEX2_FLAGS Flags; /* [in] */
} D3DKMT_CREATEKEYEDMUTEX2;

typedef struct _D3DKMT_OPENKEYEDMUTEX2 {
    D3DKMT_HANDLE hSharedHandle;          /* [in] */
    D3DKMT_HANDLE hKeyedMutex;            /* [out] */
    VOID *pPrivateRuntimeData;            /* [in] never written; the mutex's data if it has none */
    UINT PrivateRuntimeDataSize;          /* [in] 0, or at least the mutex's runtime data size */
} D3DKMT_OPENKEYEDMUTEX2;

typedef struct _D3DKMT_ACQUIREKEYEDMUTEX2 {
    D3DKMT_HANDLE hKeyedMutex;            /* [in] */
    UINT64 Key;                           /* [in] */
    PLARGE_INTEGER pTimeout;              /* [in] as D3DKMT_ACQUIREKEYEDMUTEX's */
    UINT64 FenceValue;                    /* [out] */
    VOID *pPrivateRuntimeData;            /* [out] receives the mutex's runtime data */
    UINT PrivateRuntimeDataSize;          /* [in] 0, or at least the mutex's runtime data size */
} D3DKMT_ACQUIREKEYEDMUTEX2;

typedef struct _D3DKMT_RELEASEKEYEDMUTEX2 {
    D3DKMT_HANDLE hKeyedMutex;            /* [in] */
    UINT64 Key;                           /* [in] */
    UINT64 FenceValue;                    /* [in] */
    VOID *pPrivateRuntimeData;            /* [in] the mutex's new runtime data */
    UINT PrivateRuntimeDataSize;          /* [in] 0 (data unchanged), or at least its size */
} D3DKMT_RELEASEKEYEDMUTEX2;

NTSTATUS APIENTRY D3DKMTCreateKeyedMutex(D3DKMT_CREATEKEYEDMUTEX *);
NTSTATUS APIENTRY D3DKMTCreateKeyedMutex2(D3DKMT_CREATEKEYEDMUTEX2 *);
NTSTATUS APIENTRY D3DKMTOpenKeyedMutex(D3DKMT_OPENKEYEDMUTEX *);
NTSTATUS APIENTRY D3DKMTOpenKeyedMutex2(D3DKMT_OPENKEYEDMUTEX2 *);
NTSTATUS APIENTRY D3DKMTDestroyKeyedMutex(const D3DKMT_DESTROYKEYEDMUTEX *);
NTSTATUS APIENTRY D3DKMTAcquireKeyedMutex(D3DKMT_ACQUIREKEYEDMUTEX *);
NTSTATUS APIENTRY D3DKMTAcquireKeyedMutex2(D3DKMT_ACQUIREKEYEDMUTEX2 *);
NTSTATUS APIENTRY D3DKMTReleaseKeyedMutex(D3DKMT_RELEASEKEYEDMUTEX *);
NTSTATUS APIENTRY D3DKMTReleaseKeyedMutex2(D3DKMT_RELEASEKEYEDMUTEX2 *);

/* NT-handle sharing (objects/nt_handle.c; docs/architecture.md "NT handles"). A resource made
 * with CreateShared + NtSecuritySharing, a synchronization object made with Shared +
 * NtSecuritySharing, or a resource with its keyed mutex and synchronization object (all three
 * NtSecuritySharing, in that order) become one NT object through D3DKMTShareObjects: a HANDLE of
 * the process (never a D3DKMT handle: bits 31..30 clear), closed with CloseHandle, optionally
 * named by pObjectAttributes->ObjectName. The NT object keeps what it names alive until its last
 * handle is closed: it opens after the creator destroyed its own handles. */
#define D3DKMT_MAX_OBJECTS_PER_HANDLE 3

typedef struct _D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE {
    D3DKMT_HANDLE hDevice;                /* [in] */
    HANDLE hNtHandle;                     /* [in] from D3DKMTShareObjects / D3DKMTOpenNtHandleFromName */
    VOID *pPrivateRuntimeData;            /* [in] never written (D3DKMTOpenResourceFromNtHandle copies) */
    UINT PrivateRuntimeDataSize;          /* [out] the resource's runtime data size */
    UINT TotalPrivateDriverDataSize;      /* [out] */
    UINT ResourcePrivateDriverDataSize;   /* [out] */
    UINT NumAllocations;                  /* [out] */
} D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE;

typedef struct _D3DKMT_OPENRESOURCEFROMNTHANDLE {
    D3DKMT_HANDLE hDevice;                /* [in] */
    HANDLE hNtHandle;                     /* [in] */
    UINT NumAllocations;                  /* [in] exactly the resource's */
    D3DDDI_OPENALLOCATIONINFO2 *pOpenAllocationInfo2; /* [out] */
    UINT PrivateRuntimeDataSize;          /* [in] exactly the query's */
    VOID *pPrivateRuntimeData;            /* [out] the creator's runtime data */
    UINT ResourcePrivateDriverDataSize;   /* [in] exactly the query's */
    VOID *pResourcePrivateDriverData;     /* [out] */
    UINT TotalPrivateDriverDataBufferSize; /* [in] at least the query's; [out] bytes written */
    VOID *pTotalPrivateDriverDataBuffer;  /* [out] */
    D3DKMT_HANDLE hResource;              /* [out] */
    D3DKMT_HANDLE hKeyedMutex;            /* [out] a new handle on the shared keyed mutex, else 0 */
    VOID *pKeyedMutexPrivateRuntimeData;  /* [in] the mutex's data if it has none yet */
    UINT KeyedMutexPrivateRuntimeDataSize; /* [in] */
    D3DKMT_HANDLE hSyncObject;            /* [out] a new handle on the shared sync object, else 0 */
} D3DKMT_OPENRESOURCEFROMNTHANDLE;

typedef struct _D3DKMT_OPENNTHANDLEFROMNAME {
    DWORD dwDesiredAccess;                /* [in] 0 is refused (STATUS_ACCESS_DENIED) */
    OBJECT_ATTRIBUTES *pObjAttrib;        /* [in] ObjectName: the name given to D3DKMTShareObjects */
    HANDLE hNtHandle;                     /* [out] a new NT handle on the named resource */
} D3DKMT_OPENNTHANDLEFROMNAME;

typedef struct _D3DKMT_OPENSYNCOBJECTNTHANDLEFROMNAME {
    DWORD dwDesiredAccess;                /* [in] */
    OBJECT_ATTRIBUTES *pObjAttrib;        /* [in] */
    HANDLE hNtHandle;                     /* [out] a new NT handle on the named sync object */
} D3DKMT_OPENSYNCOBJECTNTHANDLEFROMNAME;

typedef struct _D3DKMT_OPENSYNCOBJECTFROMNTHANDLE {
    HANDLE hNtHandle;                     /* [in] */
    D3DKMT_HANDLE hSyncObject;            /* [out] a local handle no device owns */
} D3DKMT_OPENSYNCOBJECTFROMNTHANDLE;

typedef struct _D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 {
    HANDLE hNtHandle;                     /* [in] */
    D3DKMT_HANDLE hDevice;                /* [in] the device that owns the new local handle */
    D3DDDI_SYNCHRONIZATIONOBJECT_FLAGS Flags; /* [in] never written */
    D3DKMT_HANDLE hSyncObject;            /* [out] */
    union {
        struct {
            VOID *FenceValueCPUVirtualAddress;   /* [out] a monitored fence's read-only value */
            D3DGPU_VIRTUAL_ADDRESS FenceValueGPUVirtualAddress; /* [out] 0: no GPU VA space */
            UINT EngineAffinity;                 /* [in] */
        } MonitoredFence;
        UINT64 Reserved[8];
    };
} D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2;

/* The adapter a shared resource was created on (IDXGIFactory2::GetSharedResourceAdapterLuid):
 * exactly one of a global share handle and an NT handle names it. */
typedef struct _D3DKMT_GETSHAREDRESOURCEADAPTERLUID {
    D3DKMT_HANDLE hGlobalShare;           /* [in] a global share handle, or 0 */
    HANDLE hNtHandle;                     /* [in] an NT handle to the resource, or NULL */
    LUID AdapterLuid;                     /* [out] */
} D3DKMT_GETSHAREDRESOURCEADAPTERLUID;

NTSTATUS APIENTRY D3DKMTGetSharedResourceAdapterLuid(D3DKMT_GETSHAREDRESOURCEADAPTERLUID *);
NTSTATUS APIENTRY D3DKMTShareObjects(UINT cObjects, const D3DKMT_HANDLE *hObjects, OBJECT_ATTRIBUTES *pObjectAttributes,
                                     DWORD dwDesiredAccess, HANDLE *phSharedNtHandle);
NTSTATUS APIENTRY D3DKMTQueryResourceInfoFromNtHandle(D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE *);
NTSTATUS APIENTRY D3DKMTOpenResourceFromNtHandle(D3DKMT_OPENRESOURCEFROMNTHANDLE *);
NTSTATUS APIENTRY D3DKMTOpenNtHandleFromName(D3DKMT_OPENNTHANDLEFROMNAME *);
NTSTATUS APIENTRY D3DKMTOpenSyncObjectNtHandleFromName(D3DKMT_OPENSYNCOBJECTNTHANDLEFROMNAME *);
NTSTATUS APIENTRY D3DKMTOpenSyncObjectFromNtHandle(D3DKMT_OPENSYNCOBJECTFROMNTHANDLE *);
NTSTATUS APIENTRY D3DKMTOpenSyncObjectFromNtHandle2(D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 *);

NTSTATUS APIENTRY D3DKMTReserveGpuVirtualAddress(D3DDDI_RESERVEGPUVIRTUALADDRESS *);
NTSTATUS APIENTRY D3DKMTMapGpuVirtualAddress(D3DDDI_MAPGPUVIRTUALADDRESS *);
NTSTATUS APIENTRY D3DKMTFreeGpuVirtualAddress(const D3DKMT_FREEGPUVIRTUALADDRESS *);
NTSTATUS APIENTRY D3DKMTSubmitCommand(const D3DKMT_SUBMITCOMMAND *);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_D3DKMTHK_H */
