/*
 * d3d11.h - the Direct3D 11 application API in C/COM style (the subset libwddm implements).
 *
 * Names, numeric values and the relative order of methods are the D3D11 SDK's; the layout is
 * not (DESIGN.md "Headers": source compatibility, not binary compatibility). Each vtable holds
 * only the methods we implement, in the SDK's order. The COBJMACROS-style call macros
 * (ID3D11Device_CreateBuffer(...)) are defined unconditionally.
 */
#ifndef LIBWDDM_D3D11_H
#define LIBWDDM_D3D11_H

#include "wddm/wintypes.h"
#include "d3dcommon.h"
#include "dxgiformat.h"
#include "dxgi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* HMODULE (the Software rasterizer module of D3D11CreateDevice) comes from wddm/wintypes.h. */

#define D3D11_SDK_VERSION 7

/* ---- limits (d3d11.h D3D11_REQ_* constants) ---------------------------------------------- */
#define D3D11_REQ_MIP_LEVELS                        15
#define D3D11_REQ_TEXTURE1D_U_DIMENSION             16384
#define D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION    2048
#define D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION        16384
#define D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION    2048
#define D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION      2048
#define D3D11_REQ_TEXTURECUBE_DIMENSION             16384
#define D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT     4096
#define D3D11_REQ_BUFFER_RESOURCE_TEXEL_COUNT_2_TO_EXP 27
#define D3D11_REQ_RESOURCE_SIZE_IN_MEGABYTES_EXPRESSION_A_TERM 128
#define D3D11_MAX_MAXANISOTROPY                     16
#define D3D11_SO_BUFFER_SLOT_COUNT                  4
#define D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT      8
#define D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT 14
#define D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT          32

/* ---- D3D11 API error codes (winerror.h, facility D3D11 = 0x87C) ------------------------- */
#define D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS          ((HRESULT)0x887C0001L)
#define D3D11_ERROR_FILE_NOT_FOUND                         ((HRESULT)0x887C0002L)
#define D3D11_ERROR_TOO_MANY_UNIQUE_VIEW_OBJECTS           ((HRESULT)0x887C0003L)
#define D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD ((HRESULT)0x887C0004L)

/* ---- enumerations ------------------------------------------------------------------------ */

typedef enum D3D11_USAGE {
    D3D11_USAGE_DEFAULT   = 0,
    D3D11_USAGE_IMMUTABLE = 1,
    D3D11_USAGE_DYNAMIC   = 2,
    D3D11_USAGE_STAGING   = 3
} D3D11_USAGE;

typedef enum D3D11_BIND_FLAG {
    D3D11_BIND_VERTEX_BUFFER    = 0x1L,
    D3D11_BIND_INDEX_BUFFER     = 0x2L,
    D3D11_BIND_CONSTANT_BUFFER  = 0x4L,
    D3D11_BIND_SHADER_RESOURCE  = 0x8L,
    D3D11_BIND_STREAM_OUTPUT    = 0x10L,
    D3D11_BIND_RENDER_TARGET    = 0x20L,
    D3D11_BIND_DEPTH_STENCIL    = 0x40L,
    D3D11_BIND_UNORDERED_ACCESS = 0x80L,
    D3D11_BIND_DECODER          = 0x200L,
    D3D11_BIND_VIDEO_ENCODER    = 0x400L
} D3D11_BIND_FLAG;

typedef enum D3D11_CPU_ACCESS_FLAG {
    D3D11_CPU_ACCESS_WRITE = 0x10000L,
    D3D11_CPU_ACCESS_READ  = 0x20000L
} D3D11_CPU_ACCESS_FLAG;

typedef enum D3D11_RESOURCE_MISC_FLAG {
    D3D11_RESOURCE_MISC_GENERATE_MIPS                   = 0x1L,
    D3D11_RESOURCE_MISC_SHARED                          = 0x2L,
    D3D11_RESOURCE_MISC_TEXTURECUBE                     = 0x4L,
    D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS               = 0x10L,
    D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS          = 0x20L,
    D3D11_RESOURCE_MISC_BUFFER_STRUCTURED               = 0x40L,
    D3D11_RESOURCE_MISC_RESOURCE_CLAMP                  = 0x80L,
    D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX               = 0x100L,
    D3D11_RESOURCE_MISC_GDI_COMPATIBLE                  = 0x200L,
    D3D11_RESOURCE_MISC_SHARED_NTHANDLE                 = 0x800L,
    D3D11_RESOURCE_MISC_RESTRICTED_CONTENT              = 0x1000L,
    D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE        = 0x2000L,
    D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE_DRIVER = 0x4000L,
    D3D11_RESOURCE_MISC_GUARDED                         = 0x8000L,
    D3D11_RESOURCE_MISC_TILE_POOL                       = 0x20000L,
    D3D11_RESOURCE_MISC_TILED                           = 0x40000L,
    D3D11_RESOURCE_MISC_HW_PROTECTED                    = 0x80000L
} D3D11_RESOURCE_MISC_FLAG;

typedef enum D3D11_MAP {
    D3D11_MAP_READ               = 1,
    D3D11_MAP_WRITE              = 2,
    D3D11_MAP_READ_WRITE         = 3,
    D3D11_MAP_WRITE_DISCARD      = 4,
    D3D11_MAP_WRITE_NO_OVERWRITE = 5
} D3D11_MAP;

typedef enum D3D11_MAP_FLAG {
    D3D11_MAP_FLAG_DO_NOT_WAIT = 0x100000L
} D3D11_MAP_FLAG;

/* ---- Queries (EVENT, TIMESTAMP and TIMESTAMP_DISJOINT are implemented, docs/rules.md) ------- */
typedef enum D3D11_QUERY {
    D3D11_QUERY_EVENT = 0,
    D3D11_QUERY_OCCLUSION = 1,
    D3D11_QUERY_TIMESTAMP = 2,
    D3D11_QUERY_TIMESTAMP_DISJOINT = 3,
    D3D11_QUERY_PIPELINE_STATISTICS = 4,
    D3D11_QUERY_OCCLUSION_PREDICATE = 5,
    D3D11_QUERY_SO_STATISTICS = 6,
    D3D11_QUERY_SO_OVERFLOW_PREDICATE = 7,
    D3D11_QUERY_SO_STATISTICS_STREAM0 = 8,
    D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 = 9,
    D3D11_QUERY_SO_STATISTICS_STREAM1 = 10,
    D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1 = 11,
    D3D11_QUERY_SO_STATISTICS_STREAM2 = 12,
    D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2 = 13,
    D3D11_QUERY_SO_STATISTICS_STREAM3 = 14,
    D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3 = 15
} D3D11_QUERY;

typedef enum D3D11_QUERY_MISC_FLAG {
    D3D11_QUERY_MISC_PREDICATEHINT = 0x1
} D3D11_QUERY_MISC_FLAG;

typedef struct D3D11_QUERY_DESC {
    D3D11_QUERY Query;
    UINT MiscFlags;
} D3D11_QUERY_DESC;

typedef enum D3D11_ASYNC_GETDATA_FLAG {
    D3D11_ASYNC_GETDATA_DONOTFLUSH = 0x1
} D3D11_ASYNC_GETDATA_FLAG;

typedef enum D3D11_RESOURCE_DIMENSION {
    D3D11_RESOURCE_DIMENSION_UNKNOWN   = 0,
    D3D11_RESOURCE_DIMENSION_BUFFER    = 1,
    D3D11_RESOURCE_DIMENSION_TEXTURE1D = 2,
    D3D11_RESOURCE_DIMENSION_TEXTURE2D = 3,
    D3D11_RESOURCE_DIMENSION_TEXTURE3D = 4
} D3D11_RESOURCE_DIMENSION;

typedef enum D3D11_RTV_DIMENSION {
    D3D11_RTV_DIMENSION_UNKNOWN          = 0,
    D3D11_RTV_DIMENSION_BUFFER           = 1,
    D3D11_RTV_DIMENSION_TEXTURE1D        = 2,
    D3D11_RTV_DIMENSION_TEXTURE1DARRAY   = 3,
    D3D11_RTV_DIMENSION_TEXTURE2D        = 4,
    D3D11_RTV_DIMENSION_TEXTURE2DARRAY   = 5,
    D3D11_RTV_DIMENSION_TEXTURE2DMS      = 6,
    D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY = 7,
    D3D11_RTV_DIMENSION_TEXTURE3D        = 8
} D3D11_RTV_DIMENSION;

typedef enum D3D11_FEATURE {
    D3D11_FEATURE_THREADING                      = 0,
    D3D11_FEATURE_DOUBLES                        = 1,
    D3D11_FEATURE_FORMAT_SUPPORT                 = 2,
    D3D11_FEATURE_FORMAT_SUPPORT2                = 3,
    D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS       = 4,
    D3D11_FEATURE_D3D11_OPTIONS                  = 5,
    D3D11_FEATURE_ARCHITECTURE_INFO              = 6,
    D3D11_FEATURE_D3D9_OPTIONS                   = 7,
    D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT   = 8,
    D3D11_FEATURE_D3D9_SHADOW_SUPPORT            = 9,
    D3D11_FEATURE_D3D11_OPTIONS1                 = 10,
    D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT = 11,
    D3D11_FEATURE_MARKER_SUPPORT                 = 12,
    D3D11_FEATURE_D3D9_OPTIONS1                  = 13
} D3D11_FEATURE;

typedef enum D3D11_DEVICE_CONTEXT_TYPE {
    D3D11_DEVICE_CONTEXT_IMMEDIATE = 0,
    D3D11_DEVICE_CONTEXT_DEFERRED  = 1
} D3D11_DEVICE_CONTEXT_TYPE;

typedef enum D3D11_CREATE_DEVICE_FLAG {
    D3D11_CREATE_DEVICE_SINGLETHREADED                                = 0x1,
    D3D11_CREATE_DEVICE_DEBUG                                         = 0x2,
    D3D11_CREATE_DEVICE_SWITCH_TO_REF                                 = 0x4,
    D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS      = 0x8,
    D3D11_CREATE_DEVICE_BGRA_SUPPORT                                  = 0x20,
    D3D11_CREATE_DEVICE_DEBUGGABLE                                    = 0x40,
    D3D11_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY = 0x80,
    D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT                           = 0x100,
    D3D11_CREATE_DEVICE_VIDEO_SUPPORT                                 = 0x800
} D3D11_CREATE_DEVICE_FLAG;

typedef enum D3D11_FORMAT_SUPPORT {
    D3D11_FORMAT_SUPPORT_BUFFER                      = 0x1,
    D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER            = 0x2,
    D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER             = 0x4,
    D3D11_FORMAT_SUPPORT_SO_BUFFER                   = 0x8,
    D3D11_FORMAT_SUPPORT_TEXTURE1D                   = 0x10,
    D3D11_FORMAT_SUPPORT_TEXTURE2D                   = 0x20,
    D3D11_FORMAT_SUPPORT_TEXTURE3D                   = 0x40,
    D3D11_FORMAT_SUPPORT_TEXTURECUBE                 = 0x80,
    D3D11_FORMAT_SUPPORT_SHADER_LOAD                 = 0x100,
    D3D11_FORMAT_SUPPORT_SHADER_SAMPLE               = 0x200,
    D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON    = 0x400,
    D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_MONO_TEXT     = 0x800,
    D3D11_FORMAT_SUPPORT_MIP                         = 0x1000,
    D3D11_FORMAT_SUPPORT_MIP_AUTOGEN                 = 0x2000,
    D3D11_FORMAT_SUPPORT_RENDER_TARGET               = 0x4000,
    D3D11_FORMAT_SUPPORT_BLENDABLE                   = 0x8000,
    D3D11_FORMAT_SUPPORT_DEPTH_STENCIL               = 0x10000,
    D3D11_FORMAT_SUPPORT_CPU_LOCKABLE                = 0x20000,
    D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE         = 0x40000,
    D3D11_FORMAT_SUPPORT_DISPLAY                     = 0x80000,
    D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT      = 0x100000,
    D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET    = 0x200000,
    D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD            = 0x400000,
    D3D11_FORMAT_SUPPORT_SHADER_GATHER               = 0x800000,
    D3D11_FORMAT_SUPPORT_BACK_BUFFER_CAST            = 0x1000000,
    D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW = 0x2000000,
    D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON    = 0x4000000
} D3D11_FORMAT_SUPPORT;

/* ---- structures -------------------------------------------------------------------------- */

typedef struct D3D11_BUFFER_DESC {
    UINT        ByteWidth;
    D3D11_USAGE Usage;
    UINT        BindFlags;
    UINT        CPUAccessFlags;
    UINT        MiscFlags;
    UINT        StructureByteStride;
} D3D11_BUFFER_DESC;

typedef struct D3D11_TEXTURE1D_DESC {
    UINT        Width;
    UINT        MipLevels;
    UINT        ArraySize;
    DXGI_FORMAT Format;
    D3D11_USAGE Usage;
    UINT        BindFlags;
    UINT        CPUAccessFlags;
    UINT        MiscFlags;
} D3D11_TEXTURE1D_DESC;

typedef struct D3D11_TEXTURE2D_DESC {
    UINT             Width;
    UINT             Height;
    UINT             MipLevels;
    UINT             ArraySize;
    DXGI_FORMAT      Format;
    DXGI_SAMPLE_DESC SampleDesc;
    D3D11_USAGE      Usage;
    UINT             BindFlags;
    UINT             CPUAccessFlags;
    UINT             MiscFlags;
} D3D11_TEXTURE2D_DESC;

typedef struct D3D11_TEXTURE3D_DESC {
    UINT        Width;
    UINT        Height;
    UINT        Depth;
    UINT        MipLevels;
    DXGI_FORMAT Format;
    D3D11_USAGE Usage;
    UINT        BindFlags;
    UINT        CPUAccessFlags;
    UINT        MiscFlags;
} D3D11_TEXTURE3D_DESC;

typedef struct D3D11_SUBRESOURCE_DATA {
    const void *pSysMem;
    UINT        SysMemPitch;
    UINT        SysMemSlicePitch;
} D3D11_SUBRESOURCE_DATA;

typedef struct D3D11_MAPPED_SUBRESOURCE {
    void *pData;
    UINT  RowPitch;
    UINT  DepthPitch;
} D3D11_MAPPED_SUBRESOURCE;

typedef struct D3D11_BOX {
    UINT left;
    UINT top;
    UINT front;
    UINT right;
    UINT bottom;
    UINT back;
} D3D11_BOX;

typedef struct D3D11_BUFFER_RTV {
    union { UINT FirstElement; UINT ElementOffset; };
    union { UINT NumElements;  UINT ElementWidth;  };
} D3D11_BUFFER_RTV;

typedef struct D3D11_TEX1D_RTV { UINT MipSlice; } D3D11_TEX1D_RTV;
typedef struct D3D11_TEX1D_ARRAY_RTV { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D11_TEX1D_ARRAY_RTV;
typedef struct D3D11_TEX2D_RTV { UINT MipSlice; } D3D11_TEX2D_RTV;
typedef struct D3D11_TEX2D_ARRAY_RTV { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D11_TEX2D_ARRAY_RTV;
typedef struct D3D11_TEX2DMS_RTV { UINT UnusedField_NothingToDefine; } D3D11_TEX2DMS_RTV;
typedef struct D3D11_TEX2DMS_ARRAY_RTV { UINT FirstArraySlice; UINT ArraySize; } D3D11_TEX2DMS_ARRAY_RTV;
typedef struct D3D11_TEX3D_RTV { UINT MipSlice; UINT FirstWSlice; UINT WSize; } D3D11_TEX3D_RTV;

typedef struct D3D11_RENDER_TARGET_VIEW_DESC {
    DXGI_FORMAT         Format;
    D3D11_RTV_DIMENSION ViewDimension;
    union {
        D3D11_BUFFER_RTV        Buffer;
        D3D11_TEX1D_RTV         Texture1D;
        D3D11_TEX1D_ARRAY_RTV   Texture1DArray;
        D3D11_TEX2D_RTV         Texture2D;
        D3D11_TEX2D_ARRAY_RTV   Texture2DArray;
        D3D11_TEX2DMS_RTV       Texture2DMS;
        D3D11_TEX2DMS_ARRAY_RTV Texture2DMSArray;
        D3D11_TEX3D_RTV         Texture3D;
    };
} D3D11_RENDER_TARGET_VIEW_DESC;

/* ---- shader resource / unordered access views (SDK names and values) ---------------------- */
typedef enum D3D11_SRV_DIMENSION {
    D3D11_SRV_DIMENSION_UNKNOWN          = 0,
    D3D11_SRV_DIMENSION_BUFFER           = 1,
    D3D11_SRV_DIMENSION_TEXTURE1D        = 2,
    D3D11_SRV_DIMENSION_TEXTURE1DARRAY   = 3,
    D3D11_SRV_DIMENSION_TEXTURE2D        = 4,
    D3D11_SRV_DIMENSION_TEXTURE2DARRAY   = 5,
    D3D11_SRV_DIMENSION_TEXTURE2DMS      = 6,
    D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY = 7,
    D3D11_SRV_DIMENSION_TEXTURE3D        = 8,
    D3D11_SRV_DIMENSION_TEXTURECUBE      = 9,
    D3D11_SRV_DIMENSION_TEXTURECUBEARRAY = 10,
    D3D11_SRV_DIMENSION_BUFFEREX         = 11
} D3D11_SRV_DIMENSION;

typedef struct D3D11_BUFFER_SRV {
    union { UINT FirstElement; UINT ElementOffset; };
    union { UINT NumElements; UINT ElementWidth; };
} D3D11_BUFFER_SRV;
typedef struct D3D11_TEX2D_SRV { UINT MostDetailedMip; UINT MipLevels; } D3D11_TEX2D_SRV;
typedef struct D3D11_TEX2D_ARRAY_SRV { UINT MostDetailedMip; UINT MipLevels; UINT FirstArraySlice; UINT ArraySize; } D3D11_TEX2D_ARRAY_SRV;

typedef struct D3D11_SHADER_RESOURCE_VIEW_DESC {
    DXGI_FORMAT Format;
    D3D11_SRV_DIMENSION ViewDimension;
    union {
        D3D11_BUFFER_SRV      Buffer;
        D3D11_TEX2D_SRV       Texture2D;
        D3D11_TEX2D_ARRAY_SRV Texture2DArray;
    };
} D3D11_SHADER_RESOURCE_VIEW_DESC;

typedef enum D3D11_UAV_DIMENSION {
    D3D11_UAV_DIMENSION_UNKNOWN        = 0,
    D3D11_UAV_DIMENSION_BUFFER         = 1,
    D3D11_UAV_DIMENSION_TEXTURE1D      = 2,
    D3D11_UAV_DIMENSION_TEXTURE1DARRAY = 3,
    D3D11_UAV_DIMENSION_TEXTURE2D      = 4,
    D3D11_UAV_DIMENSION_TEXTURE2DARRAY = 5,
    D3D11_UAV_DIMENSION_TEXTURE3D      = 8
} D3D11_UAV_DIMENSION;

typedef enum D3D11_BUFFER_UAV_FLAG {
    D3D11_BUFFER_UAV_FLAG_RAW     = 0x1,
    D3D11_BUFFER_UAV_FLAG_APPEND  = 0x2,
    D3D11_BUFFER_UAV_FLAG_COUNTER = 0x4
} D3D11_BUFFER_UAV_FLAG;

typedef struct D3D11_BUFFER_UAV { UINT FirstElement; UINT NumElements; UINT Flags; } D3D11_BUFFER_UAV;
typedef struct D3D11_TEX2D_UAV { UINT MipSlice; } D3D11_TEX2D_UAV;
typedef struct D3D11_TEX2D_ARRAY_UAV { UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; } D3D11_TEX2D_ARRAY_UAV;

typedef struct D3D11_UNORDERED_ACCESS_VIEW_DESC {
    DXGI_FORMAT Format;
    D3D11_UAV_DIMENSION ViewDimension;
    union {
        D3D11_BUFFER_UAV      Buffer;
        D3D11_TEX2D_UAV       Texture2D;
        D3D11_TEX2D_ARRAY_UAV Texture2DArray;
    };
} D3D11_UNORDERED_ACCESS_VIEW_DESC;

typedef struct D3D11_FEATURE_DATA_THREADING {
    BOOL DriverConcurrentCreates;
    BOOL DriverCommandLists;
} D3D11_FEATURE_DATA_THREADING;

typedef struct D3D11_FEATURE_DATA_DOUBLES {
    BOOL DoublePrecisionFloatShaderOps;
} D3D11_FEATURE_DATA_DOUBLES;

typedef struct D3D11_FEATURE_DATA_FORMAT_SUPPORT {
    DXGI_FORMAT InFormat;
    UINT        OutFormatSupport;
} D3D11_FEATURE_DATA_FORMAT_SUPPORT;

typedef enum D3D11_FORMAT_SUPPORT2 {
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD                               = 0x1,
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS                       = 0x2,
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE = 0x4,
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE                          = 0x8,
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX                 = 0x10,
    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX               = 0x20,
    D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD                               = 0x40,
    D3D11_FORMAT_SUPPORT2_UAV_TYPED_STORE                              = 0x80,
    D3D11_FORMAT_SUPPORT2_OUTPUT_MERGER_LOGIC_OP                       = 0x100,
    D3D11_FORMAT_SUPPORT2_TILED                                        = 0x200,
    D3D11_FORMAT_SUPPORT2_SHAREABLE                                    = 0x400,
    D3D11_FORMAT_SUPPORT2_MULTIPLANE_OVERLAY                           = 0x4000
} D3D11_FORMAT_SUPPORT2;

typedef struct D3D11_FEATURE_DATA_FORMAT_SUPPORT2 {
    DXGI_FORMAT InFormat;
    UINT        OutFormatSupport2;
} D3D11_FEATURE_DATA_FORMAT_SUPPORT2;

typedef struct D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS {
    BOOL ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x;
} D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS;

typedef struct D3D11_FEATURE_DATA_D3D11_OPTIONS {
    BOOL OutputMergerLogicOp;
    BOOL UAVOnlyRenderingForcedSampleCount;
    BOOL DiscardAPIsSeenByDriver;
    BOOL FlagsForUpdateAndCopySeenByDriver;
    BOOL ClearView;
    BOOL CopyWithOverlap;
    BOOL ConstantBufferPartialUpdate;
    BOOL ConstantBufferOffsetting;
    BOOL MapNoOverwriteOnDynamicConstantBuffer;
    BOOL MapNoOverwriteOnDynamicBufferSRV;
    BOOL MultisampleRTVWithForcedSampleCountOne;
    BOOL SAD4ShaderInstructions;
    BOOL ExtendedDoublesShaderInstructions;
    BOOL ExtendedResourceSharing;
} D3D11_FEATURE_DATA_D3D11_OPTIONS;

typedef struct D3D11_FEATURE_DATA_ARCHITECTURE_INFO {
    BOOL TileBasedDeferredRenderer;
} D3D11_FEATURE_DATA_ARCHITECTURE_INFO;

typedef struct D3D11_FEATURE_DATA_D3D9_OPTIONS {
    BOOL FullNonPow2TextureSupport;
} D3D11_FEATURE_DATA_D3D9_OPTIONS;

typedef enum D3D11_SHADER_MIN_PRECISION_SUPPORT {
    D3D11_SHADER_MIN_PRECISION_10_BIT = 0x1,
    D3D11_SHADER_MIN_PRECISION_16_BIT = 0x2
} D3D11_SHADER_MIN_PRECISION_SUPPORT;

typedef struct D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT {
    UINT PixelShaderMinPrecision;
    UINT AllOtherShaderStagesMinPrecision;
} D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT;

typedef struct D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT {
    BOOL SupportsDepthAsTextureWithLessEqualComparisonFilter;
} D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT;

typedef enum D3D11_TILED_RESOURCES_TIER {
    D3D11_TILED_RESOURCES_NOT_SUPPORTED = 0,
    D3D11_TILED_RESOURCES_TIER_1        = 1,
    D3D11_TILED_RESOURCES_TIER_2        = 2,
    D3D11_TILED_RESOURCES_TIER_3        = 3
} D3D11_TILED_RESOURCES_TIER;

typedef struct D3D11_FEATURE_DATA_D3D11_OPTIONS1 {
    D3D11_TILED_RESOURCES_TIER TiledResourcesTier;
    BOOL MinMaxFiltering;
    BOOL ClearViewAlsoSupportsDepthOnlyFormats;
    BOOL MapOnDefaultBuffers;
} D3D11_FEATURE_DATA_D3D11_OPTIONS1;

typedef struct D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT {
    BOOL SimpleInstancingSupported;
} D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT;

typedef struct D3D11_FEATURE_DATA_MARKER_SUPPORT {
    BOOL Profile;
} D3D11_FEATURE_DATA_MARKER_SUPPORT;

typedef struct D3D11_FEATURE_DATA_D3D9_OPTIONS1 {
    BOOL FullNonPow2TextureSupported;
    BOOL DepthAsTextureWithLessEqualComparisonFilterSupported;
    BOOL SimpleInstancingSupported;
    BOOL TextureCubeFaceRenderTargetWithNonCube2DDepthStencilSupported;
} D3D11_FEATURE_DATA_D3D9_OPTIONS1;

/* GetData of a D3D11_QUERY_TIMESTAMP_DISJOINT query (a TIMESTAMP query answers one UINT64). */
typedef struct D3D11_QUERY_DATA_TIMESTAMP_DISJOINT {
    UINT64 Frequency;
    BOOL   Disjoint;
} D3D11_QUERY_DATA_TIMESTAMP_DISJOINT;

/* ---- interface identifiers (values in src/runtime/iids.c) -------------------------------- */
extern const IID IID_ID3D11DeviceChild;
extern const IID IID_ID3D11Resource;
extern const IID IID_ID3D11Buffer;
extern const IID IID_ID3D11Texture1D;
extern const IID IID_ID3D11Texture2D;
extern const IID IID_ID3D11Texture3D;
extern const IID IID_ID3D11View;
extern const IID IID_ID3D11RenderTargetView;
extern const IID IID_ID3D11Device;
extern const IID IID_ID3D11DeviceContext;
extern const IID IID_ID3D11CommandList;
extern const IID IID_ID3D11ShaderResourceView;
extern const IID IID_ID3D11UnorderedAccessView;
extern const IID IID_ID3D11Asynchronous;
extern const IID IID_ID3D11Query;

typedef struct ID3D11Device ID3D11Device;
typedef struct ID3D11DeviceChild ID3D11DeviceChild;
typedef struct ID3D11Resource ID3D11Resource;
typedef struct ID3D11Buffer ID3D11Buffer;
typedef struct ID3D11Texture1D ID3D11Texture1D;
typedef struct ID3D11Texture2D ID3D11Texture2D;
typedef struct ID3D11Texture3D ID3D11Texture3D;
typedef struct ID3D11View ID3D11View;
typedef struct ID3D11RenderTargetView ID3D11RenderTargetView;
typedef struct ID3D11DeviceContext ID3D11DeviceContext;
typedef struct ID3D11CommandList ID3D11CommandList;
typedef struct ID3D11ShaderResourceView ID3D11ShaderResourceView;
typedef struct ID3D11UnorderedAccessView ID3D11UnorderedAccessView;
typedef struct ID3D11Asynchronous ID3D11Asynchronous;
typedef struct ID3D11Query ID3D11Query;
/* The SDK's C bindings also name the vtable types. */
typedef struct ID3D11DeviceChildVtbl ID3D11DeviceChildVtbl;
typedef struct ID3D11ResourceVtbl ID3D11ResourceVtbl;
typedef struct ID3D11BufferVtbl ID3D11BufferVtbl;
typedef struct ID3D11Texture1DVtbl ID3D11Texture1DVtbl;
typedef struct ID3D11Texture2DVtbl ID3D11Texture2DVtbl;
typedef struct ID3D11Texture3DVtbl ID3D11Texture3DVtbl;
typedef struct ID3D11ViewVtbl ID3D11ViewVtbl;
typedef struct ID3D11RenderTargetViewVtbl ID3D11RenderTargetViewVtbl;
typedef struct ID3D11DeviceVtbl ID3D11DeviceVtbl;
typedef struct ID3D11DeviceContextVtbl ID3D11DeviceContextVtbl;

/* ---- ID3D11DeviceChild ------------------------------------------------------------------- */
struct ID3D11DeviceChildVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11DeviceChild *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11DeviceChild *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11DeviceChild *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11DeviceChild *This, ID3D11Device **ppDevice);
};
struct ID3D11DeviceChild { const struct ID3D11DeviceChildVtbl *lpVtbl; };

#define ID3D11DeviceChild_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11DeviceChild_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11DeviceChild_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11DeviceChild_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))

/* ---- ID3D11Resource ---------------------------------------------------------------------- */
struct ID3D11ResourceVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11Resource *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11Resource *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11Resource *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11Resource *This, ID3D11Device **ppDevice);
    void    (STDMETHODCALLTYPE *GetType)(ID3D11Resource *This, D3D11_RESOURCE_DIMENSION *pResourceDimension);
    void    (STDMETHODCALLTYPE *SetEvictionPriority)(ID3D11Resource *This, UINT EvictionPriority);
    UINT    (STDMETHODCALLTYPE *GetEvictionPriority)(ID3D11Resource *This);
};
struct ID3D11Resource { const struct ID3D11ResourceVtbl *lpVtbl; };

#define ID3D11Resource_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Resource_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Resource_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Resource_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Resource_GetType(This,pResourceDimension) ((This)->lpVtbl->GetType(This,pResourceDimension))
#define ID3D11Resource_SetEvictionPriority(This,EvictionPriority) ((This)->lpVtbl->SetEvictionPriority(This,EvictionPriority))
#define ID3D11Resource_GetEvictionPriority(This) ((This)->lpVtbl->GetEvictionPriority(This))

/* ---- ID3D11Buffer / ID3D11Texture1D / 2D / 3D ------------------------------------------- */
#define LIBWDDM_D3D11_RESOURCE_VTBL(Iface, DescType)                                               \
    struct Iface##Vtbl {                                                                           \
        HRESULT (STDMETHODCALLTYPE *QueryInterface)(Iface *This, REFIID riid, void **ppvObject);  \
        ULONG   (STDMETHODCALLTYPE *AddRef)(Iface *This);                                          \
        ULONG   (STDMETHODCALLTYPE *Release)(Iface *This);                                         \
        void    (STDMETHODCALLTYPE *GetDevice)(Iface *This, ID3D11Device **ppDevice);              \
        void    (STDMETHODCALLTYPE *GetType)(Iface *This, D3D11_RESOURCE_DIMENSION *pResourceDimension); \
        void    (STDMETHODCALLTYPE *SetEvictionPriority)(Iface *This, UINT EvictionPriority);     \
        UINT    (STDMETHODCALLTYPE *GetEvictionPriority)(Iface *This);                             \
        void    (STDMETHODCALLTYPE *GetDesc)(Iface *This, DescType *pDesc);                        \
    };                                                                                             \
    struct Iface { const struct Iface##Vtbl *lpVtbl; }

LIBWDDM_D3D11_RESOURCE_VTBL(ID3D11Buffer, D3D11_BUFFER_DESC);
LIBWDDM_D3D11_RESOURCE_VTBL(ID3D11Texture1D, D3D11_TEXTURE1D_DESC);
LIBWDDM_D3D11_RESOURCE_VTBL(ID3D11Texture2D, D3D11_TEXTURE2D_DESC);
LIBWDDM_D3D11_RESOURCE_VTBL(ID3D11Texture3D, D3D11_TEXTURE3D_DESC);

#define ID3D11Buffer_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Buffer_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Buffer_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Buffer_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Buffer_GetType(This,pResourceDimension) ((This)->lpVtbl->GetType(This,pResourceDimension))
#define ID3D11Buffer_SetEvictionPriority(This,EvictionPriority) ((This)->lpVtbl->SetEvictionPriority(This,EvictionPriority))
#define ID3D11Buffer_GetEvictionPriority(This) ((This)->lpVtbl->GetEvictionPriority(This))
#define ID3D11Buffer_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

#define ID3D11Texture1D_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Texture1D_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Texture1D_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Texture1D_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Texture1D_GetType(This,pResourceDimension) ((This)->lpVtbl->GetType(This,pResourceDimension))
#define ID3D11Texture1D_SetEvictionPriority(This,EvictionPriority) ((This)->lpVtbl->SetEvictionPriority(This,EvictionPriority))
#define ID3D11Texture1D_GetEvictionPriority(This) ((This)->lpVtbl->GetEvictionPriority(This))
#define ID3D11Texture1D_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

#define ID3D11Texture2D_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Texture2D_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Texture2D_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Texture2D_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Texture2D_GetType(This,pResourceDimension) ((This)->lpVtbl->GetType(This,pResourceDimension))
#define ID3D11Texture2D_SetEvictionPriority(This,EvictionPriority) ((This)->lpVtbl->SetEvictionPriority(This,EvictionPriority))
#define ID3D11Texture2D_GetEvictionPriority(This) ((This)->lpVtbl->GetEvictionPriority(This))
#define ID3D11Texture2D_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

#define ID3D11Texture3D_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Texture3D_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Texture3D_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Texture3D_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Texture3D_GetType(This,pResourceDimension) ((This)->lpVtbl->GetType(This,pResourceDimension))
#define ID3D11Texture3D_SetEvictionPriority(This,EvictionPriority) ((This)->lpVtbl->SetEvictionPriority(This,EvictionPriority))
#define ID3D11Texture3D_GetEvictionPriority(This) ((This)->lpVtbl->GetEvictionPriority(This))
#define ID3D11Texture3D_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

/* ---- ID3D11View / ID3D11RenderTargetView ------------------------------------------------- */
struct ID3D11ViewVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11View *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11View *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11View *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11View *This, ID3D11Device **ppDevice);
    void    (STDMETHODCALLTYPE *GetResource)(ID3D11View *This, ID3D11Resource **ppResource);
};
struct ID3D11View { const struct ID3D11ViewVtbl *lpVtbl; };

#define ID3D11View_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11View_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11View_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11View_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11View_GetResource(This,ppResource) ((This)->lpVtbl->GetResource(This,ppResource))

struct ID3D11RenderTargetViewVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11RenderTargetView *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11RenderTargetView *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11RenderTargetView *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11RenderTargetView *This, ID3D11Device **ppDevice);
    void    (STDMETHODCALLTYPE *GetResource)(ID3D11RenderTargetView *This, ID3D11Resource **ppResource);
    void    (STDMETHODCALLTYPE *GetDesc)(ID3D11RenderTargetView *This, D3D11_RENDER_TARGET_VIEW_DESC *pDesc);
};
struct ID3D11RenderTargetView { const struct ID3D11RenderTargetViewVtbl *lpVtbl; };

#define ID3D11RenderTargetView_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11RenderTargetView_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11RenderTargetView_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11RenderTargetView_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11RenderTargetView_GetResource(This,ppResource) ((This)->lpVtbl->GetResource(This,ppResource))
#define ID3D11RenderTargetView_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

/* ---- ID3D11ShaderResourceView / ID3D11UnorderedAccessView -------------------------------- */
#define LIBWDDM_VIEW_VTBL(Iface, Desc)                                                                  \
    struct Iface##Vtbl {                                                                                \
        HRESULT (STDMETHODCALLTYPE *QueryInterface)(Iface *This, REFIID riid, void **ppvObject);        \
        ULONG   (STDMETHODCALLTYPE *AddRef)(Iface *This);                                               \
        ULONG   (STDMETHODCALLTYPE *Release)(Iface *This);                                              \
        void    (STDMETHODCALLTYPE *GetDevice)(Iface *This, ID3D11Device **ppDevice);                   \
        void    (STDMETHODCALLTYPE *GetResource)(Iface *This, ID3D11Resource **ppResource);             \
        void    (STDMETHODCALLTYPE *GetDesc)(Iface *This, Desc *pDesc);                                  \
    };                                                                                                  \
    struct Iface { const struct Iface##Vtbl *lpVtbl; };
LIBWDDM_VIEW_VTBL(ID3D11ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC)
LIBWDDM_VIEW_VTBL(ID3D11UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC)
#define ID3D11ShaderResourceView_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11ShaderResourceView_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11ShaderResourceView_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11ShaderResourceView_GetResource(This,ppResource) ((This)->lpVtbl->GetResource(This,ppResource))
#define ID3D11ShaderResourceView_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))
#define ID3D11UnorderedAccessView_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11UnorderedAccessView_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11UnorderedAccessView_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11UnorderedAccessView_GetResource(This,ppResource) ((This)->lpVtbl->GetResource(This,ppResource))
#define ID3D11UnorderedAccessView_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

/* ---- ID3D11Asynchronous / ID3D11Query ------------------------------------------------------
 * ID3D11Query derives from ID3D11Asynchronous (GetDataSize), which derives from
 * ID3D11DeviceChild (this header's ID3D11DeviceChild has no private-data methods). */
typedef struct ID3D11AsynchronousVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11Asynchronous *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11Asynchronous *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11Asynchronous *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11Asynchronous *This, ID3D11Device **ppDevice);
    UINT    (STDMETHODCALLTYPE *GetDataSize)(ID3D11Asynchronous *This);
} ID3D11AsynchronousVtbl;
struct ID3D11Asynchronous { const struct ID3D11AsynchronousVtbl *lpVtbl; };
#define ID3D11Asynchronous_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Asynchronous_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Asynchronous_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Asynchronous_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Asynchronous_GetDataSize(This) ((This)->lpVtbl->GetDataSize(This))

typedef struct ID3D11QueryVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11Query *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11Query *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11Query *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11Query *This, ID3D11Device **ppDevice);
    UINT    (STDMETHODCALLTYPE *GetDataSize)(ID3D11Query *This);
    void    (STDMETHODCALLTYPE *GetDesc)(ID3D11Query *This, D3D11_QUERY_DESC *pDesc);
} ID3D11QueryVtbl;
struct ID3D11Query { const struct ID3D11QueryVtbl *lpVtbl; };
#define ID3D11Query_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Query_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Query_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Query_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11Query_GetDataSize(This) ((This)->lpVtbl->GetDataSize(This))
#define ID3D11Query_GetDesc(This,pDesc) ((This)->lpVtbl->GetDesc(This,pDesc))

/* ---- ID3D11Device ------------------------------------------------------------------------ */
struct ID3D11DeviceVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11Device *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11Device *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11Device *This);
    HRESULT (STDMETHODCALLTYPE *CreateBuffer)(ID3D11Device *This, const D3D11_BUFFER_DESC *pDesc,
                                              const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Buffer **ppBuffer);
    HRESULT (STDMETHODCALLTYPE *CreateTexture1D)(ID3D11Device *This, const D3D11_TEXTURE1D_DESC *pDesc,
                                                 const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture1D **ppTexture1D);
    HRESULT (STDMETHODCALLTYPE *CreateTexture2D)(ID3D11Device *This, const D3D11_TEXTURE2D_DESC *pDesc,
                                                 const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture2D **ppTexture2D);
    HRESULT (STDMETHODCALLTYPE *CreateTexture3D)(ID3D11Device *This, const D3D11_TEXTURE3D_DESC *pDesc,
                                                 const D3D11_SUBRESOURCE_DATA *pInitialData, ID3D11Texture3D **ppTexture3D);
    HRESULT (STDMETHODCALLTYPE *CreateRenderTargetView)(ID3D11Device *This, ID3D11Resource *pResource,
                                                        const D3D11_RENDER_TARGET_VIEW_DESC *pDesc,
                                                        ID3D11RenderTargetView **ppRTView);
    HRESULT (STDMETHODCALLTYPE *CheckFormatSupport)(ID3D11Device *This, DXGI_FORMAT Format, UINT *pFormatSupport);
    HRESULT (STDMETHODCALLTYPE *CheckMultisampleQualityLevels)(ID3D11Device *This, DXGI_FORMAT Format,
                                                               UINT SampleCount, UINT *pNumQualityLevels);
    HRESULT (STDMETHODCALLTYPE *CheckFeatureSupport)(ID3D11Device *This, D3D11_FEATURE Feature,
                                                     void *pFeatureSupportData, UINT FeatureSupportDataSize);
    D3D_FEATURE_LEVEL (STDMETHODCALLTYPE *GetFeatureLevel)(ID3D11Device *This);
    UINT    (STDMETHODCALLTYPE *GetCreationFlags)(ID3D11Device *This);
    HRESULT (STDMETHODCALLTYPE *GetDeviceRemovedReason)(ID3D11Device *This);
    void    (STDMETHODCALLTYPE *GetImmediateContext)(ID3D11Device *This, ID3D11DeviceContext **ppImmediateContext);
    HRESULT (STDMETHODCALLTYPE *CreateDeferredContext)(ID3D11Device *This, UINT ContextFlags,
                                                       ID3D11DeviceContext **ppDeferredContext);
    HRESULT (STDMETHODCALLTYPE *CreateShaderResourceView)(ID3D11Device *This, ID3D11Resource *pResource,
                                                          const D3D11_SHADER_RESOURCE_VIEW_DESC *pDesc,
                                                          ID3D11ShaderResourceView **ppSRView);
    HRESULT (STDMETHODCALLTYPE *CreateUnorderedAccessView)(ID3D11Device *This, ID3D11Resource *pResource,
                                                           const D3D11_UNORDERED_ACCESS_VIEW_DESC *pDesc,
                                                           ID3D11UnorderedAccessView **ppUAView);
    /* issue 4 (appended: this header's vtables are in the model's order, not the SDK's) */
    HRESULT (STDMETHODCALLTYPE *CreateQuery)(ID3D11Device *This, const D3D11_QUERY_DESC *pQueryDesc,
                                             ID3D11Query **ppQuery);
    /* issue 6 (appended, same reason): opens a resource created with D3D11_RESOURCE_MISC_SHARED
     * (IDXGIResource::GetSharedHandle) or a cross-adapter one, on this device. */
    HRESULT (STDMETHODCALLTYPE *OpenSharedResource)(ID3D11Device *This, HANDLE hResource, REFIID ReturnedInterface,
                                                    void **ppResource);
};
struct ID3D11Device { const struct ID3D11DeviceVtbl *lpVtbl; };

#define ID3D11Device_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11Device_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11Device_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11Device_CreateBuffer(This,pDesc,pInitialData,ppBuffer) ((This)->lpVtbl->CreateBuffer(This,pDesc,pInitialData,ppBuffer))
#define ID3D11Device_CreateTexture1D(This,pDesc,pInitialData,ppTexture1D) ((This)->lpVtbl->CreateTexture1D(This,pDesc,pInitialData,ppTexture1D))
#define ID3D11Device_CreateTexture2D(This,pDesc,pInitialData,ppTexture2D) ((This)->lpVtbl->CreateTexture2D(This,pDesc,pInitialData,ppTexture2D))
#define ID3D11Device_CreateTexture3D(This,pDesc,pInitialData,ppTexture3D) ((This)->lpVtbl->CreateTexture3D(This,pDesc,pInitialData,ppTexture3D))
#define ID3D11Device_CreateRenderTargetView(This,pResource,pDesc,ppRTView) ((This)->lpVtbl->CreateRenderTargetView(This,pResource,pDesc,ppRTView))
#define ID3D11Device_CheckFormatSupport(This,Format,pFormatSupport) ((This)->lpVtbl->CheckFormatSupport(This,Format,pFormatSupport))
#define ID3D11Device_CheckMultisampleQualityLevels(This,Format,SampleCount,pNumQualityLevels) ((This)->lpVtbl->CheckMultisampleQualityLevels(This,Format,SampleCount,pNumQualityLevels))
#define ID3D11Device_CheckFeatureSupport(This,Feature,pFeatureSupportData,FeatureSupportDataSize) ((This)->lpVtbl->CheckFeatureSupport(This,Feature,pFeatureSupportData,FeatureSupportDataSize))
#define ID3D11Device_GetFeatureLevel(This) ((This)->lpVtbl->GetFeatureLevel(This))
#define ID3D11Device_GetCreationFlags(This) ((This)->lpVtbl->GetCreationFlags(This))
#define ID3D11Device_GetDeviceRemovedReason(This) ((This)->lpVtbl->GetDeviceRemovedReason(This))
#define ID3D11Device_GetImmediateContext(This,ppImmediateContext) ((This)->lpVtbl->GetImmediateContext(This,ppImmediateContext))
#define ID3D11Device_CreateDeferredContext(This,ContextFlags,ppDeferredContext) ((This)->lpVtbl->CreateDeferredContext(This,ContextFlags,ppDeferredContext))
#define ID3D11Device_CreateShaderResourceView(This,pResource,pDesc,ppSRView) ((This)->lpVtbl->CreateShaderResourceView(This,pResource,pDesc,ppSRView))
#define ID3D11Device_CreateUnorderedAccessView(This,pResource,pDesc,ppUAView) ((This)->lpVtbl->CreateUnorderedAccessView(This,pResource,pDesc,ppUAView))
#define ID3D11Device_CreateQuery(This,pQueryDesc,ppQuery) ((This)->lpVtbl->CreateQuery(This,pQueryDesc,ppQuery))
#define ID3D11Device_OpenSharedResource(This,hResource,ReturnedInterface,ppResource) ((This)->lpVtbl->OpenSharedResource(This,hResource,ReturnedInterface,ppResource))

/* ---- ID3D11CommandList ------------------------------------------------------------------- */
typedef struct ID3D11CommandListVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11CommandList *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11CommandList *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11CommandList *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11CommandList *This, ID3D11Device **ppDevice);
    UINT    (STDMETHODCALLTYPE *GetContextFlags)(ID3D11CommandList *This);
} ID3D11CommandListVtbl;
struct ID3D11CommandList { const struct ID3D11CommandListVtbl *lpVtbl; };
#define ID3D11CommandList_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11CommandList_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11CommandList_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11CommandList_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11CommandList_GetContextFlags(This) ((This)->lpVtbl->GetContextFlags(This))

/* ---- ID3D11DeviceContext ----------------------------------------------------------------- */
struct ID3D11DeviceContextVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(ID3D11DeviceContext *This, REFIID riid, void **ppvObject);
    ULONG   (STDMETHODCALLTYPE *AddRef)(ID3D11DeviceContext *This);
    ULONG   (STDMETHODCALLTYPE *Release)(ID3D11DeviceContext *This);
    void    (STDMETHODCALLTYPE *GetDevice)(ID3D11DeviceContext *This, ID3D11Device **ppDevice);
    HRESULT (STDMETHODCALLTYPE *Map)(ID3D11DeviceContext *This, ID3D11Resource *pResource, UINT Subresource,
                                     D3D11_MAP MapType, UINT MapFlags, D3D11_MAPPED_SUBRESOURCE *pMappedResource);
    void    (STDMETHODCALLTYPE *Unmap)(ID3D11DeviceContext *This, ID3D11Resource *pResource, UINT Subresource);
    void    (STDMETHODCALLTYPE *CopySubresourceRegion)(ID3D11DeviceContext *This, ID3D11Resource *pDstResource,
                                                       UINT DstSubresource, UINT DstX, UINT DstY, UINT DstZ,
                                                       ID3D11Resource *pSrcResource, UINT SrcSubresource,
                                                       const D3D11_BOX *pSrcBox);
    void    (STDMETHODCALLTYPE *CopyResource)(ID3D11DeviceContext *This, ID3D11Resource *pDstResource,
                                              ID3D11Resource *pSrcResource);
    void    (STDMETHODCALLTYPE *UpdateSubresource)(ID3D11DeviceContext *This, ID3D11Resource *pDstResource,
                                                   UINT DstSubresource, const D3D11_BOX *pDstBox,
                                                   const void *pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch);
    void    (STDMETHODCALLTYPE *ClearRenderTargetView)(ID3D11DeviceContext *This,
                                                       ID3D11RenderTargetView *pRenderTargetView,
                                                       const FLOAT ColorRGBA[4]);
    void    (STDMETHODCALLTYPE *Flush)(ID3D11DeviceContext *This);
    D3D11_DEVICE_CONTEXT_TYPE (STDMETHODCALLTYPE *GetType)(ID3D11DeviceContext *This);
    void    (STDMETHODCALLTYPE *ClearState)(ID3D11DeviceContext *This);
    void    (STDMETHODCALLTYPE *ExecuteCommandList)(ID3D11DeviceContext *This, ID3D11CommandList *pCommandList,
                                                    BOOL RestoreContextState);
    HRESULT (STDMETHODCALLTYPE *FinishCommandList)(ID3D11DeviceContext *This, BOOL RestoreDeferredContextState,
                                                   ID3D11CommandList **ppCommandList);
    UINT    (STDMETHODCALLTYPE *GetContextFlags)(ID3D11DeviceContext *This);
    void    (STDMETHODCALLTYPE *ClearUnorderedAccessViewUint)(ID3D11DeviceContext *This,
                                                              ID3D11UnorderedAccessView *pUnorderedAccessView,
                                                              const UINT Values[4]);
    /* issue 4 (appended) */
    void    (STDMETHODCALLTYPE *Begin)(ID3D11DeviceContext *This, ID3D11Asynchronous *pAsync);
    void    (STDMETHODCALLTYPE *End)(ID3D11DeviceContext *This, ID3D11Asynchronous *pAsync);
    HRESULT (STDMETHODCALLTYPE *GetData)(ID3D11DeviceContext *This, ID3D11Asynchronous *pAsync, void *pData,
                                         UINT DataSize, UINT GetDataFlags);
};
struct ID3D11DeviceContext { const struct ID3D11DeviceContextVtbl *lpVtbl; };

#define ID3D11DeviceContext_QueryInterface(This,riid,ppvObject) ((This)->lpVtbl->QueryInterface(This,riid,ppvObject))
#define ID3D11DeviceContext_AddRef(This) ((This)->lpVtbl->AddRef(This))
#define ID3D11DeviceContext_Release(This) ((This)->lpVtbl->Release(This))
#define ID3D11DeviceContext_GetDevice(This,ppDevice) ((This)->lpVtbl->GetDevice(This,ppDevice))
#define ID3D11DeviceContext_Map(This,pResource,Subresource,MapType,MapFlags,pMappedResource) ((This)->lpVtbl->Map(This,pResource,Subresource,MapType,MapFlags,pMappedResource))
#define ID3D11DeviceContext_Unmap(This,pResource,Subresource) ((This)->lpVtbl->Unmap(This,pResource,Subresource))
#define ID3D11DeviceContext_CopySubresourceRegion(This,pDstResource,DstSubresource,DstX,DstY,DstZ,pSrcResource,SrcSubresource,pSrcBox) ((This)->lpVtbl->CopySubresourceRegion(This,pDstResource,DstSubresource,DstX,DstY,DstZ,pSrcResource,SrcSubresource,pSrcBox))
#define ID3D11DeviceContext_CopyResource(This,pDstResource,pSrcResource) ((This)->lpVtbl->CopyResource(This,pDstResource,pSrcResource))
#define ID3D11DeviceContext_UpdateSubresource(This,pDstResource,DstSubresource,pDstBox,pSrcData,SrcRowPitch,SrcDepthPitch) ((This)->lpVtbl->UpdateSubresource(This,pDstResource,DstSubresource,pDstBox,pSrcData,SrcRowPitch,SrcDepthPitch))
#define ID3D11DeviceContext_ClearRenderTargetView(This,pRenderTargetView,ColorRGBA) ((This)->lpVtbl->ClearRenderTargetView(This,pRenderTargetView,ColorRGBA))
#define ID3D11DeviceContext_Flush(This) ((This)->lpVtbl->Flush(This))
#define ID3D11DeviceContext_GetType(This) ((This)->lpVtbl->GetType(This))
#define ID3D11DeviceContext_ClearState(This) ((This)->lpVtbl->ClearState(This))
#define ID3D11DeviceContext_ExecuteCommandList(This,pCommandList,RestoreContextState) ((This)->lpVtbl->ExecuteCommandList(This,pCommandList,RestoreContextState))
#define ID3D11DeviceContext_FinishCommandList(This,RestoreDeferredContextState,ppCommandList) ((This)->lpVtbl->FinishCommandList(This,RestoreDeferredContextState,ppCommandList))
#define ID3D11DeviceContext_GetContextFlags(This) ((This)->lpVtbl->GetContextFlags(This))
#define ID3D11DeviceContext_ClearUnorderedAccessViewUint(This,pUnorderedAccessView,Values) ((This)->lpVtbl->ClearUnorderedAccessViewUint(This,pUnorderedAccessView,Values))
#define ID3D11DeviceContext_Begin(This,pAsync) ((This)->lpVtbl->Begin(This,pAsync))
#define ID3D11DeviceContext_End(This,pAsync) ((This)->lpVtbl->End(This,pAsync))
#define ID3D11DeviceContext_GetData(This,pAsync,pData,DataSize,GetDataFlags) ((This)->lpVtbl->GetData(This,pAsync,pData,DataSize,GetDataFlags))

/* ---- functions ----------------------------------------------------------------------------- */

/* D3D11CalcSubresource: subresource index = mip + array slice * mip count (wddm-semantics §5.3). */
static inline UINT D3D11CalcSubresource(UINT MipSlice, UINT ArraySlice, UINT MipLevels)
{
    return MipSlice + ArraySlice * MipLevels;
}

HRESULT WINAPI D3D11CreateDevice(IDXGIAdapter *pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software,
                                 UINT Flags, const D3D_FEATURE_LEVEL *pFeatureLevels, UINT FeatureLevels,
                                 UINT SDKVersion, ID3D11Device **ppDevice, D3D_FEATURE_LEVEL *pFeatureLevel,
                                 ID3D11DeviceContext **ppImmediateContext);

#ifdef __cplusplus
}
#endif

#endif /* LIBWDDM_D3D11_H */
