/* DXGI's part of the user-mode driver interface (the WDK's dxgiddi.h subset): the table a UMD
 * fills in D3D10DDIARG_CREATEDEVICE.DXGIBaseDDI and the callbacks the runtime gives it there.
 *
 * In this model presentation does not go through the UMD: the runtime's swap chain presents
 * with the kernel's thunks itself. The structures are here, in the WDK's layout, so a UMD
 * written for Windows fills them without change; the runtime gives it the storage and never
 * calls what it put there, and its callbacks answer E_NOTIMPL (docs/drivers.md, "What the
 * runtime models"). */
#ifndef WDDM_DXGIDDI_H
#define WDDM_DXGIDDI_H

#include <wddm/d3dukmdt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The arguments of the DXGI functions: declared, not modeled. */
typedef struct DXGI_DDI_ARG_PRESENT DXGI_DDI_ARG_PRESENT;
typedef struct DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS;
typedef struct DXGI_DDI_ARG_SETDISPLAYMODE DXGI_DDI_ARG_SETDISPLAYMODE;
typedef struct DXGI_DDI_ARG_SETRESOURCEPRIORITY DXGI_DDI_ARG_SETRESOURCEPRIORITY;
typedef struct DXGI_DDI_ARG_QUERYRESOURCERESIDENCY DXGI_DDI_ARG_QUERYRESOURCERESIDENCY;
typedef struct DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES;
typedef struct DXGI_DDI_ARG_BLT DXGI_DDI_ARG_BLT;
typedef struct DXGI_DDI_ARG_RESOLVESHAREDRESOURCE DXGI_DDI_ARG_RESOLVESHAREDRESOURCE;
typedef struct DXGI_DDI_ARG_BLT1 DXGI_DDI_ARG_BLT1;
typedef struct DXGI_DDI_ARG_OFFERRESOURCES DXGI_DDI_ARG_OFFERRESOURCES;
typedef struct DXGI_DDI_ARG_RECLAIMRESOURCES DXGI_DDI_ARG_RECLAIMRESOURCES;
typedef struct DXGI_DDI_ARG_GETMULTIPLANEOVERLAYCAPS DXGI_DDI_ARG_GETMULTIPLANEOVERLAYCAPS;
typedef struct DXGI_DDI_ARG_CHECKMULTIPLANEOVERLAYSUPPORT DXGI_DDI_ARG_CHECKMULTIPLANEOVERLAYSUPPORT;
typedef struct DXGI_DDI_ARG_PRESENTMULTIPLANEOVERLAY DXGI_DDI_ARG_PRESENTMULTIPLANEOVERLAY;

/* DXGI_DDI_BASE_FUNCTIONS (DXGI 1.0), DXGI1_1_ (adds ResolveSharedResource), DXGI1_2_ (WDDM 1.2:
 * Blt1, offers, multiplane overlays): each the one before with members appended. */
#define DXGI_DDI_BASE_FUNCTIONS_MEMBERS                                                             \
    HRESULT (APIENTRY *pfnPresent)(DXGI_DDI_ARG_PRESENT *);                                        \
    HRESULT (APIENTRY *pfnGetGammaCaps)(DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS *);                    \
    HRESULT (APIENTRY *pfnSetDisplayMode)(DXGI_DDI_ARG_SETDISPLAYMODE *);                          \
    HRESULT (APIENTRY *pfnSetResourcePriority)(DXGI_DDI_ARG_SETRESOURCEPRIORITY *);                \
    HRESULT (APIENTRY *pfnQueryResourceResidency)(DXGI_DDI_ARG_QUERYRESOURCERESIDENCY *);          \
    HRESULT (APIENTRY *pfnRotateResourceIdentities)(DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES *);    \
    HRESULT (APIENTRY *pfnBlt)(DXGI_DDI_ARG_BLT *);
typedef struct DXGI_DDI_BASE_FUNCTIONS {
    DXGI_DDI_BASE_FUNCTIONS_MEMBERS
} DXGI_DDI_BASE_FUNCTIONS;
typedef struct DXGI1_1_DDI_BASE_FUNCTIONS {
    DXGI_DDI_BASE_FUNCTIONS_MEMBERS
    HRESULT (APIENTRY *pfnResolveSharedResource)(DXGI_DDI_ARG_RESOLVESHAREDRESOURCE *);
} DXGI1_1_DDI_BASE_FUNCTIONS;
typedef struct DXGI1_2_DDI_BASE_FUNCTIONS {
    DXGI_DDI_BASE_FUNCTIONS_MEMBERS
    HRESULT (APIENTRY *pfnResolveSharedResource)(DXGI_DDI_ARG_RESOLVESHAREDRESOURCE *);
    HRESULT (APIENTRY *pfnBlt1)(DXGI_DDI_ARG_BLT1 *);
    HRESULT (APIENTRY *pfnOfferResources)(DXGI_DDI_ARG_OFFERRESOURCES *);
    HRESULT (APIENTRY *pfnReclaimResources)(DXGI_DDI_ARG_RECLAIMRESOURCES *);
    HRESULT (APIENTRY *pfnGetMultiplaneOverlayCaps)(DXGI_DDI_ARG_GETMULTIPLANEOVERLAYCAPS *);
    HRESULT (APIENTRY *pfnGetMultiplaneOverlayFilterRange)(void *); /* reserved: 0 */
    HRESULT (APIENTRY *pfnCheckMultiplaneOverlaySupport)(DXGI_DDI_ARG_CHECKMULTIPLANEOVERLAYSUPPORT *);
    HRESULT (APIENTRY *pfnPresentMultiplaneOverlay)(DXGI_DDI_ARG_PRESENTMULTIPLANEOVERLAY *);
} DXGI1_2_DDI_BASE_FUNCTIONS;
#undef DXGI_DDI_BASE_FUNCTIONS_MEMBERS

/* The runtime's DXGI callbacks (not modeled: the runtime presents itself; both answer E_NOTIMPL).
 * Their arguments have the WDK's members, order and types (ns-dxgiddi-dxgiddicb_present*.md; the
 * members after BroadcastContext of DXGIDDICB_PRESENT are the WDDM 2.0 and 2.2 additions, the
 * page's current field list with its published syntax's types), so a UMD written for Windows
 * fills them unchanged. */
typedef enum DXGI_DDI_FLIP_INTERVAL_TYPE {
    DXGI_DDI_FLIP_INTERVAL_IMMEDIATE = 0,
    DXGI_DDI_FLIP_INTERVAL_ONE = 1,
    DXGI_DDI_FLIP_INTERVAL_TWO = 2,
    DXGI_DDI_FLIP_INTERVAL_THREE = 3,
    DXGI_DDI_FLIP_INTERVAL_FOUR = 4,
} DXGI_DDI_FLIP_INTERVAL_TYPE;

typedef struct DXGIDDICB_PRESENT {
    D3DKMT_HANDLE hSrcAllocation;
    D3DKMT_HANDLE hDstAllocation;
    void *pDXGIContext;                              /* DXGI_DDI_ARG_PRESENT's, passed back */
    HANDLE hContext;
    UINT BroadcastContextCount;
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    D3DKMT_HANDLE *BroadcastSrcAllocation;
    D3DKMT_HANDLE *BroadcastDstAllocation;
    UINT PrivateDriverDataSize;
    PVOID pPrivateDriverData;
    BOOLEAN bOptimizeForComposition;                 /* out */
    BOOL SyncIntervalOverrideValid;
    DXGI_DDI_FLIP_INTERVAL_TYPE SyncIntervalOverride;
} DXGIDDICB_PRESENT;

#define DXGI_DDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS 16

typedef struct DXGIDDI_MULTIPLANE_OVERLAY_ALLOCATION_INFO {
    D3DKMT_HANDLE PresentAllocation;
    UINT SubResourceIndex;
} DXGIDDI_MULTIPLANE_OVERLAY_ALLOCATION_INFO;

typedef struct DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY {
    void *pDXGIContext;
    HANDLE hContext;
    UINT BroadcastContextCount;
    HANDLE BroadcastContext[D3DDDI_MAX_BROADCAST_CONTEXT];
    DWORD AllocationInfoCount;
    DXGIDDI_MULTIPLANE_OVERLAY_ALLOCATION_INFO AllocationInfo[DXGI_DDI_MAX_MULTIPLANE_OVERLAY_ALLOCATIONS];
} DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY;

typedef HRESULT (APIENTRY CALLBACK *PFNDDXGIDDI_PRESENTCB)(HANDLE hDevice, const DXGIDDICB_PRESENT *pPresentData);
typedef HRESULT (APIENTRY CALLBACK *PFNDDXGIDDI_PRESENT_MULTIPLANE_OVERLAYCB)(HANDLE hDevice, const DXGIDDICB_PRESENT_MULTIPLANE_OVERLAY *pPresentDXGI);

typedef struct DXGI_DDI_BASE_CALLBACKS {
    PFNDDXGIDDI_PRESENTCB pfnPresentCb;
    PFNDDXGIDDI_PRESENT_MULTIPLANE_OVERLAYCB pfnPresentMultiplaneOverlayCb; /* WDDM 1.2 */
} DXGI_DDI_BASE_CALLBACKS;

typedef struct DXGI_DDI_BASE_ARGS {
    DXGI_DDI_BASE_CALLBACKS *pDXGIBaseCallbacks;     /* in: the runtime's */
    union {                                          /* in: the runtime's storage, filled by the UMD */
        DXGI1_2_DDI_BASE_FUNCTIONS *pDXGIDDIBaseFunctions3; /* D3D11.1 */
        DXGI1_1_DDI_BASE_FUNCTIONS *pDXGIDDIBaseFunctions2; /* D3D10.1, D3D11.0 */
        DXGI_DDI_BASE_FUNCTIONS *pDXGIDDIBaseFunctions;     /* D3D10.0 */
    };
} DXGI_DDI_BASE_ARGS;

#ifdef __cplusplus
}
#endif
#endif /* WDDM_DXGIDDI_H */
