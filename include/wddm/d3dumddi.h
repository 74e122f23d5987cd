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

/* The WDK's table, with the members this model implements, in the WDK's relative order. */
/* ---- The callbacks this runtime does not model ----------------------------------------------------
 * Overlays, display modes, the legacy synchronization objects, offers, residency queries,
 * priorities, escapes, markers, cache invalidation... With their WDK prototypes, so the table below
 * has every slot's type; their argument structures are declared only. The runtime fills these
 * slots with functions that answer E_NOTIMPL and say so in debug mode (runtime/callbacks.c). */
typedef struct D3DDDICB_CREATECONTEXTVIRTUAL D3DDDICB_CREATECONTEXTVIRTUAL;
typedef struct D3DDDICB_CREATEOVERLAY D3DDDICB_CREATEOVERLAY;
typedef struct D3DDDICB_CREATESYNCHRONIZATIONOBJECT D3DDDICB_CREATESYNCHRONIZATIONOBJECT;
typedef struct D3DDDICB_DEALLOCATE2 D3DDDICB_DEALLOCATE2;
typedef struct D3DDDICB_DESTROYOVERLAY D3DDDICB_DESTROYOVERLAY;
typedef struct D3DDDICB_ESCAPE D3DDDICB_ESCAPE;
typedef struct D3DDDICB_FLIPOVERLAY D3DDDICB_FLIPOVERLAY;
typedef struct D3DDDICB_GETMULTISAMPLEMETHODLIST D3DDDICB_GETMULTISAMPLEMETHODLIST;
typedef struct D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA D3DDDI_GETRESOURCEPRESENTPRIVATEDRIVERDATA;
typedef struct D3DDDICB_INVALIDATECACHE D3DDDICB_INVALIDATECACHE;
typedef struct D3DDDICB_LOGUMDMARKER D3DDDICB_LOGUMDMARKER;
typedef struct D3DDDICB_OFFERALLOCATIONS2 D3DDDICB_OFFERALLOCATIONS2;
typedef struct D3DDDICB_OFFERALLOCATIONS D3DDDICB_OFFERALLOCATIONS;
typedef struct D3DDDICB_PRESENT D3DDDICB_PRESENT;
typedef struct D3DDDICB_PRESENTMULTIPLANEOVERLAY D3DDDICB_PRESENTMULTIPLANEOVERLAY;
typedef struct D3DDDICB_QUERYADAPTERINFO2 D3DDDICB_QUERYADAPTERINFO2;
typedef struct D3DDDICB_QUERYRESIDENCY D3DDDICB_QUERYRESIDENCY;
typedef struct D3DDDICB_RECLAIMALLOCATIONS2 D3DDDICB_RECLAIMALLOCATIONS2;
typedef struct D3DDDICB_RECLAIMALLOCATIONS3 D3DDDICB_RECLAIMALLOCATIONS3;
typedef struct D3DDDICB_RECLAIMALLOCATIONS D3DDDICB_RECLAIMALLOCATIONS;
typedef struct D3DDDICB_SETDISPLAYMODE D3DDDICB_SETDISPLAYMODE;
typedef struct D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT D3DDDICB_SETDISPLAYPRIVATEDRIVERFORMAT;
typedef struct D3DDDICB_SETPRIORITY D3DDDICB_SETPRIORITY;
typedef struct D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2 D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2;
typedef struct D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT;
typedef struct D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2 D3DDDICB_SIGNALSYNCHRONIZATIONOBJECTFROMGPU2;
typedef struct D3DDDI_UPDATEALLOCPROPERTY D3DDDI_UPDATEALLOCPROPERTY;
typedef struct D3DDDICB_UPDATEGPUVIRTUALADDRESS D3DDDICB_UPDATEGPUVIRTUALADDRESS;
typedef struct D3DDDICB_UPDATEOVERLAY D3DDDICB_UPDATEOVERLAY;
typedef struct D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2 D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2;
typedef struct D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT;
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
