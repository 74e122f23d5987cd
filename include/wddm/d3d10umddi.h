/* The Direct3D 10/11 user-mode driver DDI (the WDK's d3d10umddi.h subset): what the runtime
 * calls in a UMD. Names and values are the WDK's (docs/semantics.md §4); the declarations are
 * ours, with the members this model implements, in the WDK's relative order.
 *
 * Driver handles (D3D10DDI_H*) point into memory the runtime allocated with the size the
 * matching CalcPrivate*Size returned (seed 001 §3); runtime handles (D3D10DDI_HRT*) are the
 * runtime's. */
#ifndef WDDM_D3D10UMDDI_H
#define WDDM_D3D10UMDDI_H

#include <dxgiformat.h>
#include <wddm/d3dumddi.h>
#include <wddm/dxgiddi.h>

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
typedef struct D3D11DDI_HCOMMANDLIST { void *pDrvPrivate; } D3D11DDI_HCOMMANDLIST;
typedef struct D3D11DDI_HRTCOMMANDLIST { void *handle; } D3D11DDI_HRTCOMMANDLIST;
typedef struct D3D10DDI_HSHADERRESOURCEVIEW { void *pDrvPrivate; } D3D10DDI_HSHADERRESOURCEVIEW;
typedef struct D3D10DDI_HRTSHADERRESOURCEVIEW { void *handle; } D3D10DDI_HRTSHADERRESOURCEVIEW;
typedef struct D3D11DDI_HUNORDEREDACCESSVIEW { void *pDrvPrivate; } D3D11DDI_HUNORDEREDACCESSVIEW;
typedef struct D3D11DDI_HRTUNORDEREDACCESSVIEW { void *handle; } D3D11DDI_HRTUNORDEREDACCESSVIEW;
typedef struct D3D10DDI_HQUERY { void *pDrvPrivate; } D3D10DDI_HQUERY;
typedef struct D3D10DDI_HRTQUERY { void *handle; } D3D10DDI_HRTQUERY;

/* ---- Versions -------------------------------------------------------------------------------- */
#define D3D10_DDI_MAJOR_VERSION 10
/* The D3D10.0 and D3D10.1 DDIs (issue 15 §1): the D3D10 API's devices drive them. */
#define D3D10_0_DDI_MINOR_VERSION 1
#define D3D10_0_DDI_INTERFACE_VERSION ((D3D10_DDI_MAJOR_VERSION << 16) | D3D10_0_DDI_MINOR_VERSION)
#define D3D10_0_DDI_BUILD_VERSION 4
#define D3D10_0_DDI_SUPPORTED ((((UINT64)D3D10_0_DDI_INTERFACE_VERSION) << 32) | (((UINT64)D3D10_0_DDI_BUILD_VERSION) << 16))
#define D3D10_1_DDI_MINOR_VERSION 2
#define D3D10_1_DDI_INTERFACE_VERSION ((D3D10_DDI_MAJOR_VERSION << 16) | D3D10_1_DDI_MINOR_VERSION)
#define D3D10_1_DDI_BUILD_VERSION 1
#define D3D10_1_DDI_SUPPORTED ((((UINT64)D3D10_1_DDI_INTERFACE_VERSION) << 32) | (((UINT64)D3D10_1_DDI_BUILD_VERSION) << 16))
#define D3D11_DDI_MAJOR_VERSION 11
#define D3D11_0_DDI_MINOR_VERSION 10
#define D3D11_0_DDI_INTERFACE_VERSION ((D3D11_DDI_MAJOR_VERSION << 16) | D3D11_0_DDI_MINOR_VERSION)
#define D3D11_0_DDI_BUILD_VERSION 2
#define D3D11_0_DDI_SUPPORTED ((((UINT64)D3D11_0_DDI_INTERFACE_VERSION) << 32) | (((UINT64)D3D11_0_DDI_BUILD_VERSION) << 16))
/* The D3D11.1 DDI (WDDM 1.2, issue 15 §4): copy flags, discards, Flush with flags. */
#define D3D11_1_DDI_MINOR_VERSION 15
#define D3D11_1_DDI_INTERFACE_VERSION ((D3D11_DDI_MAJOR_VERSION << 16) | D3D11_1_DDI_MINOR_VERSION)
#define D3D11_1_DDI_BUILD_VERSION 0
#define D3D11_1_DDI_SUPPORTED ((((UINT64)D3D11_1_DDI_INTERFACE_VERSION) << 32) | (((UINT64)D3D11_1_DDI_BUILD_VERSION) << 16))

/* ---- Errors a UMD reports through pfnSetErrorCb (docs/semantics.md §3.6) --------------------------- */
#define DXGI_DDI_ERR_WASSTILLDRAWING ((HRESULT)0x887B0001)
#define DXGI_DDI_ERR_UNSUPPORTED     ((HRESULT)0x887B0002)
#define DXGI_DDI_ERR_NONEXCLUSIVE    ((HRESULT)0x887B0003)

/* ---- Resource description (docs/semantics.md §4.2) ---------------------------------------------- */
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
 * docs/semantics.md §10 #4): API D3D11_CPU_ACCESS_* >> 16. */
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

/* The D3D10.0 / 10.1 DDIs' resource description: D3D11's without ByteStride (no structured
 * buffers before D3D11), and MiscFlags without the D3D11-only bits. */
typedef struct D3D10DDIARG_CREATERESOURCE {
    const D3D10DDI_MIPINFO *pMipInfoList;
    const D3D10_DDIARG_SUBRESOURCE_UP *pInitialDataUP;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    UINT Usage;
    UINT BindFlags;
    UINT MapFlags;
    UINT MiscFlags;
    DXGI_FORMAT Format;
    DXGI_SAMPLE_DESC SampleDesc;
    UINT MipLevels;
    UINT ArraySize;
    const VOID *pPrimaryDesc;
} D3D10DDIARG_CREATERESOURCE;

/* ---- Map (docs/semantics.md §4.3) -------------------------------------------------------------- */
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
typedef struct D3D10DDIARG_BUFFER_RENDERTARGETVIEW {
    union { UINT FirstElement; UINT ElementOffset; };
    union { UINT NumElements; UINT ElementWidth; };
} D3D10DDIARG_BUFFER_RENDERTARGETVIEW;
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

/* ---- Deferred contexts and command lists (docs/semantics.md §4.5, seed 004) ----------------------- */
/* D3D11DDI_HANDLETYPE: the members keep the WDK's D3D10DDI_HT_ prefix. */
typedef enum D3D11DDI_HANDLETYPE {
    D3D10DDI_HT_RESOURCE = 0,
    D3D10DDI_HT_SHADERRESOURCEVIEW = 1,
    D3D10DDI_HT_RENDERTARGETVIEW = 2,
    D3D10DDI_HT_DEPTHSTENCILVIEW = 3,
    D3D10DDI_HT_SHADER = 4,
    D3D10DDI_HT_ELEMENTLAYOUT = 5,
    D3D10DDI_HT_BLENDSTATE = 6,
    D3D10DDI_HT_DEPTHSTENCILSTATE = 7,
    D3D10DDI_HT_RASTERIZERSTATE = 8,
    D3D10DDI_HT_SAMPLERSTATE = 9,
    D3D10DDI_HT_QUERY = 10,
    D3D11DDI_HT_COMMANDLIST = 11,
    D3D11DDI_HT_UNORDEREDACCESSVIEW = 12,
} D3D11DDI_HANDLETYPE;

typedef struct D3D11DDI_HANDLESIZE {
    D3D11DDI_HANDLETYPE HandleType;
    SIZE_T DriverPrivateSize;
} D3D11DDI_HANDLESIZE;

typedef struct D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE { UINT Flags; } D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE;

typedef struct D3D11DDIARG_CREATECOMMANDLIST {
    D3D10DDI_HDEVICE hDeferredContext;
} D3D11DDIARG_CREATECOMMANDLIST;

/* ---- Shader resource / unordered access views ---------------------------------------------------
 * Every member of the WDK's unions: the model fills Buffer and Tex2D; the others are here so a
 * driver's code that reads them compiles. */
typedef struct D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW {
    union { UINT FirstElement; UINT ElementOffset; };
    union { UINT NumElements; UINT ElementWidth; };
} D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW;
typedef struct D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW { UINT MostDetailedMip; UINT FirstArraySlice; UINT MipLevels; UINT ArraySize; } D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW;
typedef struct D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW { UINT MostDetailedMip; UINT FirstArraySlice; UINT MipLevels; UINT ArraySize; } D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW;
typedef struct D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW { UINT MostDetailedMip; UINT MipLevels; } D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW;
typedef struct D3D10DDIARG_TEXCUBE_SHADERRESOURCEVIEW { UINT MostDetailedMip; UINT MipLevels; } D3D10DDIARG_TEXCUBE_SHADERRESOURCEVIEW;
/* D3D10.1 on: a cube view may start at any face of a cube array and span several cubes. */
typedef struct D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW { UINT MostDetailedMip; UINT MipLevels; UINT First2DArrayFace; UINT NumCubes; } D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW;
/* D3D11: a buffer view with flags (raw views). */
typedef struct D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW {
    union { UINT FirstElement; UINT ElementOffset; };
    union { UINT NumElements; UINT ElementWidth; };
    UINT Flags;
} D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW;

typedef struct D3D11DDIARG_CREATESHADERRESOURCEVIEW {
    D3D10DDI_HRESOURCE hDrvResource;
    DXGI_FORMAT Format;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    union {
        D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
        D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
        D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
        D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
        D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
        D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW BufferEx;
    };
} D3D11DDIARG_CREATESHADERRESOURCEVIEW;

/* The D3D10.0 and D3D10.1 views (10.0 requires the view's ResourceDimension to be the resource's,
 * 10.1 lets a cube be viewed as a 2D array). */
typedef struct D3D10DDIARG_CREATESHADERRESOURCEVIEW {
    D3D10DDI_HRESOURCE hDrvResource;
    DXGI_FORMAT Format;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    union {
        D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
        D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
        D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
        D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
        D3D10DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
    };
} D3D10DDIARG_CREATESHADERRESOURCEVIEW;
typedef struct D3D10_1DDIARG_CREATESHADERRESOURCEVIEW {
    D3D10DDI_HRESOURCE hDrvResource;
    DXGI_FORMAT Format;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    union {
        D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
        D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
        D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
        D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
        D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
    };
} D3D10_1DDIARG_CREATESHADERRESOURCEVIEW;

typedef struct D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW { UINT FirstElement; UINT NumElements; UINT Flags; } D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW;
typedef struct D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW;
typedef struct D3D11DDIARG_TEX2D_UNORDEREDACCESSVIEW { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D11DDIARG_TEX2D_UNORDEREDACCESSVIEW;
typedef struct D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW { UINT MipSlice; UINT FirstW; UINT WSize; } D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW;
typedef struct D3D11DDIARG_CREATEUNORDEREDACCESSVIEW {
    D3D10DDI_HRESOURCE hDrvResource;
    DXGI_FORMAT Format;
    D3D10DDIRESOURCE_TYPE ResourceDimension;
    union {
        D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW Buffer;
        D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW Tex1D;
        D3D11DDIARG_TEX2D_UNORDEREDACCESSVIEW Tex2D;
        D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW Tex3D;
    };
} D3D11DDIARG_CREATEUNORDEREDACCESSVIEW;

/* ---- Queries (issue 4; the model implements EVENT, TIMESTAMP and TIMESTAMPDISJOINT) ------------
 * Every value of the D3D10DDI_QUERY reference page: the queries, then the counters (CheckCounter,
 * d3d10umddi_unmodeled.h), a driver's own from D3D10DDI_COUNTER_DEVICE_DEPENDENT_0. */
typedef enum D3D10DDI_QUERY {
    D3D10DDI_QUERY_EVENT = 0,
    D3D10DDI_QUERY_OCCLUSION = 1,
    D3D10DDI_QUERY_TIMESTAMP = 2,
    D3D10DDI_QUERY_TIMESTAMPDISJOINT = 3,
    D3D10DDI_QUERY_PIPELINESTATS = 4,
    D3D10DDI_QUERY_OCCLUSIONPREDICATE = 5,
    D3D10DDI_QUERY_STREAMOUTPUTSTATS = 6,
    D3D10DDI_QUERY_STREAMOVERFLOWPREDICATE = 7,
    D3D11DDI_QUERY_PIPELINESTATS = 8,
    D3D11DDI_QUERY_STREAMOUTPUTSTATS_STREAM0 = 9,
    D3D11DDI_QUERY_STREAMOUTPUTSTATS_STREAM1 = 10,
    D3D11DDI_QUERY_STREAMOUTPUTSTATS_STREAM2 = 11,
    D3D11DDI_QUERY_STREAMOUTPUTSTATS_STREAM3 = 12,
    D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM0 = 13,
    D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM1 = 14,
    D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM2 = 15,
    D3D11DDI_QUERY_STREAMOVERFLOWPREDICATE_STREAM3 = 16,
    D3D10DDI_COUNTER_GPU_IDLE = 0x1000,
    D3D10DDI_COUNTER_VERTEX_PROCESSING = 0x1001,
    D3D10DDI_COUNTER_GEOMETRY_PROCESSING = 0x1002,
    D3D10DDI_COUNTER_PIXEL_PROCESSING = 0x1003,
    D3D10DDI_COUNTER_OTHER_GPU_PROCESSING = 0x1004,
    D3D10DDI_COUNTER_HOST_ADAPTER_BANDWIDTH_UTILIZATION = 0x1005,
    D3D10DDI_COUNTER_LOCAL_VIDMEM_BANDWIDTH_UTILIZATION = 0x1006,
    D3D10DDI_COUNTER_VERTEX_THROUGHPUT_UTILIZATION = 0x1007,
    D3D10DDI_COUNTER_TRISETUP_THROUGHPUT_UTILIZATION = 0x1008,
    D3D10DDI_COUNTER_FILLRATE_THROUGHPUT_UTILIZATION = 0x1009,
    D3D10DDI_COUNTER_VERTEXSHADER_MEMORY_LIMITED = 0x100A,
    D3D10DDI_COUNTER_VERTEXSHADER_COMPUTATION_LIMITED = 0x100B,
    D3D10DDI_COUNTER_GEOMETRYSHADER_MEMORY_LIMITED = 0x100C,
    D3D10DDI_COUNTER_GEOMETRYSHADER_COMPUTATION_LIMITED = 0x100D,
    D3D10DDI_COUNTER_PIXELSHADER_MEMORY_LIMITED = 0x100E,
    D3D10DDI_COUNTER_PIXELSHADER_COMPUTATION_LIMITED = 0x100F,
    D3D10DDI_COUNTER_POST_TRANSFORM_CACHE_HIT_RATE = 0x1010,
    D3D10DDI_COUNTER_TEXTURE_CACHE_HIT_RATE = 0x1011,
    D3D10DDI_COUNTER_DEVICE_DEPENDENT_0 = 0x40000000,
} D3D10DDI_QUERY;

/* MiscFlags of D3D10DDIARG_CREATEQUERY (its reference page): an occlusion predicate that is only
 * a hint. */
#define D3D10DDI_QUERY_MISCFLAG_PREDICATEHINT 0x1

typedef struct D3D10DDIARG_CREATEQUERY {
    D3D10DDI_QUERY Query;
    UINT MiscFlags;                                  /* D3D10DDI_QUERY_MISCFLAG_* */
} D3D10DDIARG_CREATEQUERY;

/* pfnQueryGetData's answer for D3D10DDI_QUERY_TIMESTAMPDISJOINT (a TIMESTAMP answers a UINT64,
 * an EVENT a BOOL). */
typedef struct D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT {
    UINT64 Frequency;
    BOOL Disjoint;
} D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT;

/* Flags of pfnQueryGetData: without it the driver flushes (so polling always terminates). */
#define D3D10_DDI_GET_DATA_DO_NOT_FLUSH 0x01

/* ---- Function prototypes ---------------------------------------------------------------------- */
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATERESOURCESIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *);
typedef VOID (APIENTRY *PFND3D11DDI_CREATERESOURCE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATERESOURCE *, D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATERESOURCESIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERESOURCE *);
typedef VOID (APIENTRY *PFND3D10DDI_CREATERESOURCE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERESOURCE *, D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYRESOURCE)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *);
typedef VOID (APIENTRY *PFND3D10DDI_CREATERENDERTARGETVIEW)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATERENDERTARGETVIEW *, D3D10DDI_HRENDERTARGETVIEW, D3D10DDI_HRTRENDERTARGETVIEW);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYRENDERTARGETVIEW)(D3D10DDI_HDEVICE, D3D10DDI_HRENDERTARGETVIEW);
typedef VOID (APIENTRY *PFND3D10DDI_CHECKFORMATSUPPORT)(D3D10DDI_HDEVICE, DXGI_FORMAT, UINT *);
typedef VOID (APIENTRY *PFND3D10DDI_CHECKMULTISAMPLEQUALITYLEVELS)(D3D10DDI_HDEVICE, DXGI_FORMAT, UINT SampleCount,
                                                                   UINT *pNumQualityLevels);
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
/* D3D11.1: the copies take D3D11_1_DDI_COPY_FLAGS, Flush takes D3D11_1_DDI_FLUSH_FLAGS and says
 * whether it flushed, and Discard names a resource or a view by handle type. */
typedef enum D3D11_1_DDI_COPY_FLAGS {
    D3D11_1DDI_COPY_NO_OVERWRITE = 0x00000001,
    D3D11_1DDI_COPY_DISCARD = 0x00000002,
    D3D11_1DDI_COPY_TILEABLE = 0x00000004,
} D3D11_1_DDI_COPY_FLAGS;
typedef enum D3D11_1_DDI_FLUSH_FLAGS {
    D3D11_1DDI_FLUSH_UNLESS_NO_COMMANDS = 0x00000001,
} D3D11_1_DDI_FLUSH_FLAGS;
typedef RECT D3D10_DDI_RECT;
typedef VOID (APIENTRY *PFND3D11_1DDI_RESOURCECOPYREGION)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE hDst, UINT DstSubresource, UINT DstX, UINT DstY,
                                                          UINT DstZ, D3D10DDI_HRESOURCE hSrc, UINT SrcSubresource,
                                                          const D3D10_DDI_BOX *pSrcBox, UINT CopyFlags);
typedef VOID (APIENTRY *PFND3D11_1DDI_RESOURCEUPDATESUBRESOURCEUP)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE hDst, UINT DstSubresource,
                                                                   const D3D10_DDI_BOX *pDstBox, const VOID *pSysMemUP, UINT RowPitch,
                                                                   UINT DepthPitch, UINT CopyFlags);
typedef BOOL (APIENTRY *PFND3D11_1DDI_FLUSH)(D3D10DDI_HDEVICE, UINT FlushFlags);
typedef VOID (APIENTRY *PFND3D11_1DDI_DISCARD)(D3D10DDI_HDEVICE, D3D11DDI_HANDLETYPE HandleType, VOID *hResourceOrView,
                                               const D3D10_DDI_RECT *pRects, UINT NumRects);
typedef BOOL (APIENTRY *PFND3D10DDI_RESOURCEISSTAGINGBUSY)(D3D10DDI_HDEVICE, D3D10DDI_HRESOURCE);

typedef VOID (APIENTRY *PFND3D11DDI_CHECKDEFERREDCONTEXTHANDLESIZES)(D3D10DDI_HDEVICE, UINT *pHSizes, D3D11DDI_HANDLESIZE *pHandleSize);
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCDEFERREDCONTEXTHANDLESIZE)(D3D10DDI_HDEVICE, D3D11DDI_HANDLETYPE, VOID *pICObject);
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATEDEFERREDCONTEXTSIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE *);
struct D3D11DDIARG_CREATEDEFERREDCONTEXT;
typedef VOID (APIENTRY *PFND3D11DDI_CREATEDEFERREDCONTEXT)(D3D10DDI_HDEVICE, const struct D3D11DDIARG_CREATEDEFERREDCONTEXT *);
typedef VOID (APIENTRY *PFND3D11DDI_ABANDONCOMMANDLIST)(D3D10DDI_HDEVICE);
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATECOMMANDLISTSIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATECOMMANDLIST *);
typedef VOID (APIENTRY *PFND3D11DDI_CREATECOMMANDLIST)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATECOMMANDLIST *, D3D11DDI_HCOMMANDLIST, D3D11DDI_HRTCOMMANDLIST);
typedef VOID (APIENTRY *PFND3D11DDI_DESTROYCOMMANDLIST)(D3D10DDI_HDEVICE, D3D11DDI_HCOMMANDLIST);
typedef VOID (APIENTRY *PFND3D11DDI_COMMANDLISTEXECUTE)(D3D10DDI_HDEVICE, D3D11DDI_HCOMMANDLIST);
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *);
typedef VOID (APIENTRY *PFND3D11DDI_CREATESHADERRESOURCEVIEW)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATESHADERRESOURCEVIEW *, D3D10DDI_HSHADERRESOURCEVIEW, D3D10DDI_HRTSHADERRESOURCEVIEW);
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATESHADERRESOURCEVIEW *);
typedef VOID (APIENTRY *PFND3D10DDI_CREATESHADERRESOURCEVIEW)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATESHADERRESOURCEVIEW *, D3D10DDI_HSHADERRESOURCEVIEW, D3D10DDI_HRTSHADERRESOURCEVIEW);
typedef SIZE_T (APIENTRY *PFND3D10_1DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE)(D3D10DDI_HDEVICE, const D3D10_1DDIARG_CREATESHADERRESOURCEVIEW *);
typedef VOID (APIENTRY *PFND3D10_1DDI_CREATESHADERRESOURCEVIEW)(D3D10DDI_HDEVICE, const D3D10_1DDIARG_CREATESHADERRESOURCEVIEW *, D3D10DDI_HSHADERRESOURCEVIEW, D3D10DDI_HRTSHADERRESOURCEVIEW);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYSHADERRESOURCEVIEW)(D3D10DDI_HDEVICE, D3D10DDI_HSHADERRESOURCEVIEW);
typedef SIZE_T (APIENTRY *PFND3D11DDI_CALCPRIVATEUNORDEREDACCESSVIEWSIZE)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *);
typedef VOID (APIENTRY *PFND3D11DDI_CREATEUNORDEREDACCESSVIEW)(D3D10DDI_HDEVICE, const D3D11DDIARG_CREATEUNORDEREDACCESSVIEW *, D3D11DDI_HUNORDEREDACCESSVIEW, D3D11DDI_HRTUNORDEREDACCESSVIEW);
typedef VOID (APIENTRY *PFND3D11DDI_DESTROYUNORDEREDACCESSVIEW)(D3D10DDI_HDEVICE, D3D11DDI_HUNORDEREDACCESSVIEW);
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATEQUERYSIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATEQUERY *);
typedef VOID (APIENTRY *PFND3D10DDI_CREATEQUERY)(D3D10DDI_HDEVICE, const D3D10DDIARG_CREATEQUERY *, D3D10DDI_HQUERY, D3D10DDI_HRTQUERY);
typedef VOID (APIENTRY *PFND3D10DDI_DESTROYQUERY)(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
typedef VOID (APIENTRY *PFND3D10DDI_QUERYBEGIN)(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
typedef VOID (APIENTRY *PFND3D10DDI_QUERYEND)(D3D10DDI_HDEVICE, D3D10DDI_HQUERY);
typedef VOID (APIENTRY *PFND3D10DDI_QUERYGETDATA)(D3D10DDI_HDEVICE, D3D10DDI_HQUERY, VOID *pData, UINT DataSize, UINT Flags);
typedef VOID (APIENTRY *PFND3D11DDI_CLEARUNORDEREDACCESSVIEWUINT)(D3D10DDI_HDEVICE, D3D11DDI_HUNORDEREDACCESSVIEW, const UINT[4]);

/* A shared resource opened on this device (issue 6): the runtime got it with
 * D3DKMTQueryResourceInfo + D3DKMTOpenResource and hands the UMD the kernel's allocation
 * handles with the creator's private data; the UMD builds its resource from them. */
typedef struct D3D10DDIARG_OPENRESOURCE {
    UINT NumAllocations;
    D3DDDI_OPENALLOCATIONINFO *pOpenAllocationInfo; /* hAllocation + the creator's allocation data */
    D3DKMT_HANDLE hKMResource;                      /* the opened kernel resource */
    VOID *pPrivateDriverData;                       /* the creator's resource-level data */
    UINT PrivateDriverDataSize;
} D3D10DDIARG_OPENRESOURCE;
typedef SIZE_T (APIENTRY *PFND3D10DDI_CALCPRIVATEOPENEDRESOURCESIZE)(D3D10DDI_HDEVICE, const D3D10DDIARG_OPENRESOURCE *);
typedef VOID (APIENTRY *PFND3D10DDI_OPENRESOURCE)(D3D10DDI_HDEVICE, const D3D10DDIARG_OPENRESOURCE *,
                                                  D3D10DDI_HRESOURCE, D3D10DDI_HRTRESOURCE);

/* ---- The device function tables, every slot in the WDK's order ------------------------------------
 * A slot this model does not implement has its WDK prototype (d3d10umddi_unmodeled.h); the runtime
 * never calls it, so a UMD may leave it NULL or fill it. */
#include <wddm/d3d10umddi_unmodeled.h>

/* D3D10_0_DDI_INTERFACE_VERSION: one table of 101 slots, the commands and object creation together. */
typedef struct D3D10DDI_DEVICEFUNCS {
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnDefaultConstantBufferUpdateSubresourceUP;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnVsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnPsSetShaderResources;
    PFND3D10DDI_SETSHADER                                 pfnPsSetShader;
    PFND3D10DDI_SETSAMPLERS                               pfnPsSetSamplers;
    PFND3D10DDI_SETSHADER                                 pfnVsSetShader;
    PFND3D10DDI_DRAWINDEXED                               pfnDrawIndexed;
    PFND3D10DDI_DRAW                                      pfnDraw;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapNoOverwrite;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicIABufferUnmap;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicConstantBufferMapDiscard;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicConstantBufferUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnPsSetConstantBuffers;
    PFND3D10DDI_SETINPUTLAYOUT                            pfnIaSetInputLayout;
    PFND3D10DDI_IA_SETVERTEXBUFFERS                       pfnIaSetVertexBuffers;
    PFND3D10DDI_IA_SETINDEXBUFFER                         pfnIaSetIndexBuffer;
    PFND3D10DDI_DRAWINDEXEDINSTANCED                      pfnDrawIndexedInstanced;
    PFND3D10DDI_DRAWINSTANCED                             pfnDrawInstanced;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicResourceMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicResourceUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnGsSetConstantBuffers;
    PFND3D10DDI_SETSHADER                                 pfnGsSetShader;
    PFND3D10DDI_IA_SETTOPOLOGY                            pfnIaSetTopology;
    PFND3D10DDI_RESOURCEMAP                               pfnStagingResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnStagingResourceUnmap;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnVsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnVsSetSamplers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnGsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnGsSetSamplers;
    PFND3D10DDI_SETRENDERTARGETS                          pfnSetRenderTargets;
    PFND3D10DDI_SHADERRESOURCEVIEWREADAFTERWRITEHAZARD    pfnShaderResourceViewReadAfterWriteHazard;
    PFND3D10DDI_RESOURCEREADAFTERWRITEHAZARD              pfnResourceReadAfterWriteHazard;
    PFND3D10DDI_SETBLENDSTATE                             pfnSetBlendState;
    PFND3D10DDI_SETDEPTHSTENCILSTATE                      pfnSetDepthStencilState;
    PFND3D10DDI_SETRASTERIZERSTATE                        pfnSetRasterizerState;
    PFND3D10DDI_QUERYEND                                  pfnQueryEnd;
    PFND3D10DDI_QUERYBEGIN                                pfnQueryBegin;
    PFND3D10DDI_RESOURCECOPYREGION                        pfnResourceCopyRegion;
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnResourceUpdateSubresourceUP;
    PFND3D10DDI_SO_SETTARGETS                             pfnSoSetTargets;
    PFND3D10DDI_DRAWAUTO                                  pfnDrawAuto;
    PFND3D10DDI_SETVIEWPORTS                              pfnSetViewports;
    PFND3D10DDI_SETSCISSORRECTS                           pfnSetScissorRects;
    PFND3D10DDI_CLEARRENDERTARGETVIEW                     pfnClearRenderTargetView;
    PFND3D10DDI_CLEARDEPTHSTENCILVIEW                     pfnClearDepthStencilView;
    PFND3D10DDI_SETPREDICATION                            pfnSetPredication;
    PFND3D10DDI_QUERYGETDATA                              pfnQueryGetData;
    PFND3D10DDI_FLUSH                                     pfnFlush;
    PFND3D10DDI_GENMIPS                                   pfnGenMips;
    PFND3D10DDI_RESOURCECOPY                              pfnResourceCopy;
    PFND3D10DDI_RESOURCERESOLVESUBRESOURCE                pfnResourceResolveSubresource;
    PFND3D10DDI_RESOURCEMAP                               pfnResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnResourceUnmap;
    PFND3D10DDI_RESOURCEISSTAGINGBUSY                     pfnResourceIsStagingBusy;
    PFND3D10DDI_RELOCATEDEVICEFUNCS                       pfnRelocateDeviceFuncs;
    PFND3D10DDI_CALCPRIVATERESOURCESIZE                   pfnCalcPrivateResourceSize;
    PFND3D10DDI_CALCPRIVATEOPENEDRESOURCESIZE             pfnCalcPrivateOpenedResourceSize;
    PFND3D10DDI_CREATERESOURCE                            pfnCreateResource;
    PFND3D10DDI_OPENRESOURCE                              pfnOpenResource;
    PFND3D10DDI_DESTROYRESOURCE                           pfnDestroyResource;
    PFND3D10DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE         pfnCalcPrivateShaderResourceViewSize;
    PFND3D10DDI_CREATESHADERRESOURCEVIEW                  pfnCreateShaderResourceView;
    PFND3D10DDI_DESTROYSHADERRESOURCEVIEW                 pfnDestroyShaderResourceView;
    PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE           pfnCalcPrivateRenderTargetViewSize;
    PFND3D10DDI_CREATERENDERTARGETVIEW                    pfnCreateRenderTargetView;
    PFND3D10DDI_DESTROYRENDERTARGETVIEW                   pfnDestroyRenderTargetView;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILVIEWSIZE           pfnCalcPrivateDepthStencilViewSize;
    PFND3D10DDI_CREATEDEPTHSTENCILVIEW                    pfnCreateDepthStencilView;
    PFND3D10DDI_DESTROYDEPTHSTENCILVIEW                   pfnDestroyDepthStencilView;
    PFND3D10DDI_CALCPRIVATEELEMENTLAYOUTSIZE              pfnCalcPrivateElementLayoutSize;
    PFND3D10DDI_CREATEELEMENTLAYOUT                       pfnCreateElementLayout;
    PFND3D10DDI_DESTROYELEMENTLAYOUT                      pfnDestroyElementLayout;
    PFND3D10DDI_CALCPRIVATEBLENDSTATESIZE                 pfnCalcPrivateBlendStateSize;
    PFND3D10DDI_CREATEBLENDSTATE                          pfnCreateBlendState;
    PFND3D10DDI_DESTROYBLENDSTATE                         pfnDestroyBlendState;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILSTATESIZE          pfnCalcPrivateDepthStencilStateSize;
    PFND3D10DDI_CREATEDEPTHSTENCILSTATE                   pfnCreateDepthStencilState;
    PFND3D10DDI_DESTROYDEPTHSTENCILSTATE                  pfnDestroyDepthStencilState;
    PFND3D10DDI_CALCPRIVATERASTERIZERSTATESIZE            pfnCalcPrivateRasterizerStateSize;
    PFND3D10DDI_CREATERASTERIZERSTATE                     pfnCreateRasterizerState;
    PFND3D10DDI_DESTROYRASTERIZERSTATE                    pfnDestroyRasterizerState;
    PFND3D10DDI_CALCPRIVATESHADERSIZE                     pfnCalcPrivateShaderSize;
    PFND3D10DDI_CREATEVERTEXSHADER                        pfnCreateVertexShader;
    PFND3D10DDI_CREATEGEOMETRYSHADER                      pfnCreateGeometryShader;
    PFND3D10DDI_CREATEPIXELSHADER                         pfnCreatePixelShader;
    PFND3D10DDI_CALCPRIVATEGEOMETRYSHADERWITHSTREAMOUTPUT pfnCalcPrivateGeometryShaderWithStreamOutput;
    PFND3D10DDI_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT      pfnCreateGeometryShaderWithStreamOutput;
    PFND3D10DDI_DESTROYSHADER                             pfnDestroyShader;
    PFND3D10DDI_CALCPRIVATESAMPLERSIZE                    pfnCalcPrivateSamplerSize;
    PFND3D10DDI_CREATESAMPLER                             pfnCreateSampler;
    PFND3D10DDI_DESTROYSAMPLER                            pfnDestroySampler;
    PFND3D10DDI_CALCPRIVATEQUERYSIZE                      pfnCalcPrivateQuerySize;
    PFND3D10DDI_CREATEQUERY                               pfnCreateQuery;
    PFND3D10DDI_DESTROYQUERY                              pfnDestroyQuery;
    PFND3D10DDI_CHECKFORMATSUPPORT                        pfnCheckFormatSupport;
    PFND3D10DDI_CHECKMULTISAMPLEQUALITYLEVELS             pfnCheckMultisampleQualityLevels;
    PFND3D10DDI_CHECKCOUNTERINFO                          pfnCheckCounterInfo;
    PFND3D10DDI_CHECKCOUNTER                              pfnCheckCounter;
    PFND3D10DDI_DESTROYDEVICE                             pfnDestroyDevice;
    PFND3D10DDI_SETTEXTFILTERSIZE                         pfnSetTextFilterSize;
} D3D10DDI_DEVICEFUNCS;

/* D3D10_1_DDI_INTERFACE_VERSION: the 10.0 table with the 10.1 view and blend types, plus the two conversions. */
typedef struct D3D10_1DDI_DEVICEFUNCS {
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnDefaultConstantBufferUpdateSubresourceUP;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnVsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnPsSetShaderResources;
    PFND3D10DDI_SETSHADER                                 pfnPsSetShader;
    PFND3D10DDI_SETSAMPLERS                               pfnPsSetSamplers;
    PFND3D10DDI_SETSHADER                                 pfnVsSetShader;
    PFND3D10DDI_DRAWINDEXED                               pfnDrawIndexed;
    PFND3D10DDI_DRAW                                      pfnDraw;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapNoOverwrite;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicIABufferUnmap;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicConstantBufferMapDiscard;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicConstantBufferUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnPsSetConstantBuffers;
    PFND3D10DDI_SETINPUTLAYOUT                            pfnIaSetInputLayout;
    PFND3D10DDI_IA_SETVERTEXBUFFERS                       pfnIaSetVertexBuffers;
    PFND3D10DDI_IA_SETINDEXBUFFER                         pfnIaSetIndexBuffer;
    PFND3D10DDI_DRAWINDEXEDINSTANCED                      pfnDrawIndexedInstanced;
    PFND3D10DDI_DRAWINSTANCED                             pfnDrawInstanced;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicResourceMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicResourceUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnGsSetConstantBuffers;
    PFND3D10DDI_SETSHADER                                 pfnGsSetShader;
    PFND3D10DDI_IA_SETTOPOLOGY                            pfnIaSetTopology;
    PFND3D10DDI_RESOURCEMAP                               pfnStagingResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnStagingResourceUnmap;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnVsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnVsSetSamplers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnGsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnGsSetSamplers;
    PFND3D10DDI_SETRENDERTARGETS                          pfnSetRenderTargets;
    PFND3D10DDI_SHADERRESOURCEVIEWREADAFTERWRITEHAZARD    pfnShaderResourceViewReadAfterWriteHazard;
    PFND3D10DDI_RESOURCEREADAFTERWRITEHAZARD              pfnResourceReadAfterWriteHazard;
    PFND3D10DDI_SETBLENDSTATE                             pfnSetBlendState;
    PFND3D10DDI_SETDEPTHSTENCILSTATE                      pfnSetDepthStencilState;
    PFND3D10DDI_SETRASTERIZERSTATE                        pfnSetRasterizerState;
    PFND3D10DDI_QUERYEND                                  pfnQueryEnd;
    PFND3D10DDI_QUERYBEGIN                                pfnQueryBegin;
    PFND3D10DDI_RESOURCECOPYREGION                        pfnResourceCopyRegion;
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnResourceUpdateSubresourceUP;
    PFND3D10DDI_SO_SETTARGETS                             pfnSoSetTargets;
    PFND3D10DDI_DRAWAUTO                                  pfnDrawAuto;
    PFND3D10DDI_SETVIEWPORTS                              pfnSetViewports;
    PFND3D10DDI_SETSCISSORRECTS                           pfnSetScissorRects;
    PFND3D10DDI_CLEARRENDERTARGETVIEW                     pfnClearRenderTargetView;
    PFND3D10DDI_CLEARDEPTHSTENCILVIEW                     pfnClearDepthStencilView;
    PFND3D10DDI_SETPREDICATION                            pfnSetPredication;
    PFND3D10DDI_QUERYGETDATA                              pfnQueryGetData;
    PFND3D10DDI_FLUSH                                     pfnFlush;
    PFND3D10DDI_GENMIPS                                   pfnGenMips;
    PFND3D10DDI_RESOURCECOPY                              pfnResourceCopy;
    PFND3D10DDI_RESOURCERESOLVESUBRESOURCE                pfnResourceResolveSubresource;
    PFND3D10DDI_RESOURCEMAP                               pfnResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnResourceUnmap;
    PFND3D10DDI_RESOURCEISSTAGINGBUSY                     pfnResourceIsStagingBusy;
    PFND3D10_1DDI_RELOCATEDEVICEFUNCS                     pfnRelocateDeviceFuncs;
    PFND3D10DDI_CALCPRIVATERESOURCESIZE                   pfnCalcPrivateResourceSize;
    PFND3D10DDI_CALCPRIVATEOPENEDRESOURCESIZE             pfnCalcPrivateOpenedResourceSize;
    PFND3D10DDI_CREATERESOURCE                            pfnCreateResource;
    PFND3D10DDI_OPENRESOURCE                              pfnOpenResource;
    PFND3D10DDI_DESTROYRESOURCE                           pfnDestroyResource;
    PFND3D10_1DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE       pfnCalcPrivateShaderResourceViewSize;
    PFND3D10_1DDI_CREATESHADERRESOURCEVIEW                pfnCreateShaderResourceView;
    PFND3D10DDI_DESTROYSHADERRESOURCEVIEW                 pfnDestroyShaderResourceView;
    PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE           pfnCalcPrivateRenderTargetViewSize;
    PFND3D10DDI_CREATERENDERTARGETVIEW                    pfnCreateRenderTargetView;
    PFND3D10DDI_DESTROYRENDERTARGETVIEW                   pfnDestroyRenderTargetView;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILVIEWSIZE           pfnCalcPrivateDepthStencilViewSize;
    PFND3D10DDI_CREATEDEPTHSTENCILVIEW                    pfnCreateDepthStencilView;
    PFND3D10DDI_DESTROYDEPTHSTENCILVIEW                   pfnDestroyDepthStencilView;
    PFND3D10DDI_CALCPRIVATEELEMENTLAYOUTSIZE              pfnCalcPrivateElementLayoutSize;
    PFND3D10DDI_CREATEELEMENTLAYOUT                       pfnCreateElementLayout;
    PFND3D10DDI_DESTROYELEMENTLAYOUT                      pfnDestroyElementLayout;
    PFND3D10_1DDI_CALCPRIVATEBLENDSTATESIZE               pfnCalcPrivateBlendStateSize;
    PFND3D10_1DDI_CREATEBLENDSTATE                        pfnCreateBlendState;
    PFND3D10DDI_DESTROYBLENDSTATE                         pfnDestroyBlendState;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILSTATESIZE          pfnCalcPrivateDepthStencilStateSize;
    PFND3D10DDI_CREATEDEPTHSTENCILSTATE                   pfnCreateDepthStencilState;
    PFND3D10DDI_DESTROYDEPTHSTENCILSTATE                  pfnDestroyDepthStencilState;
    PFND3D10DDI_CALCPRIVATERASTERIZERSTATESIZE            pfnCalcPrivateRasterizerStateSize;
    PFND3D10DDI_CREATERASTERIZERSTATE                     pfnCreateRasterizerState;
    PFND3D10DDI_DESTROYRASTERIZERSTATE                    pfnDestroyRasterizerState;
    PFND3D10DDI_CALCPRIVATESHADERSIZE                     pfnCalcPrivateShaderSize;
    PFND3D10DDI_CREATEVERTEXSHADER                        pfnCreateVertexShader;
    PFND3D10DDI_CREATEGEOMETRYSHADER                      pfnCreateGeometryShader;
    PFND3D10DDI_CREATEPIXELSHADER                         pfnCreatePixelShader;
    PFND3D10DDI_CALCPRIVATEGEOMETRYSHADERWITHSTREAMOUTPUT pfnCalcPrivateGeometryShaderWithStreamOutput;
    PFND3D10DDI_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT      pfnCreateGeometryShaderWithStreamOutput;
    PFND3D10DDI_DESTROYSHADER                             pfnDestroyShader;
    PFND3D10DDI_CALCPRIVATESAMPLERSIZE                    pfnCalcPrivateSamplerSize;
    PFND3D10DDI_CREATESAMPLER                             pfnCreateSampler;
    PFND3D10DDI_DESTROYSAMPLER                            pfnDestroySampler;
    PFND3D10DDI_CALCPRIVATEQUERYSIZE                      pfnCalcPrivateQuerySize;
    PFND3D10DDI_CREATEQUERY                               pfnCreateQuery;
    PFND3D10DDI_DESTROYQUERY                              pfnDestroyQuery;
    PFND3D10DDI_CHECKFORMATSUPPORT                        pfnCheckFormatSupport;
    PFND3D10DDI_CHECKMULTISAMPLEQUALITYLEVELS             pfnCheckMultisampleQualityLevels;
    PFND3D10DDI_CHECKCOUNTERINFO                          pfnCheckCounterInfo;
    PFND3D10DDI_CHECKCOUNTER                              pfnCheckCounter;
    PFND3D10DDI_DESTROYDEVICE                             pfnDestroyDevice;
    PFND3D10DDI_SETTEXTFILTERSIZE                         pfnSetTextFilterSize;
    PFND3D10DDI_RESOURCECOPY                              pfnResourceConvert;
    PFND3D10DDI_RESOURCECOPYREGION                        pfnResourceConvertRegion;
} D3D10_1DDI_DEVICEFUNCS;

/* D3D11_0_DDI_INTERFACE_VERSION: the 10.1 table (some slots with D3D11 types) and the D3D11 additions
 * from pfnDrawIndexedInstancedIndirect on: 150 slots. One table per context: the immediate
 * context's fills it at CreateDevice, each deferred context's at CreateDeferredContext. */
typedef struct D3D11DDI_DEVICEFUNCS {
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnDefaultConstantBufferUpdateSubresourceUP;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnVsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnPsSetShaderResources;
    PFND3D10DDI_SETSHADER                                 pfnPsSetShader;
    PFND3D10DDI_SETSAMPLERS                               pfnPsSetSamplers;
    PFND3D10DDI_SETSHADER                                 pfnVsSetShader;
    PFND3D10DDI_DRAWINDEXED                               pfnDrawIndexed;
    PFND3D10DDI_DRAW                                      pfnDraw;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapNoOverwrite;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicIABufferUnmap;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicConstantBufferMapDiscard;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicIABufferMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicConstantBufferUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnPsSetConstantBuffers;
    PFND3D10DDI_SETINPUTLAYOUT                            pfnIaSetInputLayout;
    PFND3D10DDI_IA_SETVERTEXBUFFERS                       pfnIaSetVertexBuffers;
    PFND3D10DDI_IA_SETINDEXBUFFER                         pfnIaSetIndexBuffer;
    PFND3D10DDI_DRAWINDEXEDINSTANCED                      pfnDrawIndexedInstanced;
    PFND3D10DDI_DRAWINSTANCED                             pfnDrawInstanced;
    PFND3D10DDI_RESOURCEMAP                               pfnDynamicResourceMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                             pfnDynamicResourceUnmap;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnGsSetConstantBuffers;
    PFND3D10DDI_SETSHADER                                 pfnGsSetShader;
    PFND3D10DDI_IA_SETTOPOLOGY                            pfnIaSetTopology;
    PFND3D10DDI_RESOURCEMAP                               pfnStagingResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnStagingResourceUnmap;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnVsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnVsSetSamplers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnGsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnGsSetSamplers;
    PFND3D11DDI_SETRENDERTARGETS                          pfnSetRenderTargets;
    PFND3D10DDI_SHADERRESOURCEVIEWREADAFTERWRITEHAZARD    pfnShaderResourceViewReadAfterWriteHazard;
    PFND3D10DDI_RESOURCEREADAFTERWRITEHAZARD              pfnResourceReadAfterWriteHazard;
    PFND3D10DDI_SETBLENDSTATE                             pfnSetBlendState;
    PFND3D10DDI_SETDEPTHSTENCILSTATE                      pfnSetDepthStencilState;
    PFND3D10DDI_SETRASTERIZERSTATE                        pfnSetRasterizerState;
    PFND3D10DDI_QUERYEND                                  pfnQueryEnd;
    PFND3D10DDI_QUERYBEGIN                                pfnQueryBegin;
    PFND3D10DDI_RESOURCECOPYREGION                        pfnResourceCopyRegion;
    PFND3D10DDI_RESOURCEUPDATESUBRESOURCEUP               pfnResourceUpdateSubresourceUP;
    PFND3D10DDI_SO_SETTARGETS                             pfnSoSetTargets;
    PFND3D10DDI_DRAWAUTO                                  pfnDrawAuto;
    PFND3D10DDI_SETVIEWPORTS                              pfnSetViewports;
    PFND3D10DDI_SETSCISSORRECTS                           pfnSetScissorRects;
    PFND3D10DDI_CLEARRENDERTARGETVIEW                     pfnClearRenderTargetView;
    PFND3D10DDI_CLEARDEPTHSTENCILVIEW                     pfnClearDepthStencilView;
    PFND3D10DDI_SETPREDICATION                            pfnSetPredication;
    PFND3D10DDI_QUERYGETDATA                              pfnQueryGetData;
    PFND3D10DDI_FLUSH                                     pfnFlush;
    PFND3D10DDI_GENMIPS                                   pfnGenMips;
    PFND3D10DDI_RESOURCECOPY                              pfnResourceCopy;
    PFND3D10DDI_RESOURCERESOLVESUBRESOURCE                pfnResourceResolveSubresource;
    PFND3D10DDI_RESOURCEMAP                               pfnResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                             pfnResourceUnmap;
    PFND3D10DDI_RESOURCEISSTAGINGBUSY                     pfnResourceIsStagingBusy;
    PFND3D11DDI_RELOCATEDEVICEFUNCS                       pfnRelocateDeviceFuncs;
    PFND3D11DDI_CALCPRIVATERESOURCESIZE                   pfnCalcPrivateResourceSize;
    PFND3D10DDI_CALCPRIVATEOPENEDRESOURCESIZE             pfnCalcPrivateOpenedResourceSize;
    PFND3D11DDI_CREATERESOURCE                            pfnCreateResource;
    PFND3D10DDI_OPENRESOURCE                              pfnOpenResource;
    PFND3D10DDI_DESTROYRESOURCE                           pfnDestroyResource;
    PFND3D11DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE         pfnCalcPrivateShaderResourceViewSize;
    PFND3D11DDI_CREATESHADERRESOURCEVIEW                  pfnCreateShaderResourceView;
    PFND3D10DDI_DESTROYSHADERRESOURCEVIEW                 pfnDestroyShaderResourceView;
    PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE           pfnCalcPrivateRenderTargetViewSize;
    PFND3D10DDI_CREATERENDERTARGETVIEW                    pfnCreateRenderTargetView;
    PFND3D10DDI_DESTROYRENDERTARGETVIEW                   pfnDestroyRenderTargetView;
    PFND3D11DDI_CALCPRIVATEDEPTHSTENCILVIEWSIZE           pfnCalcPrivateDepthStencilViewSize;
    PFND3D11DDI_CREATEDEPTHSTENCILVIEW                    pfnCreateDepthStencilView;
    PFND3D10DDI_DESTROYDEPTHSTENCILVIEW                   pfnDestroyDepthStencilView;
    PFND3D10DDI_CALCPRIVATEELEMENTLAYOUTSIZE              pfnCalcPrivateElementLayoutSize;
    PFND3D10DDI_CREATEELEMENTLAYOUT                       pfnCreateElementLayout;
    PFND3D10DDI_DESTROYELEMENTLAYOUT                      pfnDestroyElementLayout;
    PFND3D10_1DDI_CALCPRIVATEBLENDSTATESIZE               pfnCalcPrivateBlendStateSize;
    PFND3D10_1DDI_CREATEBLENDSTATE                        pfnCreateBlendState;
    PFND3D10DDI_DESTROYBLENDSTATE                         pfnDestroyBlendState;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILSTATESIZE          pfnCalcPrivateDepthStencilStateSize;
    PFND3D10DDI_CREATEDEPTHSTENCILSTATE                   pfnCreateDepthStencilState;
    PFND3D10DDI_DESTROYDEPTHSTENCILSTATE                  pfnDestroyDepthStencilState;
    PFND3D10DDI_CALCPRIVATERASTERIZERSTATESIZE            pfnCalcPrivateRasterizerStateSize;
    PFND3D10DDI_CREATERASTERIZERSTATE                     pfnCreateRasterizerState;
    PFND3D10DDI_DESTROYRASTERIZERSTATE                    pfnDestroyRasterizerState;
    PFND3D10DDI_CALCPRIVATESHADERSIZE                     pfnCalcPrivateShaderSize;
    PFND3D10DDI_CREATEVERTEXSHADER                        pfnCreateVertexShader;
    PFND3D10DDI_CREATEGEOMETRYSHADER                      pfnCreateGeometryShader;
    PFND3D10DDI_CREATEPIXELSHADER                         pfnCreatePixelShader;
    PFND3D11DDI_CALCPRIVATEGEOMETRYSHADERWITHSTREAMOUTPUT pfnCalcPrivateGeometryShaderWithStreamOutput;
    PFND3D11DDI_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT      pfnCreateGeometryShaderWithStreamOutput;
    PFND3D10DDI_DESTROYSHADER                             pfnDestroyShader;
    PFND3D10DDI_CALCPRIVATESAMPLERSIZE                    pfnCalcPrivateSamplerSize;
    PFND3D10DDI_CREATESAMPLER                             pfnCreateSampler;
    PFND3D10DDI_DESTROYSAMPLER                            pfnDestroySampler;
    PFND3D10DDI_CALCPRIVATEQUERYSIZE                      pfnCalcPrivateQuerySize;
    PFND3D10DDI_CREATEQUERY                               pfnCreateQuery;
    PFND3D10DDI_DESTROYQUERY                              pfnDestroyQuery;
    PFND3D10DDI_CHECKFORMATSUPPORT                        pfnCheckFormatSupport;
    PFND3D10DDI_CHECKMULTISAMPLEQUALITYLEVELS             pfnCheckMultisampleQualityLevels;
    PFND3D10DDI_CHECKCOUNTERINFO                          pfnCheckCounterInfo;
    PFND3D10DDI_CHECKCOUNTER                              pfnCheckCounter;
    PFND3D10DDI_DESTROYDEVICE                             pfnDestroyDevice;
    PFND3D10DDI_SETTEXTFILTERSIZE                         pfnSetTextFilterSize;
    PFND3D10DDI_RESOURCECOPY                              pfnResourceConvert;
    PFND3D10DDI_RESOURCECOPYREGION                        pfnResourceConvertRegion;
    PFND3D11DDI_DRAWINDEXEDINSTANCEDINDIRECT              pfnDrawIndexedInstancedIndirect;
    PFND3D11DDI_DRAWINSTANCEDINDIRECT                     pfnDrawInstancedIndirect;
    PFND3D11DDI_COMMANDLISTEXECUTE                        pfnCommandListExecute;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnHsSetShaderResources;
    PFND3D10DDI_SETSHADER                                 pfnHsSetShader;
    PFND3D10DDI_SETSAMPLERS                               pfnHsSetSamplers;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnHsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnDsSetShaderResources;
    PFND3D10DDI_SETSHADER                                 pfnDsSetShader;
    PFND3D10DDI_SETSAMPLERS                               pfnDsSetSamplers;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnDsSetConstantBuffers;
    PFND3D11DDI_CREATEHULLSHADER                          pfnCreateHullShader;
    PFND3D11DDI_CREATEDOMAINSHADER                        pfnCreateDomainShader;
    PFND3D11DDI_CHECKDEFERREDCONTEXTHANDLESIZES           pfnCheckDeferredContextHandleSizes;
    PFND3D11DDI_CALCDEFERREDCONTEXTHANDLESIZE             pfnCalcDeferredContextHandleSize;
    PFND3D11DDI_CALCPRIVATEDEFERREDCONTEXTSIZE            pfnCalcPrivateDeferredContextSize;
    PFND3D11DDI_CREATEDEFERREDCONTEXT                     pfnCreateDeferredContext;
    PFND3D11DDI_ABANDONCOMMANDLIST                        pfnAbandonCommandList;
    PFND3D11DDI_CALCPRIVATECOMMANDLISTSIZE                pfnCalcPrivateCommandListSize;
    PFND3D11DDI_CREATECOMMANDLIST                         pfnCreateCommandList;
    PFND3D11DDI_DESTROYCOMMANDLIST                        pfnDestroyCommandList;
    PFND3D11DDI_CALCPRIVATETESSELLATIONSHADERSIZE         pfnCalcPrivateTessellationShaderSize;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnPsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnVsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnGsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnHsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnDsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                     pfnCsSetShaderWithIfaces;
    PFND3D11DDI_CREATECOMPUTESHADER                       pfnCreateComputeShader;
    PFND3D10DDI_SETSHADER                                 pfnCsSetShader;
    PFND3D10DDI_SETSHADERRESOURCES                        pfnCsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                               pfnCsSetSamplers;
    PFND3D10DDI_SETCONSTANTBUFFERS                        pfnCsSetConstantBuffers;
    PFND3D11DDI_CALCPRIVATEUNORDEREDACCESSVIEWSIZE        pfnCalcPrivateUnorderedAccessViewSize;
    PFND3D11DDI_CREATEUNORDEREDACCESSVIEW                 pfnCreateUnorderedAccessView;
    PFND3D11DDI_DESTROYUNORDEREDACCESSVIEW                pfnDestroyUnorderedAccessView;
    PFND3D11DDI_CLEARUNORDEREDACCESSVIEWUINT              pfnClearUnorderedAccessViewUint;
    PFND3D11DDI_CLEARUNORDEREDACCESSVIEWFLOAT             pfnClearUnorderedAccessViewFloat;
    PFND3D11DDI_SETUNORDEREDACCESSVIEWS                   pfnCsSetUnorderedAccessViews;
    PFND3D11DDI_DISPATCH                                  pfnDispatch;
    PFND3D11DDI_DISPATCHINDIRECT                          pfnDispatchIndirect;
    PFND3D11DDI_SETRESOURCEMINLOD                         pfnSetResourceMinLOD;
    PFND3D11DDI_COPYSTRUCTURECOUNT                        pfnCopyStructureCount;
    PFND3D11DDI_RECYCLECOMMANDLIST                        pfnRecycleCommandList;
    PFND3D11DDI_RECYCLECREATECOMMANDLIST                  pfnRecycleCreateCommandList;
    PFND3D11DDI_RECYCLECREATEDEFERREDCONTEXT              pfnRecycleCreateDeferredContext;
    PFND3D11DDI_DESTROYCOMMANDLIST                        pfnRecycleDestroyCommandList;
} D3D11DDI_DEVICEFUNCS;

/* D3D11_1_DDI_INTERFACE_VERSION: the 11.0 table's slots in the same places (25 with D3D11.1 types) and
 * five more at the end: 155 slots. */
typedef struct D3D11_1DDI_DEVICEFUNCS {
    PFND3D11_1DDI_RESOURCEUPDATESUBRESOURCEUP               pfnDefaultConstantBufferUpdateSubresourceUP;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnVsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnPsSetShaderResources;
    PFND3D10DDI_SETSHADER                                   pfnPsSetShader;
    PFND3D10DDI_SETSAMPLERS                                 pfnPsSetSamplers;
    PFND3D10DDI_SETSHADER                                   pfnVsSetShader;
    PFND3D10DDI_DRAWINDEXED                                 pfnDrawIndexed;
    PFND3D10DDI_DRAW                                        pfnDraw;
    PFND3D10DDI_RESOURCEMAP                                 pfnDynamicIABufferMapNoOverwrite;
    PFND3D10DDI_RESOURCEUNMAP                               pfnDynamicIABufferUnmap;
    PFND3D10DDI_RESOURCEMAP                                 pfnDynamicConstantBufferMapDiscard;
    PFND3D10DDI_RESOURCEMAP                                 pfnDynamicIABufferMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                               pfnDynamicConstantBufferUnmap;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnPsSetConstantBuffers;
    PFND3D10DDI_SETINPUTLAYOUT                              pfnIaSetInputLayout;
    PFND3D10DDI_IA_SETVERTEXBUFFERS                         pfnIaSetVertexBuffers;
    PFND3D10DDI_IA_SETINDEXBUFFER                           pfnIaSetIndexBuffer;
    PFND3D10DDI_DRAWINDEXEDINSTANCED                        pfnDrawIndexedInstanced;
    PFND3D10DDI_DRAWINSTANCED                               pfnDrawInstanced;
    PFND3D10DDI_RESOURCEMAP                                 pfnDynamicResourceMapDiscard;
    PFND3D10DDI_RESOURCEUNMAP                               pfnDynamicResourceUnmap;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnGsSetConstantBuffers;
    PFND3D10DDI_SETSHADER                                   pfnGsSetShader;
    PFND3D10DDI_IA_SETTOPOLOGY                              pfnIaSetTopology;
    PFND3D10DDI_RESOURCEMAP                                 pfnStagingResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                               pfnStagingResourceUnmap;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnVsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                                 pfnVsSetSamplers;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnGsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                                 pfnGsSetSamplers;
    PFND3D11DDI_SETRENDERTARGETS                            pfnSetRenderTargets;
    PFND3D10DDI_SHADERRESOURCEVIEWREADAFTERWRITEHAZARD      pfnShaderResourceViewReadAfterWriteHazard;
    PFND3D10DDI_RESOURCEREADAFTERWRITEHAZARD                pfnResourceReadAfterWriteHazard;
    PFND3D10DDI_SETBLENDSTATE                               pfnSetBlendState;
    PFND3D10DDI_SETDEPTHSTENCILSTATE                        pfnSetDepthStencilState;
    PFND3D10DDI_SETRASTERIZERSTATE                          pfnSetRasterizerState;
    PFND3D10DDI_QUERYEND                                    pfnQueryEnd;
    PFND3D10DDI_QUERYBEGIN                                  pfnQueryBegin;
    PFND3D11_1DDI_RESOURCECOPYREGION                        pfnResourceCopyRegion;
    PFND3D11_1DDI_RESOURCEUPDATESUBRESOURCEUP               pfnResourceUpdateSubresourceUP;
    PFND3D10DDI_SO_SETTARGETS                               pfnSoSetTargets;
    PFND3D10DDI_DRAWAUTO                                    pfnDrawAuto;
    PFND3D10DDI_SETVIEWPORTS                                pfnSetViewports;
    PFND3D10DDI_SETSCISSORRECTS                             pfnSetScissorRects;
    PFND3D10DDI_CLEARRENDERTARGETVIEW                       pfnClearRenderTargetView;
    PFND3D10DDI_CLEARDEPTHSTENCILVIEW                       pfnClearDepthStencilView;
    PFND3D10DDI_SETPREDICATION                              pfnSetPredication;
    PFND3D10DDI_QUERYGETDATA                                pfnQueryGetData;
    PFND3D11_1DDI_FLUSH                                     pfnFlush;
    PFND3D10DDI_GENMIPS                                     pfnGenMips;
    PFND3D10DDI_RESOURCECOPY                                pfnResourceCopy;
    PFND3D10DDI_RESOURCERESOLVESUBRESOURCE                  pfnResourceResolveSubresource;
    PFND3D10DDI_RESOURCEMAP                                 pfnResourceMap;
    PFND3D10DDI_RESOURCEUNMAP                               pfnResourceUnmap;
    PFND3D10DDI_RESOURCEISSTAGINGBUSY                       pfnResourceIsStagingBusy;
    PFND3D11_1DDI_RELOCATEDEVICEFUNCS                       pfnRelocateDeviceFuncs;
    PFND3D11DDI_CALCPRIVATERESOURCESIZE                     pfnCalcPrivateResourceSize;
    PFND3D10DDI_CALCPRIVATEOPENEDRESOURCESIZE               pfnCalcPrivateOpenedResourceSize;
    PFND3D11DDI_CREATERESOURCE                              pfnCreateResource;
    PFND3D10DDI_OPENRESOURCE                                pfnOpenResource;
    PFND3D10DDI_DESTROYRESOURCE                             pfnDestroyResource;
    PFND3D11DDI_CALCPRIVATESHADERRESOURCEVIEWSIZE           pfnCalcPrivateShaderResourceViewSize;
    PFND3D11DDI_CREATESHADERRESOURCEVIEW                    pfnCreateShaderResourceView;
    PFND3D10DDI_DESTROYSHADERRESOURCEVIEW                   pfnDestroyShaderResourceView;
    PFND3D10DDI_CALCPRIVATERENDERTARGETVIEWSIZE             pfnCalcPrivateRenderTargetViewSize;
    PFND3D10DDI_CREATERENDERTARGETVIEW                      pfnCreateRenderTargetView;
    PFND3D10DDI_DESTROYRENDERTARGETVIEW                     pfnDestroyRenderTargetView;
    PFND3D11DDI_CALCPRIVATEDEPTHSTENCILVIEWSIZE             pfnCalcPrivateDepthStencilViewSize;
    PFND3D11DDI_CREATEDEPTHSTENCILVIEW                      pfnCreateDepthStencilView;
    PFND3D10DDI_DESTROYDEPTHSTENCILVIEW                     pfnDestroyDepthStencilView;
    PFND3D10DDI_CALCPRIVATEELEMENTLAYOUTSIZE                pfnCalcPrivateElementLayoutSize;
    PFND3D10DDI_CREATEELEMENTLAYOUT                         pfnCreateElementLayout;
    PFND3D10DDI_DESTROYELEMENTLAYOUT                        pfnDestroyElementLayout;
    PFND3D11_1DDI_CALCPRIVATEBLENDSTATESIZE                 pfnCalcPrivateBlendStateSize;
    PFND3D11_1DDI_CREATEBLENDSTATE                          pfnCreateBlendState;
    PFND3D10DDI_DESTROYBLENDSTATE                           pfnDestroyBlendState;
    PFND3D10DDI_CALCPRIVATEDEPTHSTENCILSTATESIZE            pfnCalcPrivateDepthStencilStateSize;
    PFND3D10DDI_CREATEDEPTHSTENCILSTATE                     pfnCreateDepthStencilState;
    PFND3D10DDI_DESTROYDEPTHSTENCILSTATE                    pfnDestroyDepthStencilState;
    PFND3D11_1DDI_CALCPRIVATERASTERIZERSTATESIZE            pfnCalcPrivateRasterizerStateSize;
    PFND3D11_1DDI_CREATERASTERIZERSTATE                     pfnCreateRasterizerState;
    PFND3D10DDI_DESTROYRASTERIZERSTATE                      pfnDestroyRasterizerState;
    PFND3D11_1DDI_CALCPRIVATESHADERSIZE                     pfnCalcPrivateShaderSize;
    PFND3D11_1DDI_CREATEVERTEXSHADER                        pfnCreateVertexShader;
    PFND3D11_1DDI_CREATEGEOMETRYSHADER                      pfnCreateGeometryShader;
    PFND3D11_1DDI_CREATEPIXELSHADER                         pfnCreatePixelShader;
    PFND3D11_1DDI_CALCPRIVATEGEOMETRYSHADERWITHSTREAMOUTPUT pfnCalcPrivateGeometryShaderWithStreamOutput;
    PFND3D11_1DDI_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT      pfnCreateGeometryShaderWithStreamOutput;
    PFND3D10DDI_DESTROYSHADER                               pfnDestroyShader;
    PFND3D10DDI_CALCPRIVATESAMPLERSIZE                      pfnCalcPrivateSamplerSize;
    PFND3D10DDI_CREATESAMPLER                               pfnCreateSampler;
    PFND3D10DDI_DESTROYSAMPLER                              pfnDestroySampler;
    PFND3D10DDI_CALCPRIVATEQUERYSIZE                        pfnCalcPrivateQuerySize;
    PFND3D10DDI_CREATEQUERY                                 pfnCreateQuery;
    PFND3D10DDI_DESTROYQUERY                                pfnDestroyQuery;
    PFND3D10DDI_CHECKFORMATSUPPORT                          pfnCheckFormatSupport;
    PFND3D10DDI_CHECKMULTISAMPLEQUALITYLEVELS               pfnCheckMultisampleQualityLevels;
    PFND3D10DDI_CHECKCOUNTERINFO                            pfnCheckCounterInfo;
    PFND3D10DDI_CHECKCOUNTER                                pfnCheckCounter;
    PFND3D10DDI_DESTROYDEVICE                               pfnDestroyDevice;
    PFND3D10DDI_SETTEXTFILTERSIZE                           pfnSetTextFilterSize;
    PFND3D10DDI_RESOURCECOPY                                pfnResourceConvert;
    PFND3D11_1DDI_RESOURCECOPYREGION                        pfnResourceConvertRegion;
    PFND3D11DDI_DRAWINDEXEDINSTANCEDINDIRECT                pfnDrawIndexedInstancedIndirect;
    PFND3D11DDI_DRAWINSTANCEDINDIRECT                       pfnDrawInstancedIndirect;
    PFND3D11DDI_COMMANDLISTEXECUTE                          pfnCommandListExecute;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnHsSetShaderResources;
    PFND3D10DDI_SETSHADER                                   pfnHsSetShader;
    PFND3D10DDI_SETSAMPLERS                                 pfnHsSetSamplers;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnHsSetConstantBuffers;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnDsSetShaderResources;
    PFND3D10DDI_SETSHADER                                   pfnDsSetShader;
    PFND3D10DDI_SETSAMPLERS                                 pfnDsSetSamplers;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnDsSetConstantBuffers;
    PFND3D11_1DDI_CREATEHULLSHADER                          pfnCreateHullShader;
    PFND3D11_1DDI_CREATEDOMAINSHADER                        pfnCreateDomainShader;
    PFND3D11DDI_CHECKDEFERREDCONTEXTHANDLESIZES             pfnCheckDeferredContextHandleSizes;
    PFND3D11DDI_CALCDEFERREDCONTEXTHANDLESIZE               pfnCalcDeferredContextHandleSize;
    PFND3D11DDI_CALCPRIVATEDEFERREDCONTEXTSIZE              pfnCalcPrivateDeferredContextSize;
    PFND3D11DDI_CREATEDEFERREDCONTEXT                       pfnCreateDeferredContext;
    PFND3D11DDI_ABANDONCOMMANDLIST                          pfnAbandonCommandList;
    PFND3D11DDI_CALCPRIVATECOMMANDLISTSIZE                  pfnCalcPrivateCommandListSize;
    PFND3D11DDI_CREATECOMMANDLIST                           pfnCreateCommandList;
    PFND3D11DDI_DESTROYCOMMANDLIST                          pfnDestroyCommandList;
    PFND3D11_1DDI_CALCPRIVATETESSELLATIONSHADERSIZE         pfnCalcPrivateTessellationShaderSize;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnPsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnVsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnGsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnHsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnDsSetShaderWithIfaces;
    PFND3D11DDI_SETSHADER_WITH_IFACES                       pfnCsSetShaderWithIfaces;
    PFND3D11DDI_CREATECOMPUTESHADER                         pfnCreateComputeShader;
    PFND3D10DDI_SETSHADER                                   pfnCsSetShader;
    PFND3D10DDI_SETSHADERRESOURCES                          pfnCsSetShaderResources;
    PFND3D10DDI_SETSAMPLERS                                 pfnCsSetSamplers;
    PFND3D11_1DDI_SETCONSTANTBUFFERS                        pfnCsSetConstantBuffers;
    PFND3D11DDI_CALCPRIVATEUNORDEREDACCESSVIEWSIZE          pfnCalcPrivateUnorderedAccessViewSize;
    PFND3D11DDI_CREATEUNORDEREDACCESSVIEW                   pfnCreateUnorderedAccessView;
    PFND3D11DDI_DESTROYUNORDEREDACCESSVIEW                  pfnDestroyUnorderedAccessView;
    PFND3D11DDI_CLEARUNORDEREDACCESSVIEWUINT                pfnClearUnorderedAccessViewUint;
    PFND3D11DDI_CLEARUNORDEREDACCESSVIEWFLOAT               pfnClearUnorderedAccessViewFloat;
    PFND3D11DDI_SETUNORDEREDACCESSVIEWS                     pfnCsSetUnorderedAccessViews;
    PFND3D11DDI_DISPATCH                                    pfnDispatch;
    PFND3D11DDI_DISPATCHINDIRECT                            pfnDispatchIndirect;
    PFND3D11DDI_SETRESOURCEMINLOD                           pfnSetResourceMinLOD;
    PFND3D11DDI_COPYSTRUCTURECOUNT                          pfnCopyStructureCount;
    PFND3D11DDI_RECYCLECOMMANDLIST                          pfnRecycleCommandList;
    PFND3D11DDI_RECYCLECREATECOMMANDLIST                    pfnRecycleCreateCommandList;
    PFND3D11DDI_RECYCLECREATEDEFERREDCONTEXT                pfnRecycleCreateDeferredContext;
    PFND3D11DDI_DESTROYCOMMANDLIST                          pfnRecycleDestroyCommandList;
    PFND3D11_1DDI_DISCARD                                   pfnDiscard;
    PFND3D11_1DDI_ASSIGNDEBUGBINARY                         pfnAssignDebugBinary;
    PFND3D10DDI_RESOURCEMAP                                 pfnDynamicConstantBufferMapNoOverwrite;
    PFND3D11_1DDI_CHECKDIRECTFLIPSUPPORT                    pfnCheckDirectFlipSupport;
    PFND3D11_1DDI_CLEARVIEW                                 pfnClearView;
} D3D11_1DDI_DEVICEFUNCS;

/* ---- Callbacks the runtime's core layer gives the UMD ----------------------------------------- */
typedef VOID (APIENTRY CALLBACK *PFND3D10DDI_SETERROR_CB)(D3D10DDI_HRTCORELAYER, HRESULT);
typedef struct D3D10DDI_CORELAYER_DEVICECALLBACKS {
    PFND3D10DDI_SETERROR_CB                                      pfnSetErrorCb;
    PFND3D10DDI_STATE_VS_CONSTBUF_CB                             pfnStateVsConstBufCb;
    PFND3D10DDI_STATE_PS_SRV_CB                                  pfnStatePsSrvCb;
    PFND3D10DDI_STATE_PS_SHADER_CB                               pfnStatePsShaderCb;
    PFND3D10DDI_STATE_PS_SAMPLER_CB                              pfnStatePsSamplerCb;
    PFND3D10DDI_STATE_VS_SHADER_CB                               pfnStateVsShaderCb;
    PFND3D10DDI_STATE_PS_CONSTBUF_CB                             pfnStatePsConstBufCb;
    PFND3D10DDI_STATE_IA_INPUTLAYOUT_CB                          pfnStateIaInputLayoutCb;
    PFND3D10DDI_STATE_IA_VERTEXBUF_CB                            pfnStateIaVertexBufCb;
    PFND3D10DDI_STATE_IA_INDEXBUF_CB                             pfnStateIaIndexBufCb;
    PFND3D10DDI_STATE_GS_CONSTBUF_CB                             pfnStateGsConstBufCb;
    PFND3D10DDI_STATE_GS_SHADER_CB                               pfnStateGsShaderCb;
    PFND3D10DDI_STATE_IA_PRIMITIVE_TOPOLOGY_CB                   pfnStateIaPrimitiveTopologyCb;
    PFND3D10DDI_STATE_VS_SRV_CB                                  pfnStateVsSrvCb;
    PFND3D10DDI_STATE_VS_SAMPLER_CB                              pfnStateVsSamplerCb;
    PFND3D10DDI_STATE_GS_SRV_CB                                  pfnStateGsSrvCb;
    PFND3D10DDI_STATE_GS_SAMPLER_CB                              pfnStateGsSamplerCb;
    PFND3D10DDI_STATE_OM_RENDERTARGETS_CB                        pfnStateOmRenderTargetsCb;
    PFND3D10DDI_STATE_OM_BLENDSTATE_CB                           pfnStateOmBlendStateCb;
    PFND3D10DDI_STATE_OM_DEPTHSTATE_CB                           pfnStateOmDepthStateCb;
    PFND3D10DDI_STATE_RS_RASTSTATE_CB                            pfnStateRsRastStateCb;
    PFND3D10DDI_STATE_SO_TARGETS_CB                              pfnStateSoTargetsCb;
    PFND3D10DDI_STATE_RS_VIEWPORTS_CB                            pfnStateRsViewportsCb;
    PFND3D10DDI_STATE_RS_SCISSOR_CB                              pfnStateRsScissorCb;
    PFND3D10DDI_DISABLE_DEFERRED_STAGING_RESOURCE_DESTRUCTION_CB pfnDisableDeferredStagingResourceDestruction;
    PFND3D10DDI_STATE_TEXTFILTERSIZE_CB                          pfnStateTextFilterSizeCb;
} D3D10DDI_CORELAYER_DEVICECALLBACKS;

typedef struct D3D11DDI_CORELAYER_DEVICECALLBACKS {
    PFND3D10DDI_SETERROR_CB                                      pfnSetErrorCb;
    PFND3D10DDI_STATE_VS_CONSTBUF_CB                             pfnStateVsConstBufCb;
    PFND3D10DDI_STATE_PS_SRV_CB                                  pfnStatePsSrvCb;
    PFND3D10DDI_STATE_PS_SHADER_CB                               pfnStatePsShaderCb;
    PFND3D10DDI_STATE_PS_SAMPLER_CB                              pfnStatePsSamplerCb;
    PFND3D10DDI_STATE_VS_SHADER_CB                               pfnStateVsShaderCb;
    PFND3D10DDI_STATE_PS_CONSTBUF_CB                             pfnStatePsConstBufCb;
    PFND3D10DDI_STATE_IA_INPUTLAYOUT_CB                          pfnStateIaInputLayoutCb;
    PFND3D10DDI_STATE_IA_VERTEXBUF_CB                            pfnStateIaVertexBufCb;
    PFND3D10DDI_STATE_IA_INDEXBUF_CB                             pfnStateIaIndexBufCb;
    PFND3D10DDI_STATE_GS_CONSTBUF_CB                             pfnStateGsConstBufCb;
    PFND3D10DDI_STATE_GS_SHADER_CB                               pfnStateGsShaderCb;
    PFND3D10DDI_STATE_IA_PRIMITIVE_TOPOLOGY_CB                   pfnStateIaPrimitiveTopologyCb;
    PFND3D10DDI_STATE_VS_SRV_CB                                  pfnStateVsSrvCb;
    PFND3D10DDI_STATE_VS_SAMPLER_CB                              pfnStateVsSamplerCb;
    PFND3D10DDI_STATE_GS_SRV_CB                                  pfnStateGsSrvCb;
    PFND3D10DDI_STATE_GS_SAMPLER_CB                              pfnStateGsSamplerCb;
    PFND3D10DDI_STATE_OM_RENDERTARGETS_CB                        pfnStateOmRenderTargetsCb;
    PFND3D10DDI_STATE_OM_BLENDSTATE_CB                           pfnStateOmBlendStateCb;
    PFND3D10DDI_STATE_OM_DEPTHSTATE_CB                           pfnStateOmDepthStateCb;
    PFND3D10DDI_STATE_RS_RASTSTATE_CB                            pfnStateRsRastStateCb;
    PFND3D10DDI_STATE_SO_TARGETS_CB                              pfnStateSoTargetsCb;
    PFND3D10DDI_STATE_RS_VIEWPORTS_CB                            pfnStateRsViewportsCb;
    PFND3D10DDI_STATE_RS_SCISSOR_CB                              pfnStateRsScissorCb;
    PFND3D10DDI_DISABLE_DEFERRED_STAGING_RESOURCE_DESTRUCTION_CB pfnDisableDeferredStagingResourceDestruction;
    PFND3D10DDI_STATE_TEXTFILTERSIZE_CB                          pfnStateTextFilterSizeCb;
    PFND3D11DDI_STATE_HS_SRV_CB                                  pfnStateHsSrvCb;
    PFND3D11DDI_STATE_HS_SHADER_CB                               pfnStateHsShaderCb;
    PFND3D11DDI_STATE_HS_SAMPLER_CB                              pfnStateHsSamplerCb;
    PFND3D11DDI_STATE_HS_CONSTBUF_CB                             pfnStateHsConstBufCb;
    PFND3D11DDI_STATE_DS_SRV_CB                                  pfnStateDsSrvCb;
    PFND3D11DDI_STATE_DS_SHADER_CB                               pfnStateDsShaderCb;
    PFND3D11DDI_STATE_DS_SAMPLER_CB                              pfnStateDsSamplerCb;
    PFND3D11DDI_STATE_DS_CONSTBUF_CB                             pfnStateDsConstBufCb;
    PFND3D11DDI_PERFORM_AMORTIZED_PROCESSING_CB                  pfnPerformAmortizedProcessingCb;
    PFND3D11DDI_STATE_CS_SRV_CB                                  pfnStateCsSrvCb;
    PFND3D11DDI_STATE_CS_UAV_CB                                  pfnStateCsUavCb;
    PFND3D11DDI_STATE_CS_SHADER_CB                               pfnStateCsShaderCb;
    PFND3D11DDI_STATE_CS_SAMPLER_CB                              pfnStateCsSamplerCb;
    PFND3D11DDI_STATE_CS_CONSTBUF_CB                             pfnStateCsConstBufCb;
} D3D11DDI_CORELAYER_DEVICECALLBACKS;

/* A deferred context gets a whole table of its own, filled by the UMD like the immediate one's. */
typedef struct D3D11DDIARG_CREATEDEFERREDCONTEXT {
    union {                                          /* out: filled by the UMD; which one the device's Interface says */
        D3D11DDI_DEVICEFUNCS *p11ContextFuncs;       /* D3D11_0_DDI_INTERFACE_VERSION */
        D3D11_1DDI_DEVICEFUNCS *p11_1ContextFuncs;   /* D3D11_1_DDI_INTERFACE_VERSION */
    };
    D3D10DDI_HDEVICE hDrvContext;                    /* runtime-allocated, CalcPrivateDeferredContextSize bytes */
    D3D10DDI_HRTCORELAYER hRTCoreLayer;              /* the context's own: its pfnSetErrorCb reports land there */
    union {
        const D3D11DDI_CORELAYER_DEVICECALLBACKS *p11UMCallbacks;
    };
    UINT Flags;
} D3D11DDIARG_CREATEDEFERREDCONTEXT;

/* ---- Adapter and device creation ------------------------------------------------------------ */
typedef struct D3D10DDIARG_CALCPRIVATEDEVICESIZE {
    UINT Interface;
    UINT Version;
    UINT Flags;
} D3D10DDIARG_CALCPRIVATEDEVICESIZE;

/* D3D11.1's sub-device tables (video): not modeled; the runtime never calls it. */
typedef HRESULT (APIENTRY *PFND3D10DDI_RETRIEVESUBOBJECT)(D3D10DDI_HDEVICE hDevice, UINT32 SubDeviceID, SIZE_T ParamSize,
                                                          void *pParams, SIZE_T OutputParamSize, void *pOutputParamsBuffer);

typedef struct D3D10DDIARG_CREATEDEVICE {
    D3D10DDI_HRTDEVICE hRTDevice;                    /* passed back as hDevice of every D3DDDI callback */
    UINT Interface;
    UINT Version;
    const D3DDDI_DEVICECALLBACKS *pKTCallbacks;
    union {                                          /* out: filled by the UMD; which one Interface says */
        D3D10DDI_DEVICEFUNCS *pDeviceFuncs;          /* D3D10_0_DDI_INTERFACE_VERSION */
        D3D10_1DDI_DEVICEFUNCS *p10_1DeviceFuncs;    /* D3D10_1_DDI_INTERFACE_VERSION */
        D3D11DDI_DEVICEFUNCS *p11DeviceFuncs;        /* D3D11_0_DDI_INTERFACE_VERSION */
        D3D11_1DDI_DEVICEFUNCS *p11_1DeviceFuncs;    /* D3D11_1_DDI_INTERFACE_VERSION */
    };
    D3D10DDI_HDEVICE hDrvDevice;                     /* runtime-allocated, CalcPrivateDeviceSize bytes */
    DXGI_DDI_BASE_ARGS DXGIBaseDDI;                  /* DXGI's table (dxgiddi.h): storage given, not called */
    D3D10DDI_HRTCORELAYER hRTCoreLayer;
    union {
        const D3D10DDI_CORELAYER_DEVICECALLBACKS *pUMCallbacks;   /* 10.x */
        const D3D11DDI_CORELAYER_DEVICECALLBACKS *p11UMCallbacks; /* 11.0, 11.1 */
    };
    UINT Flags;
    PFND3D10DDI_RETRIEVESUBOBJECT *ppfnRetrieveSubObject; /* out (D3D11.1): storage given, not called */
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

/* OpenAdapter10's table (the D3D10.0 / 10.1 runtimes'): no version or caps queries. */
typedef struct D3D10DDI_ADAPTERFUNCS {
    PFND3D10DDI_CALCPRIVATEDEVICESIZE pfnCalcPrivateDeviceSize;
    PFND3D10DDI_CREATEDEVICE pfnCreateDevice;
    PFND3D10DDI_CLOSEADAPTER pfnCloseAdapter;
} D3D10DDI_ADAPTERFUNCS;

typedef struct D3D10DDIARG_OPENADAPTER {
    D3D10DDI_HRTADAPTER hRTAdapter;                  /* passed back as hAdapter of pfnQueryAdapterInfoCb */
    D3D10DDI_HADAPTER hAdapter;                      /* out: the UMD's adapter */
    UINT Interface;
    UINT Version;
    const D3DDDI_ADAPTERCALLBACKS *pAdapterCallbacks;
    union {                                          /* out: filled by the UMD */
        D3D10DDI_ADAPTERFUNCS *pAdapterFuncs;        /* OpenAdapter10 */
        D3D10_2DDI_ADAPTERFUNCS *pAdapterFuncs_2;    /* OpenAdapter10_2 */
    };
} D3D10DDIARG_OPENADAPTER;

typedef HRESULT (APIENTRY *PFND3D10DDI_OPENADAPTER)(D3D10DDIARG_OPENADAPTER *);

/* The reference UMD's entry points: OpenAdapter10_2 the D3D11 runtime calls ("OpenAdapter11" in
 * the issue text is the same function), OpenAdapter10 the D3D10 one (D3D10.0 / 10.1 DDIs). */
HRESULT APIENTRY OpenAdapter10_2(D3D10DDIARG_OPENADAPTER *);
HRESULT APIENTRY OpenAdapter10(D3D10DDIARG_OPENADAPTER *);
HRESULT APIENTRY OpenAdapter11(D3D10DDIARG_OPENADAPTER *);

#ifdef __cplusplus
}
#endif
#endif /* WDDM_D3D10UMDDI_H */
