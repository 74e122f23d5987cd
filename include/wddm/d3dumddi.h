/* Runtime callbacks a user-mode driver calls (the WDK's d3dumddi.h subset): how the UMD
 * reaches VidMm and the scheduler (seed 001 §2). The runtime implements each callback by
 * calling the matching D3DKMT thunk. */
#ifndef WDDM_D3DUMDDI_H
#define WDDM_D3DUMDDI_H

#include <wddm/d3dukmdt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* D3DDDIERR_* (MAKE_D3DHRESULT(code) = 0x88760000 | code), docs/semantics.md §3.6. */
#define MAKE_D3DHRESULT(code)               ((HRESULT)(0x88760000u | (code)))
#define D3DERR_WASSTILLDRAWING              MAKE_D3DHRESULT(540)
#define D3DDDIERR_WASSTILLDRAWING           MAKE_D3DHRESULT(540)   /* 0x8876021C */
#define D3DERR_NOTAVAILABLE                 MAKE_D3DHRESULT(2154)
#define D3DDDIERR_NOTAVAILABLE              MAKE_D3DHRESULT(2154)  /* 0x8876086A */
#define D3DDDIERR_DEVICEREMOVED             MAKE_D3DHRESULT(2160)  /* 0x88760870 */
#define D3DERR_OUTOFVIDEOMEMORY             MAKE_D3DHRESULT(380)
#define D3DDDIERR_CANTEVICTPINNEDALLOCATION ((HRESULT)0xC01E0111)  /* HRESULT of ERROR_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION */
#define D3DDDIERR_CANTRENDERLOCKEDALLOCATION ((HRESULT)0xC01E0114) /* HRESULT of ERROR_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION */

/* ---- pfnQueryAdapterInfoCb ---------------------------------------------------------------- */
typedef struct _D3DDDICB_QUERYADAPTERINFO {
    VOID *pPrivateDriverData;       /* receives the KMD's DXGKQAITYPE_UMDRIVERPRIVATE data */
    UINT PrivateDriverDataSize;
} D3DDDICB_QUERYADAPTERINFO;

typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_QUERYADAPTERINFOCB)(HANDLE hAdapter, D3DDDICB_QUERYADAPTERINFO *);


/* ---- pfnAllocateCb / pfnDeallocateCb (§3.5) ----------------------------------------------- */
typedef struct _D3DDDICB_ALLOCATE {
    const VOID *pPrivateDriverData;   /* per-resource data for DxgkDdiCreateAllocation */
    UINT PrivateDriverDataSize;
    HANDLE hResource;                 /* runtime resource (hRTResource) or NULL */
    D3DKMT_HANDLE hKMResource;        /* out */
    UINT NumAllocations;
    D3DDDI_ALLOCATIONINFO *pAllocationInfo;
} D3DDDICB_ALLOCATE;

typedef struct _D3DDDICB_DEALLOCATE {
    HANDLE hResource;                 /* non-NULL: all allocations of the resource and it */
    UINT NumAllocations;
    const D3DKMT_HANDLE *HandleList;
} D3DDDICB_DEALLOCATE;

/* ---- pfnLockCb / pfnUnlockCb (§3.1) -------------------------------------------------------- */
typedef struct _D3DDDICB_LOCK {
    D3DKMT_HANDLE hAllocation;
    UINT PrivateDriverData;
    UINT NumPages;
    const UINT *pPages;
    VOID *pData;                      /* out */
    D3DDDICB_LOCKFLAGS Flags;
    D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress;
} D3DDDICB_LOCK;

typedef struct _D3DDDICB_UNLOCK {
    UINT NumAllocations;
    const D3DKMT_HANDLE *phAllocations;
} D3DDDICB_UNLOCK;

/* ---- pfnRenderCb ------------------------------------------------------------------------------ */
typedef struct _D3DDDICB_RENDERFLAGS {
    union {
        struct { UINT ResizeCommandBuffer : 1; UINT ResizeAllocationList : 1; UINT ResizePatchLocationList : 1; UINT Reserved : 29; };
        UINT Value;
    };
} D3DDDICB_RENDERFLAGS;

typedef struct _D3DDDICB_RENDER {
    UINT CommandLength;                              /* bytes of commands written */
    UINT CommandOffset;
    UINT NumAllocations;                             /* allocation-list entries used */
    UINT NumPatchLocations;                          /* patch-location entries used */
    VOID *pNewCommandBuffer;                         /* out */
    UINT NewCommandBufferSize;                       /* in/out */
    D3DDDI_ALLOCATIONLIST *pNewAllocationList;       /* out */
    UINT NewAllocationListSize;                      /* in/out */
    D3DDDI_PATCHLOCATIONLIST *pNewPatchLocationList; /* out */
    UINT NewPatchLocationListSize;                   /* in/out */
    D3DDDICB_RENDERFLAGS Flags;
    HANDLE hContext;                                 /* the D3DKMT context handle */
    UINT BroadcastContextCount;
    HANDLE BroadcastContext[64];
} D3DDDICB_RENDER;

/* ---- pfnCreateContextCb / pfnDestroyContextCb ---------------------------------------------- */
typedef struct _D3DDDICB_CREATECONTEXT {
    UINT NodeOrdinal;
    UINT EngineAffinity;
    UINT Flags;                                      /* D3DDDI_CREATECONTEXTFLAGS.Value */
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    HANDLE hContext;                                 /* out */
    VOID *pCommandBuffer;                            /* out */
    UINT CommandBufferSize;                          /* out */
    D3DDDI_ALLOCATIONLIST *pAllocationList;          /* out */
    UINT AllocationListSize;                         /* out */
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationList;    /* out */
    UINT PatchLocationListSize;                      /* out */
    D3DGPU_VIRTUAL_ADDRESS CommandBuffer;
} D3DDDICB_CREATECONTEXT;

typedef struct _D3DDDICB_DESTROYCONTEXT { HANDLE hContext; } D3DDDICB_DESTROYCONTEXT;

/* ---- WDDM 2.x synchronisation, residency and lock callbacks (docs/semantics.md §3.3, §8.5, §9.2) --
 * A WDDM 2.x UMD synchronises the CPU with the GPU itself: a monitored fence per context, signalled
 * from the GPU after each submission and waited on from the CPU (never by polling), and locks
 * through pfnLock2Cb, which neither renames nor waits. Each callback is one D3DKMT thunk. */
typedef struct _D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 {
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 Info;          /* in/out (MonitoredFence addresses are out) */
    D3DKMT_HANDLE hSyncObject;                       /* out */
} D3DDDICB_CREATESYNCHRONIZATIONOBJECT2;

typedef struct _D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT {
    D3DKMT_HANDLE hSyncObject;
} D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT;

typedef struct _D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU {
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    const UINT64 *FenceValueArray;
    HANDLE hAsyncEvent;                              /* NULL: the call blocks */
    D3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPU_FLAGS Flags;
} D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU;

typedef struct _D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMCPU {
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    const UINT64 *FenceValueArray;
    D3DDDICB_SIGNALFLAGS Flags;
} D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMCPU;

typedef struct _D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU {
    HANDLE hContext;                                 /* the D3DKMT context handle */
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    union {
        const UINT64 *MonitoredFenceValueArray;
        UINT64 FenceValue;
        UINT64 Reserved[8];
    };
} D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU;

typedef struct _D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU {
    HANDLE hContext;                                 /* the D3DKMT context handle */
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    union {
        const UINT64 *MonitoredFenceValueArray;
        UINT64 Reserved[8];
    };
} D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU;

/* pfnMakeResidentCb takes D3DDDI_MAKERESIDENT (d3dukmdt.h) itself; S_OK, E_PENDING (wait for
 * PagingFenceValue), E_OUTOFMEMORY (atomic failure, NumBytesToTrim set). */
typedef struct _D3DDDICB_EVICT {
    UINT NumAllocations;
    const D3DKMT_HANDLE *AllocationList;
    D3DDDI_EVICT_FLAGS Flags;
    UINT64 NumBytesToTrim;                           /* out */
} D3DDDICB_EVICT;

typedef struct _D3DDDICB_LOCK2 {
    D3DKMT_HANDLE hAllocation;
    D3DDDICB_LOCK2FLAGS Flags;                       /* no flags defined: must be 0 */
    VOID *pData;                                     /* out */
} D3DDDICB_LOCK2;

typedef struct _D3DDDICB_UNLOCK2 {
    D3DKMT_HANDLE hAllocation;
} D3DDDICB_UNLOCK2;

/* ---- WDDM 2.0 GpuMmu callbacks (docs/semantics.md §3.3 "WDDM 2.x", §9.2; issue 6) -----------------
 * A UMD of a GpuMmu adapter gives every allocation a GPU virtual address (pfnMapGpuVirtualAddressCb
 * takes D3DDDI_MAPGPUVIRTUALADDRESS, pfnReserveGpuVirtualAddressCb D3DDDI_RESERVEGPUVIRTUALADDRESS,
 * both d3dukmdt.h), makes it resident itself, waits for the returned paging fence values on its
 * paging queue's monitored fence, and submits command buffers it wrote in its own GPU-virtual
 * memory with pfnSubmitCommandCb (no allocation or patch-location list). */
typedef struct _D3DDDICB_CREATEPAGINGQUEUE {
    D3DDDI_PAGINGQUEUE_PRIORITY Priority;            /* in */
    D3DKMT_HANDLE hPagingQueue;                      /* out */
    D3DKMT_HANDLE hSyncObject;                       /* out: the queue's monitored fence */
    VOID *FenceValueCPUVirtualAddress;               /* out: read-only view of its value */
    UINT PhysicalAdapterIndex;                       /* in: 0 (no linked adapters) */
} D3DDDICB_CREATEPAGINGQUEUE;

typedef struct _D3DDDICB_FREEGPUVIRTUALADDRESS {
    D3DGPU_VIRTUAL_ADDRESS BaseAddress;              /* exactly a range Reserve or Map returned */
    D3DGPU_SIZE_T Size;
} D3DDDICB_FREEGPUVIRTUALADDRESS;

typedef struct _D3DDDICB_SUBMITCOMMANDFLAGS {
    union {
        struct {
            UINT NullRendering : 1;
            UINT PresentRedirected : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} D3DDDICB_SUBMITCOMMANDFLAGS;

#define D3DDDI_MAX_BROADCAST_CONTEXT 64

typedef struct _D3DDDICB_SUBMITCOMMAND {
    D3DGPU_VIRTUAL_ADDRESS Commands;                 /* GPU VA of the first command */
    UINT CommandLength;                              /* bytes */
    D3DDDICB_SUBMITCOMMANDFLAGS Flags;
    UINT64 PresentHistoryToken;
    UINT BroadcastContextCount;                      /* 1 in this model */
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT NumPrimaries;
    D3DKMT_HANDLE WrittenPrimaries[16];
    UINT NumHistoryBuffers;
    D3DKMT_HANDLE *HistoryBufferArray;
} D3DDDICB_SUBMITCOMMAND;

/* hDevice of every device callback is the runtime's device handle (D3D10DDI_HRTDEVICE.handle). */
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_ALLOCATECB)(HANDLE hDevice, D3DDDICB_ALLOCATE *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DEALLOCATECB)(HANDLE hDevice, const D3DDDICB_DEALLOCATE *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_RENDERCB)(HANDLE hDevice, D3DDDICB_RENDER *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_LOCKCB)(HANDLE hDevice, D3DDDICB_LOCK *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_UNLOCKCB)(HANDLE hDevice, const D3DDDICB_UNLOCK *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATECONTEXTCB)(HANDLE hDevice, D3DDDICB_CREATECONTEXT *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DESTROYCONTEXTCB)(HANDLE hDevice, const D3DDDICB_DESTROYCONTEXT *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DESTROYSYNCHRONIZATIONOBJECTCB)(HANDLE hDevice,
                                                                       const D3DDDICB_DESTROYSYNCHRONIZATIONOBJECT *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATESYNCHRONIZATIONOBJECT2CB)(HANDLE hDevice,
                                                                       D3DDDICB_CREATESYNCHRONIZATIONOBJECT2 *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_MAKERESIDENTCB)(HANDLE hDevice, D3DDDI_MAKERESIDENT *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_EVICTCB)(HANDLE hDevice, D3DDDICB_EVICT *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPUCB)(
    HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMCPU *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMCPUCB)(
    HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMCPU *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMGPUCB)(
    HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECTFROMGPU *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMGPUCB)(
    HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_LOCK2CB)(HANDLE hDevice, D3DDDICB_LOCK2 *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_UNLOCK2CB)(HANDLE hDevice, const D3DDDICB_UNLOCK2 *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATEPAGINGQUEUECB)(HANDLE hDevice, D3DDDICB_CREATEPAGINGQUEUE *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DESTROYPAGINGQUEUECB)(HANDLE hDevice, const D3DDDI_DESTROYPAGINGQUEUE *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_RESERVEGPUVIRTUALADDRESSCB)(HANDLE hDevice,
                                                                        D3DDDI_RESERVEGPUVIRTUALADDRESS *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_MAPGPUVIRTUALADDRESSCB)(HANDLE hDevice, D3DDDI_MAPGPUVIRTUALADDRESS *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_FREEGPUVIRTUALADDRESSCB)(HANDLE hDevice,
                                                                     const D3DDDICB_FREEGPUVIRTUALADDRESS *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SUBMITCOMMANDCB)(HANDLE hDevice, const D3DDDICB_SUBMITCOMMAND *);

/* ---- The callbacks this runtime does not model ----------------------------------------------------
 * Overlays, display modes, the legacy synchronization objects, offers, residency queries,
 * priorities, escapes, markers, cache invalidation... The runtime fills these slots with functions
 * that answer E_NOTIMPL and say so in debug mode (runtime/callbacks_not_modeled.c). Their argument
 * structures have the WDK's members, order and types all the same (the ns-d3dumddi-_d3dddicb_*
 * reference pages; where the current page has no syntax block, an earlier revision's, or the
 * published one's for members added since), so a UMD written for Windows that fills one before
 * calling compiles unchanged and learns the answer. A structure or value no syntax block shows
 * is marked unconfirmed: its members are the page's field list, their types inferred. */

/* pfnSetPriorityCb: one D3DDDI_ALLOCATIONPRIORITY_* per allocation, or pPriorities[0] for all of
 * hResource's. */
typedef struct _D3DDDICB_SETPRIORITY {
    HANDLE hResource;
    UINT NumAllocations;
    const D3DKMT_HANDLE *HandleList;
    const UINT *pPriorities;
} D3DDDICB_SETPRIORITY;

/* pfnQueryResidencyCb. unconfirmed values: the enumeration's page lists the names without values;
 * these are those of D3DKMT_ALLOCATIONRESIDENCYSTATUS, the thunk's same three states. */
typedef enum _D3DDDI_RESIDENCYSTATUS {
    D3DDDI_RESIDENCYSTATUS_RESIDENTINGPUMEMORY = 1,
    D3DDDI_RESIDENCYSTATUS_RESIDENTINSHAREDMEMORY = 2,
    D3DDDI_RESIDENCYSTATUS_NOTRESIDENT = 3,
} D3DDDI_RESIDENCYSTATUS;

typedef struct _D3DDDICB_QUERYRESIDENCY {
    HANDLE hResource;
    UINT NumAllocations;
    const D3DKMT_HANDLE *HandleList;
    D3DDDI_RESIDENCYSTATUS *pResidencyStatus;        /* out: one per allocation */
} D3DDDICB_QUERYRESIDENCY;

typedef struct _D3DDDICB_SETDISPLAYMODE {
    D3DKMT_HANDLE hPrimaryAllocation;
    UINT PrivateDriverFormatAttribute;               /* out */
} D3DDDICB_SETDISPLAYMODE;

/* pfnPresentCb. The members after BroadcastContext are the WDDM 2.0 and 2.2 additions (the page's
 * current field list; types from its published syntax). */
typedef struct _D3DDDICB_PRESENT {
    D3DKMT_HANDLE hSrcAllocation;
    D3DKMT_HANDLE hDstAllocation;
    HANDLE hContext;
    UINT BroadcastContextCount;
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    D3DKMT_HANDLE *BroadcastSrcAllocation;
    D3DKMT_HANDLE *BroadcastDstAllocation;
    UINT PrivateDriverDataSize;
    PVOID pPrivateDriverData;
    BOOLEAN bOptimizeForComposition;                 /* out */
    BOOL SyncIntervalOverrideValid;
    D3DDDI_FLIPINTERVAL_TYPE SyncIntervalOverride;
} D3DDDICB_PRESENT;

/* pfnEscapeCb: the D3DKMT_ESCAPE the thunk takes, from the UMD's handles. */
typedef struct _D3DDDICB_ESCAPE {
    HANDLE hDevice;
    D3DDDI_ESCAPEFLAGS Flags;
    VOID *pPrivateDriverData;                        /* in/out */
    UINT PrivateDriverDataSize;
    HANDLE hContext;
} D3DDDICB_ESCAPE;

/* Kernel overlays. */
typedef struct _D3DDDICB_CREATEOVERLAY {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    D3DDDI_KERNELOVERLAYINFO OverlayInfo;
    D3DKMT_HANDLE hKernelOverlay;                    /* out */
} D3DDDICB_CREATEOVERLAY;

typedef struct _D3DDDICB_UPDATEOVERLAY {
    D3DKMT_HANDLE hKernelOverlay;
    D3DDDI_KERNELOVERLAYINFO OverlayInfo;
} D3DDDICB_UPDATEOVERLAY;

typedef struct _D3DDDICB_FLIPOVERLAY {
    D3DKMT_HANDLE hKernelOverlay;
    D3DKMT_HANDLE hSource;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
} D3DDDICB_FLIPOVERLAY;

typedef struct _D3DDDICB_DESTROYOVERLAY {
    D3DKMT_HANDLE hKernelOverlay;
} D3DDDICB_DESTROYOVERLAY;

/* The first synchronization objects (mutexes and semaphores) and their GPU waits and signals. */
typedef struct _D3DDDICB_CREATESYNCHRONIZATIONOBJECT {
    D3DDDI_SYNCHRONIZATIONOBJECTINFO Info;
    D3DKMT_HANDLE hSyncObject;                       /* out */
} D3DDDICB_CREATESYNCHRONIZATIONOBJECT;

typedef struct _D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT {
    HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_WAITED_ON];
} D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT;

typedef struct _D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT {
    HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_SIGNALED];
    D3DDDICB_SIGNALFLAGS Flags;
} D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT;

typedef struct _D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT PrivateDriverFormatAttribute;
} D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT;

/* Offers: exactly one of pResources (runtime resource handles) and HandleList names them. */
typedef struct _D3DDDICB_OFFERALLOCATIONS {
    const HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    UINT NumAllocations;
    D3DDDI_OFFER_PRIORITY Priority;
} D3DDDICB_OFFERALLOCATIONS;

typedef struct _D3DDDICB_RECLAIMALLOCATIONS {
    const HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    BOOL *pDiscarded;                                /* out: one per entry */
    UINT NumAllocations;
} D3DDDICB_RECLAIMALLOCATIONS;

/* The fence forms. BroadcastContext holds HANDLEs, as the published syntax has it (an earlier
 * revision of the page showed D3DKMT_HANDLE; a UMD's contexts are HANDLEs everywhere else). */
typedef struct _D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 {
    HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_WAITED_ON];
    UINT64 FenceValue;
} D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2;

typedef struct _D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 {
    HANDLE hContext;
    UINT ObjectCount;
    D3DKMT_HANDLE ObjectHandleArray[D3DDDI_MAX_OBJECT_SIGNALED];
    D3DDDICB_SIGNALFLAGS Flags;
    ULONG BroadcastContextCount;
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    union {
        UINT64 FenceValue;
        HANDLE CpuEventHandle;                       /* Flags.EnqueueCpuEvent */
    };
} D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2;

/* pfnPresentMultiPlaneOverlayCb (WDDM 1.3). */
#define D3DDDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS 16

typedef struct D3DDDI_MULTIPLANE_OVERLAY_ALLOCATION_INFO {
    D3DKMT_HANDLE PresentAllocation;
    UINT SubResourceIndex;
} D3DDDI_MULTIPLANE_ALLOCATION_INFO;

typedef struct D3DDDICB_PRESENTMULTIPLANEOVERLAY {
    HANDLE hContext;
    UINT BroadcastContextCount;
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    UINT AllocationInfoCount;
    D3DDDI_MULTIPLANE_ALLOCATION_INFO AllocationInfo[D3DDDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS];
} D3DDDICB_PRESENTMULTIPLANEOVERLAY;

/* pfnLogUMDMarkerCb: where an ETW marker of the UMD's lies. */
typedef struct D3DDDICB_LOGUMDMARKER {
    HANDLE hContext;
    UINT64 APISequenceNumber;
    INT Index;
    INT StringIndex;
    LPCWSTR Info;
} D3DDDICB_LOGUMDMARKER;

/* pfnInvalidateCacheCb. unconfirmed: the page lists hAllocation, Offset, Length with no syntax
 * block; types as in the published syntax. */
typedef struct _D3DDDICB_INVALIDATECACHE {
    D3DKMT_HANDLE hAllocation;
    SIZE_T Offset;
    SIZE_T Length;
} D3DDDICB_INVALIDATECACHE;

/* pfnUpdateGpuVirtualAddressCb: a batch of mapping operations, synchronized with hContext's
 * monitored fence hFenceObject reaching FenceValue. */
typedef struct _D3DDDICB_UPDATEGPUVIRTUALADDRESS {
    HANDLE hContext;
    D3DKMT_HANDLE hFenceObject;
    UINT NumOperations;
    D3DDDI_UPDATEGPUVIRTUALADDRESS_OPERATION *Operations;
    UINT Reserved0;
    UINT64 Reserved1;
    UINT64 FenceValue;
    union {
        struct {
            UINT DoNotWait : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    } Flags;
} D3DDDICB_UPDATEGPUVIRTUALADDRESS;

/* pfnCreateContextVirtualCb: a GpuMmu context (submitted with pfnSubmitCommandCb). */
typedef struct _D3DDDICB_CREATECONTEXTVIRTUAL {
    UINT NodeOrdinal;
    UINT EngineAffinity;
    D3DDDI_CREATECONTEXTFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    HANDLE hContext;                                 /* out */
} D3DDDICB_CREATECONTEXTVIRTUAL;

typedef struct _D3DDDICB_DEALLOCATE2 {
    HANDLE hResource;
    UINT NumAllocations;
    const D3DKMT_HANDLE *HandleList;
    D3DDDICB_DESTROYALLOCATION2FLAGS Flags;
} D3DDDICB_DEALLOCATE2;

/* pfnSignalSynchronizationObjectFromGpu2Cb: one signal broadcast to several contexts. */
typedef struct D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2 {
    UINT ObjectCount;
    const D3DKMT_HANDLE *ObjectHandleArray;
    D3DDDICB_SIGNALFLAGS Flags;
    ULONG BroadcastContextCount;
    const HANDLE *BroadcastContextArray;
    union {
        UINT64 FenceValue;
        HANDLE CpuEventHandle;
        const UINT64 *MonitoredFenceValueArray;
        UINT64 Reserved[8];
    };
} D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2;

typedef struct _D3DDDICB_RECLAIMALLOCATIONS2 {
    D3DKMT_HANDLE PagingQueue;
    UINT NumAllocations;
    const HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    BOOL *pDiscarded;                                /* out, optional */
    UINT64 PagingFenceValue;                         /* out */
} D3DDDICB_RECLAIMALLOCATIONS2;

/* WDDM 2.1's offers with decommit. unconfirmed, both: the pages list the members with no syntax
 * block; types as in the first forms and the published syntax. */
typedef struct D3DDDICB_OFFERALLOCATIONS2 {
    const HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    UINT NumAllocations;
    D3DDDI_OFFER_PRIORITY Priority;
    D3DDDI_OFFER_FLAGS Flags;
} D3DDDICB_OFFERALLOCATIONS2;

typedef struct _D3DDDICB_RECLAIMALLOCATIONS3 {
    D3DKMT_HANDLE PagingQueue;
    UINT NumAllocations;
    const HANDLE *pResources;
    const D3DKMT_HANDLE *HandleList;
    D3DDDI_RECLAIM_RESULT *pResults;                 /* out: one per entry */
    UINT64 PagingFenceValue;                         /* out */
} D3DDDICB_RECLAIMALLOCATIONS3;

/* pfnQueryAdapterInfoCb2 (WDDM 2.x). unconfirmed, both: the pages list the names with no syntax
 * block; values as the DirectX-Specs page "D3D12: Application Specific Driver State" gives
 * them, types as the published syntax. */
typedef enum _D3DDDI_QUERYADAPTERTYPE {
    D3DDDI_QUERYADAPTERTYPE_DRIVERPRIVATE = 0,
    D3DDDI_QUERYADAPTERTYPE_QUERYREGISTRY = 1,
    D3DDDI_QUERYADAPTERTYPE_APPLICATIONSPECIFICDRIVERBLOB = 2,
} D3DDDI_QUERYADAPTERTYPE;

typedef struct _D3DDDICB_QUERYADAPTERINFO2 {
    D3DDDI_QUERYADAPTERTYPE QueryType;
    VOID *pPrivateDriverData;                        /* out */
    UINT PrivateDriverDataSize;                      /* in/out */
} D3DDDICB_QUERYADAPTERINFO2;

/* D3D9's pfnGetMultisampleMethodListCb (an adapter callback). */
typedef struct _D3DDDICB_GETMULTISAMPLEMETHODLIST {
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DDDI_MULTISAMPLINGMETHOD *pMethodList;         /* out */
    UINT MethodCount;                                /* in/out */
} D3DDDICB_GETMULTISAMPLEMETHODLIST;

typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATECONTEXTVIRTUALCB)(HANDLE hDevice, D3DDDICB_CREATECONTEXTVIRTUAL *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATEOVERLAYCB)(HANDLE hDevice, D3DDDICB_CREATEOVERLAY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_CREATESYNCHRONIZATIONOBJECTCB)(HANDLE hDevice, D3DDDICB_CREATESYNCHRONIZATIONOBJECT *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DEALLOCATE2CB)(HANDLE hDevice, const D3DDDICB_DEALLOCATE2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_DESTROYOVERLAYCB)(HANDLE hDevice, const D3DDDICB_DESTROYOVERLAY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_ESCAPECB)(HANDLE hAdapter, const D3DDDICB_ESCAPE *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_FLIPOVERLAYCB)(HANDLE hDevice, const D3DDDICB_FLIPOVERLAY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_GETMULTISAMPLEMETHODLISTCB)(HANDLE hAdapter, D3DDDICB_GETMULTISAMPLEMETHODLIST *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATACB)(HANDLE hDevice, D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_INVALIDATECACHECB)(HANDLE hDevice, const D3DDDICB_INVALIDATECACHE *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_LOGUMDMARKERCB)(HANDLE hDevice, const D3DDDICB_LOGUMDMARKER *pLogUMDMarker);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_OFFERALLOCATIONS2CB)(HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_OFFERALLOCATIONSCB)(HANDLE hDevice, const D3DDDICB_OFFERALLOCATIONS *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_PRESENTCB)(HANDLE hDevice, const D3DDDICB_PRESENT *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_PRESENTMULTIPLANEOVERLAYCB)(HANDLE hDevice, const D3DDDICB_PRESENTMULTIPLANEOVERLAY *pPresent);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_QUERYADAPTERINFOCB2)(HANDLE hAdapter, const D3DDDICB_QUERYADAPTERINFO2 *);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_QUERYRESIDENCYCB)(HANDLE hDevice, const D3DDDICB_QUERYRESIDENCY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_RECLAIMALLOCATIONS2CB)(HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_RECLAIMALLOCATIONS3CB)(HANDLE hDevice, D3DDDICB_RECLAIMALLOCATIONS3 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_RECLAIMALLOCATIONSCB)(HANDLE hDevice, const D3DDDICB_RECLAIMALLOCATIONS *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SETASYNCCALLBACKSCB)(HANDLE hDevice, BOOL Enable);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SETDISPLAYMODECB)(HANDLE hDevice, D3DDDICB_SETDISPLAYMODE *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SETDISPLAYPRIVATEDRIVERFORMATCB)(HANDLE hDevice, const D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SETPRIORITYCB)(HANDLE hDevice, D3DDDICB_SETPRIORITY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECT2CB)(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTCB)(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2CB)(HANDLE hDevice, const D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_UPDATEALLOCATIONPROPERTYCB)(HANDLE hDevice, D3DDDI_UPDATEALLOCPROPERTY *pUpdateAllocationProperty);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_UPDATEGPUVIRTUALADDRESSCB)(HANDLE hDevice, const D3DDDICB_UPDATEGPUVIRTUALADDRESS *pData); /* unconfirmed */
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_UPDATEOVERLAYCB)(HANDLE hDevice, const D3DDDICB_UPDATEOVERLAY *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECT2CB)(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 *pData);
typedef HRESULT (APIENTRY CALLBACK *PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB)(HANDLE hDevice, const D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT *pData);

/* The runtime's device callbacks, every slot in the WDK's order up to WDDM 2.1 (the hardware-queue
 * callbacks of later versions are not part of this model). */
typedef struct _D3DDDI_DEVICECALLBACKS {
    PFND3DDDI_ALLOCATECB                            pfnAllocateCb;
    PFND3DDDI_DEALLOCATECB                          pfnDeallocateCb;
    PFND3DDDI_SETPRIORITYCB                         pfnSetPriorityCb;
    PFND3DDDI_QUERYRESIDENCYCB                      pfnQueryResidencyCb;
    PFND3DDDI_SETDISPLAYMODECB                      pfnSetDisplayModeCb;
    PFND3DDDI_PRESENTCB                             pfnPresentCb;
    PFND3DDDI_RENDERCB                              pfnRenderCb;
    PFND3DDDI_LOCKCB                                pfnLockCb;
    PFND3DDDI_UNLOCKCB                              pfnUnlockCb;
    PFND3DDDI_ESCAPECB                              pfnEscapeCb;
    PFND3DDDI_CREATEOVERLAYCB                       pfnCreateOverlayCb;
    PFND3DDDI_UPDATEOVERLAYCB                       pfnUpdateOverlayCb;
    PFND3DDDI_FLIPOVERLAYCB                         pfnFlipOverlayCb;
    PFND3DDDI_DESTROYOVERLAYCB                      pfnDestroyOverlayCb;
    PFND3DDDI_CREATECONTEXTCB                       pfnCreateContextCb;
    PFND3DDDI_DESTROYCONTEXTCB                      pfnDestroyContextCb;
    PFND3DDDI_CREATESYNCHRONIZATIONOBJECTCB         pfnCreateSynchronizationObjectCb;
    PFND3DDDI_DESTROYSYNCHRONIZATIONOBJECTCB        pfnDestroySynchronizationObjectCb;
    PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB        pfnWaitForSynchronizationObjectCb;
    PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTCB         pfnSignalSynchronizationObjectCb;
    PFND3DDDI_SETASYNCCALLBACKSCB                   pfnSetAsyncCallbacksCb;
    PFND3DDDI_SETDISPLAYPRIVATEDRIVERFORMATCB       pfnSetDisplayPrivateDriverFormatCb;
    PFND3DDDI_OFFERALLOCATIONSCB                    pfnOfferAllocationsCb;
    PFND3DDDI_RECLAIMALLOCATIONSCB                  pfnReclaimAllocationsCb;
    PFND3DDDI_CREATESYNCHRONIZATIONOBJECT2CB        pfnCreateSynchronizationObject2Cb;
    PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECT2CB       pfnWaitForSynchronizationObject2Cb;
    PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECT2CB        pfnSignalSynchronizationObject2Cb;
    PFND3DDDI_PRESENTMULTIPLANEOVERLAYCB            pfnPresentMultiPlaneOverlayCb;
    PFND3DDDI_LOGUMDMARKERCB                        pfnLogUMDMarkerCb;
    PFND3DDDI_MAKERESIDENTCB                        pfnMakeResidentCb;
    PFND3DDDI_EVICTCB                               pfnEvictCb;
    PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMCPUCB pfnWaitForSynchronizationObjectFromCpuCb;
    PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMCPUCB  pfnSignalSynchronizationObjectFromCpuCb;
    PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTFROMGPUCB pfnWaitForSynchronizationObjectFromGpuCb;
    PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMGPUCB  pfnSignalSynchronizationObjectFromGpuCb;
    PFND3DDDI_CREATEPAGINGQUEUECB                   pfnCreatePagingQueueCb;
    PFND3DDDI_DESTROYPAGINGQUEUECB                  pfnDestroyPagingQueueCb;
    PFND3DDDI_LOCK2CB                               pfnLock2Cb;
    PFND3DDDI_UNLOCK2CB                             pfnUnlock2Cb;
    PFND3DDDI_INVALIDATECACHECB                     pfnInvalidateCacheCb;
    PFND3DDDI_RESERVEGPUVIRTUALADDRESSCB            pfnReserveGpuVirtualAddressCb;
    PFND3DDDI_MAPGPUVIRTUALADDRESSCB                pfnMapGpuVirtualAddressCb;
    PFND3DDDI_FREEGPUVIRTUALADDRESSCB               pfnFreeGpuVirtualAddressCb;
    PFND3DDDI_UPDATEGPUVIRTUALADDRESSCB             pfnUpdateGpuVirtualAddressCb;
    PFND3DDDI_CREATECONTEXTVIRTUALCB                pfnCreateContextVirtualCb;
    PFND3DDDI_SUBMITCOMMANDCB                       pfnSubmitCommandCb;
    PFND3DDDI_DEALLOCATE2CB                         pfnDeallocate2Cb;
    PFND3DDDI_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2CB pfnSignalSynchronizationObjectFromGpu2Cb;
    PFND3DDDI_RECLAIMALLOCATIONS2CB                 pfnReclaimAllocations2Cb;
    PFND3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATACB pfnGetResourcePresentPrivateDriverDataCb;
    PFND3DDDI_UPDATEALLOCATIONPROPERTYCB            pfnUpdateAllocationPropertyCb;
    PFND3DDDI_OFFERALLOCATIONS2CB                   pfnOfferAllocations2Cb;
    PFND3DDDI_RECLAIMALLOCATIONS3CB                 pfnReclaimAllocations3Cb;
} D3DDDI_DEVICECALLBACKS;

/* OpenAdapter10(_2)'s callbacks. The multisample-method list is D3D9's: not modeled. */
typedef struct _D3DDDI_ADAPTERCALLBACKS {
    PFND3DDDI_QUERYADAPTERINFOCB pfnQueryAdapterInfoCb;
    PFND3DDDI_GETMULTISAMPLEMETHODLISTCB pfnGetMultisampleMethodListCb;
} D3DDDI_ADAPTERCALLBACKS;

#ifdef __cplusplus
}
#endif
#endif /* WDDM_D3DUMDDI_H */
