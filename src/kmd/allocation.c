/* DxgkDdiCreateAllocation / DestroyAllocation / OpenAllocation / CloseAllocation: the KMD turns
 * the UMD's private description (src/drv/swgpu_private.h) into placement (seed 001 §4.3, §5;
 * docs/semantics.md §6.4 DXGK_ALLOCATIONINFO). */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <dxgiformat.h>
#include <wddm/d3dkmthk.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SEGMENT_BIT(id) (1u << ((id) - 1u)) /* segment set: bit 0 = segment 1 */

struct swkmd_allocation *swkmd_allocation_from(HANDLE h)
{
    struct swkmd_allocation *al = h;
    return (al && al->magic == SWKMD_MAGIC_ALLOCATION) ? al : NULL;
}

/* Bytes per pixel of the DisplayScanOut formats tier 3 must scan out (seed 003). */
static UINT32 scanout_format_bpp(UINT32 format)
{
    switch (format) {
    case DXGI_FORMAT_R16G16B16A16_FLOAT:
        return 8;
    case DXGI_FORMAT_R10G10B10A2_UNORM:
    case DXGI_FORMAT_R8G8B8A8_UNORM:
    case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB:
    case DXGI_FORMAT_B8G8R8A8_UNORM:
    case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM:
    case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
        return 4;
    default:
        return 0;
    }
}

/* A cross-adapter resource (seed 003, docs/semantics.md §6.5): checks the use against this
 * adapter's tier (DXGK_VIDMMCAPS CrossAdapterResource / ...Texture / ...Scanout) and computes
 * the one linear layout every adapter agrees on: row pitch = the smallest multiple of
 * D3DKMT_CROSS_ADAPTER_RESOURCE_PITCH_ALIGNMENT holding a row, height = the smallest multiple
 * of D3DKMT_CROSS_ADAPTER_RESOURCE_HEIGHT_ALIGNMENT holding the rows, size page-rounded.
 * `who` names the DDI for the debug line. */
static NTSTATUS xa_layout(const struct swkmd_adapter *a, struct swgpu_alloc_private *p, const char *who,
                          UINT32 index)
{
    const DXGK_VIDMMCAPS *mm = &a->caps.MemoryManagementCaps;
    if (!mm->CrossAdapterResource) {
        wddm_debug("kmd", "%s[%u]: cross-adapter resource refused: DXGK_VIDMMCAPS.CrossAdapterResource (tier 1) "
                   "is not set", who, index);
        return STATUS_NOT_SUPPORTED;
    }
    if (!p->xa_usage || (p->xa_usage & ~(SWGPU_XA_USAGE_COPY | SWGPU_XA_USAGE_TEXTURE | SWGPU_XA_USAGE_SCANOUT))) {
        wddm_debug("kmd", "%s[%u]: cross-adapter usage 0x%x is empty or unknown", who, index, p->xa_usage);
        return STATUS_INVALID_PARAMETER;
    }
    if ((p->xa_usage & SWGPU_XA_USAGE_TEXTURE) && !mm->CrossAdapterResourceTexture) {
        wddm_debug("kmd", "%s[%u]: cross-adapter texture usage refused: DXGK_VIDMMCAPS.CrossAdapterResourceTexture "
                   "(tier 2) is not set", who, index);
        return STATUS_NOT_SUPPORTED;
    }
    if (p->xa_usage & SWGPU_XA_USAGE_SCANOUT) {
        if (!mm->CrossAdapterResourceScanout) {
            wddm_debug("kmd", "%s[%u]: cross-adapter scanout usage refused: DXGK_VIDMMCAPS.CrossAdapterResourceScanout "
                       "(tier 3) is not set", who, index);
            return STATUS_NOT_SUPPORTED;
        }
        if (!scanout_format_bpp(p->format) || p->xa_bytes_per_pixel != scanout_format_bpp(p->format)) {
            wddm_debug("kmd", "%s[%u]: cross-adapter scanout refused: format %u (%u bytes per pixel) is not a listed "
                       "DisplayScanOut format", who, index, p->format, p->xa_bytes_per_pixel);
            return STATUS_NOT_SUPPORTED;
        }
        /* Seed 003's 1920x1080 is the least tier 3 must scan out, not a limit: this display
         * engine scans out any surface the size checks below accept (issue 20 §5). */
    }
    if (!p->width || !p->height || !p->xa_bytes_per_pixel || p->xa_bytes_per_pixel > 16 || p->width > 16384 ||
        p->height > 16384) {
        wddm_debug("kmd", "%s[%u]: cross-adapter surface %ux%u with %u bytes per pixel is empty or too large", who,
                   index, p->width, p->height, p->xa_bytes_per_pixel);
        return STATUS_INVALID_PARAMETER;
    }
    const UINT32 pa = D3DKMT_CROSS_ADAPTER_RESOURCE_PITCH_ALIGNMENT, ha = D3DKMT_CROSS_ADAPTER_RESOURCE_HEIGHT_ALIGNMENT;
    UINT32 pitch = (p->width * p->xa_bytes_per_pixel + pa - 1) / pa * pa;
    UINT32 rows = (p->height + ha - 1) / ha * ha;
    UINT64 size = (UINT64)pitch * rows;
    p->xa_row_pitch = pitch;
    p->xa_height = rows;
    p->size = (size + SWGPU_PAGE_SIZE - 1) & ~(UINT64)(SWGPU_PAGE_SIZE - 1);
    return STATUS_SUCCESS;
}

/* The segments a kind may live in (Supported{Read,Write}SegmentSet; describe() below gives
 * the order): GPU_ONLY local + visible, and the aperture too for a texture the GPU only samples;
 * UPLOAD visible + aperture; READBACK the aperture; 0 for the kinds described otherwise. */
static UINT kind_segment_set(UINT32 kind, bool sampled)
{
    switch (kind) {
    case SWGPU_ALLOC_GPU_ONLY:
        return SEGMENT_BIT(SWKMD_SEGMENT_LOCAL) | SEGMENT_BIT(SWKMD_SEGMENT_VISIBLE) |
               (sampled ? SEGMENT_BIT(SWKMD_SEGMENT_APERTURE) : 0u);
    case SWGPU_ALLOC_UPLOAD:
        return SEGMENT_BIT(SWKMD_SEGMENT_VISIBLE) | SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
    case SWGPU_ALLOC_READBACK:
        return SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
    default:
        return 0;
    }
}

/* The largest segment of the kind's set: what can ever be resident of it (the UMD refuses a
 * larger resource at creation, caps.c). */
UINT64 swkmd_kind_max_bytes(const struct swkmd_adapter *a, UINT32 kind, bool sampled)
{
    UINT set = a->iommu ? SEGMENT_BIT(SWKMD_SEGMENT_APERTURE) : kind_segment_set(kind, sampled);
    UINT64 m = 0;
    for (UINT id = 1; id <= SWKMD_SEGMENT_COUNT; id++)
        if ((set & SEGMENT_BIT(id)) && a->segment_size[id] > m)
            m = a->segment_size[id];
    return m;
}

/* The UMD's private data of one allocation (struct swgpu_alloc_private), checked: the swgpu
 * package's, a known kind and flags, a size a segment offset can hold, the backing-store sharing
 * of seed 002 only when the feature is on; a cross-adapter one gets its layout (written back). */
static NTSTATUS read_private(const struct swkmd_adapter *a, DXGK_ALLOCATIONINFO *info, UINT32 index,
                             struct swgpu_alloc_private *priv)
{
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize < sizeof(*priv)) {
        wddm_debug("kmd", "CreateAllocation[%u]: private data missing or %u bytes < %zu", index,
                   info->PrivateDriverDataSize, sizeof(*priv));
        return STATUS_INVALID_PARAMETER;
    }
    memcpy(priv, info->pPrivateDriverData, sizeof(*priv));
    if (priv->magic != SWGPU_PRIVATE_MAGIC || priv->version != SWGPU_PRIVATE_VERSION) {
        wddm_debug("kmd", "CreateAllocation[%u]: private data magic 0x%x version %u not swgpu v%u", index, priv->magic,
                   priv->version, SWGPU_PRIVATE_VERSION);
        return STATUS_INVALID_PARAMETER;
    }
    if (priv->kind < SWGPU_ALLOC_GPU_ONLY || priv->kind > SWGPU_ALLOC_PRIMARY) {
        wddm_debug("kmd", "CreateAllocation[%u]: unknown allocation kind %u", index, priv->kind);
        return STATUS_INVALID_PARAMETER;
    }
    if (priv->kind == SWGPU_ALLOC_CROSS_ADAPTER) {
        NTSTATUS st = xa_layout(a, priv, "CreateAllocation", index);
        if (!NT_SUCCESS(st))
            return st;
        /* The layout goes back to the UMD (and, through the kernel, to every opener). */
        memcpy(info->pPrivateDriverData, priv, sizeof(*priv));
    }
    /* Size rounded up to the page; refuse sizes no segment offset can hold. */
    if (priv->size == 0 || priv->size > SWGPU_ADDR_OFFSET_MASK - SWGPU_PAGE_SIZE) {
        wddm_debug("kmd", "CreateAllocation[%u]: size %llu is zero or too large", index,
                   (unsigned long long)priv->size);
        return STATUS_INVALID_PARAMETER;
    }
    bool share = (priv->flags & SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD) != 0;
    bool sampled = (priv->flags & SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE) != 0;
    if (priv->flags & ~(SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD | SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE)) {
        wddm_debug("kmd", "CreateAllocation[%u]: unknown private flags 0x%x", index, priv->flags);
        return STATUS_INVALID_PARAMETER;
    }
    if (sampled && priv->kind != SWGPU_ALLOC_GPU_ONLY) {
        wddm_debug("kmd", "CreateAllocation[%u]: SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE on kind %u (GPU_ONLY only)", index,
                   priv->kind);
        return STATUS_INVALID_PARAMETER;
    }
    if (share && !a->share_backing_store) {
        /* Seed 002: without the feature the KMD must not set ShareBackingStoreWithKmd. */
        wddm_debug("kmd", "CreateAllocation[%u]: backing store shared with the KMD asked, but "
                   "DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not enabled", index);
        return STATUS_NOT_SUPPORTED;
    }
    if (share && priv->kind == SWGPU_ALLOC_GPU_ONLY) {
        wddm_debug("kmd", "CreateAllocation[%u]: a shared backing store needs a CPU-visible kind", index);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

/* Where a kind lives and how the CPU sees it (the DXGK_ALLOCATIONINFO fields by kind). */
static void place_kind(const struct swkmd_adapter *a, DXGK_ALLOCATIONINFO *info, UINT32 kind, UINT64 size,
                       bool sampled)
{
    switch (kind) {
    case SWGPU_ALLOC_GPU_ONLY:
        /* DEFAULT / IMMUTABLE: local memory, the visible window when local is full. */
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_LOCAL;
        info->PreferredSegment.SegmentId1 = SWKMD_SEGMENT_VISIBLE;
        /* A texture the GPU only samples may live in system memory, after video memory: VidMm
         * places it there when local and visible are full instead of evicting. */
        if (sampled)
            info->PreferredSegment.SegmentId2 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = kind_segment_set(kind, sampled);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        break;
    case SWGPU_ALLOC_UPLOAD:
        /* DYNAMIC: CPU-visible, write-combined; renamed on Discard (docs/semantics.md §3.3). */
        info->Flags.CpuVisible = 1;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->PreferredSegment.SegmentId1 = SWKMD_SEGMENT_VISIBLE;
        info->SupportedReadSegmentSet = kind_segment_set(kind, false);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        info->MaximumRenamingListLength =
            size * SWKMD_RENAMING_LIST_LENGTH <= SWKMD_RENAMING_BYTES ? SWKMD_RENAMING_LIST_LENGTH
            : SWKMD_RENAMING_BYTES / size > SWKMD_RENAMING_MIN     ? (UINT)(SWKMD_RENAMING_BYTES / size)
                                                                    : SWKMD_RENAMING_MIN;
        break;
    case SWGPU_ALLOC_READBACK:
        /* STAGING: CPU-visible and cached, so only in the cache-coherent aperture
         * (docs/semantics.md §6.4: Cached => CpuVisible). */
        info->Flags.CpuVisible = 1;
        info->Flags.Cached = 1;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = kind_segment_set(kind, false);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        break;
    case SWGPU_ALLOC_CROSS_ADAPTER:
        /* Seed 003: paged only into the aperture, CPU-visible, write-combined (CpuVisible
         * without Cached), one linear allocation starting on a page, never renamed. There is
         * no documented DXGK_ALLOCATIONINFOFLAGS bit for it: the kernel knows it from
         * D3DKMT_CREATEALLOCATIONFLAGS.CrossAdapter and checks these properties. */
        info->Flags.CpuVisible = 1;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        break;
    case SWGPU_ALLOC_PRIMARY: {
        /* A primary (docs/semantics.md §3.5): never PermanentSysMem, Cached, Protected or existing
         * system memory; never renamed (a Discard lock of it is a plain lock, §3.2). Without
         * DXGK_VIDMMCAPS.NonCpuVisiblePrimary it is CPU-visible and every segment it may be
         * written in is CPU-accessible (the visible window, the aperture); with the cap it
         * need not be (seed 003): it may also live in local memory, which it prefers. With
         * SectionBackedPrimary its system-memory backing store is a section, and the aperture
         * over that section is where it prefers to live (vidmm: the section's pages). */
        const DXGK_VIDMMCAPS *mm = &a->caps.MemoryManagementCaps;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_VISIBLE) | SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        if (mm->NonCpuVisiblePrimary)
            info->SupportedReadSegmentSet |= SEGMENT_BIT(SWKMD_SEGMENT_LOCAL);
        else
            info->Flags.CpuVisible = 1;
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        UINT8 order[3], n = 0;
        if (mm->SectionBackedPrimary)
            order[n++] = SWKMD_SEGMENT_APERTURE;
        if (mm->NonCpuVisiblePrimary)
            order[n++] = SWKMD_SEGMENT_LOCAL;
        order[n++] = SWKMD_SEGMENT_VISIBLE;
        info->PreferredSegment.SegmentId0 = order[0];
        info->PreferredSegment.SegmentId1 = n > 1 ? order[1] : 0;
        info->PreferredSegment.SegmentId2 = n > 2 ? order[2] : 0;
        break; /* MaximumRenamingListLength stays 0: the kernel never renames a primary anyway */
    }
    }
}

static NTSTATUS describe(const struct swkmd_adapter *a, DXGK_ALLOCATIONINFO *info, UINT32 index)
{
    struct swgpu_alloc_private priv;
    NTSTATUS st = read_private(a, info, index, &priv);
    if (!NT_SUCCESS(st))
        return st;
    UINT64 size = (priv.size + SWGPU_PAGE_SIZE - 1) & ~(UINT64)(SWGPU_PAGE_SIZE - 1);
    bool share = (priv.flags & SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD) != 0;
    bool sampled = (priv.flags & SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE) != 0;

    /* malloc, not calloc: glibc's calloc skips the per-thread cache, which made every
     * CreateAllocation/DestroyAllocation pair a trip through the arena. Every field is
     * assigned right below. */
    struct swkmd_allocation *al = wddm_malloc(sizeof(*al));
    if (!al)
        return STATUS_NO_MEMORY;
    al->magic = SWKMD_MAGIC_ALLOCATION;
    al->size = size;
    al->kind = priv.kind;
    al->priv = priv;
    al->share_backing_store = share ? TRUE : FALSE;
    al->opened_foreign = FALSE;
    al->backing = NULL;

    info->Alignment = SWGPU_PAGE_SIZE;
    info->Size = (SIZE_T)size;
    info->PitchAlignedSize = 0;
    info->HintedBank.Value = 0;
    info->PreferredSegment.Value = 0;
    info->EvictionSegmentSet = 0; /* evict straight to system pages */
    info->MaximumRenamingListLength = 0;
    info->Flags.Value = 0;
    info->Flags2.Value = 0;
    info->AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_NORMAL;
    info->pAllocationUsageHint = NULL;
    place_kind(a, info, priv.kind, size, sampled);
    if (share || a->iommu) {
        /* Seed 002 / docs/semantics.md §7 rule 6: aperture (system memory) only, never renamed.
         * The IoMmu model: the GPU reaches system memory only (through the platform's IOMMU). */
        info->Flags2.ShareBackingStoreWithKmd = share;
        /* IoMmu: system memory the CPU reaches at the address the GPU uses (the UMD learns it
         * from a lock), so every allocation is CPU-visible. */
        if (a->iommu)
            info->Flags.CpuVisible = 1;
        info->PreferredSegment.Value = 0;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_APERTURE;
        info->SupportedReadSegmentSet = SEGMENT_BIT(SWKMD_SEGMENT_APERTURE);
        info->SupportedWriteSegmentSet = info->SupportedReadSegmentSet;
        info->MaximumRenamingListLength = 0;
    }
    info->hAllocation = al;
    return STATUS_SUCCESS;
}

static void free_allocation(HANDLE h)
{
    struct swkmd_allocation *al = swkmd_allocation_from(h);
    if (al) {
        al->magic = 0;
        free(al);
    }
}

NTSTATUS APIENTRY SwKmdCreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *args)
{
    if (!swkmd_adapter_from(hAdapter) || !args || (args->NumAllocations && !args->pAllocationInfo)) {
        wddm_debug("kmd", "CreateAllocation: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        NTSTATUS st = describe(swkmd_adapter_from(hAdapter), &args->pAllocationInfo[i], i);
        if (!NT_SUCCESS(st)) {
            /* All or nothing: free what this call created. */
            for (UINT32 j = 0; j < i; j++) {
                free_allocation(args->pAllocationInfo[j].hAllocation);
                args->pAllocationInfo[j].hAllocation = NULL;
            }
            return st;
        }
    }
    /* The KMD keeps no per-resource state: the allocations carry everything. */
    args->hResource = NULL;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdDestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    if (!swkmd_adapter_from(hAdapter) || !args || (args->NumAllocations && !args->pAllocationList)) {
        wddm_debug("kmd", "DestroyAllocation: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        if (!swkmd_allocation_from(args->pAllocationList[i]))
            wddm_debug("kmd", "DestroyAllocation[%u]: not an allocation handle", i);
        free_allocation(args->pAllocationList[i]);
    }
    return STATUS_SUCCESS;
}

/* DxgkDdiGetStandardAllocationDriverData: the private data of an allocation the kernel makes
 * itself. Modelled: a GDI surface of type D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER, the
 * kernel-created cross-adapter resource of issue 6 / seed 003 (the hybrid present path). It
 * becomes a SWGPU_ALLOC_CROSS_ADAPTER allocation with copy usage (tier 1) and the cross-adapter
 * layout; Pitch returns its row pitch. The kernel calls twice: the sizes first (NULL
 * buffers), then the data. */
static UINT32 gdi_format_dxgi(D3DDDIFORMAT f)
{
    switch (f) {
    case D3DDDIFMT_A8R8G8B8: return DXGI_FORMAT_B8G8R8A8_UNORM;
    case D3DDDIFMT_X8R8G8B8: return DXGI_FORMAT_B8G8R8X8_UNORM;
    case D3DDDIFMT_A8B8G8R8:
    case D3DDDIFMT_X8B8G8R8: return DXGI_FORMAT_R8G8B8A8_UNORM;
    default: return 0; /* D3DDDIFMT_A8: staging surfaces only */
    }
}

NTSTATUS APIENTRY SwKmdGetStandardAllocationDriverData(const HANDLE hAdapter, DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA *args)
{
    const struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !args) {
        wddm_debug("kmd", "GetStandardAllocationDriverData: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    const D3DKMDT_GDISURFACEDATA *g = args->pCreateGdiSurfaceData;
    if (args->StandardAllocationType != D3DKMDT_STANDARDALLOCATION_GDISURFACE || !g ||
        (g->Type != D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER)) {
        wddm_debug("kmd", "GetStandardAllocationDriverData: standard allocation type %d (GDI surface type %d) not "
                   "supported: only D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER", (int)args->StandardAllocationType,
                   g ? (int)g->Type : -1);
        return STATUS_NOT_SUPPORTED;
    }
    UINT32 format = gdi_format_dxgi(g->Format);
    if (!format || g->Flags.Value) {
        wddm_debug("kmd", "GetStandardAllocationDriverData: GDI surface format %d or flags 0x%x not supported",
                   (int)g->Format, g->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    struct swgpu_alloc_private priv = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                        .kind = SWGPU_ALLOC_CROSS_ADAPTER, .format = format, .dimension = 3,
                                        .width = g->Width, .height = g->Height, .depth = 1, .mip_levels = 1,
                                        .array_size = 1, .xa_usage = SWGPU_XA_USAGE_COPY, .xa_bytes_per_pixel = 4 };
    NTSTATUS st = xa_layout(a, &priv, "GetStandardAllocationDriverData", 0);
    if (!NT_SUCCESS(st))
        return st;
    if (args->pAllocationPrivateDriverData) {
        if (args->AllocationPrivateDriverDataSize < sizeof(priv)) {
            wddm_debug("kmd", "GetStandardAllocationDriverData: %u bytes of allocation data, %zu needed",
                       args->AllocationPrivateDriverDataSize, sizeof(priv));
            return STATUS_INVALID_PARAMETER;
        }
        memcpy(args->pAllocationPrivateDriverData, &priv, sizeof(priv));
        args->pCreateGdiSurfaceData->Pitch = priv.xa_row_pitch;
    }
    args->AllocationPrivateDriverDataSize = sizeof(priv);
    args->ResourcePrivateDriverDataSize = 0; /* no resource-level data */
    return STATUS_SUCCESS;
}

/* The private data of a SWGPU_ALLOC_CROSS_ADAPTER allocation (whatever its validity). */
static bool is_cross_adapter_blob(const DXGK_OPENALLOCATIONINFO *o)
{
    struct swgpu_alloc_private priv;
    if (!o->pPrivateDriverData || o->PrivateDriverDataSize < sizeof(priv))
        return false;
    memcpy(&priv, o->pPrivateDriverData, sizeof(priv));
    return priv.magic == SWGPU_PRIVATE_MAGIC && priv.kind == SWGPU_ALLOC_CROSS_ADAPTER;
}

/* DxgkDdiOpenAllocation without DXGK_OPENALLOCATIONFLAGS.Create: a shared resource opened
 * (issue 6). The kernel opens here only cross-adapter resources another adapter created, so
 * this KMD has no object for them: it makes one from the creator's private data (same
 * layout rules, this adapter's tier), used as the device-specific handle and as the
 * allocation handle of this adapter's paging operations, and freed by CloseAllocation. */
static NTSTATUS open_foreign(struct swkmd_device *d, const DXGKARG_OPENALLOCATION *args)
{
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        DXGK_OPENALLOCATIONINFO *o = &args->pOpenAllocation[i];
        o->hDeviceSpecificAllocation = NULL;
        struct swgpu_alloc_private priv, mine;
        NTSTATUS st = STATUS_INVALID_PARAMETER;
        if (!o->pPrivateDriverData || o->PrivateDriverDataSize < sizeof(priv)) {
            wddm_debug("kmd", "OpenAllocation[%u]: private data missing or too small", i);
        } else {
            memcpy(&priv, o->pPrivateDriverData, sizeof(priv));
            mine = priv;
            if (priv.magic != SWGPU_PRIVATE_MAGIC || priv.version != SWGPU_PRIVATE_VERSION ||
                priv.kind != SWGPU_ALLOC_CROSS_ADAPTER)
                wddm_debug("kmd", "OpenAllocation[%u]: only cross-adapter allocations are opened (kind %u)", i,
                           priv.kind);
            else if (NT_SUCCESS(st = xa_layout(d->adapter, &mine, "OpenAllocation", i)) &&
                     (mine.size != priv.size || mine.xa_row_pitch != priv.xa_row_pitch)) {
                /* Both adapters must read the same bytes at the same place. */
                wddm_debug("kmd", "OpenAllocation[%u]: the creator's layout (pitch %u, %llu bytes) is not the "
                           "cross-adapter layout", i, priv.xa_row_pitch, (unsigned long long)priv.size);
                st = STATUS_INVALID_PARAMETER;
            }
        }
        struct swkmd_allocation *al = NT_SUCCESS(st) ? wddm_malloc(sizeof(*al)) : NULL;
        if (NT_SUCCESS(st) && !al)
            st = STATUS_NO_MEMORY;
        if (!NT_SUCCESS(st)) {
            for (UINT32 j = 0; j < i; j++) {
                free_allocation(args->pOpenAllocation[j].hDeviceSpecificAllocation);
                args->pOpenAllocation[j].hDeviceSpecificAllocation = NULL;
            }
            return st;
        }
        al->magic = SWKMD_MAGIC_ALLOCATION;
        al->size = priv.size;
        al->kind = priv.kind;
        al->priv = priv;
        al->share_backing_store = FALSE;
        al->opened_foreign = TRUE;
        al->backing = NULL;
        o->hDeviceSpecificAllocation = al;
    }
    return STATUS_SUCCESS;
}

/* This adapter's object for a kernel allocation handle: NULL for a resource another adapter
 * created (the kernel has no allocation of this KMD behind the handle yet). A same-adapter
 * open of a shared resource (issue 6) names the creator's object: no per-device state here. */
static struct swkmd_allocation *own_allocation(struct swkmd_device *d, D3DKMT_HANDLE h)
{
    if (!d->adapter->dxgk.DxgkCbGetHandleData)
        return NULL;
    DXGKARGCB_GETHANDLEDATA q = {h, DXGK_HANDLE_ALLOCATION, 0};
    return swkmd_allocation_from(d->adapter->dxgk.DxgkCbGetHandleData(&q));
}

NTSTATUS APIENTRY SwKmdOpenAllocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *args)
{
    struct swkmd_device *d = swkmd_device_from(hDevice);
    if (!d || !args || (args->NumAllocations && !args->pOpenAllocation)) {
        wddm_debug("kmd", "OpenAllocation: bad device or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    DXGK_OPENALLOCATIONFLAGS flags = { .Value = args->Flags };
    if (!flags.Create && args->NumAllocations && is_cross_adapter_blob(&args->pOpenAllocation[0]) &&
        !own_allocation(d, args->pOpenAllocation[0].hAllocation))
        return open_foreign(d, args);
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        DXGK_OPENALLOCATIONINFO *o = &args->pOpenAllocation[i];
        /* The kernel hands back the hAllocation we returned at creation (DxgkCbGetHandleData);
         * the device-specific handle is that object: this KMD keeps no per-device state. */
        struct swkmd_allocation *al = own_allocation(d, o->hAllocation);
        if (!al) {
            wddm_debug("kmd", "OpenAllocation[%u]: handle 0x%x has no KMD allocation", i, (unsigned)o->hAllocation);
            return STATUS_INVALID_PARAMETER;
        }
        o->hDeviceSpecificAllocation = al;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdCloseAllocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *args)
{
    if (!swkmd_device_from(hDevice) || !args || (args->NumAllocations && !args->pOpenHandleList)) {
        wddm_debug("kmd", "CloseAllocation: bad device or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    /* Nothing per device to release: the object belongs to DestroyAllocation, except for a
     * cross-adapter allocation opened from another adapter (open_foreign). */
    for (UINT32 i = 0; i < args->NumAllocations; i++) {
        struct swkmd_allocation *al = swkmd_allocation_from(args->pOpenHandleList[i]);
        if (al && al->opened_foreign)
            free_allocation(al);
    }
    return STATUS_SUCCESS;
}

/* DxgkDdiSetAllocationBackingStore (seed 002): the kernel's address of the backing store of an
 * allocation created with ShareBackingStoreWithKmd; kept until DxgkDdiDestroyAllocation. */
NTSTATUS APIENTRY SwKmdSetAllocationBackingStore(const HANDLE hAdapter, const DXGKARG_SETALLOCATIONBACKINGSTORE *args)
{
    struct swkmd_allocation *al = args ? swkmd_allocation_from(args->hDriverAllocation) : NULL;
    if (!swkmd_adapter_from(hAdapter) || !al || !args->pBackingStore) {
        wddm_debug("kmd", "SetAllocationBackingStore: bad adapter, allocation or NULL backing store");
        return STATUS_INVALID_PARAMETER;
    }
    if (!al->share_backing_store) {
        wddm_debug("kmd", "SetAllocationBackingStore: allocation was not created ShareBackingStoreWithKmd");
        return STATUS_INVALID_PARAMETER;
    }
    al->backing = args->pBackingStore;
    return STATUS_SUCCESS;
}
