/* The reference driver package's private contract between its UMD and its KMD, as a vendor
 * ships it: the blobs that travel through pPrivateDriverData (D3DDDI_ALLOCATIONINFO ->
 * DXGK_ALLOCATIONINFO, and DXGKQAITYPE_UMDRIVERPRIVATE). The kernel passes them through
 * without reading them (seed 001 §4.2). */
#ifndef SWGPU_PRIVATE_H
#define SWGPU_PRIVATE_H

#include <wddm/d3dukmdt.h>

#define SWGPU_PRIVATE_MAGIC 0x41475753u /* "SWGA" */
#define SWGPU_PRIVATE_VERSION 1u

/* What the UMD wants an allocation for; the KMD turns it into placement (seed 001 §4.3). */
enum swgpu_alloc_kind {
    SWGPU_ALLOC_GPU_ONLY = 1, /* DEFAULT / IMMUTABLE: local video memory, never locked */
    SWGPU_ALLOC_UPLOAD = 2,   /* DYNAMIC: CPU-visible, write-combined, Discard-renamable */
    SWGPU_ALLOC_READBACK = 3, /* STAGING: CPU-visible, cached, linear */
    /* A cross-adapter resource (seed 003, issue 6): one linear surface in the aperture,
     * shared, CPU-visible, write-combined, opened by the other adapter's UMD. The UMD fills
     * format, width, height, xa_bytes_per_pixel and xa_usage; the KMD computes the layout and
     * writes size, xa_row_pitch and xa_height back (the data travels to every opener). */
    SWGPU_ALLOC_CROSS_ADAPTER = 4,
    /* A primary surface (issue 6, minimal: no display engine scans it out). Created with
     * D3DDDI_ALLOCATIONINFO.Flags.Primary and VidPnSourceId 0; never renamed. The KMD places
     * it by DXGK_VIDMMCAPS.NonCpuVisiblePrimary and SectionBackedPrimary (src/kmd/allocation.c). */
    SWGPU_ALLOC_PRIMARY = 5,
};

/* xa_usage of a SWGPU_ALLOC_CROSS_ADAPTER allocation: what the adapters will do with it; the
 * KMD refuses a use its DXGK_VIDMMCAPS tier lacks (seed 003). */
#define SWGPU_XA_USAGE_COPY 0x1u    /* tier 1, CrossAdapterResource: copy to and from */
#define SWGPU_XA_USAGE_TEXTURE 0x2u /* tier 2, CrossAdapterResourceTexture: texture from */
#define SWGPU_XA_USAGE_SCANOUT 0x4u /* tier 3, CrossAdapterResourceScanout: scan out (listed
                                       formats, at most 1920x1080) */

/* Per-allocation private data (D3DDDI_ALLOCATIONINFO.pPrivateDriverData). */
struct swgpu_alloc_private {
    UINT32 magic;            /* SWGPU_PRIVATE_MAGIC */
    UINT32 version;          /* SWGPU_PRIVATE_VERSION */
    UINT32 kind;             /* enum swgpu_alloc_kind */
    UINT32 format;           /* DXGI_FORMAT */
    UINT64 size;             /* bytes the resource layout needs */
    UINT32 dimension;        /* D3D10DDIRESOURCE_TYPE */
    UINT32 width, height, depth;
    UINT32 mip_levels, array_size;
    UINT32 usage, bind_flags, cpu_access, misc_flags;
    UINT32 flags;            /* SWGPU_ALLOC_FLAG_* */
    /* SWGPU_ALLOC_CROSS_ADAPTER only (zero otherwise): */
    UINT32 xa_usage;         /* in: SWGPU_XA_USAGE_* */
    UINT32 xa_bytes_per_pixel; /* in: bytes of one pixel of `format` */
    UINT32 xa_row_pitch;     /* out: bytes per row, a multiple of 128 */
    UINT32 xa_height;        /* out: rows allocated, a multiple of 4 */
};

/* flags: the UMD asks for the backing store to be shared with the KMD (seed 002). Only for a
 * CPU-visible kind (UPLOAD or READBACK) created with D3DKMT_CREATEALLOCATIONFLAGS.CreateShared;
 * the KMD then restricts it to the aperture segment and sets Flags2.ShareBackingStoreWithKmd,
 * or refuses the creation when DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not enabled. */
#define SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD 0x1u

/* flags: a GPU_ONLY texture the GPU only samples (DEFAULT or IMMUTABLE, bound neither as render
 * target, depth-stencil nor unordered-access view, not shared). The KMD lets it live in the
 * aperture segment (system memory, "shared GPU memory") after local and visible memory, as
 * drivers do for sampled textures: placed there when video memory is full instead of evicting.
 * Surfaces the GPU writes and buffers stay in video memory (docs/rules/runtime.md). */
#define SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE 0x2u

/* DxgkDdiEscape / D3DKMTEscape private data: read or write bytes of an allocation whose backing
 * store is shared with the KMD, through the pointer DxgkDdiSetAllocationBackingStore gave. */
enum swgpu_escape_op {
    SWGPU_ESCAPE_READ_BACKING_STORE = 1,  /* KMD copies backing[offset..+size] into data */
    SWGPU_ESCAPE_WRITE_BACKING_STORE = 2, /* KMD copies data into backing[offset..+size] */
};
#define SWGPU_ESCAPE_DATA_MAX 256u
struct swgpu_escape {
    UINT32 magic;            /* SWGPU_PRIVATE_MAGIC */
    UINT32 version;          /* SWGPU_PRIVATE_VERSION */
    UINT32 op;               /* enum swgpu_escape_op */
    D3DKMT_HANDLE hAllocation; /* the kernel's allocation handle */
    UINT32 offset, size;     /* bytes; size <= SWGPU_ESCAPE_DATA_MAX */
    UINT8 data[SWGPU_ESCAPE_DATA_MAX];
};

/* Adapter data the UMD reads with pfnQueryAdapterInfoCb (DXGKQAITYPE_UMDRIVERPRIVATE). */
struct swgpu_umd_adapter_info {
    UINT32 magic;            /* SWGPU_PRIVATE_MAGIC */
    UINT32 version;
    UINT32 node_count;
    UINT32 render_node;      /* node ordinal of the 3D engine */
    UINT32 copy_node;        /* node ordinal of the copy engine */
    UINT32 row_pitch_alignment; /* 256 (seed 001 §7.2) */
    UINT32 wddm_version;     /* DXGK_DRIVERCAPS.WDDMVersion: >= 0x2000, VidMm never renames and
                              * the UMD renames and synchronises itself (docs/semantics.md §3.3) */
    UINT32 gpummu;           /* 1: the GpuMmu model (GPU virtual addresses, D3DKMTSubmitCommand) */
    UINT32 iommu;            /* 1: the IoMmu model: as gpummu, but an allocation's address is the
                              * pointer the CPU's lock gives (the process's shared address space) */
    /* The largest allocation of each kind some segment the KMD lists for that kind can hold
     * (src/kmd/allocation.c: the segments it describes the kind with). A larger one could be
     * created but never made resident: the UMD fails the resource creation instead, with
     * E_OUTOFMEMORY (issue 14). 0 before the adapter started. */
    UINT64 max_gpu_only_bytes;        /* SWGPU_ALLOC_GPU_ONLY */
    UINT64 max_sampled_texture_bytes; /* SWGPU_ALLOC_GPU_ONLY with SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE */
    UINT64 max_upload_bytes;          /* SWGPU_ALLOC_UPLOAD */
    UINT64 max_readback_bytes;        /* SWGPU_ALLOC_READBACK */
};

#endif /* SWGPU_PRIVATE_H */
