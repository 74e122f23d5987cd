/* The Direct3D 10/11 user-mode driver DDI (the WDK's d3d10umddi.h subset): what the runtime
 * calls in a UMD. Names and values are the WDK's (wddm-semantics §4); the declarations are
 * ours, with the members this model implements, in the WDK's relative order.
 *
 * Driver handles (D3D10DDI_H*) point into memory the runtime allocated with the size the
 * matching CalcPrivate*Size returned (seed 001 §3); runtime handles (D3D10DDI_HRT*) are the
 * runtime's. */
#ifndef WDDM_D3D10UMDDI_H
#define WDDM_D3D10UMDDI_H

#include <dxgiformat.h>
#include <wddm/d3dumddi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Handles ------------------------------------------------------------------------------- */
typedef struct D3D10DDI_HADAPTER { void *pDrvPrivate; } D3D10DDI_HADAPTER;
typedef struct D3D10DDI_HRTADAPTER { void *handle; } D3D10DDI_HRTADAPTER;
typedef struct D3D10DDI_HDEVICE { void *pDrvPrivate; } D3D10DDI_HDEVICE;
typedef struct D3D10DDI_HRTDEVICE { void *handle; } D3D10DDI_HRTDEVICE;
typedef struct D3D10DDI_HRTCORELAYER { void *handle; } D3D10DDI_HRTCORELAYER;
typedef struct D3D10DDI_HRESOURCE { void *pDrvPrivate; } D3D10DDI_HRESOURCE;
typedef struct D3D10DDI_HRTRESOURCE { void *handle; } D3D10DDI_HRTRESOURCE;
typedef struct D3D10DDI_HKMRESOURCE { D3DKMT_HANDLE handle; } D3D10DDI_HKMRESOURCE;
typedef struct D3D10DDI_HRENDERTARGETVIEW { void *pDrvPrivate; } D3D10DDI_HRENDERTARGETVIEW;
typedef struct D3D10DDI_HRTRENDERTARGETVIEW { void *handle; } D3D10DDI_HRTRENDERTARGETVIEW;

/* ---- Versions -------------------------------------------------------------------------------- */
#define D3D10_DDI_MAJOR_VERSION 10
#define D3D11_DDI_MAJOR_VERSION 11
#define D3D11_0_DDI_MINOR_VERSION 1
#define D3D11_0_DDI_INTERFACE_VERSION ((D3D11_DDI_MAJOR_VERSION << 16) | D3D11_0_DDI_MINOR_VERSION)
#define D3D11_0_DDI_BUILD_VERSION 3
#define D3D11_0_DDI_SUPPORTED ((((UINT64)D3D11_0_DDI_INTERFACE_VERSION) << 32) | (((UINT64)D3D11_0_DDI_BUILD_VERSION) << 16))

/* ---- Errors a UMD reports through pfnSetErrorCb (wddm-semantics §3.6) --------------------------- */
#define DXGI_DDI_ERR_WASSTILLDRAWING ((HRESULT)0x887B0001)
#define DXGI_DDI_ERR_UNSUPPORTED     ((HRESULT)0x887B0002)
#define DXGI_DDI_ERR_NONEXCLUSIVE    ((HRESULT)0x887B0003)

/* ---- Resource description (wddm-semantics §4.2) ---------------------------------------------- */
typedef enum D3D10DDIRESOURCE_TYPE {
    D3D10DDIRESOURCE_BUFFER = 1,
    D3D10DDIRESOURCE_TEXTURE1D = 2,
    D3D10DDIRESOURCE_TEXTURE2D = 3,
    D3D10DDIRESOURCE_TEXTURE3D = 4,
    D3D10DDIRESOURCE_TEXTURECUBE = 5,
    D3D11DDIRESOURCE_BUFFEREX = 6,
} D3D10DDIRESOURCE_TYPE;

typedef enum D3D10_DDI_RESOURCE_USAGE {
    D3D10_DDI_USAGE_DEFAULT = 0,
    D3D10_DDI_USAGE_IMMUTABLE = 1,
    D3D10_DDI_USAGE_DYNAMIC = 2,
    D3D10_DDI_USAGE_STAGING = 3,
} D3D10_DDI_RESOURCE_USAGE;

typedef enum D3D10_DDI_RESOURCE_BIND_FLAG {
    D3D10_DDI_BIND_VERTEX_BUFFER = 0x1,
    D3D10_DDI_BIND_INDEX_BUFFER = 0x2,
    D3D10_DDI_BIND_CONSTANT_BUFFER = 0x4,
    D3D10_DDI_BIND_SHADER_RESOURCE = 0x8,
    D3D10_DDI_BIND_STREAM_OUTPUT = 0x10,
    D3D10_DDI_BIND_RENDER_TARGET = 0x20,
    D3D10_DDI_BIND_DEPTH_STENCIL = 0x40,
    D3D10_DDI_BIND_PRESENT = 0x80,
    D3D11_DDI_BIND_UNORDERED_ACCESS = 0x100,
    D3D11_DDI_BIND_DECODER = 0x200,
} D3D10_DDI_RESOURCE_BIND_FLAG;

/* MapFlags of D3D11DDIARG_CREATERESOURCE: the CPU-access bitmask (model decision,
 * wddm-semantics §10 #4): API D3D11_CPU_ACCESS_* >> 16. */
typedef enum D3D10_DDI_CPU_ACCESS {
    D3D10_DDI_CPU_ACCESS_WRITE = 0x1,
    D3D10_DDI_CPU_ACCESS_READ = 0x2,
} D3D10_DDI_CPU_ACCESS;

typedef enum D3D10_DDI_RESOURCE_MISC_FLAG {
    D3D10_DDI_RESOURCE_MISC_GENERATE_MIPS = 0x1,
    D3D10_DDI_RESOURCE_MISC_SHARED = 0x2,
    D3D10_DDI_RESOURCE_MISC_DISCARD_ON_PRESENT = 0x8,
    D3D11_DDI_RESOURCE_MISC_DRAWINDIRECT_ARGS = 0x10,
    D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS = 0x20,
    D3D11_DDI_RESOURCE_MISC_BUFFER_STRUCTURED = 0x40,
    D3D11_DDI_RESOURCE_MISC_RESOURCE_CLAMP = 0x80,
    D3DWDDM1_3DDI_RESOURCE_MISC_CROSS_ADAPTER = 0x2000,
} D3D10_DDI_RESOURCE_MISC_FLAG;

typedef struct D3D10DDI_MIPINFO {
    UINT TexelWidth;
    UINT TexelHeight;
    UINT TexelDepth;
    UINT PhysicalWidth;   /* rounded up to whole blocks for block-compressed formats */
    UINT PhysicalHeight;
    UINT PhysicalDepth;
} D3D10DDI_MIPINFO;

typedef struct D3D10_DDIARG_SUBRESOURCE_UP {
    const VOID *pSysMem;
    UINT SysMemPitch;
    UINT SysMemSlicePitch;
} D3D10_DDIARG_SUBRESOURCE_UP;

typedef struct D3D11DDIARG_CREATERESOURCE {
    const D3D10DDI_MIPINFO *pMipInfoList;            /* MipLevels entries */
    const D3D10_DDIARG_SUBRESOURCE_UP *pInitialDataUP; /* MipLevels*ArraySize entries, or NULL */
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    UINT Usage;                                      /* D3D10_DDI_RESOURCE_USAGE */
    UINT BindFlags;                                  /* D3D10_DDI_RESOURCE_BIND_FLAG */
    UINT MapFlags;                                   /* D3D10_DDI_CPU_ACCESS */
    UINT MiscFlags;                                  /* D3D10_DDI_RESOURCE_MISC_FLAG */
    DXGI_FORMAT Format;
    DXGI_SAMPLE_DESC SampleDesc;
    UINT MipLevels;                                  /* resolved (never 0 here) */
    UINT ArraySize;                                  /* cube: 6 per cube */
    const VOID *pPrimaryDesc;
    UINT ByteStride;
} D3D11DDIARG_CREATERESOURCE;

/* ---- Map (wddm-semantics §4.3) -------------------------------------------------------------- */
typedef enum D3D10_DDI_MAP {
    D3D10_DDI_MAP_READ = 1,
    D3D10_DDI_MAP_WRITE = 2,
    D3D10_DDI_MAP_READWRITE = 3,
    D3D10_DDI_MAP_WRITE_DISCARD = 4,
    D3D10_DDI_MAP_WRITE_NOOVERWRITE = 5,
} D3D10_DDI_MAP;

typedef enum D3D10_DDI_MAP_FLAG {
    D3D10_DDI_MAP_FLAG_DONOTWAIT = 0x00100000,
    D3D10_DDI_MAP_FLAG_MASK = 0x00100000,
} D3D10_DDI_MAP_FLAG;

typedef struct D3D10DDI_MAPPED_SUBRESOURCE {
    void *pData;
    UINT RowPitch;
    UINT DepthPitch;
} D3D10DDI_MAPPED_SUBRESOURCE;

typedef struct D3D10_DDI_BOX {
    INT left;
    INT top;
    INT front;
    INT right;
    INT bottom;
    INT back;
} D3D10_DDI_BOX;

/* ---- Views ------------------------------------------------------------------------------------ */
typedef struct D3D10DDIARG_BUFFER_RENDERTARGETVIEW { UINT FirstElement; UINT NumElements; } D3D10DDIARG_BUFFER_RENDERTARGETVIEW;
typedef struct D3D10DDIARG_TEX1D_RENDERTARGETVIEW { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D10DDIARG_TEX1D_RENDERTARGETVIEW;
typedef struct D3D10DDIARG_TEX2D_RENDERTARGETVIEW { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D10DDIARG_TEX2D_RENDERTARGETVIEW;
typedef struct D3D10DDIARG_TEX3D_RENDERTARGETVIEW { UINT MipSlice; UINT FirstW; UINT WSize; } D3D10DDIARG_TEX3D_RENDERTARGETVIEW;
typedef struct D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW;

typedef struct D3D10DDIARG_CREATERENDERTARGETVIEW {
    D3D10DDI_HRESOURCE hDrvResource;
    DXGI_FORMAT Format;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    union {
        D3D10DDIARG_BUFFER_RENDERTARGETVIEW Buffer;
        D3D10DDIARG_TEX1D_RENDERTARGETVIEW Tex1D;
        D3D10DDIARG_TEX2D_RENDERTARGETVIEW Tex2D;
        D3D10DDIARG_TEX3D_RENDERTARGETVIEW Tex3D;
        D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW TexCube;
    };
} D3D10DDIARG_CREATERENDERTARGETVIEW;

/* ---- Function prototypes ---------------------------------------------------------------------- */
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATERESOURCESIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *);
typedef VOID (APIENTRY *PFND3D11DDI_CREATERESOURCE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *, D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYRESOURCE)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *);
typedef VOID (APIENTRY *PFND3D10DDI_CREATERENDERTARGETVIEW)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *, D3D10DDI_HRENDERTARGETVIEW, D3D10DDI_HRTRENDERTARGETVIEW);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYRENDERTARGETVIEW)(D3D10DDI_HDEVICE, D3D10DDI_HRENDERTARGETVIEW);
typedef VOID (APIENTRY *PFND3D10DDI_CHECKFORMATSUPPORT)(D3D10DDI_HDEVICE, DXGI_FORMAT, UINT *);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYDEVICE)(D3D10DDI_HDEVICE);

typedef VOID (APIENTRY *PFND3D10DDI_RESOURCEMAP)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT Subresource, D3D10_DDI_MAP, UINT Flags, D3D10DDI_MAPPED_SUBRESOURCE *);
typedef VOID (APIENTRY *PFND3D10DDI_RESOURCEUNMAP)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE, UINT Subresource);
typedef VOID (APIENTRY *PFND3D10DDI_RESOURCECOPYREGION)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE hDst, UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ,
                                                        D3D10DDI_HRESOURCE hSrc, UINT SrcSubresource, const D3D10_DDI_BOX *pSrcBox);
typedef VOID (APIENTRY *PFND3D10DDI_RESOURCECOPY)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE hDst, D3D10DDI_HRESOURCE hSrc);
typedef VOID (APIENTRY *PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE hDst, UINT DstSubresource, const D3D10_DDI_BOX *pDstBox,
                                                                 const VOID *pSysMemUP, UINT RowPitch, UINT DepthPitch);
typedef VOID (APIENTRY *PFND3D10DDI_CLEARRENDERTARGETVIEW)(D3D10DDI_HDEVICE, D3D10DDI_HRENDERTARGETVIEW, FLOAT ColorRGBA[4]);
typedef VOID (APIENTRY *PFND3D10DDI_FLUSH)(D3D10DDI_HDEVICE);
typedef BOOL (APIENTRY *PFND3D10DDI_RESOURCEISSTAGINGBUSY)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);

/* Device (object creation) functions. */
typedef struct D3D11DDI_DEVICEFUNCS {
    PFND3D11DDI_CALCPRIVATERESOURCESIZE pfnCalcPrivateResourceSize;
    PFND3D11DDI_CREATERESOURCE pfnCreateResource;
    PFND3D10DDI_DESTROYRESOURCE pfnDestroyResource;
    PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE pfnCalcPrivateRenderTargetViewSize;
    PFND3D10DDI_CREATERENDERTARGETVIEW pfnCreateRenderTargetView;
    PFND3D10DDI_DESTROYRENDERTARGETVIEW pfnDestroyRenderTargetView;
    PFND3D10DDI_CHECKFORMATSUPPORT pfnCheckFormatSupport;
    PFND3D10DDI_DESTROYDEVICE pfnDestroyDevice;
} D3D11DDI_DEVICEFUNCS;

/* Immediate-context functions. The map slots share one prototype; the runtime picks the
 * slot from usage, bind flags and map type (wddm-semantics §4.3 table). */
typedef struct D3D11DDI_DEVICECONTEXTFUNCS {
    PFND3D10DDI_RESOURCEMAP pfnDynamicIABufferMapNoOverwrite;
    PFND3D10DDI_RESOURCEUNMAP pfnDynamicIABufferUnmap;
    PFND3D10DDI_RESOURCEMAP pfnDynamicConstantBufferMapDiscard;
    PFND3D10DDI_RESOURCEMAP pfnDynamicIABufferMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP pfnDynamicConstantBufferUnmap;
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP pfnDefaultConstantBufferUpdateSubresourceUP;
    PFND3D10DDI_FLUSH pfnFlush;
    PFND3D10DDI_RESOURCECOPYREGION pfnResourceCopyRegion;
    PFND3D10DDI_RESOURCECOPY pfnResourceCopy;
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP pfnResourceUpdateSubresourceUP;
    PFND3D10DDI_RESOURCEMAP pfnResourceMap;
    PFND3D10DDI_RESOURCEUNMAP pfnResourceUnmap;
    PFND3D10DDI_RESOURCEISSTAGINGBUSY pfnResourceIsStagingBusy;
    PFND3D10DDI_RESOURCEMAP pfnStagingResourceMap;
    PFND3D10DDI_RESOURCEUNMAP pfnStagingResourceUnmap;
    PFND3D10DDI_RESOURCEMAP pfnDynamicResourceMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP pfnDynamicResourceUnmap;
    PFND3D10DDI_CLEARRENDERTARGETVIEW pfnClearRenderTargetView;
} D3D11DDI_DEVICECONTEXTFUNCS;

/* ---- Callbacks the runtime's core layer gives the UMD ----------------------------------------- */
typedef VOID (APIENTRY CALLBACK *PFND3D10DDI_SETERROR_CB)(D3D10DDI_HRTCORELAYER, HRESULT);
typedef struct D3D11DDI_CORELAYER_DEVICECALLBACKS {
    PFND3D10DDI_SETERROR_CB pfnSetErrorCb;
} D3D11DDI_CORELAYER_DEVICECALLBACKS;

/* ---- Adapter and device creation ------------------------------------------------------------ */
typedef struct D3D10DDIARG_CALCPRIVATEDEVICESIZE {
    UINT Interface;
    UINT Version;
    UINT Flags;
} D3D10DDIARG_CALCPRIVATEDEVICESIZE;

typedef struct D3D10DDIARG_CREATEDEVICE {
    D3D10DDI_HRTDEVICE hRTDevice;                    /* passed back as hDevice of every D3DDDI callback */
    UINT Interface;
    UINT Version;
    const D3DDDI_DEVICECALLBACKS *pKTCallbacks;
    D3D11DDI_DEVICEFUNCS *p11DeviceFuncs;            /* out: filled by the UMD */
    D3D11DDI_DEVICECONTEXTFUNCS *p11ContextFuncs;    /* out: filled by the UMD */
    D3D10DDI_HDEVICE hDrvDevice;                     /* runtime-allocated, CalcPrivateDeviceSize bytes */
    D3D10DDI_HRTCORELAYER hRTCoreLayer;
    const D3D11DDI_CORELAYER_DEVICECALLBACKS *p11UMCallbacks;
    UINT Flags;
} D3D10DDIARG_CREATEDEVICE;

typedef enum D3D10_2DDICAPS_TYPE {
    D3D10_2DDICAPS_TYPE_GETFORMATCOUNT = 1,
    D3D10_2DDICAPS_TYPE_GETFORMATDATA = 2,
    D3D10_2DDICAPS_TYPE_GETMULTISAMPLEQUALITYLEVELS = 3,
    D3D11DDICAPS_THREADING = 4,
} D3D10_2DDICAPS_TYPE;

typedef struct D3D10_2DDIARG_GETCAPS {
    D3D10_2DDICAPS_TYPE Type;
    VOID *pInfo;
    VOID *pData;
    UINT DataSize;
} D3D10_2DDIARG_GETCAPS;

#define D3D11DDICAPS_FREETHREADED 0x1
#define D3D11DDICAPS_COMMANDLISTS 0x2
#define D3D11DDICAPS_COMMANDLISTS_BUILD_2 0x4
typedef struct D3D11DDI_THREADING_CAPS { UINT Caps; } D3D11DDI_THREADING_CAPS;

typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATEDEVICESIZE)(D3D10DDI_HADAPTER, const D3D10DDIARG_CALCPRIVATEDEVICESIZE *);
typedef HRESULT (APIENTRY *PFND3D10DDI_CREATEDEVICE)(D3D10DDI_HADAPTER, D3D10DDIARG_CREATEDEVICE *);
typedef HRESULT (APIENTRY *PFND3D10DDI_CLOSEADAPTER)(D3D10DDI_HADAPTER);
typedef HRESULT (APIENTRY *PFND3D10_2DDI_GETSUPPORTEDVERSIONS)(D3D10DDI_HADAPTER, UINT32 *puEntries, UINT64 *pSupportedDDIInterfaceVersions);
typedef HRESULT (APIENTRY *PFND3D10_2DDI_GETCAPS)(D3D10DDI_HADAPTER, const D3D10_2DDIARG_GETCAPS *);

typedef struct D3D10_2DDI_ADAPTERFUNCS {
    PFND3D10DDI_CALCPRIVATEDEVICESIZE pfnCalcPrivateDeviceSize;
    PFND3D10DDI_CREATEDEVICE pfnCreateDevice;
    PFND3D10DDI_CLOSEADAPTER pfnCloseAdapter;
    PFND3D10_2DDI_GETSUPPORTEDVERSIONS pfnGetSupportedVersions;
    PFND3D10_2DDI_GETCAPS pfnGetCaps;
} D3D10_2DDI_ADAPTERFUNCS;

typedef struct D3D10DDIARG_OPENADAPTER {
    D3D10DDI_HRTADAPTER hRTAdapter;                  /* passed back as hAdapter of pfnQueryAdapterInfoCb */
    D3D10DDI_HADAPTER hAdapter;                      /* out: the UMD's adapter */
    UINT Interface;
    UINT Version;
    const D3DDDI_ADAPTERCALLBACKS *pAdapterCallbacks;
    D3D10_2DDI_ADAPTERFUNCS *pAdapterFuncs_2;        /* out: filled by the UMD */
} D3D10DDIARG_OPENADAPTER;

typedef HRESULT (APIENTRY *PFND3D10DDI_OPENADAPTER)(D3D10DDIARG_OPENADAPTER *);

/* The reference UMD's entry point (the export the D3D11 runtime calls; "OpenAdapter11" in
 * the issue text is the same function). */
HRESULT APIENTRY OpenAdapter10_2(D3D10DDIARG_OPENADAPTER *);
HRESULT APIENTRY OpenAdapter11(D3D10DDIARG_OPENADAPTER *);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_D3D10UMDDI_H */
