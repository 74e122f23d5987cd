/* minimal_kmd: a small WDDM 1.x kernel-mode driver for the software GPU, built out of tree
 * against an installed libwddm (README "Bring up your driver").
 *
 * What it is: the patching model (allocation list + patch-location list, DxgkDdiPatch), one
 * engine that runs both rendering and paging, two segments (local video memory and an aperture
 * over system pages), no preemption, no GpuMmu, no per-engine TDR, no power management. It serves
 * the reference UMD (swumd.so): it answers the UMD's private adapter data and understands its
 * allocation private data (drv/swgpu_private.h, the swgpu driver package's contract).
 *
 * How it reaches the rest of the system, as a Windows miniport does:
 *  - the kernel: DxgkInitialize (from DriverEntry) and WddmInterruptLineRaise are called by name
 *    (libwddm::displib forwards them); everything else comes through DXGKRNL_INTERFACE;
 *  - the kernel's services (wddm/wdm.h, also from libwddm::displib): pool memory by tag
 *    (ExAllocatePool2, ExFreePoolWithTag), DbgPrintEx, RtlZeroMemory / RtlCopyMemory, so the
 *    code reads as it would in the WDK;
 *  - the hardware: the software GPU (libwddm::swgpu, gpu/swgpu_hw.h), programmed with DMA
 *    buffers of its command format (gpu/swgpu_isa.h). An engine raises its interrupt line
 *    after each buffer; the ISR reads the engine's last-completed-fence register.
 *
 * Built with -DMINIMAL_KMD_LOSE_EVICTIONS it is the broken variant: it reports an eviction's
 * transfer done without writing it, which `wddm check` catches (Paging.Oversubscribe). */
#include <wddm/d3dkmddi.h>
#include <wddm/wdm.h>

#include <drv/swgpu_private.h>
#include <gpu/swgpu_hw.h>

#include <stdatomic.h>
#include <stdlib.h>

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath);

/* ---- What the driver reports ------------------------------------------------------------- */
#define NODE 0u                  /* the one engine: 3D work and paging (no MultiEngineAware) */
#define SEG_LOCAL 1u             /* local video memory, not CPU-visible */
#define SEG_APERTURE 2u          /* GART over system pages, CPU-visible through those pages */
#define SEG_COUNT 2u
#define SEG_BIT(id) (1u << ((id) - 1u))
#define DMA_BUFFER_SIZE (256u << 10)  /* a UMD command buffer is this big: it fits one DMA buffer */
#define ALLOCATION_LIST_SIZE 1024u
#define PATCH_LIST_SIZE 4096u
#define PAGING_BUFFER_SIZE (64u << 10)
#define RENAMING_LIST_LENGTH 8u   /* DYNAMIC buffers: instances VidMm may rename to on Discard */
/* What an address field holds until DxgkDdiPatch writes it, and what a non-resident allocation
 * gets: a segment id past every segment, so the GPU faults instead of touching host memory
 * (segment 0 is system memory, identity-mapped). */
#define POISON_ADDRESS SWGPU_SEGMENT_BASE(0xFF)

struct adapter {
    PDEVICE_OBJECT pdo;
    DXGKRNL_INTERFACE dxgk;
    struct swgpu *gpu;
    UINT64 segment_size[SEG_COUNT + 1]; /* by segment id */
    _Atomic UINT32 notified_fence;      /* the last fence the ISR reported */
};

struct device {
    struct adapter *adapter;
};

/* The UMD's description, kept: Render checks patch offsets against the size. */
struct allocation {
    UINT64 size;
    UINT32 kind;
};

/* Pool tags, one per kind of object, written reversed as WDK code does ('AdKM' shows as MKdA
 * in a pool dump); wddm_pool_outstanding() counts each tag's live blocks. */
#define TAG_ADAPTER    'AdKM'
#define TAG_DEVICE     'DdKM'
#define TAG_ALLOCATION 'LdKM'

/* The driver's diagnostics go to the kernel debugger: warnings, which WDDM_DEBUG=1 shows. */
#define LOG(...) DbgPrintEx(DPFLTR_IHVVIDEO_ID, DPFLTR_WARNING_LEVEL, "minimal_kmd: " __VA_ARGS__)

static UINT64 env_megabytes(const char *name, UINT64 fallback)
{
    const char *e = getenv(name);
    char *end = NULL;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    return (v && end && !*end && v <= (1u << 20)) ? v : fallback;
}

/* ---- Adapter lifetime ---------------------------------------------------------------------- */
static NTSTATUS APIENTRY AddDevice(const PDEVICE_OBJECT pdo, PVOID *context)
{
    struct adapter *a = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof *a, TAG_ADAPTER);
    if (!a)
        return STATUS_NO_MEMORY;
    a->pdo = pdo;
    *context = a;
    return STATUS_SUCCESS;
}

/* The GPU's interrupt line, raised on an engine thread: the platform then runs our ISR
 * serialized with every other ISR of the adapter. */
static void gpu_interrupt(void *context)
{
    struct adapter *a = context;
    WddmInterruptLineRaise(a->pdo, 0);
}

static NTSTATUS APIENTRY StartDevice(const PVOID context, DXGK_START_INFO *info, DXGKRNL_INTERFACE *dxgk,
                                     ULONG *sources, ULONG *children)
{
    struct adapter *a = context;
    a->dxgk = *dxgk; /* the kernel's callbacks: kept for the adapter's life */
    /* Sizes from the same variables as the reference KMD, so `wddm check` can ask for small
     * segments (it oversubscribes local memory 1.5 times). */
    a->segment_size[SEG_LOCAL] = env_megabytes("WDDM_SEGMENT_LOCAL_MB", 256) << 20;
    a->segment_size[SEG_APERTURE] = env_megabytes("WDDM_SEGMENT_APERTURE_MB", 512) << 20;
    struct swgpu_config cfg = {.segment_count = SEG_COUNT, .engine_count = 1,
                               .interrupt = gpu_interrupt, .interrupt_context = a};
    cfg.segments[SEG_LOCAL - 1] = (struct swgpu_segment_desc){a->segment_size[SEG_LOCAL], SWGPU_SEGMENT_MEMORY};
    cfg.segments[SEG_APERTURE - 1] = (struct swgpu_segment_desc){a->segment_size[SEG_APERTURE], SWGPU_SEGMENT_APERTURE};
    a->gpu = swgpu_create(&cfg);
    if (!a->gpu)
        return STATUS_NO_MEMORY;
    *sources = 0; /* render-only: no display */
    *children = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY StopDevice(const PVOID context)
{
    struct adapter *a = context;
    swgpu_destroy(a->gpu); /* joins the engine: no interrupt after this */
    a->gpu = NULL;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY RemoveDevice(const PVOID context)
{
    struct adapter *a = context;
    if (a->gpu)
        StopDevice(a);
    ExFreePoolWithTag(a, TAG_ADAPTER);
    return STATUS_SUCCESS;
}

/* ---- DxgkDdiQueryAdapterInfo: caps, segments, the UMD's private data ------------------------ */
static NTSTATUS query_caps(DXGK_DRIVERCAPS *c, UINT size, const struct adapter *a)
{
    if (size < sizeof *c)
        return STATUS_BUFFER_TOO_SMALL;
    RtlZeroMemory(c, sizeof *c);
    c->HighestAcceptableAddress.QuadPart = -1; /* the GPU reaches every system page */
    c->MaxAllocationListSlotId = ALLOCATION_LIST_SIZE;
    c->ApertureSegmentCommitLimit = (SIZE_T)a->segment_size[SEG_APERTURE];
    c->WDDMVersion = DXGKDDI_WDDMv1_3; /* the patching model: VidMm renames DYNAMIC buffers */
    c->GpuEngineTopology.NbAsymetricProcessingNodes = 1;
    c->SchedulingCaps.HwQueuePacketCap = 8; /* DMA buffers the engine's ring may hold at once */
    return STATUS_SUCCESS;
}

/* Two calls: first the count (no descriptor array), then the descriptors. */
static NTSTATUS query_segments(DXGK_QUERYSEGMENTOUT *out, UINT size, const struct adapter *a)
{
    if (size < sizeof *out)
        return STATUS_BUFFER_TOO_SMALL;
    if (!out->pSegmentDescriptor) {
        out->NbSegment = SEG_COUNT;
        return STATUS_SUCCESS;
    }
    if (out->NbSegment && out->NbSegment < SEG_COUNT)
        return STATUS_BUFFER_TOO_SMALL;
    out->NbSegment = SEG_COUNT;
    for (UINT id = 1; id <= SEG_COUNT; id++) {
        DXGK_SEGMENTDESCRIPTOR *d = &out->pSegmentDescriptor[id - 1];
        RtlZeroMemory(d, sizeof *d);
        /* The GPU address names the segment in its top byte (swgpu_isa.h), so a segment
         * address VidMm hands back is the GPU address itself. */
        d->BaseAddress.QuadPart = (LONGLONG)SWGPU_SEGMENT_BASE(id);
        d->Size = (SIZE_T)a->segment_size[id];
        d->CommitLimit = d->Size;
    }
    out->pSegmentDescriptor[SEG_APERTURE - 1].Flags.Aperture = 1;
    out->pSegmentDescriptor[SEG_APERTURE - 1].Flags.CacheCoherent = 1; /* the GPU snoops system memory */
    out->PagingBufferSegmentId = 0; /* paging buffers in system memory */
    out->PagingBufferSize = PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = 0;
    return STATUS_SUCCESS;
}

/* DXGKQAITYPE_UMDRIVERPRIVATE: the blob the reference UMD reads first (drv/swgpu_private.h). */
static NTSTATUS query_umd_private(struct swgpu_umd_adapter_info *info, UINT size, const struct adapter *a)
{
    if (size < sizeof *info)
        return STATUS_BUFFER_TOO_SMALL;
    RtlZeroMemory(info, sizeof *info);
    info->magic = SWGPU_PRIVATE_MAGIC;
    info->version = SWGPU_PRIVATE_VERSION;
    info->node_count = 1;
    info->render_node = NODE;
    info->copy_node = NODE;
    info->row_pitch_alignment = 256;
    info->wddm_version = DXGKDDI_WDDMv1_3;
    /* The largest allocation of each kind a segment it may live in can hold: the UMD refuses a
     * larger one at creation (it could never be made resident). */
    info->max_gpu_only_bytes = a->segment_size[SEG_LOCAL];
    info->max_sampled_texture_bytes = a->segment_size[SEG_LOCAL];
    info->max_upload_bytes = a->segment_size[SEG_APERTURE];
    info->max_readback_bytes = a->segment_size[SEG_APERTURE];
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY QueryAdapterInfo(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    const struct adapter *a = hAdapter;
    switch (q->Type) {
    case DXGKQAITYPE_DRIVERCAPS:
        return query_caps(q->pOutputData, q->OutputDataSize, a);
    case DXGKQAITYPE_QUERYSEGMENT:
        return query_segments(q->pOutputData, q->OutputDataSize, a);
    case DXGKQAITYPE_UMDRIVERPRIVATE:
        return query_umd_private(q->pOutputData, q->OutputDataSize, a);
    default:
        return STATUS_NOT_SUPPORTED;
    }
}

/* ---- Devices and contexts: nothing on this GPU but the limits they report -------------------- */
static NTSTATUS APIENTRY CreateDevice(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *args)
{
    struct device *d = ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof *d, TAG_DEVICE);
    if (!d)
        return STATUS_NO_MEMORY;
    d->adapter = hAdapter;
    if (args->pInfo) {
        RtlZeroMemory(args->pInfo, sizeof *args->pInfo);
        args->pInfo->DmaBufferSize = DMA_BUFFER_SIZE;
        args->pInfo->AllocationListSize = ALLOCATION_LIST_SIZE;
        args->pInfo->PatchLocationListSize = PATCH_LIST_SIZE;
    }
    args->hDevice = d;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY DestroyDevice(const HANDLE hDevice)
{
    ExFreePoolWithTag(hDevice, TAG_DEVICE);
    return STATUS_SUCCESS;
}

/* A context is a stream of DMA buffers on the one node; the KMD keeps nothing for it, so its
 * handle is its device's (Render needs no per-context state either). */
static NTSTATUS APIENTRY CreateContext(const HANDLE hDevice, DXGKARG_CREATECONTEXT *args)
{
    if (args->NodeOrdinal != NODE)
        return STATUS_INVALID_PARAMETER;
    DXGK_CONTEXTINFO *ci = &args->ContextInfo;
    RtlZeroMemory(ci, sizeof *ci);
    ci->DmaBufferSize = DMA_BUFFER_SIZE; /* in system memory (DmaBufferSegmentSet 0) */
    ci->AllocationListSize = ALLOCATION_LIST_SIZE;
    ci->PatchLocationListSize = PATCH_LIST_SIZE;
    args->hContext = hDevice;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY DestroyContext(const HANDLE hContext)
{
    return STATUS_SUCCESS;
}

/* ---- Allocations: the UMD's private data becomes placement -------------------------------- */
/* GPU_ONLY (DEFAULT, IMMUTABLE) lives in local memory and is evicted to system memory when it
 * is full; UPLOAD (DYNAMIC) and READBACK (STAGING) live in the aperture, CPU-visible. Cross-
 * adapter, primary and backing-store-sharing allocations are beyond this driver. */
static NTSTATUS describe(DXGK_ALLOCATIONINFO *info)
{
    struct swgpu_alloc_private p;
    if (!info->pPrivateDriverData || info->PrivateDriverDataSize < sizeof p)
        return STATUS_INVALID_PARAMETER;
    RtlCopyMemory(&p, info->pPrivateDriverData, sizeof p);
    if (p.magic != SWGPU_PRIVATE_MAGIC || p.version != SWGPU_PRIVATE_VERSION || !p.size ||
        p.size > SWGPU_ADDR_OFFSET_MASK / 2 || (p.flags & SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD))
        return STATUS_INVALID_PARAMETER;
    UINT64 size = (p.size + SWGPU_PAGE_SIZE - 1) & ~(UINT64)(SWGPU_PAGE_SIZE - 1);
    info->Flags.Value = 0;
    info->Flags2.Value = 0;
    info->HintedBank.Value = 0;
    info->PreferredSegment.Value = 0;
    info->EvictionSegmentSet = 0; /* evict straight to system memory */
    info->MaximumRenamingListLength = 0;
    info->pAllocationUsageHint = NULL;
    info->Alignment = SWGPU_PAGE_SIZE;
    info->Size = (SIZE_T)size;
    info->PitchAlignedSize = 0;
    info->AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_NORMAL;
    switch (p.kind) {
    case SWGPU_ALLOC_GPU_ONLY:
        info->PreferredSegment.SegmentId0 = SEG_LOCAL;
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet = SEG_BIT(SEG_LOCAL);
        break;
    case SWGPU_ALLOC_UPLOAD:
        info->Flags.CpuVisible = 1;
        info->MaximumRenamingListLength = RENAMING_LIST_LENGTH;
        info->PreferredSegment.SegmentId0 = SEG_APERTURE;
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet = SEG_BIT(SEG_APERTURE);
        break;
    case SWGPU_ALLOC_READBACK:
        info->Flags.CpuVisible = 1;
        info->Flags.Cached = 1; /* read by the CPU: cached, which only the coherent aperture allows */
        info->PreferredSegment.SegmentId0 = SEG_APERTURE;
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet = SEG_BIT(SEG_APERTURE);
        break;
    default:
        LOG("CreateAllocation: allocation kind %u is not supported\n", p.kind);
        return STATUS_NOT_SUPPORTED;
    }
    struct allocation *al = ExAllocatePool2(POOL_FLAG_NON_PAGED | POOL_FLAG_UNINITIALIZED, sizeof *al,
                                            TAG_ALLOCATION);
    if (!al)
        return STATUS_NO_MEMORY;
    *al = (struct allocation){size, p.kind};
    info->hAllocation = al;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY CreateAllocation(const HANDLE hAdapter, DXGKARG_CREATEALLOCATION *args)
{
    for (UINT i = 0; i < args->NumAllocations; i++) {
        NTSTATUS st = describe(&args->pAllocationInfo[i]);
        if (!NT_SUCCESS(st)) {
            while (i--) /* all or nothing */
                ExFreePoolWithTag(args->pAllocationInfo[i].hAllocation, TAG_ALLOCATION);
            return st;
        }
    }
    args->hResource = NULL;
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY DestroyAllocation(const HANDLE hAdapter, const DXGKARG_DESTROYALLOCATION *args)
{
    for (UINT i = 0; i < args->NumAllocations; i++)
        ExFreePoolWithTag(args->pAllocationList[i], TAG_ALLOCATION);
    return STATUS_SUCCESS;
}

/* A device opens an allocation: its device-specific handle is the allocation itself, which the
 * kernel hands back for the kernel handle (no per-device state on this GPU). */
static NTSTATUS APIENTRY OpenAllocation(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *args)
{
    const struct device *d = hDevice;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        DXGKARGCB_GETHANDLEDATA q = {args->pOpenAllocation[i].hAllocation, DXGK_HANDLE_ALLOCATION, 0};
        void *al = d->adapter->dxgk.DxgkCbGetHandleData(&q);
        if (!al)
            return STATUS_INVALID_PARAMETER;
        args->pOpenAllocation[i].hDeviceSpecificAllocation = al;
    }
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY CloseAllocation(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *args)
{
    return STATUS_SUCCESS;
}

/* ---- Render and Patch: the UMD's command buffer becomes a DMA buffer ----------------------- */
/* The byte offsets of a user command's address fields (at most two), or -1 for a command a
 * user buffer may not hold: FENCE and the GART and TLB commands are the KMD's, and the context
 * registers would need a save area this driver does not keep. */
static int address_fields(const struct swgpu_cmd_header *h, UINT32 off[2])
{
    switch (h->opcode) {
    case SWGPU_OP_NOP:
        return 0;
    case SWGPU_OP_COPY:
        off[0] = offsetof(struct swgpu_cmd_copy, dst.addr);
        off[1] = offsetof(struct swgpu_cmd_copy, src.addr);
        return h->size_bytes == sizeof(struct swgpu_cmd_copy) ? 2 : -1;
    case SWGPU_OP_FILL:
        off[0] = offsetof(struct swgpu_cmd_fill, dst.addr);
        return h->size_bytes == sizeof(struct swgpu_cmd_fill) ? 1 : -1;
    case SWGPU_OP_WRITE:
        off[0] = offsetof(struct swgpu_cmd_write, dst.addr);
        return h->size_bytes >= sizeof(struct swgpu_cmd_write) ? 1 : -1;
    case SWGPU_OP_TIMESTAMP:
        off[0] = offsetof(struct swgpu_cmd_timestamp, dst.addr);
        return h->size_bytes == sizeof(struct swgpu_cmd_timestamp) ? 1 : -1;
    default:
        return -1;
    }
}

/* Checks the patch list: in PatchOffset order (as the reference UMD writes it), each entry on
 * an 8-byte field inside the command buffer, naming an allocation-list entry, at an offset
 * inside that allocation (Render then checks that it is on an address field). A shipping KMD
 * also bounds every region a command touches by its allocation (the reference KMD does); here
 * the GPU only keeps them inside their segment. */
static NTSTATUS check_patches(const DXGKARG_RENDER *r)
{
    for (UINT i = 0; i < r->PatchLocationListInSize; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &r->pPatchLocationListIn[i];
        if ((i && p->PatchOffset < r->pPatchLocationListIn[i - 1].PatchOffset) ||
            r->CommandLength < 8 || p->PatchOffset > r->CommandLength - 8 ||
            p->AllocationIndex >= r->AllocationListSize)
            return STATUS_INVALID_PARAMETER;
        const struct allocation *al = r->pAllocationList[p->AllocationIndex].hDeviceSpecificAllocation;
        if (!al || p->AllocationOffset >= al->size)
            return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

/* Copies whole commands from MultipassOffset on while the DMA buffer and the output patch list
 * have room. Every address field is poisoned in the copy, so a field without a patch entry
 * faults on the GPU rather than reaching host memory. When the buffer is full, the kernel
 * submits it and calls again with a fresh one and MultipassOffset (a command boundary). */
static NTSTATUS APIENTRY Render(const HANDLE hContext, DXGKARG_RENDER *r)
{
    NTSTATUS st = check_patches(r);
    if (!NT_SUCCESS(st)) {
        LOG("Render: a patch location is out of order, outside the buffer or its allocation\n");
        return st;
    }
    const BYTE *cmd = r->pCommand;
    UINT32 off = r->MultipassOffset, start = off, written = 0, npatch = 0, k = 0;
    while (k < r->PatchLocationListInSize && r->pPatchLocationListIn[k].PatchOffset < start)
        k++;
    while (off < r->CommandLength) {
        struct swgpu_cmd_header h;
        UINT32 fields[2];
        if (r->CommandLength - off < sizeof h)
            return STATUS_INVALID_PARAMETER;
        RtlCopyMemory(&h, cmd + off, sizeof h);
        int n = address_fields(&h, fields);
        if (n < 0 || h.size_bytes < sizeof h || h.size_bytes % 8 || h.size_bytes > r->CommandLength - off ||
            h.size_bytes > DMA_BUFFER_SIZE) {
            LOG("Render: command at offset %u (opcode %u, %u bytes) refused\n", off, h.opcode, h.size_bytes);
            return STATUS_INVALID_PARAMETER;
        }
        /* Each patch location of the command lands exactly on one of its address fields: one
         * anywhere else could rewrite a header or turn inline data into commands after this
         * check. */
        UINT32 kend = k;
        for (; kend < r->PatchLocationListInSize && r->pPatchLocationListIn[kend].PatchOffset < off + h.size_bytes;
             kend++) {
            UINT32 rel = r->pPatchLocationListIn[kend].PatchOffset - off;
            if (!(n > 0 && rel == fields[0]) && !(n > 1 && rel == fields[1])) {
                LOG("Render: patch location %u is not on an address field\n",
                    r->pPatchLocationListIn[kend].PatchOffset);
                return STATUS_INVALID_PARAMETER;
            }
        }
        if (h.size_bytes > r->DmaSize - written || kend - k > r->PatchLocationListOutSize - npatch)
            break;
        BYTE *dst = (BYTE *)r->pDmaBuffer + written;
        RtlCopyMemory(dst, cmd + off, h.size_bytes);
        for (int f = 0; f < n; f++) {
            UINT64 poison = POISON_ADDRESS;
            RtlCopyMemory(dst + fields[f], &poison, sizeof poison);
        }
        for (; k < kend; k++) { /* offsets now relative to this DMA buffer */
            D3DDDI_PATCHLOCATIONLIST p = r->pPatchLocationListIn[k];
            p.PatchOffset = written + (p.PatchOffset - off);
            p.SplitOffset = written; /* VidMm may split the buffer before this command */
            r->pPatchLocationListOut[npatch++] = p;
        }
        written += h.size_bytes;
        off += h.size_bytes;
    }
    if (off == start && off < r->CommandLength)
        return STATUS_INVALID_PARAMETER; /* not one command fits a fresh buffer */
    r->pDmaBuffer = (BYTE *)r->pDmaBuffer + written;
    r->DmaSize -= written;
    r->pPatchLocationListOut += npatch;
    r->PatchLocationListOutSize -= npatch;
    r->MultipassOffset = off < r->CommandLength ? off : 0;
    return off < r->CommandLength ? STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER : STATUS_SUCCESS;
}

/* Just before submission, with every allocation resident: each patch location gets its
 * allocation's GPU address (PhysicalAddress: segment base + offset) + AllocationOffset. */
static NTSTATUS APIENTRY Patch(const HANDLE hAdapter, const DXGKARG_PATCH *p)
{
    BYTE *dma = p->pDmaBuffer;
    for (UINT i = 0; i < p->PatchLocationListSubmissionLength; i++) {
        const D3DDDI_PATCHLOCATIONLIST *l = &p->pPatchLocationList[p->PatchLocationListSubmissionStart + i];
        if (l->AllocationIndex >= p->AllocationListSize || l->PatchOffset < p->DmaBufferSubmissionStartOffset ||
            l->PatchOffset + 8 > p->DmaBufferSubmissionEndOffset)
            continue;
        UINT64 addr = (UINT64)p->pAllocationList[l->AllocationIndex].PhysicalAddress.QuadPart;
        addr = (addr >> SWGPU_ADDR_SEGMENT_SHIFT) ? addr + l->AllocationOffset : POISON_ADDRESS;
        RtlCopyMemory(dma + l->PatchOffset, &addr, sizeof addr);
    }
    return STATUS_SUCCESS;
}

/* Into the engine's ring: DMA and paging buffers are in system memory, so their "physical"
 * address is the host address. It must not fail; a bad buffer degrades to an empty one that
 * still completes its fence. */
static NTSTATUS APIENTRY SubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *s)
{
    const struct adapter *a = hAdapter;
    const void *dma = (const void *)(uintptr_t)s->DmaBufferPhysicalAddress.QuadPart;
    UINT32 start = s->DmaBufferSubmissionStartOffset, end = s->DmaBufferSubmissionEndOffset;
    if (s->Flags.NullRendering || end < start || !dma)
        end = start;
    swgpu_submit(a->gpu, NODE, dma, start, end, s->SubmissionFenceId, s->Flags.Paging);
    return STATUS_SUCCESS;
}

/* ---- Paging buffers: VidMm's moves, as copy, fill and GART commands ------------------------ */
static BYTE *reserve(DXGKARG_BUILDPAGINGBUFFER *b, UINT32 bytes)
{
    if (b->DmaSize < bytes)
        return NULL;
    BYTE *p = b->pDmaBuffer;
    b->pDmaBuffer = p + bytes;
    b->DmaSize -= bytes;
    return p;
}

/* GPU address of byte `pos` of a transfer side and how many bytes from there are contiguous
 * (at most `want`). A segment side is one range; an MDL side is system pages, identity-mapped
 * on this GPU, and consecutive page numbers make one run. */
static UINT64 side_run(UINT32 segment, LARGE_INTEGER address, const MDL *mdl, UINT64 mdl_base, UINT64 pos,
                       UINT64 want, UINT64 *out)
{
    if (segment) {
        *out = (UINT64)address.QuadPart + pos;
        return want;
    }
    UINT64 b = mdl_base + pos, page = b / SWGPU_PAGE_SIZE;
    if (page >= mdl->PageCount)
        return 0;
    *out = mdl->PfnArray[page] * SWGPU_PAGE_SIZE + b % SWGPU_PAGE_SIZE;
    UINT64 run = SWGPU_PAGE_SIZE - b % SWGPU_PAGE_SIZE;
    while (run < want && page + 1 < mdl->PageCount && mdl->PfnArray[page + 1] == mdl->PfnArray[page] + 1) {
        page++;
        run += SWGPU_PAGE_SIZE;
    }
    return run < want ? run : want;
}

/* TRANSFER: one COPY per contiguous run. Progress is kept in bytes in MultipassOffset: when the
 * paging buffer is full, VidMm submits it and calls again with the same operation. */
static NTSTATUS build_transfer(DXGKARG_BUILDPAGINGBUFFER *b)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &b->Transfer;
    UINT64 done = b->MultipassOffset, size = t->TransferSize;
    if ((!t->Source.SegmentId && !t->Source.pMdl) || (!t->Destination.SegmentId && !t->Destination.pMdl) ||
        size > 0xFFFFFFFFull)
        return STATUS_INVALID_PARAMETER;
#ifdef MINIMAL_KMD_LOSE_EVICTIONS
    /* The broken variant: an eviction (a segment to system memory) reported done, not done. */
    if (t->Source.SegmentId && !t->Destination.SegmentId)
        return STATUS_SUCCESS;
#endif
    LARGE_INTEGER src = t->Source.SegmentAddress, dst = t->Destination.SegmentAddress;
    src.QuadPart += t->Source.SegmentId ? t->TransferOffset : 0;
    dst.QuadPart += t->Destination.SegmentId ? t->TransferOffset : 0;
    const MDL *smdl = t->Source.SegmentId ? NULL : t->Source.pMdl;
    const MDL *dmdl = t->Destination.SegmentId ? NULL : t->Destination.pMdl;
    UINT64 sbase = smdl ? (UINT64)t->MdlOffset * SWGPU_PAGE_SIZE + smdl->ByteOffset : 0;
    UINT64 dbase = dmdl ? (UINT64)t->MdlOffset * SWGPU_PAGE_SIZE + dmdl->ByteOffset : 0;
    while (done < size) {
        UINT64 sa, da, want = size - done;
        UINT64 n = side_run(t->Source.SegmentId, src, smdl, sbase, done, want, &sa);
        UINT64 m = side_run(t->Destination.SegmentId, dst, dmdl, dbase, done, want, &da);
        if (!n || !m)
            return STATUS_INVALID_PARAMETER; /* an MDL shorter than the transfer */
        BYTE *p = reserve(b, sizeof(struct swgpu_cmd_copy));
        if (!p) {
            b->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        struct swgpu_cmd_copy c = {.hdr = {SWGPU_OP_COPY, sizeof c}, .row_bytes = (UINT32)(n < m ? n : m),
                                   .rows = 1, .slices = 1};
        c.dst.addr = da;
        c.src.addr = sa;
        RtlCopyMemory(p, &c, sizeof c);
        done += c.row_bytes;
    }
    b->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

/* FILL: a new allocation's content in a memory segment, one command (at most 4 GiB). */
static NTSTATUS build_fill(DXGKARG_BUILDPAGINGBUFFER *b)
{
    const DXGK_BUILDPAGINGBUFFER_FILL *f = &b->Fill;
    if (f->Destination.SegmentId != SEG_LOCAL || f->FillSize > 0xFFFFFFFFull)
        return STATUS_INVALID_PARAMETER;
    BYTE *p = reserve(b, sizeof(struct swgpu_cmd_fill));
    if (!p)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    struct swgpu_cmd_fill c = {.hdr = {SWGPU_OP_FILL, sizeof c}, .row_bytes = (UINT32)f->FillSize, .rows = 1,
                               .slices = 1, .pattern_bytes = 4};
    c.dst.addr = (UINT64)f->Destination.SegmentAddress.QuadPart;
    RtlCopyMemory(c.pattern, &f->FillPattern, 4);
    RtlCopyMemory(p, &c, sizeof c);
    return STATUS_SUCCESS;
}

/* MAP_APERTURE_SEGMENT: point aperture pages at an MDL's system pages (GART_MAP), as many
 * pages per command as fit; progress in pages in MultipassOffset. */
static NTSTATUS build_map(DXGKARG_BUILDPAGINGBUFFER *b, const struct adapter *a)
{
    const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT *m = &b->MapApertureSegment;
    UINT64 aperture_pages = a->segment_size[SEG_APERTURE] / SWGPU_PAGE_SIZE, done = b->MultipassOffset;
    if (m->SegmentId != SEG_APERTURE || m->OffsetInPages + m->NumberOfPages > aperture_pages ||
        (m->NumberOfPages && (!m->pMdl || m->MdlOffset + m->NumberOfPages > m->pMdl->PageCount)))
        return STATUS_INVALID_PARAMETER;
    const UINT32 head = sizeof(struct swgpu_cmd_gart_map);
    while (done < m->NumberOfPages) {
        if (b->DmaSize < head + 8) {
            b->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        UINT64 n = m->NumberOfPages - done, fit = (b->DmaSize - head) / 8;
        n = n < fit ? n : fit;
        BYTE *p = reserve(b, head + (UINT32)n * 8);
        struct swgpu_cmd_gart_map c = {.hdr = {SWGPU_OP_GART_MAP, head + (UINT32)n * 8},
                                       .first_page = (UINT32)(m->OffsetInPages + done), .page_count = (UINT32)n};
        RtlCopyMemory(p, &c, sizeof c);
        for (UINT64 i = 0; i < n; i++) {
            UINT64 page = m->pMdl->PfnArray[m->MdlOffset + done + i] * SWGPU_PAGE_SIZE;
            RtlCopyMemory(p + head + i * 8, &page, 8);
        }
        done += n;
    }
    b->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

/* UNMAP_APERTURE_SEGMENT: the pages point at the dummy page again (GART_UNMAP). */
static NTSTATUS build_unmap(DXGKARG_BUILDPAGINGBUFFER *b, const struct adapter *a)
{
    const DXGK_BUILDPAGINGBUFFER_UNMAPAPERTURESEGMENT *u = &b->UnmapApertureSegment;
    if (u->SegmentId != SEG_APERTURE ||
        u->OffsetInPages + u->NumberOfPages > a->segment_size[SEG_APERTURE] / SWGPU_PAGE_SIZE)
        return STATUS_INVALID_PARAMETER;
    if (!u->NumberOfPages)
        return STATUS_SUCCESS;
    BYTE *p = reserve(b, sizeof(struct swgpu_cmd_gart_unmap));
    if (!p)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    struct swgpu_cmd_gart_unmap c = {.hdr = {SWGPU_OP_GART_UNMAP, sizeof c}, .first_page = (UINT32)u->OffsetInPages,
                                     .page_count = (UINT32)u->NumberOfPages,
                                     .dummy_page = (UINT64)u->DummyPage.QuadPart};
    RtlCopyMemory(p, &c, sizeof c);
    return STATUS_SUCCESS;
}

static NTSTATUS APIENTRY BuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *b)
{
    NTSTATUS st;
    switch (b->Operation) {
    case DXGK_OPERATION_TRANSFER:
        st = build_transfer(b);
        break;
    case DXGK_OPERATION_FILL:
        st = build_fill(b);
        break;
    case DXGK_OPERATION_DISCARD_CONTENT:
        /* The content is abandoned: nothing for the GPU to do. Work still using it runs before
         * anything placed there later, on this GPU's one in-order engine. */
        return STATUS_SUCCESS;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT:
        st = build_map(b, hAdapter);
        break;
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT:
        st = build_unmap(b, hAdapter);
        break;
    default:
        st = STATUS_NOT_SUPPORTED; /* this driver asks for nothing that needs the others */
        break;
    }
    if (!NT_SUCCESS(st) && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER)
        LOG("BuildPagingBuffer: operation %d refused (0x%08x)\n", (int)b->Operation, (unsigned)st);
    return st;
}

/* ---- Interrupts: fences --------------------------------------------------------------------- */
/* The ISR, serialized by the kernel: the engine's last-completed-fence register against what
 * was last reported. Completion is cumulative (fence F means every buffer up to F is done), so
 * one DMA_COMPLETED carries any number of buffers; every notification is followed by a DPC. */
static BOOLEAN APIENTRY InterruptRoutine(const PVOID context, ULONG message)
{
    struct adapter *a = context;
    if (!a->gpu)
        return FALSE;
    struct swgpu_fault f;
    while (swgpu_take_fault(a->gpu, NODE, &f)) /* the buffer was skipped; its fence completes */
        LOG("GPU fault: fence %u, opcode %u at offset %u, address 0x%llx: %s\n", f.fence_id, f.opcode,
            f.command_offset, (unsigned long long)f.address, f.reason);
    UINT32 fence = swgpu_last_completed_fence(a->gpu, NODE);
    if (fence == atomic_load_explicit(&a->notified_fence, memory_order_relaxed))
        return FALSE; /* not ours: nothing new */
    atomic_store_explicit(&a->notified_fence, fence, memory_order_relaxed);
    DXGKARGCB_NOTIFY_INTERRUPT_DATA n = {.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED};
    n.DmaCompleted.SubmissionFenceId = fence;
    n.DmaCompleted.NodeOrdinal = NODE;
    a->dxgk.DxgkCbNotifyInterrupt(a->dxgk.DeviceHandle, &n);
    a->dxgk.DxgkCbQueueDpc(a->dxgk.DeviceHandle);
    return TRUE;
}

/* TDR (DxgkDdiResetFromTimeout): the GPU must have stopped reading and writing memory when this
 * returns: the engine is reset, its ring dropped. The kernel then retires every submitted fence. */
static NTSTATUS APIENTRY ResetFromTimeout(const HANDLE hAdapter)
{
    struct adapter *a = hAdapter;
    UINT32 aborted;
    swgpu_reset_engine(a->gpu, NODE, &aborted);
    atomic_store_explicit(&a->notified_fence, aborted, memory_order_relaxed);
    return STATUS_SUCCESS;
}

/* DxgkDdiRestartFromTimeout: the engine takes work again as soon as its reset returned. */
static NTSTATUS APIENTRY RestartFromTimeout(const HANDLE hAdapter)
{
    (void)hAdapter;
    return STATUS_SUCCESS;
}

static VOID APIENTRY DpcRoutine(const PVOID context)
{
    struct adapter *a = context;
    a->dxgk.DxgkCbNotifyDpc(a->dxgk.DeviceHandle); /* the scheduler retires what the ISR reported */
}

/* ---- DriverEntry: the DDI table --------------------------------------------------------------- */
NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PVOID RegistryPath)
{
    DRIVER_INITIALIZATION_DATA d;
    RtlZeroMemory(&d, sizeof d);
    d.Version = DXGKDDI_INTERFACE_VERSION_WIN7;
    /* The DDIs every WDDM KMD must have (the kernel's verifier, Init.MandatoryDdi). */
    d.DxgkDdiAddDevice = AddDevice;
    d.DxgkDdiStartDevice = StartDevice;
    d.DxgkDdiStopDevice = StopDevice;
    d.DxgkDdiRemoveDevice = RemoveDevice;
    d.DxgkDdiQueryAdapterInfo = QueryAdapterInfo;
    d.DxgkDdiCreateDevice = CreateDevice;
    d.DxgkDdiDestroyDevice = DestroyDevice;
    d.DxgkDdiCreateContext = CreateContext;
    d.DxgkDdiDestroyContext = DestroyContext;
    d.DxgkDdiCreateAllocation = CreateAllocation;
    d.DxgkDdiDestroyAllocation = DestroyAllocation;
    d.DxgkDdiOpenAllocation = OpenAllocation;
    d.DxgkDdiCloseAllocation = CloseAllocation;
    d.DxgkDdiRender = Render;
    d.DxgkDdiPatch = Patch;
    d.DxgkDdiSubmitCommand = SubmitCommand;
    d.DxgkDdiBuildPagingBuffer = BuildPagingBuffer;
    d.DxgkDdiInterruptRoutine = InterruptRoutine;
    d.DxgkDdiDpcRoutine = DpcRoutine;
    d.DxgkDdiResetFromTimeout = ResetFromTimeout;
    d.DxgkDdiRestartFromTimeout = RestartFromTimeout;
    return DxgkInitialize(DriverObject, RegistryPath, &d);
}
