/* DxgkDdiQueryAdapterInfo: driver caps, segments, and the UMD's private adapter data
 * (docs/semantics.md §6). */
#include "kmd/kmd.h"

#include "common/caps.h"
#include "common/debug.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The reference KMD's own caps: what the software GPU really does. */
static void default_caps(const struct swkmd_adapter *a, DXGK_DRIVERCAPS *caps)
{
    memset(caps, 0, sizeof(*caps));
    caps->HighestAcceptableAddress.QuadPart = -1; /* all ones: any system page will do */
    caps->MaxAllocationListSlotId = SWKMD_ALLOCATION_LIST_SIZE;
    caps->ApertureSegmentCommitLimit = (SIZE_T)a->segment_size[SWKMD_SEGMENT_APERTURE];
    /* WDDM 1.x patching model: allocation list + patch-location list (architecture.md). */
    caps->WDDMVersion = DXGKDDI_WDDMv1_3;
    /* Two asymmetric nodes, scheduled independently (docs/semantics.md §6.2); PagingNode is
     * honoured only with MultiEngineAware (§6.1). */
    caps->SchedulingCaps.MultiEngineAware = 1;
    caps->MemoryManagementCaps.Value = 0;
    /* Cross-adapter resources, tier 1 (seed 003, issue 6): the GPU copies to and from linear
     * aperture surfaces. Not tier 2: it has no sampler to texture from them; not tier 3: no
     * scan-out, flips or DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3. A caps file can declare more
     * (the KMD then accepts those usages: allocation.c). */
    caps->MemoryManagementCaps.CrossAdapterResource = 1;
    caps->MemoryManagementCaps.PagingNode = SWKMD_NODE_COPY;
    caps->GpuEngineTopology.NbAsymetricProcessingNodes = SWKMD_NODE_COUNT;
    /* Preemption (issue 4, docs/semantics.md §6.2, §8.2 invariant 4): the engines stop at any
     * command boundary and save their position in the context's save area, and a command is
     * this GPU's primitive (and its dispatch), hence PRIMITIVE_BOUNDARY / DISPATCH_BOUNDARY.
     * PreemptionAware requires MultiEngineAware (§6.2), set above. A user may still declare
     * DMA_BUFFER_BOUNDARY through WDDM_KMD_CAPS: PreemptCommand then stops only at buffer
     * ends (preempt.c). */
    caps->SchedulingCaps.PreemptionAware = 1;
    caps->PreemptionCaps.GraphicsPreemptionGranularity = D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY;
    caps->PreemptionCaps.ComputePreemptionGranularity = D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY;
    /* How many DMA packets the kernel may queue per node (bits 7-10): the most the field holds.
     * Tiny buffers complete in about a microsecond; with 8 the kernel's worker had to refill
     * the queue after almost every completion and `wddm bench` S1 fell from 1.2-1.6 to 0.4
     * million submissions/s. A preemption drops at most 15 packets, which are resubmitted. */
    caps->SchedulingCaps.HwQueuePacketCap = 15;
    /* Engines reset alone (reset.c): each node is independent of the others, so a hang on one
     * costs only that node's work (docs/semantics.md §8.3, "engine reset first"). */
    caps->SupportPerEngineTDR = TRUE;
}

NTSTATUS swkmd_caps_init(struct swkmd_adapter *a)
{
    default_caps(a, &a->caps);
    /* Issue 6: a file of "NAME = value" lines named by WDDM_KMD_CAPS overrides the defaults
     * for every adapter the process starts, so each cap can be turned on and off by users and
     * tests. The kernel's verifier then judges the result like any KMD's answer. */
    const char *path = getenv("WDDM_KMD_CAPS");
    if (!path || !*path)
        return STATUS_SUCCESS;
    char err[512];
    if (!wddm_caps_apply_file(path, &a->caps, err, sizeof err)) {
        bool oom = errno == ENOMEM;
        wddm_debug("kmd", "WDDM_KMD_CAPS: %s", err);
        return oom ? STATUS_NO_MEMORY : STATUS_INVALID_PARAMETER;
    }
    if (a->caps.NumberOfSwizzlingRanges > SWKMD_MAX_SWIZZLING_RANGES) {
        wddm_debug("kmd", "WDDM_KMD_CAPS: DXGK_DRIVERCAPS.NumberOfSwizzlingRanges %u is more than the %u this KMD has",
                   a->caps.NumberOfSwizzlingRanges, SWKMD_MAX_SWIZZLING_RANGES);
        return STATUS_INVALID_PARAMETER;
    }
    /* What the software GPU cannot be, whatever a file says. */
    if (a->caps.GpuEngineTopology.NbAsymetricProcessingNodes != SWKMD_NODE_COUNT) {
        wddm_debug("kmd", "WDDM_KMD_CAPS: DXGK_DRIVERCAPS.GpuEngineTopology.NbAsymetricProcessingNodes must stay %u "
                          "(the software GPU has %u engines)", SWKMD_NODE_COUNT, SWKMD_NODE_COUNT);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS query_driver_caps(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(DXGK_DRIVERCAPS)) {
        wddm_debug("kmd", "QueryAdapterInfo(DRIVERCAPS): OutputDataSize %u < sizeof(DXGK_DRIVERCAPS)",
                   q->OutputDataSize);
        return STATUS_BUFFER_TOO_SMALL;
    }
    memcpy(q->pOutputData, &a->caps, sizeof a->caps);
    return STATUS_SUCCESS;
}

static NTSTATUS query_segments(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT)) {
        wddm_debug("kmd", "QueryAdapterInfo(QUERYSEGMENT): OutputDataSize %u < sizeof(DXGK_QUERYSEGMENTOUT)",
                   q->OutputDataSize);
        return STATUS_BUFFER_TOO_SMALL;
    }
    DXGK_QUERYSEGMENTOUT *out = q->pOutputData;
    /* Two-call protocol (docs/semantics.md §6.4): without an array, only the count. */
    if (!out->pSegmentDescriptor) {
        out->NbSegment = SWKMD_SEGMENT_COUNT;
        return STATUS_SUCCESS;
    }
    if (out->NbSegment != 0 && out->NbSegment < SWKMD_SEGMENT_COUNT) {
        wddm_debug("kmd", "QueryAdapterInfo(QUERYSEGMENT): array of %u descriptors, %u segments",
                   out->NbSegment, SWKMD_SEGMENT_COUNT);
        return STATUS_BUFFER_TOO_SMALL;
    }
    out->NbSegment = SWKMD_SEGMENT_COUNT;
    for (UINT32 id = 1; id <= SWKMD_SEGMENT_COUNT; id++) {
        DXGK_SEGMENTDESCRIPTOR *d = &out->pSegmentDescriptor[id - 1];
        memset(d, 0, sizeof(*d));
        /* The GPU address names the segment in its top bits (swgpu_isa.h). */
        d->BaseAddress.QuadPart = (LONGLONG)SWGPU_SEGMENT_BASE(id);
        d->Size = (SIZE_T)a->segment_size[id];
        d->CommitLimit = d->Size;
        d->NbOfBanks = 0;
        d->pBankRangeTable = NULL;
        /* Self-refreshing VRAM (power.c): local memory keeps its content in standby. */
        if (id != SWKMD_SEGMENT_APERTURE)
            d->Flags.PreservedDuringStandby = 1;
    }
    /* Segment 2: CPU-visible local memory; the CPU reaches it at the GPU's host mapping. */
    DXGK_SEGMENTDESCRIPTOR *vis = &out->pSegmentDescriptor[SWKMD_SEGMENT_VISIBLE - 1];
    vis->Flags.CpuVisible = 1;
    vis->CpuTranslatedAddress.QuadPart = (LONGLONG)(uintptr_t)swgpu_segment_host(a->gpu, SWKMD_SEGMENT_VISIBLE);
    /* Segment 3: the aperture; the GPU snoops system memory (CacheCoherent is valid only with
     * Aperture, §6.4). */
    DXGK_SEGMENTDESCRIPTOR *ap = &out->pSegmentDescriptor[SWKMD_SEGMENT_APERTURE - 1];
    ap->Flags.Aperture = 1;
    ap->Flags.CacheCoherent = 1;
    /* Paging buffers in system memory (architecture.md: DMA and paging buffers live there). */
    out->PagingBufferSegmentId = 0;
    out->PagingBufferSize = SWKMD_PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS query_umd_private(const struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(struct swgpu_umd_adapter_info)) {
        wddm_debug("kmd", "QueryAdapterInfo(UMDRIVERPRIVATE): OutputDataSize %u < %zu", q->OutputDataSize,
                   sizeof(struct swgpu_umd_adapter_info));
        return STATUS_BUFFER_TOO_SMALL;
    }
    struct swgpu_umd_adapter_info *info = q->pOutputData;
    memset(info, 0, sizeof(*info));
    info->magic = SWGPU_PRIVATE_MAGIC;
    info->version = SWGPU_PRIVATE_VERSION;
    info->node_count = SWKMD_NODE_COUNT;
    info->render_node = SWKMD_NODE_3D;
    info->copy_node = SWKMD_NODE_COPY;
    info->row_pitch_alignment = 256; /* seed 001 §7.2 */
    info->wddm_version = a->started ? (UINT32)a->caps.WDDMVersion : 0;
    info->gpummu = a->started && a->gpummu;
    info->iommu = a->started && a->iommu;
    if (a->started) {
        info->max_gpu_only_bytes = swkmd_kind_max_bytes(a, SWGPU_ALLOC_GPU_ONLY, false);
        info->max_sampled_texture_bytes = swkmd_kind_max_bytes(a, SWGPU_ALLOC_GPU_ONLY, true);
        info->max_upload_bytes = swkmd_kind_max_bytes(a, SWGPU_ALLOC_UPLOAD, false);
        info->max_readback_bytes = swkmd_kind_max_bytes(a, SWGPU_ALLOC_READBACK, false);
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdQueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !q || !q->pOutputData) {
        wddm_debug("kmd", "QueryAdapterInfo: bad adapter or NULL output buffer");
        return STATUS_INVALID_PARAMETER;
    }
    switch (q->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return query_driver_caps(a, q);
    case DXGKQAITYPE_LIBWDDM_DEFAULTCAPS:
        if (q->OutputDataSize < sizeof(DXGK_DRIVERCAPS))
            return STATUS_BUFFER_TOO_SMALL;
        default_caps(a, q->pOutputData);
        return STATUS_SUCCESS;
    case DXGKQAITYPE_QUERYSEGMENT:
        if (!a->started)
            return STATUS_INVALID_PARAMETER;
        return query_segments(a, q);
    case DXGKQAITYPE_UMDRIVERPRIVATE:
        return query_umd_private(a, q);
    case DXGKQAITYPE_GPUMMUCAPS:
        return swkmd_query_gpummu_caps(a, q);
    case DXGKQAITYPE_PAGETABLELEVELDESC:
        return swkmd_query_page_table_level(a, q);
    case DXGKQAITYPE_FRAMEBUFFERSAVESIZE:
        /* Asked when the caps claim IoMmuSecureModeSupported: the software GPU keeps no hardware-
         * reserved frame buffer to save across power transitions (VidMm saves the segments). */
        if (!a->caps.MemoryManagementCaps.IoMmuSecureModeSupported || !q->pOutputData ||
            q->OutputDataSize < sizeof(DXGK_FRAMEBUFFERSAVEAREA))
            return STATUS_INVALID_PARAMETER;
        ((DXGK_FRAMEBUFFERSAVEAREA *)q->pOutputData)->MaximumSize = 0;
        return STATUS_SUCCESS;
    default:
        wddm_debug("kmd", "QueryAdapterInfo: unknown type %d", (int)q->Type);
        return STATUS_INVALID_PARAMETER;
    }
}
